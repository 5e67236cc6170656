"""Teach pendant GUI: jogging through the real buttons, tool, targets with ghosts, programs,
files, autosave recovery (also after a killed process). Real GL under Xvfb."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from robogui.engine.spatial.transforms import rotx, rotz
from robogui.session.teach.autosave import Autosaver
from robogui.session.teach.jog import jog_step
from robogui.session.teach.program import Program

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def pendant(window, session, clock):
    """The main window's teach pendant, with a controlled clock."""
    p = window.teach
    p.jog.clock = p.timeline.clock = clock
    window.resize(1600, 1000)
    session.go_to_pose("qn")
    return p


def new_window(qtbot, session, settings, errors, **kw):
    from robogui.app.shell.main_window import MainWindow

    win = MainWindow(session, settings=settings, error_presenter=errors, restore=False, **kw)
    qtbot.addWidget(win)
    win.show()
    return win


def click(qtbot, button):
    qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)


# -- jogging ---------------------------------------------------------------------------------
@pytest.mark.parametrize("frame", ["world", "tool"])
def test_jog_buttons_move_by_the_step_in_the_frame(qtbot, pendant, session, frame):
    jog = pendant.jog
    session.set_tool(np.array([[1, 0, 0, 0], [0, 1, 0, 0.02], [0, 0, 1, 0.1], [0, 0, 0, 1.0]]))
    jog.set_frame(frame)
    checks = [(0, "x", 1, 10.0), (1, "y", -1, 1.0), (2, "z", 1, 0.1), (1, "x", -1, 1.0)]
    for preset, axis, direction, mm in checks:
        jog.set_mode(preset)
        T0 = session.robot.fkine(session.q)
        click(qtbot, jog.buttons[(axis, direction)])
        T1 = session.robot.fkine(session.q)  # fkine with the tool: the TCP moved
        d = T1[:3, 3] - T0[:3, 3]
        if frame == "tool":
            d = T0[:3, :3].T @ d
        want = np.zeros(3)
        want["xyz".index(axis)] = direction * mm / 1000.0
        np.testing.assert_allclose(d, want, atol=1e-9)
        np.testing.assert_allclose(T1[:3, :3], T0[:3, :3], atol=1e-9)  # orientation kept
        assert jog.last_result.message is None
        assert "Jog" in jog.status_text


@pytest.mark.parametrize("frame", ["world", "tool"])
def test_jog_rotation_buttons_turn_about_the_tcp(qtbot, pendant, session, frame):
    jog = pendant.jog
    jog.set_frame(frame)
    jog.set_mode(0)  # 5 degrees
    T0 = session.robot.fkine(session.q)
    click(qtbot, jog.buttons[("rz", 1)])
    click(qtbot, jog.buttons[("rx", -1)])
    T1 = session.robot.fkine(session.q)
    a = math.radians(5.0)
    if frame == "world":
        want = rotx(-a) @ rotz(a) @ T0[:3, :3]
    else:
        want = T0[:3, :3] @ rotz(a) @ rotx(-a)
    np.testing.assert_allclose(T1[:3, :3], want, atol=1e-9)
    np.testing.assert_allclose(T1[:3, 3], T0[:3, 3], atol=1e-9)


def test_jog_into_a_joint_limit_stops_with_the_message(qtbot, pendant, session):
    jog = pendant.jog
    robot = session.robot
    q = session.q
    for _ in range(26):  # close to the elbow's lower limit along -X (10 mm steps)
        q = jog_step(robot, q, "x", -1, 0.01).q_new
    session.set_q(q)
    jog.set_mode(0)
    lower = robot.qlim[2, 0]
    for _ in range(4):
        click(qtbot, jog.buttons[("x", -1)])
    assert session.q[2] == pytest.approx(lower, abs=1e-9)
    stalled_q = session.q.copy()
    click(qtbot, jog.buttons[("x", -1)])
    np.testing.assert_array_equal(session.q, stalled_q)  # nothing moves, no jump
    text = jog.status_text
    assert "Joint 3 (elbow) is at its lower limit (-225.0°)" in text
    assert jog.last_result.stalled and jog.last_result.limiting_joint == 2
    assert np.all(np.isfinite(session.q))


def test_jog_messages_follow_the_global_units(qtbot, window, pendant, session):
    """Switch to rad (the joint row's unit button) and m, jog into the elbow's limit: the
    message says rad, not degrees."""
    jog = pendant.jog
    robot = session.robot
    q = session.q
    for _ in range(26):
        q = jog_step(robot, q, "x", -1, 0.01).q_new
    session.set_q(q)
    click(qtbot, window.joint_panel.rows[0].unit)  # deg -> rad, for every panel
    assert session.display.angle_unit == "rad"
    session.display.length_unit = "m"
    jog.set_mode(0)
    for _ in range(5):
        click(qtbot, jog.buttons[("x", -1)])
    text = jog.status_text
    assert f"Joint 3 (elbow) is at its lower limit ({robot.qlim[2, 0]:+.3f} rad)" in text
    assert "°" not in text and "mm" not in text


def test_continuous_jog_uses_wall_clock_and_speed_override(qtbot, pendant, session, clock):
    from robogui.session.teach.jog import JOG_LINEAR_SPEED

    jog = pendant.jog
    jog.set_mode("continuous")
    jog.speed_slider.setValue(40)
    changed = []
    session.events.changed.connect(changed.append)
    p0 = session.T[:3, 3].copy()
    qtbot.mousePress(jog.buttons[("z", 1)], QtCore.Qt.MouseButton.LeftButton)
    assert jog.timer.isActive()
    for dt in (0.02, 0.05, 0.013, 0.03):  # uneven frame times
        clock.t += dt
        jog.tick()
    assert session.is_changing and not changed  # a drag-like change while held
    qtbot.mouseRelease(jog.buttons[("z", 1)], QtCore.Qt.MouseButton.LeftButton)
    assert not jog.timer.isActive() and len(changed) == 1
    dz = session.T[2, 3] - p0[2]
    assert dz == pytest.approx(JOG_LINEAR_SPEED * 0.113 * 0.40, rel=1e-9)
    np.testing.assert_allclose(session.T[:2, 3], p0[:2], atol=1e-9)


def test_jog_keys_held_in_the_panel(qtbot, pendant, session, clock):
    jog = pendant.jog
    jog.set_mode(1)
    jog.setFocus()
    p0 = session.T[:3, 3].copy()
    qtbot.keyClick(jog, QtCore.Qt.Key.Key_Q)  # +X by 1 mm
    qtbot.keyClick(jog, QtCore.Qt.Key.Key_D)  # -Z by 1 mm
    np.testing.assert_allclose(session.T[:3, 3] - p0, [0.001, 0, -0.001], atol=1e-9)


def shown_window(qtbot, session, settings, errors, size=(1600, 1000)):
    """A fresh main window (no saved layout) shown at ``size``, on its Teach task (Ctrl+2)."""
    from robogui.app.shell.main_window import MainWindow

    win = MainWindow(session, settings=settings, error_presenter=errors, restore=False)
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    qtbot.waitExposed(win)
    press_ctrl(qtbot, win, QtCore.Qt.Key.Key_2)
    assert win.tasks.current == "teach"
    return win


def press_ctrl(qtbot, win, key) -> None:
    """Ctrl+``key`` typed into the active window (window shortcuts need it active)."""
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    qtbot.keyClick(win, key, QtCore.Qt.KeyboardModifier.ControlModifier)


def click_dock_tab(qtbot, win, title: str) -> None:
    """Click the tab ``title`` of a dock tab group, as a person brings a dock forward."""
    for bar in win.findChildren(QtWidgets.QTabBar):
        if bar.isVisible():
            for i in range(bar.count()):
                if bar.tabText(i) == title:
                    qtbot.mouseClick(bar, QtCore.Qt.MouseButton.LeftButton,
                                     pos=bar.tabRect(i).center())
                    qtbot.waitUntil(lambda: win.findChild(
                        QtWidgets.QDockWidget, "dock_" + title.lower()).widget().isVisible())
                    return
    raise AssertionError(f"no visible tab {title!r}")


def test_jog_pendant_is_in_sight_in_the_teach_task(qtbot, session, settings, errors):
    """A fresh window at 1600 x 1000 on Teach: all twelve jog buttons, the speed and the
    tool editor are in sight without scrolling (a dock split once left only the -X/+X row)."""
    win = shown_window(qtbot, session, settings, errors)
    p = win.teach
    area = p.docks["jog"].widget()
    # the docks are balanced just after the first show; wait until the layout has settled
    qtbot.waitUntil(lambda: (area.viewport().height() >= area.widget().sizeHint().height()
                             and not area.verticalScrollBar().isVisible()), timeout=3000)
    for w in [*p.jog.buttons.values(), p.jog.speed_slider, *p.tool.boxes, p.tool.reset_button]:
        assert w.visibleRegion().boundingRect().size() == w.size(), w
    # back on Drive the pose readout has what it needs under the joint sliders
    press_ctrl(qtbot, win, QtCore.Qt.Key.Key_1)
    qtbot.waitUntil(lambda: win.pose_dock.isVisible() and not p.docks["jog"].isVisible())
    qtbot.waitUntil(lambda: win.pose_dock.widget().height()
                    >= win.pose_dock.widget().minimumSizeHint().height(), timeout=3000)
    win.close()


def test_held_key_jogs_continuously_and_a_jog_pauses_playback(qtbot, pendant, session, clock,
                                                              window):
    from robogui.app.teach.jog_panel import READY_TEXT
    from robogui.session.teach.jog import JOG_LINEAR_SPEED

    jog = pendant.jog
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    jog.set_mode("continuous")
    jog.speed_slider.setValue(20)
    assert pendant.timeline.generate_demo("qn", "qr")
    session.set_time(0.0, changing=False)
    session.play()
    assert session.playing
    # a click on a jog button gives the panel the keyboard (and pauses the playback)
    click(qtbot, jog.buttons[("y", 1)])
    assert not session.playing
    qtbot.waitUntil(jog.hasFocus, timeout=3000)
    p0 = session.T[:3, 3].copy()
    qtbot.keyPress(jog, QtCore.Qt.Key.Key_D)  # -Z held
    assert jog.timer.isActive()
    for dt in (0.03, 0.02, 0.05):
        clock.t += dt
        jog.tick()
    qtbot.keyRelease(jog, QtCore.Qt.Key.Key_D)
    assert not jog.timer.isActive() and not session.is_changing
    np.testing.assert_allclose(session.T[:3, 3] - p0, [0, 0, -JOG_LINEAR_SPEED * 0.1 * 0.2],
                               atol=1e-9)
    assert "Q/A W/S E/D" in READY_TEXT
    # a key held while the focus leaves the panel: its release never comes, the jog stops
    qtbot.keyPress(jog, QtCore.Qt.Key.Key_Q)
    assert jog.timer.isActive()
    window.view.setFocus()
    qtbot.waitUntil(lambda: not jog.hasFocus(), timeout=3000)
    assert not jog.timer.isActive() and not session.is_changing
    q_stop = session.q.copy()
    clock.t += 0.5
    jog.tick()
    np.testing.assert_array_equal(session.q, q_stop)


# -- tool ------------------------------------------------------------------------------------
def test_tool_editor_sets_the_session_tool(qtbot, pendant, session):
    ed = pendant.tool
    q = session.q.copy()
    T_flange = session.robot.fkine(q)
    ed.set_values([0.0, 0.0, 0.15], np.radians([0.0, 0.0, 90.0]))
    np.testing.assert_allclose(session.tool[:3, 3], [0, 0, 0.15], atol=1e-12)
    np.testing.assert_allclose(session.tool[:3, :3], rotz(math.pi / 2), atol=1e-12)
    np.testing.assert_allclose(session.T[:3, 3], T_flange[:3, 3] + 0.15 * T_flange[:3, 2],
                               atol=1e-12)
    # the pose readout shows the TCP
    shown = [float(lab.text().split()[0]) for lab in window_pose_labels(pendant)]
    assert shown  # panel present
    # typing in a box applies it
    ed.boxes[0].setValue(20.0)
    assert session.tool[0, 3] == pytest.approx(0.02)
    click(qtbot, ed.reset_button)
    np.testing.assert_allclose(session.tool, np.eye(4))
    assert ed.boxes[2].value() == 0.0


def window_pose_labels(pendant):
    win = pendant.jog.window()
    return win.pose_panel.pos_labels


# -- targets and ghosts ------------------------------------------------------------------------
def test_target_shows_a_ghost_and_all_eight_puma_branches(qtbot, pendant, session, window):
    tp, state = pendant.target, pendant.state
    q_start = session.q.copy()
    T = session.robot.fkine(session.robot.pose("qr")) @ np.array(
        [[1, 0, 0, 0.1], [0, 1, 0, -0.1], [0, 0, 1, -0.2], [0, 0, 0, 1.0]])
    from robogui.session.teach.targets import xyz_rpy_from_pose

    xyz, rpy = xyz_rpy_from_pose(T)
    before = window.view.grab_array()
    tp.set_pose(xyz, rpy)
    sol = tp.solution
    assert sol.analytic and len(sol.labels) == 8 and sol.reachable.all()
    np.testing.assert_array_equal(session.q, q_start)  # nothing moved yet
    assert len(state.ghosts) == 8 and pendant.ghosts.visible_count == 8
    assert [g.role for g in state.ghosts].count("selected") == 1
    assert tp.branch_list.count() == 8
    qtbot.wait(50)
    after = window.view.grab_array()
    assert np.mean(np.any(after != before, axis=2)) > 0.01  # the ghosts are drawn
    # every branch reaches the pose typed in the boxes (T to their 0.01 mm / 0.001 deg)
    T = tp.target_pose()
    np.testing.assert_allclose(sol.T, T)
    np.testing.assert_allclose(session.robot.fkine(sol.q), np.broadcast_to(T, (8, 4, 4)),
                               atol=1e-9)
    # only the selected one when "show all" is off
    tp.show_all.setChecked(False)
    assert pendant.ghosts.visible_count == 1
    tp.show_all.setChecked(True)
    # pick another valid branch and move there
    other = next(i for i in range(8) if sol.ok[i] and i != sol.chosen)
    tp.select_branch(sol.labels[other])
    selected = [g for g in state.ghosts if g.role == "selected"]
    assert selected[0].label == sol.labels[other]
    click(qtbot, tp.move_button)
    np.testing.assert_allclose(session.q, sol.q[other])
    np.testing.assert_allclose(session.T, T, atol=1e-9)
    assert session.arm_config == sol.labels[other]
    assert state.ghosts == [] and pendant.ghosts.visible_count == 0


def test_selected_ghost_shows_over_candidates_that_share_its_links(qtbot, pendant, session,
                                                                  window):
    """A faint candidate with the same arm (another wrist) listed before the selected ghost
    must not hide it: the selected ghost is drawn first of the ghosts."""
    from robogui.session.teach.teach import Ghost

    state, view = pendant.state, window.view
    q = session.robot.pose("qr")
    q_other = q.copy()
    q_other[3] += 0.5  # same shoulder, upper arm and forearm; another wrist
    state.set_ghosts([Ghost(q, "selected")])
    qtbot.wait(50)
    alone = view.grab_array().astype(int)
    state.set_ghosts([Ghost(q_other, "invalid"), Ghost(q, "candidate"), Ghost(q, "selected")])
    qtbot.wait(50)
    crowd = view.grab_array().astype(int)
    state.set_ghosts([])
    qtbot.wait(50)
    bare = view.grab_array().astype(int)
    ghost_px = np.any(np.abs(alone - bare) > 12, axis=2)
    assert ghost_px.mean() > 0.005  # the selected ghost covers part of the view
    # where the selected ghost is, the crowd looks (nearly) the same as it alone
    same = np.all(np.abs(crowd - alone) <= 12, axis=2)
    assert same[ghost_px].mean() > 0.9


def test_unreachable_target_says_so_and_nothing_moves(qtbot, pendant, session):
    tp = pendant.target
    q0 = session.q.copy()
    tp.set_pose([3.0, 0.0, 0.5], [0.0, 0.0, 0.0])
    assert "Unreachable" in tp.status_text and "out of reach" in tp.status_text
    assert not tp.move_button.isEnabled()
    assert tp.move() is False
    np.testing.assert_array_equal(session.q, q0)
    assert pendant.ghosts.visible_count == 0


def test_waypoint_target_ghost(qtbot, pendant, session):
    click(qtbot, pendant.program.record_button)
    q_wp = session.q.copy()
    session.go_to_pose("qr")
    tp = pendant.target
    assert tp.waypoint_combo.currentText() == "P1"
    click(qtbot, tp.waypoint_button)
    assert len(pendant.state.ghosts) == 1 and pendant.ghosts.visible_count == 1
    np.testing.assert_allclose(pendant.state.ghosts[0].q, q_wp)
    assert tp.move()
    np.testing.assert_allclose(session.q, q_wp)


def test_numeric_target_for_a_non_puma(qtbot, pendant, session):
    from robogui.io.robotfile import load_robot

    p = pendant
    p.target.set_pose([0.5, 0, 0.3], [0, 0, 0])  # a Puma ghost first: cleared with the robot
    assert p.ghosts.visible_count > 0
    session.set_robot(load_robot("twolink"))
    q_goal = np.array([0.4, 0.7])
    from robogui.session.teach.targets import xyz_rpy_from_pose

    p.target.set_pose(*xyz_rpy_from_pose(session.robot.fkine(q_goal)))
    assert p.target.solution.success and not p.target.solution.analytic
    assert p.ghosts.visible_count == 1
    assert p.target.move()
    np.testing.assert_allclose(session.robot.fkine(session.q)[:3, 3],
                               p.target.target_pose()[:3, 3], atol=1e-8)


def type_into(qtbot, box, text):
    """Select a field's text, type ``text`` and press Enter, as a person does."""
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, QtCore.Qt.Key.Key_Return)


def click_row(qtbot, lst, row):
    rect = lst.visualItemRect(lst.item(row))
    qtbot.mouseClick(lst.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())


@pytest.mark.parametrize("name, q", [
    ("kr5", [0.4, -0.9, 0.6, 0.5, -0.8, 0.3]),   # KUKA KR5: spherical wrist, shoulder offset
    ("irb140", [-0.3, 0.4, 0.2, -0.6, 0.9, 0.1]),  # ABB IRB 140
    ("ur5", [0.3, -1.2, 1.4, -1.5, -1.5, 0.2]),  # UR5: no spherical wrist, axes 2-4 parallel
])
def test_branches_ghosts_and_readout_for_industrial_arms(qtbot, pendant, session, window,
                                                         name, q):
    """Another arm than the Puma: Current pose re-solves into its eight closed-form
    branches, drawn as labelled ghosts; the one it stands in is proposed and the pose panel
    names it; typing a new height re-solves; clicking another branch and Move goes there."""
    from robogui.engine.kinematics.ikine_branches import BRANCHES, analytic_config

    assert window.open_robot(name)
    robot = session.robot
    q = np.array(q)
    session.set_q(q)
    here = analytic_config(robot, q)
    pp = window.pose_panel
    qtbot.waitUntil(lambda: here in pp.config_label.text(), timeout=3000)
    from robogui.session.explain.armconfig import describe_config, val_words

    assert describe_config(here) in pp.config_label.text()
    assert val_words(here) in pp.config_label.text()  # e.g. LEFTY BELOW NOFLIP
    assert ("ABB conf [" in pp.config_label.text()) == (name != "ur5")  # spherical wrists
    tp = pendant.target
    before = window.view.grab_array()
    click(qtbot, tp.current_button)  # fills the boxes with the current pose and solves
    sol = tp.solution
    assert sol is not None and sol.analytic and sol.labels == BRANCHES
    assert sol.labels[sol.chosen] == here  # the configuration the arm is in is proposed
    np.testing.assert_allclose(sol.q[sol.chosen], q, atol=1e-6)
    shown = list(pendant.state.ghosts)
    assert len(shown) == int(sol.reachable.sum()) >= 4
    assert sorted(g.label for g in shown) == sorted(
        lab for lab, r in zip(sol.labels, sol.reachable, strict=True) if r)
    assert pendant.ghosts.visible_count == len(shown)
    assert tp.branch_list.count() == 8 and here in tp.branch_list.item(sol.chosen).text()
    qtbot.wait(50)
    assert np.mean(np.any(window.view.grab_array() != before, axis=2)) > 0.01
    reached = sol.reachable
    np.testing.assert_allclose(robot.fkine(sol.q[reached]),
                               np.broadcast_to(tp.target_pose(), (int(reached.sum()), 4, 4)),
                               atol=1e-9)
    # type a target 30 mm lower in the z field: solved again, every branch on the new pose
    z_mm = tp.boxes[2].si_value() * 1000 - 30
    type_into(qtbot, tp.boxes[2], f"{z_mm:.3f}")
    sol2 = tp.solution
    assert sol2 is not sol and sol2.T[2, 3] == pytest.approx(z_mm / 1000, abs=1e-6)
    np.testing.assert_allclose(robot.fkine(sol2.q[sol2.reachable]),
                               np.broadcast_to(sol2.T, (int(sol2.reachable.sum()), 4, 4)),
                               atol=1e-9)
    # click another valid branch in the list, Move: the arm is there and the readout says so
    other = next(i for i in range(8) if sol2.ok[i] and sol2.labels[i] != here)
    click_row(qtbot, tp.branch_list, other)
    assert [g.label for g in pendant.state.ghosts if g.role == "selected"] == [
        sol2.labels[other]]
    click(qtbot, tp.move_button)
    np.testing.assert_allclose(session.q, sol2.q[other])
    np.testing.assert_allclose(session.T, sol2.T, atol=1e-9)
    assert session.arm_config == sol2.labels[other]
    qtbot.waitUntil(lambda: sol2.labels[other] in pp.config_label.text(), timeout=3000)
    # "Current pose" again re-solves from where the arm now is: that branch is proposed
    click(qtbot, tp.current_button)
    assert tp.solution.labels[tp.solution.chosen] == sol2.labels[other]


# -- program -------------------------------------------------------------------------------------
def teach_three(qtbot, pendant, session):
    panel = pendant.program
    for pose in ("qz", "qr", "qn"):
        session.go_to_pose(pose)
        click(qtbot, panel.record_button)
    return panel


def test_program_edit_and_round_trip_through_its_file(qtbot, pendant, session, tmp_path):
    panel, state = teach_three(qtbot, pendant, session), pendant.state
    assert state.program.names == ["P1", "P2", "P3"] and len(state.program.moves) == 3
    assert panel.rename_waypoint("P2", "ready")
    assert state.program.moves[1].target == "ready"
    panel.select_waypoint("P3")
    panel.waypoint_comment.setText("nominal")
    panel.waypoint_comment.editingFinished.emit()
    assert state.program.waypoint("P3").comment == "nominal"
    # a refused edit says why and changes nothing
    before = state.program
    assert not panel.rename_waypoint("P1", "ready")
    assert "already exists" in panel.status_text and state.program == before
    # a linear move, timing, blend, comment, reorder
    panel.select_waypoint("P1")
    panel.select_move(2)
    click(qtbot, [b for b in panel.findChildren(type(panel.record_button))
                  if b.text() == "+ Linear"][0])
    assert state.program.moves[3].kind == "linear" and state.program.moves[3].target == "P1"
    assert panel.set_move_timing(3, speed=0.2)
    panel.select_move(1)
    panel.timing_combo.setCurrentIndex(1)
    panel.timing_combo.activated.emit(1)
    assert state.program.moves[1].duration == 2.0
    panel.blend_box.setValue(0.3)
    panel.move_comment.setText("via ready")
    panel.move_comment.editingFinished.emit()
    m = state.program.moves[1]
    assert (m.blend, m.comment) == (0.3, "via ready")
    assert panel.shift_move(1)
    assert state.program.moves[2].comment == "via ready" and panel.selected_move() == 2
    # touch up P1 with the current configuration
    session.go_to_pose("qs")
    panel.select_waypoint("P1")
    click(qtbot, panel.touch_up_button)
    np.testing.assert_allclose(state.program.waypoint("P1").q, session.robot.pose("qs"))
    assert state.modified and panel.file_label.text().startswith("\u25cf")

    path = tmp_path / "cell.prog"
    assert panel.save_to(path)
    assert path.is_file() and not state.modified and state.path == path
    saved = state.program
    panel.new_program()
    assert state.program.waypoints == ()
    assert panel.load_from(path)
    assert state.program == saved
    assert panel.move_list.count() == 4 and panel.waypoint_list.count() == 3
    assert "via ready" in panel.move_list.item(2).text()


def test_bad_program_file_is_reported(qtbot, pendant, tmp_path, errors):
    bad = tmp_path / "bad.prog"
    bad.write_text('format = "robogui-program"\nversion = 1\n[[waypoint]]\nname = "A"\n'
                   'q = [1, "x"]\n')
    before = pendant.state.program
    assert not pendant.program.load_from(bad)
    assert errors and errors[-1][0] == "Cannot open the program"
    assert "bad.prog" in errors[-1][1] and "line" in errors[-1][1]
    assert pendant.state.program is before


def test_preflight_problems_are_listed_and_clickable(qtbot, pendant, session):
    panel, state = teach_three(qtbot, pendant, session), pendant.state
    click(qtbot, panel.check_button)
    assert state.compiled is not None and session.trajectory is state.compiled.trajectory
    assert panel.problem_list.count() == len(state.problems) > 0
    assert "Checked" in panel.status_text
    # a problem later in the run: the qz start is singular, so is anything near qr's wrist
    k = max(range(len(state.problems)), key=lambda i: state.problems[i].time)
    problem = state.problems[k]
    session.set_time(session.playback.end, changing=False)
    item = panel.problem_list.item(k)
    rect = panel.problem_list.visualItemRect(item)
    qtbot.mouseClick(panel.problem_list.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=rect.center())
    assert session.time == pytest.approx(problem.time)
    np.testing.assert_allclose(session.q, session.q_at(problem.time))
    assert not session.playing


def test_check_results_are_in_sight_and_wrap(qtbot, session, settings, errors):
    """A fresh window at 1600 x 1000: after Check the problems and the status line are in
    sight (the panel once grew to ~940 px in its scroll area and hid them), problems wrap
    instead of scrolling sideways; the move form shows what applies to the move."""
    win = shown_window(qtbot, session, settings, errors)
    p = win.teach
    panel = p.program
    click_dock_tab(qtbot, win, "Program")
    for pose in ("qz", "qr", "qn", "qs"):
        session.go_to_pose(pose)
        click(qtbot, panel.record_button)
    panel.select_waypoint("P2")
    click(qtbot, [b for b in panel.findChildren(type(panel.record_button))
                  if b.text() == "+ Linear"][0])
    click(qtbot, panel.check_button)
    qtbot.wait(100)
    assert panel.problem_list.count() == len(p.state.problems) >= 2
    area = p.docks["program"].widget()
    qtbot.waitUntil(lambda: not area.verticalScrollBar().isVisible(), timeout=3000)
    for w in (panel.problem_list, panel.status, panel.check_button):
        assert w.visibleRegion().boundingRect().size() == w.size(), w
    assert panel.status_text.startswith("Checked:")
    assert not panel.problem_list.horizontalScrollBar().isVisible()
    first = panel.problem_list.item(0)
    assert first.text().startswith("t = 0.00 s  [warning]  move 2: near a wrist singularity")
    line = panel.problem_list.fontMetrics().height()
    assert panel.problem_list.visualItemRect(first).height() >= 2 * line  # wrapped
    # the selected move is linear: no blend; default timing shows a dash, not a number
    assert panel.state.program.moves[panel.selected_move()].kind == "linear"
    assert not panel.blend_box.isEnabled()
    assert panel.timing_value.text() == "\u2014"
    win.close()


def test_autosave_runs_from_the_timer(qtbot, pendant, session):
    state = pendant.state
    state.autosaver.interval_s = 0.0
    teach_three(qtbot, pendant, session)
    qtbot.waitUntil(lambda: state.autosaver.saves >= 1 and not state.autosaver.dirty,
                    timeout=3000)
    assert state.recoverable() == state.program


def test_recovery_offer_appears_at_startup(qtbot, session, settings, tmp_path, errors):
    path = tmp_path / "autosave.prog"  # next to the settings file: the window's autosave
    prog = Program.from_configurations([np.zeros(6), np.full(6, 0.1)], name="lost work")
    saver = Autosaver(path)
    saver.mark_dirty(prog)
    saver.save_now()
    win = new_window(qtbot, session, settings, errors)
    p = win.teach
    assert p.state.autosaver.path == path
    assert p.recovery_offered
    qtbot.waitUntil(p.program.recovery_bar.isVisible, timeout=3000)  # its dock was raised
    assert "lost work" in p.program.recovery_label.text()
    click(qtbot, p.program.restore_button)
    assert p.state.program == prog and p.state.modified
    assert not p.program.recovery_bar.isVisible()
    win.close()


def test_recovery_not_offered_after_an_explicit_save(qtbot, session, settings, tmp_path,
                                                     errors):
    win = new_window(qtbot, session, settings, errors)
    p = win.teach
    click(qtbot, p.program.record_button)
    p.state.autosaver.save_now()
    p.program.save_to(tmp_path / "done.prog")
    win.close()  # quitting saves the autosave once more: still older than the save marker
    win2 = new_window(qtbot, session, settings, errors)
    assert not win2.teach.recovery_offered and not win2.teach.program.recovery_bar.isVisible()
    win2.close()


_CHILD = textwrap.dedent("""
    import sys
    import time
    from pathlib import Path
    from PySide6 import QtCore
    from robogui.app.shell.main_window import MainWindow, create_app
    from robogui.app.shell.settings import Settings
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    app = create_app()
    session = Session(load_robot("puma560"))
    settings = Settings(QtCore.QSettings(sys.argv[2], QtCore.QSettings.Format.IniFormat))
    win = MainWindow(session, settings=settings, restore=False, autosave_path=Path(sys.argv[1]))
    p = win.teach
    win.show()

    log = open(sys.argv[3], "a", buffering=1)

    def teach():
        for pose in ("qz", "qr", "qn"):
            session.go_to_pose(pose)
            p.program.record()
        p.program.rename_waypoint("P2", "ready")

    def report():
        if p.state.autosaver.saves and not p.state.autosaver.dirty:
            print("autosaved", flush=True)
            QtCore.QTimer.singleShot(0, keep_editing)
        else:
            QtCore.QTimer.singleShot(100, report)

    def keep_editing():  # the user goes on editing (a comment every 0.1 s) until killed
        stamp = time.time()
        p.state.edit("set_waypoint_comment", "P3", repr(stamp))
        log.write(f"{stamp!r}\\n")
        QtCore.QTimer.singleShot(100, keep_editing)

    QtCore.QTimer.singleShot(0, teach)
    QtCore.QTimer.singleShot(50, report)
    app.exec()
""")


def test_crash_recovery_after_kill_9(qtbot, session, settings, tmp_path, errors):
    """A real app process teaches a program, goes on editing, and is killed with SIGKILL;
    the next start offers the program back, with at most 5 s of edits lost (autosave
    every 3 s from the app's 1 s timer: about 4 s at worst)."""
    auto = tmp_path / "crash" / "autosave.prog"
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    edits = tmp_path / "edits.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, str(script), str(auto), str(tmp_path / "s.ini"),
                             str(edits)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        t0 = time.monotonic()
        line = proc.stdout.readline()  # blocks until the child has autosaved
        assert line.strip() == "autosaved", proc.stderr.read() if proc.poll() else line
        assert time.monotonic() - t0 < 30
        # let it edit for 6.5 s of its own time (two autosave periods and more), then kill
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            stamps = edits.read_text().split() if edits.exists() else []
            if len(stamps) > 2 and float(stamps[-1]) - float(stamps[0]) > 6.5:
                break
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    stamps = [float(x) for x in edits.read_text().split()]
    assert len(stamps) > 30 and stamps[-1] - stamps[0] > 6.5
    win = new_window(qtbot, session, settings, errors, autosave_path=auto)
    p = win.teach
    assert p.recovery_offered
    click(qtbot, p.program.restore_button)
    assert p.state.program.names == ["P1", "ready", "P3"]
    np.testing.assert_allclose(p.state.program.waypoint("ready").q, session.robot.pose("qr"))
    last_saved = float(p.state.program.waypoint("P3").comment)  # the last edit autosaved
    assert last_saved in stamps
    lost = stamps[-1] - last_saved
    assert 0.0 <= lost <= 5.0, f"lost {lost:.2f} s of edits"
    win.close()


def _answer_later(qtbot, button, seen: list) -> None:
    """Click ``button`` of the unsaved-changes question once it is up (as a person does)."""
    def answer():
        box = QtWidgets.QApplication.activeModalWidget()
        if box is None or box.objectName() != "unsavedProgram":
            QtCore.QTimer.singleShot(20, answer)
            return
        seen.append(box.text())
        box.button(button).click()
    QtCore.QTimer.singleShot(0, answer)


def _new_program_action(window):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    program_menu = next(a.menu() for a in menu.actions()
                        if a.menu() is not None and "program" in a.text().lower())
    return next(a for a in program_menu.actions() if a.text() == "&New program")


def test_new_program_with_unsaved_changes_asks_and_is_one_undo_step(qtbot, pendant, session,
                                                                     window):
    """Issue 28 item 5: File > Teach program > New program asks before unsaved waypoints
    are dropped (Cancel keeps them, Discard goes on), and Edit > Undo brings them back."""
    state, panel = pendant.state, pendant.program
    session.go_to_pose("qr")
    panel.state.record("P1")
    assert state.modified and len(state.program.waypoints) == 1
    act = _new_program_action(window)
    seen: list = []
    _answer_later(qtbot, QtWidgets.QMessageBox.StandardButton.Cancel, seen)
    act.trigger()
    assert seen and "unsaved changes" in seen[0]
    assert len(state.program.waypoints) == 1 and state.modified  # kept
    _answer_later(qtbot, QtWidgets.QMessageBox.StandardButton.Discard, seen)
    act.trigger()
    assert len(seen) == 2 and state.program.waypoints == () and not state.modified
    stack = window.undo.stack
    assert stack.undoText() == "New program"
    window.undo.stack.undo()
    assert [w.name for w in state.program.waypoints] == ["P1"] and state.modified
    window.undo.stack.redo()
    assert state.program.waypoints == ()
    # nothing unsaved: no question
    act.trigger()
    assert len(seen) == 2
