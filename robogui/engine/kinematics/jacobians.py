"""Manipulator Jacobians and differential kinematics, batched over joint states.

Rows of every Jacobian are ``[vx vy vz wx wy wz]``; columns are joints. ``jacob0`` is
expressed in the world (base) frame, ``jacobe`` in the end-effector (tool) frame (r6
calls it ``jacobn``). Shapes: q (n,) -> (6, n); q (m, n) -> (m, 6, n).

"No hidden call order": functions that need the link frames compute them, or take
``frames`` from :func:`robogui.engine.kinematics.kinematics.fkine_all` to avoid doing it twice.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array, as_joint_array
from ..model.mimic import coupled
from .kinematics import check_prismatic_overflow, run_kernel

__all__ = ["jacob0", "jacobe", "jacobn", "jacob_dot", "dTdqi", "jacobian_dls_inv"]


def _check_frames(robot, frames, m: int, single: bool) -> np.ndarray:
    """Frames from fkine_all as (m, n+1, 4, 4), checked against q's shape."""
    F = as_float_array(frames, "frames")
    n = robot.n
    want = (n + 1, 4, 4) if single else (m, n + 1, 4, 4)
    if F.shape != want:
        raise ValueError(f"frames must have shape {want} (fkine_all of q), got shape {F.shape}")
    if not np.all(np.isfinite(F)):
        raise ValueError("frames contains a non-finite value (NaN or inf)")
    return F.reshape(-1, n + 1, 4, 4)


def _axes(robot, F: np.ndarray):
    """Joint axes z (m, n, 3), points on them o (m, n, 3) and the end point pe (m, 3).

    Standard D-H: joint j moves about z of frame j; modified D-H: about z of frame j+1;
    general joints: about z of frame j times the joint's constant ``pre``.
    The last frame of fkine_all carries the tool, which is taken off for the axis.
    """
    n = robot.n
    pe = F[:, n, :3, 3]
    if robot.is_general:  # the axis frame of joint j is frame j-1 times its constant pre
        A = F[:, :n] @ robot.joint_models.pre
    elif robot.is_mdh:
        A = F[:, 1:n + 1]
        if not robot.tool_is_identity:
            A = A.copy()
            A[:, -1] = F[:, n] @ np.linalg.inv(robot.tool)
    else:
        A = F[:, :n]
    return A[..., :3, 2], A[..., :3, 3], pe


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product over the last axis (3), cheaper than np.cross for small batches."""
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _jacob0_frames(robot, F: np.ndarray, flip: bool = True) -> np.ndarray:
    """jacob0 from frames; ``flip=False`` gives the columns by the D-H joint values
    (before the sign of flipped axes, Link.flip, is applied)."""
    z, o, pe = _axes(robot, F)
    dh = robot.dh_arrays
    rev = dh.revolute
    Jv = np.where(rev[:, None], _cross(z, pe[:, None, :] - o), z)
    Jw = np.where(rev[:, None], z, 0.0)
    J = np.concatenate([Jv, Jw], axis=2).transpose(0, 2, 1)
    return J * dh.sign if flip and dh.has_flip else J


def _end_link(robot, q, frames, end, fn):
    """``fn`` (jacob0 or jacobe) for the chain up to link frame ``end``, padded with zero
    columns for the joints after it (they do not move that frame)."""
    sub = robot.upto(end)
    q2d, single = as_joint_array(q, robot.n)
    F = None
    if frames is not None:
        F = _check_frames(robot, frames, q2d.shape[0], single)[:, :end + 1]
        if end == robot.n and not robot.tool_is_identity:
            F = F.copy()
            F[:, end] = F[:, end] @ np.linalg.inv(robot.tool)
    J = fn(sub, q2d[:, :end], frames=F)
    out = np.zeros((q2d.shape[0], 6, robot.n))
    out[:, :, :end] = J
    return out[0] if single else out


@coupled("cols", "q")
def jacob0(robot, q, frames=None, end: int | None = None) -> np.ndarray:
    """Jacobian in the world frame (base and tool included): (n,) -> (6, n); (m, n) -> (m, 6, n).

    ``[v; w] = jacob0(q) @ qd`` with v the tool-point velocity (m/s) and w the angular
    velocity (rad/s), both in world coordinates. ``frames`` (optional) is
    ``fkine_all(robot, q)``, to reuse frames already computed. ``end=k`` (1..n) gives the
    Jacobian of link frame k's origin instead of the tool point (ROBOOP
    ``jacobian(endlink, 0)``); the columns of joints after k are zero.
    """
    if end is not None:
        return _end_link(robot, q, frames, end, jacob0)
    q2d, single = as_joint_array(q, robot.n)
    n = robot.n
    if frames is not None:
        J = _jacob0_frames(robot, _check_frames(robot, frames, q2d.shape[0], single))
        return J[0] if single else J
    vals = run_kernel(robot, q2d, single, "jac", layout="samples")
    check_prismatic_overflow(robot, vals, q2d, "jacob0")
    return np.array(vals).reshape(6, n) if single else vals.reshape(-1, 6, n)


def _rotate_rows(R: np.ndarray, J: np.ndarray) -> np.ndarray:
    """blockdiag(R^T, R^T) @ J for R (m, 3, 3), J (m, 6, n)."""
    Rt = np.swapaxes(R, -1, -2)
    return np.concatenate([Rt @ J[:, :3], Rt @ J[:, 3:]], axis=1)


@coupled("cols", "q")
def jacobe(robot, q, frames=None, end: int | None = None) -> np.ndarray:
    """Jacobian in the end-effector (tool) frame: (n,) -> (6, n); (m, n) -> (m, 6, n).

    ``jacobe = blockdiag(R^T, R^T) @ jacob0`` with R the tool orientation; r6 ``jacobn``.
    Tool-tip wrench F (end-effector frame) to joint torques: ``tau = jacobe(q).T @ F``.
    ``end=k`` (1..n): the Jacobian of link frame k expressed in frame k (ROBOOP
    ``jacobian(k, k)``); the columns of joints after k are zero.
    """
    if end is not None:
        return _end_link(robot, q, frames, end, jacobe)
    q2d, single = as_joint_array(q, robot.n)
    n = robot.n
    if frames is not None:
        F = _check_frames(robot, frames, q2d.shape[0], single)
        J = _rotate_rows(F[:, n, :3, :3], _jacob0_frames(robot, F))
        return J[0] if single else J
    vals = run_kernel(robot, q2d, single, "endjac", layout="samples")
    vals = np.asarray(vals).reshape(-1, 12 + 6 * n)
    R = vals[:, :12].reshape(-1, 3, 4)[:, :, :3]
    J = _rotate_rows(R, vals[:, 12:].reshape(-1, 6, n))
    return J[0] if single else J


jacobn = jacobe  # r6 name


@coupled("cols", "q", "qd")
def jacob_dot(robot, q, qd, frames=None, frame="base") -> np.ndarray:
    """Time derivative of ``jacob0`` along the joint velocity ``qd`` (ROBOOP jacobian_dot).

    q, qd: (n,) -> (6, n); (m, n) -> (m, 6, n). ``jacob_dot(q, qd) @ qd`` is the
    acceleration bias: the tool-point acceleration (m/s^2) and angular acceleration
    (rad/s^2) in world coordinates when ``qdd = 0``.

    ``frame`` says in which axes the rows are expressed (ROBOOP ``jacobian_dot(ref)``,
    eq. 2.51): "base" (world, default), "end" (tool frame) or an integer i in 0..n (link
    frame i; 0 is the base frame): ``blockdiag(R_i^T, R_i^T) @ jacob_dot``.
    """
    if not (isinstance(frame, str) and frame == "base"):
        Jd = jacob_dot(robot, q, qd, frames)
        single = Jd.ndim == 2
        if frames is None:
            from .kinematics import fkine_all

            q2d, _ = as_joint_array(q, robot.n)
            frames = fkine_all(robot, q2d)
        F = np.asarray(frames).reshape(-1, robot.n + 1, 4, 4)
        if isinstance(frame, str):
            if frame != "end":
                raise ValueError(f"frame must be 'base', 'end' or a link index, got {frame!r}")
            R = F[:, robot.n, :3, :3]
        elif isinstance(frame, (bool, np.bool_)) or not isinstance(frame, (int, np.integer)) \
                or not 0 <= frame <= robot.n:
            raise ValueError(f"frame must be 'base', 'end' or a link index in 0..{robot.n}, "
                             f"got {frame!r}")
        else:
            R = F[:, int(frame), :3, :3]
            if frame == robot.n and not robot.tool_is_identity:
                R = R @ robot.tool[:3, :3].T
        out = _rotate_rows(R, Jd.reshape(-1, 6, robot.n))
        return out[0] if single else out
    q2d, single = as_joint_array(q, robot.n)
    qd2, single_d = as_joint_array(qd, robot.n, "qd")
    if qd2.shape != q2d.shape or single != single_d:
        raise ValueError("qd must have the same shape as q, (n,) or (m, n)")
    if frames is None:
        from .kinematics import fkine_all

        F = fkine_all(robot, q2d)
    else:
        F = _check_frames(robot, frames, q2d.shape[0], single)
    z, o, pe = _axes(robot, F)
    dh = robot.dh_arrays
    rev = dh.revolute
    if dh.has_flip:  # work with the D-H joint rates; columns get the sign at the end
        qd2 = qd2 * dh.sign
    J = _jacob0_frames(robot, F, flip=False)
    wq = np.where(rev, qd2, 0.0)[..., None] * z  # (m, n, 3) angular velocity per joint
    pq = np.where(rev, 0.0, qd2)[..., None] * z  # linear velocity per prismatic joint
    # exclusive cumulative sums: what joints k < j contribute at joint j
    w = np.cumsum(wq, axis=1) - wq
    wxo = np.cumsum(_cross(wq, o), axis=1) - _cross(wq, o)
    vlin = np.cumsum(pq, axis=1) - pq
    od = _cross(w, o) - wxo + vlin  # velocity of the point o_j
    zd = _cross(w, z)  # rate of change of the axis z_j
    ped = np.einsum("mrj,mj->mr", J[:, :3], qd2)  # end-point velocity
    Jvd = _cross(zd, pe[:, None] - o) + _cross(z, ped[:, None] - od)
    Jvd = np.where(rev[:, None], Jvd, zd)
    Jwd = np.where(rev[:, None], zd, 0.0)
    Jd = np.concatenate([Jvd, Jwd], axis=2).transpose(0, 2, 1)
    if dh.has_flip:
        Jd = Jd * dh.sign
    return Jd[0] if single else Jd


def dTdqi(robot, q, i: int) -> np.ndarray:
    """Partial derivative of the end-effector pose by joint ``i`` (0-based; ROBOOP dTdqi).

    (n,) -> (4, 4); (m, n) -> (m, 4, 4). The bottom row is zero. ROBOOP numbers joints
    from 1; here ``i`` is a Python index.
    """
    q2d, single = as_joint_array(q, robot.n)
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < robot.n:
        raise ValueError(f"i must be a joint index in 0..{robot.n - 1}, got {i!r}")
    cp = getattr(robot, "coupling", None)
    if cp is not None:  # mimic joints: the chain rule over the joints that move with i
        Q = q2d @ cp.E.T + cp.c
        D = sum(cp.E[k, i] * dTdqi(robot.full, Q, int(k)) for k in np.flatnonzero(cp.E[:, i]))
        return D[0] if single else D
    from .kinematics import fkine_all

    F = fkine_all(robot, q2d)
    z, o, pe = _axes(robot, F)
    z, o = z[:, i], o[:, i]
    T = F[:, robot.n]
    D = np.zeros_like(T)
    if robot.dh_arrays.revolute[i]:
        for k in range(3):  # d(R e_k)/dq = z x (R e_k)
            D[:, :3, k] = _cross(z, T[:, :3, k])
        D[:, :3, 3] = _cross(z, pe - o)
    else:
        D[:, :3, 3] = z
    D *= robot.dh_arrays.sign[i]  # a flipped axis (Link.flip) turns the other way
    return D[0] if single else D


def jacobian_dls_inv(robot, q, eps: float = 0.05, lambda_max: float = 0.1,
                     frame: str = "base") -> np.ndarray:
    """Damped least-squares inverse of the Jacobian (ROBOOP jacobian_DLS_inv).

    ``J^-1 = sum_i sigma_i / (sigma_i^2 + lambda^2) v_i u_i^T`` with
    ``lambda^2 = 0`` when the smallest singular value ``sigma_min >= eps`` and
    ``(1 - (sigma_min/eps)^2) lambda_max^2`` inside the singular region, so joint rates
    stay bounded (by about ``1/(2 lambda_max)`` per unit Cartesian rate) at a singularity.
    ``frame``: "base" (jacob0, ROBOOP ref=0) or "end" (jacobe).
    Shapes: (n,) -> (n, 6); (m, n) -> (m, n, 6).
    """
    eps = float(eps)
    lambda_max = float(lambda_max)
    if not eps > 0 or not np.isfinite(eps):
        raise ValueError(f"eps must be a positive number, got {eps}")
    if not lambda_max >= 0 or not np.isfinite(lambda_max):
        raise ValueError(f"lambda_max must be a non-negative number, got {lambda_max}")
    if frame not in ("base", "end"):
        raise ValueError(f"frame must be 'base' or 'end', got {frame!r}")
    J = (jacob0 if frame == "base" else jacobe)(robot, q)
    single = J.ndim == 2
    J = J.reshape(-1, 6, robot.n)
    U, S, Vt = np.linalg.svd(J, full_matrices=False)
    smin = S[:, -1:]
    lam2 = np.where(smin >= eps, 0.0, (1.0 - (smin / eps) ** 2) * lambda_max**2)
    den = S**2 + lam2
    gain = np.divide(S, den, out=np.zeros_like(S), where=den > 0)
    inv = np.einsum("mji,mj,mkj->mik", Vt, gain, U)
    return inv[0] if single else inv
