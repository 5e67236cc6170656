"""Collision-free joint paths: ``plan_path(robot, q_start, q_goal, cell)``.

The planner is OMPL's RRT-Connect in the box of the robot's joint limits; its path is then
shortened by OMPL's own simplifier (vertex reduction, shortcutting, B-spline smoothing, each
change checked). What "collision-free" means is the pre-flight check's: a straight joint
segment is checked at states so close together that no point of any link moves more than
``step`` (2 mm) between two of them (the lever bound of
:mod:`robogui.session.planning_scene.continuous`), every state batched into one call of the
cell's collision world, against the cell's objects, the floor and the robot itself. OMPL asks
a :class:`_SegmentValidator` (an OMPL ``MotionValidator``) about every segment it wants; the
segment's states are checked from coarse to fine (every 64th, every 8th, then the rest), so a
blocked segment is usually refused after a small part of the work, and a clear state far from
everything also clears its neighbours (no two bodies meet while every point moves less than
half the clearance), so only the states near something are checked one by one. Every segment of the
returned path was accepted by that validator (RRT-Connect's edges and each shortcut the
simplifier kept), so the path passes
:func:`~robogui.session.planning_scene.continuous.check_trajectory` (the tests check it).

A straight path that is already clear is returned as it is (two waypoints), without planning.
With ``seed`` the planner's random numbers (OMPL's seed) are fixed, so the same request gives
the same path; OMPL's seed is process-wide, so plans are made one at a time (a lock).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from robogui.engine.collision_detection.checker import CollisionWorld

from ..planning_scene.collisions import obstacles_of
from ..planning_scene.continuous import STEP, levers

__all__ = ["plan", "plan_path", "PlannedPath", "PlanningError", "NoPathFound",
           "PlanningCancelled", "DEFAULT_TIMEOUT", "MAX_TIMEOUT"]

#: planning time budget when none is given (s)
DEFAULT_TIMEOUT = 5.0
#: the longest budget accepted (s): a typo of 1e9 must not hang a session
MAX_TIMEOUT = 600.0
#: a segment's states are checked in rounds: every 64th (with clearances), every 8th of
#: those left (with clearances), then the rest (verdicts). On the sample cell's problems one
#: coarse round of every 8th, 16th or 32nd state took 3x, 2x and 1.3x as long as this
_ROUNDS_OF_CHECKS = (64, 8, 1)
#: a clearance counts this much less (m): coal's distances are exact to ~1e-6 m
_MARGIN = 1e-4
#: a joint value may sit this far outside its limits (rounding of a taught waypoint)
_LIMIT_TOL = 1e-9
#: rounds of the simplifier's shortcutting at most
_ROUNDS = 2  # a third and fourth round shortened the demo paths by 2 % more
_LOCK = threading.Lock()


class PlanningError(ValueError):
    """A path that cannot be planned: a start or goal in collision or outside the joint
    limits, a bad argument. The message is for the user."""


class NoPathFound(PlanningError):
    """The planner found no collision-free path within its time budget (``timeout`` s)."""

    def __init__(self, message: str, timeout: float):
        super().__init__(message)
        self.timeout = timeout


class PlanningCancelled(PlanningError):
    """Planning was stopped by its ``cancel`` callback before it found a path."""


@dataclass(frozen=True)
class PlannedPath:
    """What :func:`plan` found.

    q : (k, n) joint waypoints from start to goal (rad, m), k >= 2; the straight joint
        segments between them are collision-free.
    planned : False when the straight path from start to goal was already clear (q is the
        two ends).
    raw_count : waypoints of the planner's path before simplification.
    plan_time, simplify_time : seconds spent by RRT-Connect and by the simplifier.
    checked_states : collision states checked (segments and single states).
    """

    q: np.ndarray
    planned: bool
    raw_count: int
    plan_time: float
    simplify_time: float
    checked_states: int


class _Segments:
    """Straight joint segments of one robot in one cell, checked continuously."""

    def __init__(self, robot, cell, step: float, world=None):
        self.robot, self.step = robot, step
        # a world of its own, not the cached one: planning runs in a worker thread while
        # the GUI thread may check the same robot and cell (coal's transforms are reused
        # inside a world between calls, so two threads must not share one)
        self.world = _own_world(robot, cell) if world is None else world
        lever, revolute = levers(robot, self.world)
        # a point moves at most  sum_k |dQ_k| * weight_k  for a joint step dQ of the chain
        self.weight = np.where(revolute, lever, 1.0)
        cp = robot.coupling
        self.E = None if cp is None else np.asarray(cp.E, float)
        self.checked = 0
        #: after this perf_counter instant every segment is refused unchecked: the planner
        #: and the simplifier then stop within one check of their budget (a refused
        #: shortcut only keeps the longer path, so this never lets a contact through)
        self.deadline = math.inf

    def bound(self, qa: np.ndarray, qb: np.ndarray) -> float:
        """Largest motion (m) of any link point along the straight segment qa -> qb."""
        dq = qb - qa
        dQ = np.abs(dq if self.E is None else self.E @ dq)
        return float(dQ @ self.weight)

    def state_clear(self, q: np.ndarray) -> bool:
        self.checked += 1
        return not bool(self.world.check(q[None], distance=False).colliding[0])

    def clear(self, qa: np.ndarray, qb: np.ndarray) -> bool:
        """True when every state of the segment after ``qa`` (its end included) is free of
        contact, checked every ``step`` of link-point motion (``qa`` is taken as checked).

        The states are ``k`` = bound / step apart, checked in rounds from coarse to fine
        (every 64th and both ends, then every 8th of those left, then the rest). A state
        in contact refuses the segment at once. A clear state of a coarse round comes with
        its clearance d (the smallest distance over all pairs), and no two bodies can meet
        while every link point moves less than d / 2 (two robot links may both move), so
        it also clears its neighbours within that motion; the last round checks what is
        left one state at a time (batched), as :func:`check_trajectory` would."""
        if time.perf_counter() > self.deadline:
            return False
        B = self.bound(qa, qb)
        k = max(1, math.ceil(B / self.step))
        j = np.arange(0, k + 1)
        left = np.ones(k + 1, bool)
        left[0] = False  # qa: checked before
        for spacing in _ROUNDS_OF_CHECKS:
            pick = left & ((j % spacing == 0) | (j == k)) if spacing > 1 else left
            idx = j[pick]
            if not len(idx):
                continue
            left[idx] = False
            with_distance = spacing > 1
            self.checked += len(idx)
            report = self.world.check(qa + (idx / k)[:, None] * (qb - qa),
                                      distance=with_distance)
            if np.any(report.colliding):
                return False
            if with_distance and B > 0:
                # state i is cleared by state c when 2 |i - c| B / k < d_c - margin
                reach = np.floor((np.asarray(report.distance) - _MARGIN) * k / (2.0 * B))
                for c, r in zip(idx, reach, strict=True):
                    if r >= 1:
                        left[max(0, int(c - r)):min(k, int(c + r)) + 1] = False
            if not left.any():
                break
        return True


def _own_world(robot, cell) -> CollisionWorld:
    """A new collision world of ``robot`` in ``cell`` (None: the robot alone), built as
    :func:`~robogui.session.planning_scene.collisions.collision_world` builds its own."""
    if cell is None:
        return CollisionWorld(robot)
    return CollisionWorld(robot, obstacles_of(cell), base=cell.base,
                          floor_z=cell.floor_z if cell.floor else None)


def _checked_q(robot, q, what: str) -> np.ndarray:
    try:
        arr = np.array(q, dtype=float).reshape(-1)
    except (TypeError, ValueError, OverflowError):
        raise PlanningError(f"{what} must be {robot.n} joint values, got {q!r}") from None
    if arr.shape != (robot.n,) or not np.all(np.isfinite(arr)):
        raise PlanningError(f"{what} must be {robot.n} finite joint values, got {q!r}")
    try:
        lim = robot.qlim
    except ValueError as exc:  # a prismatic joint without limits: no box to plan in
        raise PlanningError(f"the planner needs every joint's limits: {exc}") from exc
    bad = np.flatnonzero((arr < lim[:, 0] - _LIMIT_TOL) | (arr > lim[:, 1] + _LIMIT_TOL))
    if len(bad):
        j = int(bad[0])
        raise PlanningError(f"{what}: joint {j + 1} is {arr[j]:.4g}, outside its limits "
                            f"[{lim[j, 0]:.4g}, {lim[j, 1]:.4g}]")
    return np.clip(arr, lim[:, 0], lim[:, 1])


def _refuse_contact(world, q: np.ndarray, what: str) -> None:
    report = world.check(q, distance=True)
    if not report.colliding:
        return
    pairs = list(dict.fromkeys(tuple(p) for p in report.pairs))  # pieces repeat a pair
    said = "; ".join(f"{a} touches {b}" for a, b in pairs) or "a contact"
    raise PlanningError(f"the {what} is in collision ({said}); move it clear before "
                        "planning")


def _check_budget(timeout) -> float:
    try:
        x = float(timeout)
    except (TypeError, ValueError, OverflowError):
        raise PlanningError(f"timeout must be a number of seconds, got {timeout!r}") from None
    if not (0.0 < x <= MAX_TIMEOUT):
        raise PlanningError(f"timeout must be in (0, {MAX_TIMEOUT:g}] s, got {timeout!r}")
    return x


def _validator_classes():
    """OMPL's validity checker and motion validator, subclassed (OMPL is imported here, on
    first use, not when robogui is)."""
    from ompl import base as ob

    class StateChecker(ob.StateValidityChecker):
        def __init__(self, si, segments, n):
            super().__init__(si)
            self.segments, self.n = segments, n

        def isValid(self, state):  # noqa: N802 - OMPL's name
            return self.segments.state_clear(np.array([state[i] for i in range(self.n)]))

    class SegmentValidator(ob.MotionValidator):
        def __init__(self, si, segments, n):
            super().__init__(si)
            self.segments, self.n = segments, n

        def checkMotion(self, s1, s2, *_last_valid):  # noqa: N802 - OMPL's name
            a = np.array([s1[i] for i in range(self.n)])
            b = np.array([s2[i] for i in range(self.n)])
            return self.segments.clear(a, b)

    return StateChecker, SegmentValidator


def plan(robot, q_start, q_goal, cell=None, timeout: float = DEFAULT_TIMEOUT,
         seed: int | None = None, *, simplify_timeout: float | None = None,
         cancel=None, step: float = STEP, world=None) -> PlannedPath:
    """Plan a collision-free joint path of ``robot`` from ``q_start`` (n,) to ``q_goal`` (n,)
    in ``cell`` (a :class:`~robogui.session.planning_scene.cell.Cell`, or None for the
    robot alone: self-collisions only). See :func:`plan_path`; this returns the
    :class:`PlannedPath` with its figures. ``simplify_timeout`` s bounds the simplifier
    (default: half of ``timeout``, at most 2 s); ``cancel()`` is asked between planner
    iterations, True stops with :class:`PlanningCancelled`. ``world``: a collision world
    of the caller's own making used instead of the cell's (a part held on the tool; see
    :func:`~robogui.session.planning_scene.carrying.new_world`), never shared with
    another thread.
    """
    timeout = _check_budget(timeout)
    simplify_budget = (min(2.0, 0.5 * timeout) if simplify_timeout is None
                       else _check_budget(simplify_timeout))
    if not (step > 0 and math.isfinite(step)):
        raise PlanningError(f"step must be a positive length in metres, got {step!r}")
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise PlanningError(f"seed must be a non-negative integer, got {seed!r}")
    qa = _checked_q(robot, q_start, "the start")
    qb = _checked_q(robot, q_goal, "the goal")
    try:
        segments = _Segments(robot, cell, step, world)
    except ValueError as exc:  # a cell mesh that cannot be read
        raise PlanningError(str(exc)) from exc
    _refuse_contact(segments.world, qa, "start")
    _refuse_contact(segments.world, qb, "goal")
    if segments.clear(qa, qb):
        return PlannedPath(np.vstack([qa, qb]), False, 2, 0.0, 0.0, segments.checked)
    try:
        import ompl.geometric  # noqa: F401 - the planner itself (PyPI ompl)
    except ImportError as exc:
        raise PlanningError("planning needs OMPL's Python bindings: pip install 'ompl>=2.0' "
                            f"({exc})") from exc
    with _LOCK:
        q, raw, t_plan, t_simp = _ompl_plan(robot, segments, qa, qb, timeout,
                                            simplify_budget, seed, cancel)
    q[0], q[-1] = qa, qb
    return PlannedPath(q, True, raw, t_plan, t_simp, segments.checked)


def _ompl_plan(robot, segments, qa, qb, timeout, simplify_budget, seed, cancel):
    from ompl import base as ob
    from ompl import geometric as og
    from ompl import util as ou

    n = robot.n
    level = ou.getLogLevel()
    ou.setLogLevel(ou.LOG_NONE)  # OMPL's notes go to stdout; its failures become our errors
    try:
        if seed is not None:
            ou.RNG.setSeed(int(seed) + 1)  # OMPL takes 0 as "no seed"
        space = ob.RealVectorStateSpace(n)
        bounds = ob.RealVectorBounds(n)
        lim = robot.qlim
        for j in range(n):
            bounds.setLow(j, float(lim[j, 0]))
            bounds.setHigh(j, float(lim[j, 1]))
        space.setBounds(bounds)
        si = ob.SpaceInformation(space)
        StateChecker, SegmentValidator = _validator_classes()
        checker = StateChecker(si, segments, n)
        validator = SegmentValidator(si, segments, n)
        si.setStateValidityChecker(checker)
        si.setMotionValidator(validator)
        si.setup()
        ss = og.SimpleSetup(si)
        start, goal = si.allocState(), si.allocState()
        for j in range(n):
            start[j], goal[j] = float(qa[j]), float(qb[j])
        ss.setStartAndGoalStates(start, goal)
        ss.setPlanner(og.RRTConnect(si))  # its default range (a fifth of the joint box's
        # diagonal) beat 1.0 and 0.5 rad on the Puma and six-joint cells (benchmarks/)
        deadline = time.monotonic() + timeout
        segments.deadline = time.perf_counter() + timeout
        stopped = []

        def stop() -> bool:
            if cancel is not None and cancel():
                stopped.append(True)
                return True
            return time.monotonic() > deadline

        t0 = time.perf_counter()
        ss.solve(ob.PlannerTerminationCondition(stop))
        t_plan = time.perf_counter() - t0
        if not ss.haveExactSolutionPath():
            if stopped:
                raise PlanningCancelled("planning was cancelled before a path was found")
            raise NoPathFound(
                f"no collision-free path found within {timeout:g} s (RRT-Connect); the goal "
                "may be enclosed, or give the planner more time", timeout)
        raw = ss.getSolutionPath().getStateCount()
        t1 = time.perf_counter()
        segments.deadline = t1 + simplify_budget
        path = ss.getSolutionPath()
        _simplify(og.PathSimplifier(si), path, t1 + simplify_budget)
        t_simp = time.perf_counter() - t1
        q = np.array([[path.getState(i)[j] for j in range(n)]
                      for i in range(path.getStateCount())])
        ss.clear()
        segments.deadline = math.inf
        return q, raw, t_plan, t_simp
    finally:
        ou.setLogLevel(level)


def _simplify(simplifier, path, deadline: float) -> None:
    """OMPL's simplifier steps, in rounds until nothing changes (at most ``_ROUNDS``, and
    none started after ``deadline``, perf_counter s): shortcuts between random points of
    the path (``partialShortcutPath``), then dropping the waypoints that a straight segment
    can skip (``reduceVertices``, ``collapseCloseVertices``). OMPL's one-call ``simplify``
    also smooths with B-splines, which leaves dozens of waypoints: a taught program wants
    few via points."""
    simplifier.reduceVertices(path)
    simplifier.collapseCloseVertices(path)
    for _ in range(_ROUNDS):
        if time.perf_counter() > deadline:
            break
        changed = simplifier.partialShortcutPath(path)
        changed = simplifier.reduceVertices(path) or changed
        changed = simplifier.collapseCloseVertices(path) or changed
        if not changed:
            break


def plan_path(robot, q_start, q_goal, cell=None, timeout: float = DEFAULT_TIMEOUT,
              seed: int | None = None) -> np.ndarray:
    """A collision-free joint path of ``robot`` from ``q_start`` to ``q_goal``.

    q_start, q_goal : (n,) joint values (rad, m) within the joint limits.
    cell : the work cell (:class:`~robogui.session.planning_scene.cell.Cell`, its objects,
        floor and base pose), or None for the robot alone. Self-collisions always count.
    timeout : the planner's time budget (s); the simplifier gets up to half of it more
        (at most 2 s).
    seed : fixes OMPL's random numbers (a non-negative integer): the same request then
        gives the same path.

    Returns the waypoints (k, n), k >= 2, from ``q_start`` to ``q_goal`` exactly, within the
    joint limits, whose straight joint segments are collision-free when checked
    continuously (no link point moves more than 2 mm between checks). A straight path that
    is already clear comes back as its two ends. Planned with OMPL's RRT-Connect, then
    OMPL's path simplifier.

    Raises :class:`PlanningError` naming the pair when the start or goal is in collision (or
    naming the joint outside its limits), and :class:`NoPathFound` when the planner finds
    nothing within ``timeout``.

    >>> import robogui as rg
    >>> puma = rg.load_robot("puma560")
    >>> rg.plan_path(puma, puma.pose("qz"), puma.pose("qr")).shape  # nothing in the way
    (2, 6)
    """
    return plan(robot, q_start, q_goal, cell, timeout, seed).q
