"""Paul & Zhang's analytic inverse kinematics for Puma-560-like arms (6R, spherical
wrist; r6 ``ikine560``): all eight branches, batched over poses.

Results are :class:`robogui.engine.kinematics.ik_result.IKResult`;
``robogui.engine.kinematics.ikine`` re-exports
:func:`ikine560` and :func:`ikine560_all`.
"""

from __future__ import annotations

import math

import numpy as np

from ..checks import as_transform
from .ik_result import IKResult, _into_limits, _pose_error, _residual

__all__ = ["ikine560", "ikine560_all"]


# -- analytic solution for Puma-560-like arms ------------------------------------------

_CONFIGS = tuple(a + e + w for a in "lr" for e in "ud" for w in "nf")
_PUMA_ALPHA = (math.pi / 2, 0.0, -math.pi / 2, math.pi / 2, -math.pi / 2, 0.0)


def _puma_geometry(robot):
    """a2, a3, d1, d3, d4, d6 of a Puma-like arm, or ValueError saying what differs."""
    why = []
    if robot.n != 6 or robot.structure != "RRRRRR":
        why.append(f"it has joints {robot.structure}, not six revolute joints")
    elif robot.is_general:
        why.append("it has general (URDF) joints, not D-H parameters")
    elif robot.is_mdh:
        why.append("it uses modified D-H parameters")
    else:
        L = robot.links
        alpha = [Lk.alpha for Lk in L]
        if not np.allclose(alpha, _PUMA_ALPHA, atol=1e-9):
            why.append(f"its twists are {np.round(alpha, 4).tolist()}, not "
                       "[pi/2, 0, -pi/2, pi/2, -pi/2, 0]")
        zeros = {"a1": L[0].a, "d2": L[1].d, "a4": L[3].a, "a5": L[4].a, "d5": L[4].d,
                 "a6": L[5].a}
        bad = [k for k, v in zeros.items() if abs(v) > 1e-12]
        if bad:
            why.append(f"{', '.join(bad)} must be 0 (spherical wrist)")
        if abs(L[1].a) < 1e-12:
            why.append("a2 must not be 0")
    if why:
        raise ValueError(f"ikine560 needs a Puma-560-like arm; {robot.name!r}: "
                         + "; ".join(why))
    L = robot.links
    return L[1].a, L[2].a, L[0].d, L[2].d, L[3].d, L[5].d


def _ikine560_branches(robot, T):
    """All 8 branches: q (m, 8, 6), reachable (m, 8), reasons (m,) for T (m, 4, 4)."""
    from .kinematics import link_matrices

    a2, a3, d1, d3, d4, d6 = _puma_geometry(robot)
    m = T.shape[0]
    T06 = np.linalg.solve(robot.base, T) @ np.linalg.inv(robot.tool)
    R06 = T06[:, :3, :3]
    pw = T06[:, :3, 3] - d6 * R06[:, :, 2]  # wrist centre
    px, py, pz = pw[:, 0], pw[:, 1], pw[:, 2] - d1
    reasons = np.array([""] * m, dtype=object)
    R = np.hypot(px, py)
    inside = R < abs(d3) * (1 - 1e-12)
    for i in np.flatnonzero(inside):
        reasons[i] = (f"out of reach: the wrist centre is {R[i]:.4g} m from the shoulder "
                      f"axis, closer than the shoulder offset d3 = {abs(d3):.4g} m")
    ratio = np.clip(d3 / np.maximum(R, 1e-300), -1.0, 1.0)
    phi = np.arctan2(py, px)
    th1 = np.stack([phi + np.pi - np.arcsin(ratio), phi + np.arcsin(ratio)], 1)  # l, r
    c1, s1 = np.cos(th1), np.sin(th1)
    r = c1 * px[:, None] + s1 * py[:, None]  # (m, 2)
    z = np.broadcast_to(pz[:, None], r.shape)
    rho = math.hypot(a3, d4)
    beta = math.atan2(d4, a3)
    K = (r**2 + z**2 - a2**2 - a3**2 - d4**2) / (2 * a2 * rho)
    far = np.abs(K) > 1 + 1e-12
    for i in np.flatnonzero(np.any(far, axis=1) & ~inside):
        dist = math.sqrt(r[i, 0] ** 2 + pz[i] ** 2)
        reasons[i] = (f"out of reach: the wrist centre is {dist:.4g} m from the shoulder; "
                      f"the arm reaches {abs(abs(a2) - rho):.4g} to {abs(a2) + rho:.4g} m")
    acK = np.arccos(np.clip(K, -1.0, 1.0))
    th3c = np.stack([-beta + acK, -beta - acK], axis=2)  # (m, 2 arms, 2 candidates)
    c3, s3 = np.cos(th3c), np.sin(th3c)
    u, v = a2 + a3 * c3 - d4 * s3, a3 * s3 + d4 * c3
    th2c = np.arctan2(z, r)[..., None] - np.arctan2(v, u)
    # elbow up: the elbow lies above the line from the shoulder to the wrist centre
    cross = r[..., None] * a2 * np.sin(th2c) - z[..., None] * a2 * np.cos(th2c)
    up = np.sign(r)[..., None] * cross > 0
    pick_up = np.where(up[..., 0], 0, 1)  # candidate index that is elbow-up
    idx = np.stack([pick_up, 1 - pick_up], axis=2)  # (m, 2 arms, [u, d])
    th2 = np.take_along_axis(th2c, idx, axis=2)
    th3 = np.take_along_axis(th3c, idx, axis=2)
    # orientation of frame 3 for the 4 arm/elbow combinations, from the robot's own links
    off = robot.dh_arrays.offset
    th123 = np.stack([np.broadcast_to(th1[:, :, None], th2.shape), th2, th3], axis=-1)
    q123 = (th123 - off[:3]).reshape(-1, 3)
    A = link_matrices(robot.links[:3], q123)
    R03 = (A[:, 0, :3, :3] @ A[:, 1, :3, :3] @ A[:, 2, :3, :3]).reshape(m, 4, 3, 3)
    M = np.swapaxes(R03, -1, -2) @ R06[:, None]  # R36 = Rz(th4) Ry(-th5) Rz(th6)
    m02, m12 = M[..., 0, 2], M[..., 1, 2]
    sing = np.hypot(m02, m12) < 1e-12
    # "no flip" as r6/roboticstoolbox: the branch with sin(theta5) <= 0
    th4n = np.where(sing, 0.0, np.arctan2(m12, m02))
    th4 = np.stack([th4n, th4n + np.pi], axis=-1)  # (m, 4, [n, f])
    c4, s4 = np.cos(th4), np.sin(th4)
    th5 = np.arctan2(-(c4 * m02[..., None] + s4 * m12[..., None]), M[..., None, 2, 2])
    # Rz(th6) = Ry(th5) Rz(-th4) M: its first column gives th6
    x0 = c4 * M[..., None, 0, 0] + s4 * M[..., None, 1, 0]
    y0 = -s4 * M[..., None, 0, 0] + c4 * M[..., None, 1, 0]
    z0 = M[..., None, 2, 0]
    c5, s5 = np.cos(th5), np.sin(th5)
    th6 = np.arctan2(y0, c5 * x0 + s5 * z0)
    arm = np.broadcast_to(th123[:, :, :, None, :], (m, 2, 2, 2, 3)).reshape(m, 8, 3)
    wrist = np.stack([th4, th5, th6], axis=-1).reshape(m, 8, 3)
    theta = np.concatenate([arm, wrist], axis=-1)
    q = np.mod(theta - off + np.pi, 2 * np.pi) - np.pi  # (-pi, pi]
    reach = ~(inside[:, None] | np.repeat(far, 4, axis=1))
    return q, reach, reasons


def _finish560(robot, T, q, reach, reasons):
    """Limits, residuals, success and words for branch solutions q (m, k, 6)."""
    from .kinematics import fkine

    m, k, n = q.shape
    flat = q.reshape(-1, n)
    shifted, inside = _into_limits(flat, robot.qlim, robot.dh_arrays.revolute)
    flat = np.where(inside[:, None], shifted, flat)
    res = _residual(_pose_error(np.repeat(T, k, axis=0)[:, :3],
                                fkine(robot, flat)[:, :3]), np.ones(6)).reshape(m, k)
    inside = inside.reshape(m, k)
    ok = reach & inside & (res < 1e-9)
    lim = robot.qlim
    why = np.empty((m, k), dtype=object)
    for i in range(m):
        for b in range(k):
            if not reach[i, b]:
                why[i, b] = reasons[i] or "out of reach"
            elif not inside[i, b]:
                qq = flat.reshape(m, k, n)[i, b]
                bad = [str(j + 1) for j in range(n) if not lim[j, 0] <= qq[j] <= lim[j, 1]]
                why[i, b] = f"joint {', '.join(bad)} outside its limits"
            elif not ok[i, b]:
                why[i, b] = f"pose error {res[i, b]:.3g} after solving (not a Puma geometry?)"
            else:
                why[i, b] = "analytic"
    return flat.reshape(m, k, n), ok, res, why


def _parse_config(config: str) -> str:
    if not isinstance(config, str):
        raise ValueError(f"config must be a string of letters l/r, u/d, n/f, got {config!r}")
    c = config.lower()
    unknown = set(c) - set("lrudnf")
    if unknown or any(sum(ch in c for ch in pair) > 1 for pair in ("lr", "ud", "nf")):
        raise ValueError(f"config must hold at most one of each pair l/r (left/right arm), "
                         f"u/d (elbow up/down), n/f (wrist no flip/flip), got {config!r}")
    pick = lambda pair: next((ch for ch in pair if ch in c), pair[0])  # noqa: E731
    return pick("lr") + pick("ud") + pick("nf")


def _nearest_rotation(T: np.ndarray) -> np.ndarray:
    """T (m, 4, 4) with each rotation part replaced by the nearest rotation (SVD polar
    factor). as_transform lets R^T R differ from I by up to its tolerance; the analytic
    solution is exact for a rotation, so it solves for (and is measured against) this one,
    as the numeric solver converges to it."""
    U, _, Vt = np.linalg.svd(T[:, :3, :3])
    out = T.copy()
    out[:, :3, :3] = U @ Vt
    out[:, 3] = (0.0, 0.0, 0.0, 1.0)
    return out


def ikine560(robot, T, config: str = "lun") -> IKResult:
    """Analytic inverse kinematics of a Puma-560-like arm (Paul and Zhang 1986; r6).

    T: (4, 4) or (m, 4, 4), base and tool included. config (r6 letters, any order,
    missing ones default to l, u, n): "l"/"r" left/right-handed arm, "u"/"d" elbow
    above/below the line from the shoulder to the wrist centre, "n"/"f" wrist not
    flipped/flipped (the flip adds pi to q4 and q6 and negates q5).

    T's rotation part, which may be off a rotation by the 1e-6 that the input check allows,
    is replaced by the nearest rotation before solving.

    Returns an :class:`IKResult` (iterations 0). Angles are wrapped to (-pi, pi] and
    shifted by 2 pi into the joint limits when that fits. An unreachable pose or a branch
    outside the joint limits gives ``success=False`` and a reason in words, with a finite
    q (for an unreachable pose: the arm stretched towards it). ValueError if the robot is
    not Puma-like.
    """
    cfg = _parse_config(config)
    Tt = as_transform(T, "T")
    single = Tt.ndim == 2
    Tt = _nearest_rotation(Tt.reshape(-1, 4, 4))
    q, reach, reasons = _ikine560_branches(robot, Tt)
    b = _CONFIGS.index(cfg)
    q, ok, res, why = _finish560(robot, Tt, q[:, b:b + 1], reach[:, b:b + 1], reasons)
    if single:
        return IKResult(q[0, 0], bool(ok[0, 0]), 0, float(res[0, 0]), str(why[0, 0]), cfg)
    return IKResult(q[:, 0], ok[:, 0], np.zeros(len(q), dtype=int), res[:, 0],
                    tuple(why[:, 0]), cfg)


def ikine560_all(robot, T) -> IKResult:
    """All 8 analytic branches: q (8, 6) for T (4, 4), (m, 8, 6) for (m, 4, 4).

    ``config`` lists the branches in order ("lun", "luf", "ldn", "ldf", "run", "ruf",
    "rdn", "rdf"); ``success`` (8,) or (m, 8) marks those reachable and within limits;
    ``reason`` says why the others are not.
    """
    Tt = as_transform(T, "T")
    single = Tt.ndim == 2
    Tt = _nearest_rotation(Tt.reshape(-1, 4, 4))
    q, reach, reasons = _ikine560_branches(robot, Tt)
    q, ok, res, why = _finish560(robot, Tt, q, reach, reasons)
    it = np.zeros(ok.shape, dtype=int)
    if single:
        return IKResult(q[0], ok[0], it[0], res[0], tuple(why[0]), _CONFIGS)
    return IKResult(q, ok, it, res, tuple(tuple(w) for w in why), _CONFIGS)
