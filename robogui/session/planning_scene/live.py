"""Collisions while the user drives: the links in contact, the clearance, and a guard that
stops a jog or a handle drag before contact.

Everything here works on a :class:`~robogui.engine.collision_detection.checker.CollisionWorld`
built once per robot and cell (the session keeps it): one live check of one state is a
batched broad phase in numpy and coal on the few pairs that are near (about 1-2 ms for the
Puma 560 or the Panda in a cell of ten objects, ``benchmarks/bench_collision.py``).

:func:`check_step` checks the motion from the shown state ``q0`` to the next one ``q1``
continuously, as pre-flight checks a program (:mod:`.continuous`). Far from everything
(the clearance at ``q0`` more than twice the most any link point can move on the way,
bounded from the joint steps and the links' extents) the way is clear by conservative
advancement and only ``q1`` is checked, once, its report becoming the session's; near
something the states between are spaced so that no point of any link moves more than 2 mm,
so a thin object cannot slip between two frames of a fast jog. The motion stops at the last
state before contact; a robot that already touches something may only move so that the
contact gets no deeper.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .continuous import STEP, levers

__all__ = ["StepCheck", "check_step", "check_near", "as_batch", "contact_frames", "link_frames",
           "clearance_along", "clearance_text", "length_text", "pair_distance",
           "ClearanceCurve", "MAX_LIVE_BODIES", "MAX_LIVE_PAIRS", "too_many_pairs"]

#: a step within this of the shown state (rad or m per joint) is no motion
_SAME = 1e-12
#: most interpolated states one live step may be cut into (a runaway jump is refused whole)
_MAX_CUTS = 2_000


#: live checks (every frame of a drag) only for robots of at most this many bodies: the
#: pairs of a 200-link chain take seconds to build and 0.1 s to check
MAX_LIVE_BODIES = 64
#: ... and at most this many checked pairs (robot with itself, with the objects, the floor)
MAX_LIVE_PAIRS = 50_000


def too_many_pairs(world) -> str | None:
    """Why ``world`` is too big to check on every frame, or None."""
    P = len(world.geometry.pieces)
    n = (len(world.geometry.self_pairs) + P * len(world.obstacles)
         + (P if world.floor_z is not None else 0))
    if n > MAX_LIVE_PAIRS:
        return (f"live collision checks are off: {n:,} pairs to check, more than "
                f"{MAX_LIVE_PAIRS:,} (pre-flight and robogui check still check programs)")
    return None


def length_text(value: float, unit: str = "mm") -> str:
    """A distance ``value`` (m) in the display ``unit`` ("mm" or "m") with three significant
    digits: "3 mm", "12.5 mm", "0.0031 m"."""
    if unit == "m":
        return f"{value:.3g} m"
    return f"{value * 1e3:.3g} mm"


def clearance_text(clearance, object_names=(), unit: str = "mm") -> tuple[str, bool]:
    """The pose panel's clearance line and whether something touches: ``clearance`` is the
    session's (nearest pair, signed distance m) or None. E.g. ("112.40 mm  forearm –
    'table'", False), ("in contact: forearm – 'table', 3.20 mm deep", True)."""
    if clearance is None:
        return "— (no collision geometry)", False
    pair, d = clearance
    if pair is None or not math.isfinite(d):
        return "— (nothing to check)", False
    scale, digits = (1.0, 5) if unit == "m" else (1e3, 2)
    names = set(object_names)
    who = f"{_quote(pair[0], names)} – {_quote(pair[1], names)}"
    if d < 0:
        return f"in contact: {who}, {-d * scale:.{digits}f} {unit} deep", True
    return f"{d * scale:.{digits}f} {unit}  {who}", False


@lru_cache(maxsize=8)
def link_frames(world) -> dict[str, frozenset[int]]:
    """Robot link name -> the ``fkine_all`` frames its collision pieces ride on (the frames
    the 3D view hangs that link's parts on)."""
    out: dict[str, set[int]] = {}
    for p in world.geometry.pieces:
        out.setdefault(p.link, set()).add(int(p.frame))
    return {k: frozenset(v) for k, v in out.items()}


def contact_frames(world, pairs, object_names=()) -> frozenset[int]:
    """The frames of the robot's links that are in one of ``pairs`` (a report's list of
    ``(name_a, name_b)`` for one state). The first name is always a robot link; the second
    is one too unless it names a cell object (``object_names``) or the floor."""
    frames = link_frames(world)
    others = set(object_names) | {"floor"}
    out: set[int] = set()
    for a, b in pairs:
        out |= frames.get(a, frozenset())
        if b not in others:
            out |= frames.get(b, frozenset())
    return frozenset(out)


@dataclass(frozen=True, eq=False)
class StepCheck:
    """What :func:`check_step` says of a motion from ``q0`` to ``q1``.

    q : (n,) where the motion may go: ``q1`` when clear, else the last checked state
        before contact (``q0`` when even the first one touches).
    blocked : the motion was stopped (or shortened) before a contact.
    reason : None when clear, else a sentence for the status line, e.g.
        ``forearm would hit 'table' (clearance 3 mm)``.
    pair : the pair the motion would bring into contact (or None).
    fraction : the share of the motion allowed (0..1).
    report : for a clear motion, the single-state report at ``q1`` with distances (the
        session keeps it as the collisions of ``q1``: one check per frame, not two).
    """

    q: np.ndarray
    blocked: bool
    reason: str | None = None
    pair: tuple | None = None
    fraction: float = 1.0
    report: object = None


@lru_cache(maxsize=8)
def _levers(world) -> tuple[np.ndarray, np.ndarray]:
    return levers(world.robot, world)


def _motion_bound(world, q0: np.ndarray, q1: np.ndarray) -> float:
    """The most any point of any link moves on the way from q0 to q1 (m), bounded as in
    :mod:`.continuous` (joint steps times the levers of the link pieces)."""
    lever, revolute = _levers(world)
    cp = world.robot.coupling
    Q0, Q1 = (q0, q1) if cp is None else (cp.E @ q0 + cp.c, cp.E @ q1 + cp.c)
    return float(np.abs(Q1 - Q0) @ np.where(revolute, lever, 1.0))


def as_batch(rep):
    """A single-state report (plain values) as the report of q of shape (1, n), as
    ``check_collisions`` gives it: ``colliding`` (1,), ``distance`` (1,), ``pairs[0]``..."""
    from robogui.engine.collision_detection.checker import CollisionReport

    bounds = None if rep.bounds is None else np.asarray(rep.bounds)[None]
    return CollisionReport(np.array([bool(rep.colliding)]), np.array([float(rep.distance)]),
                           [list(rep.pairs)], [list(rep.depths)], [rep.nearest], bounds)


@lru_cache(maxsize=8)
def _coal_pieces(world) -> bool:
    """Whether the robot has pieces whose distances coal computes (meshes, boxes,
    cylinders): there the previous state's bounds save coal calls (a third of the Panda's
    live check); capsules and spheres are exact in numpy, where they only add work."""
    return any(p.kind not in ("capsule", "sphere") for p in world.geometry.pieces)


def check_near(world, q1, q0=None, report0=None):
    """The single-state report at ``q1`` (n,) with distances, helped by the report at a
    nearby state ``q0`` (its per-pair ``bounds``): a pair's signed distance changes by at
    most how far its two things move, so pairs that were far apart stay settled without
    coal (``CollisionWorld.check(previous=...)``). Exactly what ``world.check(q1)`` gives,
    in less time."""
    bounds = getattr(report0, "bounds", None)
    if bounds is None or q0 is None or not _coal_pieces(world):
        return world.check(q1, distance=True)
    try:
        return world.check(q1, distance=True, previous=(np.asarray(q0, float), bounds))
    except ValueError:  # bounds of another world (another robot or cell): without them
        return world.check(q1, distance=True)


def _between(q0: np.ndarray, q1: np.ndarray, move: float, step: float) -> np.ndarray:
    """States (k, n) from q0 (excluded) to q1 (included), no link point moving more than
    ``step`` between two when none moves more than ``move`` in all."""
    cuts = int(min(_MAX_CUTS, max(1, math.ceil(move / step))))
    s = np.arange(1, cuts + 1) / cuts
    return q0 + s[:, None] * (q1 - q0)


def _quote(name: str, object_names) -> str:
    """Objects and the floor are named in quotes, robot links as they are."""
    return f"{name!r}" if name in object_names or name == "floor" else name


def check_step(world, q0, q1, report0=None, *, object_names=(), step: float = STEP,
               length_unit: str = "mm") -> StepCheck:
    """May the robot move from ``q0`` (n,) to ``q1`` (n,) without a contact?

    ``report0`` is the single-state report at ``q0`` with distances (plain values, as
    ``world.check(q0)`` gives it; computed when None). ``object_names`` the cell's object
    names (quoted in the reason). Returns a :class:`StepCheck`: clear, or the last state
    before contact and the reason in words in ``length_unit`` ("mm" or "m").
    """
    q0 = np.asarray(q0, float).reshape(-1)
    q1 = np.asarray(q1, float).reshape(-1)
    if np.abs(q1 - q0).max(initial=0.0) <= _SAME:
        return StepCheck(q1, False, report=report0)
    if report0 is None:
        report0 = world.check(q0)
    names = set(object_names)
    if bool(report0.colliding):
        return _out_of_contact(world, q0, q1, report0, names, length_unit)
    move = _motion_bound(world, q0, q1)
    d0 = float(report0.distance)
    if math.isfinite(d0) and d0 > 2.0 * move:
        # conservative advancement: no point moved as far as the clearance (two links by at
        # most twice the bound towards each other), so the way is clear; only the new
        # state is checked, and its report is the session's next (one check per frame)
        last = check_near(world, q1, q0, report0)
        if not last.colliding:
            return StepCheck(q1, False, report=last)
    qs = _between(q0, q1, move, step)  # near something: every 2 mm on the way, one call
    rep = world.check(qs, distance=False)
    hit = np.flatnonzero(rep.colliding)
    if not len(hit):
        return StepCheck(q1, False)
    i = int(hit[0])
    a, b = rep.pairs[i][0]
    q_ok = qs[i - 1] if i > 0 else q0
    near, d = report0.nearest, float(report0.distance)
    if near is None or set(near) != {a, b}:  # the pair that hits is not the nearest now
        d = pair_distance(world, q0, a, b)
    gap = f" (clearance {length_text(d, length_unit)})" if math.isfinite(d) else ""
    reason = f"{a} would hit {_quote(b, names)}{gap}"
    return StepCheck(np.array(q_ok), True, reason, (a, b), i / len(qs))


@lru_cache(maxsize=8)
def _obstacles(world) -> dict:
    """name -> (coal shape, coal transform in the robot's frame) of the world's obstacles
    and the floor (built once per world)."""
    import coal

    from robogui.engine.collision_detection.robot_geometry import coal_shape

    base_inv = np.linalg.inv(world.base)
    out = {}
    for ob in world.obstacles:
        T = base_inv @ np.asarray(ob.T, float)
        out[ob.name] = (coal_shape(ob.kind, ob.size, ob.mesh),
                        coal.Transform3s(T[:3, :3].copy(), T[:3, 3].copy()))
    if world.floor_z is not None:
        n = world.base[2, :3].copy()
        out["floor"] = (coal.Halfspace(n, float(world.floor_z) - float(world.base[2, 3])),
                        coal.Transform3s())
    return out


def pair_distance(world, q, a: str, b: str) -> float:
    """Signed distance (m) between robot link ``a`` and ``b`` (a cell object, "floor" or
    another link) at ``q`` (n,): the smallest over their pieces, by coal.distance (inf when
    there is no such pair)."""
    import coal

    pieces = world.geometry.pieces
    W = world.piece_poses(np.asarray(q, float)[None])[0]
    obstacles = _obstacles(world)

    def placed(k):
        return pieces[k].geometry, coal.Transform3s(W[k][:3, :3].copy(), W[k][:3, 3].copy())

    mine = [k for k, p in enumerate(pieces) if p.link == a]
    if b in obstacles:
        others = [obstacles[b]]
    else:
        others = [placed(k) for k, p in enumerate(pieces) if p.link == b]
    best = math.inf
    req = coal.DistanceRequest()
    for k in mine:
        g1, t1 = placed(k)
        for g2, t2 in others:
            best = min(best, float(coal.distance(g1, t1, g2, t2, req, coal.DistanceResult())))
    return best


def _out_of_contact(world, q0, q1, report0, names, length_unit) -> StepCheck:
    """Already in contact at q0: the motion may not touch anything new nor go deeper."""
    rep1 = world.check(q1)
    before = set(report0.pairs)
    new = [p for p in rep1.pairs if p not in before]
    if new:
        a, b = new[0]
        return StepCheck(q0.copy(), True, f"{a} would hit {_quote(b, names)} (clearance 0 "
                         f"{length_unit}: already in contact)", (a, b), 0.0)
    if float(rep1.distance) < float(report0.distance) - 1e-9:
        a, b = report0.pairs[0] if report0.pairs else (None, None)
        depth = -float(report0.distance)
        return StepCheck(q0.copy(), True,
                         f"{a} would go deeper into {_quote(b, names)} (now "
                         f"{length_text(depth, length_unit)} deep; move out of the contact)",
                         (a, b), 0.0)
    return StepCheck(q1, False, report=rep1)


@dataclass(frozen=True, eq=False)
class ClearanceCurve:
    """The smallest signed distance along a trajectory, for the clearance plot.

    t : (k,) s; distance : (k,) m (negative = penetration depth; +inf where nothing is
    checked); nearest : per instant the pair of the smallest distance (or None).
    """

    t: np.ndarray
    distance: np.ndarray
    nearest: list

    @property
    def smallest(self) -> tuple[float, float, tuple | None]:
        """(distance m, time s, pair) of the smallest clearance along the trajectory."""
        if not len(self.t):
            return math.inf, math.nan, None
        i = int(np.argmin(self.distance))
        return float(self.distance[i]), float(self.t[i]), self.nearest[i]


def clearance_along(world, t, q, max_points: int = 1_000) -> ClearanceCurve:
    """The smallest signed distance at the trajectory's samples ``q`` (k, n), times ``t``
    (k,): one batched check of at most ``max_points`` evenly spaced samples (the plot's
    resolution; the first and last always). Contacts between samples are pre-flight's task
    (:mod:`.continuous`); this is the curve to look at."""
    t = np.asarray(t, float).reshape(-1)
    q = np.asarray(q, float).reshape(len(t), -1)
    if len(t) > max_points:
        idx = np.unique(np.round(np.linspace(0, len(t) - 1, max_points)).astype(int))
        t, q = t[idx], q[idx]
    if not len(t):
        return ClearanceCurve(t, np.zeros(0), [])
    rep = world.check(q, distance=True)
    return ClearanceCurve(t, np.asarray(rep.distance, float), list(rep.nearest))
