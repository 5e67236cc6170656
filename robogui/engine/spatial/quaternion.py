"""Unit quaternions, scalar first ``[s, vx, vy, vz]``, after the r6 manual's quaternion pages.

Two layers:

* array helpers (``r2q``, ``q2r``, ``qmul``, ``qconj``, ``qslerp``) working on stacks of
  quaternions stored as float arrays of shape (..., 4); the transforms module and
  trajectory code use these so that nothing loops over samples;
* ``UnitQuaternion``, a small immutable value object holding one rotation, with the r6
  operators (``*``, ``/``, ``inv``, ``**``, ``norm``, ``unit``, ``R``, ``T``) and its
  printing ``s <vx, vy, vz>``.

A rotation's quaternion is made canonical with ``s >= 0`` (and, when ``s == 0``, the first
non-zero vector component positive). Quaternions given by components, and products, keep
the sign they have: ``q`` and ``-q`` are the same rotation and compare equal.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..checks import angle_scale, as_float_array, as_transform, check_rotation

__all__ = ["UnitQuaternion", "r2q", "q2r", "qmul", "qconj", "qslerp", "qcanonical"]

# components smaller than this are printed as 0 (display only, values are untouched)
_PRINT_ZERO = 1e-12


@functools.cache  # built on first use: nothing is computed at import
def _shepperd_tables() -> tuple[np.ndarray, np.ndarray]:
    """Row k of the candidates is 4 q_k q (up to sign) as a linear function of R plus 1:

    k=0: [1+r00+r11+r22, r21-r12, r02-r20, r10-r01]; k=1: [r21-r12, 1+r00-r11-r22, r01+r10,
    r02+r20]; k=2: [r02-r20, r01+r10, 1-r00+r11-r22, r12+r21]; k=3: [r10-r01, r02+r20,
    r12+r21, 1-r00-r11+r22].  Stored as coefficients on the flattened R (index 3 i + j).
    """
    C = np.zeros((9, 4, 4))
    signs_diag = [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)]
    for k, sd in enumerate(signs_diag):
        for i, sgn in enumerate(sd):
            C[4 * i, k, k] = sgn  # r_ii sits at flat index 4 i
    # off-diagonal pairs: (row k, column c) gets r_ab +- r_ba
    for (k, c), (a, b), sgn in [
        ((0, 1), (2, 1), -1), ((0, 2), (0, 2), -1), ((0, 3), (1, 0), -1),
        ((1, 2), (0, 1), 1), ((1, 3), (0, 2), 1), ((2, 3), (1, 2), 1),
    ]:  # fmt: skip
        for kk, cc in ((k, c), (c, k)):
            C[3 * a + b, kk, cc] = 1.0
            C[3 * b + a, kk, cc] = float(sgn)
    return C, np.eye(4)


def qcanonical(q: np.ndarray) -> np.ndarray:
    """Choose the sign of each quaternion in a stack (..., 4) so that s >= 0.

    Ties (s == 0, a rotation by pi) are broken by making the first non-zero vector
    component positive, so equal rotations give equal arrays.
    """
    q = np.array(q, dtype=np.float64)
    # first component that is not (numerically) zero decides the sign
    nz = np.abs(q) > 1e-15
    first = np.argmax(nz, axis=-1)
    lead = np.take_along_axis(q, first[..., None], axis=-1)[..., 0]
    q = np.where((lead < 0)[..., None], -q, q)
    # a negligible s of either sign counts as 0: report it as non-negative
    q[..., 0] = np.where(nz[..., 0], q[..., 0], np.abs(q[..., 0]))
    return q


def r2q(R: np.ndarray) -> np.ndarray:
    """Rotation matrices (..., 3, 3) -> canonical unit quaternions (..., 4), scalar first.

    Shepperd's method, vectorised: of the four equivalent formulas the one built on the
    largest of (trace, R00, R11, R22) is used, so it stays accurate near a rotation by pi.
    (scipy's Rotation.from_matrix gives the same numbers but costs ~60 us a call, too much
    for per-frame GUI use.) ``R`` is taken as checked.
    """
    R = np.asarray(R, dtype=np.float64)
    coef, const = _shepperd_tables()
    cand = np.einsum("...i,ikj->...kj", R.reshape(R.shape[:-2] + (9,)), coef) + const
    diag = np.einsum("...ii->...i", R)
    k = np.argmax(np.concatenate([diag.sum(-1, keepdims=True), diag], axis=-1), axis=-1)
    q = np.take_along_axis(cand, k[..., None, None], axis=-2)[..., 0, :]
    return qcanonical(q / np.linalg.norm(q, axis=-1, keepdims=True))


def q2r(q: np.ndarray) -> np.ndarray:
    """Unit quaternions (..., 4) -> rotation matrices (..., 3, 3). ``q`` is taken as unit."""
    q = np.asarray(q, dtype=np.float64)
    s, x, y, z = np.moveaxis(q, -1, 0)
    R = np.empty(q.shape[:-1] + (3, 3))
    R[..., 0, 0] = 1 - 2 * (y * y + z * z)
    R[..., 0, 1] = 2 * (x * y - s * z)
    R[..., 0, 2] = 2 * (x * z + s * y)
    R[..., 1, 0] = 2 * (x * y + s * z)
    R[..., 1, 1] = 1 - 2 * (x * x + z * z)
    R[..., 1, 2] = 2 * (y * z - s * x)
    R[..., 2, 0] = 2 * (x * z - s * y)
    R[..., 2, 1] = 2 * (y * z + s * x)
    R[..., 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of quaternion stacks (..., 4) x (..., 4), broadcasting."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    s1, v1 = a[..., 0], a[..., 1:]
    s2, v2 = b[..., 0], b[..., 1:]
    s = s1 * s2 - np.sum(v1 * v2, axis=-1)
    v = s1[..., None] * v2 + s2[..., None] * v1 + np.cross(v1, v2)
    return np.concatenate([s[..., None], v], axis=-1)


def qconj(q: np.ndarray) -> np.ndarray:
    """Conjugate (the inverse of a unit quaternion), (..., 4) -> (..., 4)."""
    q = np.asarray(q, dtype=np.float64)
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def qslerp(q0: np.ndarray, q1: np.ndarray, s, shortest: bool = False) -> np.ndarray:
    """Spherical linear interpolation between unit quaternions q0, q1 (4,).

    ``s`` scalar -> (4,); ``s`` of shape (k,) -> (k, 4), vectorised. ``s = 0`` gives q0 and
    ``s = 1`` gives q1. With ``shortest`` the sign of q1 is flipped when ``q0 . q1 < 0`` so the
    rotation takes the shorter way (r6 ``qinterp`` does not flip; ``trinterp`` does).
    """
    q0 = np.asarray(q0, dtype=np.float64)
    q1 = np.asarray(q1, dtype=np.float64)
    s = np.asarray(s, dtype=np.float64)
    if shortest and np.dot(q0, q1) < 0:
        q1 = -q1
    # angle between the 4-vectors, accurate for tiny and near-pi angles alike
    theta = 2.0 * math.atan2(np.linalg.norm(q0 - q1), np.linalg.norm(q0 + q1))
    sin_t = math.sin(theta)
    ss = s[..., None]
    if sin_t < 1e-12:
        if theta > 1.0:
            # q1 = -q0: the same rotation, so every point on the way is that rotation
            return np.broadcast_to(q0, ss.shape[:-1] + (4,)).copy()
        # nearly equal: linear interpolation is exact to rounding
        q = (1.0 - ss) * q0 + ss * q1
    else:
        q = (np.sin((1.0 - ss) * theta) * q0 + np.sin(ss * theta) * q1) / sin_t
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def _format_number(x: float) -> str:
    x = 0.0 if abs(x) < _PRINT_ZERO else float(x)
    return f"{x + 0.0:.5g}"  # "+ 0.0" prints -0.0 as 0


class QuaternionParts:
    """The components of a quaternion held as ``_q`` = ``[s, vx, vy, vz]`` (4,), shared by
    :class:`UnitQuaternion` and :class:`~robogui.engine.spatial.quaternion_algebra.Quaternion`."""

    __slots__ = ("_q",)

    @property
    def s(self) -> float:
        """Scalar part."""
        return float(self._q[0])

    @property
    def v(self) -> np.ndarray:
        """Vector part (3,)."""
        return self._q[1:].copy()

    @property
    def vec(self) -> np.ndarray:
        """The four components ``[s, vx, vy, vz]`` (r6 ``double(q)``, ``q.d``)."""
        return self._q.copy()

    def __array__(self, dtype=None, copy=None):
        return np.array(self._q, dtype=dtype)


class UnitQuaternion(QuaternionParts):
    """A rotation as a unit quaternion ``s <vx, vy, vz>`` (r6 ``quaternion``).

    Construct with:

    * ``UnitQuaternion()`` - the identity ``1 <0, 0, 0>``;
    * ``UnitQuaternion(R)`` with R (3, 3), or ``UnitQuaternion(T)`` with T (4, 4) (its
      rotation part); the result is canonical (s >= 0);
    * ``UnitQuaternion([s, vx, vy, vz])`` - components, normalised to unit length;
    * ``UnitQuaternion(q)`` - a copy of another UnitQuaternion;
    * ``UnitQuaternion.AngVec(theta, v, unit="rad")`` - rotation by theta about axis v.

    Operators: ``q1 * q2`` composition (same as ``R1 @ R2``); ``q * v`` rotates a vector
    v (3,) or a stack (k, 3); ``q1 / q2 = q1 * q2.inv()``; ``q ** j`` integer power;
    ``q1 == q2`` is true when they are the same rotation (q and -q included).

    >>> from robogui.engine.spatial.transforms import rotx, roty
    >>> q1, q2 = UnitQuaternion(rotx(0.2)), UnitQuaternion(roty(0.3))
    >>> print(q1 * q2)  # r6 manual, quaternion page
    0.98383 <0.098712, 0.14869, 0.014919>
    >>> print(UnitQuaternion(rotx(0.3)).interp(UnitQuaternion(roty(-0.5)), 0.3))
    0.99159 <0.10536, -0.075182, 0>
    """

    __slots__ = ()
    __hash__ = None  # equality has a tolerance, so no hash
    __array_ufunc__ = None  # numpy defers to our operators instead of broadcasting

    def __init__(self, value=None):
        if value is None:
            q = np.array([1.0, 0.0, 0.0, 0.0])
        elif isinstance(value, UnitQuaternion):
            q = value._q.copy()
        else:
            arr = as_float_array(value, "value")
            if arr.shape == (4,):
                if not np.all(np.isfinite(arr)):
                    raise ValueError("quaternion components must be finite")
                n = np.linalg.norm(arr)
                if n < 1e-12:
                    raise ValueError("quaternion components [s, vx, vy, vz] must not be all zero")
                q = arr / n
            elif arr.shape == (4, 4):
                q = r2q(as_transform(arr, "T", stack=False)[:3, :3])
            elif arr.shape == (3, 3):
                if not np.all(np.isfinite(arr)):
                    raise ValueError("R contains a non-finite value (NaN or inf)")
                check_rotation(arr, "R")
                q = r2q(arr)
            else:
                raise ValueError(
                    "UnitQuaternion expects components (4,), a rotation (3, 3) or a "
                    f"transform (4, 4), got shape {arr.shape}"
                )
        q.setflags(write=False)
        self._q = q

    @classmethod
    def _raw(cls, q: np.ndarray) -> UnitQuaternion:
        """Wrap an already unit 4-array without checks (internal)."""
        obj = cls.__new__(cls)
        q = np.array(q, dtype=np.float64)
        q.setflags(write=False)
        obj._q = q
        return obj

    @classmethod
    def AngVec(cls, theta: float, v, unit: str = "rad") -> UnitQuaternion:
        """Rotation by angle ``theta`` about the axis ``v`` (3,) (any length > 0).

        ``s = cos(theta/2)``, ``v = sin(theta/2) v/|v|`` (r6 ``quaternion(theta, v)``).
        """
        th = as_float_array(theta, "theta")
        if th.shape != () or not np.isfinite(th):
            raise ValueError(f"theta must be a finite scalar, got {theta!r}")
        th = float(th) * angle_scale(unit)
        axis = as_float_array(v, "v")
        if axis.shape != (3,) or not np.all(np.isfinite(axis)):
            raise ValueError(f"v must be a finite vector of shape (3,), got {v!r}")
        n = np.linalg.norm(axis)
        if n < 1e-12:
            if th == 0.0:
                return cls()
            raise ValueError("v must be a non-zero axis vector")
        return cls._raw(np.r_[math.cos(th / 2), math.sin(th / 2) * axis / n])

    # -- components and matrices ------------------------------------------------------
    @property
    def R(self) -> np.ndarray:
        """The equivalent rotation matrix (3, 3) (r6 ``q.r``)."""
        return q2r(self._q)

    @property
    def T(self) -> np.ndarray:
        """The equivalent homogeneous transform (4, 4), zero translation (r6 ``q.t``, ``q2tr``)."""
        T = np.eye(4)
        T[:3, :3] = q2r(self._q)
        return T

    def angvec(self, unit: str = "rad") -> tuple[float, np.ndarray]:
        """Angle in [0, pi] and unit axis (3,); the identity gives ``(0, [0, 0, 0])``."""

        scale = angle_scale(unit)
        q = qcanonical(self._q)
        n = np.linalg.norm(q[1:])
        theta = 2.0 * math.atan2(n, q[0])
        axis = q[1:] / n if n > 1e-15 else np.zeros(3)
        return theta / scale, axis

    # -- algebra ----------------------------------------------------------------------
    def inv(self) -> UnitQuaternion:
        """The inverse rotation (the conjugate)."""
        return UnitQuaternion._raw(qconj(self._q))

    def norm(self) -> float:
        """Magnitude of the quaternion (1 up to rounding)."""
        return float(np.linalg.norm(self._q))

    def unit(self) -> UnitQuaternion:
        """A re-normalised copy (removes drift after many products)."""
        return UnitQuaternion._raw(self._q / np.linalg.norm(self._q))

    def __mul__(self, other):
        if isinstance(other, UnitQuaternion):
            return UnitQuaternion._raw(qmul(self._q, other._q))
        if isinstance(other, (int, float)):
            return NotImplemented  # a scaled quaternion is not a rotation
        vec = as_float_array(other, "vector")
        if vec.shape == (3,) or (vec.ndim == 2 and vec.shape[1] == 3):
            if not np.all(np.isfinite(vec)):
                raise ValueError("vector contains a non-finite value (NaN or inf)")
            return vec @ q2r(self._q).T
        raise ValueError(f"a quaternion rotates vectors of shape (3,) or (k, 3), got {vec.shape}")

    def __truediv__(self, other):
        if not isinstance(other, UnitQuaternion):
            return NotImplemented
        return UnitQuaternion._raw(qmul(self._q, qconj(other._q)))

    def __pow__(self, j):
        jj = as_float_array(j, "exponent")
        if jj.shape != () or not np.isfinite(jj) or float(jj) != round(float(jj)):
            raise ValueError(f"quaternion power needs an integer exponent, got {j!r}")
        j = int(round(float(jj)))
        # r6: repeated multiplication, inverted for negative exponents; done by squaring
        # (O(log |j|) products, so a large exponent cannot stall the caller)
        result = np.array([1.0, 0.0, 0.0, 0.0])
        base, k = self._q, abs(j)
        while k:
            if k & 1:
                result = qmul(result, base)
            base = qmul(base, base)
            k >>= 1
        if j < 0:
            result = qconj(result)
        return UnitQuaternion._raw(result)

    def interp(self, other: UnitQuaternion, s, shortest: bool = False):
        """Slerp from self (s = 0) to ``other`` (s = 1) (r6 ``qinterp``).

        ``s`` scalar -> UnitQuaternion; ``s`` of shape (k,) -> list of k UnitQuaternions
        (computed vectorised). ``s`` must lie in [0, 1]. ``shortest=False`` follows r6 and
        spatialmath (interpolate the given 4-vectors); True takes the shorter rotation.
        """
        if not isinstance(other, UnitQuaternion):
            raise ValueError("other must be a UnitQuaternion")
        ss = as_float_array(s, "s")
        if ss.ndim > 1 or not np.all(np.isfinite(ss)):
            raise ValueError(f"s must be a finite scalar or shape (k,), got shape {ss.shape}")
        if np.any((ss < 0) | (ss > 1)):
            raise ValueError("s must lie in [0, 1]")
        q = qslerp(self._q, other._q, ss, shortest=shortest)
        if ss.ndim == 0:
            return UnitQuaternion._raw(q)
        return [UnitQuaternion._raw(row) for row in q]

    slerp = interp

    def __eq__(self, other) -> bool:
        if not isinstance(other, UnitQuaternion):
            return NotImplemented
        # q and -q are the same rotation
        d = min(np.linalg.norm(self._q - other._q), np.linalg.norm(self._q + other._q))
        return bool(d < 1e-9)

    def __str__(self) -> str:
        s, x, y, z = (_format_number(c) for c in self._q)
        return f"{s} <{x}, {y}, {z}>"

    def __repr__(self) -> str:
        return f"UnitQuaternion({self})"
