"""Quaternion algebra for any quaternion, unit or not (spatialmath.base names).

A quaternion is an array ``[s, vx, vy, vz]`` (4,), or a stack (k, 4); every function is
batched over k. :mod:`robogui.engine.spatial.quaternion` covers rotations (unit quaternions);
these are the general operations spatialmath has: ``qpure``, ``qnorm``, ``qunit``,
``qmatrix``, ``qqmul``, ``qinv``, ``qpow``, ``q2str``, and a small :class:`Quaternion`
value class with operators (r6's ``quaternion([s vx vy vz])`` kept its components as given).
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from .quaternion import QuaternionParts, qconj, qmul

__all__ = ["qpure", "qnorm", "qunit", "qmatrix", "qqmul", "qinv", "qpow", "q2str",
           "Quaternion"]


def _quats(q, name: str = "q") -> np.ndarray:
    arr = as_float_array(q, name)
    if arr.ndim not in (1, 2) or arr.shape[-1] != 4:
        raise ValueError(f"{name} must have shape (4,) or (k, 4) ([s, vx, vy, vz]), "
                         f"got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains a non-finite value (NaN or inf)")
    return arr


def qpure(v) -> np.ndarray:
    """The pure quaternion ``[0, v]`` of a vector v (3,) -> (4,), or (k, 3) -> (k, 4)."""
    arr = as_float_array(v, "v")
    if arr.ndim not in (1, 2) or arr.shape[-1] != 3 or not np.all(np.isfinite(arr)):
        raise ValueError(f"v must be finite with shape (3,) or (k, 3), got shape {arr.shape}")
    return np.concatenate([np.zeros(arr.shape[:-1] + (1,)), arr], axis=-1)


def qnorm(q):
    """Magnitude ``sqrt(s^2 + vx^2 + vy^2 + vz^2)``: float for (4,), (k,) for (k, 4)."""
    n = np.linalg.norm(_quats(q), axis=-1)
    return float(n) if n.ndim == 0 else n


def qunit(q) -> np.ndarray:
    """``q / qnorm(q)``; a zero quaternion raises ValueError."""
    arr = _quats(q)
    n = np.linalg.norm(arr, axis=-1, keepdims=True)
    if np.any(n < 1e-300):
        raise ValueError("a zero quaternion has no direction (cannot be made unit)")
    return arr / n


def qmatrix(q) -> np.ndarray:
    """The 4x4 matrix of left multiplication: ``qmatrix(a) @ b == qqmul(a, b)``.

    (4,) -> (4, 4); (k, 4) -> (k, 4, 4).
    """
    s, x, y, z = np.moveaxis(_quats(q), -1, 0)
    rows = [[s, -x, -y, -z], [x, s, -z, y], [y, z, s, -x], [z, -y, x, s]]
    return np.moveaxis(np.array(rows), (0, 1), (-2, -1))


def qqmul(a, b) -> np.ndarray:
    """Hamilton product of two quaternions (broadcast over stacks)."""
    return qmul(_quats(a, "a"), _quats(b, "b"))


def qinv(q) -> np.ndarray:
    """The inverse ``conj(q) / |q|^2`` (``qqmul(q, qinv(q)) = [1, 0, 0, 0]``)."""
    arr = _quats(q)
    n2 = np.sum(arr * arr, axis=-1, keepdims=True)
    if np.any(n2 < 1e-300):
        raise ValueError("a zero quaternion has no inverse")
    return qconj(arr) / n2


def qpow(q, power: int) -> np.ndarray:
    """``q`` to an integer power by repeated multiplication (spatialmath ``qpow``).

    As spatialmath (and r6's ``q^j``), a negative power gives the *conjugate* of
    ``q^|power|``; that is the inverse only for unit quaternions (use :func:`qinv` for a
    general inverse). A non-integer power raises ValueError.
    """
    if isinstance(power, bool) or not isinstance(power, (int, np.integer)):
        raise ValueError(f"power must be an integer, got {power!r}")
    arr = _quats(q)
    result = np.broadcast_to(np.array([1.0, 0.0, 0.0, 0.0]), arr.shape).copy()
    base, k = arr, abs(int(power))
    while k:  # by squaring: O(log |power|) products
        if k & 1:
            result = qmul(result, base)
        base = qmul(base, base)
        k >>= 1
    return qconj(result) if power < 0 else result


def q2str(q, delim: tuple[str, str] = ("<", ">"), fmt: str = "{: .4f}") -> str:
    """One-line text ``s < vx, vy, vz >`` (spatialmath ``q2str``; one line per row of a stack).

    >>> q2str([1, 2, 3, 4])
    ' 1.0000 <  2.0000,  3.0000,  4.0000 >'
    """
    arr = _quats(q)
    template = "# {} #, #, # {}".replace("#", fmt)
    rows = arr.reshape(-1, 4)
    return "\n".join(template.format(r[0], delim[0], r[1], r[2], r[3], delim[1]) for r in rows)


class Quaternion(QuaternionParts):
    """A general quaternion value ``s <vx, vy, vz>`` with operators (not necessarily unit).

    ``a * b`` Hamilton product (or scaling by a number), ``a + b``, ``a - b``, ``a / b``
    (``a * b.inv()``), ``a ** j`` (:func:`qpow`), ``q.conj()``, ``q.inv()``, ``q.norm()``,
    ``q.unit()`` (a :class:`UnitQuaternion`), ``q.matrix()`` (:func:`qmatrix`).
    """

    __slots__ = ()
    __hash__ = None
    __array_ufunc__ = None

    def __init__(self, s=None, v=None):
        if isinstance(s, Quaternion):
            q = s._q.copy()
        elif s is None:
            q = np.zeros(4)
        elif v is not None:
            q = np.r_[float(s), _quats(np.r_[0.0, as_float_array(v, "v")])[1:]]
        else:
            q = _quats(getattr(s, "vec", s), "q").copy()
            if q.shape != (4,):
                raise ValueError(f"q must have shape (4,), got {q.shape}")
        q.setflags(write=False)
        self._q = q

    @classmethod
    def Pure(cls, v) -> Quaternion:
        return cls(qpure(v))

    def conj(self) -> Quaternion:
        return Quaternion(qconj(self._q))

    def inv(self) -> Quaternion:
        return Quaternion(qinv(self._q))

    def norm(self) -> float:
        return qnorm(self._q)

    def unit(self):
        from .quaternion import UnitQuaternion

        return UnitQuaternion(qunit(self._q))

    def matrix(self) -> np.ndarray:
        return qmatrix(self._q)

    def _other(self, other):
        if isinstance(other, Quaternion):
            return other._q
        if hasattr(other, "vec"):  # a UnitQuaternion
            return np.asarray(other.vec, dtype=float)
        return None

    def __mul__(self, other):
        o = self._other(other)
        if o is not None:
            return Quaternion(qmul(self._q, o))
        if isinstance(other, (int, float, np.floating, np.integer)):
            return Quaternion(self._q * float(other))
        return NotImplemented

    def __rmul__(self, other):
        if isinstance(other, (int, float, np.floating, np.integer)):
            return Quaternion(self._q * float(other))
        return NotImplemented

    def __truediv__(self, other):
        o = self._other(other)
        if o is not None:
            return Quaternion(qmul(self._q, qinv(o)))
        if isinstance(other, (int, float, np.floating, np.integer)):
            return Quaternion(self._q / float(other))
        return NotImplemented

    def __add__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else Quaternion(self._q + o)

    def __sub__(self, other):
        o = self._other(other)
        return NotImplemented if o is None else Quaternion(self._q - o)

    def __neg__(self):
        return Quaternion(-self._q)

    def __pow__(self, j):
        return Quaternion(qpow(self._q, j))

    def __eq__(self, other) -> bool:
        o = self._other(other)
        return NotImplemented if o is None else bool(np.allclose(self._q, o, atol=1e-12))

    def __str__(self) -> str:
        from .quaternion import _format_number

        s, x, y, z = (_format_number(c) for c in self._q)
        return f"{s} <{x}, {y}, {z}>"

    def __repr__(self) -> str:
        return f"Quaternion({self})"
