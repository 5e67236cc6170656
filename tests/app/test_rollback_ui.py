"""Issue 14, item 5 through the window: when something that shows a new robot fails (here
a listener standing in for a broken 3D rebuild), the message is shown once, the previous
robot, q and trajectory come back, and later joint changes still work."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtWidgets

ROOT = Path(__file__).resolve().parents[2]


def test_a_robot_that_cannot_be_shown_is_rolled_back(window, session, errors, monkeypatch):
    from robogui.session.motion.trajectories import load_trajectory_csv

    session.set_trajectory(load_trajectory_csv(ROOT / "assets" / "puma560-demo.csv",
                                               session.robot))
    session.set_time(1.5, changing=False)
    robot, traj, q = session.robot, session.trajectory, session.q.copy()
    assert traj is not None

    def broken_rebuild(new_robot):
        if new_robot.n != 6:
            raise IndexError("list index out of range")

    steps = window.undo.stack.count()
    session.events.robot.connect(broken_rebuild)
    path = str(ROOT / "robots" / "twolink.toml")
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (path, "")))
    window.act_open.trigger()  # File > Open robot file...
    assert len(errors) == 1
    title, text = errors[0]
    assert "twolink.toml" in text and "the previous robot is back" in text
    assert "IndexError: list index out of range" in text
    assert session.robot is robot and session.trajectory is traj and session.time == 1.5
    np.testing.assert_array_equal(session.q, q)
    assert window.windowTitle().startswith(robot.name)
    assert window.undo.stack.count() == steps  # a rolled-back change is not an undo step

    # the legacy import path too
    legacy = ROOT / "tests" / "data" / "legacy" / "scara.dat"
    window.legacy_actions.import_robot_file(str(legacy))
    assert len(errors) == 2 and "scara.dat" in errors[1][1] and session.robot is robot
    assert window.undo.stack.count() == steps

    session.events.robot.disconnect(broken_rebuild)
    session.set_joint(0, 0.4)  # every listener still works
    assert session.q[0] == 0.4
    steps = window.undo.stack.count()  # the joint change is a step of its own
    window.act_open.trigger()  # and the same file opens once nothing is broken
    assert session.robot.n == 2 and len(errors) == 2
    assert window.undo.stack.count() == steps + 1  # this one is undoable
    window.undo.stack.undo()
    assert session.robot is robot and session.trajectory is traj
