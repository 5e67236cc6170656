"""Manipulability measures and velocity/force ellipsoids, batched over joint states.

Shapes: q (n,) -> a float; q (m, n) -> (m,). ``axes`` chooses the Jacobian rows:
"all" (6 rows), "trans" (vx vy vz) or "rot" (wx wy wz). The Jacobian is ``jacob0``
(world frame); pass ``J`` when it is already computed (e.g. by the session).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..checks import as_float_array, as_joint_array
from ..kinematics.jacobians import jacob0

__all__ = ["manipulability", "vellipse", "fellipse", "Ellipsoid"]

_AXES = {"all": slice(0, 6), "trans": slice(0, 3), "rot": slice(3, 6)}
_METHODS = ("yoshikawa", "condition", "minsingular", "asada")


def _rows(axes: str) -> slice:
    try:
        return _AXES[axes]
    except (KeyError, TypeError):
        raise ValueError(f"axes must be 'all', 'trans' or 'rot', got {axes!r}") from None


def _jacobian(robot, q, J):
    """jacob0 as (m, 6, n) plus the ``single`` flag; J is checked when given."""
    q2d, single = as_joint_array(q, robot.n)
    if J is None:
        J3 = jacob0(robot, q2d) if not single else jacob0(robot, q2d[0])[None]
    else:
        J3 = as_float_array(J, "J")
        want = (6, robot.n) if single else (q2d.shape[0], 6, robot.n)
        if J3.shape != want:
            raise ValueError(f"J must have shape {want} (jacob0 of q), got shape {J3.shape}")
        J3 = J3.reshape(-1, 6, robot.n)
    return q2d, J3, single


def manipulability(robot, q, method: str = "yoshikawa", axes: str = "all", J=None):
    """Manipulability index at ``q``: float for (n,), (m,) array for (m, n).

    - "yoshikawa": ``sqrt(det(J J^T))`` (Yoshikawa 1983; r6 maniplty default). 0 at a
      singularity; units are those of the selected rows (m^k rad^l).
    - "condition": inverse condition number ``sigma_min / sigma_max`` in [0, 1].
    - "minsingular": the smallest singular value ``sigma_min``.
    - "asada": ratio of the smallest to the largest eigenvalue of the Cartesian inertia
      ``Mx = J^-T M(q) J^-1`` (rows/columns chosen by ``axes``), as roboticstoolbox-python;
      needs the robot's dynamics (robogui.engine.dynamics.dynamics.inertia).

    With fewer joints than selected rows, yoshikawa and minsingular are 0.
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(_METHODS)}, got {method!r}")
    rows = _rows(axes)
    q2d, J3, single = _jacobian(robot, q, J)
    if method == "asada":
        w = _asada(robot, q2d, J3, rows)
    else:
        Js = J3[:, rows]
        k, n = Js.shape[1:]
        if method == "yoshikawa":
            if k == n:  # square: sqrt(det(J J^T)) = |det J|, and cheaper
                w = np.abs(np.linalg.det(Js))
            elif k > n:
                w = np.zeros(Js.shape[0])
            else:
                w = np.sqrt(np.clip(np.linalg.det(Js @ np.swapaxes(Js, 1, 2)), 0.0, None))
        else:
            s = np.linalg.svd(Js, compute_uv=False)
            smin = s[:, -1] if n >= k else np.zeros(Js.shape[0])
            if method == "minsingular":
                w = smin
            else:
                smax = s[:, 0]
                w = np.divide(smin, smax, out=np.zeros_like(smin), where=smax > 0)
    return float(w[0]) if single else w


def _asada(robot, q2d, J3, rows):
    from .dynamics import inertia  # dynamics is optional for the kinematic measures

    if not robot.has_dynamics:
        raise ValueError(f"method 'asada' needs the inertia matrix; {robot.name!r} has no "
                         "dynamic parameters")
    M = np.asarray(inertia(robot, q2d)).reshape(-1, robot.n, robot.n)
    Ji = np.linalg.pinv(J3)  # (m, n, 6); the plain inverse for a non-singular 6x6 J
    Mx = np.swapaxes(Ji, 1, 2) @ M @ Ji
    Mx = Mx[:, rows, rows]
    Mx = 0.5 * (Mx + np.swapaxes(Mx, 1, 2))
    e = np.linalg.eigvalsh(Mx)
    emax = e[:, -1]
    return np.divide(e[:, 0], emax, out=np.zeros_like(emax), where=emax > 0)


class Ellipsoid(NamedTuple):
    """An ellipsoid for drawing: ``x = centre + rotation @ diag(radii) @ u`` for unit u.

    centre (3,) or (m, 3) in metres (the tool point); radii (3,) or (m, 3), largest
    first; rotation (3, 3) or (m, 3, 3), a proper rotation whose columns are the axes.
    """

    centre: np.ndarray
    radii: np.ndarray
    rotation: np.ndarray


def _ellipse(robot, q, axes, J, force: bool) -> Ellipsoid:
    if axes not in ("trans", "rot"):
        raise ValueError(f"axes must be 'trans' or 'rot', got {axes!r}")
    from ..kinematics.kinematics import fkine

    q2d, J3, single = _jacobian(robot, q, J)
    Js = J3[:, _rows(axes)]
    w, V = np.linalg.eigh(Js @ np.swapaxes(Js, 1, 2))  # ascending eigenvalues
    w = np.clip(w, 0.0, None)
    if force:
        # force ellipsoid: (J J^T)^-1; unbounded (inf) along directions the arm cannot move
        with np.errstate(divide="ignore"):
            radii = np.where(w > 1e-300, 1.0 / np.sqrt(w), np.inf)
    else:
        radii = np.sqrt(w)[:, ::-1]
        V = V[:, :, ::-1]
    V = V.copy()
    V[:, :, 2] *= np.sign(np.linalg.det(V))[:, None]  # a proper rotation
    centre = fkine(robot, q2d)[:, :3, 3]
    if single:
        return Ellipsoid(centre[0], radii[0], V[0])
    return Ellipsoid(centre, radii, V)


def vellipse(robot, q, axes: str = "trans", J=None) -> Ellipsoid:
    """Velocity ellipsoid ``{J qd : |qd| = 1}`` of the translational (m/s per rad/s) or
    rotational ("rot", rad/s per rad/s) rows; radii are the square roots of the
    eigenvalues of ``J J^T`` (zero at a singular direction)."""
    return _ellipse(robot, q, axes, J, force=False)


def fellipse(robot, q, axes: str = "trans", J=None) -> Ellipsoid:
    """Force ellipsoid ``{F : |J^T F| = 1}``: radii ``1/sqrt(eig(J J^T))`` (N per N m of
    joint torque, or N m for "rot"); ``inf`` along a direction the arm cannot move,
    where it resists any force. The axes are those of the velocity ellipsoid."""
    return _ellipse(robot, q, axes, J, force=True)
