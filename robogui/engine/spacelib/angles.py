"""Cardan (Tait-Bryan) and Euler angles for any axis sequence, with velocity and acceleration.

``(i, j, k)`` means ``R = R_i(q1) R_j(q2) R_k(q3)``: rotations about the moving axes
(equivalently k, j, i about fixed axes). ``j`` differs from ``i`` and ``k``; ``k == i``
gives Euler angles. Every inverse returns both solutions. Angular velocity and
acceleration are expressed in the fixed frame. Angles in rad.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from .matrices import _vec3, axis_index, mtov, vtom

__all__ = [
    "cardator", "rtocarda", "cardatom", "mtocarda", "cardatol", "cardtoom", "cardtome",
    "cardatow", "cardompt", "cardtowp", "cardatog", "cardatoh", "inva", "wtocarda", "htocarda",
]


def _seq(i, j, k) -> tuple[int, int, int]:
    i, j, k = axis_index(i, "i"), axis_index(j, "j"), axis_index(k, "k")
    if j == i or j == k:
        raise ValueError(f"axis j must differ from i and k, got (i, j, k) = ({i}, {j}, {k})")
    return i, j, k


def _q3(q, name: str) -> np.ndarray:
    q = as_float_array(q, name)
    if q.shape[-1:] != (3,) or not np.all(np.isfinite(q)):
        raise ValueError(f"{name} must be 3 finite angles (3,) or (m, 3), got shape {q.shape}")
    return q


def _rot(axis: int, t: np.ndarray) -> np.ndarray:
    c, s = np.cos(t), np.sin(t)
    R = np.zeros(np.shape(t) + (3, 3))
    R[..., axis, axis] = 1.0
    a, b = [(1, 2), (2, 0), (0, 1)][axis]
    R[..., a, a], R[..., a, b], R[..., b, a], R[..., b, b] = c, -s, s, c
    return R


def _parity(i: int, j: int, k: int) -> float:
    return 1.0 if (j - i) % 3 == 1 else -1.0


def cardator(q, i, j, k) -> np.ndarray:
    """Rotation ``R_i(q1) R_j(q2) R_k(q3)``: q (3,) -> (3, 3); (m, 3) -> (m, 3, 3)."""
    i, j, k = _seq(i, j, k)
    q = _q3(q, "q")
    return _rot(i, q[..., 0]) @ _rot(j, q[..., 1]) @ _rot(k, q[..., 2])


def rtocarda(R, i, j, k) -> tuple[np.ndarray, np.ndarray]:
    """Both angle sets of a rotation matrix: ``(q1, q2)`` each (3,) (SpaceLib ``rtocarda``).

    Cardan: q1 has the middle angle in [-pi/2, pi/2], q2 = (q1 + pi, pi - q1_2, q3 + pi).
    Euler: q1 has the middle angle in [0, pi], q2 = (q1 + pi, -q1_2, q3 + pi) (wrapped).
    At a singularity (gimbal lock) the first angle is set to 0.
    """
    i, j, k = _seq(i, j, k)
    R = as_float_array(R, "R")
    if R.shape[-2:] not in ((3, 3), (4, 4)) or R.ndim != 2:
        raise ValueError(f"R must be a 3x3 (or 4x4) matrix, got shape {R.shape}")
    R = R[:3, :3]
    wrap = lambda x: (np.asarray(x) + np.pi) % (2 * np.pi) - np.pi
    if i != k:
        s = _parity(i, j, k)
        b1 = float(np.arcsin(np.clip(s * R[i, k], -1.0, 1.0)))
        out = []
        for b in (b1, np.pi - b1):
            cb = np.cos(b)
            if abs(cb) < 1e-10:  # gimbal lock: only q1 -+ q3 is defined
                a = 0.0
                c = float(np.arctan2(s * R[j, i], R[j, j]))
            else:
                sg = np.sign(cb)
                a = float(np.arctan2(-s * R[j, k] * sg, R[k, k] * sg))
                c = float(np.arctan2(-s * R[i, j] * sg, R[i, i] * sg))
            out.append(wrap(np.array([a, b, c])))
        return out[0], out[1]
    l_ = 3 - i - j
    s = _parity(i, j, l_)
    b1 = float(np.arccos(np.clip(R[i, i], -1.0, 1.0)))
    out = []
    for b in (b1, -b1):
        sb = np.sin(b)
        if abs(sb) < 1e-10:
            # middle angle 0: R = R_i(a + c); pi: R = R_i(a - c) R_j(pi). With a = 0 both
            # give the same (j, j) and (j, l) entries for c
            a = 0.0
            c = float(np.arctan2(-s * R[j, l_], R[j, j]))
        else:
            sg = np.sign(sb)
            a = float(np.arctan2(R[j, i] * sg, -s * R[l_, i] * sg))
            c = float(np.arctan2(R[i, j] * sg, s * R[i, l_] * sg))
        out.append(wrap(np.array([a, b, c])))
    return out[0], out[1]


def cardatom(q, i, j, k, O=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Position matrix with origin O and orientation ``cardator(q, i, j, k)``."""
    R = cardator(q, i, j, k)
    M = np.zeros(R.shape[:-2] + (4, 4))
    M[..., :3, :3] = R
    M[..., :3, 3] = _vec3(O, "O")
    M[..., 3, 3] = 1.0
    return M


def mtocarda(m, i, j, k) -> tuple[np.ndarray, np.ndarray]:
    """Both angle sets of a position matrix's rotation (SpaceLib ``mtocarda``)."""
    m = as_float_array(m, "m")
    if m.shape != (4, 4):
        raise ValueError(f"m must have shape (4, 4), got shape {m.shape}")
    return rtocarda(m[:3, :3], i, j, k)


def cardatol(q, i, j, k) -> np.ndarray:
    """The 3x3 matrix A with ``omega = A qp`` (fixed frame): the three rotation axes."""
    i, j, k = _seq(i, j, k)
    q = _q3(q, "q")
    Ri = _rot(i, q[..., 0])
    Rij = Ri @ _rot(j, q[..., 1])
    A = np.zeros(q.shape[:-1] + (3, 3))
    A[..., i, 0] = 1.0
    A[..., :, 1] = Ri[..., :, j]
    A[..., :, 2] = Rij[..., :, k]
    return A


def cardtoom(q, qp, i, j, k) -> np.ndarray:
    """Angular velocity (rad/s, fixed frame) from angles and their rates."""
    A = cardatol(q, i, j, k)
    return np.einsum("...ij,...j->...i", A, _q3(qp, "qp"))


def cardtome(q, qp, i, j, k) -> np.ndarray:
    """Skew-symmetric angular-velocity matrix Omega (3x3)."""
    return vtom(cardtoom(q, qp, i, j, k))


def cardtowp(q, qp, i, j, k) -> np.ndarray:
    """Velocity-product part of the angular acceleration: ``Adot qp`` (fixed frame)."""
    A = cardatol(q, i, j, k)
    qp = _q3(qp, "qp")
    w1 = A[..., :, 0] * qp[..., 0:1]
    w12 = w1 + A[..., :, 1] * qp[..., 1:2]
    return (np.cross(w1, A[..., :, 1]) * qp[..., 1:2]
            + np.cross(w12, A[..., :, 2]) * qp[..., 2:3])


def cardompt(q, qp, qpp, i, j, k) -> np.ndarray:
    """Angular acceleration (rad/s^2, fixed frame): ``A qpp + Adot qp``."""
    A = cardatol(q, i, j, k)
    return np.einsum("...ij,...j->...i", A, _q3(qpp, "qpp")) + cardtowp(q, qp, i, j, k)


def cardatow(q, qp, i, j, k, O=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Velocity matrix W of a frame rotating about the fixed point O."""
    Om = cardtome(q, qp, i, j, k)
    W = np.zeros(Om.shape[:-2] + (4, 4))
    W[..., :3, :3] = Om
    W[..., :3, 3] = -np.einsum("...ij,j->...i", Om, _vec3(O, "O"))
    return W


def cardatog(q, qp, qpp, i, j, k) -> np.ndarray:
    """3x3 block G of the acceleration matrix: ``Omega_dot + Omega^2``."""
    Om = cardtome(q, qp, i, j, k)
    return vtom(cardompt(q, qp, qpp, i, j, k)) + Om @ Om


def cardatoh(q, qp, qpp, i, j, k, O=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Acceleration matrix H of a frame rotating about the fixed point O."""
    G = cardatog(q, qp, qpp, i, j, k)
    H = np.zeros(G.shape[:-2] + (4, 4))
    H[..., :3, :3] = G
    H[..., :3, 3] = -np.einsum("...ij,j->...i", G, _vec3(O, "O"))
    return H


def inva(q, i, j, k) -> tuple[np.ndarray, bool]:
    """Inverse of :func:`cardatol`'s A (maps omega to angle rates) and ``ok`` (not singular)."""
    A = cardatol(q, i, j, k)
    det = np.linalg.det(A)
    if abs(det) < 1e-12:
        return np.full((3, 3), np.nan), False
    return np.linalg.inv(A), True


def wtocarda(m, W, i, j, k):
    """``(q1, qp1, q2, qp2)``: both angle sets and their rates from M and W."""
    W = as_float_array(W, "W")
    omega = mtov(W[:3, :3])
    q1, q2 = mtocarda(m, i, j, k)
    res = []
    for q in (q1, q2):
        Ai, ok = inva(q, i, j, k)
        if not ok:
            raise ValueError(f"angles {q} are singular for sequence ({i}, {j}, {k})")
        res.append(Ai @ omega)
    return q1, res[0], q2, res[1]


def htocarda(m, W, H, i, j, k):
    """``(q1, q2, qp1, qp2, qpp1, qpp2)`` from the M, W and H matrices (SpaceLib order)."""
    q1, qp1, q2, qp2 = wtocarda(m, W, i, j, k)
    H = as_float_array(H, "H")
    Om = np.asarray(W, dtype=float)[:3, :3]
    wdot = mtov(H[:3, :3] - Om @ Om)
    out = []
    for q, qp in ((q1, qp1), (q2, qp2)):
        Ai, _ = inva(q, i, j, k)
        out.append(Ai @ (wdot - cardtowp(q, qp, i, j, k)))
    return q1, q2, qp1, qp2, out[0], out[1]
