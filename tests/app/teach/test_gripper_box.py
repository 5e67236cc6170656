"""Issue 24, item 3 in the pendant: the Jog dock's Grasp button takes the part nearest to the
TCP, the part follows the tool while the user jogs, Release leaves it there as a new cell,
each is one undo step and, with Record ticked, a step of the program."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore

from robogui.session.planning_scene.cell_file import load_cell
from robogui.session.teach.program_file import load_program

ROOT = Path(__file__).resolve().parents[3]
CELL = ROOT / "assets" / "cells" / "pick-and-place.cell"
PROG = ROOT / "assets" / "cells" / "pick-and-place.prog"


def click(qtbot, button):
    qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)


@pytest.fixture
def pendant(window, session):
    p = window.teach
    session.set_cell(load_cell(CELL))
    p.docks["jog"].raise_()
    return p


def test_grasp_jog_and_release_in_the_cell_with_undo(qtbot, pendant, session, window):
    box = pendant.gripper
    demo = load_program(PROG)
    cell = session.cell
    part0 = cell.object("part").T
    # far from every part: the button says why nothing was grasped
    session.set_q(demo.waypoint("above_pick").q)
    click(qtbot, box.button)
    assert session.held is None and "no part within 100 mm" in box.label.text()
    assert "'part', is 220 mm away" in box.label.text()  # 0.70 m - 0.48 m
    # 9 cm above the part: Grasp takes it
    session.set_q(demo.waypoint("pick").q)
    n_steps, n_moves = window.undo.stack.count(), len(pendant.state.program.moves)
    click(qtbot, box.button)
    assert session.held is not None and session.held.name == "part"
    assert box.button.text() == "Release"
    assert session.held.lifted_from == ("bin A bottom",)
    np.testing.assert_allclose(session.held.offset[:3, 3], [0.0, 0.0, 0.125], atol=1e-6)
    assert pendant.state.program.moves[-1].describe() == "grasp part"
    assert window.undo.stack.count() == n_steps + 1
    # jog +Z by a step: the part goes up with the tool, exactly
    jog = pendant.jog
    jog.set_frame("world")
    jog.set_mode(0)
    click(qtbot, jog.buttons[("z", 1)])
    up = jog.step_size("z")
    poses = session.object_poses()
    np.testing.assert_allclose(poses["part"], cell.base @ session.T @ session.held.offset,
                               atol=1e-12)
    np.testing.assert_allclose(poses["part"][:3, 3], part0[:3, 3] + [0, 0, up], atol=1e-6)
    # over bin B, Release leaves it there: a new cell, one undo step, a program step
    session.set_q(demo.waypoint("place").q)
    click(qtbot, box.button)
    assert session.held is None and box.button.text() == "Grasp"
    np.testing.assert_allclose(session.cell.object("part").xyz, [0.5, -0.3, 0.445], atol=1e-6)
    assert [m.kind for m in pendant.state.program.moves[n_moves:]] == ["grasp", "release"]
    # undo: back in the gripper, the part's cell pose as before, the release step gone
    window.undo.stack.undo()
    assert session.held is not None and session.cell is cell
    assert [m.kind for m in pendant.state.program.moves[n_moves:]] == ["grasp"]
    for _ in range(3):  # the move to bin B, the jog, the grasp
        window.undo.stack.undo()
    assert session.held is None and len(pendant.state.program.moves) == n_moves
    np.testing.assert_array_equal(session.object_poses()["part"], part0)
    window.undo.stack.redo()
    assert session.held is not None and pendant.state.program.moves[-1].kind == "grasp"


def test_without_a_cell_the_button_waits_for_one(qtbot, window, session):
    box = window.teach.gripper
    session.set_cell(None)
    assert not box.button.isEnabled() and "open a work cell" in box.label.text()
