"""Inverse kinematics: a numeric solver for any chain; Paul & Zhang's analytic solution
for Puma-560-like arms (6R, spherical wrist) is in :mod:`.ikine_puma` (re-exported
here as ``ikine560`` and ``ikine560_all``); the result type and pose error are in
:mod:`.ik_result`.

``ikine`` returns an :class:`IKResult` (q, success, iterations, residual, reason);
for a stack of poses (m, 4, 4) every field gets a leading m axis (reason a tuple).
Failures are results, never NaN: ``success`` is False and ``reason`` says why.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy.linalg.lapack import dposv as _dposv

from ..checks import as_float_array, as_transform
from .ik_result import IKResult, _into_limits, _pose_error, _residual, pose_error
from .ikine_puma import ikine560, ikine560_all
from .kinematics import run_kernel

__all__ = ["IKResult", "ikine", "ikine560", "ikine560_all", "pose_error"]

# Sugihara weight w_n in lambda = w_n E + lam_bar; 0.1 needs the fewest iterations on the Puma
_E_SCALE = 0.1
_METHODS = ("lm", "r6", "roboop", "roboop_taylor")


# -- numeric solver --------------------------------------------------------------------

def _evaluate(robot, q: np.ndarray):
    """End pose top rows (m, 3, 4) and jacob0 (m, 6, n) from one kernel pass."""
    n = robot.n
    if q.shape[0] == 1:
        vals = np.array(run_kernel(robot, q, True, "endjac"))[None]
    else:
        vals = run_kernel(robot, q, False, "endjac", layout="samples")
    return vals[:, :12].reshape(-1, 3, 4), vals[:, 12:].reshape(-1, 6, n)


def _to_end(R, e, J):
    """Error e (m, 6) and Jacobian J (m, 6, n) from world to end-effector components,
    R (m, 3, 3) the end-effector orientation."""
    Rt = np.swapaxes(R, 1, 2)
    ee = np.concatenate([(Rt @ e[:, :3, None])[..., 0], (Rt @ e[:, 3:, None])[..., 0]], 1)
    return ee, np.concatenate([Rt @ J[:, :3], Rt @ J[:, 3:]], axis=1)


def _step(method, J, e, w, Tc, lam_bar, end=False):
    """Joint step (m, n) for errors e (m, 6), weights w (6,).

    J and e are in the frame the weights apply to: world, or the end effector (``end``).
    """
    m, _, n = J.shape
    if method == "lm":
        # Sugihara's damping lambda = E + lambda_bar: large far away, small near the goal
        We = e * w
        E = 0.5 * np.sum(We * e, axis=1)
        JtW = np.swapaxes(J, 1, 2) * w
        A = JtW @ J + (_E_SCALE * E + lam_bar)[:, None, None] * np.eye(n)
        return np.linalg.solve(A, (JtW @ e[..., None]))[..., 0]
    if method == "r6":  # r6 ikine: dq = pinv(J0) (weighted) * error
        return (np.linalg.pinv(J * w[:, None]) @ (e * w)[..., None])[..., 0]
    R = Tc[:, :3, :3]
    if method == "roboop":  # ROBOOP mj = 0: error and Jacobian in the end-effector frame
        Jw, ew = J * w[:, None], e * w  # weighted in the mask's frame, then rotated
        if not end:
            ew, Jw = _to_end(R, ew, Jw)
        return (np.linalg.pinv(Jw) @ ew[..., None])[..., 0]
    # ROBOOP mj = 1: first-order Taylor expansion of T in q, solved for the 12 entries
    Jw = J[:, 3:]
    dR = np.cross(np.swapaxes(Jw, 1, 2)[:, :, None, :], np.swapaxes(R, 1, 2)[:, None], axis=-1)
    A = np.concatenate([np.swapaxes(dR, 2, 3).reshape(m, n, 9), np.swapaxes(J[:, :3], 1, 2)],
                       axis=2)  # (m, n, 12): d(vec R, p)/dq_i
    rot = _rotvec_matrix(e[:, 3:]) @ R  # target rotation, reconstructed from the error
    b = np.concatenate([(rot - R).reshape(m, 9), e[:, :3]], axis=1)
    return (np.linalg.pinv(np.swapaxes(A, 1, 2)) @ b[..., None])[..., 0]


def _rotvec_matrix(r):
    th = np.linalg.norm(r, axis=-1)
    k = r / np.where(th > 0, th, 1.0)[:, None]
    K = np.zeros((len(r), 3, 3))
    K[:, 0, 1], K[:, 0, 2], K[:, 1, 2] = -k[:, 2], k[:, 1], -k[:, 0]
    K = K - np.swapaxes(K, 1, 2)
    s, c = np.sin(th)[:, None, None], np.cos(th)[:, None, None]
    return np.eye(3) + s * K + (1 - c) * (K @ K)





def _search(robot, Tt, q, w, tol, ilimit, method, lam_bar, end=False, lim=None, rev=None):
    """Iterate from q (m, n) towards Tt (m, 3, 4) until every residual < tol or ilimit.

    ``end``: the weights w apply to the error in end-effector components.
    Returns q, residual, iterations (all (m,)), and the best iterate inside the joint
    limits ``lim`` (n, 2) (None: no limits) over the whole search, shifted by 2 pi into
    them, with its residual: (m, n), (m,) (inf where no iterate was inside; computed only
    for rows that did not converge inside the limits). Works on the unconverged subset.
    """
    m = q.shape[0]
    q = q.copy()
    res = np.full(m, np.inf)
    iters = np.zeros(m, dtype=int)
    act = np.arange(m)
    path = []  # (rows, their iterates, residuals) per iteration: the arrays exist anyway
    step_max = 1.0  # rad (or m) per iteration: keeps undamped variants sane near singularities
    for _ in range(ilimit + 1):
        qa = q[act]
        Tc, J = _evaluate(robot, qa)
        e = _pose_error(Tt[act], Tc)
        if end:
            e, J = _to_end(Tc[:, :, :3], e, J)
        r = _residual(e, w)
        res[act] = r
        path.append((act, qa, r))
        keep = r >= tol
        if not np.all(keep):
            act, J, e, Tc = act[keep], J[keep], e[keep], Tc[keep]
        if act.size == 0 or _ >= ilimit:
            break
        dq = _step(method, J, e, w, Tc, lam_bar, end)
        big = np.max(np.abs(dq), axis=1, keepdims=True)
        dq *= np.minimum(1.0, step_max / np.maximum(big, 1e-300))
        q[act] += dq
        iters[act] += 1
    best_q, best_r = q.copy(), np.full(m, np.inf)
    failed = res >= tol
    if lim is not None:
        failed |= ~_into_limits(q, lim, rev)[1]
    if np.any(failed):  # only those rows' paths are looked at
        rows = np.concatenate([a for a, _, _ in path])
        pick = failed[rows]
        rows = rows[pick]
        Q = np.concatenate([x for _, x, _ in path])[pick]
        R = np.concatenate([x for _, _, x in path])[pick]
        if lim is not None:
            Q, inside = _into_limits(Q, lim, rev)
            rows, Q, R = rows[inside], Q[inside], R[inside]
        order = np.lexsort((R, rows))  # by row, then residual: the first of a row is best
        rows, Q, R = rows[order], Q[order], R[order]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = rows[1:] != rows[:-1]
        best_q[rows[first]] = Q[first]
        best_r[rows[first]] = R[first]
    return q, res, iters, best_q, best_r


def _best_inside(path_q, path_r, lim, rev):
    """The iterate with the lowest residual among those inside the limits.

    path_q: (k, n) iterates, path_r: (k,) their residuals. Returns q (n,) shifted by 2 pi
    into the limits and its residual, or (None, inf) when none lies inside.
    """
    Q = np.array(path_q, dtype=float)
    R = np.array(path_r, dtype=float)
    if lim is None:
        inside = np.ones(len(R), dtype=bool)
    else:
        Q, inside = _into_limits(Q, lim, rev)
    if not np.any(inside):
        return None, math.inf
    k = int(np.argmin(np.where(inside, R, np.inf)))
    return Q[k], float(R[k])


def _error_floats(tt, v):
    """pose_error for one pose from 12 floats each (top rows, row-major), as a list."""
    e = [tt[3] - v[3], tt[7] - v[7], tt[11] - v[11]]
    # Re = Rt Rc^T, element (i, j) = row i of Rt . row j of Rc
    a0, a1, a2, b0, b1, b2, c0, c1, c2 = tt[0], tt[1], tt[2], tt[4], tt[5], tt[6], \
        tt[8], tt[9], tt[10]
    x0, x1, x2, y0, y1, y2, z0, z1, z2 = v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]
    r00 = a0 * x0 + a1 * x1 + a2 * x2
    r11 = b0 * y0 + b1 * y1 + b2 * y2
    r22 = c0 * z0 + c1 * z1 + c2 * z2
    vx = 0.5 * ((c0 * y0 + c1 * y1 + c2 * y2) - (b0 * z0 + b1 * z1 + b2 * z2))
    vy = 0.5 * ((a0 * z0 + a1 * z1 + a2 * z2) - (c0 * x0 + c1 * x1 + c2 * x2))
    vz = 0.5 * ((b0 * x0 + b1 * x1 + b2 * x2) - (a0 * y0 + a1 * y1 + a2 * y2))
    s = math.sqrt(vx * vx + vy * vy + vz * vz)
    c = 0.5 * (r00 + r11 + r22 - 1.0)
    if s <= 1e-6 and c < 0:  # about pi: the vectorised version handles the axis
        return _pose_error(np.array(tt).reshape(3, 4), np.array(v[:12]).reshape(3, 4)).tolist()
    k = math.atan2(s, c) / s if s > 1e-12 else 1.0
    return e + [vx * k, vy * k, vz * k]


def _search_one(robot, tt, q, w, tol, ilimit, method, lam_bar, end=False):
    """``_search`` for one pose, in floats where numpy's per-call cost would dominate.

    tt: target top rows as 12 floats; q: (n,) start. Returns q, residual, iterations,
    and the path: every iterate (lists of n floats) and its residual, so that a failed
    search can give back its best in-limit iterate (see ``_best_inside``).
    """
    from .kinematics import kernel_for

    n = robot.n
    kern = kernel_for(robot, "endjac")
    offs = robot.dh_arrays.offset_list
    sgn = robot.dh_arrays.sign_list  # Link.flip (seeds: flipped joint axes)
    wl = w.tolist()
    weighted = bool(np.any(w != 1.0))
    ql = np.asarray(q, dtype=float).tolist()  # Python floats: no numpy call per joint
    cos, sin = math.cos, math.sin
    path_q, path_r = [], []  # appending references costs nothing per iteration
    for it in range(ilimit + 1):
        path_q.append(ql)
        qo = [a * f + b for a, f, b in zip(ql, sgn, offs, strict=True)]
        v = kern([cos(x) for x in qo], [sin(x) for x in qo], qo)
        e = _error_floats(tt, v)
        if end:  # weights on end-effector components: the array path
            Tc = np.array(v[:12]).reshape(1, 3, 4)
            E, J = _to_end(Tc[:, :, :3], np.array(e)[None], np.array(v[12:]).reshape(1, 6, n))
            r = float(_residual(E, w)[0])
            path_r.append(r)
            if r < tol or it == ilimit:
                return np.array(ql), r, it, (path_q, path_r)
            dq = _step(method, J, E, w, Tc, lam_bar, True)[0]
            big = float(np.abs(dq).max())
            ql = (np.array(ql) + (dq / big if big > 1.0 else dq)).tolist()
            continue
        we = [a * b for a, b in zip(e, wl, strict=True)]
        r = max(math.sqrt(we[0] ** 2 + we[1] ** 2 + we[2] ** 2),
                math.sqrt(we[3] ** 2 + we[4] ** 2 + we[5] ** 2))
        path_r.append(r)
        if r < tol or it == ilimit:
            return np.array(ql), r, it, (path_q, path_r)
        if method == "lm":
            Jt = np.array(v[12:]).reshape(6, n).T
            JtW = Jt * w if weighted else Jt
            A = JtW @ Jt.T
            A.flat[:: n + 1] += _E_SCALE * 0.5 * sum(a * b for a, b in zip(we, e, strict=True)) \
                + lam_bar
            g = JtW @ e
            _, dq, info = _dposv(A, g)
            if info != 0:  # not positive definite (lam_bar ~ 0 at a singularity)
                dq = np.linalg.lstsq(A, g, rcond=None)[0]
            dql = dq.tolist()
            big = max(map(abs, dql))
            if big > 1.0:  # keep undamped variants sane near singularities
                dql = [x / big for x in dql]
            ql = [a + b for a, b in zip(ql, dql, strict=True)]
            continue
        else:
            J = np.array(v[12:]).reshape(6, n)
            Tc = np.array(v[:12]).reshape(1, 3, 4)
            dq = _step(method, J[None], np.array(e)[None], w, Tc, lam_bar)[0]
        big = float(np.abs(dq).max())
        if big > 1.0:  # keep undamped variants sane near singularities
            dq *= 1.0 / big
        ql = (np.array(ql) + dq).tolist()
    return np.array(ql), r, ilimit, (path_q, path_r)


def _reach_bound(robot) -> float:
    """An upper bound on the distance from the base origin to the tool point (m)."""
    total = float(np.linalg.norm(robot.tool[:3, 3]))
    for L in getattr(robot, "chain", robot.links):  # followers of mimic joints included
        total += L.length if L.is_general else abs(L.a)
        if L.joint == "R":
            total += 0.0 if L.is_general else abs(L.d)
        elif L.qlim is None:
            return math.inf  # unlimited travel: no bound
        else:
            total += max(abs(L.qlim[0] + L.offset), abs(L.qlim[1] + L.offset))
    return total


def _as_mask(mask, n: int) -> np.ndarray:
    if mask is None:
        if n < 6:
            raise ValueError(f"a {n}-joint robot cannot reach an arbitrary 6-D pose; give a "
                             "mask, e.g. [1, 1, 1, 0, 0, 0] for position only")
        return np.ones(6)
    w = as_float_array(mask, "mask")
    if w.shape != (6,) or not np.all(np.isfinite(w)) or np.any(w < 0) or not np.any(w):
        raise ValueError("mask must be 6 non-negative weights [x y z rx ry rz] with at least "
                         f"one non-zero, got {mask!r}")
    return w


def ikine(robot, T, q0=None, mask=None, *, tol: float = 1e-10, ilimit: int = 50,
          slimit: int = 50, method: str = "lm", joint_limits: bool = True,
          chain: bool = True, seed: int | None = 0, lam_bar: float = 1e-12,
          mask_frame: str = "base", end: int | None = None) -> IKResult:
    """Numeric inverse kinematics (base and tool included).

    Parameters
    ----------
    T : (4, 4) target pose, or (m, 4, 4) a stack of poses.
    q0 : (n,) initial joint coordinates (default zeros, as r6), or (m, n) one per pose.
    mask : 6 weights for ``[x y z rx ry rz]`` (r6 ``M``); 0 leaves that direction free.
        Needed for robots with fewer than 6 joints.
    mask_frame : the axes the mask refers to: "base" (default; world axes, as
        roboticstoolbox-python and the r6 code) or "end" (end-effector axes, as the r6
        manual's text: ``[1, 1, 1, 1, 1, 0]`` frees the rotation about the tool z axis,
        what a 5-axis arm cannot control). A mask with equal weights within position and
        within rotation (e.g. ``[1, 1, 1, 0, 0, 0]``) means the same in both frames.
    tol : success when the position error (m) and rotation error (rad) are below it.
    ilimit, slimit : iterations per search and number of searches; searches after the
        first start from random q within the limits.
    method : "lm" (Levenberg-Marquardt with Sugihara's damping, the default), "r6"
        (r6's pseudo-inverse iteration in the base frame), "roboop" (ROBOOP inv_kin
        mj=0, end-effector frame) or "roboop_taylor" (ROBOOP mj=1, using dT/dq_i; it
        solves for the whole pose and takes no mask).
    joint_limits : a solution outside ``robot.qlim`` (after shifting angles by 2 pi)
        counts as a failure and the solver restarts elsewhere.
    chain : for a stack, seed each pose with the previous solution (r6, for
        trajectories: continuous branch); the first pose starts from q0. ``chain=False``
        solves all poses at once, vectorised, each from q0. A q0 with one row per pose
        (m, n) gives every pose its own start, so it is not chained.
    seed : random-restart seed (reproducible by default).
    lam_bar : the constant part of the Levenberg-Marquardt damping. It must stay well
        below the squared smallest singular value of the Jacobian at a solution 1e-3 rad
        from a singularity (about 1e-9 on the Puma), or the step along the nearly lost
        direction is damped away and the solve stalls there.

    Returns an :class:`IKResult`; never NaN. When no search succeeds, ``q`` is the best
    one found inside the joint limits at any iteration of any search (lowest pose error;
    angles shifted by 2 pi into them), ``residual`` its pose error, and ``reason`` says
    what went wrong: beyond the arm's reach, reached only outside the limits, stalled at
    a singularity, or the best error seen. ValueError for a target too far away to
    compute a pose error (1e308 m).

    ``end=k`` (1..n) solves for link frame k instead of the tool (ROBOOP
    ``inv_kin(Tobj, mj, endlink, converge)``): only joints 1..k move (``mask`` has
    6 weights as usual); the other joints keep their ``q0`` values.
    """
    if end is not None:  # seeds: solve on the first k links (Robot.upto), q0 tail kept
        sub = robot.upto(end)
        q0a = np.zeros(robot.n) if q0 is None else as_float_array(q0, "q0")
        if q0a.shape[-1:] != (robot.n,) or q0a.ndim > 2:
            raise ValueError(f"q0 must have shape ({robot.n},) or (m, {robot.n}), got "
                             f"shape {q0a.shape}")
        res = ikine(sub, T, q0a[..., :end], mask, tol=tol, ilimit=ilimit, slimit=slimit,
                    method=method, joint_limits=joint_limits, chain=chain, seed=seed,
                    lam_bar=lam_bar, mask_frame=mask_frame)
        q = np.array(np.broadcast_to(q0a, res.q.shape[:-1] + (robot.n,)))
        q[..., :end] = res.q
        return dataclasses.replace(res, q=q)
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}, got {method!r}")
    Tt = as_transform(T, "T")
    single = Tt.ndim == 2
    Tt = Tt.reshape(-1, 4, 4)
    _check_target_range(robot, Tt)
    m, n = Tt.shape[0], robot.n
    w = _as_mask(mask, n)
    if mask_frame not in ("base", "end"):
        raise ValueError(f"mask_frame must be 'base' or 'end', got {mask_frame!r}")
    if method == "roboop_taylor" and np.any(w != 1.0):
        raise ValueError("method 'roboop_taylor' solves for the whole pose and takes no mask "
                         "(all weights 1); use method 'lm' with a mask")
    # weights equal within position and within rotation are the same in any frame
    end = mask_frame == "end" and not (np.all(w[:3] == w[0]) and np.all(w[3:] == w[3]))
    for name, v in (("tol", tol), ("lam_bar", lam_bar)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a positive number, got {v!r}")
    for name, v in (("ilimit", ilimit), ("slimit", slimit)):
        if not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"{name} must be a positive integer, got {v!r}")
    if q0 is None:
        Q0 = np.zeros((1, n))
    else:
        Q0 = as_float_array(q0, "q0")
        if Q0.shape not in ((n,), (m, n)):
            raise ValueError(f"q0 must have shape ({n},) or ({m}, {n}) (one row per pose), "
                             f"got shape {Q0.shape}")
        if not np.all(np.isfinite(Q0)):
            raise ValueError("q0 contains a non-finite value (NaN or inf)")
        Q0 = Q0.reshape(-1, n)
    if joint_limits:
        try:
            _ = robot.qlim  # raises for a prismatic joint without limits
        except ValueError as exc:
            raise ValueError(f"{exc}, or call ikine with joint_limits=False") from None
    rng = np.random.default_rng(seed)
    opts = dict(w=w, tol=tol, ilimit=ilimit, slimit=slimit, method=method,
                joint_limits=joint_limits, rng=rng, lam_bar=lam_bar, end=end)
    if chain and m > 1 and Q0.shape[0] == 1:
        outs, prev = [], Q0[0]
        for i in range(m):
            r = _solve_batch(robot, Tt[i:i + 1], prev[None], **opts)
            outs.append(r)
            if r[1][0]:
                prev = r[0][0]
        q, ok, it, res, why = (np.concatenate([o[k] for o in outs]) for k in range(5))
    else:
        q, ok, it, res, why = _solve_batch(robot, Tt, np.broadcast_to(Q0, (m, n)), **opts)
    if single:
        return IKResult(q[0], bool(ok[0]), int(it[0]), float(res[0]), str(why[0]))
    return IKResult(q, ok, it, res, tuple(str(s) for s in why))


def _check_target_range(robot, Tt: np.ndarray) -> None:
    """ValueError when a target's distance from the base overflows (e.g. 1e308 m): no
    pose error could be computed, so there is nothing to search for."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is what we look for
        d = Tt[:, :3, 3] - robot.base[:3, 3]
        bad = ~np.isfinite(np.sum(d * d, axis=1))
    if np.any(bad):
        k = int(np.argmax(bad))
        where = "T" if len(Tt) == 1 else f"T[{k}]"
        raise ValueError(f"{where} has its position {Tt[k, :3, 3].tolist()} m too far from "
                         "the base to compute a pose error (its distance overflows); give a "
                         "target within reach")


def _sigma_min(robot, q: np.ndarray) -> np.ndarray:
    """Smallest singular value of the Jacobian at q (m, n): (m,)."""
    _, J = _evaluate(robot, q)
    return np.linalg.svd(J, compute_uv=False)[:, -1]


def _pose_residual(robot, Tt34, q, w, end) -> np.ndarray:
    """Weighted pose error (m,) of q (m, n) against the targets' top rows (m, 3, 4)."""
    Tc, J = _evaluate(robot, q)
    e = _pose_error(Tt34, Tc)
    if end:
        e, _ = _to_end(Tc[:, :, :3], e, J)
    return _residual(e, w)


def _solve_batch(robot, Tt, Q0, *, w, tol, ilimit, slimit, method, joint_limits, rng,
                 lam_bar, end):
    """Vectorised searches with restarts for every pose of Tt (m, 4, 4).

    A pose that no search solves gets the best q seen (the lowest pose error among all
    iterates of all searches that lie inside the joint limits, after shifting angles by
    2 pi, and the final iterates' projections onto the limits) and
    a reason built from what was seen: an end point beyond the arm's reach, solutions
    only outside the limits, or the best error and whether the arm is singular there.
    """
    m, n = Tt.shape[0], robot.n
    lim = robot.qlim if joint_limits else None
    rev = robot.dh_arrays.revolute
    q_out = np.array(Q0, dtype=float)
    ok = np.zeros(m, dtype=bool)
    iters = np.zeros(m, dtype=int)
    res = np.full(m, np.inf)  # best residual among in-limit results (inf: none yet)
    why = np.array(["did not converge"] * m, dtype=object)
    outside = np.zeros(m, dtype=bool)
    out_res = np.full(m, np.inf)  # best residual among results outside the limits
    # an end point farther from the base than the arm can stretch is not worth a search
    dist = np.linalg.norm(Tt[:, :3, 3] - robot.base[:3, 3], axis=1)
    reach = _reach_bound(robot)
    far = (dist > reach * (1 + 1e-9)) & (w[:3] > 0).all()
    for i in np.flatnonzero(far):
        why[i] = f"out of reach: the target is {dist[i]:.4g} m from the base, the arm reaches " \
                 f"at most {reach:.4g} m"
    pend = np.flatnonzero(~far)
    Tt34 = Tt[:, :3, :]
    start = q_out[pend]
    for _ in range(slimit):
        if pend.size == 0:
            break
        path = None
        if pend.size == 1 and getattr(robot, "coupling", None) is None:  # float path
            q1, r1, it1, path = _search_one(robot, Tt34[pend[0]].ravel().tolist(), start[0],
                                            w, tol, ilimit, method, lam_bar, end)
            q, r, it = q1[None], np.array([r1]), np.array([it1])
        else:
            q, r, it, qb, rb = _search(robot, Tt34[pend], start, w, tol, ilimit, method,
                                       lam_bar, end, lim, rev)
        iters[pend] += it
        conv = r < tol
        if lim is not None:
            qs, inside = _into_limits(q, lim, rev)
        else:
            qs, inside = q, np.ones(len(q), dtype=bool)
        r_in = np.where(inside, r, np.inf)  # a 2 pi shift keeps the pose error
        if lim is not None and not np.all(inside):  # outside: its projection into limits
            r_in[~inside] = _pose_residual(robot, Tt34[pend[~inside]], qs[~inside], w, end)
        # a failed search gives back its best in-limit iterate (any iteration, not only
        # the last: the solver may pass closer than where it stops)
        failed = ~(conv & inside)
        if path is not None and failed[0]:
            qb1, rb1 = _best_inside(*path, lim, rev)
            qb, rb = (qs, r_in) if qb1 is None else (qb1[None], np.array([rb1]))
        if path is None or failed[0]:
            take = failed & (rb < r_in)
            qs = np.where(take[:, None], qb, qs)
            r_in = np.where(take, rb, r_in)
        better = r_in < res[pend]  # best in-limit q so far
        res[pend[better]] = r_in[better]
        q_out[pend[better]] = qs[better]
        worse_out = ~inside & (r < out_res[pend])
        out_res[pend[worse_out]] = r[worse_out]
        outside[pend[conv & ~inside]] = True
        good = conv & inside
        ok[pend[good]] = True
        pend = pend[~good]
        if lim is not None:
            start = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((pend.size, n))
        else:
            start = rng.uniform(-math.pi, math.pi, (pend.size, n))
    why[ok] = "converged"
    none_inside = np.flatnonzero(~ok & ~np.isfinite(res))
    if none_inside.size:  # not searched (out of reach): the start, clipped into the limits
        if lim is not None:
            q_out[none_inside] = np.clip(q_out[none_inside], lim[:, 0], lim[:, 1])
        res[none_inside] = _pose_residual(robot, Tt34[none_inside], q_out[none_inside], w,
                                          end)
    if pend.size:
        smin = _sigma_min(robot, q_out[pend])
        for i, sm in zip(pend, smin, strict=True):
            why[i] = _failure_reason(res[i], out_res[i], outside[i], sm, tol, slimit, ilimit)
    return q_out, ok, iters, res, why


def _failure_reason(best, best_out, outside, smin, tol, slimit, ilimit) -> str:
    """Words for a pose that no search solved (see _solve_batch)."""
    head = f"no solution within tol {tol:.3g} in {slimit} searches of {ilimit} iterations"
    if outside:
        return (f"{head}: the pose was attained only outside the joint limits (error "
                f"{best_out:.3g}); the best q inside them has pose error {best:.3g} m/rad")
    text = f"{head}; the best q inside the limits has pose error {best:.3g} m/rad"
    if smin < 1e-6:
        text += (f" at a singularity (smallest singular value of the Jacobian {smin:.2g}): "
                 "the solver stalls where the arm loses a direction of motion")
    elif best < 1e-6:
        text += "; it is close: a larger tol or ilimit may accept it"
    else:
        text += "; the pose may be out of reach or only reachable outside the joint limits"
    return text
