"""A URDF with a mimic joint on the chain in the app: one slider per independent joint,
and moving the leader's slider moves the follower's link in the 3D view."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore

ARM = Path(__file__).parents[1] / "data" / "mimic_arm.urdf"


def test_leader_slider_moves_the_follower_link(qtbot, window, session, errors):
    assert window.open_robot(ARM) is True
    assert errors == []
    robot = session.robot
    assert robot.n == 3 and robot.n_bodies == 4
    panel = window.joint_panel
    assert len(panel.rows) == 3  # j1, j2, j4: the follower j3 has no slider
    # the follower's stick (body 3) is drawn, tagged with its leader (joint index 1)
    follower = [p for p in window.view.moving_parts(("joint",)) if p.frame == 3]
    assert len(follower) == 1 and follower[0].joint == 1
    window.set_view("front")
    qtbot.wait(50)
    before_px = window.view.grab_array()
    before = window.view.part_transforms(session.frames, follower)[0]
    row = panel.rows[1]
    row.slider.setFocus()
    for _ in range(3):
        qtbot.keyClick(row.slider, QtCore.Qt.Key.Key_PageUp)
    q = session.q
    assert q[1] > 0.01 and q[0] == 0 and q[2] == 0
    # the follower turned by -2 times the leader: frame 3 is the full chain's at E q + c
    full_q = np.array([q[0], q[1], -2 * q[1] + 0.1, q[2]])
    np.testing.assert_allclose(session.frames, robot.full.fkine_all(full_q), atol=1e-12)
    after = window.view.part_transforms(session.frames, follower)[0]
    assert not np.allclose(after, before)
    # the stick sits on the follower's frame, which the full chain puts at E q + c
    np.testing.assert_allclose(after, robot.full.fkine_all(full_q)[3] @ follower[0].local,
                               atol=1e-12)
    qtbot.wait(50)
    assert np.abs(window.view.grab_array().astype(int) - before_px).sum() > 0
