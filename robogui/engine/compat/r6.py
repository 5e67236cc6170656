"""Robotics Toolbox for MATLAB release 6 ("r6") names with r6 meanings, for porting scripts.

robogui's own names follow roboticstoolbox-python / spatialmath; where r6 used another
name or another meaning, the r6 spelling is kept here as a documented alias (see
docs/transforms.md, "r6 aliases"):

* ``link_from_row(row)`` / ``Robot.from_dh`` / ``Robot.from_dyn``: r6's legacy ``dh``
  rows ``[alpha A theta D sigma]`` (sigma optional) and 20-column ``dyn`` rows;
  ``dh_row(L)`` / ``dyn_row(L)`` give them back (``Link.dh``, ``Link.dyn``, ``Robot.dh``,
  ``Robot.dyn``).
* ``tr2diff(T)`` / ``tr2diff(T1, T2)`` = ``tr2delta``; ``diff2tr(d)`` returns r6's
  ``Delta`` (no identity added, unlike ``delta2tr``).
* ``rotvec(v, theta)``: 4x4 rotation about v (``angvec2tr(theta, v)``, arguments swapped).
* ``maniplty(robot, q, which="yoshikawa")``: r6's manipulability ("yoshikawa" or "asada").
* ``quaternion(...)``: r6's constructor forms.
* ``show(L)``: the r6 ``show`` listing; ``display(L)``: r6's one-line link summary.
* ``coriolis`` (r6: the torque vector), ``nofriction``, ``rpy2tr`` / ``tr2rpy`` (r6's angle
  order) and ``tr2jac`` (r6: the same-body velocity map) with r6's meanings.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from ..model.link import Link
from ..model.robot import Robot
from ..spatial.quaternion import UnitQuaternion
from ..spatial.transforms import angvec2tr, skew, tr2delta

__all__ = ["link_from_row", "dh_row", "dyn_row", "robot_from_dh", "robot_from_dyn",
           "tr2diff", "diff2tr", "rotvec", "maniplty", "quaternion", "show", "display",
           "coriolis", "nofriction", "rpy2tr", "tr2rpy", "tr2jac"]


def link_from_row(row, mdh: bool = False, **extra) -> Link:
    """A Link from one r6 legacy row (r6 ``link([alpha A theta D sigma])``, ``link(dyn_row)``):
    :meth:`Link.from_row <robogui.engine.model.link.Link.from_row>`.

    >>> link_from_row([-np.pi / 2, 0.02, 0, 0.15]).dh
    array([-1.57079633,  0.02      ,  0.        ,  0.15      ,  0.        ])
    """
    return Link.from_row(row, mdh=mdh, **extra)


def dh_row(L: Link) -> np.ndarray:
    """r6 ``link.dh``: ``[alpha A theta D sigma]`` (5,) (``Link.dh``)."""
    return L.dh


def dyn_row(L: Link) -> np.ndarray:
    """r6 ``link.dyn``: the 20 values of a legacy ``dyn`` row (20,) (``Link.dyn``)."""
    return L.dyn


def robot_from_dh(dh, name: str = "noname", manufacturer: str = "", comment: str = "", *,
                  mdh: bool = False, **kw):
    """r6 ``robot(DH, name, manuf, comment)``: a Robot from an n x 4 or n x 5 ``dh`` matrix.

    Rows ``[alpha A theta D sigma]``; without the sigma column every joint is revolute.
    Other Robot keywords (``base``, ``tool``, ``gravity``, ``poses``) pass through.
    """
    return Robot.from_dh(dh, name, manufacturer, comment, mdh=mdh, **kw)


def robot_from_dyn(dyn, name: str = "noname", manufacturer: str = "", comment: str = "", *,
                   mdh: bool = False, **kw):
    """r6 ``robot(DYN, ...)``: a Robot from an n x 20 ``dyn`` matrix (kinematics and dynamics).

    r6's gravity was ``[0 0 9.81]`` (its sign convention); robogui's default
    ``(0, 0, -9.81)`` is the same physical gravity.
    """
    return Robot.from_dyn(dyn, name, manufacturer, comment, mdh=mdh, **kw)


# -- transforms with r6 meanings ---------------------------------------------------------
def tr2diff(T1, T2=None) -> np.ndarray:
    """r6 ``tr2diff``: :func:`robogui.engine.spatial.transforms.tr2delta` (same meaning)."""
    return tr2delta(T1, T2)


def diff2tr(d) -> np.ndarray:
    """r6 ``diff2tr``: the differential ``Delta = [skew(w) v; 0 0 0 0]`` (4, 4) of
    ``d = [vx vy vz wx wy wz]`` (r6 meaning: robogui's ``delta2tr`` adds the identity).
    Also (k, 6) -> (k, 4, 4)."""
    arr = as_float_array(d, "d")
    if arr.shape[-1:] != (6,) or arr.ndim > 2:
        raise ValueError(f"d must have shape (6,) or (k, 6), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError("d contains a non-finite value (NaN or inf)")
    D = np.zeros(arr.shape[:-1] + (4, 4))
    D[..., :3, :3] = skew(arr[..., 3:])
    D[..., :3, 3] = arr[..., :3]
    return D


def rotvec(v, theta) -> np.ndarray:
    """r6 ``rotvec(v, theta)``: 4x4 rotation of theta (rad) about vector v
    (``angvec2tr(theta, v)``)."""
    return angvec2tr(theta, v)


def maniplty(robot, q, which: str = "yoshikawa"):
    """r6 ``maniplty(robot, q, which)``: "yoshikawa" (default) or "asada", all six rows.

    A vector q gives a float, a matrix (m, n) gives (m,) (r6: a column).
    """
    from ..dynamics.manipulability import manipulability

    if which not in ("yoshikawa", "asada"):
        raise ValueError(f"which must be 'yoshikawa' or 'asada' (r6), got {which!r}")
    return manipulability(robot, q, method=which)


def quaternion(a=None, v=None):
    """r6 ``quaternion``: ``quaternion(q)`` copy, ``quaternion(theta, v)``,
    ``quaternion([s vx vy vz])``, ``quaternion(R)`` or ``quaternion(T)``.

    Returns a :class:`UnitQuaternion` for the rotation forms. The 4-element form keeps the
    components as given (r6 did not normalise) in a
    :class:`robogui.engine.spatial.quaternion_algebra.Quaternion`, unless they are of unit length.
    """
    from ..spatial.quaternion_algebra import Quaternion

    if v is not None:
        return UnitQuaternion.AngVec(a, v)
    if a is None or isinstance(a, UnitQuaternion):
        return UnitQuaternion(a)
    if isinstance(a, Quaternion):
        return Quaternion(a.vec)
    arr = as_float_array(a, "a")
    if arr.shape == (4,):
        if np.all(np.isfinite(arr)) and abs(np.linalg.norm(arr) - 1.0) < 1e-12:
            return UnitQuaternion(arr)
        return Quaternion(arr)
    return UnitQuaternion(arr)


def coriolis(robot, q, qd) -> np.ndarray:
    """r6 ``coriolis(robot, q, qd)``: the Coriolis/centripetal *torque* (robogui
    ``coriolis_torque``; robogui's ``coriolis`` is the matrix C)."""
    from ..dynamics.dynamics import coriolis_torque

    return coriolis_torque(robot, q, qd)


def nofriction(robot, coulomb: bool = True, viscous: bool = False):
    """r6 ``nofriction(robot)``: Coulomb friction removed (``Robot.nofriction``)."""
    return robot.nofriction(coulomb, viscous)


def rpy2tr(r, p=None, y=None) -> np.ndarray:
    """r6 ``rpy2tr(r, p, y)`` / ``rpy2tr([r p y])``: ``rotz(r) roty(p) rotx(y)``, i.e.
    robogui ``rpy2tr([y, p, r])``."""
    from ..spatial.transforms import rpy2tr as _rpy2tr

    if p is None and y is None:
        a = as_float_array(r, "rpy")
        if a.shape[-1:] != (3,):
            raise ValueError(f"rpy must have shape (3,) or (k, 3), got shape {a.shape}")
        return _rpy2tr(a[..., ::-1])
    if p is None or y is None:
        raise ValueError("give all three angles r, p, y, or one vector [r p y]")
    return _rpy2tr(y, p, r)


def tr2rpy(T) -> np.ndarray:
    """r6 ``tr2rpy(T)``: r6's angle order, robogui ``tr2rpy(T)[..., ::-1]``."""
    from ..spatial.transforms import tr2rpy as _tr2rpy

    return _tr2rpy(T)[..., ::-1]


def tr2jac(T) -> np.ndarray:
    """r6 ``tr2jac(T)`` (Paul): ``tr2jac(T, samebody=True)``."""
    from ..spatial.transforms import tr2jac as _tr2jac

    return _tr2jac(T, samebody=True)


# -- r6 text forms ------------------------------------------------------------------------
def _g(x: float) -> str:
    """MATLAB's short display of a number (5 significant digits)."""
    return f"{float(x) + 0.0:.5g}"


def display(L: Link) -> str:
    """r6's one-line link summary: ``alpha A theta D R|P`` with 6 decimals, and ``(mdh)``
    for a modified D-H link.

    >>> display(link_from_row([-np.pi / 2, 0.02, 0, 0.15]))
    ' -1.570796\\t  0.020000\\t  0.000000\\t  0.150000\\tR'
    """
    vals = "\t".join(f"{x:10f}" for x in (L.alpha, L.a, L.theta, L.d))
    return f"{vals}\t{L.joint}" + ("\t(mdh)" if L.mdh else "")


def show(L: Link) -> str:
    """r6 ``show(L)``: one ``name = value`` line per parameter that has been set.

    The kinematic parameters, sigma and mdh always; G, Jm, B, Tc, m, r, I, qlim, offset
    when they differ from their defaults (r6 shows "as many link parameters as have been
    initialized"). Values in MATLAB's short format.
    """
    lines = [f"alpha = {_g(L.alpha)}", f"A = {_g(L.a)}", f"theta = {_g(L.theta)}",
             f"D = {_g(L.d)}", f"sigma = {L.sigma}", f"mdh = {int(L.mdh)}"]
    if L.offset:
        lines.append(f"offset = {_g(L.offset)}")
    if L.qlim is not None:
        lines.append(f"qlim = {_g(L.qlim[0])} {_g(L.qlim[1])}")
    if L.m:
        lines.append(f"m = {_g(L.m)}")
    if np.any(L.r):
        lines.append("r = " + " ".join(_g(x) for x in L.r))
    if np.any(L.I):
        lines.append("I = " + "; ".join(" ".join(_g(x) for x in row) for row in L.I))
    if L.Jm:
        lines.append(f"Jm = {_g(L.Jm)}")
    if L.G != 1.0:
        lines.append(f"G = {_g(L.G)}")
    if L.B:
        lines.append(f"B = {_g(L.B)}")
    if any(L.Tc):
        lines.append(f"Tc = {_g(L.Tc[0])} {_g(L.Tc[1])}")
    return "\n".join(lines)
