"""A URDF with a mimic joint on the chain in the app: one slider per independent joint,
and moving the leader's slider moves the follower's link in the 3D view."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore

ARM = Path(__file__).parents[2] / "data" / "mimic_arm.urdf"


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


def test_jog_plots_dh_table_and_symbolic_dialog_on_a_mimic_robot(qtbot, window, session,
                                                                 errors):
    from PySide6 import QtWidgets

    from robogui.app.panels.dh_table import dh_rows
    from robogui.app.plots import install_plot_docks
    from robogui.app.symbolic.symbolic_dialog import SymbolicDialog
    from robogui.engine.trajectory.trajectory import jtraj
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    arm = load_robot(ARM)
    session.set_robot(arm)
    session.set_q([0.3, 0.4, -0.5])
    # joint step of the leader's row; then a Cartesian jog through the reduced Jacobian
    window.joint_panel.rows[1].step(+1)
    assert session.q[1] > 0.4 and errors == []
    jog = window.teach.jog
    jog.set_frame("world")
    jog.set_mode(0)
    p0 = session.T[:3, 3].copy()
    qtbot.mouseClick(jog.buttons[("z", 1)], QtCore.Qt.MouseButton.LeftButton)
    p1 = session.T[:3, 3]
    assert p1[2] - p0[2] > 1e-4 and errors == []
    head, rows = dh_rows(session.robot, "deg")
    assert len(rows) == 3  # the independent joints
    # torque plot of a trajectory: E^T tau_full, as the engine says
    s2 = Session(arm)
    win = QtWidgets.QMainWindow()
    win.setCentralWidget(QtWidgets.QLabel("3D view"))
    qtbot.addWidget(win)
    docks = install_plot_docks(win, s2, tabbed=False)
    win.show()
    q0 = np.array([0.3, 0.4, -0.5])
    traj = jtraj(q0, q0 + 0.3, np.linspace(0.0, 1.0, 21))
    s2.set_trajectory(traj)
    qtbot.waitUntil(lambda: docks.runner.analysis is not None
                    and docks.runner.analysis.n_samples == 21, timeout=10000)
    QtWidgets.QApplication.processEvents()
    _, y = docks.torque.torque_curve("total", 1).getData()
    E = arm.coupling.E
    full = arm.full.rne(traj.q @ E.T + arm.coupling.c, traj.qd @ E.T, traj.qdd @ E.T)
    np.testing.assert_allclose(y, (full @ E)[:, 1], atol=1e-9)
    docks.close()
    win.close()
    dlg = SymbolicDialog(session, present_error=errors)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: dlg.view is not None and not dlg.is_busy, timeout=30000)
    assert dlg.view.n == 3 and errors == []
    dlg.close()
