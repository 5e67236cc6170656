"""The D-H editor, used as a person would: key presses into the table's cells."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets
from PySide6.QtTest import QTest

from robogui.io.robotfile import load_robot
from robogui.session.explain.dh_edit import column_index

Key = QtCore.Qt.Key


def _type_into(qtbot, table, row: int, key: str, text: str, commit=Key.Key_Return):
    """Select the cell, press F2, replace the text key by key, then Enter (or Escape)."""
    col = column_index(key)
    table.setFocus()
    table.setCurrentIndex(table.model().index(row, col))
    QTest.keyClick(table, Key.Key_F2)
    editors = [e for e in table.viewport().findChildren(QtWidgets.QLineEdit) if e.isVisible()]
    assert len(editors) == 1  # F2 opened the cell's editor
    editor = editors[0]
    editor.selectAll()
    QTest.keyClick(editor, Key.Key_Delete)
    QTest.keyClicks(editor, text)
    if commit is not None:
        QTest.keyClick(editor, commit)
        # the delegate commits and closes the editor on the next turn of the event loop
        qtbot.waitUntil(lambda: table.state() != table.State.EditingState)
    return editor


def _editor(window, length_unit: str = "m"):
    # lengths follow the app's global unit (default mm); these tests type metres
    window.session.display.length_unit = length_unit
    window.dh_dock.show()
    window.dh_dock.raise_()
    return window.dh_table


def test_dh_editor_typing_a_cell_moves_the_robot_and_the_3d_frames(qtbot, window, session):
    dh = _editor(window)
    before = session.frames.copy()
    window.teaching.frame_actions["all"].trigger()  # Robot > D-H frames > All links
    link_items = window.teaching.frames
    tip_before = link_items.label_positions()["{3}"].copy()
    _type_into(qtbot, dh.table, 1, "a", "0.5")  # Puma a2 0.4318 -> 0.5
    assert session.robot.links[1].a == 0.5
    assert dh.model.index(1, column_index("a")).data() == "0.5"
    # the engine's frames moved by the change of a2 along x2, and the 3D labels with them
    F = session.frames
    assert np.allclose(F[2, :3, 3] - before[2, :3, 3], (0.5 - 0.4318) * F[2, :3, 0])
    assert np.allclose(link_items.label_positions()["{3}"], F[3, :3, 3])
    assert not np.allclose(link_items.label_positions()["{3}"], tip_before)
    M = np.array(link_items.triads[3].transform().data()).reshape(4, 4).T
    assert np.allclose(M, F[3])  # the triad {3} was moved by its transform
    assert "a2 = 0.500 m" in link_items.label_positions()
    # one undo step
    st = window.undo.stack
    assert st.undoText() == "Edit a of link 2"
    window.undo.stack.undo()
    assert session.robot.links[1].a == 0.4318
    window.undo.stack.redo()
    assert session.robot.links[1].a == 0.5


def test_dh_editor_follows_as_you_type_and_escape_reverts(qtbot, window, session):
    dh = _editor(window)
    steps = window.undo.stack.count()
    editor = _type_into(qtbot, dh.table, 2, "d", "0.3", commit=None)
    assert session.robot.links[2].d == 0.3  # live, before Enter
    QTest.keyClick(editor, Key.Key_Escape)
    qtbot.waitUntil(lambda: dh.table.state() != dh.table.State.EditingState)
    assert session.robot.links[2].d == 0.15005
    assert window.undo.stack.count() == steps
    # alpha in degrees, with an expression
    _type_into(qtbot, dh.table, 0, "alpha", "-90 + 45")
    assert math.isclose(session.robot.links[0].alpha, -math.pi / 4)
    assert window.undo.stack.count() == steps + 1


def test_dh_editor_invalid_cell_keeps_robot_and_shows_reason(qtbot, window, session):
    dh = _editor(window)
    robot = session.robot
    editor = _type_into(qtbot, dh.table, 1, "a", "0.4x", commit=None)
    # read as 0.4 followed by a unit, as in every number field of the app
    assert editor.toolTip() and "unknown unit 'x'" in editor.toolTip()
    assert session.robot == robot  # the typed text never reached the robot
    QTest.keyClick(editor, Key.Key_Return)
    qtbot.waitUntil(lambda: dh.table.state() != dh.table.State.EditingState)
    assert session.robot == robot
    idx = dh.model.index(1, column_index("a"))
    assert idx.data() == "0.4x"
    assert "link 2, a: '0.4x': unknown unit 'x' (use mm, cm or m)" in idx.data(
        QtCore.Qt.ItemDataRole.ToolTipRole)
    assert idx.data(QtCore.Qt.ItemDataRole.BackgroundRole) is not None
    assert "unknown unit" in dh.status.text()
    _type_into(qtbot, dh.table, 1, "a", "0.4.2")
    assert session.robot == robot and "not a number" in dh.status.text()
    # a negative mass and a lower limit above the upper one are refused with the reason
    _type_into(qtbot, dh.table, 2, "m", "-1")
    assert session.robot == robot and "must not be negative" in dh.status.text()
    _type_into(qtbot, dh.table, 0, "qmin", "200")
    assert session.robot == robot and "lower limit must be below" in dh.status.text()
    _type_into(qtbot, dh.table, 0, "theta", "10")
    assert session.robot == robot and "joint variable q1" in dh.status.text()
    # typing a good value clears the mark
    _type_into(qtbot, dh.table, 1, "a", "0.45")
    assert session.robot.links[1].a == 0.45
    assert idx.data(QtCore.Qt.ItemDataRole.BackgroundRole) is None


def test_dh_editor_joint_type_convention_limits_and_dynamics(qtbot, window, session):
    dh = _editor(window)
    _type_into(qtbot, dh.table, 2, "joint", "P")
    assert session.robot.structure == "RRPRRR" and session.robot.links[2].qlim == (0.0, 0.5)
    _type_into(qtbot, dh.table, 2, "qmax", "0.8")
    assert session.robot.links[2].qlim == (0.0, 0.8)
    _type_into(qtbot, dh.table, 0, "convention", "modified")
    assert session.robot.is_mdh
    _type_into(qtbot, dh.table, 1, "r", "0.1 0 0.2")
    assert np.allclose(session.robot.links[1].r, [0.1, 0, 0.2])
    _type_into(qtbot, dh.table, 1, "m", "20")
    assert session.robot.links[1].m == 20.0


def test_dh_editor_add_insert_delete_reorder(qtbot, window, session):
    dh = _editor(window)
    links = session.robot.links
    qtbot.mouseClick(dh.buttons["append"], QtCore.Qt.MouseButton.LeftButton)
    assert session.robot.n == 7 and session.robot.links[:6] == links
    assert dh.model.rowCount() == 7 and session.q.shape == (7,)
    dh.table.setCurrentIndex(dh.model.index(0, 2))
    qtbot.mouseClick(dh.buttons["insert"], QtCore.Qt.MouseButton.LeftButton)
    assert session.robot.n == 8 and session.robot.links[1:7] == links
    qtbot.mouseClick(dh.buttons["delete"], QtCore.Qt.MouseButton.LeftButton)
    assert session.robot.links[:6] == links
    dh.table.setCurrentIndex(dh.model.index(1, 2))
    qtbot.mouseClick(dh.buttons["down"], QtCore.Qt.MouseButton.LeftButton)
    assert session.robot.links[1] == links[2] and session.robot.links[2] == links[1]
    assert dh.selected_row() == 2
    qtbot.mouseClick(dh.buttons["up"], QtCore.Qt.MouseButton.LeftButton)
    assert session.robot.links[:6] == links
    # every row operation is one undo step
    for _ in range(5):
        window.undo.stack.undo()
    assert session.robot.links == links


def test_dh_editor_new_robot_save_and_reload_round_trip(qtbot, window, session, tmp_path,
                                                        monkeypatch):
    dh = _editor(window)
    window.teaching.act_new_robot.trigger()
    assert session.robot.n == 1 and session.robot.links[0].a == 0.5
    qtbot.mouseClick(dh.buttons["append"], QtCore.Qt.MouseButton.LeftButton)
    _type_into(qtbot, dh.table, 1, "alpha", "90")
    _type_into(qtbot, dh.table, 1, "d", "0.25")
    built = session.robot
    path = tmp_path / "mine.toml"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(path), "Robot file (*.toml)"))
    window.teaching.act_save_robot.trigger()
    back = load_robot(path)
    assert back.links == built.links and back.name == built.name
    assert window.robot_path == str(path.resolve())


def test_dh_editor_save_as_urdf_round_trips(qtbot, window, session, tmp_path, monkeypatch):
    from robogui.app.shell.teaching import robot_file_filters

    assert "URDF (*.urdf)" in robot_file_filters()
    dh = _editor(window)
    _type_into(qtbot, dh.table, 1, "a", "0.5")
    path = tmp_path / "edited.urdf"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(path), "URDF (*.urdf)"))
    window.teaching.act_save_robot.trigger()
    back = load_robot(path)
    q = session.robot.random_q(5, seed=1)
    assert np.allclose(back.fkine(q), session.robot.fkine(q), atol=1e-9)


def test_dh_editor_follows_global_units_for_display_and_typing(qtbot, window, session):
    dh = _editor(window, length_unit="mm")
    model, table = dh.model, dh.table
    a, alpha, qmax = column_index("a"), column_index("alpha"), column_index("qmax")
    head = model.headerData(a, QtCore.Qt.Orientation.Horizontal)
    assert head == "a [mm]"
    assert model.index(1, a).data() == "431.8"  # Puma a2 = 0.4318 m
    assert model.index(0, alpha).data() == "90"  # alpha1 = pi/2
    # the joint panel's unit button switches the app's angle unit: the table follows
    QTest.mouseClick(window.joint_panel.rows[0].unit, QtCore.Qt.MouseButton.LeftButton)
    assert session.display.angle_unit == "rad"
    assert model.index(0, alpha).data() == "1.5708"
    assert model.headerData(alpha, QtCore.Qt.Orientation.Horizontal) == "alpha [rad]"
    assert model.index(0, qmax).data() == f"{session.robot.links[0].qlim[1]:.6g} rad"
    st = window.undo.stack
    steps = st.count()
    # a plain number is in the displayed unit: 500 mm
    _type_into(qtbot, table, 1, "a", "500")
    assert math.isclose(session.robot.links[1].a, 0.5)
    assert model.index(1, a).data() == "500"
    assert st.count() == steps + 1 and st.undoText() == "Edit a of link 2"
    # a unit suffix and a decimal comma, as in every number field: converted
    _type_into(qtbot, table, 1, "a", "0,45 m")
    assert math.isclose(session.robot.links[1].a, 0.45)
    _type_into(qtbot, table, 0, "alpha", "30 deg")
    assert math.isclose(session.robot.links[0].alpha, math.pi / 6)
    _type_into(qtbot, table, 2, "d", "15 cm")
    assert math.isclose(session.robot.links[2].d, 0.15)
    _type_into(qtbot, table, 0, "alpha", "-pi/4 rad")
    assert math.isclose(session.robot.links[0].alpha, -math.pi / 4)
    assert st.count() == steps + 5  # one undo step per edit
    st.undo()
    assert math.isclose(session.robot.links[0].alpha, math.pi / 6)
    st.redo()
    # a unit of another quantity, or an unknown one, is refused with the reason
    robot = session.robot
    _type_into(qtbot, table, 0, "alpha", "90 mm")
    assert session.robot == robot
    assert "mm is a unit of length" in dh.status.text()
    _type_into(qtbot, table, 1, "a", "3 kg")
    assert session.robot == robot and "unknown unit 'kg'" in dh.status.text()
    _type_into(qtbot, table, 1, "a", "1,000.5")
    assert session.robot == robot and "thousands" in dh.status.text()
    assert st.count() == steps + 5
    # back to metres and degrees: the same robot, shown in them
    session.display.length_unit = "m"
    QTest.mouseClick(window.joint_panel.rows[0].unit, QtCore.Qt.MouseButton.LeftButton)
    assert model.index(2, column_index("d")).data() == "0.15"
    assert math.isclose(session.robot.links[0].alpha, -math.pi / 4)  # the redone edit
    assert model.index(0, qmax).data() == (
        f"{math.degrees(session.robot.links[0].qlim[1]):.6g} deg")
    assert math.isclose(session.robot.links[1].a, 0.45)
    assert model.headerData(a, QtCore.Qt.Orientation.Horizontal) == "a [m]"


def test_dh_editor_motion_limits_time_the_program(qtbot, window, session):
    """qd max / qdd max typed into the table are the limits a program is timed within."""
    from robogui.session.teach.compile import compile_program
    from robogui.session.teach.program import Program

    dh = _editor(window)
    assert dh.table.model().index(0, column_index("qd_max")).data() == "-"  # the default
    qn = session.robot.pose("qn")
    prog = Program().record(qn).record(qn + np.array([1.0, 0, 0, 0, 0, 0]))
    before = compile_program(prog, session.robot).cycle_time
    _type_into(qtbot, dh.table, 0, "qd_max", "0.5")
    _type_into(qtbot, dh.table, 0, "qdd_max", "1")
    assert (session.robot.links[0].qd_max, session.robot.links[0].qdd_max) == (0.5, 1.0)
    assert dh.table.model().index(0, column_index("qd_max")).data() == "0.5"
    # 1 rad at 0.5 rad/s and 1 rad/s^2: 0.5 s up, 1.5 s cruising, 0.5 s down
    after = compile_program(prog, session.robot).cycle_time
    assert after == pytest.approx(2.5, rel=0.01) and after > before
    _type_into(qtbot, dh.table, 0, "qd_max", "-1")  # refused with the reason, robot kept
    assert session.robot.links[0].qd_max == 0.5
