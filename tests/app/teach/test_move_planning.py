"""Issue 25 item 5 in the app: a person plans a colliding joint move around the cell from the
Program dock, sees the plan as a ghost and a path line, accepts it as one undo step, or
cancels; a plan that cannot be found is said in words. Real GL under Xvfb."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from robogui.session.planning_scene.cell_file import load_cell
from robogui.session.teach.program import Move, Program
from tests.app.teach.test_teach import click_dock_tab, press_ctrl
from tests.session.motion_planning.test_planner import ABOVE_A, ABOVE_B, ROOT, WALL, _cut_off

CYAN = np.array([0x63, 0xD4, 0xFF])  # the preview's colour (GHOST_COLORS["selected"])


@pytest.fixture
def planning(qtbot, window, session):
    """The window with the walled sample cell and a program whose move 2 hits the wall."""
    cell = load_cell(ROOT / "assets" / "cells" / "pick-and-place.cell").with_object(WALL)
    session.set_cell(cell)
    session.set_q(ABOVE_A)
    prog = Program(name="over the wall", robot="puma560")
    prog = prog.add_waypoint(ABOVE_A, "above_A").add_waypoint(ABOVE_B, "above_B")
    prog = prog.insert_move(Move("joint", "above_A")).insert_move(Move("joint", "above_B"))
    window.teach.state.set_program(prog, modified=False)
    press_ctrl(qtbot, window, QtCore.Qt.Key.Key_2)  # the Teach task
    click_dock_tab(qtbot, window, "Program")
    planner = window.teach.planner
    planner.seed, planner.timeout = 3, 8.0
    return planner


def _select_move(qtbot, panel, row: int) -> None:
    lst = panel.move_list
    item = lst.item(row)
    lst.scrollToItem(item)
    qtbot.mouseClick(lst.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=lst.visualItemRect(item).center())
    assert panel.selected_move() == row


def _menu_action(window, text: str):
    for top in window.file_menu.actions():
        sub = top.menu()
        if sub is None:
            continue
        for act in sub.actions():
            if act.text().replace("&", "") == text:
                return act
    raise AssertionError(f"no File menu action {text!r}")


def _cyan_pixels(img: np.ndarray) -> int:
    return int(np.sum(np.all(np.abs(img.astype(int) - CYAN) < 40, axis=2)))


def test_plan_preview_accept_and_undo(qtbot, window, planning):
    panel, state = window.teach.program, window.teach.state
    before_prog = state.program
    _select_move(qtbot, panel, 1)
    assert planning.plan_button.isEnabled()
    qtbot.wait(50)
    before = window.view.grab_array()
    _menu_action(window, "Plan around the cell\u2026").trigger()
    assert planning.state == "planning" and planning.progress.isVisible()
    qtbot.waitUntil(lambda: planning.state != "planning", timeout=60_000)
    assert planning.state == "preview", planning.message
    vias = planning.result.vias
    assert vias and "collision-free path through" in planning.message
    # shown, not yet kept: ghosts at the via waypoints, the tool's path as a line
    assert state.program is before_prog
    assert len(state.ghosts) == len(vias) and window.teach.ghosts.visible_count == len(vias)
    line = planning.line_points
    tcp = window.session.robot.fkine(planning.result.q)[:, :3, 3]  # the tool at the ends
    np.testing.assert_allclose(line[[0, -1]], tcp[[0, -1]], atol=1e-9)
    qtbot.wait(50)
    after = window.view.grab_array()
    assert _cyan_pixels(after) > _cyan_pixels(before) + 50
    assert planning.accept_button.isVisible()
    qtbot.mouseClick(planning.accept_button, QtCore.Qt.MouseButton.LeftButton)
    prog = state.program
    assert prog.moves[1].planned == vias and all(name in prog for name in vias)
    np.testing.assert_array_equal([prog.waypoint(name).q for name in vias],
                                  planning.accepted.q[1:-1])
    assert state.ghosts == [] and len(planning.line_points) == 0
    assert window.undo.stack.undoText() == "Plan around the cell"
    window.act_undo.trigger()  # Edit > Undo
    assert state.program == before_prog and not any(name in state.program for name in vias)
    window.act_redo.trigger()
    assert state.program.moves[1].planned == vias


def test_cancel_leaves_the_program_as_it_was(qtbot, window, planning):
    panel, state = window.teach.program, window.teach.state
    before_prog = state.program
    _select_move(qtbot, panel, 1)
    qtbot.mouseClick(planning.plan_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: planning.state == "preview", timeout=60_000)
    qtbot.mouseClick(planning.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    assert planning.state == "idle" and state.program is before_prog
    assert state.ghosts == [] and "unchanged" in planning.message
    assert planning.plan_button.isVisible()


def test_nothing_found_is_said_in_words(qtbot, window, session, planning):
    state, panel = window.teach.state, window.teach.program
    held = _cut_off(session.robot)  # only joint 1 moves; the wall is in its way
    goal = np.r_[ABOVE_B[0], ABOVE_A[1:]]
    session.set_robot(held, ABOVE_A)
    prog = Program(name="cut off", robot="puma560").add_waypoint(ABOVE_A, "a")
    prog = prog.add_waypoint(goal, "b").insert_move(Move("joint", "a"))
    state.set_program(prog.insert_move(Move("joint", "b")), modified=False)
    planning.timeout = 0.5
    _select_move(qtbot, panel, 1)
    qtbot.mouseClick(planning.plan_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: planning.state == "idle", timeout=30_000)
    assert "no collision-free path found within 0.5 s" in planning.message
    assert planning.label.isVisible() and state.program.moves[1].planned == ()


def test_a_linear_move_cannot_be_planned(qtbot, window, planning):
    state, panel = window.teach.state, window.teach.program
    state.set_program(state.program.insert_move(Move("linear", "above_A")), modified=False)
    _select_move(qtbot, panel, 2)
    assert not planning.plan_button.isEnabled() and not planning.action.isEnabled()
    _select_move(qtbot, panel, 1)
    assert planning.plan_button.isEnabled()


def test_the_pre_flight_check_says_which_joint_move_collides(qtbot, window, planning):
    panel = window.teach.program
    _select_move(qtbot, panel, 0)
    qtbot.mouseClick(panel.check_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Joint move 2 collides" in planning.message, timeout=60_000)
    assert planning.label.isVisible()
    assert any(p.kind == "collision" and p.move_index == 1 for p in window.teach.state.problems)


def test_a_planned_move_whose_wall_is_gone_can_be_made_straight_again(qtbot, window, session,
                                                                      planning):
    state, panel = window.teach.state, window.teach.program
    planned = state.program.set_planned_path(1, [np.r_[0.3, ABOVE_A[1:]]])
    state.set_program(planned, modified=False)
    session.set_cell(session.cell.without("wall"))
    _select_move(qtbot, panel, 1)
    qtbot.mouseClick(planning.plan_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: planning.state == "preview", timeout=60_000)
    assert "straight path is clear now" in planning.message and "above_B~1" in planning.message
    qtbot.mouseClick(planning.accept_button, QtCore.Qt.MouseButton.LeftButton)
    assert state.program.moves[1].planned == () and "above_B~1" not in state.program
    assert "straight again" in planning.message
