"""Small motions: skew matrices, differential transforms (deltas), the velocity map
between two frames (``tr2jac``) and wrench transforms. Batched like :mod:`.transforms`,
which re-exports every name here.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array, as_transform
from .transform_checks import _finite, _vectors

__all__ = ["skew", "vex", "tr2delta", "delta2tr", "tr2jac", "wrench_transform", "ftrans"]


# -- skew matrices -------------------------------------------------------------------------
def skew(v) -> np.ndarray:
    """Skew-symmetric matrix: v (3,) / (k, 3) -> (3, 3) / (k, 3, 3), ``skew(v) @ u = v x u``.

    A scalar (or (1,)) gives the 2x2 ``[[0, -v], [v, 0]]``.
    """
    arr = as_float_array(v, "v")
    if arr.shape in ((), (1,)):
        w = float(_finite(arr, "v").reshape(()))
        return np.array([[0.0, -w], [w, 0.0]])
    arr = _vectors(arr, 3, "v")
    x, y, z = arr[..., 0], arr[..., 1], arr[..., 2]
    S = np.zeros(arr.shape[:-1] + (3, 3))
    S[..., 0, 1], S[..., 0, 2], S[..., 1, 2] = -z, y, -x
    S[..., 1, 0], S[..., 2, 0], S[..., 2, 1] = z, -y, x
    return S


def vex(S) -> np.ndarray:
    """Vector of a skew-symmetric matrix: (3, 3) / (k, 3, 3) -> (3,) / (k, 3); (2, 2) -> (1,).

    Uses the mean of the two mirrored elements, so for any square matrix it returns the
    vector of its skew-symmetric part (r6 ``tr2diff`` relies on this).
    """
    arr = as_float_array(S, "S")
    _finite(arr, "S")
    if arr.shape == (2, 2):
        return np.array([0.5 * (arr[1, 0] - arr[0, 1])])
    if arr.ndim not in (2, 3) or arr.shape[-2:] != (3, 3):
        raise ValueError(f"S must have shape (3, 3), (k, 3, 3) or (2, 2), got {arr.shape}")
    return 0.5 * np.stack(
        [
            arr[..., 2, 1] - arr[..., 1, 2],
            arr[..., 0, 2] - arr[..., 2, 0],
            arr[..., 1, 0] - arr[..., 0, 1],
        ],
        axis=-1,
    )


# -- differential motion -------------------------------------------------------------------
def tr2delta(T1, T2=None) -> np.ndarray:
    """Differential motion ``[dx dy dz dRx dRy dRz]`` (6,) or (k, 6), r6 ``tr2diff``.

    * ``tr2delta(T)``: T (4, 4) is read as ``I + Delta`` or as ``Delta`` itself (r6 form):
      ``[T[:3, 3], vex of the skew part of T[:3, :3]]``. Only shape and finiteness are
      checked, so ``delta2tr`` output and differential matrices are accepted.
    * ``tr2delta(T1, T2)``: the motion from T1 to T2 expressed in the **base** frame (r6):
      ``[p2 - p1, (n1 x n2 + o1 x o2 + a1 x a2) / 2]``, which for a small motion is the base
      frame delta d with ``T2 = delta2tr(d) @ T1``. spatialmath's ``tr2delta(T1, T2)`` is the same
      motion in T1's frame: ``blockdiag(R1^T, R1^T) @ tr2delta(T1, T2)``.
    """
    if T2 is None:
        arr = as_float_array(T1, "T")
        if arr.ndim not in (2, 3) or arr.shape[-2:] != (4, 4):
            raise ValueError(f"T must have shape (4, 4) or (k, 4, 4), got {arr.shape}")
        _finite(arr, "T")
        return np.concatenate([arr[..., :3, 3], vex(arr[..., :3, :3])], axis=-1)
    A = as_transform(T1, "T1")
    B = as_transform(T2, "T2")
    # columns n, o, a of each rotation as rows, crossed pairwise and summed
    cols_a = np.swapaxes(A[..., :3, :3], -1, -2)
    cols_b = np.swapaxes(B[..., :3, :3], -1, -2)
    rot = 0.5 * np.cross(cols_a, cols_b).sum(axis=-2)
    return np.concatenate([B[..., :3, 3] - A[..., :3, 3], rot], axis=-1)


def delta2tr(d) -> np.ndarray:
    """Transform ``I + Delta`` (4, 4) / (k, 4, 4) for differential motion d (6,) / (k, 6).

    ``Delta = [skew(d[3:]), d[:3]; 0 0 0 0]``. r6 ``diff2tr`` returned Delta itself
    (``delta2tr(d) - I``); spatialmath returns ``I + Delta`` as here. Not exactly orthonormal.
    """
    d = _vectors(d, 6, "d")
    T = np.zeros(d.shape[:-1] + (4, 4))
    T[..., :3, :3] = np.eye(3) + skew(d[..., 3:])
    T[..., :3, 3] = d[..., :3]
    T[..., 3, 3] = 1.0
    return T


def tr2jac(T, samebody: bool = False) -> np.ndarray:
    """6x6 matrix (or (k, 6, 6)) mapping velocities ``[v; w]`` from frame a to frame b, ``T = aTb``.

    * ``samebody=False`` (MATLAB RTB >= 9 ``tr2jac(T)``): ``blockdiag(R^T, R^T)``; only
      re-expresses a velocity given in frame a's axes in frame b's axes, no lever arm (e.g.
      ``jacobe = tr2jac(T) @ jacob0`` with T the end-effector pose).
    * ``samebody=True`` (r6 / Paul ``tr2jac``, MATLAB RTB ``tr2jac(T, 'samebody')``):
      ``[[R^T, -R^T skew(p)], [0, R^T]]``: the motion ``[v_a; w_a]`` of a body, given at frame a's
      origin in frame a, becomes the same body's motion at frame b's origin in frame b,
      ``v_b = R^T (v_a + w_a x p)``, ``w_b = R^T w_a``.

    spatialmath-python's ``tr2jac(T)`` maps the other way, b to a: ``blockdiag(R, R)``, which
    is robogui ``tr2jac(trinv(T))``.
    """
    T = as_transform(T, "T")
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    J = np.zeros(T.shape[:-2] + (6, 6))
    J[..., :3, :3] = Rt
    J[..., 3:, 3:] = Rt
    if samebody:
        J[..., :3, 3:] = -Rt @ skew(T[..., :3, 3])
    return J


def wrench_transform(T, W) -> np.ndarray:
    """Wrench ``[f; m]`` (6,) / (k, 6) at frame a's origin in frame a -> same wrench at b in b.

    ``T = aTb``: ``f_b = R^T f``, ``m_b = R^T (m + f x p)`` (r6 ``ftrans(F, T)``, MATLAB RTB
    ``wtrans(T, W)``). It is the dual of ``tr2jac(T, samebody=True)``: the power ``W . V`` of a
    wrench on a twist V is the same in both frames. T may be a stack (k, 4, 4).
    """
    T = as_transform(T, "T")
    W = _vectors(W, 6, "W")
    R, p = T[..., :3, :3], T[..., :3, 3]
    f, m = W[..., :3], W[..., 3:]
    fb = np.einsum("...ji,...j->...i", R, f)
    mb = np.einsum("...ji,...j->...i", R, m + np.cross(f, p))
    return np.concatenate([fb, mb], axis=-1)


def ftrans(F, T) -> np.ndarray:
    """r6 argument order for :func:`wrench_transform`: ``ftrans(F, T) = wrench_transform(T, F)``."""
    return wrench_transform(T, F)
