"""Screws: rotation matrix <-> (axis, angle), rototranslation <-> (axis, angle, point, pitch)."""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from .matrices import _vec3, vtom

__all__ = ["rotat", "extract", "screwtom", "mtoscrew"]


def rotat(u, phi) -> np.ndarray:
    """3x3 rotation by ``phi`` (rad) about unit vector ``u`` (Rodrigues; SpaceLib ``rotat``)."""
    u = _vec3(u, "u")
    n = np.linalg.norm(u)
    if n == 0:
        raise ValueError("u must not be the zero vector")
    u = u / n
    S = vtom(u)
    phi = float(phi)
    return np.eye(3) + np.sin(phi) * S + (1.0 - np.cos(phi)) * (S @ S)


def extract(A) -> tuple[np.ndarray, float]:
    """Axis ``u`` (3,) and angle ``phi`` in [0, pi] of the rotation block of A (``extract``)."""
    A = as_float_array(A, "A")
    if A.ndim != 2 or A.shape[0] < 3 or A.shape[1] < 3:
        raise ValueError(f"A must be a 3x3 or 4x4 matrix, got shape {A.shape}")
    R = A[:3, :3]
    c = np.clip(0.5 * (np.trace(R) - 1.0), -1.0, 1.0)
    w = 0.5 * np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])
    s = np.linalg.norm(w)
    phi = float(np.arctan2(s, c))
    if phi < 1e-12:
        return np.zeros(3), 0.0
    if np.pi - phi > 1e-6:
        return w / s, phi
    # near pi: the axis comes from the symmetric part R + I = 2 u u^T
    B = 0.5 * (R + R.T + np.eye(3) * (1.0 - c))
    k = int(np.argmax(np.diag(B)))
    u = B[:, k] / np.sqrt(B[k, k])
    if w @ u < 0:
        u = -u
    return u / np.linalg.norm(u), phi


def screwtom(u, phi, P, h) -> np.ndarray:
    """Rototranslation Q of a screw: axis ``u`` through point P, angle ``phi``, slide ``h``."""
    R = rotat(u, phi)
    u = _vec3(u, "u")
    u = u / np.linalg.norm(u)
    P = _vec3(P, "P")
    Q = np.eye(4)
    Q[:3, :3] = R
    Q[:3, 3] = P - R @ P + float(h) * u
    return Q


def mtoscrew(Q) -> tuple[np.ndarray, float, np.ndarray, float]:
    """Screw of a rototranslation: ``(u, phi, P, h)`` (SpaceLib ``mtoscrew``).

    ``P`` (homogeneous, (4,)) is the axis point nearest the origin; ``phi`` in [0, pi].
    A pure translation gives ``phi = 0``, ``u`` along it and ``P`` the origin.
    """
    Q = as_float_array(Q, "Q")
    if Q.shape != (4, 4):
        raise ValueError(f"Q must have shape (4, 4), got shape {Q.shape}")
    u, phi = extract(Q)
    t = Q[:3, 3]
    P = np.array([0.0, 0.0, 0.0, 1.0])
    if phi == 0.0:
        h = float(np.linalg.norm(t))
        return (t / h if h > 0 else np.zeros(3)), 0.0, P, h
    h = float(t @ u)
    # (I - R) P = t - h u has a one-parameter family of solutions; u.P = 0 picks the nearest
    A = np.vstack([np.eye(3) - Q[:3, :3], u[None, :]])
    b = np.concatenate([t - h * u, [0.0]])
    P[:3] = np.linalg.lstsq(A, b, rcond=None)[0]
    return u, phi, P, h
