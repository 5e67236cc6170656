"""Rigid-body dynamics of serial manipulators: inverse dynamics and its parts.

Equation of motion (r6 manual eq. 11), with the conventions of roboticstoolbox-python::

    tau = M(q) qdd + C(q, qd) qd + G(q) - friction(qd) + Je(q)^T fext

* ``M`` includes the motor armature inertia ``Jm G^2`` on its diagonal (r6 ``inertia``).
* ``friction(qd)`` is the friction torque acting on the joint, ``-|G| (B |G| qd + Tc)``
  with the Coulomb value ``Tc = tau_plus`` for ``qd > 0``, ``tau_minus`` for ``qd < 0``
  and 0 at rest; it opposes the motion, so ``rne`` *subtracts* it (the motor must supply
  it). ``B`` and ``Tc`` are motor referred, as in r6 and ROBOOP.
* ``gravity`` is the gravitational acceleration in the world frame (``[0, 0, -9.81]``
  for z up), rotated into the base frame by the robot's base transform.
* ``fext = [Fx Fy Fz Mx My Mz]`` is the wrench the end-effector exerts on its
  environment, at the tool point and in tool-frame components.

Every function takes ``q`` (and ``qd``, ``qdd``) of shape (n,) or (m, n) and is batched
over m. The recursion is r6 section 3.1 (standard D-H) or Craig's modified-D-H form; it
is evaluated by straight-line programs generated per robot (``dynamics_codegen``, run by
``dynamics_eval``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..checks import as_float_array, as_joint_array, as_vector, check_finite_result
from ..model.mimic import coupled
from .dynamics_eval import RobotDynamics, robot_dynamics

__all__ = [
    "rne", "gravload", "inertia", "coriolis", "coriolis_torque", "itorque", "friction",
    "torque_components", "TorqueComponents", "cinertia", "kinetic_energy",
    "potential_energy", "motor_inertia",
]


# -- argument handling ------------------------------------------------------------------
def require_dynamics(robot, what: str) -> RobotDynamics:
    """The robot's dynamics data; ValueError if it has no mass, inertia or motor inertia."""
    dyn = robot_dynamics(getattr(robot, "full", robot))  # mimic joints: the whole chain
    if not dyn.has_dynamics:
        raise ValueError(
            f"robot {robot.name!r} has no dynamic parameters (mass, inertia, motor inertia); "
            f"{what} needs them")
    return dyn


def _single_floats(value, n: int) -> list[float] | None:
    """Fast door check for one finite float64 state of length n: a list, else None
    (the caller then takes the general path, whose checks give the error messages)."""
    if type(value) is np.ndarray and value.shape == (n,) and value.dtype == np.float64:
        ql = value.tolist()
        if math.isfinite(sum(ql)):
            return ql
    return None


def joint_args(robot, *pairs) -> tuple[list[np.ndarray], bool]:
    """Check several joint arrays and give them a common leading m (broadcasting m = 1)."""
    arrs, singles = [], []
    for value, name in pairs:
        a, single = as_joint_array(value, robot.n, name)
        arrs.append(a)
        singles.append(single)
    m = max(a.shape[0] for a in arrs)
    for k, a in enumerate(arrs):
        if a.shape[0] != m:
            if a.shape[0] != 1:
                names = ", ".join(f"{name} {x.shape}" for (_, name), x in zip(pairs, arrs,
                                                                              strict=True))
                raise ValueError(f"joint arrays must have the same number of rows: {names}")
            arrs[k] = np.broadcast_to(a, (m, robot.n))
    return arrs, all(singles)


def base_accel(dyn: RobotDynamics, gravity) -> tuple[float, float, float]:
    """Base acceleration ``-R_base^T g`` for ``gravity`` (None: the robot's own)."""
    if gravity is None:
        return dyn.g_default
    return dyn.base_accel(as_vector(gravity, 3, "gravity"))


def _wrench(fext, m: int) -> tuple[np.ndarray | None, bool]:
    if fext is None:
        return None, True
    f = as_float_array(fext, "fext")
    if f.shape == (6,):
        f2 = f.reshape(1, 6)
    elif f.ndim == 2 and f.shape[1] == 6 and f.shape[0] in (1, m):
        f2 = f
    else:
        raise ValueError(f"fext must have shape (6,) or ({m}, 6), got shape {f.shape}")
    if not np.all(np.isfinite(f2)):
        raise ValueError("fext contains a non-finite value (NaN or inf)")
    return f2, f.ndim == 1


def _prismatic_q(dyn: RobotDynamics, q2d: np.ndarray) -> dict:
    """``{"q": prismatic joint values}`` for overflow messages (revolute angles enter only
    through cos and sin, so they cannot make a result overflow)."""
    return {"q": q2d[:, ~dyn.revolute]} if not dyn.revolute.all() else {}


def friction_torque(dyn: RobotDynamics, qd2d: np.ndarray) -> np.ndarray:
    """:func:`friction` on checked (m, n) velocities (real or complex; Coulomb by sign of
    the real part, so complex-step derivatives see only the viscous slope)."""
    if not dyn.has_friction:
        return np.zeros(qd2d.shape, dtype=qd2d.dtype)
    t = dyn.B * dyn.absG * qd2d
    if dyn.has_coulomb:
        qr = qd2d.real
        t = t + np.where(qr > 0, dyn.Tc_plus, np.where(qr < 0, dyn.Tc_minus, 0.0))
    return -dyn.absG * t


# -- public functions ---------------------------------------------------------------------
@coupled("rows", "qd")
def friction(robot, qd) -> np.ndarray:
    """Joint friction torque (force) acting on the joints: (n,) -> (n,), (m, n) -> (m, n).

    ``-|G| (B |G| qd + Tc)`` with ``Tc`` the Coulomb value for the sign of ``qd``
    (``tau_plus`` if qd > 0, ``tau_minus`` if qd < 0, none at rest): it opposes the motion
    (negative for positive velocity), as roboticstoolbox-python; r6 ``friction`` gave the
    magnitude ``B qd + tau``. ``rne`` subtracts it. Units N m (revolute) or N (prismatic).
    """
    qd2d, single = as_joint_array(qd, robot.n, "qd")
    out = friction_torque(robot_dynamics(robot), qd2d)
    return out[0] if single else out


@coupled("rows", "q", "qd", "qdd")
def rne(robot, q, qd, qdd, gravity=None, fext=None) -> np.ndarray:
    """Inverse dynamics by recursive Newton-Euler: joint torques, (n,) or (m, n).

    ``q, qd, qdd`` (n,) or (m, n) (rad, rad/s, rad/s^2; m, m/s, m/s^2 for prismatic
    joints); a single (n,) row is broadcast against (m, n) ones. ``gravity`` (3,) world
    acceleration, default ``robot.gravity``. ``fext`` (6,) or (m, 6): wrench the
    end-effector exerts on the environment, tool point, tool-frame components. Includes
    motor armature inertia and the torque that overcomes friction. Units N m or N::

        rne = M(q) qdd + C(q, qd) qd + G(q) - friction(qd) + jacobe(q)^T fext
    """
    dyn = require_dynamics(robot, "rne")
    if gravity is None and fext is None:
        ql, qdl, qddl = (_single_floats(x, dyn.n) for x in (q, qd, qdd))
        if ql is not None and qdl is not None and qddl is not None:
            out = dyn.rne_floats(ql, qdl, qddl)
            if math.isfinite(sum(out)):
                return np.array(out)
    (q2d, qd2d, qdd2d), single = joint_args(robot, (q, "q"), (qd, "qd"), (qdd, "qdd"))
    f2d, f_single = _wrench(fext, q2d.shape[0])
    tau = dyn.run_checked("full", q2d, qd2d, qdd2d, base_accel(dyn, gravity), f2d, motor=True)
    check_finite_result(tau, "rne", **_prismatic_q(dyn, q2d), qd=qd2d, qdd=qdd2d, fext=f2d,
                        gravity=gravity)
    return tau[0] if single and f_single else tau


@coupled("rows", "q")
def gravload(robot, q, gravity=None) -> np.ndarray:
    """Gravity torque ``G(q)`` (the holding torque, N m / N): (n,) -> (n,), (m, n) -> (m, n).

    ``gravity`` (3,) world acceleration, default ``robot.gravity``. r6 ``gravload``.
    A single float64 state takes a lean path (a few microseconds).
    """
    dyn = require_dynamics(robot, "gravload")
    if gravity is None:
        ql = _single_floats(q, dyn.n)
        if ql is not None:
            out = dyn.gravload_floats(ql)
            if math.isfinite(sum(out)):
                return np.array(out)
    q2d, single = as_joint_array(q, robot.n, "q")
    tau = dyn.run_checked("gravity", q2d, g_base=base_accel(dyn, gravity))
    check_finite_result(tau, "gravload", q=q2d, gravity=gravity)
    return tau[0] if single else tau


@coupled("both", "q")
def inertia(robot, q) -> np.ndarray:
    """Joint-space inertia matrix ``M(q)`` with motor armature ``Jm G^2`` on the diagonal.

    (n,) -> (n, n); (m, n) -> (m, n, n). Symmetric positive definite for a proper model.
    """
    dyn = require_dynamics(robot, "inertia")
    q2d, single = as_joint_array(q, robot.n, "q")
    M = dyn.run_checked("inertia", q2d, diag=dyn.armature)
    check_finite_result(M, "inertia", q=q2d)
    return M[0] if single else M


def motor_inertia(robot) -> np.ndarray:
    """Armature inertia referred to the joints, ``Jm G^2``: (n,) (kg m^2 or kg); with mimic
    joints the diagonal of ``E^T diag(Jm G^2) E`` (each follower's rotor on its leader)."""
    cp = getattr(robot, "coupling", None)
    if cp is not None:
        return (cp.E ** 2).T @ robot_dynamics(robot.full).armature
    return robot_dynamics(robot).armature.copy()


@coupled("rows", "q", "qdd")
def itorque(robot, q, qdd) -> np.ndarray:
    """Inertia torque ``M(q) qdd`` (armature included): (n,) or (m, n). r6 ``itorque``."""
    dyn = require_dynamics(robot, "itorque")
    (q2d, qdd2d), single = joint_args(robot, (q, "q"), (qdd, "qdd"))
    tau = dyn.run_checked("novelocity", q2d, qdd2d=qdd2d, motor=True)
    check_finite_result(tau, "itorque", **_prismatic_q(dyn, q2d), qdd=qdd2d)
    return tau[0] if single else tau


@coupled("rows", "q", "qd")
def coriolis_torque(robot, q, qd) -> np.ndarray:
    """Coriolis and centripetal torque ``C(q, qd) qd``: (n,) or (m, n).

    This is what r6 ``coriolis`` returned (rne with zero acceleration and gravity,
    friction ignored).
    """
    dyn = require_dynamics(robot, "coriolis_torque")
    (q2d, qd2d), single = joint_args(robot, (q, "q"), (qd, "qd"))
    tau = dyn.run_checked("velocity", q2d, qd2d=qd2d)
    check_finite_result(tau, "coriolis_torque", **_prismatic_q(dyn, q2d), qd=qd2d)
    return tau[0] if single else tau


@coupled("both", "q", "qd")
def coriolis(robot, q, qd) -> np.ndarray:
    """Coriolis matrix ``C(q, qd)``: (n,) -> (n, n), (m, n) -> (m, n, n).

    ``C @ qd`` is the Coriolis/centripetal torque and ``dM/dt - 2 C`` is skew-symmetric:
    ``C_ij = sum_k Gamma_ijk qd_k`` with the Christoffel symbols of M, i.e. the symmetric
    bilinear form ``b(u, v)`` behind the velocity torque ``b(qd, qd)``, taken at
    ``(e_j, qd)``. b is quadratic, so ``b(e_j, qd) = (Q(qd + e_j) - Q(qd - e_j)) / 4``
    exactly, Q being the velocity-only RNE. Friction and armature are excluded.
    (roboticstoolbox-python and MATLAB RTB >= 9 also return the matrix; r6 returned
    the torque, see :func:`coriolis_torque`.)
    """
    dyn = require_dynamics(robot, "coriolis")
    (q2d, qd2d), single = joint_args(robot, (q, "q"), (qd, "qd"))
    m, n = q2d.shape
    eye = np.eye(n)
    # rows ordered (sign, j, sample): one batched program call for all 2 n m states
    qd_pm = np.concatenate([qd2d[None] + eye[:, None, :],
                            qd2d[None] - eye[:, None, :]]).reshape(2 * n * m, n)
    q_rep = np.broadcast_to(q2d, (2 * n, m, n)).reshape(2 * n * m, n)
    Q = dyn.run_checked("velocity", q_rep, qd2d=qd_pm).reshape(2, n, m, n)
    C = np.transpose((Q[0] - Q[1]) * 0.25, (1, 2, 0))  # (m, i, j)
    check_finite_result(C, "coriolis", **_prismatic_q(dyn, q2d), qd=qd2d)
    return C[0] if single else C


@dataclass(frozen=True)
class TorqueComponents:
    """Joint torque split into parts that add up to ``rne(q, qd, qdd)``; each (n,) or (m, n).

    ``friction`` is the torque that overcomes friction, ``-friction(robot, qd)``.
    """

    gravity: np.ndarray
    inertial: np.ndarray
    coriolis: np.ndarray
    friction: np.ndarray

    @property
    def total(self) -> np.ndarray:
        return self.gravity + self.inertial + self.coriolis + self.friction

    def as_dict(self) -> dict[str, np.ndarray]:
        return {"gravity": self.gravity, "inertial": self.inertial,
                "coriolis": self.coriolis, "friction": self.friction}


@coupled("parts", "q", "qd", "qdd")
def torque_components(robot, q, qd, qdd, gravity=None) -> TorqueComponents:
    """Gravity ``G(q)``, inertial ``M(q) qdd`` (with armature), Coriolis ``C(q, qd) qd`` and
    friction ``-friction(qd)`` torques; they sum to ``rne(q, qd, qdd, gravity)``.
    """
    dyn = require_dynamics(robot, "torque_components")
    (q2d, qd2d, qdd2d), single = joint_args(robot, (q, "q"), (qd, "qd"), (qdd, "qdd"))
    n = dyn.n
    parts = dyn.run_checked("components", q2d, qd2d, qdd2d, g_base=base_accel(dyn, gravity))
    check_finite_result(parts, "torque_components", **_prismatic_q(dyn, q2d), qd=qd2d,
                        qdd=qdd2d, gravity=gravity)
    g, i, c = parts[:, :n], parts[:, n:2 * n], parts[:, 2 * n:]
    if dyn.has_armature:
        i = i + dyn.armature * qdd2d
    f = -friction_torque(dyn, qd2d)
    if single:
        return TorqueComponents(g[0], i[0], c[0], f[0])
    return TorqueComponents(g, i, c, f)


def cinertia(robot, q, rcond: float = 1e-12) -> np.ndarray:
    """Cartesian (operational-space) inertia ``J^-T M J^-1`` (Khatib), ``J = jacob0``.

    (n,) -> (6, 6); (m, n) -> (m, 6, 6). For n == 6 the Jacobian is inverted and a
    singular pose (reciprocal condition number below ``rcond``) raises ValueError; for
    n != 6 the pseudo-inverse is used, as roboticstoolbox-python does.
    """
    from ..kinematics.jacobians import jacob0

    require_dynamics(robot, "cinertia")
    q2d, single = as_joint_array(q, robot.n, "q")
    J = np.asarray(jacob0(robot, q2d))
    M = inertia(robot, q2d)
    if robot.n == 6:
        sv = np.linalg.svd(J, compute_uv=False)
        bad = sv[:, -1] <= rcond * sv[:, 0]
        if np.any(bad):
            k = int(np.argmax(bad))
            raise ValueError(f"cinertia: the Jacobian is singular at q = {q2d[k].round(6)} "
                             f"(row {k}); the Cartesian inertia is undefined there")
        Ji = np.linalg.inv(J)
    else:
        Ji = np.linalg.pinv(J)
    Mx = np.swapaxes(Ji, -1, -2) @ M @ Ji
    Mx = 0.5 * (Mx + np.swapaxes(Mx, -1, -2))
    return Mx[0] if single else Mx


def kinetic_energy(robot, q, qd) -> np.ndarray:
    """Kinetic energy ``qd^T M(q) qd / 2`` in J: scalar or (m,).

    Includes the motor rotors (armature ``Jm G^2``), consistent with :func:`inertia`, so
    it is the energy that :func:`robogui.engine.dynamics.fdyn.fdyn` conserves without friction.
    """
    (q2d, qd2d), single = joint_args(robot, (q, "q"), (qd, "qd"))
    M = inertia(robot, q2d)
    T = 0.5 * np.einsum("mi,mij,mj->m", qd2d, M, qd2d)
    return float(T[0]) if single else T


@coupled("same", "q")
def potential_energy(robot, q, gravity=None) -> np.ndarray:
    """Gravitational potential energy ``-sum_i m_i g . p_ci`` in J: scalar or (m,).

    ``p_ci`` is the world position of link i's centre of mass (base included, tool not),
    ``gravity`` the world acceleration (default ``robot.gravity``); zero at the base origin.
    Its gradient with respect to q is :func:`gravload`.
    """
    from ..kinematics.kinematics import link_matrices

    require_dynamics(robot, "potential_energy")
    q2d, single = as_joint_array(q, robot.n, "q")
    g = robot.gravity if gravity is None else as_vector(gravity, 3, "gravity")
    A = link_matrices(robot, q2d)
    T = np.broadcast_to(robot.base, (q2d.shape[0], 4, 4))
    P = np.zeros(q2d.shape[0])
    for j, L in enumerate(robot.links):
        T = T @ A[:, j]
        if L.m:
            pc = T[:, :3, :3] @ L.r + T[:, :3, 3]
            P -= L.m * (pc @ g)
    return float(P[0]) if single else P
