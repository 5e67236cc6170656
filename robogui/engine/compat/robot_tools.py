"""Small robot utilities from the Robotics Toolboxes: numerical Jacobian, unit conversion
of joint vectors, spherical-wrist test and the per-joint motor transfer functions.

* ``numjac(f, x)``: Jacobian of any function by finite differences (spatialmath ``numjac``).
* ``todegrees(robot, q)`` / ``toradians(robot, q)``: revolute joints converted, prismatic
  joints untouched (roboticstoolbox-python ``Robot.todegrees`` / ``toradians``).
* ``isspherical(robot)``: the last three joints are revolute, their axes meet in one
  point and span three directions (roboticstoolbox ``isspherical``), tested geometrically
  so that it works for standard and modified D-H and URDF chains alike.
* ``jointdynamics(robot, q, qd=None)``: the toolboxes' ``jointdynamics``, one
  linear transfer function per joint from motor torque to motor velocity.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..checks import as_float_array, as_joint_array

__all__ = ["numjac", "todegrees", "toradians", "isspherical", "jointdynamics"]


def numjac(f: Callable, x, dx: float = 1e-8, SO: int = 0, SE: int = 0,
           central: bool = False) -> np.ndarray:
    """Numerical Jacobian of ``f`` at ``x`` (n,): ``J[:, i] = (f(x + dx e_i) - f(x)) / dx``.

    ``f`` returns an array of any shape; the result is (f.size, n), rows in ``f``'s flat
    order (spatialmath ``numjac``). ``SO=3`` (f returns a rotation matrix) or ``SE=3``
    (a 4x4 transform; ``SO=2``/``SE=2`` in the plane) give the angular velocity (and
    translation rate) columns ``[dt; vex(dR R^T)]`` instead. ``central=True`` uses the
    central difference ``(f(x + dx e_i) - f(x - dx e_i)) / (2 dx)`` (error O(dx^2)).
    """
    from ..spatial.transforms import vex

    x = as_float_array(x, "x")
    if x.ndim != 1 or not np.all(np.isfinite(x)):
        raise ValueError(f"x must be a finite vector of shape (n,), got shape {x.shape}")
    dx = float(dx)
    if not np.isfinite(dx) or dx <= 0:
        raise ValueError(f"dx must be a positive step, got {dx}")
    if SO not in (0, 2, 3) or SE not in (0, 2, 3) or (SO and SE):
        raise ValueError(f"give SO=2|3 or SE=2|3 (or neither), got SO={SO}, SE={SE}")
    N = SO or SE
    # SO/SE: a stack of one matrix (what vectorised rotx([t]) returns) counts as one
    val = (lambda y: np.asarray(f(y), dtype=float).reshape(N + (SE > 0), -1)) if N else (
        lambda y: np.asarray(f(y), dtype=float))
    f0 = val(x)
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = dx
        if central:
            Ji = (val(x + e) - val(x - e)) / (2 * dx)
        else:
            Ji = (val(x + e) - f0) / dx
        if SE:
            w = vex(Ji[:SE, :SE] @ f0[:SE, :SE].T)
            cols.append(np.r_[Ji[:SE, SE], np.atleast_1d(w)])
        elif SO:
            cols.append(np.atleast_1d(vex(Ji[:SO, :SO] @ f0[:SO, :SO].T)))
        else:
            cols.append(Ji.ravel())
    return np.array(cols).T


def _convert(robot, q, factor: float, name: str) -> np.ndarray:
    q2d, single = as_joint_array(q, robot.n, name)
    out = np.where(robot.revolute, q2d * factor, q2d)
    return out[0] if single else out


def todegrees(robot, q) -> np.ndarray:
    """Joint vector(s) with revolute joints in degrees, prismatic ones unchanged:
    (n,) -> (n,), (m, n) -> (m, n)."""
    return _convert(robot, q, 180.0 / np.pi, "q")


def toradians(robot, q) -> np.ndarray:
    """Joint vector(s) with revolute joints from degrees to radians, prismatic ones
    unchanged: (n,) -> (n,), (m, n) -> (m, n)."""
    return _convert(robot, q, np.pi / 180.0, "q")


def isspherical(robot, tol: float = 1e-9) -> bool:
    """True when the last three joints are revolute, their axes meet in one point and
    span three directions (a spherical wrist) in every configuration.

    Tested on three configurations: the point nearest to the three axes (least squares)
    must lie on each of them within ``tol * reach``; three parallel axes never meet. At
    the two random configurations the axis directions must also span space
    (``|det [z4 z5 z6]| > 1e-6``): two wrist joints turning about one axis meet everywhere
    on it but give only two directions, so the wrist cannot orient the tool
    (roboticstoolbox-python's ``test_isspherical`` case). The zero configuration is not
    tested for the span, since a wrist is singular there (z4 parallel to z6 on a Puma).
    """
    from ..kinematics.jacobians import _axes
    from ..kinematics.kinematics import fkine_all

    n = robot.n
    if n < 3 or not np.all(robot.revolute[-3:]):
        return False
    rng = np.random.default_rng(0)
    q = np.vstack([np.zeros(n), rng.uniform(-np.pi, np.pi, (2, n))])
    q[:, ~robot.revolute] = 0.1  # any prismatic value
    z, o, _ = _axes(robot, fkine_all(robot, q))
    z, o = z[:, -3:], o[:, -3:]  # (m, 3, 3)
    if np.any(np.abs(np.linalg.det(z[1:])) <= 1e-6):
        return False  # two of the axes are parallel: they do not span three directions
    P = np.eye(3) - z[..., :, None] * z[..., None, :]  # projectors off each axis
    A = P.sum(axis=1)
    b = np.einsum("mkij,mkj->mi", P, o)
    if np.any(np.linalg.matrix_rank(A, tol=1e-9) < 3):
        return False  # the three axes are parallel: no single meeting point
    p = np.linalg.solve(A, b[..., None])[..., 0]
    miss = np.linalg.norm(np.einsum("mkij,mkj->mki", P, p[:, None, :] - o), axis=-1)
    return bool(np.all(miss <= tol * robot.reach))


def jointdynamics(robot, q, qd=None) -> list:
    """Per-joint linear motor models at configuration ``q``: a list of n
    ``scipy.signal.TransferFunction`` ``1 / (J s + B)`` from motor torque to motor velocity,
    with the toolboxes' numbers (RTB-MATLAB ``SerialLink.jointdynamics`` and
    roboticstoolbox-python ``jointdynamics`` agree).

    ``J = Jm + M_jj(q) / G^2`` with ``M`` the joint-space inertia matrix as ``rne`` and
    ``inertia`` give it, which already holds the armature ``G^2 Jm`` on its diagonal; so
    ``J = 2 Jm + M_link,jj(q) / G^2`` counts the motor's rotor inertia twice. The physical
    inertia at the motor shaft (rotor plus reflected link inertia) is ``J - Jm``.
    ``B`` is the motor's viscous friction; with ``qd`` (n,) the Coulomb friction is added,
    linearised at that operating point as the toolboxes do: ``B + Tc+ / qd_j`` for
    ``qd_j > 0``, ``B + Tc- / qd_j`` for ``qd_j < 0`` (both positive).
    """
    from scipy.signal import TransferFunction

    from ..dynamics.dynamics import inertia

    q1 = as_float_array(q, "q")
    if q1.shape != (robot.n,):
        raise ValueError(f"q must have shape ({robot.n},), got shape {q1.shape}")
    qd1 = None if qd is None else as_float_array(qd, "qd")
    if qd1 is not None and qd1.shape != (robot.n,):
        raise ValueError(f"qd must have shape ({robot.n},), got shape {qd1.shape}")
    M = inertia(robot, q1)  # with the armature G^2 Jm, as rne gives it to the toolboxes
    out = []
    for j, L in enumerate(robot.links):
        G = L.G if L.G else 1.0  # G = 0 would mean no gearbox information
        J = L.Jm + M[j, j] / G**2
        B = L.B
        if qd1 is not None and qd1[j] != 0:
            B = B + (L.Tc[0] if qd1[j] > 0 else L.Tc[1]) / qd1[j]
        out.append(TransferFunction([1.0], [J, B]))
    return out
