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


def test_a_move_after_a_gripper_step_is_refused_and_gripper_steps_do_not_move(puma, walled):
    prog = _program()
    gripped = prog.insert_move(Move("release"), 1)  # between move 1 and the joint move
    np.testing.assert_array_equal(move_start(gripped, 2), ABOVE_A)
    with pytest.raises(PlanningError, match="comes after the gripper step 2"):
        plan_move(gripped, 2, puma, walled)
