"""Undo/redo (Edit menu, Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y, History) through the real widgets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets
from PySide6.QtTest import QTest

from robogui.app import undo
from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import load_robot

LEFT = QtCore.Qt.MouseButton.LeftButton
CTRL = QtCore.Qt.KeyboardModifier.ControlModifier
SHIFT = QtCore.Qt.KeyboardModifier.ShiftModifier


@pytest.fixture
def win(window, session):
    window.activateWindow()
    window.setFocus()
    return window


def stack(win):
    return win.undo.stack


def texts(win):
    s = stack(win)
    return [s.text(i) for i in range(s.count())]


def key(win, k, mods=QtCore.Qt.KeyboardModifier.NoModifier):
    """A shortcut pressed with the focus on the 3D view (not in a text field)."""
    win.view.setFocus()
    QTest.keyClick(win.view, k, mods)


def test_edit_menu_has_undo_redo_history_with_the_shortcuts(win):
    menus = {a.text(): a.menu() for a in win.menuBar().actions()}
    assert list(menus)[:2] == ["&File", "&Edit"]
    acts = [a for a in menus["&Edit"].actions() if not a.isSeparator()]
    assert [a for a in acts if a is win.act_undo] and [a for a in acts if a is win.act_redo]
    assert win.act_history in acts
    assert [s.toString() for s in win.act_undo.shortcuts()] == ["Ctrl+Z"]
    assert [s.toString() for s in win.act_redo.shortcuts()] == ["Ctrl+Shift+Z", "Ctrl+Y"]
    assert not win.act_undo.isEnabled()  # nothing to undo at start


def test_typed_joint_value_is_one_step_undone_by_ctrl_z_redone_by_ctrl_y(qtbot, win, session):
    q0 = session.q.copy()
    spin = win.joint_panel.rows[1].spin
    spin.selectAll()
    QTest.keyClicks(spin, "30")
    QTest.keyClick(spin, QtCore.Qt.Key.Key_Return)
    assert session.q[1] == pytest.approx(math.radians(30))
    assert texts(win) == ["Type q2"]
    key(win, QtCore.Qt.Key.Key_Z, CTRL)
    np.testing.assert_allclose(session.q, q0)
    assert win.joint_panel.rows[1].spin.value() == pytest.approx(math.degrees(q0[1]), abs=0.01)
    key(win, QtCore.Qt.Key.Key_Y, CTRL)
    assert session.q[1] == pytest.approx(math.radians(30))
    key(win, QtCore.Qt.Key.Key_Z, CTRL)
    key(win, QtCore.Qt.Key.Key_Z, CTRL | SHIFT)
    assert session.q[1] == pytest.approx(math.radians(30))


def test_ctrl_z_in_the_field_just_typed_into_undoes_the_step(qtbot, win, session):
    """A person types a value, presses Enter, then Ctrl+Z without leaving the field: the
    step is undone (not the field's text). While typing, Ctrl+Z edits the text."""
    q0 = session.q.copy()
    spin = win.joint_panel.rows[1].spin
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, "30")
    QTest.keyClick(spin, QtCore.Qt.Key.Key_Return)
    assert session.q[1] == pytest.approx(math.radians(30))
    QTest.keyClick(spin, QtCore.Qt.Key.Key_Z, CTRL)
    np.testing.assert_allclose(session.q, q0)
    assert spin.value() == pytest.approx(math.degrees(q0[1]), abs=0.01)
    QTest.keyClick(spin, QtCore.Qt.Key.Key_Z, CTRL | SHIFT)
    assert session.q[1] == pytest.approx(math.radians(30))
    # typing, not committed: Ctrl+Z takes back the keystroke, the session is untouched
    shown = spin.lineEdit().text()
    spin.lineEdit().end(False)
    QTest.keyClicks(spin, "5")
    assert spin.lineEdit().text() == shown + "5"
    QTest.keyClick(spin, QtCore.Qt.Key.Key_Z, CTRL)
    assert spin.lineEdit().text() == spin.textFromValue(spin.value())
    assert session.q[1] == pytest.approx(math.radians(30))
    assert texts(win) == ["Type q2"]


def test_slider_drag_is_one_step(qtbot, win, session):
    q0 = session.q.copy()
    slider = win.joint_panel.rows[0].slider
    handle = slider.style().subControlRect(
        QtWidgets.QStyle.ComplexControl.CC_Slider, _slider_option(slider),
        QtWidgets.QStyle.SubControl.SC_SliderHandle, slider).center()
    QTest.mousePress(slider, LEFT, pos=handle)
    for dx in range(5, 80, 5):
        QTest.mouseMove(slider, handle + QtCore.QPoint(dx, 0))
    QTest.mouseRelease(slider, LEFT, pos=handle + QtCore.QPoint(80, 0))
    assert session.q[0] > q0[0] + 0.05
    assert texts(win) == ["Move q1"]  # one step for the whole drag
    win.act_undo.trigger()
    np.testing.assert_allclose(session.q, q0, atol=1e-12)


def _slider_option(slider):
    opt = QtWidgets.QStyleOptionSlider()
    slider.initStyleOption(opt)
    return opt


def test_slider_wheel_ticks_and_held_step_button_merge(qtbot, win, session):
    q0 = session.q.copy()
    slider = win.joint_panel.rows[2].slider
    for _ in range(4):
        QTest.keyClick(slider, QtCore.Qt.Key.Key_PageUp)
    assert texts(win) == ["Move q3"]
    row = win.joint_panel.rows[3]
    for _ in range(3):
        qtbot.mouseClick(row.plus, LEFT)
    assert texts(win) == ["Move q3", "Step q4"]
    assert session.q[3] == pytest.approx(q0[3] + 3 * math.radians(1))
    win.act_undo.trigger()
    win.act_undo.trigger()
    np.testing.assert_allclose(session.q, q0, atol=1e-12)


def test_named_pose_zero_random_are_named_steps(qtbot, win, session):
    q0 = session.q.copy()
    panel = win.joint_panel
    qtbot.mouseClick(panel.pose_buttons["qz"], LEFT)
    qtbot.mouseClick(panel.zero_button, LEFT)  # qz is zero already: no step
    qtbot.mouseClick(panel.random_button, LEFT)
    assert texts(win) == ["Named pose qz", "Random configuration"]
    win.act_undo.trigger()
    np.testing.assert_allclose(session.q, session.robot.pose("qz"))
    win.act_undo.trigger()
    np.testing.assert_allclose(session.q, q0)


def test_jog_and_go_to_are_undone(qtbot, win, session):
    pendant = win.teach
    session.go_to_pose("qn")
    stack(win).clear()
    q0 = session.q.copy()
    pendant.jog.set_mode(0)
    qtbot.mouseClick(pendant.jog.buttons[("x", 1)], LEFT)
    qtbot.mouseClick(pendant.jog.buttons[("x", 1)], LEFT)
    assert texts(win) == ["Jog +X", "Jog +X"]
    q_jog = session.q.copy()
    win.act_undo.trigger()
    win.act_undo.trigger()
    np.testing.assert_allclose(session.q, q0, atol=1e-12)
    win.act_redo.trigger()
    win.act_redo.trigger()
    np.testing.assert_allclose(session.q, q_jog, atol=1e-12)


def test_tool_change_is_undone(qtbot, win, session):
    tool = win.teach.tool
    box = tool.boxes[2]  # z in mm
    box.selectAll()
    QTest.keyClicks(box, "120")
    QTest.keyClick(box, QtCore.Qt.Key.Key_Return)
    assert session.tool[2, 3] == pytest.approx(0.12)
    qtbot.mouseClick(tool.reset_button, LEFT)
    assert texts(win)[-2:] == ["Change tool", "No tool"]
    win.act_undo.trigger()
    assert session.tool[2, 3] == pytest.approx(0.12)
    win.act_undo.trigger()
    np.testing.assert_allclose(session.tool, np.eye(4))
    assert tool.boxes[2].value() == 0.0


def test_robot_change_undo_restores_robot_trajectory_and_origin(qtbot, win, session):
    puma = session.robot
    t = np.linspace(0, 1, 11)
    traj = Trajectory(t, np.outer(t, np.ones(6)) * 0.3)
    session.set_trajectory(traj)
    session.set_time(0.5, changing=False)
    win.set_origin("puma560")
    stack(win).clear()  # the start-up state
    assert win.open_robot("panda")  # 7 joints: the 6-joint trajectory goes
    assert session.robot.n == 7 and session.trajectory is None
    assert texts(win) == [f"Robot {session.robot.name}"]
    panda = session.robot
    win.act_undo.trigger()
    assert session.robot is puma and session.trajectory is traj
    assert session.time == pytest.approx(0.5)
    np.testing.assert_allclose(session.q, traj.q[5], atol=1e-12)
    assert win.library_name == "puma560" and win.picker.currentText() == "puma560"
    assert len(win.joint_panel.rows) == 6
    win.act_redo.trigger()
    assert session.robot is panda and session.trajectory is None
    assert win.library_name == "panda" and panda.name in win.windowTitle()


def test_program_edits_undo_and_redo_and_the_dirty_flag_follows(qtbot, win, session, tmp_path):
    panel, state = win.teach.program, win.teach.state
    for pose in ("qz", "qr"):
        session.go_to_pose(pose)
        qtbot.mouseClick(panel.record_button, LEFT)
    path = tmp_path / "a.prog"
    assert panel.save_to(path) and not state.modified
    saved = state.program
    panel.select_waypoint("P1")
    qtbot.mouseClick(panel.delete_waypoint_button, LEFT)
    assert state.program.names == ["P2"] and state.modified
    assert panel.rename_waypoint("P2", "home")
    assert texts(win)[-2:] == ["Delete waypoint", "Rename waypoint"]
    win.act_undo.trigger()
    assert state.program.names == ["P2"]
    win.act_undo.trigger()
    assert state.program == saved and not state.modified  # back to what is on disk
    assert panel.waypoint_list.count() == 2
    win.act_redo.trigger()
    assert state.program.names == ["P2"] and state.modified
    assert state.autosaver is None or state.autosaver.dirty
    # Record also undoes (a waypoint and its move together)
    n = len(state.program.moves)
    qtbot.mouseClick(panel.record_button, LEFT)
    assert texts(win)[-1] == "Record waypoint" and len(state.program.moves) == n + 1
    win.act_undo.trigger()
    assert len(state.program.moves) == n


def test_playback_and_scrubbing_are_not_steps(qtbot, win, session):
    t = np.linspace(0, 1, 11)
    session.set_trajectory(Trajectory(t, np.outer(t, np.ones(6))))
    session.finish_change()
    stack(win).clear()
    session.scrub(0.5)
    session.play()
    session.advance(0.2)
    session.pause()
    session.step(1)
    assert stack(win).count() == 0


def test_history_dialog_lists_steps_and_goes_back(qtbot, win, session):
    q0 = session.q.copy()
    qtbot.mouseClick(win.joint_panel.pose_buttons["qz"], LEFT)
    qtbot.mouseClick(win.joint_panel.random_button, LEFT)
    win.act_history.trigger()
    dlg = win.findChild(undo.HistoryDialog)
    assert dlg is not None and dlg.isVisible()
    model = dlg.view.model()
    assert model.rowCount() == 3  # <start> + two steps
    assert model.index(1, 0).data() == "Named pose qz"
    dlg.view.setCurrentIndex(model.index(0, 0))  # click <start>
    np.testing.assert_allclose(session.q, q0)


def test_api_push_joint_change_and_session_change(win, session):
    manager = undo.manager_for(session)
    assert manager is win.undo
    q0 = session.q.copy()
    q1 = q0 + 0.1
    manager.push_joint_change(q0, q1, "Drag handle", merge_key="handle")
    manager.push_joint_change(q1, q1 + 0.1, "Drag handle", merge_key="handle")
    assert texts(win) == ["Drag handle"]  # merged while dragging
    manager.close_merge()  # released
    manager.push_joint_change(q1 + 0.1, q0, "Drag handle", merge_key="handle")
    assert texts(win) == ["Drag handle", "Drag handle"]
    win.act_undo.trigger()
    win.act_undo.trigger()
    np.testing.assert_allclose(session.q, q0)
    log = []
    manager.push_session_change("Mark", lambda: log.append("do"), lambda: log.append("undo"))
    win.act_undo.trigger()
    assert log == ["do", "undo"]


def test_labelled_without_a_window_does_nothing(session):
    from robogui.session import Session

    other = Session(load_robot("puma560"))
    with undo.labelled(other, "nothing"):
        other.zero()
    assert undo.manager_for(other) is None


def test_switching_to_a_robot_with_the_same_joint_count_is_one_undoable_step(win, session):
    """Load a trajectory on the Puma, pick UR5 (6 joints too): the trajectory goes with
    the robot switch, and one Ctrl+Z brings back the Puma with its trajectory."""
    t = np.linspace(0, 1, 21)
    traj = Trajectory(t, np.outer(t, np.ones(6)) * 0.2)
    session.set_trajectory(traj)
    stack(win).clear()
    assert win.open_robot("ur5")
    assert session.robot.n == 6 and session.trajectory is None
    assert stack(win).count() == 1
    key(win, QtCore.Qt.Key.Key_Z, CTRL)
    assert session.robot.name == "Puma 560" and session.trajectory is traj
