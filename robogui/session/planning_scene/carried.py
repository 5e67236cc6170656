"""Parts the tool carries: the cell's state along a program (which part is held from when to
when, in which pose in the tool frame, where it was put down), and the geometry of grasping
(how far a part is from the tool centre point, what it stands on).

A :class:`Hold` is one grasp of a part and its release. :class:`CarriedParts` holds a
program's holds with the cell they happen in and answers where every part is at a time:
held, its world pose is ``base @ T_tcp @ offset`` (``base`` the cell's robot base pose,
``T_tcp`` the tool centre point in the robot's frame as ``fkine`` gives it, ``offset`` the
part's pose in the tool frame taken at the grasp); released, it stays where it was let go.
:class:`CarryingTrajectory` is a :class:`~robogui.engine.trajectory.trajectory.Trajectory`
that knows this: the session draws the parts through its ``carried_poses(t, tcp)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from robogui.engine.collision_detection.robot_geometry import coal_shape
from robogui.engine.trajectory.trajectory import Trajectory

from .cell import Cell, CellObject

__all__ = ["Hold", "CarriedParts", "CarryingTrajectory", "GRASP_REACH", "SUPPORT_GAP",
           "MAX_PART_RADIUS", "HeldPart", "grasp_nearest", "released_cell", "tcp_distance",
           "nearest_part", "supports_of", "object_at", "pose_xyz_rpy"]

#: a part is within reach when its surface is at most this far from the tool centre point (m):
#: the length of a parallel gripper's fingers (a TCP at the flange still grasps a part right
#: below it; a TCP at the finger tips grasps at 0)
GRASP_REACH = 0.10
#: objects nearer than this to a part (m), and not deeper in it, are what it stands on (not
#: checked against it while it is lifted off them or put down on them)
SUPPORT_GAP = 1e-3
#: the gripper takes what fits in a hand: an object whose bounding sphere is larger (a table,
#: a wall) is not grasped by "grasp the nearest part"
MAX_PART_RADIUS = 0.25


def _coal_tf(T):
    import coal

    T = np.asarray(T, float)
    return coal.Transform3s(np.ascontiguousarray(T[:3, :3]), np.ascontiguousarray(T[:3, 3]))


def _shape(obj: CellObject):
    return coal_shape(obj.shape, obj.size, obj.mesh)


def tcp_distance(obj: CellObject, point, T=None) -> float:
    """Distance (m, >= 0; 0 inside) from ``point`` (3,) in the world to the surface of
    ``obj`` placed at ``T`` (4, 4; default its cell pose), by coal."""
    import coal

    p = np.eye(4)
    p[:3, 3] = np.asarray(point, float).reshape(3)
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    d = coal.distance(coal.Sphere(1e-9), _coal_tf(p), _shape(obj),
                      _coal_tf(obj.T if T is None else T), req, res)
    return max(0.0, float(d))


def nearest_part(cell: Cell, point, reach: float = GRASP_REACH, poses: dict | None = None,
                 max_radius: float = math.inf) -> tuple[str, float] | None:
    """The cell object nearest to ``point`` (3,) (world, m) within ``reach``, and its
    distance: (name, m), or None when none is that near. ``poses`` overrides objects' world
    poses by name (parts put down elsewhere); objects whose bounding sphere is larger than
    ``max_radius`` (m) are not candidates."""
    poses = poses or {}
    p = np.asarray(point, float).reshape(3)
    best = None
    for o in cell.objects:
        if o.radius > max_radius:
            continue
        T = poses.get(o.name, o.T)
        if np.linalg.norm(T[:3, 3] - p) - o.radius > reach:
            continue  # its bounding sphere is already too far
        d = tcp_distance(o, p, T)
        if d <= reach and (best is None or d < best[1]):
            best = (o.name, d)
    return best


def supports_of(cell: Cell, name: str, T=None, gap: float = SUPPORT_GAP,
                poses: dict | None = None) -> tuple[str, ...]:
    """Names of the colliding objects within ``gap`` (m) of object ``name`` placed at ``T``
    (default its cell pose), neither further apart nor deeper in each other than that: what
    it stands on or leans against (a part put down inside a wall is not standing on it)."""
    import coal

    obj = cell.object(name)
    poses = poses or {}
    T = obj.T if T is None else np.asarray(T, float)
    shape, tf = _shape(obj), _coal_tf(T)
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    out = []
    for o in cell.objects:
        if o.name == name or not o.collides:
            continue
        To = poses.get(o.name, o.T)
        if np.linalg.norm(To[:3, 3] - T[:3, 3]) > o.radius + obj.radius + gap:
            continue
        res.clear()
        if abs(coal.distance(shape, tf, _shape(o), _coal_tf(To), req, res)) <= gap:
            out.append(o.name)
    return tuple(out)


def pose_xyz_rpy(T) -> tuple[tuple, tuple]:
    """(xyz (3,), rpy (3,)) of a 4x4 pose, as a cell object stores it."""
    from robogui.engine.spatial.transforms import tr2rpy

    T = np.asarray(T, float)
    return tuple(float(x) for x in T[:3, 3]), tuple(float(a) for a in tr2rpy(T))


def object_at(obj: CellObject, T) -> CellObject:
    """``obj`` moved to the world pose ``T`` (4, 4)."""
    xyz, rpy = pose_xyz_rpy(T)
    return obj.moved(xyz, rpy)


@dataclass(frozen=True, eq=False)
class Hold:
    """One grasp of ``part`` and its release along a trajectory.

    grasp_step, release_step : the program's 0-based steps (release None: held to the end).
    t_grasp, t_release : the instants, s (``t_release`` inf when never released).
    i_grasp, i_release : the samples at those instants (i_release None when never released).
    offset : (4, 4) the part's pose in the tool frame, taken at the grasp.
    released : (4, 4) the part's world pose after the release (None: never released).
    lifted_from, put_on : the objects it touched at the grasp and at the release (names).
    """

    part: str
    grasp_step: int
    t_grasp: float
    i_grasp: int
    offset: np.ndarray
    release_step: int | None = None
    t_release: float = math.inf
    i_release: int | None = None
    released: np.ndarray | None = None
    lifted_from: tuple = ()
    put_on: tuple = ()

    def holds_at(self, t: float) -> bool:
        """True while the part is in the gripper: ``t_grasp <= t < t_release``."""
        return self.t_grasp <= t < self.t_release


@dataclass(frozen=True, eq=False)
class CarriedParts:
    """The cell's state along a trajectory: ``cell`` (as it was at the start) and the
    ``holds`` in time order (at most one part held at a time)."""

    cell: Cell
    holds: tuple = ()
    _base: np.ndarray = field(init=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "holds", tuple(self.holds))
        object.__setattr__(self, "_base", self.cell.base)

    @property
    def parts(self) -> tuple[str, ...]:
        """Names of the parts that are grasped at some time, in order of first grasp."""
        return tuple(dict.fromkeys(h.part for h in self.holds))

    def held_at(self, t: float) -> Hold | None:
        """The hold in force at time ``t`` (s), or None."""
        for h in self.holds:
            if h.holds_at(t):
                return h
        return None

    def resting_poses(self, t: float) -> dict[str, np.ndarray]:
        """World poses (4, 4) at time ``t`` of the parts that are not held then: where their
        last release put them, else their cell pose."""
        out = {}
        for name in self.parts:
            T = self.cell.object(name).T
            for h in self.holds:
                if h.part == name and h.t_release <= t and h.released is not None:
                    T = h.released
            out[name] = T
        return out

    def poses_at(self, t: float, tcp) -> dict[str, np.ndarray]:
        """World pose (4, 4) of every part that is grasped along the trajectory at time
        ``t`` (s): held, ``base @ tcp @ offset`` with ``tcp`` (4, 4) the tool centre point
        in the robot's frame at ``t`` (the session's ``T``); else where it rests."""
        poses = self.resting_poses(t)
        h = self.held_at(t)
        if h is not None:
            poses[h.part] = self._base @ np.asarray(tcp, float) @ h.offset
        return poses

    def cell_at(self, t: float, without_held: bool = True) -> Cell:
        """The cell at time ``t``: parts at rest where they rest; the part held then left
        out (``without_held``) or at its grasp pose."""
        rest = self.resting_poses(t)
        h = self.held_at(t)
        cell = self.cell
        for name, T in rest.items():
            if h is not None and h.part == name and without_held:
                continue
            obj = cell.object(name)
            if not np.allclose(T, obj.T, atol=0.0, rtol=0.0):
                cell = cell.with_object(object_at(obj, T))
        if h is not None and without_held:
            cell = cell.without(h.part)
        return cell

    def final_cell(self) -> Cell:
        """The cell as the trajectory leaves it (every part where it was let go; a part still
        held at the end at its grasp pose)."""
        return self.cell_at(math.inf, without_held=False)


@dataclass(frozen=True, eq=False)
class CarryingTrajectory(Trajectory):
    """A trajectory along which the tool carries parts: ``carried`` (:class:`CarriedParts`)."""

    carried: CarriedParts | None = None

    @classmethod
    def of(cls, traj: Trajectory, carried: CarriedParts) -> CarryingTrajectory:
        """``traj`` with ``carried`` attached (the same samples)."""
        return cls(traj.t, traj.q, traj.qd, traj.qdd, traj.T, traj.name, dict(traj.info),
                   carried=carried)

    def carried_poses(self, t: float, tcp) -> dict[str, np.ndarray]:
        """World pose (4, 4) of each part grasped along this trajectory at time ``t`` (s),
        ``tcp`` (4, 4) the tool centre point in the robot's frame then (see
        :meth:`CarriedParts.poses_at`)."""
        if self.carried is None:
            return {}
        return self.carried.poses_at(float(t), tcp)

    def with_carried(self, carried: CarriedParts | None) -> CarryingTrajectory:
        return replace(self, carried=carried)


@dataclass(frozen=True, eq=False)
class HeldPart:
    """A part the gripper holds while the user drives: the cell object ``name``, its pose in
    the tool frame ``offset`` (4, 4), and what it stood on when grasped (``lifted_from``)."""

    name: str
    offset: np.ndarray
    lifted_from: tuple = ()

    def __post_init__(self):
        T = np.array(self.offset, dtype=float).reshape(4, 4)
        if not np.all(np.isfinite(T)):
            raise ValueError("a held part's offset must be finite")
        T.setflags(write=False)
        object.__setattr__(self, "offset", T)
        object.__setattr__(self, "lifted_from", tuple(self.lifted_from))

    def pose(self, cell: Cell, tcp) -> np.ndarray:
        """Its world pose (4, 4): ``cell.base @ tcp @ offset``, ``tcp`` (4, 4) the tool centre
        point in the robot's frame (the session's ``T``)."""
        return cell.base @ np.asarray(tcp, float) @ self.offset


def grasp_nearest(cell: Cell, tcp, reach: float = GRASP_REACH) -> HeldPart:
    """Grasp the part nearest to the tool centre point ``tcp`` (4, 4, the robot's frame)
    within ``reach`` (m): objects no larger than :data:`MAX_PART_RADIUS`. ValueError with
    a sentence for the user when none is within reach."""
    W = cell.base @ np.asarray(tcp, float)
    got = nearest_part(cell, W[:3, 3], reach, max_radius=MAX_PART_RADIUS)
    if got is None:
        near = nearest_part(cell, W[:3, 3], math.inf, max_radius=MAX_PART_RADIUS)
        hint = (f" (the nearest, {near[0]!r}, is {near[1] * 1e3:.0f} mm away)"
                if near is not None else "")
        raise ValueError(f"no part within {reach * 1e3:.0f} mm of the tool centre point"
                         f"{hint}")
    obj = cell.object(got[0])
    return HeldPart(obj.name, np.linalg.inv(W) @ obj.T, supports_of(cell, obj.name))


def released_cell(cell: Cell, held: HeldPart, tcp) -> Cell:
    """The cell with the ``held`` part left where the tool centre point ``tcp`` (4, 4, the
    robot's frame) holds it."""
    return cell.with_object(object_at(cell.object(held.name), held.pose(cell, tcp)))
