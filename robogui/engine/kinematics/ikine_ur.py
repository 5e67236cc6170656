"""Closed-form inverse kinematics of UR-type arms (axes 2, 3, 4 parallel, axes 5 and 6
meeting in a point, no spherical wrist), in any description, batched over poses.

On the screw model of :mod:`.arm_family` (n the common direction of axes 2-4):

* q1: the point o where axes 5 and 6 meet is moved by joints 1-4 only, and joints 2-4 keep
  its coordinate along n, so ``E1^-1 (T M^-1 o0)`` has o0's n-coordinate (two shoulder
  solutions);
* q5: rotations about n keep the n-component of the tool axis: ``n . R1^T R u6 =
  n . Rot(u5, q5) u6`` (two wrist solutions); q6 from ``Rot6 (R^T R1 n) = Rot5^T n``;
  the sum q2 + q3 + q4 from the rotation left about n;
* q2, q3: a point of axis 4, ``T M^-1 E6^-1 E5^-1 p4``, placed by joints 1-3 as in the
  spherical-wrist case (two elbow solutions); q4 is what remains of the sum.

Hawkins (2013) derives the same eight branches from the D-H parameters of a UR arm.
"""

from __future__ import annotations

import numpy as np

from .arm_family import ArmModel, motion, rot
from .subproblems import angle_about, distance_angles, projection_angles

__all__ = ["ur_branches"]


def _apply(E: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.einsum("...ab,...b->...a", E[..., :3, :3], x) + E[..., :3, 3]


def _turn(R: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.einsum("...ab,...b->...a", R, x)


def ur_branches(model: ArmModel, T: np.ndarray):
    """Eight branches q (m, 8, 6) and a mask (m, 8) of those that exist, for poses
    T (m, 4, 4) (world frame, tool included); order (shoulder, elbow, wrist) x 2 each."""
    w, p = model.w, model.p
    n = w[1]
    m = T.shape[0]
    N = T @ np.linalg.inv(model.M)
    R = N[:, :3, :3]
    ot = _apply(N, model.centre)  # (m, 3)
    th, ok1 = projection_angles(w[0], ot - p[0], n, np.dot(n, model.centre - p[0]))
    q1 = -th  # (m, 2)
    R1 = rot(w[0], q1)  # (m, 2, 3, 3)
    R1tR = np.swapaxes(R1, -1, -2) @ R[:, None]  # (m, 2, 3, 3)
    c5 = _turn(R1tR, w[5]) @ n  # (m, 2)
    q5, ok5 = projection_angles(w[4], w[5], n, c5)  # (m, 2, 2): shoulder, wrist
    mvec = _turn(np.swapaxes(R1tR, -1, -2), n)  # R^T R1 n, (m, 2, 3)
    a = _turn(rot(w[4], -q5), n)  # Rot5^T n, (m, 2, 2, 3)
    q6 = angle_about(w[5], mvec[:, :, None], a)  # (m, 2, 2)
    R56 = rot(w[4], q5) @ rot(w[5], q6)
    R234 = R1tR[:, :, None] @ np.swapaxes(R56, -1, -2)
    v = np.cross(n, w[4])
    q234 = angle_about(n, v, _turn(R234, v))  # (m, 2, 2)
    # a point of axis 4 (fixed by E4), carried back through the known wrist joints
    back = motion(w[5], p[5], -q6) @ motion(w[4], p[4], -q5)  # E6^-1 E5^-1
    Pt = _apply(N[:, None, None] @ back, model.elbow_point)  # (m, 2, 2, 3)
    d = _apply(motion(w[0], p[0], -q1)[:, :, None], Pt)  # E1^-1 P_t = E2 E3 p4
    delta = np.linalg.norm(d - p[1], axis=-1)
    q3, ok3 = distance_angles(w[2], p[2], model.elbow_point, p[1], delta)  # (m, 2, 2, 2)
    x3 = _apply(motion(w[2], p[2], q3), model.elbow_point)  # (m, 2, 2w, 2e, 3)
    q2 = angle_about(n, x3 - p[1], d[..., None, :] - p[1])
    q4 = q234[..., None] - q2 - q3
    shape = (m, 2, 2, 2)  # shoulder, wrist, elbow
    q = np.stack([np.broadcast_to(q1[:, :, None, None], shape), q2, q3, q4,
                  np.broadcast_to(q5[..., None], shape),
                  np.broadcast_to(q6[..., None], shape)], axis=-1)
    ok = np.broadcast_to(ok1[:, None, None, None] & ok5[:, :, None, None] & ok3[..., None], shape)
    # to the (shoulder, elbow, wrist) order of the spherical solver
    return np.swapaxes(q, 2, 3).reshape(m, 8, 6), np.swapaxes(ok, 2, 3).reshape(m, 8)
