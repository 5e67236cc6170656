"""MuJoCo MJCF robots in the app: File > Open reads them (meshes drawn), and a model with
two arms asks which one through the tip chooser."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from robogui.app.files.library import FILE_FILTER
from tests.mjcf_files import ARMS, ROBOSUITE

pytestmark = pytest.mark.skipif(not ARMS, reason="robosuite / dm_control assets not installed")


def test_open_an_mjcf_arm_draws_its_meshes(qtbot, window, session, errors):
    assert "*.xml" in FILE_FILTER
    name, path, tip = next(a for a in ARMS if a[0] == "ur5e")
    assert window.open_robot(str(path)) is True
    assert errors == []
    assert (session.robot.n, session.robot.tip) == (6, tip)
    meshes = [p for p in window.view._parts if p.kind == "mesh"]
    assert len(meshes) == len([v for v in session.robot.visuals if v.kind == "mesh"]) > 0


def test_two_arms_ask_for_the_tip(qtbot, window, session, errors):
    baxter = ROBOSUITE / "models/assets/robots/baxter/robot.xml"

    def answer():
        dlg = QtWidgets.QApplication.activeModalWidget()
        if dlg is None or dlg.objectName() != "tipChooser":
            QtCore.QTimer.singleShot(20, answer)
            return
        combo = dlg.findChild(QtWidgets.QComboBox)
        while not combo.currentText().startswith("right_hand "):
            qtbot.keyClick(combo, QtCore.Qt.Key.Key_Down)
        qtbot.keyClick(dlg, QtCore.Qt.Key.Key_Return)

    QtCore.QTimer.singleShot(20, answer)
    assert window.open_robot(str(baxter)) is True
    assert errors == []
    assert (session.robot.n, session.robot.tip) == (7, "right_hand")
