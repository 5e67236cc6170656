"""Argument checks shared by the engine: shapes, finiteness and homogeneous transforms.

Every public engine function calls one of these at the door so that a wrong shape,
a NaN or a non-numeric value raises a ``ValueError`` naming the argument and what
was expected, instead of failing deep inside numpy.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "as_scalar",
    "as_float_array",
    "as_vector",
    "as_joint_array",
    "as_transform",
    "check_homogeneous",
    "check_rotation",
    "check_finite_result",
]


def _short(value, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_float_array(value, name: str, *, allow_bool: bool = True) -> np.ndarray:
    """Convert ``value`` to a float64 array, or raise ValueError naming ``name``.

    Only numbers are accepted: numpy itself would turn the string ``"1.5"`` into 1.5 and
    ``None`` into NaN, so strings, ``None``, complex numbers and other non-numbers are
    refused here with a message that says so. Objects that convert with ``float()``
    (Decimal, Fraction, numpy scalars) are fine. ``allow_bool=False`` refuses booleans
    too (joint values: True is not an angle).
    """
    if isinstance(value, np.ndarray):
        raw = value
    elif value is None or isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be numeric, got {_short(value)}")
    else:
        try:
            raw = np.asarray(value)
        except (TypeError, ValueError) as exc:  # e.g. a ragged nested list
            raise ValueError(f"{name} must be a numeric array, got {_short(value)}") from exc
    kind = raw.dtype.kind
    if kind == "b" and not allow_bool:
        raise ValueError(f"{name} must be numeric, not boolean: got {_short(value)}")
    if kind == "c":
        raise ValueError(f"{name} must be numeric, not complex: got {_short(value)}")
    if kind in "biuf":
        return np.asarray(raw, dtype=np.float64)
    if kind != "O" or any(x is None for x in raw.flat):  # numpy would make None a NaN
        raise ValueError(f"{name} must be numeric, got {_short(value)}")
    try:
        return raw.astype(np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric, got {_short(value)}") from exc


def as_scalar(value, name: str, *, nonneg: bool = False) -> float:
    """A finite float (not negative when ``nonneg``), or ValueError naming ``name``.

    Strings are refused even when they spell a number (``float("1.5")`` would accept them).
    """
    if isinstance(value, (str, bytes)):
        raise ValueError(f"{name} must be a number, got {_short(value)}")
    try:
        x = float(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a number, got {value!r}") from exc
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    if nonneg and x < 0:
        raise ValueError(f"{name} must not be negative, got {x}")
    return x


def _check_finite(arr: np.ndarray, name: str, want: str = "") -> None:
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        where = "" if arr.ndim == 0 else f" at index {tuple(int(i) for i in bad)}"
        hint = f"; expected finite values of shape {want}" if want else ""
        raise ValueError(f"{name} contains a non-finite value (NaN or inf){where}{hint}")


def _numeric(value, name: str, want: str, allow_bool: bool = True) -> np.ndarray:
    """as_float_array, with the expected shape added to its message."""
    try:
        return as_float_array(value, name, allow_bool=allow_bool)
    except ValueError as exc:
        raise ValueError(f"{exc}; expected shape {want}") from None


def as_vector(value, length: int, name: str) -> np.ndarray:
    """A finite float vector of exactly ``length`` elements."""
    want = f"({length},)"
    arr = _numeric(value, name, want)
    if arr.ndim == 0 and length == 1:
        arr = arr.reshape(1)
    if arr.shape != (length,):
        raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
    _check_finite(arr, name, want)
    return arr


def as_joint_array(value, n: int, name: str = "q") -> tuple[np.ndarray, bool]:
    """Joint-space input of shape (n,) or (m, n).

    Returns ``(array2d, single)`` where ``array2d`` has shape (m, n) and ``single``
    tells the caller to drop the leading axis from its result. Every error message names
    the argument and the expected shape.
    """
    want = f"({n},) or (m, {n})"
    arr = _numeric(value, name, want, allow_bool=False)
    if arr.ndim == 0 and n == 1:
        arr = arr.reshape(1)
    if arr.ndim == 1:
        if arr.shape[0] != n:
            raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
        _check_finite(arr, name, want)
        return arr.reshape(1, n), True
    if arr.ndim == 2 and arr.shape[1] == n:
        _check_finite(arr, name, want)
        return arr, False
    raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")


def _where(bad: np.ndarray, name: str) -> str:
    """``name`` or, for a stack, ``name[k]`` of the first failing matrix."""
    if bad.ndim == 0:
        return name
    k = np.unravel_index(int(np.argmax(bad)), bad.shape)
    return f"{name}[{', '.join(str(int(i)) for i in k)}]"


def check_rotation(R: np.ndarray, name: str = "R", tol: float = 1e-6, part: str = "") -> None:
    """Raise ValueError unless every (..., 3, 3) matrix is orthonormal with det +1.

    For a stack the message names the index of the first failing matrix.
    """
    err = np.abs(np.einsum("...ji,...jk->...ik", R, R) - np.eye(3)).max(axis=(-2, -1))
    if np.any(err > tol):
        bad = err > tol
        raise ValueError(f"{_where(bad, name)}{part} is not a rotation: R^T R differs from I "
                         f"by {err[bad].flat[0] if bad.ndim else err:.3g}")
    det = np.linalg.det(R)
    if np.any(det < 0):
        raise ValueError(f"{_where(det < 0, name)}{part} is not a rotation: determinant is "
                         f"{det[det < 0].flat[0] if det.ndim else det:.3g}, not +1")


def check_homogeneous(T: np.ndarray, name: str = "T", tol: float = 1e-6) -> None:
    """Raise ValueError unless every (..., 4, 4) matrix is a rigid-body transform."""
    bottom = np.abs(T[..., 3, :] - np.array([0.0, 0.0, 0.0, 1.0])).max(axis=-1)
    if np.any(bottom > tol):
        raise ValueError(f"{_where(bottom > tol, name)} is not homogeneous: its bottom row "
                         "is not [0 0 0 1]")
    check_rotation(T[..., :3, :3], name, tol, part=" (rotation part)")


def as_transform(value, name: str = "T", tol: float = 1e-6, stack: bool = True) -> np.ndarray:
    """A finite 4x4 homogeneous transform, or a stack (m, 4, 4) when ``stack``."""
    want = "(4, 4) or (m, 4, 4)" if stack else "(4, 4)"
    arr = _numeric(value, name, want)
    ok = arr.shape == (4, 4) or (stack and arr.ndim == 3 and arr.shape[1:] == (4, 4))
    if not ok:
        raise ValueError(f"{name} must have shape {want}, got shape {arr.shape}")
    _check_finite(arr, name, want)
    check_homogeneous(arr, name, tol)
    return arr


def check_finite_result(result, what: str, **inputs) -> None:
    """Raise ValueError if ``result`` holds inf or NaN although the inputs were finite.

    Finite inputs can still overflow (a joint velocity of 1e308 squared); the message
    names the input with the largest magnitude among ``inputs`` (name -> array or None),
    which is what made the result overflow. Cheap when the result is finite.
    """
    arr = np.asarray(result)
    if arr.dtype.kind == "c":
        arr = arr.view(arr.real.dtype)
    if np.isfinite(arr).all():
        return
    worst, size = None, -1.0
    for name, value in inputs.items():
        if value is None:
            continue
        v = np.asarray(value)
        big = float(np.max(np.abs(v))) if v.size else 0.0
        if big > size:
            worst, size = name, big
    blame = f"; {worst} holds values as large as {size:.3g}" if worst else ""
    raise ValueError(f"{what} would overflow to a non-finite result for these finite inputs"
                     f"{blame}: give {worst or 'the inputs'} a magnitude that the computation "
                     "can square (well below 1e150)")


def angle_scale(unit: str) -> float:
    """Factor from ``unit`` to radians; ValueError for anything but "rad" or "deg"."""
    if unit == "rad":
        return 1.0
    if unit == "deg":
        return math.pi / 180.0
    raise ValueError(f'unit must be "rad" or "deg", got {unit!r}')
