"""Drivebot panel: sliders, spin boxes, units, steps, named poses - all through the session."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore

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
