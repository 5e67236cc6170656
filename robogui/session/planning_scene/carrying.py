"""Collision checks while the tool carries a part, live and continuously along a program.

A held part is one more collision piece riding on the robot's tip link (the flange frame; its
pose there is ``tool @ offset``, ``offset`` its pose in the tool frame): it is checked against
every link but the tip link (which holds it), against the other objects of the cell and the
floor (:mod:`robogui.engine.collision_detection.attached`).

Along a program (:func:`check_carrying`) the trajectory is cut where parts are grasped and
released; each stretch is checked continuously (:func:`.continuous.check_trajectory`) in the
cell as it is then: parts at rest where they rest (a released part is an obstacle at its new
pose), the held part on the tool. The objects a part touches at its grasp (what it is lifted
from) are not checked against it from the grasp until it has left them; the objects it
touches at its release (what it is put down on) are not checked against it for the last
stretch in which it touches them before the release. In the same way the tip link is not
checked against the part it reaches for in the last stretch of contact before the grasp, nor
against the part it lets go of in the first stretch after the release (the gripper's fingers
round the part).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from robogui.engine.collision_detection.attached import Attached, with_attached
from robogui.engine.collision_detection.checker import CollisionReport, CollisionWorld
from robogui.engine.collision_detection.robot_geometry import robot_geometry

from .carried import CarriedParts
from .cell import Cell
from .collisions import collision_world, obstacles_of
from .continuous import STEP, ContinuousReport, check_trajectory

__all__ = ["holding_world", "check_holding", "check_carrying", "check_live", "new_world",
           "tip_links"]


@lru_cache(maxsize=4)
def _geometry(robot):
    return robot_geometry(robot)


def new_world(robot, cell: Cell, held=None, exclude=()) -> CollisionWorld:
    """A new (uncached) collision world of ``robot`` in ``cell``: holding ``held`` =
    (part name, offset (4, 4) in the tool frame) on its tip link, the part left out of the
    obstacles; ``exclude`` the pairs (piece or link name, object name) not checked. A
    planner in a worker thread builds its own: coal's objects inside a world are reused
    between calls, so two threads must not share one."""
    geom = _geometry(robot)
    floor = cell.floor_z if cell.floor else None
    exclude = tuple(tuple(x) for x in exclude)
    if held is None or not cell.object(held[0]).collides:
        rest = cell if held is None else cell.without(held[0])
        return CollisionWorld(robot, obstacles_of(rest), base=cell.base, floor_z=floor,
                              geometry=geom, exclude=exclude)
    part = cell.object(held[0])
    offset = np.asarray(held[1], float).reshape(4, 4)
    attached = Attached(part.name, part.shape, part.size, geom.n_frames - 1,
                        np.asarray(robot.tool, float) @ offset, part.mesh)
    return CollisionWorld(robot, obstacles_of(cell.without(part.name)), base=cell.base,
                          floor_z=floor, geometry=with_attached(geom, attached),
                          exclude=exclude)


def tip_links(robot) -> tuple[str, ...]:
    """Names of the collision pieces' links on the tip body (the gripper's fingers, the
    hand): what touches a part the gripper takes or lets go of."""
    geom = _geometry(robot)
    return tuple(sorted({p.link for p in geom.pieces if p.body == geom.n_frames - 1}))


@lru_cache(maxsize=8)
def _holding_world(robot, cell: Cell, part, offset_key: bytes, exclude: tuple
                   ) -> CollisionWorld:
    offset = np.frombuffer(offset_key).reshape(4, 4)
    return new_world(robot, cell, (part.name, offset), tuple((part.name, x) for x in exclude))


def holding_world(robot, cell: Cell, part: str, offset, exclude=()) -> CollisionWorld:
    """The (cached) collision world of ``robot`` in ``cell`` holding the cell object ``part``
    at ``offset`` (4, 4; its pose in the tool frame): the part rides on the tip link and is
    left out of the obstacles; ``exclude`` names objects not checked against it."""
    obj = cell.object(part)
    if not obj.collides:  # decoration: carried, never checked
        return collision_world(robot, cell.without(part))
    offset = np.ascontiguousarray(np.asarray(offset, float).reshape(4, 4))
    return _holding_world(robot, cell, obj, offset.tobytes(), tuple(sorted(exclude)))


def check_holding(robot, q, cell: Cell, part: str, offset, distance: bool = True,
                  exclude=()) -> CollisionReport:
    """Collisions at q (n,) or (m, n) of ``robot`` in ``cell`` holding ``part`` at ``offset``
    (see :func:`holding_world`); the report of
    :func:`~robogui.session.planning_scene.collisions.check_collisions`, the part's contacts
    named by the part's name."""
    return holding_world(robot, cell, part, offset, exclude).check(q, distance=distance)


def check_live(robot, q, cell: Cell | None, held=None, distance: bool = True
               ) -> CollisionReport:
    """The live check while the user drives: ``robot`` at q (n,) or (m, n) in ``cell``,
    holding ``held`` (a :class:`~.carried.HeldPart`, e.g. ``session.held``, or None: the
    plain :func:`~.collisions.check_collisions`). The part touching what it was lifted from
    (deeper than :data:`~.carried.SUPPORT_GAP` neither) is not a contact: it still stands
    there."""
    from .carried import SUPPORT_GAP
    from .collisions import check_collisions

    if held is None or cell is None:
        return check_collisions(robot, q, cell, distance=distance)
    rep = check_holding(robot, q, cell, held.name, held.offset, distance=True)
    single = np.ndim(rep.colliding) == 0
    pairs, depths = ([rep.pairs], [rep.depths]) if single else (rep.pairs, rep.depths)
    keep_p, keep_d = [], []
    for ps, ds in zip(pairs, depths, strict=True):
        kept = [(p, d) for p, d in zip(ps, ds, strict=True)
                if not (held.name in p and (p[1] if p[0] == held.name else p[0])
                        in held.lifted_from and d <= SUPPORT_GAP)]
        keep_p.append([p for p, _ in kept])
        keep_d.append([d for _, d in kept])
    colliding = np.array([bool(p) for p in keep_p])
    if single:
        return CollisionReport(bool(colliding[0]), rep.distance, keep_p[0], keep_d[0],
                               rep.nearest)
    return CollisionReport(colliding, rep.distance, keep_p, keep_d, rep.nearest)


def _phases(carried: CarriedParts, k: int) -> list[tuple[int, int, object]]:
    """(first sample, last sample, hold or None) of the stretches between grasps and
    releases, in order; neighbours share their boundary sample."""
    out, start = [], 0
    for h in carried.holds:
        end = k - 1 if h.i_release is None else h.i_release
        if h.i_grasp > start:
            out.append((start, h.i_grasp, None))
        out.append((h.i_grasp, end, h))
        start = end
    if start < k - 1 or not out:
        out.append((start, k - 1, None))
    return out


def _exempt(report: ContinuousReport, part: str, objects: tuple, at_start: bool) -> list:
    """The contacts of ``part`` with ``objects`` in contact at the stretch's first checked
    instant (``at_start``) or at its last."""
    edge = report.t[0] if at_start else report.t[-1]
    out = []
    for c in report.contacts:
        other = c.pair[1] if c.pair[0] == part else c.pair[0] if c.pair[1] == part else None
        if other in objects and (c.t_start if at_start else c.t_end) == edge:
            out.append(c)
    return out


def _recheck(rep: ContinuousReport, drop: list, quiet: CollisionWorld, distances: bool
             ) -> ContinuousReport:
    """``rep`` without the contacts ``drop``: their states checked again in ``quiet`` (the
    same world without those pairs), so verdicts and clearances agree."""
    if not drop:
        return rep
    mask = np.zeros(len(rep.t), bool)
    for c in drop:
        mask |= (rep.t >= c.t_start) & (rep.t <= c.t_end)
    idx = np.flatnonzero(mask)
    again = quiet.check(rep.q[idx], distance=distances)
    rep.colliding = rep.colliding.copy()
    rep.colliding[idx] = again.colliding
    if distances and rep.clearance is not None:
        rep.clearance = rep.clearance.copy()
        rep.clearance[idx] = again.distance
    rep.contacts = [c for c in rep.contacts if all(c is not d for d in drop)]
    return rep


def _check_hold(robot, t, q, cell, hold, step, distances) -> ContinuousReport:
    """One stretch in which ``hold``'s part is in the gripper, the lift-off and put-down
    contacts with what it stands on taken out (see the module docstring)."""
    world = holding_world(robot, cell, hold.part, hold.offset)
    rep = check_trajectory(robot, t, q, step=step, distances=distances, world=world)
    drop = _exempt(rep, hold.part, hold.lifted_from, True) \
        + _exempt(rep, hold.part, hold.put_on, False)
    if not drop:
        return rep
    quiet = holding_world(robot, cell, hold.part, hold.offset,
                          exclude=set(hold.lifted_from) | set(hold.put_on))
    return _recheck(rep, drop, quiet, distances)


@lru_cache(maxsize=8)
def _quiet_world(robot, cell: Cell, exclude: tuple) -> CollisionWorld:
    return CollisionWorld(robot, obstacles_of(cell), base=cell.base,
                          floor_z=cell.floor_z if cell.floor else None,
                          geometry=_geometry(robot), exclude=exclude)


def _check_free(robot, t, q, cell, before, after, step, distances) -> ContinuousReport:
    """A stretch with nothing in the gripper, between the release of ``before`` and the
    grasp of ``after`` (holds or None): the tip link's contacts with the part it lets go of
    (from the stretch's start) and with the part it reaches for (up to its end) are the
    gripper at work, taken out."""
    rep = check_trajectory(robot, t, q, cell, step=step, distances=distances)
    tip = tip_links(robot)
    drop, pairs = [], set()
    for hold, at_start in ((before, True), (after, False)):
        if hold is None or hold.part not in cell.names:
            continue
        for link in tip:
            drop += _exempt(rep, link, (hold.part,), at_start)
            pairs.add((link, hold.part))
    if not drop:
        return rep
    return _recheck(rep, drop, _quiet_world(robot, cell, tuple(sorted(pairs))), distances)


def check_carrying(robot, t, q, carried: CarriedParts, step: float = STEP,
                   distances: bool = False) -> ContinuousReport:
    """Check the motion through ``q`` (k, n) at ``t`` (k,) continuously while the tool grasps,
    carries and releases parts as ``carried`` says (a compiled program's
    :class:`~.carried.CarriedParts`). The report is :func:`.continuous.check_trajectory`'s,
    over the whole trajectory: contacts by start time (a held part's named by the part's
    name), the checked instants, verdicts, clearances with ``distances``."""
    t = np.asarray(t, float).reshape(-1)
    q = np.asarray(q, float).reshape(len(t), robot.n)
    parts = []
    phases = _phases(carried, len(t))
    for n, (a, b, hold) in enumerate(phases):
        ts, qs = t[a:b + 1], q[a:b + 1]
        if hold is None:
            cell = carried.cell_at(float(t[a]))
            before = phases[n - 1][2] if n else None
            after = phases[n + 1][2] if n + 1 < len(phases) else None
            rep = _check_free(robot, ts, qs, cell, before, after, step, distances)
        else:
            cell = carried.cell_at(hold.t_grasp, without_held=False)  # part as grasped
            rep = _check_hold(robot, ts, qs, cell, hold, step, distances)
        parts.append((a, rep))
    return _joined(parts, t)


def _joined(parts, t) -> ContinuousReport:
    """One report of the stretches' reports (a stretch's first instant, shared with the one
    before, counted once); contact sample indices made the whole trajectory's."""
    from dataclasses import replace

    ts, qs, hit, clear, contacts = [], [], [], [], []
    max_step, checked = 0.0, 0
    for n, (a, rep) in enumerate(parts):
        cut = 1 if n else 0  # the first instant is the previous stretch's last
        ts.append(rep.t[cut:])
        qs.append(rep.q[cut:])
        hit.append(rep.colliding[cut:])
        if rep.clearance is not None:
            clear.append(rep.clearance[cut:])
        contacts += [replace(c, index=min(c.index + a, len(t) - 1)) for c in rep.contacts]
        max_step = max(max_step, rep.max_step)
        checked += len(rep.t) - cut
    contacts.sort(key=lambda c: (c.t_start, c.pair))
    clearance = np.concatenate(clear) if clear and len(clear) == len(parts) else None
    return ContinuousReport(contacts, np.concatenate(ts), np.concatenate(qs),
                            np.concatenate(hit), max_step, clearance,
                            {"samples": len(t), "checked": checked})
