"""The cell as a joint move of a teach program finds it, after the program's grasps and
releases: what the planner plans in.

:func:`move_scene` replays the gripper steps before the move, as the compiler does
(:func:`~robogui.session.teach.gripper.carry_parts`) but from the waypoints, without
compiling: a grasp takes the part's pose in the tool frame where the arm then stands (the
target of the last arm move before it); a release leaves the part where the tool holds it.
The move is then planned with the held part riding on the tool, the released parts where
they were put down.

Contacts the gripper makes on purpose are not checked for the move (MoveIt's "touch links"
of an attached object): the held part against what it was lifted from when the grasp comes
right before the move, and against what it is put down on when the release comes right
after; the tip link's pieces (the fingers) against a part let go of right before the move,
or taken right after it. A plan may therefore let the part slide along its support or the
fingers along the part; the pre-flight check, which follows the parts, checks those pairs
again once the part has left them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..planning_scene.carried import GRASP_REACH, object_at, supports_of, tcp_distance
from ..planning_scene.carrying import new_world, tip_links
from .planner import PlanningError

__all__ = ["MoveScene", "move_scene"]


@dataclass(frozen=True)
class MoveScene:
    """The planning problem's world for one move.

    cell : the cell with the parts where the steps before the move left them (None: no cell).
    held : (part name, offset (4, 4): its pose in the tool frame) or None.
    exclude : pairs (piece or link name, object name) not checked during the move.
    changed : True when gripper steps came before the move (the file's cell no longer is
        the move's).
    """

    cell: object
    held: tuple | None = None
    exclude: tuple = ()
    changed: bool = False

    def world(self, robot):
        """A new collision world of ``robot`` for the move, or None when the cell's own
        (unchanged by gripper steps) is the move's."""
        if self.cell is None or not self.changed:
            return None
        return new_world(robot, self.cell, self.held, self.exclude)


def _arm_q(program, j: int, q_start) -> np.ndarray:
    """Where the arm stands at step ``j``: the target of the last arm move before it."""
    before = [m for m in program.moves[:j] if not m.is_gripper]
    if before:
        return program.waypoint(before[-1].target).q
    if q_start is None:
        raise PlanningError("the program starts with a gripper step, where the arm is: "
                            "give q_start")
    return np.asarray(q_start, float).reshape(-1)


def move_scene(program, index: int, robot, cell, q_goal, q_start=None) -> MoveScene:
    """The world of joint move ``index`` (0-based) of ``program`` for ``robot`` in ``cell``
    (a Cell or None); ``q_goal`` (n,) the move's target. PlanningError, naming the step,
    for a gripper step the pre-flight check would refuse (a grasp of an object the cell
    lacks or out of reach, two grasps, a release of nothing)."""
    from robogui.engine.kinematics.kinematics import fkine

    moves = program.moves
    steps = [j for j in range(index) if moves[j].is_gripper]
    if not steps:
        return MoveScene(cell)
    if cell is None:  # nothing is carried without a cell (pre-flight warns)
        return MoveScene(None)
    base = cell.base
    poses: dict[str, np.ndarray] = {}
    held = None  # (part, offset, lifted_from, step)
    released = None  # (part, step) of the last release
    for j in steps:
        move = moves[j]
        tcp = base @ np.asarray(fkine(robot, _arm_q(program, j, q_start)), float)
        label = f"step {j + 1} ({move.describe()})"
        if move.kind == "release":
            if held is None:
                raise PlanningError(f"{label}: nothing is held to release")
            poses[held[0]] = tcp @ held[1]
            released, held = (held[0], j), None
            continue
        if held is not None:
            raise PlanningError(f"{label}: the gripper already holds {held[0]!r}")
        if move.part not in cell.names:
            raise PlanningError(f"{label}: the cell has no object {move.part!r}")
        T_part = poses.get(move.part, cell.object(move.part).T)
        d = tcp_distance(cell.object(move.part), tcp[:3, 3], T_part)
        if d > GRASP_REACH:
            raise PlanningError(f"{label}: {move.part!r} is {d * 1e3:.0f} mm from the tool "
                                f"centre point, out of the gripper's reach")
        held = (move.part, np.linalg.inv(tcp) @ T_part,
                supports_of(cell, move.part, T_part, poses=poses), j)
    now = cell
    for name, T in poses.items():
        now = now.with_object(object_at(now.object(name), T))
    # the gripper steps right before the move (no arm move between) and the one right after
    prev_arm = max([k for k in range(index) if not moves[k].is_gripper], default=-1)
    just_before = set(range(prev_arm + 1, index))
    after = moves[index + 1] if index + 1 < len(moves) else None
    exclude: list[tuple[str, str]] = []
    if held is not None:
        part, offset, lifted, step = held
        if step in just_before:
            exclude += [(part, o) for o in lifted]
        if after is not None and after.kind == "release":
            goal = base @ np.asarray(fkine(robot, q_goal), float) @ offset
            exclude += [(part, o) for o in supports_of(now, part, goal, poses=poses)]
    fingers = tip_links(robot)
    if held is None and released is not None and released[1] in just_before:
        exclude += [(link, released[0]) for link in fingers]
    if held is None and after is not None and after.kind == "grasp" and after.part in now.names:
        exclude += [(link, after.part) for link in fingers]
    return MoveScene(now, None if held is None else (held[0], held[1]),
                     tuple(dict.fromkeys(exclude)), True)
