"""The serial-link robot description.

A ``Robot`` is immutable: changing the tool, the base or a parameter gives a new
``Robot`` (``robot.with_tool(T)``), so anything cached on a description stays right.
Algorithms live in free functions (kinematics, dynamics, ...); the methods here are
thin delegates with the names users of Corke's toolboxes know.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property

import numpy as np

from ..checks import as_float_array, as_joint_array, as_transform, as_vector
from .dh_arrays import DHArrays
from .link import Link
from .robot_text import RobotTextMixin

__all__ = ["Robot", "DHArrays"]


class Robot(RobotTextMixin):
    """An immutable serial-link manipulator.

    Parameters
    ----------
    links : sequence of Link; the D-H ones all standard or all modified, general joints
        (URDF) anywhere.
    name, manufacturer, comment : descriptive strings.
    base, tool : 4x4 homogeneous transforms (default identity).
    gravity : gravitational acceleration in the world frame, m/s^2 (default z up,
        ``(0, 0, -9.81)``; MATLAB RTB stores the opposite sign).
    poses : named joint vectors, e.g. ``{"qz": ..., "qr": ...}``.
    base_link, tip : names of the first and last link of the chain (URDF robots).
    visuals : visual geometry, a tuple of :class:`robogui.engine.model.visual.Visual` (mesh
        file paths and primitives placed in link frames); drawn by the app.
    collisions : collision geometry, Visual records as ``visuals`` (URDF ``<collision>``,
        capsules from the robot file); empty: the collision checks make their own.
    disabled_collisions : pairs of link names never checked against each other (an
        SRDF's ``disable_collisions``), a tuple of sorted 2-tuples.
    gripper : the gripper's joints off the chain (:class:`~.gripper.GripperJoint`): no
        arm joints; the session opens and closes them (the geometry beyond follows).
    collision_radii : per link the radius (m) of the capsules the collision checks put
        around its sticks when ``collisions`` is empty; 0 (or an empty tuple) for the default.
    mimic : coupled joints (URDF ``<mimic>``), ``{follower: (leader, multiplier, offset)}``
        with 0-based indices into ``links``: ``q_follower = multiplier * q_leader + offset``.
        ``links`` is then the whole chain (``robot.chain``, one body each) and ``robot.n``
        counts the independent joints, whose ``robot.links`` carry the leader's limits
        intersected with those its followers imply; see :mod:`robogui.engine.model.mimic`.

    >>> from robogui import Link, Robot
    >>> r = Robot([Link(a=1), Link(a=1)], name="two-link")
    >>> r.fkine([0, 0])[:3, 3]
    array([2., 0., 0.])
    """

    __slots__ = ("_links", "_name", "_manufacturer", "_comment", "_base", "_tool",
                 "_gravity", "_poses", "_source", "_base_link", "_tip", "_visuals",
                 "_collisions", "_disabled_collisions", "_collision_radii", "_chain", "_mimic",
                 "_coupling", "__dict__")

    def __init__(
        self,
        links: Sequence[Link],
        name: str = "noname",
        manufacturer: str = "",
        comment: str = "",
        base=None,
        tool=None,
        gravity=(0.0, 0.0, -9.81),
        poses: Mapping[str, Sequence[float]] | None = None,
        source: str = "",
        base_link: str = "",
        tip: str = "",
        visuals: Sequence = (),
        mimic: Mapping[int, tuple[int, float, float]] | None = None,
        collisions: Sequence = (),
        disabled_collisions: Sequence = (),
        collision_radii: Sequence = (),
        gripper: Sequence = (),
    ):
        links = tuple(links)
        if not links:
            raise ValueError("a robot needs at least one link")
        for i, L in enumerate(links):
            if not isinstance(L, Link):
                raise ValueError(f"links[{i}] must be a Link, got {type(L).__name__}")
        kinds = {L.mdh for L in links if not L.is_general}
        if len(kinds) > 1:
            std = [i + 1 for i, L in enumerate(links) if not L.mdh and not L.is_general]
            mod = [i + 1 for i, L in enumerate(links) if L.mdh]
            raise ValueError(
                f"links mix standard D-H (links {std}) and modified D-H (links {mod}); "
                "a robot uses one convention"
            )
        self._chain = links
        self._mimic, self._coupling = {}, None
        if mimic:
            from .mimic import Coupling, check_mimic

            self._mimic = check_mimic(mimic, len(links))
            self._coupling = Coupling(self._mimic, len(links))
            links = _independent_links(links, self._coupling)
        self._links = links
        self._name = str(name)
        self._manufacturer = str(manufacturer)
        self._comment = str(comment)
        self._source = str(source)
        self._base_link = str(base_link)
        self._tip = str(tip)
        self._visuals = tuple(visuals)
        self._collisions = tuple(collisions)
        self._disabled_collisions = tuple(sorted({tuple(sorted((str(a), str(b))))
                                                  for a, b in disabled_collisions}))
        radii = tuple(float(r) for r in collision_radii)
        if radii and (len(radii) != len(self._chain) or not all(0.0 <= r < 1e3 for r in radii)):
            raise ValueError(f"collision_radii must be {len(self._chain)} lengths in [0, 1000) m "
                             f"(0 for the default), got {collision_radii!r}")
        self._collision_radii = radii if any(radii) else ()
        from .gripper import check_gripper

        self._gripper = check_gripper(gripper)
        self._base = self._frozen(as_transform(np.eye(4) if base is None else base, "base",
                                               stack=False))
        self._tool = self._frozen(as_transform(np.eye(4) if tool is None else tool, "tool",
                                               stack=False))
        self._gravity = self._frozen(as_vector(gravity, 3, "gravity"))
        if poses is not None and not isinstance(poses, Mapping):
            raise ValueError("poses must be a mapping of names to joint vectors of shape "
                             f"({len(links)},), got {type(poses).__name__}")
        checked = {}
        for key, value in (poses or {}).items():
            checked[str(key)] = self._frozen(as_vector(value, len(links), f"poses[{key!r}]"))
        self._poses = checked

    @staticmethod
    def _frozen(arr: np.ndarray) -> np.ndarray:
        arr = np.array(arr, dtype=float)
        arr.setflags(write=False)
        return arr

    # -- description -----------------------------------------------------------
    @property
    def links(self) -> tuple[Link, ...]:
        return self._links

    @property
    def n(self) -> int:
        """Number of (independent) joints: the length of q."""
        return len(self._links)

    @property
    def chain(self) -> tuple[Link, ...]:
        """Every link of the chain, followers of mimic joints included (``links`` when
        there are none): one body each, ``fkine_all`` gives their frames."""
        return self._chain

    @property
    def n_bodies(self) -> int:
        """Number of moving bodies, ``len(chain)``: ``fkine_all`` gives n_bodies + 1 frames."""
        return len(self._chain)

    @property
    def gripper(self) -> tuple:
        """The gripper's joints off the chain (:class:`~.gripper.GripperJoint`), which
        q never holds; geometry that follows them names them (``Visual.follow``)."""
        return self._gripper

    @property
    def mimic(self) -> dict[int, tuple[int, float, float]]:
        """Mimic joints ``{follower: (leader, multiplier, offset)}`` (chain indices)."""
        return dict(self._mimic)

    @property
    def coupling(self):
        """The :class:`robogui.engine.model.mimic.Coupling` ``Q = E q + c``, or None."""
        return self._coupling

    @cached_property
    def full(self) -> Robot:
        """The chain without coupling (every joint independent); itself when uncoupled."""
        if self._coupling is None:
            return self
        cp = self._coupling
        return Robot(self._chain, name=self._name, manufacturer=self._manufacturer,
                     comment=self._comment, base=self._base, tool=self._tool,
                     gravity=self._gravity, source=self._source, base_link=self._base_link,
                     tip=self._tip, visuals=self._visuals, collisions=self._collisions,
                     disabled_collisions=self._disabled_collisions,
                     poses={k: cp.E @ v + cp.c for k, v in self._poses.items()})

    @property
    def name(self) -> str:
        return self._name

    @property
    def manufacturer(self) -> str:
        return self._manufacturer

    @property
    def comment(self) -> str:
        return self._comment

    @property
    def source(self) -> str:
        """Where the parameters come from (citation)."""
        return self._source

    @property
    def base_link(self) -> str:
        """Name of the chain's root link (URDF), or ""."""
        return self._base_link

    @property
    def tip(self) -> str:
        """Name of the chain's last link (URDF), or ""."""
        return self._tip

    @property
    def visuals(self) -> tuple:
        """Visual geometry (:class:`robogui.engine.model.visual.Visual`), empty for D-H robots."""
        return self._visuals

    @property
    def collisions(self) -> tuple:
        """Collision geometry (:class:`robogui.engine.model.visual.Visual` records), empty
        when the description has none (the collision checks then make their own)."""
        return self._collisions

    @property
    def collision_radii(self) -> tuple:
        """Per link the capsule radius (m) of the made-up stick geometry, 0 for the
        default; empty when every link uses the default."""
        return self._collision_radii

    @property
    def disabled_collisions(self) -> tuple:
        """Link-name pairs never checked against each other (SRDF), sorted 2-tuples."""
        return self._disabled_collisions

    @property
    def base(self) -> np.ndarray:
        return self._base

    @property
    def tool(self) -> np.ndarray:
        return self._tool

    @cached_property
    def tool_is_identity(self) -> bool:
        return bool(np.array_equal(self._tool, np.eye(4)))

    @property
    def gravity(self) -> np.ndarray:
        """Gravitational acceleration in the world frame, m/s^2."""
        return self._gravity

    @property
    def poses(self) -> dict[str, np.ndarray]:
        return dict(self._poses)

    @property
    def is_mdh(self) -> bool:
        """True when the D-H links use modified D-H (False for an all-general robot)."""
        return any(L.mdh for L in self._links)

    @cached_property
    def is_general(self) -> bool:
        """True when at least one link is a general (URDF) joint."""
        return any(L.is_general for L in self._chain)

    @cached_property
    def joint_models(self):
        """The chain as :class:`robogui.engine.model.joint_model.JointModels` (cached)."""
        from .joint_model import joint_models

        return joint_models(self._links)

    @property
    def mdh(self) -> bool:
        """r6 name for :attr:`is_mdh`."""
        return self.is_mdh

    @cached_property
    def dh_arrays(self) -> DHArrays:
        return DHArrays.from_links(self._links)

    @property
    def structure(self) -> str:
        """Joint types as a string, e.g. ``"RRPRRR"``."""
        return "".join(L.joint for L in self._links)

    @property
    def revolute(self) -> np.ndarray:
        return self.dh_arrays.revolute.copy()

    @property
    def offset(self) -> np.ndarray:
        return self.dh_arrays.offset.copy()

    @cached_property
    def has_dynamics(self) -> bool:
        """True when at least one link has mass, inertia or motor inertia."""
        return any(L.has_dynamics for L in self._chain)

    @cached_property
    def reach(self) -> float:
        """A length scale of the arm: sum of |a| and |d| and prismatic travel, in metres."""
        total = 0.0
        for L in self._chain:
            total += L.length
            if L.joint == "P" and L.qlim is not None:
                total += max(abs(L.qlim[0]), abs(L.qlim[1]))
        total += float(np.linalg.norm(self._tool[:3, 3]))
        return total if total > 0 else 1.0

    @property
    def flip(self) -> np.ndarray:
        """Per joint True where the axis is reversed (``Link.flip``): (n,) bool."""
        return np.array([L.flip for L in self._links], dtype=bool)

    # -- r6 legacy matrices ----------------------------------------------------------
    @classmethod
    def from_dh(cls, dh, name: str = "noname", manufacturer: str = "", comment: str = "",
                **kw) -> Robot:
        """r6 ``robot(DH, name, manuf, comment)``: rows ``[alpha A theta D sigma]``
        (n x 4 or n x 5); ``mdh=True`` for modified D-H; other keywords go to Robot."""
        return _from_legacy(cls, dh, "dh", (4, 5), name, manufacturer, comment, kw)

    @classmethod
    def from_dyn(cls, dyn, name: str = "noname", manufacturer: str = "", comment: str = "",
                 **kw) -> Robot:
        """r6 ``robot(DYN, ...)``: from an n x 20 legacy ``dyn`` matrix."""
        return _from_legacy(cls, dyn, "dyn", (20,), name, manufacturer, comment, kw)

    @property
    def dh(self) -> np.ndarray:
        """r6 ``robot.dh``: the legacy matrix, rows ``[alpha A theta D sigma]`` (n, 5)."""
        return np.array([L.dh for L in self._links])

    @property
    def dyn(self) -> np.ndarray:
        """r6 ``robot.dyn``: the legacy n x 20 matrix."""
        return np.array([L.dyn for L in self._links])

    # -- limits ----------------------------------------------------------------
    @property
    def qlim(self) -> np.ndarray:
        """Joint limits, (n, 2). Revolute joints without limits get +-pi.

        Raises ValueError for a prismatic joint without limits, which has no sensible default.
        """
        out = np.empty((self.n, 2))
        for j, L in enumerate(self._links):
            if L.qlim is not None:
                out[j] = L.qlim
            elif L.joint == "R":
                out[j] = (-math.pi, math.pi)
            else:
                raise ValueError(
                    f"joint {j + 1} of {self.name!r} is prismatic and has no qlim; "
                    "give its travel limits"
                )
        return out

    def islimit(self, q) -> np.ndarray:
        """Per joint -1 below the lower limit, 0 inside, +1 above: (n,) or (m, n) int."""
        q2d, single = as_joint_array(q, self.n)
        lim = self.qlim
        res = np.where(q2d < lim[:, 0], -1, np.where(q2d > lim[:, 1], 1, 0))
        return res[0] if single else res

    # -- derived robots ------------------------------------------------------------
    def _copy(self, **changes) -> Robot:
        kw = dict(links=self._links, name=self._name, manufacturer=self._manufacturer,
                  comment=self._comment, base=self._base, tool=self._tool,
                  gravity=self._gravity, poses=self._poses, source=self._source,
                  base_link=self._base_link, tip=self._tip, visuals=self._visuals,
                  mimic=self._mimic, collisions=self._collisions,
                  disabled_collisions=self._disabled_collisions,
                  collision_radii=self._collision_radii, gripper=self._gripper)
        if "links" in changes and len(tuple(changes["links"])) != len(self._chain) \
                and "collision_radii" not in changes:
            kw["collision_radii"] = ()  # other links: the radii no longer match
        kw["links"] = self._chain
        kw.update(changes)
        return Robot(**kw)

    def upto(self, k: int) -> Robot:
        """The chain of the first ``k`` links (1 <= k <= n): same base, no tool; its end
        frame is link frame k (ROBOOP ``endlink``, JFKengine's joint count). Cached."""
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) \
                or not 1 <= k <= self.n:
            raise ValueError(f"k (the number of links) must be an integer in 1..{self.n}, "
                             f"got {k!r}")
        cache = self.__dict__.setdefault("_upto", {})
        sub = cache.get(int(k))
        if sub is None:
            poses = {key: v[:k] for key, v in self._poses.items()}
            end, mimic = k, None
            if self._coupling is not None:  # the chain up to independent joint k's body
                end = int(self._coupling.independent[k - 1]) + 1
                mimic = {f: s for f, s in self._mimic.items() if f < end}
                if any(s[0] >= end for s in mimic.values()):
                    raise ValueError(f"the first {k} joints of {self._name!r} have a mimic "
                                     "joint whose leader comes later")
            sub = cache[int(k)] = Robot(self._chain[:end], name=f"{self._name} (links 1-{k})",
                                        manufacturer=self._manufacturer, base=self._base,
                                        gravity=self._gravity, poses=poses,
                                        source=self._source, mimic=mimic)
        return sub

    def lock(self, locked) -> Robot:
        """The robot with joints held at values and removed from q: ``locked`` maps 0-based
        joint indices to values (rad or m); see :mod:`robogui.engine.model.immobile`."""
        from .immobile import lock_joints

        if self._coupling is not None:
            raise ValueError(f"{self._name!r} has mimic joints; locking joints of a coupled "
                             "chain is not supported")
        return lock_joints(self, locked)

    def with_tool(self, T) -> Robot:
        """The same robot with tool transform ``T``."""
        return self._copy(tool=T)

    def with_base(self, T) -> Robot:
        """The same robot with base transform ``T``."""
        return self._copy(base=T)

    def with_gravity(self, g) -> Robot:
        return self._copy(gravity=g)

    def with_links(self, links: Sequence[Link]) -> Robot:
        """The same robot with other links: the whole chain, or for a robot with mimic
        joints also just its ``n`` independent links (the followers are kept)."""
        links = tuple(links)
        if self._coupling is not None and len(links) != len(self._chain):
            if len(links) != self.n:
                raise ValueError(f"{self._name!r} has mimic joints: give {self.n} independent "
                                 f"links or the whole chain of {len(self._chain)}")
            chain = list(self._chain)
            for k, L in zip(self._coupling.independent, links, strict=True):
                chain[k] = L
            links = tuple(chain)
        return self._copy(links=links)

    def replace(self, **changes) -> Robot:
        """A copy with some constructor arguments changed."""
        return self._copy(**changes)

    def nofriction(self, coulomb: bool = True, viscous: bool = False) -> Robot:
        """The same robot without Coulomb friction (and viscous if asked), as r6 ``nofriction``."""
        return self._copy(links=tuple(L.nofriction(coulomb, viscous) for L in self._chain),
                          name=self._name + " (no friction)" if coulomb or viscous else self._name)

    def perturb(self, f: float = 0.1, seed=None) -> Robot:
        """Dynamic parameters scaled by random factors in [1-f, 1+f] (ROBOOP perturb_robot).

        As ROBOOP's ``perturb_robot(robot, f)``: for every link, the motor inertia ``Jm``,
        the mass ``m``, the centre of mass ``r`` and the inertia tensor ``I`` are each
        multiplied by their own factor ``1 + f u``, u uniform in [-1, 1] (one factor for the
        whole vector r and one for the whole tensor I, so directions and principal axes are
        kept). Kinematics, gear ratios and friction are not changed. ``f`` is the relative
        variation, 0 <= f <= 1; ``seed`` makes the draw repeatable.
        """
        try:
            f = float(f)
        except (TypeError, ValueError):
            raise ValueError(f"f must be a number in [0, 1], got {f!r}") from None
        if not 0.0 <= f <= 1.0:  # also refuses NaN
            raise ValueError(f"f must lie in [0, 1] (a relative variation), got {f}")
        rng = np.random.default_rng(seed)
        factors = 1.0 + f * rng.uniform(-1.0, 1.0, size=(len(self._chain), 4))
        links = tuple(
            L.replace(Jm=L.Jm * k[0], m=L.m * k[1], r=L.r * k[2], I=L.I * k[3])
            for L, k in zip(self._chain, factors, strict=True)
        )
        return self._copy(links=links, name=self._name + " (perturbed)")

    def __mul__(self, other: Robot) -> Robot:
        """Series connection (r6): other's chain is attached to this one's last link.

        The tool of this robot and the base of the other are ignored, as in r6.
        """
        if not isinstance(other, Robot):
            return NotImplemented
        if self._coupling is not None or other.coupling is not None:
            raise ValueError("cannot connect robots with mimic joints in series")
        if other.is_mdh != self.is_mdh and not (self.is_general or other.is_general):
            raise ValueError("cannot connect a standard D-H robot to a modified D-H robot")
        return Robot(self._links + other.links, name=f"{self.name}*{other.name}",
                     manufacturer=self.manufacturer, base=self.base, tool=other.tool,
                     gravity=self.gravity)

    # -- identity ---------------------------------------------------------------
    @cached_property
    def key(self) -> tuple:
        """A hashable description: equal keys mean the same kinematics and dynamics."""
        return (tuple(L._key() for L in self._chain), self._name,
                tuple(self._base.ravel()), tuple(self._tool.ravel()), tuple(self._gravity),
                self._coupling.key if self._coupling is not None else ())

    def __eq__(self, other) -> bool:
        return isinstance(other, Robot) and self.key == other.key and set(
            self._poses) == set(other._poses) and all(
            np.array_equal(self._poses[k], other._poses[k]) for k in self._poses) and (
            self._visuals == other._visuals and self._tip == other._tip
            and self._collisions == other._collisions
            and self._disabled_collisions == other._disabled_collisions
            and self._collision_radii == other._collision_radii
            and self._base_link == other._base_link)  # the meshes drawn, the chain's ends

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def convention(self) -> str:
        """"standard D-H", "modified D-H", "general joints" or "general joints + D-H"."""
        dh = "modified D-H" if self.is_mdh else "standard D-H"
        if not self.is_general:
            return dh
        return "general joints" if all(L.is_general for L in self._links) \
            else f"general joints + {dh}"

    def __repr__(self) -> str:
        return f"Robot({self.name!r}, n={self.n}, {self.structure}, {self.convention})"

    # -- algorithm delegates --------------------------------------------------------
    # The free functions in the engine modules do the work; these give users of Corke's
    # toolboxes the familiar ``robot.fkine(q)`` spelling (see _DELEGATES below).

    def pose(self, name: str) -> np.ndarray:
        """A named joint vector, e.g. ``robot.pose("qr")``."""
        try:
            return self._poses[name].copy()
        except KeyError:
            known = ", ".join(self._poses) or "none"
            raise ValueError(f"{self.name!r} has no pose {name!r} (known: {known})") from None

    def random_q(self, m: int | None = None, seed=None) -> np.ndarray:
        """Uniform random joint vectors within the limits: (n,) or (m, n)."""
        rng = np.random.default_rng(seed)
        lim = self.qlim
        shape = (self.n,) if m is None else (int(m), self.n)
        return lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random(shape)

    def clip_q(self, q) -> np.ndarray:
        """``q`` clipped into the joint limits."""
        q = as_float_array(q, "q")
        lim = self.qlim
        return np.clip(q, lim[:, 0], lim[:, 1])


def _independent_links(chain: tuple[Link, ...], cp) -> tuple[Link, ...]:
    """The independent joints' links of a coupled chain, each with its limits intersected
    with those its followers imply (ValueError when nothing is left)."""
    out = []
    for k in cp.independent:
        L = chain[k]
        lo, hi = L.qlim if L.qlim is not None else (-math.inf, math.inf)
        for f, (lead, _, _) in cp.mimic.items():
            implied = cp.leader_limits(f, chain[f].qlim) if lead == k else None
            if implied is not None:
                lo, hi = max(lo, implied[0]), min(hi, implied[1])
        if lo > hi:
            raise ValueError(f"joint {k + 1}: its limits and those of its mimic joints leave "
                             "no common range")
        if (lo, hi) != (-math.inf, math.inf) and (lo, hi) != L.qlim:
            if not (math.isfinite(lo) and math.isfinite(hi)):  # one side only from a follower
                d = math.pi if L.joint == "R" else math.inf
                lo, hi = max(lo, -d), min(hi, d)
            L = L.replace(qlim=(lo, hi))
        out.append(L)
    return tuple(out)


# name -> engine module; each becomes ``Robot.name(self, *args, **kw)`` calling
# ``module.name(self, *args, **kw)``. Imports are lazy: the modules import this one.
_DELEGATES = {
    "kinematics.kinematics": ("fkine", "fkine_all", "joint_locations", "link_transform"),
    "kinematics.jacobians": ("jacob0", "jacobe", "jacobn", "jacob_dot", "dTdqi",
                             "jacobian_dls_inv"),
    "kinematics.ikine": ("ikine", "ikine560", "ikine560_all"),
    "kinematics.ikine_branches": ("ikine_analytic_all", "analytic_config"),
    "kinematics.arm_family": ("arm_family",),
    "dynamics.manipulability": ("manipulability", "vellipse", "fellipse"),
    "dynamics.dynamics": ("rne", "inertia", "coriolis", "coriolis_torque", "gravload", "itorque",
                 "friction", "torque_components", "cinertia", "kinetic_energy",
                 "potential_energy"),
    "dynamics.dynamics_linear": ("torque_novelocity", "delta_torque", "dq_torque", "dqp_torque",
                        "dtau_dq", "dtau_dqp"),
    "dynamics.fdyn": ("accel", "fdyn"),
    "compat.robot_tools": ("todegrees", "toradians", "isspherical", "jointdynamics"),
}


def _make_delegate(module: str, name: str):
    def method(self, *args, **kwargs):
        from importlib import import_module

        return getattr(import_module(f"robogui.engine.{module}"), name)(self, *args, **kwargs)

    method.__name__ = name
    method.__qualname__ = f"Robot.{name}"
    method.__doc__ = f"``robogui.engine.{module}.{name}(robot, ...)``; see there."
    return method


for _module, _names in _DELEGATES.items():
    for _name in _names:
        setattr(Robot, _name, _make_delegate(_module, _name))


def _legacy_matrix(M, what: str, widths: tuple[int, ...]) -> np.ndarray:
    arr = as_float_array(M, what)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] not in widths:
        want = " or ".join(str(w) for w in widths)
        raise ValueError(f"{what} must be an n x {want} matrix, got shape {arr.shape}")
    return arr


def _from_legacy(cls, rows, what, widths, name, manufacturer, comment, kw):
    """A robot of class ``cls`` from an r6 ``dh`` / ``dyn`` matrix, row errors numbered."""
    mdh = kw.pop("mdh", False)
    M = _legacy_matrix(rows, what, widths)
    links = []
    for j, row in enumerate(M):
        try:
            links.append(Link.from_row(row, mdh=mdh))
        except ValueError as exc:
            raise ValueError(f"{what} row {j + 1}: {exc}") from None
    return cls(links, name=name, manufacturer=manufacturer, comment=comment, **kw)
