"""One link of a serial manipulator: its joint geometry, limits and dynamics.

The joint geometry is either D-H parameters (standard or modified) or, for a general
joint (a URDF joint), a constant ``origin`` transform, a unit ``axis`` for the motion and
a constant ``post`` transform after it.

A ``Link`` is immutable. Use :meth:`Link.replace` to get a changed copy.
Angles are in radians, lengths in metres, SI units throughout.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from ..checks import as_float_array
from ..checks import as_scalar as _scalar

__all__ = ["Link", "inertia_matrix", "inertia_vector"]


def inertia_matrix(I) -> np.ndarray:
    """A 3x3 symmetric inertia matrix from a 3x3 matrix or ``[Ixx Iyy Izz Ixy Iyz Ixz]``."""
    arr = as_float_array(I, "I")
    if arr.shape == (3, 3):
        return arr.copy()
    if arr.shape == (6,):
        xx, yy, zz, xy, yz, xz = arr
        return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    if arr.shape == (3,):
        return np.diag(arr)
    raise ValueError(
        f"I must be a 3x3 matrix or 6 values [Ixx Iyy Izz Ixy Iyz Ixz], got shape {arr.shape}"
    )


def inertia_vector(I: np.ndarray) -> list[float]:
    """The six values ``[Ixx Iyy Izz Ixy Iyz Ixz]`` of a 3x3 inertia matrix."""
    return [float(I[0, 0]), float(I[1, 1]), float(I[2, 2]),
            float(I[0, 1]), float(I[1, 2]), float(I[0, 2])]


@dataclass(frozen=True, eq=False)
class Link:
    """A link described by Denavit-Hartenberg parameters.

    ``joint`` is ``"R"`` (revolute: ``theta = q + offset``) or ``"P"`` (prismatic:
    ``d = q + offset``); the parameter the joint variable replaces is ignored.
    ``mdh`` selects modified (Craig) D-H, where ``a`` and ``alpha`` are a_{i-1}, alpha_{i-1}.

    Dynamics: mass ``m`` (kg), centre of mass ``r`` in the link frame (m), inertia ``I``
    about the centre of mass (3x3 or ``[Ixx Iyy Izz Ixy Iyz Ixz]``, kg m^2), motor
    armature inertia ``Jm`` (motor side), gear ratio ``G``, viscous friction ``B`` and
    Coulomb friction ``Tc`` (scalar, or ``(tau_plus, tau_minus)``), both motor referred.
    ``tau_max`` is an optional joint torque (or force) limit, used by the plots;
    ``qd_max`` an optional joint speed limit (rad/s or m/s) and ``qdd_max`` an optional
    joint acceleration limit (rad/s^2 or m/s^2), used by program timing (defaults in
    :mod:`robogui.engine.trajectory_processing.limits` when a robot gives none).
    ``flip=True`` reverses the joint's axis (roboticstoolbox ``Link(flip=True)``): the
    motion is ``theta = -q + offset`` (revolute) or ``d = -q + offset`` (prismatic).

    Every input form of roboticstoolbox-python's links is accepted: ``Tc`` a scalar (the
    symmetric ``(Tc, -Tc)``), a one- or two-element sequence; ``I`` three diagonal values,
    the six ``[Ixx Iyy Izz Ixy Iyz Ixz]`` or a 3x3 matrix. r6 legacy rows: see
    :meth:`from_row`, :attr:`dh`, :attr:`dyn`.

    General joint (``origin`` given, D-H parameters all zero): the link transform is
    ``origin @ Rot(axis, q + offset) @ post`` (revolute) or ``origin @ Trans(axis *
    (q + offset)) @ post`` (prismatic); ``origin`` and ``post`` are 4x4 homogeneous
    transforms (``post`` default identity), ``axis`` a unit 3-vector (default z).
    Dynamic parameters are in the link frame, the frame after ``post``.

    >>> Link(a=1.0).A(0.5)[:2, 3].round(4)
    array([0.8776, 0.4794])
    """

    joint: str = "R"
    theta: float = 0.0
    d: float = 0.0
    a: float = 0.0
    alpha: float = 0.0
    mdh: bool = False
    offset: float = 0.0
    qlim: tuple[float, float] | None = None
    m: float = 0.0
    r: np.ndarray = field(default_factory=lambda: np.zeros(3))
    I: np.ndarray = field(default_factory=lambda: np.zeros((3, 3)))  # noqa: E741
    Jm: float = 0.0
    G: float = 1.0
    B: float = 0.0
    Tc: tuple[float, float] = (0.0, 0.0)
    name: str = ""
    tau_max: float | None = None
    flip: bool = False
    origin: np.ndarray | None = None
    axis: np.ndarray | None = None
    post: np.ndarray | None = None
    qd_max: float | None = None
    qdd_max: float | None = None

    def __post_init__(self):
        s = lambda attr, v: object.__setattr__(self, attr, v)  # frozen: set once here
        joint = str(self.joint).upper() if isinstance(self.joint, str) else self.joint
        if joint not in ("R", "P"):
            raise ValueError(f"joint must be 'R' (revolute) or 'P' (prismatic), got {self.joint!r}")
        s("joint", joint)
        for attr in ("theta", "d", "a", "alpha", "offset", "B"):
            s(attr, _scalar(getattr(self, attr), attr))
        s("m", _scalar(self.m, "m (mass)", nonneg=True))
        s("Jm", _scalar(self.Jm, "Jm (motor inertia)", nonneg=True))
        s("G", _scalar(self.G, "G (gear ratio)"))
        if not isinstance(self.mdh, (bool, np.bool_)) and self.mdh not in (0, 1):
            raise ValueError(f"mdh must be True (modified D-H) or False (standard), "
                             f"got {self.mdh!r}")
        s("mdh", bool(self.mdh))
        if not isinstance(self.flip, (bool, np.bool_)) and self.flip not in (0, 1):
            raise ValueError(f"flip must be True (reversed joint axis) or False, "
                             f"got {self.flip!r}")
        s("flip", bool(self.flip))
        if self.B < 0:
            raise ValueError(f"B (viscous friction) must not be negative, got {self.B}")

        r = as_float_array(self.r, "r (centre of mass)")
        if r.shape != (3,) or not np.all(np.isfinite(r)):
            raise ValueError(f"r (centre of mass) must be 3 finite values, got {self.r!r}")
        s("r", r.copy())
        I = inertia_matrix(np.zeros((3, 3)) if self.I is None else self.I)  # None: no inertia
        if not np.all(np.isfinite(I)):
            raise ValueError("I (inertia) contains a non-finite value")
        if not np.allclose(I, I.T, atol=1e-12):
            raise ValueError("I (inertia) must be symmetric")
        eig = np.linalg.eigvalsh(I)
        if eig.min() < -1e-9 * max(1.0, abs(eig).max()):
            raise ValueError(
                f"I (inertia) must be positive semi-definite, eigenvalues are {eig.round(6)}"
            )
        s("I", I)
        r.setflags(write=False)
        I.setflags(write=False)

        tc = as_float_array(self.Tc, "Tc (Coulomb friction)")
        if tc.ndim == 0 or tc.shape == (1,):
            tc = np.array([abs(float(tc.ravel()[0])), -abs(float(tc.ravel()[0]))])
        if tc.shape != (2,) or not np.all(np.isfinite(tc)):
            raise ValueError(f"Tc must be a scalar or (tau_plus, tau_minus), got {self.Tc!r}")
        s("Tc", (float(tc[0]), float(tc[1])))

        if self.qlim is not None:
            ql = as_float_array(self.qlim, "qlim")
            if ql.shape != (2,) or not np.all(np.isfinite(ql)):
                raise ValueError(f"qlim must be (lower, upper), got {self.qlim!r}")
            if ql[0] > ql[1]:
                raise ValueError(f"qlim lower limit {ql[0]} is above upper limit {ql[1]}")
            s("qlim", (float(ql[0]), float(ql[1])))
        if self.tau_max is not None:
            s("tau_max", _scalar(self.tau_max, "tau_max", nonneg=True))
        s("name", str(self.name))
        if self.qd_max is not None:
            s("qd_max", _scalar(self.qd_max, "qd_max", nonneg=True))
        if self.qdd_max is not None:
            s("qdd_max", _scalar(self.qdd_max, "qdd_max", nonneg=True))
        self._check_general(s)

    def _check_general(self, s) -> None:
        if self.origin is None:
            if self.axis is not None or self.post is not None:
                raise ValueError("axis and post describe a general joint: give origin too")
            return
        from ..checks import as_transform

        if self.mdh or any((self.theta, self.d, self.a, self.alpha)):
            raise ValueError("a general joint (origin given) has no D-H parameters: "
                             "theta, d, a, alpha must be 0 and mdh False")
        origin = np.array(as_transform(self.origin, "origin", stack=False), dtype=float)
        post = np.array(as_transform(np.eye(4) if self.post is None else self.post, "post",
                                     stack=False), dtype=float)
        axis = as_float_array((0.0, 0.0, 1.0) if self.axis is None else self.axis, "axis")
        if axis.shape != (3,) or not np.all(np.isfinite(axis)):
            raise ValueError(f"axis must be 3 finite values, got {self.axis!r}")
        norm = float(np.linalg.norm(axis))
        if norm < 1e-9:
            raise ValueError(f"axis must not be zero, got {axis.tolist()}")
        axis = axis / norm
        for name, arr in (("origin", origin), ("axis", axis), ("post", post)):
            arr.setflags(write=False)
            s(name, arr)

    # -- convenience -------------------------------------------------------------
    @property
    def isrevolute(self) -> bool:
        return self.joint == "R"

    @property
    def isprismatic(self) -> bool:
        return self.joint == "P"

    @property
    def sigma(self) -> int:
        """r6 joint type flag: 0 revolute, 1 prismatic."""
        return 0 if self.joint == "R" else 1

    @property
    def dh(self) -> np.ndarray:
        """r6 ``link.dh``: the legacy row ``[alpha A theta D sigma]`` (5,)."""
        return np.array([self.alpha, self.a, self.theta, self.d, float(self.sigma)])

    @property
    def dyn(self) -> np.ndarray:
        """r6 ``link.dyn``: the legacy 20-value ``dyn`` row (20,)."""
        I = self.I  # noqa: E741
        return np.concatenate([
            self.dh, [self.m], self.r,
            [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[1, 2], I[0, 2]],
            [self.Jm, self.G, self.B, self.Tc[0], self.Tc[1]],
        ])

    @classmethod
    def from_row(cls, row, mdh: bool = False, **extra) -> Link:
        """r6 ``link(row)``: from ``[alpha A theta D]`` (revolute), ``[alpha A theta D
        sigma]`` (sigma 0 revolute, non-zero prismatic) or a 20-value ``dyn`` row (``...
        m rx ry rz Ixx Iyy Izz Ixy Iyz Ixz Jm G B Tc+ Tc-``). Note the column order: alpha
        first, then A (a), theta, D (d). ``extra`` keyword arguments (``offset``, ``qlim``,
        ``name``, ``flip`` ...) are passed to Link."""
        r = _legacy_row(row, "row", (4, 5, 20))
        alpha, a, theta, d = (float(x) for x in r[:4])
        sigma = float(r[4]) if len(r) > 4 else 0.0
        kw = dict(joint="P" if sigma != 0 else "R", alpha=alpha, a=a, theta=theta, d=d, mdh=mdh)
        if len(r) == 20:
            kw.update(m=r[5], r=r[6:9], I=r[9:15], Jm=r[15], G=r[16], B=r[17],
                      Tc=(float(r[18]), float(r[19])))
        kw.update(extra)
        return cls(**kw)

    @property
    def is_general(self) -> bool:
        """True for a general joint (origin, axis, post), False for a D-H link."""
        return self.origin is not None

    @property
    def length(self) -> float:
        """A length scale of the link (m): |a| + |d| for D-H, the translations otherwise."""
        if self.is_general:
            return float(np.linalg.norm(self.origin[:3, 3]) + np.linalg.norm(self.post[:3, 3]))
        return abs(self.a) + abs(self.d)

    @property
    def has_dynamics(self) -> bool:
        return self.m > 0 or bool(np.any(self.I)) or self.Jm > 0

    def replace(self, **changes) -> Link:
        """A copy with some fields changed (the original stays as it is)."""
        return dataclasses.replace(self, **changes)

    def nofriction(self, coulomb: bool = True, viscous: bool = False) -> Link:
        """A copy without Coulomb friction (and without viscous friction if asked), as r6."""
        changes = {}
        if coulomb:
            changes["Tc"] = (0.0, 0.0)
        if viscous:
            changes["B"] = 0.0
        return self.replace(**changes)

    def A(self, q, *, name: str = "q") -> np.ndarray:
        """Link transform for joint value ``q`` (scalar -> 4x4, (m,) -> (m, 4, 4)).

        ``name`` is the argument name used in error messages.
        """
        from .joint_model import link_matrices

        want = "a scalar or shape (m,)"
        try:
            qa = as_float_array(q, name)
        except ValueError as exc:
            raise ValueError(f"{exc}; expected {want}") from None
        if qa.ndim > 1:
            raise ValueError(f"{name} must be {want}, got shape {qa.shape}")
        single = qa.ndim == 0
        if not np.all(np.isfinite(qa)):
            raise ValueError(f"{name} contains a non-finite value (NaN or inf); "
                             f"expected {want}")
        T = link_matrices([self], qa.reshape(-1, 1))[:, 0]
        return T[0] if single else T

    def _key(self) -> tuple:
        return (self.joint, self.theta, self.d, self.a, self.alpha, self.mdh, self.offset,
                self.qlim, self.m, tuple(self.r), tuple(self.I.ravel()), self.Jm, self.G,
                self.B, self.Tc, self.name, self.tau_max, self.flip, self.qd_max, self.qdd_max,
                *((None,) if self.origin is None else (
                    tuple(self.origin.ravel()), tuple(self.axis), tuple(self.post.ravel()))))

    def __eq__(self, other) -> bool:
        return isinstance(other, Link) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        if self.is_general:
            xyz = ", ".join(f"{v:g}" for v in self.origin[:3, 3])
            ax = ", ".join(f"{v:g}" for v in self.axis)
            return f"Link(joint={self.joint!r}, origin xyz=[{xyz}], axis=[{ax}])"
        kin = f"theta={self.theta:g}, d={self.d:g}, a={self.a:g}, alpha={self.alpha:g}"
        extra = ", mdh=True" if self.mdh else ""
        if self.offset:
            extra += f", offset={self.offset:g}"
        if self.flip:
            extra += ", flip=True"
        return f"Link(joint={self.joint!r}, {kin}{extra})"


def _legacy_row(row, what: str, widths: tuple[int, ...]) -> np.ndarray:
    arr = as_float_array(row, what)
    if arr.ndim != 1 or arr.shape[0] not in widths:
        want = " or ".join(str(w) for w in widths)
        raise ValueError(f"{what} must be a row of {want} values, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{what} contains a non-finite value (NaN or inf): {arr.tolist()}")
    return arr
