"""Drivebot panel: sliders, spin boxes, units, steps, named poses - all through the session."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.spatial.transforms import tr2rpy


def test_slider_drag_is_changing_and_release_completes(window, session, numbers):
    panel, row = window.joint_panel, window.joint_panel.rows[1]
    changed = []
    session.events.changed.connect(changed.append)
    b = row.slider_binding
    row.slider.setSliderDown(True)  # the user grabs the handle
    for ticks in (900, 1100, 1300):
        row.slider.setValue(ticks)
        assert session.is_changing
        assert session.q[1] == pytest.approx(b.to_value(ticks))
    assert changed == []
    row.slider.setSliderDown(False)  # release: sliderReleased -> finish_change
    assert len(changed) == 1 and not session.is_changing
    # the spin box and the pose panel followed the drag
    assert row.spin.value() == pytest.approx(math.degrees(b.to_value(1300)), abs=1e-3)
    T = fkine(session.robot, session.q)
    np.testing.assert_allclose(numbers(window.pose_panel.pos_labels), T[:3, 3] * 1000, atol=0.006)
    assert panel.values_shown()[1] == pytest.approx(math.degrees(session.q[1]), abs=1e-3)


def test_slider_keyboard_page_step_is_a_complete_change(window, session, qtbot):
    row = window.joint_panel.rows[0]
    changed = []
    session.events.changed.connect(changed.append)
    before = row.slider.value()
    row.slider.setFocus()
    qtbot.keyClick(row.slider, QtCore.Qt.Key.Key_PageUp)
    assert row.slider.value() == before + row.slider.pageStep()
    assert session.q[0] == pytest.approx(row.slider_binding.to_value(row.slider.value()))
    assert len(changed) == 1


def test_typing_in_the_spinbox_sets_q_and_the_pose_panel_shows_fkine(window, session, qtbot,
                                                                        numbers):
    row = window.joint_panel.rows[2]
    row.spin.lineEdit().selectAll()
    qtbot.keyClicks(row.spin.lineEdit(), "-45.5")
    assert session.q[2] == pytest.approx(-math.pi / 2)  # keyboard tracking off: not yet
    qtbot.keyClick(row.spin.lineEdit(), QtCore.Qt.Key.Key_Return)
    assert session.q[2] == pytest.approx(math.radians(-45.5), abs=1e-12)
    T = fkine(session.robot, session.q)
    pp = window.pose_panel
    np.testing.assert_allclose(numbers(pp.pos_labels), T[:3, 3] * 1000, atol=0.006)
    np.testing.assert_allclose(numbers(pp.ori_labels[:3]), np.degrees(tr2rpy(T)), atol=6e-4)
    # the slider moved to the nearest tick, without writing back its rounded value
    assert row.slider.value() == row.slider_binding.to_ticks(session.q[2])
    assert session.q[2] == pytest.approx(math.radians(-45.5), abs=1e-12)


def test_angle_unit_toggle_converts_all_revolute_rows(window, session, qtbot):
    session.set_q([0.5, 1.0, -1.0, 0.25, -0.75, 2.0])
    panel = window.joint_panel
    np.testing.assert_allclose(panel.values_shown(), np.degrees(session.q), atol=1e-3)
    qtbot.mouseClick(panel.rows[3].unit, QtCore.Qt.MouseButton.LeftButton)
    assert session.display.angle_unit == "rad"
    assert all(r.unit.text() == "rad" for r in panel.rows)
    np.testing.assert_allclose(panel.values_shown(), session.q, atol=1e-5)
    assert panel.rows[0].spin.maximum() == pytest.approx(math.radians(160), abs=1e-5)
    # typing in radians now
    panel.rows[0].spin.setValue(0.1234)
    assert session.q[0] == pytest.approx(0.1234)
    qtbot.mouseClick(panel.rows[0].unit, QtCore.Qt.MouseButton.LeftButton)
    assert session.display.angle_unit == "deg"
    assert panel.rows[0].spin.value() == pytest.approx(math.degrees(0.1234), abs=1e-3)


def test_prismatic_joint_shows_mm_and_m(window, session, qtbot):
    assert window.open_robot("stanford")
    row = window.joint_panel.rows[2]
    assert row.kind == "P" and row.unit.text() == "mm"
    session.set_joint(2, 0.3125)
    assert row.spin.value() == pytest.approx(312.5)
    qtbot.mouseClick(row.unit, QtCore.Qt.MouseButton.LeftButton)
    assert session.display.length_unit == "m" and row.spin.value() == pytest.approx(0.3125)
    assert window.joint_panel.rows[0].unit.text() == "deg"  # revolute rows unaffected
    row.step(1)
    assert session.q[2] == pytest.approx(0.3175)


def test_named_pose_zero_and_random_buttons(window, session, qtbot):
    panel = window.joint_panel
    assert set(panel.pose_buttons) == {"qz", "qr", "qs", "qn"}
    qtbot.mouseClick(panel.pose_buttons["qn"], QtCore.Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(session.q, session.robot.pose("qn"))
    np.testing.assert_allclose(panel.values_shown(), np.degrees(session.robot.pose("qn")),
                               atol=1e-3)
    qtbot.mouseClick(panel.zero_button, QtCore.Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(session.q, 0)
    qtbot.mouseClick(panel.random_button, QtCore.Qt.MouseButton.LeftButton)
    lim = session.robot.qlim
    assert np.all(session.q >= lim[:, 0]) and np.all(session.q <= lim[:, 1])
    assert np.any(session.q != 0)


def test_keyboard_selects_and_steps_joints(window, session, qtbot):
    panel = window.joint_panel
    session.go_to_pose("qz")
    qtbot.mouseClick(panel.rows[1].slider, QtCore.Qt.MouseButton.LeftButton,
                     pos=panel.rows[1].slider.rect().center())
    assert panel.selected == 1
    q1 = session.q[1]
    qtbot.keyClick(panel.rows[1].slider, QtCore.Qt.Key.Key_Right)
    assert session.q[1] == pytest.approx(q1 + math.radians(1.0))
    qtbot.keyClick(panel.rows[1].slider, QtCore.Qt.Key.Key_Left,
                   QtCore.Qt.KeyboardModifier.ControlModifier)
    assert session.q[1] == pytest.approx(q1 + math.radians(0.9))
    qtbot.keyClick(panel.rows[1].slider, QtCore.Qt.Key.Key_Down)
    assert panel.selected == 2
    qtbot.keyClick(panel.rows[2].slider, QtCore.Qt.Key.Key_Left)
    assert session.q[2] == pytest.approx(-math.radians(1.0))
    # the +/- buttons step too, and stop at the limit
    session.set_joint(4, session.robot.qlim[4, 1] - math.radians(0.5))
    qtbot.mouseClick(panel.rows[4].plus, QtCore.Qt.MouseButton.LeftButton)
    assert session.q[4] == pytest.approx(session.robot.qlim[4, 1])
    assert panel.rows[4].bar.state == 2


def test_limit_indicator_goes_amber_then_red(window, session):
    row = window.joint_panel.rows[0]
    lo, hi = session.robot.qlim[0]
    session.set_joint(0, 0.0)
    assert row.bar.state == 0
    session.set_joint(0, hi - 0.02 * (hi - lo))
    assert row.bar.state == 1
    session.set_joint(0, hi)
    assert row.bar.state == 2


def test_rows_follow_a_new_robot_and_old_rows_let_go(window, session):
    old_rows = list(window.joint_panel.rows)
    assert window.open_robot("twolink")
    assert len(window.joint_panel.rows) == 2
    session.set_q([0.3, -0.2])  # old rows (6 joints) must not react any more
    assert all(len(r._subs._connections) == 0 for r in old_rows)
    np.testing.assert_allclose(window.joint_panel.values_shown(), np.degrees([0.3, -0.2]),
                               atol=1e-3)


def test_long_joint_names_keep_their_distinguishing_end(window, qtbot):
    from PySide6 import QtGui, QtWidgets

    from tests.urdf_files import PANDA

    assert window.open_robot(str(PANDA))
    rows = window.joint_panel.rows[:7]  # the arm's joints
    subs = [next(lb for lb in r.findChildren(QtWidgets.QLabel) if lb.toolTip() == f"panda_joint{j}")
            for j, r in enumerate(rows, start=1)]
    texts = [lb.text() for lb in subs]
    # panda_joint1..7 (and panda_finger_joint1) share the word "panda_": the rows show
    # what tells them apart, the whole name is in the tooltip
    assert texts == [f"joint{j}" for j in range(1, 8)]
    for lb in subs:
        small = lb.font()
        small.setPointSizeF(8.0)
        assert QtGui.QFontMetrics(small).horizontalAdvance(lb.text()) <= lb.width()


def test_joint_field_takes_pi_expressions_and_a_good_entry_clears_the_old_error(
        window, session, qtbot):
    """Issue 28 item 8: ``-pi/4`` is taken in a joint field as in the D-H editor (pi is
    in radians: -45 in a degree field), and the status bar's refusal of a bad entry goes
    once a good one is made."""
    row = window.joint_panel.rows[0]
    edit = row.spin.lineEdit()
    edit.selectAll()
    qtbot.keyClicks(edit, "abc")
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)
    bar = window.statusBar()
    assert "not a number" in bar.currentMessage()
    edit.selectAll()
    qtbot.keyClicks(edit, "-pi/4")
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)
    assert session.q[0] == pytest.approx(-math.pi / 4, abs=1e-12)
    assert bar.currentMessage() == ""
    assert row.spin.note == ""
    # with a unit of its own
    edit.selectAll()
    qtbot.keyClicks(edit, "pi/6 rad")
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)
    assert session.q[0] == pytest.approx(math.pi / 6, abs=1e-12)


def test_arrow_keys_step_the_joint_whose_label_was_clicked(window, session, qtbot):
    """Issue 28 item 8: a click on a row's name (a label, which takes no focus) selects it
    and the arrow keys then step that joint."""
    panel = window.joint_panel
    session.go_to_pose("qz")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    window.view.setFocus()  # the keyboard elsewhere before the click
    row = panel.rows[2]
    qtbot.mouseClick(row.name, QtCore.Qt.MouseButton.LeftButton,
                     pos=row.name.rect().center())
    assert panel.selected == 2
    focus = QtWidgets.QApplication.focusWidget()
    qtbot.keyClick(focus, QtCore.Qt.Key.Key_Right)
    assert session.q[2] == pytest.approx(math.radians(1.0))
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), QtCore.Qt.Key.Key_Down)
    assert panel.selected == 3


def test_save_pose_keeps_the_current_pose_per_robot_for_later_sessions(window, session, qtbot,
                                                                       settings):
    """Issue 28 item 5: Save pose... asks a name, keeps the joint values in the user's
    settings for this robot, and a button for it takes the robot back there (one undo
    step); a new window (a later session) has it too; another robot does not."""
    from robogui.app.shell.main_window import MainWindow
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    panel = window.joint_panel
    q = np.radians([10.0, -20.0, 30.0, -40.0, 50.0, -60.0])
    session.set_q(q)

    def answer():
        dlg = QtWidgets.QApplication.activeModalWidget()
        if not isinstance(dlg, QtWidgets.QInputDialog):
            QtCore.QTimer.singleShot(20, answer)
            return
        dlg.setTextValue("  over the  table ")
        dlg.accept()

    QtCore.QTimer.singleShot(0, answer)
    qtbot.mouseClick(panel.save_pose_button, QtCore.Qt.MouseButton.LeftButton)
    assert "over the table" in panel.pose_buttons
    session.go_to_pose("qz")
    qtbot.mouseClick(panel.pose_buttons["over the table"], QtCore.Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(session.q, q, atol=1e-12)
    assert window.undo.stack.undoText() == "Named pose over the table"
    with pytest.raises(ValueError, match="robot's own"):
        panel.save_pose("qr")
    # a later session with the same settings
    win2 = MainWindow(Session(load_robot("puma560")), settings=settings, restore=False,
                      autosave_path=False)
    qtbot.addWidget(win2)
    assert "over the table" in win2.joint_panel.pose_buttons
    win2.session.set_robot(load_robot("stanford"))
    assert "over the table" not in win2.joint_panel.pose_buttons
    win2.close()
