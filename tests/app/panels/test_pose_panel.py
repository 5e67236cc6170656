"""Pose panel: position, orientation in three forms, configuration, manipulability, clipboard."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtGui

from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.spatial.quaternion import UnitQuaternion
from robogui.engine.spatial.transforms import tr2eul, tr2rpy
from robogui.session.explain.armconfig import arm_config

Q = np.array([0.3, 0.7, -0.4, 0.5, -0.6, 1.1])


def test_position_and_rpy_are_fkine_in_display_units(window, session, numbers):
    pp = window.pose_panel
    session.set_q(Q)
    T = fkine(session.robot, Q)
    np.testing.assert_allclose(numbers(pp.pos_labels), T[:3, 3] * 1000, atol=0.006)
    assert pp.pos_units[0].text() == "mm"
    np.testing.assert_allclose(numbers(pp.ori_labels[:3]), np.degrees(tr2rpy(T)), atol=6e-4)
    session.display.update(length_unit="m", angle_unit="rad")
    np.testing.assert_allclose(numbers(pp.pos_labels), T[:3, 3], atol=6e-6)
    np.testing.assert_allclose(numbers(pp.ori_labels[:3]), tr2rpy(T), atol=6e-6)
    assert pp.ori_units[0].text() == "rad"
    # the 4x4 matrix, row by row
    lines = pp.matrix_label.text().split("\n")
    shown = np.array([[float(v) for v in line.split()] for line in lines])
    np.testing.assert_allclose(shown, T, atol=6e-5)


def test_orientation_choices_zyz_and_quaternion(window, session, numbers):
    pp = window.pose_panel
    session.set_q(Q)
    T = fkine(session.robot, Q)
    pp.orientation_combo.setCurrentIndex(1)
    assert session.display.orientation == "zyz"
    np.testing.assert_allclose(numbers(pp.ori_labels[:3]), np.degrees(tr2eul(T)), atol=6e-4)
    assert [lab.text() for lab in pp.ori_names[:3]] == ["phi", "theta", "psi"]
    session.display.orientation = "quaternion"
    assert pp.orientation_combo.currentIndex() == 2
    uq = UnitQuaternion(T)
    np.testing.assert_allclose(numbers(pp.ori_labels), np.r_[uq.s, uq.v], atol=6e-6)
    assert pp.ori_labels[3].isVisibleTo(pp)
    session.display.orientation = "rpy"
    assert not pp.ori_labels[3].isVisibleTo(pp)


def test_configuration_and_manipulability(window, session):
    pp = window.pose_panel
    session.set_q(Q)
    config = arm_config(session.frames)
    assert pp.config_label.text().startswith(f"<b>{config}</b>")
    J = jacob0(session.robot, Q)
    w = math.sqrt(np.linalg.det(J @ J.T))
    assert float(pp.manip_label.text().split()[0]) == pytest.approx(w, abs=6e-6)
    # dragging updates the pose but not the manipulability; the release does
    shown = pp.manip_label.text()
    session.set_joint(4, 0.2, changing=True)
    assert pp.manip_label.text() == shown
    session.finish_change()
    J = jacob0(session.robot, session.q)
    assert float(pp.manip_label.text().split()[0]) == pytest.approx(
        math.sqrt(np.linalg.det(J @ J.T)), abs=6e-6)
    assert window.open_robot("twolink")
    assert "no spherical wrist" in pp.config_label.text()


def test_manipulability_follows_playback(window, session):
    from robogui.engine.trajectory.trajectory import jtraj

    robot = session.robot
    session.set_trajectory(jtraj(robot.pose("qz"), robot.pose("qn"), np.linspace(0, 2, 41)))
    pp = window.pose_panel
    session.play()
    session.advance(0.7)  # one timer tick, mid-move: playback has not completed its change
    assert session.playing and session.is_changing
    J = jacob0(robot, session.q)
    assert float(pp.manip_label.text().split()[0]) == pytest.approx(
        math.sqrt(np.linalg.det(J @ J.T)), abs=6e-6)


def test_copy_to_clipboard(window, session):
    session.set_q(Q)
    window.pose_panel.copy_button.click()
    text = QtGui.QGuiApplication.clipboard().text()
    assert text == window.pose_panel.text()
    T = fkine(session.robot, Q)
    assert f"x = {T[0, 3] * 1000:.2f} mm" in text
    assert "configuration: " in text and "manipulability (Yoshikawa)" in text
    assert text.splitlines()[0].startswith("q = [17.189 deg")
