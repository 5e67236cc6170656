"""Issue 23 through the window: a representative subset of the hostile files of
tests/data/bad/hostile/ (one or more per kind; all of them are tested at the loader in
tests/io/test_hostile_files.py) opened by File > Open (the file dialog answered by the
test): a message naming the file, and the robot, q, program and trajectory kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtWidgets
from PySide6.QtTest import QTest

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "bad" / "hostile"
ASSETS = Path(__file__).resolve().parents[2] / "assets"
SUBSET = ["xacro-code-popen.xacro", "xacro-code-string-bomb.xacro",
          "xacro-bomb-self-include.xacro", "xacro-bomb-recursive-macro.xacro",
          "xacro-read-yaml-etc-passwd.xacro", "xacro-read-include-dotdot.xacro",
          "xacro-read-entity.xacro",
          "urdf-number-mimic-multiplier-nan.urdf", "urdf-number-limit-1e308.urdf",
          "urdf-number-rpy-four-values.urdf", "urdf-duplicate-link.urdf",
          "urdf-motor-word.urdf", "urdf-chain-300-joints.urdf",
          "mjcf-include-etc-passwd.xml", "mjcf-include-loop.xml",
          "mjcf-replicate-100000-bodies.xml", "mjcf-nan-pos.xml"]


def test_hostile_files_through_file_open_keep_the_state(window, session, errors,
                                                        monkeypatch, qtbot, tmp_path):
    monkeypatch.chdir(tmp_path)
    teach = window.teach
    assert teach.program.load_from(ASSETS / "pick-and-place.prog")
    assert teach.timeline.load_csv(ASSETS / "puma560-demo.csv")
    session.pause()
    session.set_time(0.7, changing=False)
    robot, traj, program = session.robot, session.trajectory, teach.state.program
    q = session.q.copy()
    current = {"path": ""}
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (current["path"], "")))
    for name in SUBSET:
        before = len(errors)
        current["path"] = str(HOSTILE / name)
        window.act_open.trigger()
        qtbot.waitUntil(lambda b=before: len(errors) > b, timeout=15000)
        title, text = errors[-1]
        assert name in text, (name, title, text)
        assert len(text) <= 700, (name, len(text))
        assert session.robot is robot, name
        assert np.array_equal(session.q, q), name
        assert session.trajectory is traj, name
        assert teach.state.program == program, name
    assert not (tmp_path / "CANARY").exists()
    session.set_joint(0, 0.25)
    assert session.q[0] == 0.25


def test_bad_geometry_opens_with_a_warning_naming_the_link(window, session, monkeypatch,
                                                           qtbot):
    path = HOSTILE / "visual-box-two-sizes.urdf"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    window.act_open.trigger()
    qtbot.waitUntil(lambda: session.robot.name == "hostile", timeout=15000)
    qtbot.waitUntil(lambda: bool(window.view.mesh_warnings), timeout=15000)
    warnings = window.view.mesh_warnings
    assert any("link 'tool'" in w and "<box size> has 2 values, not 3" in w for w in warnings)


def test_a_pan_tilt_head_opens_with_its_panels(window, session, errors, monkeypatch, qtbot,
                                              tmp_path):
    """Also found in issue 23: the manipulability panel failed on a two-joint head."""
    path = tmp_path / "pantilt.urdf"
    path.write_text(
        '<robot name="pantilt"><link name="base"/><link name="pan"/><link name="tilt"/>'
        '<joint name="pan_joint" type="revolute"><parent link="base"/><child link="pan"/>'
        '<origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>'
        '<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>'
        '<joint name="tilt_joint" type="revolute"><parent link="pan"/><child link="tilt"/>'
        '<origin xyz="0 0 0.05"/><axis xyz="0 1 0"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    before = len(errors)
    window.act_open.trigger()
    qtbot.waitUntil(lambda: session.robot.name == "pantilt", timeout=15000)
    session.set_joint(1, 0.5)
    qtbot.wait(200)
    assert len(errors) == before, errors[before:]
    assert session.q[1] == 0.5


def test_xacro_arguments_are_asked_and_remembered_per_file(window, session, monkeypatch,
                                                           qtbot, tmp_path):
    """Issue 27 item 1: the dialog lists the file's arguments with their defaults; what
    the user types opens the robot and is offered again next time."""
    path = tmp_path / "arm.xacro"
    path.write_text(
        '<?xml version="1.0"?><robot name="argued" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        '<xacro:arg name="prefix" default="left_"/>'
        '<link name="base"/><link name="$(arg prefix)$(arg tool)"/>'
        '<joint name="j1" type="revolute"><parent link="base"/>'
        '<child link="$(arg prefix)$(arg tool)"/><axis xyz="0 0 1"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "")))
    seen = {}

    def answer(text: str | None):
        dlg = next(w for w in QtWidgets.QApplication.topLevelWidgets()
                   if w.objectName() == "xacroArgs" and w.isVisible())
        fields = {n: dlg.findChild(QtWidgets.QLineEdit, f"xacroArg_{n}").text()
                  for n in ("prefix", "tool")}
        seen.setdefault("fields", []).append(fields)
        ok = dlg.buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok)
        seen.setdefault("ok", []).append(ok.isEnabled())
        if text is not None:
            QTest.keyClicks(dlg.findChild(QtWidgets.QLineEdit, "xacroArg_tool"), text)
        QTest.mouseClick(ok, QtCore.Qt.MouseButton.LeftButton)

    QtCore.QTimer.singleShot(300, lambda: answer("flange"))
    window.act_open.trigger()
    qtbot.waitUntil(lambda: session.robot.name == "argued", timeout=15000)
    assert session.robot.tip == "left_flange"
    assert seen["fields"][0] == {"prefix": "left_", "tool": ""}
    assert seen["ok"][0] is False  # 'tool' has no default: OK waits for it
    QtCore.QTimer.singleShot(300, lambda: answer(None))
    window.act_open.trigger()
    qtbot.waitUntil(lambda: len(seen["fields"]) == 2, timeout=15000)
    assert seen["fields"][1] == {"prefix": "left_", "tool": "flange"}  # remembered
