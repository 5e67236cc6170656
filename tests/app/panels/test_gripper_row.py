"""The gripper's own control (issue 27 item 4): the Panda opens with 7 arm joints and a
Gripper row; pressing Open slides each finger 0.04 m (its joint limit) away from the
hand's centre, as Pinocchio's full model of the file puts the finger links; dragging the
slider is one undo step; Edit > Undo closes it again."""

from __future__ import annotations

import numpy as np
import pinocchio as pin
from PySide6 import QtCore, QtWidgets

from tests.urdf_files import PANDA


def _finger_transforms(window, session):
    """World placements of the drawn finger meshes (the parts that follow the gripper)."""
    scene = window.view.scene
    parts = [p for p in scene.mesh_parts if p.follow and isinstance(p.follow[0][0], str)]
    return parts, window.view.part_transforms(session.frames, parts)


def _pinocchio_fingers(q, opening):
    model = pin.buildModelFromUrdf(str(PANDA))
    data = model.createData()
    x = pin.neutral(model)
    for k in range(7):
        x[model.joints[model.getJointId(f"panda_joint{k + 1}")].idx_q] = q[k]
    for name in ("panda_finger_joint1", "panda_finger_joint2"):  # joint2 mimics joint1
        x[model.joints[model.getJointId(name)].idx_q] = opening
    pin.framesForwardKinematics(model, data, x)
    return {k: data.oMf[model.getFrameId(k)].homogeneous
            for k in ("panda_leftfinger", "panda_rightfinger", "panda_hand")}


def test_open_and_close_the_panda_gripper_as_a_person(qtbot, window, session, errors):
    assert window.open_robot(PANDA) is True
    assert errors == []
    robot = session.robot
    assert robot.n == 7 and [g.name for g in robot.gripper] == ["panda_finger_joint1"]
    row = window.joint_panel.gripper_row
    assert row.isVisibleTo(window) and len(window.joint_panel.rows) == 7
    parts, closed = _finger_transforms(window, session)
    assert len(parts) >= 2
    q = session.q.copy()
    px_closed = window.view.grab_array().astype(int)

    qtbot.mouseClick(row.open_button, QtCore.Qt.MouseButton.LeftButton)
    assert session.gripper.opening == 1.0 and session.gripper.travel() == 0.04
    assert row.value.text() == "40.0 mm"
    np.testing.assert_array_equal(session.q, q)  # the arm did not move
    _, opened = _finger_transforms(window, session)
    # every finger mesh slid 0.04 m, the two fingers in opposite directions
    shifts = opened[:, :3, 3] - closed[:, :3, 3]
    np.testing.assert_allclose(np.linalg.norm(shifts, axis=1), 0.04, atol=1e-9)
    np.testing.assert_allclose(opened[:, :3, :3], closed[:, :3, :3], atol=1e-12)
    assert min(shifts @ shifts[0]) < 0  # one finger each way
    # the finger links where Pinocchio's full model puts them at 0.04 m
    pin_open, pin_closed = _pinocchio_fingers(q, 0.04), _pinocchio_fingers(q, 0.0)
    for k in ("panda_leftfinger", "panda_rightfinger"):
        d = pin_open[k][:3, 3] - pin_closed[k][:3, 3]
        assert any(np.allclose(s, d, atol=1e-9) for s in shifts), k
    # and the picture changed where the fingers are
    window.view.scene.update()
    qtbot.wait(50)
    px_open = window.view.grab_array().astype(int)
    assert (np.abs(px_open - px_closed).max(axis=2) > 40).sum() > 50

    # Edit > Undo closes it again, Redo opens it
    window.act_undo.trigger()
    assert session.gripper.opening == 0.0 and row.slider.value() == 0
    _, back = _finger_transforms(window, session)
    np.testing.assert_allclose(back, closed, atol=1e-12)
    window.act_redo.trigger()
    assert session.gripper.opening == 1.0

    # a drag of the slider's handle to its middle: half open, one undo step
    window.act_undo.trigger()
    assert session.gripper.opening == 0.0
    depth = window.undo.stack.index()
    handle = _handle_pos(row.slider)
    qtbot.mousePress(row.slider, QtCore.Qt.MouseButton.LeftButton, pos=handle)
    mid = QtCore.QPoint(row.slider.width() // 2, handle.y())
    for x in np.linspace(handle.x(), mid.x(), 6).astype(int)[1:]:
        qtbot.mouseMove(row.slider, QtCore.QPoint(int(x), handle.y()))
    qtbot.mouseRelease(row.slider, QtCore.Qt.MouseButton.LeftButton, pos=mid)
    half = session.gripper.travel()
    assert 0.01 < half < 0.03
    _, dragged = _finger_transforms(window, session)
    np.testing.assert_allclose(np.linalg.norm(dragged[:, :3, 3] - closed[:, :3, 3], axis=1),
                               half, atol=1e-9)
    assert window.undo.stack.index() == depth + 1  # the drag: one step
    window.act_undo.trigger()
    assert session.gripper.opening == 0.0
    assert errors == []


def _handle_pos(slider: QtWidgets.QSlider) -> QtCore.QPoint:
    opt = QtWidgets.QStyleOptionSlider()
    slider.initStyleOption(opt)
    rect = slider.style().subControlRect(QtWidgets.QStyle.ComplexControl.CC_Slider, opt,
                                         QtWidgets.QStyle.SubControl.SC_SliderHandle, slider)
    return rect.center()


def test_a_robot_without_gripper_hides_the_row(qtbot, window, session):
    row = window.joint_panel.gripper_row
    assert session.robot.gripper == () and not row.isVisibleTo(window)
