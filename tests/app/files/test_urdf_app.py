"""URDF robots in the app: open with a tip chooser, meshes in the 3D view, the sticks
toggle, a missing mesh, a bad file, jogging and the D-H table on general joints."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtWidgets

from robogui.app.panels.dh_table import dh_rows
from tests.urdf_files import PANDA, UR5


def _answer_tip_dialog(qtbot, choice: str):
    """When the tip chooser opens, pick ``choice`` with the keyboard and press Enter."""

    def answer():
        dlg = QtWidgets.QApplication.activeModalWidget()
        if dlg is None or dlg.objectName() != "tipChooser":
            QtCore.QTimer.singleShot(20, answer)
            return
        combo = dlg.findChild(QtWidgets.QComboBox)
        while combo.currentText() != choice:
            qtbot.keyClick(combo, QtCore.Qt.Key.Key_Down)
        qtbot.keyClick(dlg, QtCore.Qt.Key.Key_Return)

    QtCore.QTimer.singleShot(20, answer)


def _mesh_parts(window):
    return [p for p in window.view._parts if p.kind == "mesh"]


def test_open_urdf_at_its_flange_and_draws_meshes(qtbot, window, session, errors):
    assert window.open_robot(UR5) is True  # no question: tool0 is the flange
    assert errors == []
    robot = session.robot
    assert robot.tip == "tool0" and robot.n == 6 and robot.is_general
    assert len(_mesh_parts(window)) == 7  # one per UR5 link with a visual
    assert "general joints" in window._robot_label.text()
    # the toolbar's robot box names the file robot (no library entry chosen)
    assert window.picker.currentIndex() == -1
    assert window.picker.placeholderText() == f"{robot.name} ({Path(UR5).name})"
    # meshes shown, sticks hidden; the View toggle brings the sticks back
    sticks = [k for k, p in enumerate(window.view._parts) if p.kind in ("joint", "link")]
    meshes = [k for k, p in enumerate(window.view._parts) if p.kind == "mesh"]

    def shown(k):
        p = window.view._parts[k]
        return p.item.batch.part_shown(p.item.index)

    assert all(shown(k) for k in meshes) and not any(shown(k) for k in sticks)
    window.toggle_actions["show_meshes"].trigger()
    assert session.display.show_meshes is False
    assert not any(shown(k) for k in meshes) and all(shown(k) for k in sticks)
    window.toggle_actions["show_meshes"].trigger()
    assert all(shown(k) for k in meshes)


def test_cancelling_the_tip_chooser_keeps_the_robot(qtbot, window, session):
    """Baxter has two arms: the chooser asks which; Escape keeps the current robot."""
    from tests.urdf_files import ERD

    robot = session.robot

    def cancel():
        dlg = QtWidgets.QApplication.activeModalWidget()
        if dlg is None:
            QtCore.QTimer.singleShot(20, cancel)
            return
        qtbot.keyClick(dlg, QtCore.Qt.Key.Key_Escape)

    QtCore.QTimer.singleShot(20, cancel)
    assert window.open_robot(ERD / "baxter_description/urdf/baxter.urdf") is False
    assert session.robot is robot


def test_panda_meshes_render_and_follow_the_joints(qtbot, window, session):
    from robogui.io.robotfile import load_robot

    session.set_robot(load_robot(PANDA, tip="panda_hand"))
    window.set_view("front")
    qtbot.wait(50)
    before = window.view.grab_array()
    # the arm is drawn: many light (white Panda) pixels in the middle of the view
    h, w, _ = before.shape
    mid = before[h // 8: 7 * h // 8, w // 4: 3 * w // 4]
    assert (mid.min(axis=2) > 150).sum() > 2000
    q = session.q.copy()
    q[0] += 1.2
    q[1] += 0.6
    session.set_q(q)
    qtbot.wait(50)
    after = window.view.grab_array()
    assert np.abs(after.astype(int) - before.astype(int)).sum(axis=2).astype(bool).sum() > 2000


def test_missing_mesh_warns_with_file_and_link_and_draws_a_stick(qtbot, window, session,
                                                                 tmp_path):
    urdf = tmp_path / "arm.urdf"
    urdf.write_text("""<?xml version="1.0"?>
<robot name="two">
  <link name="base"/>
  <link name="upper"><visual><geometry><mesh filename="package://nowhere/upper.stl"/>
  </geometry></visual></link>
  <link name="fore"><visual><origin xyz="0.25 0 0"/><geometry><box size="0.5 0.1 0.1"/>
  </geometry><material name="red"><color rgba="1 0 0 1"/></material></visual></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.3"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0.5 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
</robot>""")
    assert window.open_robot(urdf) is True
    text = window.statusBar().currentMessage()
    assert "package://nowhere/upper.stl" in text and "'upper'" in text
    assert window.view.mesh_warnings and "upper" in window.view.mesh_warnings[0]
    parts = window.view._parts
    shown = [p for p in parts if p.item.batch.part_shown(p.item.index)]
    # link 1 (frame 1) has no mesh: its stick is drawn; link 2's box mesh is drawn
    assert any(p.kind in ("joint", "link") and p.frame == 1 for p in shown)
    assert [p.frame for p in shown if p.kind == "mesh"] == [2]
    assert not any(p.kind in ("joint", "link") and p.frame == 2 for p in shown)


def test_bad_urdf_shows_the_error_and_keeps_the_robot(window, session, errors, tmp_path):
    bad = tmp_path / "bad.urdf"
    bad.write_text('<robot name="r"><link name="a"/><link name="b"/>'
                   '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                   '<axis xyz="0 0 0"/></joint></robot>')
    robot = session.robot
    assert window.open_robot(bad) is False
    assert session.robot is robot
    assert "bad.urdf" in errors[0][1] and "<joint name='j'>" in errors[0][1]


def test_jog_and_dh_table_on_a_urdf_robot(qtbot, window, session):
    from robogui.io.robotfile import load_robot

    session.set_robot(load_robot(UR5, tip="tool0"))
    session.set_q([0.3, -1.2, 1.4, -1.5, -1.5, 0.2])
    jog = window.teach.jog
    jog.set_frame("world")
    jog.set_mode(0)
    p0 = session.T[:3, 3].copy()
    qtbot.mouseClick(jog.buttons[("x", 1)], QtCore.Qt.MouseButton.LeftButton)
    p1 = session.T[:3, 3]
    assert p1[0] - p0[0] > 1e-3 and abs(p1[1] - p0[1]) < 1e-6 and abs(p1[2] - p0[2]) < 1e-6
    head, rows = dh_rows(session.robot, "deg")
    assert head[2:6] == ["origin xyz (m)", "origin rpy (deg)", "axis", "then xyz / rpy"]
    assert rows[1][2] == "0 0.1358 0" and rows[1][4] == "0 1 0"
    window.dh_dock.toggleViewAction().trigger()
    assert window.dh_table.model.index(1, 2).data() == "0 135.8 0"  # the app's unit: mm
    # a general joint's origin, axis and after-transform are typed as shown: the
    # shoulder lifted to 200 mm moves the arm, as one undo step
    from tests.app.panels.test_dh_editor import _type_into

    table = window.dh_table.table
    q, T_before = session.q.copy(), session.T.copy()
    _type_into(qtbot, table, 1, "theta", "0 200 0")
    assert table.model().index(1, 2).data() == "0 200 0"
    np.testing.assert_allclose(session.robot.links[1].origin[:3, 3], [0, 0.2, 0])
    np.testing.assert_allclose(session.q, q)
    assert not np.allclose(session.T, T_before)
    assert window.undo.stack.count() >= 1
    window.undo.stack.undo()
    np.testing.assert_allclose(session.robot.links[1].origin[:3, 3], [0, 0.13585, 0])
    np.testing.assert_allclose(session.T, T_before, atol=1e-12)
    # a zero axis is refused with the reason on the cell; the robot stays
    robot = session.robot
    _type_into(qtbot, table, 1, "a", "0 0 0")
    assert session.robot is robot
    assert "non-zero direction" in window.dh_table.status.text()


def test_plots_and_symbolic_dialog_on_a_urdf_robot(qtbot, errors, tmp_path):
    from robogui.app.plots import install_plot_docks
    from robogui.app.symbolic.symbolic_dialog import SymbolicDialog
    from robogui.engine.trajectory.trajectory import jtraj
    from robogui.io.robotfile import load_robot
    from robogui.session import Session
    from tests.urdf_files import KR5, PACKAGES

    kr5 = load_robot(KR5, package_path=PACKAGES)
    ur5 = load_robot(UR5, tip="tool0")
    session = Session(ur5)
    win = QtWidgets.QMainWindow()
    win.setCentralWidget(QtWidgets.QLabel("3D view"))
    qtbot.addWidget(win)
    docks = install_plot_docks(win, session, tabbed=False)
    win.show()
    q0 = np.array([0.3, -1.2, 1.4, -1.5, -1.5, 0.2])
    traj = jtraj(q0, q0 + 0.4, np.linspace(0.0, 1.0, 51))
    session.set_trajectory(traj)
    qtbot.waitUntil(lambda: docks.runner.analysis is not None
                    and docks.runner.analysis.n_samples == 51, timeout=10000)
    QtWidgets.QApplication.processEvents()
    x, y = docks.torque.torque_curve("total", 1).getData()
    np.testing.assert_allclose(y, ur5.rne(traj.q, traj.qd, traj.qdd)[:, 1], atol=1e-9)
    docks.close()
    win.close()

    session.set_robot(kr5)
    dlg = SymbolicDialog(session, present_error=errors)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: dlg.view is not None and not dlg.is_busy, timeout=30000)
    assert "general joints" in dlg.caption.text()
    assert dlg.view.n == 6 and errors == []
    dlg.close()


def test_panda_opens_in_its_srdf_ready_pose_with_a_button_for_it(qtbot, window, session):
    """example-robot-data's panda.srdf names the ready pose "default": the app starts
    there (not at the stretched q = 0) and the joint panel has a button to go back."""
    assert window.open_robot(str(PANDA)) is True  # the default tip: panda_hand, 7 joints
    ready = session.robot.pose("default")
    assert session.robot.tip == "panda_hand" and session.robot.n == 7
    np.testing.assert_allclose(ready, [0, -0.785398, 0, -2.35619, 0, 1.5707, 0.785398])
    np.testing.assert_allclose(session.q, ready)
    panel = window.joint_panel
    assert set(panel.pose_buttons) == {"qz", "default"}
    qtbot.mouseClick(panel.pose_buttons["qz"], QtCore.Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(session.q, session.robot.clip_q(np.zeros(7)))
    qtbot.mouseClick(panel.pose_buttons["default"], QtCore.Qt.MouseButton.LeftButton)
    np.testing.assert_allclose(session.q, ready)


def test_the_tip_chooser_lists_every_end_takes_typing_and_remembers(qtbot, window, session,
                                                                    settings):
    """UR5 opens at its flange tool0; Robot > Choose tip link lists every link the arm can
    end at with its joint count, takes a typed name (ee_link), reopens the file there and
    remembers it: File > Open recent opens the same arm again without asking."""
    assert window.open_robot(UR5) is True and session.robot.tip == "tool0"
    seen = {}

    def type_a_name():
        dlg = QtWidgets.QApplication.activeModalWidget()
        if dlg is None or dlg.objectName() != "tipChooser":
            QtCore.QTimer.singleShot(20, type_a_name)
            return
        combo = dlg.findChild(QtWidgets.QComboBox)
        seen["items"] = [combo.itemText(i) for i in range(combo.count())]
        seen["offered"] = combo.currentText()
        combo.lineEdit().selectAll()
        qtbot.keyClicks(combo.lineEdit(), "ee_link")
        qtbot.keyClick(combo.lineEdit(), QtCore.Qt.Key.Key_Return)
        if dlg.isVisible():  # the completer's popup took the first Enter
            qtbot.keyClick(dlg, QtCore.Qt.Key.Key_Return)

    QtCore.QTimer.singleShot(20, type_a_name)
    robot_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Robot")
    action = next(a for a in robot_menu.actions() if a.text() == "Choose &tip link...")
    action.trigger()
    assert seen["offered"] == "tool0 (6 joints)"
    assert seen["items"][0] == "tool0 (6 joints)" and "ee_link (6 joints)" in seen["items"]
    assert "shoulder_link (1 joint)" in seen["items"]
    assert session.robot.tip == "ee_link" and settings.tip_for(UR5) == "ee_link"
    window.open_robot("puma560")
    window._fill_recent()
    recent = next(a for a in window.recent_menu.actions() if a.text() == UR5.name)
    recent.trigger()  # File > Recent: the same file again, no question
    assert session.robot.tip == "ee_link"
