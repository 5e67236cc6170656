"""Files dropped on the window (or on the 3D view) open as from the File menu."""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.app.shell.file_drop import file_kind
from robogui.io.samples import demo_files
from tests.urdf_files import PANDA


def _drop(qtbot, target, paths):
    """A drag of ``paths`` from a file manager entering ``target`` and dropped there, as
    the window system delivers it; True when the target accepted both."""
    mime = QtCore.QMimeData()
    mime.setUrls([QtCore.QUrl.fromLocalFile(str(p)) for p in paths])
    pos = QtCore.QPointF(40, 40)
    copy = QtCore.Qt.DropAction.CopyAction
    buttons, mods = QtCore.Qt.MouseButton.LeftButton, QtCore.Qt.KeyboardModifier.NoModifier
    enter = QtGui.QDragEnterEvent(pos.toPoint(), copy, mime, buttons, mods)
    QtWidgets.QApplication.sendEvent(target, enter)
    drop = QtGui.QDropEvent(pos, copy, mime, buttons, mods)
    QtWidgets.QApplication.sendEvent(target, drop)
    qtbot.wait(50)  # the files open once the drop has returned
    return enter.isAccepted(), drop.isAccepted()


@pytest.mark.parametrize("name, kind", [
    ("arm.URDF", "robot"), ("kr5.xacro", "robot"), ("puma.toml", "robot"), ("r.conf", "robot"),
    ("ROBOT.DAT", "robot"), ("pick.prog", "program"), ("run.csv", "trajectory"),
    ("notes.txt", None), ("mesh.stl", "mesh"), ("part.GLB", "mesh"), ("a.cell", "cell"),
    ("noext", None)])
def test_file_kind_by_suffix(name, kind):
    assert file_kind(name) == kind


def test_dropping_a_urdf_on_the_3d_view_opens_it(qtbot, window, session, errors):
    accepted = _drop(qtbot, window.view.scene, [PANDA])
    assert accepted == (True, True)
    assert session.robot.name == "panda" and session.robot.is_general
    assert window.robot_path == str(PANDA.resolve()) and errors == []


def test_robot_program_and_trajectory_dropped_together_open_in_order(qtbot, window, session,
                                                                    errors, tmp_path):
    program, trajectory = demo_files()
    window.open_robot(str(PANDA))  # another robot first: the drop brings the Puma back
    robot = tmp_path / "puma.toml"
    from robogui.io.robotfile import load_robot, save_robot

    save_robot(load_robot("puma560"), robot)
    # dropped in any order: the robot opens before its program and trajectory
    accepted = _drop(qtbot, window, [trajectory, program, robot])
    assert accepted == (True, True)
    assert session.robot.n == 6 and "Puma" in session.robot.name
    assert window.teach.state.program.name and len(window.teach.state.program.moves) > 0
    qtbot.waitUntil(lambda: session.trajectory is not None, timeout=10000)
    assert np.isfinite(session.trajectory.q).all() and errors == []


def test_unknown_files_are_refused_by_the_drag_and_named_when_dropped_with_others(
        qtbot, window, session, errors, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("hello")
    robot = session.robot
    assert _drop(qtbot, window, [notes]) == (False, False)  # the cursor says no
    assert session.robot is robot and errors == []
    urdf = tmp_path / "panda.urdf"
    shutil.copy(PANDA, urdf)  # meshes missing here: warned about, sticks drawn
    accepted = _drop(qtbot, window, [notes, urdf])
    assert accepted == (True, True)
    assert session.robot.name == "panda"
    assert len(errors) == 1 and "notes.txt" in errors[0][1] and ".prog" in errors[0][1]


def test_a_bad_robot_file_dropped_keeps_the_robot_and_names_the_file(qtbot, window, session,
                                                                     errors, tmp_path):
    bad = tmp_path / "broken.urdf"
    bad.write_text("<robot name='x'><joint name='j' type='revolute'></joint></robot>")
    robot = session.robot
    _drop(qtbot, window, [bad])
    assert session.robot is robot
    assert len(errors) == 1 and "broken.urdf" in errors[0][1]
