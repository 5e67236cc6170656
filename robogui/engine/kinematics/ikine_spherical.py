"""Closed-form inverse kinematics of 6R arms with a spherical wrist and parallel axes 2, 3
(Puma, KUKA, ABB, FANUC, Yaskawa, Staubli ...), in any description, batched over poses.

Pieper's decoupling on the screw model of :mod:`.arm_family`: the wrist centre c (where
axes 4-6 meet) is moved by joints 1-3 only, so ``c_target = T M^-1 c0``. Joints 2 and 3
keep c's coordinate along their common direction, which fixes q1 (two shoulder solutions);
the distance from axis 2 fixes q3 (two elbow solutions), then q2; the wrist rotation
``(R1 R2 R3)^T R`` gives q4, q5 (two wrist solutions) and q6. All are Paden-Kahan
subproblems (:mod:`.subproblems`): eight branches per pose.
"""

from __future__ import annotations

import numpy as np

from .arm_family import ArmModel, motion, rot
from .subproblems import angle_about, distance_angles, projection_angles, two_axis_angles

__all__ = ["spherical_branches"]


def _apply(E: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.einsum("...ab,...b->...a", E[..., :3, :3], x) + E[..., :3, 3]


def spherical_branches(model: ArmModel, T: np.ndarray):
    """Eight branches q (m, 8, 6) and a mask (m, 8) of those that exist, for poses
    T (m, 4, 4) (world frame, tool included); order (shoulder, elbow, wrist) x 2 each."""
    w, p = model.w, model.p
    m = T.shape[0]
    N = T @ np.linalg.inv(model.M)
    ct = _apply(N, model.centre)  # (m, 3)
    # q1: E1^-1 c_t must keep c0's coordinate along axis 2, which joints 2, 3 do not change
    th, ok1 = projection_angles(w[0], ct - p[0], w[1], np.dot(w[1], model.centre - p[0]))
    q1 = -th  # (m, 2): the rotation found takes c_t back, by -q1
    d = _apply(motion(w[0], p[0], -q1), ct[:, None])  # (m, 2, 3) = E2 E3 c0
    delta = np.linalg.norm(d - p[1], axis=-1)
    q3, ok3 = distance_angles(w[2], p[2], model.centre, p[1], delta)  # (m, 2, 2)
    x3 = _apply(motion(w[2], p[2], q3), model.centre)  # (m, 2, 2, 3)
    q2 = angle_about(w[1], x3 - p[1], d[:, :, None] - p[1])  # (m, 2, 2)
    R123 = rot(w[0], q1)[:, :, None] @ rot(w[1], q2) @ rot(w[2], q3)  # (m, 2, 2, 3, 3)
    Rw = np.swapaxes(R123, -1, -2) @ N[:, None, None, :3, :3]
    b = np.einsum("...ij,j->...i", Rw, w[5])
    t4, t5, okw = two_axis_angles(w[3], w[4], w[5], b)  # (m, 2, 2, 2)
    R45 = rot(w[3], t4) @ rot(w[4], t5)
    R6 = np.swapaxes(R45, -1, -2) @ Rw[..., None, :, :]
    v = np.cross(w[5], w[4])
    t6 = angle_about(w[5], v, np.einsum("...ij,j->...i", R6, v))
    shape = (m, 2, 2, 2)
    q = np.stack([np.broadcast_to(q1[:, :, None, None], shape),
                  np.broadcast_to(q2[..., None], shape),
                  np.broadcast_to(q3[..., None], shape), t4, t5, t6], axis=-1)
    ok = ok1[:, None, None, None] & ok3[:, :, None, None] & okw[..., None]
    return q.reshape(m, 8, 6), np.broadcast_to(ok, shape).reshape(m, 8)
