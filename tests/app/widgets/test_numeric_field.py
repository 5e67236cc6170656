"""Typed values: every numeric field takes what was typed (decimal comma, units), clamps
with a note or refuses with the reason; units are global. Keys typed into real widgets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtCore
from PySide6.QtTest import QTest

from robogui.app.widgets.numeric_field import NumberError, NumberField, parse_number

ENTER = QtCore.Qt.Key.Key_Return


def type_into(field, text: str) -> None:
    """Click into the field, select everything, type ``text`` and press Enter."""
    field.setFocus()
    field.lineEdit().selectAll()
    QTest.keyClicks(field, text)
    QTest.keyClick(field, ENTER)


# -- parsing (no widget) ------------------------------------------------------------------
@pytest.mark.parametrize("text, quantity, unit, want", [
    ("12,5", "angle", "deg", 12.5),
    (" -170 ", "angle", "deg", -170.0),
    ("1.5 rad", "angle", "deg", math.degrees(1.5)),
    ("1.5rad", "angle", "deg", math.degrees(1.5)),
    ("30 deg", "angle", "rad", math.radians(30)),
    ("30°", "angle", "rad", math.radians(30)),
    ("12 mm", "length", "m", 0.012),
    ("0.3 m", "length", "mm", 300.0),
    ("2,5 cm", "length", "mm", 25.0),
    ("1e-3", None, "", 1e-3),
    ("250 ms", "time", "s", 0.25),
    ("250 mm/s", "speed", "m/s", 0.25),
])
def test_parse_number_converts_units_and_takes_a_decimal_comma(text, quantity, unit, want):
    assert parse_number(text, quantity, unit) == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("text, quantity, unit, why", [
    ("abc", "angle", "deg", "not a number"),
    ("", "angle", "deg", "type a number"),
    ("1,234.5", "length", "mm", "thousands"),
    ("12 mm", "angle", "deg", "unit of length"),
    ("3 furlongs", "length", "mm", "unknown unit"),
    ("2 s", None, "", "plain number"),
    ("1e400", "length", "m", "too large"),
    ("nan", "length", "m", "not a number"),
    ("1 2", "length", "m", "not a number"),
])
def test_parse_number_refuses_with_a_reason(text, quantity, unit, why):
    with pytest.raises(NumberError, match=why):
        parse_number(text, quantity, unit)


# -- the reproductions in the joint spin boxes (Puma 560) ---------------------------
def test_typed_joint_values_are_never_reinterpreted(window, session):
    rows = window.joint_panel.rows
    type_into(rows[0].spin, "-170")  # q1 limits +-160 deg: clamped with a note, not -17
    assert math.degrees(session.q[0]) == pytest.approx(-160.0)
    assert "limit" in rows[0].spin.note and "-160" in rows[0].spin.note
    assert "-160" in window.statusBar().currentMessage()
    assert rows[0].spin.property("numberState") == "clamped"
    hi3 = math.degrees(session.robot.qlim[2, 1])
    type_into(rows[2].spin, "500")  # not 5: the upper limit, said so
    assert math.degrees(session.q[2]) == pytest.approx(hi3)
    assert "limit" in rows[2].spin.note
    type_into(rows[0].spin, "12,5")  # not 125
    assert math.degrees(session.q[0]) == pytest.approx(12.5)
    assert rows[0].spin.note == ""  # the earlier note is cleared by a good value
    type_into(rows[0].spin, "1.5rad")  # not 1.5 deg
    assert session.q[0] == pytest.approx(1.5)
    type_into(rows[1].spin, "30 deg")
    assert math.degrees(session.q[1]) == pytest.approx(30.0)


def test_garbage_is_refused_with_the_reason_and_the_joint_stays(window, session):
    spin = window.joint_panel.rows[1].spin
    q = session.q.copy()
    for text, why in (("abc", "not a number"), ("12 mm", "length"), ("1,234.5", "thousands")):
        type_into(spin, text)
        np.testing.assert_array_equal(session.q, q)
        assert why in spin.note and spin.property("numberState") == "refused"
        assert "q2" in spin.note and why in spin.toolTip()
        assert spin.value() == pytest.approx(math.degrees(q[1]))


def test_typed_values_keep_all_their_digits(window, session):
    spin = window.joint_panel.rows[3].spin
    type_into(spin, "12.3456789")
    assert math.degrees(session.q[3]) == pytest.approx(12.3456789, abs=1e-9)


def test_prismatic_joint_takes_lengths(qtbot, session):
    from robogui.app.panels.joint_panel import JointPanel
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    s = Session(load_robot("stanford"))
    panel = JointPanel(s)
    qtbot.addWidget(panel)
    panel.show()
    row = panel.rows[2]  # q3 prismatic, shown in mm
    lo, hi = s.robot.qlim[2]
    type_into(row.spin, "0,3 m")
    want = min(max(0.3, lo), hi)
    assert s.q[2] == pytest.approx(want)
    type_into(row.spin, "1.5 rad")
    assert "angle" in row.spin.note and s.q[2] == pytest.approx(want)


# -- the other fields -----------------------------------------------------------------------
def test_tool_editor_fields(window, session):
    boxes = window.teach.tool.boxes
    type_into(boxes[2], "12,5")  # mm
    assert session.tool[2, 3] == pytest.approx(0.0125)
    type_into(boxes[0], "0.1 m")
    assert session.tool[0, 3] == pytest.approx(0.1)
    type_into(boxes[1], "9 m")  # beyond +-5 m: clamped, said so
    assert session.tool[1, 3] == pytest.approx(5.0) and "limit" in boxes[1].note
    type_into(boxes[5], "0.5 rad")  # yaw
    np.testing.assert_allclose(session.tool[:2, 0], [math.cos(0.5), math.sin(0.5)], atol=1e-12)
    type_into(boxes[3], "190")  # roll wraps: 190 deg is -170 deg
    assert boxes[3].value() == pytest.approx(-170.0) and "-170" in boxes[3].note
    T = session.tool.copy()
    type_into(boxes[4], "x")
    np.testing.assert_array_equal(session.tool, T)
    assert "not a number" in boxes[4].note


def test_go_to_fields(window, session):
    target = window.teach.target
    type_into(target.boxes[0], "0,5 m")
    assert target.boxes[0].value() == pytest.approx(500.0)
    np.testing.assert_allclose(target.target_pose()[0, 3], 0.5)
    type_into(target.boxes[4], "0.25 rad")
    assert target.boxes[4].si_value() == pytest.approx(0.25)
    type_into(target.boxes[1], "seven")
    assert "not a number" in target.boxes[1].note


def test_program_timing_and_blend_fields(qtbot, window, session):
    panel, state = window.teach.program, window.teach.state
    for pose in ("qz", "qr"):
        session.go_to_pose(pose)
        qtbot.mouseClick(panel.record_button, QtCore.Qt.MouseButton.LeftButton)
    panel.select_move(1)
    panel.timing_combo.setCurrentIndex(1)
    panel.timing_combo.activated.emit(1)  # duration
    type_into(panel.timing_value, "2,5")
    assert state.program.moves[1].duration == pytest.approx(2.5)
    type_into(panel.timing_value, "1500 ms")
    assert state.program.moves[1].duration == pytest.approx(1.5)
    type_into(panel.timing_value, "1e6")  # far beyond: clamped to the field's bound
    assert state.program.moves[1].duration == pytest.approx(1000.0)
    assert "limit" in panel.timing_value.note
    type_into(panel.blend_box, "0,25")
    assert state.program.moves[1].blend == pytest.approx(0.25)
    type_into(panel.blend_box, "-1")
    assert state.program.moves[1].blend == 0.0 and "lower limit" in panel.blend_box.note
    type_into(panel.blend_box, "2 mm")
    assert state.program.moves[1].blend == 0.0 and "length" in panel.blend_box.note


def test_jog_step_fields_take_typed_steps(qtbot, window, session):
    jog = window.teach.jog
    session.go_to_pose("qn")
    type_into(jog.step_fields["linear"], "2,5")  # mm
    T0 = session.robot.fkine(session.q)
    qtbot.mouseClick(jog.buttons[("z", 1)], QtCore.Qt.MouseButton.LeftButton)
    T1 = session.robot.fkine(session.q)
    assert T1[2, 3] - T0[2, 3] == pytest.approx(0.0025, abs=1e-9)
    jog.set_mode(0)  # a preset fills the fields
    assert jog.step_size("x") == pytest.approx(0.010)
    assert jog.step_size("rx") == pytest.approx(math.radians(5))


# -- units are global ------------------------------------------------------------------------
def test_switching_to_rad_and_m_changes_every_panel(window, session):
    window.ensure_plots()
    session.set_tool(np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.1], [0, 0, 0, 1.0]]))
    d = session.display
    d.angle_unit, d.length_unit = "rad", "m"
    rows = window.joint_panel.rows
    assert rows[0].unit.text() == "rad"
    assert rows[0].spin.value() == pytest.approx(session.q[0])
    tool = window.teach.tool.boxes
    assert tool[2].value() == pytest.approx(0.1) and tool[2].suffix().strip() == "m"
    assert tool[3].suffix().strip() == "rad"
    target = window.teach.target.boxes
    assert target[0].suffix().strip() == "m" and target[3].suffix().strip() == "rad"
    assert target[0].value() == pytest.approx(window.teach.target.target_pose()[0, 3])
    jog = window.teach.jog
    assert jog.step_fields["linear"].suffix().strip() == "m"
    assert jog.step_fields["linear"].value() == pytest.approx(jog.step_size("x"))
    assert " m\n" in jog.mode_buttons[0].text() and "rad" in jog.mode_buttons[0].text()
    assert window.pose_panel.pos_units[0].text() == "m"
    js = window.plot_docks.joint_state
    labels = [js._ylabels[id(p)][1] for p in js.qplots.values()]
    assert "(rad)" in labels[0] and "(rad/s)" in labels[1]
    # typed values now read in rad / m, and other units still convert
    typ = type_into
    typ(rows[1].spin, "0.5")
    assert session.q[1] == pytest.approx(0.5)
    typ(rows[1].spin, "10 deg")
    assert session.q[1] == pytest.approx(math.radians(10))
    typ(tool[0], "25 mm")
    assert session.tool[0, 3] == pytest.approx(0.025)
    # and back
    d.angle_unit, d.length_unit = "deg", "mm"
    assert tool[0].value() == pytest.approx(25.0) and rows[1].spin.value() == pytest.approx(10)


def test_units_persist_with_qsettings(qtbot, session, settings, errors):
    from robogui.app.shell.main_window import MainWindow
    from robogui.session import Session

    session.display.angle_unit = "rad"
    session.display.length_unit = "m"
    win = MainWindow(session, settings=settings, error_presenter=errors, restore=False)
    qtbot.addWidget(win)
    win.close()
    s2 = Session(session.robot)
    win2 = MainWindow(s2, settings=settings, error_presenter=errors, restore=False)
    qtbot.addWidget(win2)
    assert (s2.display.angle_unit, s2.display.length_unit) == ("rad", "m")
    assert win2.teach.tool.boxes[0].suffix().strip() == "m"
    win2.close()


def test_number_field_alone(qtbot):
    f = NumberField("length", "mm", what="gap")
    qtbot.addWidget(f)
    f.set_si_range(0.0, 0.05)
    f.show()
    type_into(f, "3 cm")
    assert f.si_value() == pytest.approx(0.03)
    f.change_unit("m", 5)
    assert f.value() == pytest.approx(0.03) and f.maximum() == pytest.approx(0.05)
    type_into(f, "60 mm")
    assert f.si_value() == pytest.approx(0.05) and "upper limit" in f.note
