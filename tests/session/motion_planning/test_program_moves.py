"""Issue 25 item 5 in programs: a joint move whose straight path runs through the cell is
planned around it; the plan becomes the move's planned via waypoints in one edit, and the
compiled program then passes the pre-flight collision check (continuous, 2 mm)."""

from __future__ import annotations

import numpy as np
import pytest

import robogui as rg
from robogui.session.motion_planning.planner import PlanningError
from robogui.session.motion_planning.program_moves import move_contacts, move_start, plan_move
from robogui.session.teach.compile import compile_program
from robogui.session.teach.preflight import collision_problems
from robogui.session.teach.program import Move, Program
from robogui.session.teach.program_file import dumps_program, loads_program
from tests.session.motion_planning.test_planner import ABOVE_A, ABOVE_B, ROOT, WALL


@pytest.fixture(scope="module")
def puma():
    return rg.load_robot("puma560")


@pytest.fixture(scope="module")
def walled():
    from robogui.session.planning_scene.cell_file import load_cell

    return load_cell(ROOT / "assets" / "cells" / "pick-and-place.cell").with_object(WALL)


def _program() -> Program:
    prog = Program(name="over the wall", robot="puma560")
    prog = prog.add_waypoint(ABOVE_A, "above_A").add_waypoint(ABOVE_B, "above_B")
    prog = prog.insert_move(Move("joint", "above_A")).insert_move(Move("joint", "above_B"))
    return prog.insert_move(Move("linear", "above_A"))


def test_planning_the_move_adds_its_via_waypoints_and_preflight_is_clear(puma, walled):
    prog = _program()
    before = move_contacts(prog, 1, puma, walled)  # the wall is in the way
    assert before and {c.pair[1] for c in before} == {"wall"}
    result = plan_move(prog, 1, puma, walled, timeout=10.0, seed=3)
    assert result.planned and result.index == 1
    new = result.program
    vias = new.moves[1].planned
    assert vias == result.vias and len(vias) == len(result.q) - 2 >= 1
    assert all(name.startswith("above_B~") for name in vias)
    for name, q in zip(vias, result.q[1:-1], strict=True):
        np.testing.assert_array_equal(new.waypoint(name).q, q)
    # only that move changed: its neighbours, the other waypoints untouched
    assert new.moves[0] == prog.moves[0] and new.moves[2] == prog.moves[2]
    assert [w for w in new.waypoints if w.name not in vias] == list(prog.waypoints)
    assert not move_contacts(new, 1, puma, walled)
    compiled = compile_program(new, puma, q_start=ABOVE_A)
    # move 2 is clear now (move 3, the linear move back, still goes through the wall)
    left = collision_problems(puma, compiled, walled)
    assert left and {p.move_index for p in left} == {2}
    # the file keeps it
    again = loads_program(dumps_program(new))
    assert again.moves[1].planned == vias


def test_planning_again_replaces_the_earlier_via_waypoints(puma, walled):
    first = plan_move(_program(), 1, puma, walled, timeout=10.0, seed=3).program
    second = plan_move(first, 1, puma, walled, timeout=10.0, seed=4).program
    old = set(first.moves[1].planned) - set(second.moves[1].planned)
    assert old and not (old & set(second.names))
    assert all(name in second for name in second.moves[1].planned)


def test_a_clear_move_comes_back_unchanged(puma, walled):
    prog = _program()
    result = plan_move(prog, 1, puma, walled.without("wall"), timeout=2.0)
    assert not result.planned and result.program is prog and result.vias == ()


def test_moves_that_cannot_be_planned_say_why(puma, walled):
    prog = _program()
    with pytest.raises(PlanningError, match="move 3 is a linear move"):
        plan_move(prog, 2, puma, walled)
    with pytest.raises(PlanningError, match="move 7 does not exist|move 6 does not exist"):
        plan_move(prog, 6, puma, walled)
    with pytest.raises(PlanningError, match="first move starts where the arm is"):
        move_start(prog, 0)
    np.testing.assert_array_equal(move_start(prog, 1), ABOVE_A)


def test_gripper_steps_do_not_move_the_arm(puma, walled):
    prog = _program()
    gripped = prog.insert_move(Move("release"), 1)  # between move 1 and the joint move
    np.testing.assert_array_equal(move_start(gripped, 2), ABOVE_A)
    with pytest.raises(PlanningError, match="step 2 .*nothing is held to release"):
        plan_move(gripped, 2, puma, walled)


def _sample_program():
    from robogui.session.teach.program_file import load_program

    return load_program(ROOT / "assets" / "cells" / "pick-and-place.prog")


def test_a_move_carrying_the_part_is_planned_with_the_part_on_the_tool(puma, walled):
    # the sample program: grasp in bin A, joint move 6 over to bin B with the part, release;
    # a wall between the bins. The move is planned in the cell as the grasp leaves it (the
    # part on the tool, not in bin A), and the compiled program then passes pre-flight,
    # which follows the parts with its own code (carry_parts + check_carrying)
    from robogui.session.motion_planning.held_moves import move_scene

    prog = _sample_program()
    assert prog.moves[5].kind == "joint" and prog.moves[3].kind == "grasp"
    qb = prog.waypoint(prog.moves[5].target).q
    scene = move_scene(prog, 5, puma, walled, qb)
    assert scene.held is not None and scene.held[0] == "part" and scene.changed
    assert "part" in scene.cell.names  # still an object of the cell, carried on the tool
    before = move_contacts(prog, 5, puma, walled)
    assert before and {c.pair[1] for c in before} == {"wall"}
    result = plan_move(prog, 5, puma, walled, timeout=10.0, seed=5)
    assert result.planned and len(result.vias) >= 1
    assert not move_contacts(result.program, 5, puma, walled)
    compiled = compile_program(result.program, puma, q_start=prog.waypoint("home").q)
    left = collision_problems(puma, compiled, walled)
    assert not [p for p in left if p.move_index == 5], left


def test_the_part_held_on_the_tool_is_what_the_planner_keeps_clear(puma, walled):
    # a bar low over the straight path: the arm alone passes above it, the part hanging
    # under the flange does not; so the planner must see the held part
    from robogui.session.motion_planning.held_moves import move_scene
    from robogui.session.planning_scene.cell import CellObject
    from robogui.session.planning_scene.continuous import check_trajectory

    prog = _sample_program()
    qa, qb = prog.waypoint("above_pick").q, prog.waypoint("above_place").q
    cell = _sample_cell()
    scene = move_scene(prog, 5, puma, cell, qb)
    # where the part's underside passes: midway, the part's pose under the tool
    from robogui.engine.kinematics.kinematics import fkine

    mid = cell.base @ np.asarray(fkine(puma, 0.5 * (qa + qb))) @ scene.held[1]
    bar = CellObject("bar", "box", size=(0.6, 0.03, 0.03), xyz=tuple(mid[:3, 3]))
    barred = cell.with_object(bar)
    alone = check_trajectory(puma, [0.0, 1.0], [qa, qb], barred.without("part"))
    carrying = move_contacts(prog, 5, puma, barred)
    assert not any(c.pair[1] == "bar" or c.pair[0] == "bar" for c in alone.contacts)
    assert any("bar" in c.pair and "part" in c.pair for c in carrying)
    result = plan_move(prog, 5, puma, barred, timeout=10.0, seed=2)
    assert result.planned
    compiled = compile_program(result.program, puma, q_start=prog.waypoint("home").q)
    assert not [p for p in collision_problems(puma, compiled, barred) if p.move_index == 5]


def test_a_move_after_the_release_plans_around_the_part_where_it_was_put(puma, walled):
    from robogui.session.motion_planning.held_moves import move_scene

    prog = _sample_program()
    assert prog.moves[9].kind == "joint" and prog.moves[7].kind == "release"
    scene = move_scene(prog, 9, puma, walled, prog.waypoint("home").q)
    assert scene.held is None
    part = scene.cell.object("part")
    # put down in bin B (y = -0.3 m), not where the cell file has it (bin A)
    assert part.xyz[1] < -0.2 and walled.object("part").xyz[1] > 0.2
    result = plan_move(prog, 9, puma, walled, timeout=10.0, seed=1)
    compiled = compile_program(result.program, puma, q_start=prog.waypoint("home").q)
    assert not [p for p in collision_problems(puma, compiled, walled) if p.move_index == 9]


def _sample_cell():
    from robogui.session.planning_scene.cell_file import load_cell

    return load_cell(ROOT / "assets" / "cells" / "pick-and-place.cell")
