"""Closest distance between line segments, batched (capsule-capsule and capsule-sphere
distances in numpy: a capsule is a segment with a radius, a sphere a segment of length 0).

Ericson, Real-Time Collision Detection (2005), section 5.1.9, vectorised over any leading
shape; no Python loop over pairs or states.
"""

from __future__ import annotations

import numpy as np

__all__ = ["segment_distance"]

_EPS = 1e-12


def segment_distance(p1, q1, p2, q2) -> np.ndarray:
    """Distance between segments p1-q1 and p2-q2: arrays (..., 3) -> (...,) (m).

    Degenerate segments (points) are handled; the result is exact to rounding.
    """
    p1, q1, p2, q2 = (np.asarray(x, dtype=float) for x in (p1, q1, p2, q2))
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a = np.einsum("...i,...i->...", d1, d1)
    e = np.einsum("...i,...i->...", d2, d2)
    f = np.einsum("...i,...i->...", d2, r)
    c = np.einsum("...i,...i->...", d1, r)
    b = np.einsum("...i,...i->...", d1, d2)
    a_ok, e_ok = a > _EPS, e > _EPS
    a_safe, e_safe = np.where(a_ok, a, 1.0), np.where(e_ok, e, 1.0)
    denom = a * e - b * b
    # s on segment 1 for the infinite lines (0 when parallel), then t, then re-clamp s
    s = np.where(denom > _EPS * np.maximum(a * e, _EPS),
                 np.clip((b * f - c * e) / np.where(denom > 0, denom, 1.0), 0.0, 1.0), 0.0)
    t = (b * s + f) / e_safe
    s = np.where(t < 0.0, np.clip(-c / a_safe, 0.0, 1.0),
                 np.where(t > 1.0, np.clip((b - c) / a_safe, 0.0, 1.0), s))
    t = np.clip(t, 0.0, 1.0)
    # segment 1 a point: t from projecting it; segment 2 a point: s likewise
    s = np.where(a_ok, s, 0.0)
    t = np.where(a_ok, t, np.clip(f / e_safe, 0.0, 1.0))
    s = np.where(e_ok | ~a_ok, s, np.clip(-c / a_safe, 0.0, 1.0))
    t = np.where(e_ok, t, 0.0)
    c1 = p1 + d1 * s[..., None]
    c2 = p2 + d2 * t[..., None]
    return np.linalg.norm(c1 - c2, axis=-1)
