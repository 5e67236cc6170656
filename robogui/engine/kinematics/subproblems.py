"""Paden-Kahan subproblems, batched: the closed-form pieces that the analytic inverse
kinematics of industrial arms is built from (Murray, Li, Sastry, "A Mathematical
Introduction to Robotic Manipulation", 1994, ch. 3).

Every function takes arrays that broadcast over leading dimensions and returns angles in
rad; impossible cases give NaN-free results plus a mask saying where they hold.
"""

from __future__ import annotations

import numpy as np

__all__ = ["angle_about", "projection_angles", "distance_angles", "two_axis_angles"]


def _dot(a, b):
    return np.einsum("...i,...i->...", a, b)


def _perp(u, x):
    return x - _dot(u, x)[..., None] * u


def angle_about(u, a, b) -> np.ndarray:
    """Subproblem 1: the angle (...) of the rotation about unit ``u`` (..., 3) that takes
    the direction of vector ``a`` to that of ``b`` (both projected normal to u)."""
    ap, bp = _perp(u, a), _perp(u, b)
    return np.arctan2(_dot(u, np.cross(ap, bp)), _dot(ap, bp))


def projection_angles(u, x, n, c) -> tuple[np.ndarray, np.ndarray]:
    """The two angles (..., 2) of rotations about unit ``u`` that give vector ``x`` the
    component ``c`` (...) along unit ``n``, and a mask (...) where they exist.

    ``n . Rot(u, t) x = A cos t + B sin t + n . x_par = c``.
    """
    xpar = _dot(u, x)[..., None] * u
    xp = x - xpar
    A, B = _dot(n, xp), _dot(n, np.cross(u, xp))
    C = c - _dot(n, xpar)
    R = np.hypot(A, B)
    ratio = C / np.maximum(R, 1e-300)
    # x along u (a wrist centre on axis 1: a shoulder singularity): every angle gives the
    # same component; if it is the one asked for, any angle will do, take 0 and pi
    tiny = 1e-9 * np.maximum(np.linalg.norm(x, axis=-1), 1e-6)
    free = (R <= tiny) & (np.abs(C) <= 10 * tiny)
    ok = ((np.abs(ratio) <= 1 + 1e-9) & (R > tiny)) | free
    phi, ac = np.arctan2(B, A), np.arccos(np.clip(ratio, -1.0, 1.0))
    phi = np.where(free, 0.0, phi)
    ac = np.where(free, np.pi / 2, ac)
    return np.stack([phi + ac, phi - ac], axis=-1) - np.where(free, np.pi / 2, 0.0)[
        ..., None], ok


def distance_angles(u, p, x, y, delta) -> tuple[np.ndarray, np.ndarray]:
    """Subproblem 3: the two angles (..., 2) of rotations about the axis (``u``, ``p``)
    that put point ``x`` at distance ``delta`` (...) from point ``y``; mask where they exist."""
    a, b = x - p, y - p
    ap, bp = _perp(u, a), _perp(u, b)
    dz = _dot(u, a - b)
    d2 = delta**2 - dz**2
    th0 = np.arctan2(_dot(u, np.cross(ap, bp)), _dot(ap, bp))
    na, nb = np.linalg.norm(ap, axis=-1), np.linalg.norm(bp, axis=-1)
    cosv = (na**2 + nb**2 - d2) / np.maximum(2 * na * nb, 1e-300)
    ok = (np.abs(cosv) <= 1 + 1e-9) & (d2 >= -1e-12) & (na * nb > 1e-24)
    ac = np.arccos(np.clip(cosv, -1.0, 1.0))
    return np.stack([th0 + ac, th0 - ac], axis=-1), ok


def two_axis_angles(u1, u2, a, b) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Subproblem 2: ``Rot(u1, t1) Rot(u2, t2) a = b`` for unit axes through one point.

    Returns t1 (..., 2), t2 (..., 2) for the two solutions (the intermediate vector
    ``Rot(u2, t2) a`` on either side of the u1-u2 plane) and a mask (...) where they exist.
    """
    c12 = _dot(u1, u2)
    den = c12**2 - 1.0
    alpha = (c12 * _dot(u2, a) - _dot(u1, b)) / den
    beta = (c12 * _dot(u1, b) - _dot(u2, a)) / den
    n12 = np.cross(u1, u2)
    g2 = (_dot(a, a) - alpha**2 - beta**2 - 2 * alpha * beta * c12) / _dot(n12, n12)
    ok = g2 >= -1e-9
    g = np.sqrt(np.maximum(g2, 0.0))
    t1, t2 = [], []
    for sign in (1.0, -1.0):
        c = (alpha[..., None] * u1 + beta[..., None] * u2 + (sign * g)[..., None] * n12)
        t2.append(angle_about(u2, a, c))
        t1.append(angle_about(u1, c, b))
    return np.stack(t1, axis=-1), np.stack(t2, axis=-1), ok
