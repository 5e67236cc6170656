"""Issue 14: every malformed file of tests/data/bad/, opened through the window's File menu
(the file dialog answered by the test), shows a message naming the file and leaves the
robot, q, program, trajectory and work cell as they were; joint changes still work
afterwards. Cell files (.cell, issue 24) go through File > Work cell > Open cell."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtGui, QtWidgets

BAD = Path(__file__).resolve().parents[1] / "data" / "bad"
ASSETS = Path(__file__).resolve().parents[2] / "assets"
FILES = sorted(p for p in BAD.iterdir() if p.is_file() and p.suffix != ".py")


def menu_action(window, text: str) -> QtGui.QAction:
    hits = [a for a in window.findChildren(QtGui.QAction) if a.text().replace("&", "") == text]
    assert hits, f"no menu action {text!r}"
    return hits[0]


def test_every_bad_file_through_the_file_menu_keeps_the_state(window, session, errors,
                                                               monkeypatch, qtbot):
    teach = window.teach
    assert teach.program.load_from(ASSETS / "pick-and-place.prog")
    assert teach.timeline.load_csv(ASSETS / "puma560-demo.csv")
    assert window.cell_tools.files.open_cell(ASSETS / "cells" / "pick-and-place.cell")
    session.pause()
    session.set_time(0.7, changing=False)
    robot, traj, program = session.robot, session.trajectory, teach.state.program
    cell = session.cell
    q = session.q.copy()

    chosen: list[str] = []  # questions a file leaves open (which robot, which D-H)

    def choose(parent, title, label, items):
        chosen.append(label)
        return None  # the user cancels

    window.legacy_actions.choose = choose
    current = {"path": ""}
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (current["path"], "")))
    actions = {
        ".toml": window.act_open,  # File > Open robot file...
        ".urdf": window.act_open,
        ".conf": window.legacy_actions.act_import,  # File > Import ROBOOP / Rob_Mat robot...
        ".dat": window.legacy_actions.act_import,
        ".mot": window.legacy_actions.act_motion,  # File > Load Rob_Mat motion (.MOT)...
        ".prog": menu_action(window, "Open program\u2026"),  # File > Teach program > Open
        ".csv": teach.timeline.act_load,  # File > Trajectory > Load CSV...
        ".cell": window.cell_tools.actions["open"],  # File > Work cell > Open cell...
    }
    for path in FILES:
        before_errors, before_questions = len(errors), len(chosen)
        current["path"] = str(path)
        actions[path.suffix].trigger()
        qtbot.waitUntil(lambda e=before_errors, c=before_questions: len(errors) > e
                        or len(chosen) > c, timeout=10000)
        if len(errors) > before_errors:
            title, text = errors[-1]
            assert path.name in text, (path.name, title, text)
            assert len(errors) == before_errors + 1, errors[before_errors:]  # reported once
        # nothing changed
        assert session.robot is robot, path.name
        assert np.array_equal(session.q, q), path.name
        assert session.trajectory is traj, path.name
        assert teach.state.program == program, path.name
        assert session.cell is cell, path.name
        assert window.windowTitle().startswith(robot.name)
    # the ROBOOP files that leave the robot or the convention open ask (and were cancelled)
    assert len(chosen) == 2
    assert len(errors) == len(FILES) - 2  # every other file: exactly one message
    # the window still works: joint changes reach the session and every listener
    session.set_joint(0, 0.25)
    assert session.q[0] == 0.25
    window.joint_panel.setFocus()
    assert np.allclose(window.view.grab_image().size().toTuple(), window.view.size().toTuple())
