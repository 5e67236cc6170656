"""Door checks shared by the transform functions (finite numbers of the expected shape,
proper rotations, named in the message) and the ``isrot`` / ``ishom`` predicates.
"""

from __future__ import annotations

import numpy as np

from ..checks import angle_scale as _angle_scale
from ..checks import as_float_array, as_transform, check_rotation

__all__ = ["isrot", "ishom"]

_MAT_SHAPES = "(3, 3), (4, 4), (k, 3, 3) or (k, 4, 4)"


def _finite(arr: np.ndarray, name: str, want: str = "") -> np.ndarray:
    if not np.all(np.isfinite(arr)):
        hint = f"; expected finite values of shape {want}" if want else ""
        raise ValueError(f"{name} contains a non-finite value (NaN or inf){hint}")
    return arr


def _numbers(value, name: str, want: str) -> np.ndarray:
    """as_float_array with the expected shape in its message."""
    try:
        return as_float_array(value, name)
    except ValueError as exc:
        raise ValueError(f"{exc}; expected shape {want}") from None


_ANGLE_SHAPES = "() (a scalar) or (k,)"


def _angles(theta, name: str, unit: str) -> np.ndarray:
    """A scalar or (k,) array of finite angles, converted to radians."""
    arr = _numbers(theta, name, _ANGLE_SHAPES)
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a scalar or have shape (k,), got shape {arr.shape}")
    return _finite(arr, name, _ANGLE_SHAPES) * _angle_scale(unit)


def _vectors(value, length: int, name: str) -> np.ndarray:
    """A finite (length,) vector or (k, length) stack."""
    want = f"({length},) or (k, {length})"
    arr = _numbers(value, name, want)
    if arr.ndim not in (1, 2) or arr.shape[-1] != length:
        raise ValueError(f"{name} must have shape {want}, got {arr.shape}")
    return _finite(arr, name, want)


def _rotations(T, name: str = "T") -> tuple[np.ndarray, bool]:
    """Rotation part of R (3,3)/(k,3,3) or T (4,4)/(k,4,4), checked; also says if it was 4x4."""
    arr = _numbers(T, name, _MAT_SHAPES)
    if arr.ndim in (2, 3) and arr.shape[-2:] == (4, 4):
        return as_transform(arr, name)[..., :3, :3], True
    if arr.ndim in (2, 3) and arr.shape[-2:] == (3, 3):
        _finite(arr, name, _MAT_SHAPES)
        check_rotation(arr, name)
        return arr, False
    raise ValueError(f"{name} must have shape {_MAT_SHAPES}, got {arr.shape}")


def _to_hom(R: np.ndarray, t: np.ndarray | None = None) -> np.ndarray:
    T = np.zeros(R.shape[:-2] + (4, 4))
    T[..., :3, :3] = R
    if t is not None:
        T[..., :3, 3] = t
    T[..., 3, 3] = 1.0
    return T


def isrot(R, check: bool = False, tol: float = 1e-9) -> bool:
    """True if R is a (3, 3) array; with ``check`` also orthonormal with det +1 (abs ``tol``).

    Like spatialmath (and r6 ``ishomog``) the default only checks the shape. Never raises.
    """
    try:
        arr = np.asarray(R, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    if arr.shape != (3, 3):
        return False
    if not check:
        return True
    return bool(
        np.all(np.isfinite(arr))
        and np.abs(arr.T @ arr - np.eye(3)).max() < tol
        and abs(np.linalg.det(arr) - 1.0) < tol
    )


def ishom(T, check: bool = False, tol: float = 1e-9) -> bool:
    """True if T is a (4, 4) array; with ``check`` also a rigid transform (abs ``tol``).

    Like spatialmath and r6 ``ishomog`` the default only checks the shape. Never raises.
    """
    try:
        arr = np.asarray(T, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    if arr.shape != (4, 4):
        return False
    if not check:
        return True
    bottom_ok = np.all(np.isfinite(arr[3])) and np.abs(arr[3] - [0, 0, 0, 1]).max() < tol
    return bool(bottom_ok and np.all(np.isfinite(arr[:3, 3])) and isrot(arr[:3, :3], True, tol))
