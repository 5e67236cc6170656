"""Points, lines, planes and frames built on them (SpaceLib chapter 3.6-3.7).

* point: homogeneous ``[x, y, z, 1]`` (3-vectors are accepted too);
* line: 4x2 array, column 0 a point (homogeneous), column 1 the unit direction ``[a, b, c, 0]``;
* plane: ``[a, b, c, d]`` with unit normal (a, b, c): ``a x + b y + c z + d = 0``.
Lengths in m, angles in rad.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from .matrices import _vec3, axis_index

__all__ = [
    "aaxis", "framep", "frame4p", "framev", "frame4v", "angle", "distp", "intermed", "middle",
    "vect", "line2p", "linpvect", "intersec", "projponl", "distpp", "project", "plane", "plane2",
    "inter2pl", "interlpl",
]

_EPS = 1e-12


def _point(P, name: str) -> np.ndarray:
    return _vec3(P, name).astype(float)


def _hom(p: np.ndarray) -> np.ndarray:
    return np.append(p, 1.0)


def _unit(v: np.ndarray, name: str) -> np.ndarray:
    n = np.linalg.norm(v)
    if n < _EPS:
        raise ValueError(f"{name} has zero length; the construction is undefined")
    return v / n


def _line(l_, name: str = "l") -> tuple[np.ndarray, np.ndarray]:
    arr = as_float_array(l_, name)
    if arr.shape != (4, 2) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a 4x2 line [point, direction], got shape {arr.shape}")
    return arr[:3, 0], _unit(arr[:3, 1], f"{name} direction")


def _plane(pl, name: str = "pl") -> tuple[np.ndarray, float]:
    arr = as_float_array(pl, name).ravel()
    if arr.shape != (4,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a plane [a, b, c, d], got shape {arr.shape}")
    n = np.linalg.norm(arr[:3])
    if n < _EPS:
        raise ValueError(f"{name} has a zero normal")
    return arr[:3] / n, float(arr[3] / n)


def aaxis(n) -> np.ndarray:
    """Unit vector of frame axis ``n`` (X, Y or Z)."""
    e = np.zeros(3)
    e[axis_index(n, "n")] = 1.0
    return e


def framev(v1, v2, a1, a2) -> np.ndarray:
    """Rotation whose axis a1 is along v1 and axis a2 lies in the (v1, v2) plane toward v2.

    The third axis is along ``v1 x v2`` with the sign that makes a right-handed frame.
    """
    i, j = axis_index(a1, "a1"), axis_index(a2, "a2")
    if i == j:
        raise ValueError("a1 and a2 must be different axes")
    e1 = _unit(_vec3(v1, "v1"), "v1")
    n = _unit(np.cross(e1, _vec3(v2, "v2")), "v1 x v2 (v1 and v2 are parallel)")
    e2 = np.cross(n, e1)
    k = 3 - i - j
    R = np.zeros((3, 3))
    R[:, i], R[:, j] = e1, e2
    R[:, k] = n if (j - i) % 3 == 1 else -n
    return R


def frame4v(P1, v1, v2, a1, a2) -> np.ndarray:
    """Position matrix with origin P1 and the orientation of :func:`framev`."""
    M = np.eye(4)
    M[:3, :3] = framev(v1, v2, a1, a2)
    M[:3, 3] = _point(P1, "P1")
    return M


def framep(P1, P2, P3, a1, a2) -> np.ndarray:
    """Rotation of a frame at P1 with axis a1 toward P2 and axis a2 toward P3 (if possible)."""
    p1 = _point(P1, "P1")
    return framev(_point(P2, "P2") - p1, _point(P3, "P3") - p1, a1, a2)


def frame4p(P1, P2, P3, a1, a2) -> np.ndarray:
    """Position matrix of :func:`framep` with origin P1."""
    p1 = _point(P1, "P1")
    return frame4v(p1, _point(P2, "P2") - p1, _point(P3, "P3") - p1, a1, a2)


def angle(P1, P2, P3) -> float:
    """Angle (rad) between P1 - P2 and P3 - P2."""
    a = _point(P1, "P1") - _point(P2, "P2")
    b = _point(P3, "P3") - _point(P2, "P2")
    return float(np.arctan2(np.linalg.norm(np.cross(a, b)), a @ b))


def distp(P1, P2) -> float:
    """Distance between two points."""
    return float(np.linalg.norm(_point(P1, "P1") - _point(P2, "P2")))


def intermed(P1, a, P2, b) -> np.ndarray:
    """Weighted point ``(a P1 + b P2) / (a + b)`` (a + b = 0 is taken as 1), homogeneous."""
    s = float(a) + float(b)
    s = 1.0 if s == 0 else s
    return _hom((float(a) * _point(P1, "P1") + float(b) * _point(P2, "P2")) / s)


def middle(P1, P2) -> np.ndarray:
    """Mid point of P1 and P2, homogeneous."""
    return intermed(P1, 1.0, P2, 1.0)


def vect(P1, P2) -> np.ndarray:
    """The vector ``P1 - P2`` (from P2 toward P1), (3,)."""
    return _point(P1, "P1") - _point(P2, "P2")


def linpvect(P1, v) -> np.ndarray:
    """Line through P1 along v: 4x2."""
    L = np.zeros((4, 2))
    L[:3, 0], L[3, 0] = _point(P1, "P1"), 1.0
    L[:3, 1] = _unit(_vec3(v, "v"), "v")
    return L


def line2p(P1, P2) -> np.ndarray:
    """Line through P1 directed from P1 toward P2: 4x2."""
    return linpvect(P1, _point(P2, "P2") - _point(P1, "P1"))


def projponl(P, l_) -> tuple[np.ndarray, float]:
    """Projection I (homogeneous) of point P on line l, and the distance of P from l.

    The manual's example passes ``(l, P)``; both argument orders are accepted.
    """
    if np.shape(P) == (4, 2):
        P, l_ = l_, P
    p = _point(P, "P")
    o, u = _line(l_)
    I = o + ((p - o) @ u) * u
    return _hom(I), float(np.linalg.norm(p - I))


def plane(P1, P2, P3) -> np.ndarray:
    """Plane through three points, normal along ``(P2 - P1) x (P3 - P1)``."""
    p1 = _point(P1, "P1")
    n = _unit(np.cross(_point(P2, "P2") - p1, _point(P3, "P3") - p1), "normal (points collinear)")
    return np.append(n, -n @ p1)


def plane2(P1, v) -> np.ndarray:
    """Plane through P1 with normal v."""
    n = _unit(_vec3(v, "v"), "v")
    return np.append(n, -n @ _point(P1, "P1"))


def distpp(pl, P) -> float:
    """Signed distance of P from plane pl (positive on the normal's side)."""
    n, d = _plane(pl)
    return float(n @ _point(P, "P") + d)


def project(P, pl) -> tuple[np.ndarray, float]:
    """Projection I (homogeneous) of P on plane pl, and the signed distance of P from pl."""
    n, d = _plane(pl)
    p = _point(P, "P")
    dist = float(n @ p + d)
    return _hom(p - dist * n), dist


def interlpl(l_, pl) -> tuple[np.ndarray | None, int]:
    """Intersection of line and plane: ``(I, inttype)``.

    inttype 0: one point I; 1: the line lies on the plane (I = its point); -1: parallel (I None).
    """
    o, u = _line(l_)
    n, d = _plane(pl)
    den = n @ u
    if abs(den) < _EPS:
        return (_hom(o), 1) if abs(n @ o + d) < 1e-9 else (None, -1)
    t = -(n @ o + d) / den
    return _hom(o + t * u), 0


def inter2pl(pl1, pl2) -> tuple[np.ndarray | None, int]:
    """Intersection line of two planes: ``(line, ok)``; ok 0 when the planes are parallel."""
    n1, d1 = _plane(pl1, "pl1")
    n2, d2 = _plane(pl2, "pl2")
    u = np.cross(n1, n2)
    if np.linalg.norm(u) < _EPS:
        return None, 0
    # the point of the line nearest the origin: n1.p = -d1, n2.p = -d2, u.p = 0
    p = np.linalg.solve(np.vstack([n1, n2, u]), np.array([-d1, -d2, 0.0]))
    return linpvect(p, u), 1


def intersec(l1, l2):
    """Intersection of two lines: ``(lmindist, mindist, pl, I, inttype)``.

    inttype 1 skew lines (I the middle of the common perpendicular), 0 one intersection,
    -1 the same line, 2 parallel lines. ``lmindist`` is the common perpendicular (None when
    undefined) and ``pl`` a plane containing both lines (None when it cannot be built).
    """
    o1, u1 = _line(l1, "l1")
    o2, u2 = _line(l2, "l2")
    c = np.cross(u1, u2)
    if np.linalg.norm(c) < 1e-12:
        w = o2 - o1
        perp = w - (w @ u1) * u1
        if np.linalg.norm(perp) < 1e-9:
            return None, 0.0, None, _hom(o1), -1
        pl = plane2(o1, np.cross(u1, perp))
        return line2p(o1, o1 + perp), float(np.linalg.norm(perp)), pl, None, 2
    # closest points o1 + s u1 and o2 + t u2
    A = np.array([[u1 @ u1, -(u1 @ u2)], [u1 @ u2, -(u2 @ u2)]])
    b = np.array([(o2 - o1) @ u1, (o2 - o1) @ u2])
    s, t = np.linalg.solve(A, b)
    p1, p2 = o1 + s * u1, o2 + t * u2
    dist = float(np.linalg.norm(p2 - p1))
    I = 0.5 * (p1 + p2)
    pl = plane2(I, c)
    if dist < 1e-9:
        return None, 0.0, pl, _hom(I), 0
    return line2p(p1, p2), dist, pl, _hom(I), 1
