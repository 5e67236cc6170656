"""Extended Denavit-Hartenberg matrices (SpaceLib ``dhtom`` with the lateral shift b)."""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from .matrices import Pri, _type

__all__ = ["dhtom", "dhtomstd"]


def dhtom(jtype, theta, d, b, a, alpha, q=0.0) -> np.ndarray:
    """Position matrix ``ROT(z, theta) TRAS(z, d) TRAS(x, a) TRAS(y, b) ROT(x, alpha)``.

    ``q`` is added to ``theta`` for a revolute joint (``jtype`` Rev/0/"R") and to ``d`` for a
    prismatic one (Pri/1/"P"). ``q`` scalar -> (4, 4); ``q`` of shape (m,) -> (m, 4, 4).
    Angles in rad, lengths in m; ``b = 0`` gives standard D-H (manual eq. 3.1).
    """
    jt = _type(jtype)
    q = as_float_array(q, "q")
    if not np.all(np.isfinite(q)):
        raise ValueError("q contains a non-finite value")
    th = float(theta) + (q if jt != Pri else 0.0 * q)
    dd = float(d) + (q if jt == Pri else 0.0 * q)
    ct, st = np.cos(th), np.sin(th)
    ca, sa = np.cos(float(alpha)), np.sin(float(alpha))
    a, b = float(a), float(b)
    M = np.zeros(np.shape(q) + (4, 4))
    M[..., 0, 0], M[..., 0, 1], M[..., 0, 2] = ct, -st * ca, st * sa
    M[..., 1, 0], M[..., 1, 1], M[..., 1, 2] = st, ct * ca, -ct * sa
    M[..., 2, 1], M[..., 2, 2] = sa, ca
    M[..., 0, 3] = a * ct - b * st
    M[..., 1, 3] = a * st + b * ct
    M[..., 2, 3] = dd
    M[..., 3, 3] = 1.0
    return M


def dhtomstd(theta, d, a, alpha) -> np.ndarray:
    """Standard D-H matrix ``ROT(z, theta) TRAS(z, d) TRAS(x, a) ROT(x, alpha)`` (eq. 3.2)."""
    return dhtom(0, theta, d, 0.0, a, alpha, 0.0)
