"""Issue 24's person test, in one go: a box added by the Cell panel's button, its pose and
size typed, dragged with the tool handle up into the arm's way; the jog driven down with
key presses stops before it with the reason in words; with the guard off the arm goes in
and its links turn red in the view's pixels; undo puts the box back where it was typed."""

from __future__ import annotations

import re

import numpy as np
from PySide6 import QtCore
from PySide6.QtTest import QTest

from tests.app.interaction.test_handle import drag, settled
from tests.app.planning_scene.test_cell_app import type_into
from tests.app.shell.test_live_collisions import red_pixels


def test_a_box_dragged_into_the_arms_way_stops_the_jog_turns_links_red_and_undo_puts_it_back(
        qtbot, window, session):
    window.tasks.switch("teach")
    window.teach.docks["jog"].raise_()
    session.go_to_pose("qn")
    T = np.array(session.T)
    tools, panel = window.cell_tools, window.cell_tools.panel
    tools.show_panel()
    qtbot.mouseClick(panel.add_buttons["box"], QtCore.Qt.MouseButton.LeftButton)
    assert session.cell.names == ("box",)
    # 300 x 300 x 100 mm, its top 300 mm under the tool centre point (mm: the app's unit)
    for field, value in zip(panel.size_fields, ("300", "300", "100"), strict=True):
        type_into(qtbot, field, value)
    x, y, z = (T[:3, 3] * 1000).round(3)
    for field, value in zip(panel.xyz_fields, (x, y, z - 350), strict=True):
        type_into(qtbot, field, f"{value}")
    typed = session.cell.object("box")
    np.testing.assert_allclose(typed.xyz, T[:3, 3] - (0, 0, 0.35), atol=1e-6)  # typed to um
    assert typed.size == (0.3, 0.3, 0.1)
    assert not session.collisions.colliding[0]
    before = red_pixels(window.view)

    # the handle sits on the box: its Z arrow dragged 200 mm up (top 100 mm under the tool)
    window.teach.jog.set_frame("world")
    origin, axes, size = settled(qtbot, window)
    np.testing.assert_allclose(origin, typed.xyz, atol=1e-9)
    a = axes[2]
    drag(qtbot, window.view, [origin + (0.9 * size + s) * a for s in np.linspace(0, 0.2, 21)])
    moved = session.cell.object("box")
    assert abs(moved.xyz[2] - (typed.xyz[2] + 0.2)) < 0.003, moved.xyz
    np.testing.assert_allclose(moved.xyz[:2], typed.xyz[:2], atol=1e-9)

    # the jog, pressed down (D: -Z in 10 mm steps), stops before the box and says why
    jog = window.teach.jog
    QTest.mouseClick(jog.mode_buttons[0], QtCore.Qt.MouseButton.LeftButton)
    jog.setFocus()
    for _ in range(30):
        QTest.keyClick(jog, QtCore.Qt.Key.Key_D)
        if "would hit" in jog.status_text:
            break
    assert re.fullmatch(r"\S.* would hit 'box' \(clearance \d[\d.]* mm\)", jog.status_text), \
        jog.status_text
    assert not session.collisions.colliding[0]

    # the guard off: the arm goes in, its links in contact drawn red
    box = window.live_collisions.jog_box
    QTest.mouseClick(box, QtCore.Qt.MouseButton.LeftButton,
                     pos=QtCore.QPoint(8, box.height() // 2))
    for _ in range(4):
        QTest.keyClick(jog, QtCore.Qt.Key.Key_D)
    assert session.collisions.colliding[0]
    assert red_pixels(window.view) > before + 200

    # undo, step by step, until the drag is undone: the box is back where it was typed
    for _ in range(40):
        if session.cell.object("box").xyz == typed.xyz:
            break
        window.act_undo.trigger()
    np.testing.assert_allclose(session.cell.object("box").xyz, typed.xyz, atol=1e-12)
    QTest.mouseClick(box, QtCore.Qt.MouseButton.LeftButton,
                     pos=QtCore.QPoint(8, box.height() // 2))  # the guard back on
