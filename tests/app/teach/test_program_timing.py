"""The Program dock's controller timing: blend radius and speed override typed into their
fields, the cycle time and each move's active limit shown after a check. Real GL under Xvfb."""

from __future__ import annotations

import pytest
from PySide6 import QtCore
from PySide6.QtTest import QTest

from robogui.session.teach.compile import compile_program


@pytest.fixture
def pendant(window, session, clock):
    p = window.teach
    p.jog.clock = p.timeline.clock = clock
    window.resize(1600, 1000)
    return p


def _type(qtbot, box, text):
    box.setFocus()
    box.selectAll()
    QTest.keyClicks(box, text)
    QTest.keyClick(box, QtCore.Qt.Key.Key_Return)


def test_blend_radius_and_override_fields_then_cycle_time_and_limits(qtbot, pendant, session):
    panel, state = pendant.program, pendant.state
    for pose in ("qz", "qr", "qn"):
        session.go_to_pose(pose)
        qtbot.mouseClick(panel.record_button, QtCore.Qt.MouseButton.LeftButton)
    panel.select_move(1)
    _type(qtbot, panel.radius_box, "30")
    assert state.program.moves[1].blend_radius == pytest.approx(0.03)
    panel.select_move(2)
    _type(qtbot, panel.speed_pct_box, "50")
    assert state.program.moves[2].speed_percent == 50.0
    assert "r 30 mm" in panel.move_list.item(1).text()
    qtbot.mouseClick(panel.check_button, QtCore.Qt.MouseButton.LeftButton)
    compiled = state.compiled
    assert compiled is not None
    expected = compile_program(state.program, session.robot)
    assert compiled.cycle_time == pytest.approx(expected.cycle_time)
    assert f"cycle time {compiled.cycle_time:.2f} s" in panel.status_text
    # each move that moves says how long it takes and which limit sets its speed
    for i in (1, 2):
        text = panel.move_list.item(i).text()
        seg = compiled.segment(i)
        assert f"[{seg.duration:.2f} s, {compiled.active_limits[i]}]" in text
        assert compiled.active_limits[i]
