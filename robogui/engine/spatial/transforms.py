"""Rotations and homogeneous transforms with spatialmath-python names and conventions.

``rotx`` is a 3x3 rotation and ``trotx`` its 4x4 transform; ``a2b`` functions convert
(``rpy2tr``, ``tr2eul``); angles are radians unless ``unit="deg"``. Functions are batched
where natural: an angle array of shape (k,) gives a stack (k, 3, 3), and converters that
take a matrix also take a stack (k, 3, 3) / (k, 4, 4). Skew matrices and differential
motion live in :mod:`.differential`, the door checks and ``is*`` predicates in
:mod:`.transform_checks`; all are re-exported here. See docs/transforms.md for the map
from the Robotics Toolbox for MATLAB r6 names and the convention differences.
"""

from __future__ import annotations

import numpy as np

from ..checks import angle_scale as _angle_scale
from ..checks import as_float_array, as_transform
from .differential import delta2tr, ftrans, skew, tr2delta, tr2jac, vex, wrench_transform
from .quaternion import UnitQuaternion, q2r, qslerp, r2q
from .transform_checks import (
    _MAT_SHAPES,
    _angles,
    _finite,
    _rotations,
    _to_hom,
    _vectors,
    ishom,
    isrot,
)

__all__ = [
    "rotx",
    "roty",
    "rotz",
    "trotx",
    "troty",
    "trotz",
    "transl",
    "r2t",
    "t2r",
    "rt2tr",
    "rpy2r",
    "rpy2tr",
    "tr2rpy",
    "eul2r",
    "eul2tr",
    "tr2eul",
    "angvec2r",
    "angvec2tr",
    "tr2angvec",
    "oa2r",
    "oa2tr",
    "trnorm",
    "trinv",
    "tr2delta",
    "delta2tr",
    "tr2jac",
    "wrench_transform",
    "ftrans",
    "skew",
    "vex",
    "isrot",
    "ishom",
    "trinterp",
    "UnitQuaternion",
]

# below this, cos(pitch) (rpy) or sin(theta) (ZYZ) counts as zero: one angle is set to 0
_SINGULAR = 1e-14
_AXES = {"x": 0, "y": 1, "z": 2}
_RPY_ORDERS = ("zyx", "xyz", "yxz")


# -- elementary rotations ------------------------------------------------------------------
def _axis_rot(axis: int, theta: np.ndarray) -> np.ndarray:
    """Rotation about x/y/z (axis 0/1/2) by radians ``theta`` (...,) -> (..., 3, 3)."""
    c, s = np.cos(theta), np.sin(theta)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]  # the plane rotated, right-handed
    R = np.zeros(np.shape(theta) + (3, 3))
    R[..., axis, axis] = 1.0
    R[..., i, i] = c
    R[..., j, j] = c
    R[..., i, j] = -s
    R[..., j, i] = s
    return R


def rotx(theta, unit: str = "rad") -> np.ndarray:
    """Rotation about x: theta scalar -> (3, 3); theta (k,) -> (k, 3, 3).

    >>> rotx(90, unit="deg").round(12) + 0.0
    array([[ 1.,  0.,  0.],
           [ 0.,  0., -1.],
           [ 0.,  1.,  0.]])
    >>> rotx([0.1, 0.2, 0.3]).shape
    (3, 3, 3)
    """
    return _axis_rot(0, _angles(theta, "theta", unit))


def roty(theta, unit: str = "rad") -> np.ndarray:
    """Rotation about y: theta scalar -> (3, 3); theta (k,) -> (k, 3, 3)."""
    return _axis_rot(1, _angles(theta, "theta", unit))


def rotz(theta, unit: str = "rad") -> np.ndarray:
    """Rotation about z: theta scalar -> (3, 3); theta (k,) -> (k, 3, 3)."""
    return _axis_rot(2, _angles(theta, "theta", unit))


def trotx(theta, unit: str = "rad") -> np.ndarray:
    """Transform (4, 4) or (k, 4, 4) rotating about x (r6 ``rotx``)."""
    return _to_hom(rotx(theta, unit))


def troty(theta, unit: str = "rad") -> np.ndarray:
    """Transform (4, 4) or (k, 4, 4) rotating about y (r6 ``roty``)."""
    return _to_hom(roty(theta, unit))


def trotz(theta, unit: str = "rad") -> np.ndarray:
    """Transform (4, 4) or (k, 4, 4) rotating about z (r6 ``rotz``)."""
    return _to_hom(rotz(theta, unit))


def transl(x, y=None, z=None) -> np.ndarray:
    """Make a pure translation, or extract the translation of a transform.

    * ``transl(x, y, z)`` (scalars or (k,) arrays) or ``transl([x, y, z])`` / ``transl(P)``
      with P (k, 3) -> transform (4, 4) or (k, 4, 4);
    * ``transl(T)`` with T (4, 4) -> (3,); T (k, 4, 4) -> (k, 3) (r6 ``transl(TC)``).

    >>> transl(transl(1, 2, 3) @ trotx(0.5))
    array([1., 2., 3.])
    """
    if y is not None or z is not None:
        if y is None or z is None:
            raise ValueError("transl(x, y, z) needs all three coordinates")
        parts = [as_float_array(c, n) for c, n in ((x, "x"), (y, "y"), (z, "z"))]
        for p, n in zip(parts, "xyz", strict=True):
            if p.ndim > 1:
                raise ValueError(f"{n} must be a scalar or have shape (k,), got {p.shape}")
            _finite(p, n)
        p = np.stack(np.broadcast_arrays(*parts), axis=-1)
    else:
        arr = as_float_array(x, "x")
        if arr.ndim in (2, 3) and arr.shape[-2:] == (4, 4):
            return as_transform(arr, "T")[..., :3, 3].copy()
        if not (arr.ndim in (1, 2) and arr.shape[-1] == 3):
            raise ValueError(
                "transl expects x, y, z; a vector (3,) or stack (k, 3); or a transform "
                f"(4, 4) / (k, 4, 4); got shape {arr.shape}"
            )
        p = _finite(arr, "x", "(3,) or (k, 3)")
    return _to_hom(np.broadcast_to(np.eye(3), p.shape[:-1] + (3, 3)), p)


def r2t(R) -> np.ndarray:
    """Rotation (3, 3) or (k, 3, 3) -> transform with zero translation (4, 4) / (k, 4, 4)."""
    R, was_hom = _rotations(R, "R")
    if was_hom:
        raise ValueError("R must have shape (3, 3) or (k, 3, 3)")
    return _to_hom(R)


def t2r(T) -> np.ndarray:
    """Rotation part (3, 3) / (k, 3, 3) of a transform (4, 4) / (k, 4, 4) (r6 ``tr2rot``)."""
    return as_transform(T, "T")[..., :3, :3].copy()


def rt2tr(R, t) -> np.ndarray:
    """Transform (4, 4) from a rotation R (3, 3) and a translation t (3,)."""
    R, was_hom = _rotations(R, "R")
    if was_hom or R.ndim != 2:
        raise ValueError("R must have shape (3, 3)")
    tt = as_float_array(t, "t")
    if tt.shape != (3,):
        raise ValueError(f"t must have shape (3,), got {tt.shape}")
    return _to_hom(R, _finite(tt, "t"))


# -- three-angle representations -----------------------------------------------------------
def _three(a, b, c, names: str, unit: str) -> np.ndarray:
    """Angles given as one (3,)/(k, 3) array or as three scalars/(k,) arrays -> (..., 3) rad."""
    if b is None and c is None:
        return _vectors(a, 3, f"[{names}]") * _angle_scale(unit)
    if b is None or c is None:
        raise ValueError(f"give the three angles {names} together, or one array of shape (3,)")
    parts = [_angles(v, n, unit) for v, n in zip((a, b, c), names.split(", "), strict=True)]
    return np.stack(np.broadcast_arrays(*parts), axis=-1)


def _order(order: str) -> tuple[int, int, int]:
    if order not in _RPY_ORDERS:
        raise ValueError(f"order must be one of {_RPY_ORDERS}, got {order!r}")
    return tuple(_AXES[ch] for ch in order)


def rpy2r(roll, pitch=None, yaw=None, *, unit: str = "rad", order: str = "zyx") -> np.ndarray:
    """Roll-pitch-yaw angles -> rotation (3, 3), or (k, 3, 3) for (k, 3) / (k,) inputs.

    ``order="zyx"`` (default): ``R = Rz(yaw) Ry(pitch) Rx(roll)``; ``"xyz"``:
    ``Rx(yaw) Ry(pitch) Rz(roll)``; ``"yxz"``: ``Ry(yaw) Rx(pitch) Rz(roll)``.
    Call as ``rpy2r([roll, pitch, yaw])`` or ``rpy2r(roll, pitch, yaw)``.
    Note r6 ``rpy2tr(r, p, y) = Rz(r) Ry(p) Rx(y)``, i.e. robogui ``rpy2tr([y, p, r])``.

    >>> bool(np.allclose(rpy2r(0.1, 0.2, 0.3), rotz(0.3) @ roty(0.2) @ rotx(0.1)))
    True
    """
    ax = _order(order)
    rpy = _three(roll, pitch, yaw, "roll, pitch, yaw", unit)
    yaw_r, pitch_r, roll_r = (_axis_rot(ax[n], rpy[..., 2 - n]) for n in range(3))
    return yaw_r @ pitch_r @ roll_r


def rpy2tr(roll, pitch=None, yaw=None, *, unit: str = "rad", order: str = "zyx") -> np.ndarray:
    """Like :func:`rpy2r` but returns transforms (4, 4) / (k, 4, 4)."""
    return _to_hom(rpy2r(roll, pitch, yaw, unit=unit, order=order))


def tr2rpy(T, unit: str = "rad", order: str = "zyx") -> np.ndarray:
    """Roll-pitch-yaw angles ``[roll, pitch, yaw]`` (3,) or (k, 3) of R/T or a stack of them.

    Inverse of :func:`rpy2r` with the same ``order``; pitch lies in [-pi/2, pi/2]. At the
    singularity |pitch| = pi/2 roll is set to 0 and yaw carries the combined rotation (as
    spatialmath). Near it the three angles are computed consistently, so ``rpy2r`` of the
    result reproduces R to rounding; the result is never NaN.

    >>> tr2rpy(rpy2tr(10, 20, 30, unit="deg"), unit="deg").round(9)
    array([10., 20., 30.])
    >>> tr2rpy(rpy2r(0.4, np.pi / 2, 0.7)).round(9)  # singular: roll 0, yaw 0.7 - 0.4
    array([0.        , 1.57079633, 0.3       ])
    """
    R, _ = _rotations(T)
    scale = _angle_scale(unit)
    i, j, k = _order(order)
    e = 1.0 if (j - i) % 3 == 1 else -1.0  # +1 for cyclic axis orders such as xyz
    # roll first: row i of R is cos(pitch) * [.., roll terms]
    a, b = -e * R[..., i, j], R[..., i, i]
    roll = np.where(np.hypot(a, b) < _SINGULAR, 0.0, np.arctan2(a, b))
    M = R @ np.swapaxes(_axis_rot(k, roll), -1, -2)  # = R_i(yaw) R_j(pitch)
    yaw = np.arctan2(e * M[..., k, j], M[..., j, j])
    pitch = np.arctan2(e * M[..., i, k], M[..., i, i])
    return np.stack([roll, pitch, yaw], axis=-1) / scale


def eul2r(phi, theta=None, psi=None, *, unit: str = "rad") -> np.ndarray:
    """ZYZ Euler angles -> rotation ``Rz(phi) Ry(theta) Rz(psi)``, (3, 3) or (k, 3, 3).

    Call as ``eul2r([phi, theta, psi])`` or ``eul2r(phi, theta, psi)``. Same as r6
    ``eul2tr`` (whose text says "Z, X, Z"; the code is ZYZ).
    """
    ang = _three(phi, theta, psi, "phi, theta, psi", unit)
    return _axis_rot(2, ang[..., 0]) @ _axis_rot(1, ang[..., 1]) @ _axis_rot(2, ang[..., 2])


def eul2tr(phi, theta=None, psi=None, *, unit: str = "rad") -> np.ndarray:
    """Like :func:`eul2r` but returns transforms (4, 4) / (k, 4, 4)."""
    return _to_hom(eul2r(phi, theta, psi, unit=unit))


def tr2eul(T, unit: str = "rad") -> np.ndarray:
    """ZYZ Euler angles ``[phi, theta, psi]`` (3,) or (k, 3) of R/T or a stack; theta in [0, pi].

    At the singularity theta = 0 or pi, phi is set to 0 and psi carries the rotation (as
    spatialmath and r6); the result is never NaN.
    """
    R, _ = _rotations(T)
    scale = _angle_scale(unit)
    a, b = R[..., 1, 2], R[..., 0, 2]
    phi = np.where(np.hypot(a, b) < _SINGULAR, 0.0, np.arctan2(a, b))
    M = np.swapaxes(_axis_rot(2, phi), -1, -2) @ R  # = Ry(theta) Rz(psi)
    theta = np.arctan2(M[..., 0, 2], M[..., 2, 2])
    psi = np.arctan2(M[..., 1, 0], M[..., 1, 1])
    return np.stack([phi, theta, psi], axis=-1) / scale


# -- angle-axis and orientation/approach ---------------------------------------------------
def angvec2r(theta, v, unit: str = "rad") -> np.ndarray:
    """Rotation by ``theta`` about axis ``v`` (Rodrigues), (3, 3) or (k, 3, 3).

    ``theta`` scalar or (k,); ``v`` (3,) or (k, 3), any non-zero length (normalised here).
    A zero axis is accepted only with theta = 0. r6 ``rotvec(v, theta)`` is ``angvec2tr``.
    """
    th = _angles(theta, "theta", unit)
    axis = _vectors(v, 3, "v")
    n = np.linalg.norm(axis, axis=-1, keepdims=True)
    if np.any((n[..., 0] < 1e-12) & (th != 0)):
        raise ValueError("v must be a non-zero axis vector when theta is not 0")
    axis = np.divide(axis, n, out=np.zeros_like(axis), where=n >= 1e-12)
    th, axis = np.broadcast_arrays(th[..., None], axis)
    K = skew(axis)
    s, c = np.sin(th[..., 0])[..., None, None], np.cos(th[..., 0])[..., None, None]
    return np.eye(3) + s * K + (1.0 - c) * (K @ K)


def angvec2tr(theta, v, unit: str = "rad") -> np.ndarray:
    """Like :func:`angvec2r` but returns transforms (4, 4) / (k, 4, 4)."""
    return _to_hom(angvec2r(theta, v, unit))


def tr2angvec(T, unit: str = "rad") -> tuple:
    """Angle in [0, pi] and unit axis of R/T: ``(theta, v)`` with theta float and v (3,),
    or theta (k,) and v (k, 3) for a stack. The identity gives ``(0, [0, 0, 0])``."""
    R, _ = _rotations(T)
    q = r2q(R)  # s >= 0, so the angle 2 atan2(|v|, s) lies in [0, pi]
    n = np.linalg.norm(q[..., 1:], axis=-1)
    theta = 2.0 * np.arctan2(n, q[..., 0]) / _angle_scale(unit)
    v = np.divide(
        q[..., 1:], n[..., None], out=np.zeros(q.shape[:-1] + (3,)), where=n[..., None] > 1e-15
    )
    return (float(theta), v) if R.ndim == 2 else (theta, v)


def _unit_columns(n, o, a) -> np.ndarray:
    R = np.stack([n, o, a], axis=-1)
    return R / np.linalg.norm(R, axis=-2, keepdims=True)


def oa2r(o, a) -> np.ndarray:
    """Rotation (3, 3) / (k, 3, 3) from orientation ``o`` (y axis) and approach ``a`` (z axis).

    ``n = o x a``, ``o' = a x n``; the columns are the unit vectors ``[n o' a]`` (r6 ``oa2tr``).
    ``a`` keeps its direction exactly; ``o`` need not be perpendicular but not parallel to a.
    """
    o = _vectors(o, 3, "o")
    a = _vectors(a, 3, "a")
    lo = np.linalg.norm(o, axis=-1, keepdims=True)
    la = np.linalg.norm(a, axis=-1, keepdims=True)
    if np.any(lo == 0) or np.any(la == 0):
        raise ValueError("o and a must be non-zero and not parallel")
    # unit vectors first: tiny or huge inputs would under- or overflow in the products
    o, a = o / lo, a / la
    n = np.cross(o, a)
    if np.any(np.linalg.norm(n, axis=-1) <= 1e-12):
        raise ValueError("o and a must be non-zero and not parallel")
    return _unit_columns(n, np.cross(a, n), np.broadcast_to(a, n.shape))


def oa2tr(o, a) -> np.ndarray:
    """Like :func:`oa2r` but returns transforms (4, 4) / (k, 4, 4)."""
    return _to_hom(oa2r(o, a))


def trnorm(T) -> np.ndarray:
    """Re-orthonormalise R (3, 3) or T (4, 4), or stacks, after rounding drift.

    r6 algorithm: keep the approach vector a (3rd column), ``n = o x a``, ``o = a x n``, then
    normalise the three columns. The translation is kept and the bottom row set to [0 0 0 1].
    Only shape and finiteness are checked (the input is expected to be slightly off).
    """
    arr = as_float_array(T, "T")
    if arr.ndim not in (2, 3) or arr.shape[-2:] not in ((3, 3), (4, 4)):
        raise ValueError(f"T must have shape {_MAT_SHAPES}, got {arr.shape}")
    _finite(arr, "T")
    o, a = arr[..., :3, 1], arr[..., :3, 2]
    n = np.cross(o, a)
    if np.any(np.linalg.norm(n, axis=-1) < 1e-12):
        raise ValueError("T cannot be normalised: its o and a columns are parallel or zero")
    R = _unit_columns(n, np.cross(a, n), a)
    return R if arr.shape[-1] == 3 else _to_hom(R, arr[..., :3, 3])


def trinv(T) -> np.ndarray:
    """Inverse of a rigid transform (4, 4) or stack (k, 4, 4): ``[R^T, -R^T p; 0 0 0 1]``."""
    T = as_transform(T, "T")
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    return _to_hom(Rt, -np.einsum("...ij,...j->...i", Rt, T[..., :3, 3]))


# -- interpolation -------------------------------------------------------------------------
def trinterp(T0, T1, s, shortest: bool = True) -> np.ndarray:
    """Interpolate from T0 (s = 0) to T1 (s = 1): slerp for rotation, linear for translation.

    T0, T1 are transforms (4, 4) or rotations (3, 3) (same kind). One of them may be None,
    meaning the identity: ``trinterp(None, T, s)`` (spatialmath's form) and
    ``trinterp(T, None, s)`` both interpolate from the identity to T. ``s`` scalar in
    [0, 1] -> (4, 4); ``s`` (k,) -> (k, 4, 4), vectorised. ``shortest`` takes the shorter
    rotation (as spatialmath's trinterp; r6 did not flip, which only matters past 180
    degrees apart).

    >>> trinterp(trotx(0.2), transl(1, 4, 5) @ troty(0.3), 0.5).round(4)  # r6 manual example
    array([[ 0.9887,  0.0075,  0.1494,  0.5   ],
           [ 0.0075,  0.995 , -0.0998,  2.    ],
           [-0.1494,  0.0998,  0.9837,  2.5   ],
           [ 0.    ,  0.    ,  0.    ,  1.    ]])
    """
    ss = as_float_array(s, "s")
    if ss.ndim > 1:
        raise ValueError(f"s must be a scalar or have shape (k,), got shape {ss.shape}")
    _finite(ss, "s")
    if np.any((ss < 0) | (ss > 1)):
        raise ValueError("s must lie in [0, 1]")
    if T0 is None:
        if T1 is None:
            raise ValueError("trinterp needs T0 or T1 (None stands for the identity)")
        T0, T1 = T1, None
    arr0 = as_float_array(T0, "T0")
    if arr0.shape not in ((3, 3), (4, 4)):
        raise ValueError(f"T0 must have shape (3, 3) or (4, 4), got {arr0.shape}")
    R0, hom = _rotations(arr0, "T0")
    p0 = arr0[:3, 3] if hom else np.zeros(3)
    if T1 is None:
        # r6 / spatialmath: with one transform, interpolate from the identity to it
        R0, R1, p1, p0 = np.eye(3), R0, p0, np.zeros(3)
    else:
        arr1 = as_float_array(T1, "T1")
        if arr1.shape != arr0.shape:
            raise ValueError(f"T1 must have the same shape as T0 {arr0.shape}, got {arr1.shape}")
        R1, _ = _rotations(arr1, "T1")
        p1 = arr1[:3, 3] if hom else np.zeros(3)
    R = q2r(qslerp(r2q(R0), r2q(R1), ss, shortest=shortest))
    if not hom:
        return R
    return _to_hom(R, (1.0 - ss)[..., None] * p0 + ss[..., None] * p1)
