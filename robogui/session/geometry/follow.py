"""Where geometry beyond an off-chain mimic joint is drawn (Qt-free).

A URDF gripper's second finger hangs on a joint off the chain that mimics the chain's
finger joint (:attr:`robogui.engine.model.visual.Visual.follow`). Its placement in its frame
depends on the leader's value (through every stage: a follower of a follower moves by
both), which this module reads back from the frames the view already has (a gripper
joint's value is the session's, passed in): frame ``j+1`` is frame ``j`` moved by chain
joint ``j``'s constant ``pre``, its motion and ``post``. The view, the ghosts and the
link picker all work from frames, so nothing else has to carry q.
"""

from __future__ import annotations

import numpy as np

from robogui.engine.model.visual import follow_matrices
from robogui.engine.spatial.transforms import angvec2tr

__all__ = ["joint_values_from_frames", "follow_placements", "motion_matrix"]


def motion_matrix(axis, value: float, revolute: bool) -> np.ndarray:
    """The 4x4 turn by ``value`` rad about the unit ``axis`` (revolute) or the shift by
    ``value`` m along it."""
    axis = np.asarray(axis, dtype=float)
    if revolute:
        return angvec2tr(value, axis)
    M = np.eye(4)
    M[:3, 3] = value * axis
    return M


def joint_values_from_frames(jm, body_frames: np.ndarray, joints) -> np.ndarray:
    """Values of chain joints ``joints`` read from ``body_frames`` (n_bodies+1, 4, 4:
    ``fkine_all`` with the tool taken off the last). ``jm``: the joint models of the
    chain with its mimic joints (``robot.full.joint_models``, computed once per robot).
    A revolute value comes back in (-pi, pi] (before the joint's offset and sign)."""
    F = np.asarray(body_frames, dtype=float)
    out = np.empty(len(joints))
    for k, j in enumerate(joints):
        # pre^-1 F_j^-1 F_{j+1} post^-1 is the joint's own motion about or along z
        A = np.linalg.solve(F[j] @ jm.pre[j], F[j + 1] @ np.linalg.inv(jm.post[j]))
        theta = np.arctan2(A[1, 0], A[0, 0]) if jm.revolute[j] else A[2, 3]
        out[k] = (theta - jm.offset[j]) / jm.sign[j]
    return out


def follow_placements(jm, body_frames: np.ndarray, follows, gripper=None) -> np.ndarray:
    """``J_1 M_1(v_1) ... J_k M_k(v_k)`` (k, 4, 4) for each ``Visual.follow`` in
    ``follows``: where the last following joint's child frame is, in the frame its
    geometry hangs on (``jm`` as in :func:`joint_values_from_frames`). Chain leaders are
    read from the frames; gripper leaders from ``gripper`` {name: value} (absent: 0)."""
    if not follows:
        return np.zeros((0, 4, 4))
    joints = sorted({st[0] for f in follows for st in f if not isinstance(st[0], str)})
    Q = np.zeros((1, max(joints, default=-1) + 1))
    if joints:
        Q[0, joints] = joint_values_from_frames(jm, body_frames, joints)
    return np.stack([follow_matrices(f, Q, gripper)[0] for f in follows])
