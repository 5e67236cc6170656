"""Forward kinematics for standard and modified D-H chains, batched over joint states.

All functions take ``q`` of shape (n,) or (m, n); the (m, n) form returns a leading m
axis. The work is vectorised over samples and links; the only Python loop is the
chain product over the n links.
"""

from __future__ import annotations

import numpy as np

from .checks import as_joint_array

__all__ = ["link_matrices", "fkine", "fkine_all", "joint_locations", "link_transform"]


def link_matrices(links_or_robot, q2d: np.ndarray) -> np.ndarray:
    """Link transforms ``A_j(q_j)`` for every sample and link: (m, n) -> (m, n, 4, 4).

    ``q2d`` is taken as already checked. Accepts a Robot or a sequence of Links.
    """
    dh = getattr(links_or_robot, "dh_arrays", None)
    if dh is None:
        from .robot import DHArrays

        dh = DHArrays.from_links(list(links_or_robot))
    q2d = np.asarray(q2d, dtype=np.float64)
    qo = q2d + dh.offset
    theta = np.where(dh.revolute, qo, dh.theta)
    d = np.where(dh.revolute, dh.d, qo)
    ct, st = np.cos(theta), np.sin(theta)
    ca, sa, a = dh.cos_alpha, dh.sin_alpha, dh.a
    m, n = q2d.shape
    A = np.zeros((m, n, 4, 4))
    A[..., 3, 3] = 1.0
    if dh.mdh:
        A[..., 0, 0] = ct
        A[..., 0, 1] = -st
        A[..., 0, 3] = a
        A[..., 1, 0] = st * ca
        A[..., 1, 1] = ct * ca
        A[..., 1, 2] = -sa
        A[..., 1, 3] = -sa * d
        A[..., 2, 0] = st * sa
        A[..., 2, 1] = ct * sa
        A[..., 2, 2] = ca
        A[..., 2, 3] = ca * d
    else:
        A[..., 0, 0] = ct
        A[..., 0, 1] = -st * ca
        A[..., 0, 2] = st * sa
        A[..., 0, 3] = a * ct
        A[..., 1, 0] = st
        A[..., 1, 1] = ct * ca
        A[..., 1, 2] = -ct * sa
        A[..., 1, 3] = a * st
        A[..., 2, 1] = sa
        A[..., 2, 2] = ca
        A[..., 2, 3] = d
    return A


def _chain(robot, q2d: np.ndarray, all_frames: bool) -> np.ndarray:
    A = link_matrices(robot, q2d)
    m, n = q2d.shape
    if all_frames:
        frames = np.empty((m, n + 1, 4, 4))
        frames[:, 0] = robot.base
        for j in range(n):
            frames[:, j + 1] = frames[:, j] @ A[:, j]
        if not robot.tool_is_identity:
            frames[:, n] = frames[:, n] @ robot.tool
        return frames
    T = np.broadcast_to(robot.base, (m, 4, 4))
    for j in range(n):
        T = T @ A[:, j]
    if not robot.tool_is_identity:
        T = T @ robot.tool
    return T


def fkine(robot, q) -> np.ndarray:
    """End-effector pose, base and tool included: (n,) -> (4, 4); (m, n) -> (m, 4, 4)."""
    q2d, single = as_joint_array(q, robot.n)
    T = _chain(robot, q2d, all_frames=False)
    return T[0] if single else T


def fkine_all(robot, q) -> np.ndarray:
    """Frames of the base and every link: (n,) -> (n+1, 4, 4); (m, n) -> (m, n+1, 4, 4).

    Frame 0 is the base transform; frame n has the tool applied.
    """
    q2d, single = as_joint_array(q, robot.n)
    F = _chain(robot, q2d, all_frames=True)
    return F[0] if single else F


def joint_locations(robot, q) -> np.ndarray:
    """Origins of the frames of ``fkine_all``: (n,) -> (n+1, 3); (m, n) -> (m, n+1, 3).

    JFKengine's getJointLocations.
    """
    return fkine_all(robot, q)[..., :3, 3]


def link_transform(robot, j: int, qj) -> np.ndarray:
    """Transform of link ``j`` (0-based) for joint value ``qj``: scalar -> (4, 4), (m,) -> (m, 4, 4)."""
    if not 0 <= int(j) < robot.n:
        raise ValueError(f"j must be a link index in 0..{robot.n - 1}, got {j}")
    return robot.links[int(j)].A(qj)
