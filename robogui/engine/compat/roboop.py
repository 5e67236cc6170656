"""ROBOOP member functions that robogui does not spell the same way (ROBOOP manual 2.3).

ROBOOP keeps the joint state in the robot object (``set_q``); robogui passes q to every
call. Links and frames are numbered as in ROBOOP: frame 0 is the base, frame i the frame of
link i; ``endlink`` defaults to the last link (no tool, as ROBOOP has none).

* ``robot_from_init(initrobot, initmotor=None, mdh=False)``: the ``Robot(initrobot)``,
  ``Robot(initrobot, initmotor)`` and ``mRobot(...)`` constructors (ndof x 19, ndof x 19
  with ndof x 4, ndof x 23; immobile joints locked, see :mod:`robogui.engine.model.immobile`).
* ``kine(robot, q, j=None)``: ``kine(j)``, the pose of frame j.
* ``jacobian(robot, q, endlink=None, ref=0)``: ``jacobian(endlink, ref)``.
* ``kine_pd(robot, q, qd, j=None)``: ``kine_pd``, pose and its velocity in one call.
* ``inv_kin_rhino(robot, T, q_now=None)``: the analytic Rhino inverse kinematics.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..checks import as_float_array, as_joint_array, as_transform
from ..model.link import Link

__all__ = ["robot_from_init", "kine", "jacobian", "kine_pd", "KinePD", "inv_kin_rhino",
           "RhinoIK"]


# -- constructors from the init matrices ---------------------------------------------------
def robot_from_init(initrobot, initmotor=None, mdh: bool = False, name: str = "noname",
                    **kw):
    """A Robot from ROBOOP's initialisation matrices (manual section 2.3.1).

    ``initrobot`` columns (1-based, as the manual): 1 sigma (0 revolute, 1 prismatic),
    2 theta, 3 d, 4 a, 5 alpha, 6 theta_min, 7 theta_max, 8 joint offset, 9 m, 10-12 centre
    of mass, 13-18 ``Ixx Ixy Ixz Iyy Iyz Izz``, 19 Im (motor inertia), then for the
    ndof x 23 form 20 Gr (gear ratio), 21 B (viscous), 22 Cf (Coulomb friction),
    23 immobile (1: the joint is locked). ``initmotor`` (ndof x 4: ``Im Gr B Cf``) gives
    the motor parameters with a 19-column ``initrobot`` (its Im replaces column 19).

    As the .conf reader: theta (revolute) or d (prismatic) is the joint's initial value,
    returned as the pose "initial" when nonzero; limits 0, 0 mean none. An immobile joint
    (column 23 non-zero) is held at its initial value and removed from q
    (:func:`robogui.engine.model.immobile.lock_joints`).
    """
    from ..model.robot import Robot

    M = as_float_array(initrobot, "initrobot")
    if M.ndim == 1:
        M = M.reshape(1, -1)
    if M.ndim != 2 or M.shape[1] not in (19, 23) or M.shape[0] < 1:
        raise ValueError(f"initrobot must be an ndof x 19 or ndof x 23 matrix, got shape "
                         f"{M.shape}")
    if not np.all(np.isfinite(M)):
        raise ValueError("initrobot contains a non-finite value (NaN or inf)")
    n = M.shape[0]
    motor = np.zeros((n, 4))
    motor[:, 1] = 1.0  # gear ratio 1 when none is given
    motor[:, 0] = M[:, 18]
    if M.shape[1] == 23:
        if initmotor is not None:
            raise ValueError("give initmotor only with a 19-column initrobot (the 23-column "
                             "form holds the motor parameters)")
        motor = M[:, 18:22]
    elif initmotor is not None:
        motor = as_float_array(initmotor, "initmotor")
        if motor.ndim == 1:
            motor = motor.reshape(1, -1)
        if motor.shape != (n, 4) or not np.all(np.isfinite(motor)):
            raise ValueError(f"initmotor must be a finite {n} x 4 matrix (Im Gr B Cf), got "
                             f"shape {motor.shape}")
    immobile = M[:, 22] != 0 if M.shape[1] == 23 else np.zeros(n, dtype=bool)
    links, init = [], []
    for j, row in enumerate(M):
        prismatic = row[0] != 0
        theta, d = row[1], row[2]
        Ixx, Ixy, Ixz, Iyy, Iyz, Izz = row[12:18]
        Im, Gr, B, Cf = motor[j]
        qlim = None if row[5] == 0 and row[6] == 0 else (row[5], row[6])
        try:
            links.append(Link(
                joint="P" if prismatic else "R", theta=theta if prismatic else 0.0,
                d=0.0 if prismatic else d, a=row[3], alpha=row[4], mdh=mdh, offset=row[7],
                qlim=qlim, m=row[8], r=row[9:12],
                I=[[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]],
                Jm=Im, G=Gr, B=B, Tc=(abs(Cf), -abs(Cf))))
        except ValueError as exc:
            raise ValueError(f"initrobot row {j + 1}: {exc}") from None
        init.append(d if prismatic else theta)
    poses = {"initial": init} if any(init) else None
    robot = Robot(links, name=name, poses=poses, **kw)
    if np.any(immobile):
        from ..model.immobile import lock_joints

        robot = lock_joints(robot, {j: init[j] for j in np.flatnonzero(immobile)})
    return robot


# -- kinematics --------------------------------------------------------------------------
def _frame_index(robot, j, name: str = "j") -> int:
    if j is None:
        return robot.n
    if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) \
            or not 0 <= j <= robot.n:
        raise ValueError(f"{name} must be a frame number in 0..{robot.n}, got {j!r}")
    return int(j)


def _frames_no_tool(robot, q2d: np.ndarray) -> np.ndarray:
    """fkine_all without the tool: frame i is link frame i (ROBOOP has no tool)."""
    from ..kinematics.kinematics import fkine_all

    F = fkine_all(robot, q2d)
    if not robot.tool_is_identity:
        F = F.copy()
        F[:, -1] = F[:, -1] @ np.linalg.inv(robot.tool)
    return F


def kine(robot, q, j: int | None = None) -> np.ndarray:
    """ROBOOP ``kine(j)``: pose of link frame j (0 base, default n, no tool).

    (n,) -> (4, 4); (m, n) -> (m, 4, 4).
    """
    q2d, single = as_joint_array(q, robot.n)
    T = _frames_no_tool(robot, q2d)[:, _frame_index(robot, j)]
    return T[0] if single else T


def jacobian(robot, q, endlink: int | None = None, ref: int = 0) -> np.ndarray:
    """ROBOOP ``jacobian(endlink, ref)``: the Jacobian of link frame ``endlink``'s origin
    (default the last link) expressed in frame ``ref`` (0 the base; eq. 2.46).

    Rows ``[v; w]``; columns after ``endlink`` are zero. (n,) -> (6, n); (m, n) -> (m, 6, n).
    """
    from ..kinematics.jacobians import _rotate_rows, jacob0

    end = _frame_index(robot, endlink, "endlink")
    if end == 0:
        raise ValueError("endlink must be a link number in 1..n (frame 0 does not move)")
    i = _frame_index(robot, ref, "ref")
    q2d, single = as_joint_array(q, robot.n)
    F = _frames_no_tool(robot, q2d)
    J = jacob0(robot, q2d, end=end)
    if i:
        J = _rotate_rows(F[:, i, :3, :3], J)
    return J[0] if single else J


class KinePD(NamedTuple):
    """Pose ``T`` (4, 4) / (m, 4, 4), velocity of its origin ``pd`` (3,) / (m, 3) and
    angular velocity ``w`` (3,) / (m, 3), all in base coordinates."""

    T: np.ndarray
    pd: np.ndarray
    w: np.ndarray


def kine_pd(robot, q, qd, j: int | None = None) -> KinePD:
    """ROBOOP ``kine_pd``: the pose of link frame j (default n) and its velocity, in one
    call: ``T``, ``pd`` = velocity of the frame origin, ``w`` = angular velocity (base axes).

    ROBOOP returns ``[R p pd]`` (3 x 5); here T, pd and w (which ROBOOP does not return).
    """
    from ..kinematics.jacobians import jacob0

    k = _frame_index(robot, j)
    q2d, single = as_joint_array(q, robot.n)
    qd2, single_d = as_joint_array(qd, robot.n, "qd")
    if qd2.shape != q2d.shape:
        raise ValueError("qd must have the same shape as q, (n,) or (m, n)")
    F = _frames_no_tool(robot, q2d)
    T = F[:, k]
    if k == 0:
        v = np.zeros((q2d.shape[0], 6))
    else:
        v = np.einsum("mrj,mj->mr", jacob0(robot, q2d, end=k), qd2)
    if single:
        return KinePD(T[0], v[0, :3], v[0, 3:])
    return KinePD(T, v[:, :3], v[:, 3:])


# -- Rhino analytic inverse kinematics ----------------------------------------------------
class RhinoIK(NamedTuple):
    """``q`` (5,) / (m, 5); ``converge`` bool / (m,): the pose was reached (ROBOOP's flag)."""

    q: np.ndarray
    converge: np.ndarray | bool


_RHINO_ALPHA = np.array([-1, 0, 0, -1, 0]) * np.pi / 2


def _rhino_geometry(robot):
    dh = robot.dh_arrays
    ok = (robot.n == 5 and robot.structure == "RRRRR" and not robot.is_mdh
          and np.allclose(dh.alpha, _RHINO_ALPHA, atol=1e-9)
          and np.allclose([dh.a[0], dh.a[4], dh.d[1], dh.d[2], dh.d[3]], 0, atol=1e-12)
          and not dh.has_flip)
    if not ok:
        raise ValueError(f"{robot.name!r} is not a Rhino-like arm (5R, standard D-H, twists "
                         "-90, 0, 0, -90, 0 deg, a1 = a5 = 0, d2 = d3 = d4 = 0)")
    return dh


def inv_kin_rhino(robot, T, q_now=None) -> RhinoIK:
    """Analytic inverse kinematics of the 5-axis Rhino XR (ROBOOP ``inv_kin_rhino``).

    T: (4, 4) or (m, 4, 4), base and tool included. The arm (joints 2-4 parallel) moves in
    the vertical plane at angle q1; the tool approach vector must lie in that plane. Of the
    solutions, the waist angle nearer to ``q_now[0]`` and the elbow on the side of
    ``q_now[2]`` are taken, as ROBOOP does with the current joint values (``q_now`` (5,)
    or one row per pose (m, 5); default zeros: waist towards the target, elbow q3 >= 0).
    Derived here from the D-H chain
    (robots/rhino.toml): with ``phi = q2 + q3 + q4`` the approach is
    ``[-sin(phi) c1, -sin(phi) s1, -cos(phi)]`` and the tool point
    ``P = a2 (c2, s2) + a3 (c23, s23) + a4 (c phi, s phi) + d5 (-s phi, c phi)`` in the arm
    plane (radial, down from the shoulder).

    ``converge`` is False when the wrist point is out of reach or the pose cannot be
    reached by a 5-axis arm (the rotation about the approach is still solved, but the
    approach is out of the arm plane): q is then the best effort, finite.
    """
    dh = _rhino_geometry(robot)
    Tt = as_transform(T, "T")
    single = Tt.ndim == 2
    Tt = Tt.reshape(-1, 4, 4)
    q0 = np.zeros(5) if q_now is None else as_float_array(q_now, "q_now")
    if q0.shape not in ((5,), (len(Tt), 5)) or not np.all(np.isfinite(q0)):
        raise ValueError(f"q_now must be 5 finite joint values (or one row per pose), got "
                         f"shape {q0.shape}")
    q0 = np.broadcast_to(q0, (len(Tt), 5)).T  # (5, m): q0[j] is joint j for every pose
    # the pose of link frame 5 in the base frame of the chain
    W = np.linalg.inv(robot.base) @ Tt @ np.linalg.inv(robot.tool)
    d1, a2, a3, a4, d5 = dh.d[0], dh.a[1], dh.a[2], dh.a[3], dh.d[4]
    p, n_, a_ = W[:, :3, 3], W[:, :3, 0], W[:, :3, 2]
    # waist: the target's horizontal direction, or the opposite one (reaching over the top)
    t1 = np.arctan2(p[:, 1], p[:, 0])
    t1b = t1 + np.pi
    near = lambda t: np.abs(np.angle(np.exp(1j * (t - (q0[0] + dh.offset[0])))))  # noqa: E731
    th1 = np.where(near(t1) <= near(t1b), t1, t1b)
    c1, s1 = np.cos(th1), np.sin(th1)
    P1 = c1 * p[:, 0] + s1 * p[:, 1]
    P2 = d1 - p[:, 2]  # y1 points down (alpha1 = -90 deg)
    phi = np.arctan2(-(c1 * a_[:, 0] + s1 * a_[:, 1]), -a_[:, 2])
    cphi, sphi = np.cos(phi), np.sin(phi)
    X = P1 - a4 * cphi + d5 * sphi
    Y = P2 - a4 * sphi - d5 * cphi
    K = (X**2 + Y**2 - a2**2 - a3**2) / (2 * a2 * a3)
    reach = np.abs(K) <= 1 + 1e-12
    up = np.where(q0[2] + dh.offset[2] >= 0, 1.0, -1.0)
    th3 = up * np.arccos(np.clip(K, -1, 1))
    th2 = np.arctan2(Y, X) - np.arctan2(a3 * np.sin(th3), a2 + a3 * np.cos(th3))
    th4 = phi - th2 - th3
    # tool roll: n = c5 x4 + s5 y4 with x4 = c phi x1 + s phi y1 and y4 = -z1
    x1 = np.stack([c1, s1, np.zeros_like(c1)], axis=-1)
    y1 = np.array([0.0, 0.0, -1.0])
    x4 = cphi[:, None] * x1 + sphi[:, None] * y1
    y4 = np.stack([s1, -c1, np.zeros_like(c1)], axis=-1)
    th5 = np.arctan2(np.einsum("mi,mi->m", n_, y4), np.einsum("mi,mi->m", n_, x4))
    theta = np.stack([th1, th2, th3, th4, th5], axis=-1)
    q = np.angle(np.exp(1j * (theta - dh.offset)))  # wrapped to (-pi, pi]
    from ..kinematics.kinematics import fkine

    err = np.abs(fkine(robot, q) - Tt).max(axis=(-2, -1))
    converge = reach & (err < 1e-6 * max(1.0, robot.reach))
    return RhinoIK(q[0], bool(converge[0])) if single else RhinoIK(q, converge)
