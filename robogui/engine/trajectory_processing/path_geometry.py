"""Geometry of taught tool paths, batched over samples: lines, circles through three
points, cubic Bezier corner blends, slerped orientations and path lengths.

Positions in metres, rotations as 3x3 matrices, path parameters u in [0, 1].
"""

from __future__ import annotations

import numpy as np

from ..spatial.quaternion import q2r, qslerp, r2q

__all__ = ["Circle", "circle_through", "arc_points", "line_points", "slerp_rotations",
           "bezier", "path_length", "GeometryError"]


class GeometryError(ValueError):
    """A path that has no geometry (three points on a line for a circle, ...)."""


class Circle:
    """The circle through three points: ``centre`` (3,), ``radius`` m, an orthonormal
    in-plane basis ``e1`` (towards the first point), ``e2``, and ``sweep`` rad, the angle
    from the first point through the via point to the last (0 < sweep < 2 pi)."""

    def __init__(self, centre, radius, e1, e2, sweep):
        self.centre, self.radius, self.e1, self.e2, self.sweep = centre, radius, e1, e2, sweep

    @property
    def length(self) -> float:
        """Arc length from the first to the last point, m."""
        return float(self.radius * self.sweep)


def circle_through(p0, pv, p1, tol: float = 1e-9) -> Circle:
    """The circle from ``p0`` through ``pv`` to ``p1`` (each (3,), m).

    Raises :class:`GeometryError` when the points are (nearly) on one line or coincide.
    """
    p0, pv, p1 = (np.asarray(p, dtype=float).reshape(3) for p in (p0, pv, p1))
    a, b = pv - p0, p1 - p0
    axb = np.cross(a, b)
    den = 2.0 * float(axb @ axb)
    scale = max(float(a @ a), float(b @ b), 1e-300)
    if den <= tol * scale**2 or min(np.linalg.norm(a), np.linalg.norm(b),
                                    np.linalg.norm(p1 - pv)) < tol:
        raise GeometryError("the start, via and end points lie on one line (or coincide): "
                            "they define no circle")
    centre = p0 + (np.cross(axb, a) * float(b @ b) + np.cross(b, axb) * float(a @ a)) / den
    radius = float(np.linalg.norm(p0 - centre))
    normal = axb / np.linalg.norm(axb)
    e1 = (p0 - centre) / radius
    e2 = np.cross(normal, e1)

    def angle(p):
        d = p - centre
        return float(np.arctan2(d @ e2, d @ e1)) % (2.0 * np.pi)

    sweep = angle(p1)  # positive about the normal, which turns p0 towards pv (pv before p1)
    return Circle(centre, radius, e1, e2, sweep)


def arc_points(circle: Circle, u) -> np.ndarray:
    """Points (k, 3) at fractions ``u`` (k,) of the arc (0 first point, 1 last)."""
    th = np.asarray(u, dtype=float)[:, None] * circle.sweep
    return circle.centre + circle.radius * (np.cos(th) * circle.e1 + np.sin(th) * circle.e2)


def line_points(p0, p1, u) -> np.ndarray:
    """Points (k, 3) at fractions ``u`` (k,) of the segment p0 -> p1."""
    p0, p1 = np.asarray(p0, dtype=float), np.asarray(p1, dtype=float)
    return p0 + np.asarray(u, dtype=float)[:, None] * (p1 - p0)


def slerp_rotations(R0, R1, u) -> np.ndarray:
    """Rotations (k, 3, 3) slerped from ``R0`` to ``R1`` (3, 3) at fractions ``u`` (k,),
    the shorter way round."""
    return q2r(qslerp(r2q(np.asarray(R0)), r2q(np.asarray(R1)),
                      np.asarray(u, dtype=float), shortest=True))


def bezier(P, u) -> np.ndarray:
    """Cubic Bezier curve with control points ``P`` (4, d) at ``u`` (k,): (k, d)."""
    P = np.asarray(P, dtype=float)
    u = np.asarray(u, dtype=float)[:, None]
    w = 1.0 - u
    return w**3 * P[0] + 3 * w * w * u * P[1] + 3 * w * u * u * P[2] + u**3 * P[3]


def path_length(points) -> np.ndarray:
    """Cumulative length (k,) along the polyline through ``points`` (k, d), from 0."""
    points = np.asarray(points, dtype=float)
    return np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(points, axis=0), axis=1))])
