"""Planning a joint move of a teach program around the work cell.

:func:`plan_move` plans the move from where it starts (the previous move's target, or
``q_start`` for the first move) to its target with :func:`~.planner.plan`, and returns the
program with the path's inner waypoints added as the move's ``planned`` via waypoints
(``<target>~1``, ``<target>~2``, ... by ``Program.set_planned_path``) in one edit, so the
app's undo stack sees one step. Via waypoints of an earlier plan of the same move that no
other move uses are removed in the same edit. The program is immutable: the caller decides
whether to keep the new one (the app shows it as a ghost first). A move after grasp or
release steps is planned in the cell as those steps leave it, the held part on the tool
(:mod:`.held_moves`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..planning_scene.continuous import check_trajectory
from ..teach.program import Program, ProgramError
from .held_moves import move_scene
from .planner import DEFAULT_TIMEOUT, PlanningError, plan

__all__ = ["MovePlan", "plan_move", "move_start", "move_contacts"]


@dataclass(frozen=True)
class MovePlan:
    """What :func:`plan_move` made.

    program : the program with the move planned (the same program when ``planned`` is
        False: the straight path was clear).
    index : the 0-based move.
    q : (k, n) the move's path from its start to its target (rad, m).
    vias : names of the via waypoints added (k - 2 of them).
    planned : False when the straight path was already clear.
    plan_time : seconds the planner and its simplifier took.
    """

    program: Program
    index: int
    q: np.ndarray
    vias: tuple[str, ...]
    planned: bool
    plan_time: float


def _joint_move(program: Program, index: int):
    if not isinstance(index, (int, np.integer)) or not 0 <= index < len(program.moves):
        raise PlanningError(f"move {index!r} does not exist (the program has "
                            f"{len(program.moves)} moves)")
    move = program.moves[index]
    if move.kind != "joint":
        raise PlanningError(f"move {index + 1} is a {move.kind} move; only joint moves are "
                            "planned around the cell (a linear or circular move keeps its "
                            "tool path)")
    return move


def move_start(program: Program, index: int, q_start=None) -> np.ndarray:
    """Where move ``index`` starts (n,): the target of the last move before it that moves
    the arm (gripper steps do not), or ``q_start`` when there is none (PlanningError when
    it is not given)."""
    _joint_move(program, index)
    before = [m for m in program.moves[:index] if not m.is_gripper]  # gripper steps stay put
    if before:
        return program.waypoint(before[-1].target).q.copy()
    if q_start is None:
        raise PlanningError("the first move starts where the arm is: give q_start")
    return np.array(q_start, dtype=float).reshape(-1)


def move_contacts(program: Program, index: int, robot, cell=None, q_start=None) -> list:
    """Contacts (:class:`~robogui.session.planning_scene.continuous.Contact`) along joint
    move ``index`` as it is now (straight, or through its planned waypoints), checked
    continuously; an empty list when it is clear."""
    move = _joint_move(program, index)
    q = np.vstack([move_start(program, index, q_start)]
                  + [program.waypoint(name).q for name in move.planned]
                  + [program.waypoint(move.target).q])
    scene = move_scene(program, index, robot, cell, q[-1], q_start)
    return check_trajectory(robot, np.arange(len(q), dtype=float), q, scene.cell,
                            world=scene.world(robot)).contacts


def plan_move(program: Program, index: int, robot, cell=None, *, q_start=None,
              timeout: float = DEFAULT_TIMEOUT, seed: int | None = None,
              cancel=None) -> MovePlan:
    """Plan joint move ``index`` (0-based) of ``program`` for ``robot`` around ``cell``.

    The move goes from :func:`move_start` (``q_start`` (n,) for the first move) to its
    target. Returns a :class:`MovePlan` whose ``program`` has the via waypoints added and
    the move's ``planned`` set; when the straight path is already clear the program comes
    back unchanged (``planned`` False). Raises :class:`~.planner.PlanningError` (a linear
    move, a start or target in collision, naming the pair) or
    :class:`~.planner.NoPathFound` (nothing within ``timeout`` s), as :func:`~.planner.plan`.
    """
    move = _joint_move(program, index)
    n = program.n_joints
    if n is not None and n != robot.n:
        raise PlanningError(f"the program has {n} joints, the robot {robot.n}")
    qa = move_start(program, index, q_start)
    qb = program.waypoint(move.target).q
    scene = move_scene(program, index, robot, cell, qb, q_start)
    result = plan(robot, qa, qb, scene.cell, timeout, seed, cancel=cancel,
                  world=scene.world(robot))
    spent = result.plan_time + result.simplify_time
    if not result.planned and not move.planned:
        return MovePlan(program, index, result.q, (), False, spent)
    try:
        new = program.set_planned_path(index, result.q[1:-1])
        new = _drop_unused(new, move.planned)
    except ProgramError as exc:
        raise PlanningError(str(exc)) from exc
    return MovePlan(new, index, result.q, new.moves[index].planned, result.planned, spent)


def _drop_unused(program: Program, names) -> Program:
    """The program without those of ``names`` that no move uses any more."""
    for name in names:
        if name in program and not program.moves_using(name):
            program = program.delete_waypoint(name)
    return program
