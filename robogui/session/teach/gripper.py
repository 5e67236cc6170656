"""A compiled program's grasp and release steps: which part is held from when to when.

:func:`carry_parts` walks the program's steps along the compiled trajectory: at a grasp it
takes the part's pose in the tool frame (``offset = inv(base @ T_tcp(q)) @ T_part``); at the
release it puts the part down where the tool has brought it. The result is the cell's state
along the program (:class:`~robogui.session.planning_scene.carried.CarriedParts`) and the
problems pre-flight lists (kind "gripper"): a grasp of an object that is not in the cell, a
grasp while something is held, a release with nothing held, a part out of reach
(:data:`~robogui.session.planning_scene.carried.GRASP_REACH` of the tool centre point).
"""

from __future__ import annotations

import math

import numpy as np

from robogui.engine.bounds import MAX_SAMPLES

from ..planning_scene.carried import (
    GRASP_REACH,
    CarriedParts,
    CarryingTrajectory,
    Hold,
    supports_of,
    tcp_distance,
)
from .program import Problem, Program, ProgramError

__all__ = ["carry_parts", "gripper_pause", "GRASP_REACH"]


def gripper_pause(moves, i: int, q, dt: float, build, problems: list
                  ) -> tuple[float, float, int, int]:
    """Step ``i`` of ``moves``, a grasp or release, appended to the compiler's ``build``:
    the arm waits at ``q`` (n,) for the step's duration (nothing without one). Returns its
    span (t_start, t_end, i_start, i_end). A blend radius of the move before it is said to be
    ignored (an info problem): the arm stops to work the gripper."""
    move = moves[i]
    t0, i0 = build.time, build.count - 1
    if move.duration:
        k = max(2, int(math.ceil(move.duration / dt - 1e-9)) + 1)
        if build.count + k > MAX_SAMPLES:
            raise ProgramError(f"step {i + 1}: the program would have more than "
                               f"{MAX_SAMPLES} samples at dt = {dt:g} s")
        t = np.linspace(0.0, move.duration, k)
        qs = np.tile(np.asarray(q, float), (k, 1))
        build.add(t, qs, np.zeros_like(qs), np.zeros_like(qs))
    before = moves[i - 1] if i else None
    if before is not None and not before.is_gripper and before.blend_radius > 0:
        problems.append(Problem(t0, i0, i - 1, "info",
                                f"move {i} ({before.kind} to {before.target}): its blend "
                                f"radius is ignored: the arm stops for the {move.kind}",
                                kind="blend"))
    return t0, build.time, i0, build.count - 1


def _error(seg, message: str, severity: str = "error") -> Problem:
    return Problem(seg.t_start, seg.i_start, seg.move_index, severity, message, "gripper")


def carry_parts(program: Program, robot, trajectory, segments, cell, problems: list
                ) -> tuple[object, CarriedParts | None]:
    """The holds of ``program``'s grasp and release steps along ``trajectory`` (its ``t``
    (k,), ``q`` (k, n)), located by the compiled ``segments``, in ``cell`` (a Cell, or None).

    Returns (the trajectory, as a CarryingTrajectory when a part is carried; CarriedParts or
    None without a cell or a valid grasp) and appends what is wrong to ``problems``. A step
    happens at its segment's start (the arm is still there during a gripper's duration).
    Without a cell nothing is carried and each grasp gets a warning.
    """
    from robogui.engine.kinematics.kinematics import fkine

    steps = {seg.move_index: seg for seg in segments}
    holds: list[Hold] = []
    held: dict | None = None  # the open hold's fields
    holding: str | None = None  # what the program's steps say is in the gripper
    poses: dict[str, np.ndarray] = {}  # parts put down elsewhere: their world pose
    base = cell.base if cell is not None else np.eye(4)
    for j, move in enumerate(program.moves):
        if not move.is_gripper or j not in steps:
            continue
        seg = steps[j]
        i = min(seg.i_start, len(trajectory.t) - 1)
        tcp = base @ np.asarray(fkine(robot, np.asarray(trajectory.q[i], float)))
        label = f"step {j + 1} ({move.describe()})"
        if move.kind == "release":
            if holding is None:
                problems.append(_error(seg, f"{label}: nothing is held to release"))
                continue
            holding = None
            if held is not None:  # a part of the cell: it stays where the tool put it
                T = tcp @ held["offset"]
                poses[held["part"]] = T
                holds.append(Hold(**held, release_step=j, t_release=float(seg.t_start),
                                  i_release=i, released=T,
                                  put_on=supports_of(cell, held["part"], T, poses=poses)))
                held = None
            continue
        if holding is not None:
            problems.append(_error(seg, f"{label}: the gripper already holds {holding!r} "
                                        "(release it first)"))
            continue
        holding = move.part
        if cell is None:
            problems.append(_error(seg, f"{label}: no work cell is open, so nothing is "
                                        "grasped (open the cell the program was taught in)",
                                   "warning"))
            continue
        if move.part not in cell.names:
            problems.append(_error(seg, f"{label}: the cell has no object {move.part!r} "
                                        f"(objects: {', '.join(cell.names) or 'none'})"))
            continue
        obj = cell.object(move.part)
        T_part = poses.get(move.part, obj.T)
        d = tcp_distance(obj, tcp[:3, 3], T_part)
        if d > GRASP_REACH:
            problems.append(_error(seg, f"{label}: {move.part!r} is out of reach, "
                                        f"{d * 1e3:.0f} mm from the tool centre point "
                                        f"(a grasp reaches {GRASP_REACH * 1e3:.0f} mm)"))
            continue
        held = dict(part=move.part, grasp_step=j, t_grasp=float(seg.t_start), i_grasp=i,
                    offset=np.linalg.inv(tcp) @ T_part,
                    lifted_from=supports_of(cell, move.part, T_part, poses=poses))
    if held is not None:
        holds.append(Hold(**held))
    if cell is None or not holds:
        return trajectory, None
    carried = CarriedParts(cell, tuple(holds))
    return CarryingTrajectory.of(trajectory, carried), carried
