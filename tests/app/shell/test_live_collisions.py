"""Issue 24, items 6 and 7 in the window, acting as a person: a box put in the arm's way,
the jog driven into it with key presses on the Jog dock stops before it with the reason in
words; with "Stop before contact" off the arm goes in and its links turn red in the view;
the pose panel shows the clearance; a pre-flight contact clicked seeks the playhead there;
the clearance plot follows the trajectory and the playhead."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore
from PySide6.QtTest import QTest

import robogui as rg
from robogui.session.planning_scene.cell import Cell, CellObject

ROOT = Path(__file__).resolve().parents[3]
DEMO_CELL = ROOT / "assets" / "cells" / "pick-and-place.cell"
DEMO_PROG = ROOT / "assets" / "cells" / "pick-and-place.prog"


def red_pixels(view) -> int:
    """Pixels of the view drawn in the contact red (lit: red high, green and blue low)."""
    img = view.grab_array().astype(int)
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return int(((r > 140) & (g < 0.45 * r) & (b < 0.45 * r)).sum())


def box_under_the_tool(session, gap: float = 0.10) -> Cell:
    T = session.T
    top = T[2, 3] - gap
    return Cell((CellObject("box", "box", (0.3, 0.3, 0.1), xyz=(T[0, 3], T[1, 3], top - 0.05)),),
                floor=False)


@pytest.fixture
def teaching(window, session):
    window.tasks.switch("teach")
    window.teach.docks["jog"].raise_()
    session.go_to_pose("qn")
    jog = window.teach.jog
    QTest.mouseClick(jog.mode_buttons[0], QtCore.Qt.MouseButton.LeftButton)  # 10 mm steps
    jog.setFocus()
    return jog


def test_jog_into_a_box_stops_before_it_then_goes_in_red_when_the_guard_is_off(
        qtbot, window, session, settings, teaching):
    jog = teaching
    empty = red_pixels(window.view)  # red of the axes and the handle, nothing in contact
    session.set_cell(box_under_the_tool(session))  # as the Cell panel would
    assert window.live_collisions.stop_action.isChecked()  # on by default
    clear = window.pose_panel.clearance_label.text()
    assert re.match(r"^\d+\.\d\d mm  \S.* \u2013 'box'$", clear), clear
    before = red_pixels(window.view)
    for _ in range(20):
        QTest.keyClick(jog, QtCore.Qt.Key.Key_D)  # -Z
        if "would hit" in jog.status_text:
            break
    text = jog.status_text
    assert re.fullmatch(r"\S.* would hit 'box' \(clearance \d[\d.]* mm\)", text), text
    rep = session.collisions
    assert not rep.colliding[0] and 0.0 <= rep.distance[0] <= 0.002 + 1e-9
    q_stopped = np.array(session.q)
    QTest.keyClick(jog, QtCore.Qt.Key.Key_D)  # still refused: the arm stays
    np.testing.assert_allclose(session.q, q_stopped)
    assert "would hit 'box'" in jog.status_text
    assert session.contact_frames == frozenset()

    # the guard off, by its check box in the Jog dock: remembered, and the arm goes in
    box = window.live_collisions.jog_box
    QTest.mouseClick(box, QtCore.Qt.MouseButton.LeftButton,
                     pos=QtCore.QPoint(8, box.height() // 2))  # on its indicator
    assert not box.isChecked() and not window.live_collisions.stop_action.isChecked()
    assert not session.stop_before_contact
    assert settings.q.value("motion/stop_before_contact") in (False, "false")
    for _ in range(3):
        QTest.keyClick(jog, QtCore.Qt.Key.Key_D)
    rep = session.collisions
    assert rep.colliding[0] and any(b == "box" for _a, b in rep.pairs[0])
    assert session.contact_frames and window.view.scene.contact_frames == session.contact_frames
    assert window.pose_panel.clearance_label.text().startswith("in contact: ")
    after = red_pixels(window.view)
    assert after > before + 200, (before, after)  # the links in contact are drawn red

    # the box taken away: nothing touches, the red goes again
    session.set_cell(None)
    assert session.contact_frames == frozenset()
    # (the box hid part of the red axes and handle: compare with the view before it came)
    assert red_pixels(window.view) <= empty + 50


def test_the_view_menu_toggle_is_the_jog_dock_s(window, session, settings):
    action = window.live_collisions.stop_action
    assert action in window.view_menu.actions()
    action.trigger()
    assert not session.stop_before_contact and not window.live_collisions.jog_box.isChecked()
    action.trigger()
    assert session.stop_before_contact and window.live_collisions.jog_box.isChecked()
    assert settings.q.value("motion/stop_before_contact") in (True, "true")


def demo_with_a_post(session) -> Cell:
    """The demo cell with a post between the bins, in the way of the move across."""
    session.set_robot(rg.load_robot("puma560"))
    cell = rg.load_cell(DEMO_CELL)
    return cell.with_object(CellObject("post", "box", (0.1, 0.1, 0.5), xyz=(0.6, 0.0, 0.65),
                                       color="#d04040"))


def test_preflight_lists_the_contacts_and_a_click_seeks_there(qtbot, window, session):
    window.tasks.switch("teach")
    panel = window.teach.program
    window.teach.docks["program"].raise_()
    session.set_cell(demo_with_a_post(session))
    assert panel.load_from(DEMO_PROG)
    QTest.mouseClick(panel.check_button, QtCore.Qt.MouseButton.LeftButton)
    state = window.teach.state
    hits = [k for k, p in enumerate(state.problems) if p.kind == "collision"]
    assert hits, [p.message for p in state.problems]
    for k in hits:
        assert re.search(r"'\S.*' hits 'post' .*t = \d+\.\d\d s.*mm deep", state.problems[k]
                         .message)
    k = hits[-1]
    problem = state.problems[k]
    session.set_time(session.playback.end, changing=False)
    item = panel.problem_list.item(k)
    panel.problem_list.scrollToItem(item)
    rect = panel.problem_list.visualItemRect(item)
    qtbot.mouseClick(panel.problem_list.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=rect.center())
    assert session.time == pytest.approx(problem.time)
    # at the start of a contact the arm touches the post (within the 2 mm step)
    rep = rg.check_collisions(session.robot, session.q, session.cell)
    assert rep.distance < 0.003


def test_the_clearance_plot_follows_the_trajectory_the_cell_and_the_playhead(
        qtbot, window, session):
    plots = window.ensure_plots()
    panel = plots.clearance
    cell = demo_with_a_post(session)
    session.set_cell(cell)
    window.tasks.actions["teach"].trigger()
    window.teach.program.load_from(DEMO_PROG)
    window.teach.state.compile()
    traj = session.trajectory
    qtbot.wait(100)
    assert not panel.isVisible() and panel.curve_data is None  # not computed while hidden
    window.tasks.actions["analyse"].trigger()
    plots.docks["clearance"].raise_()
    qtbot.waitUntil(lambda: panel.curve_data is not None, timeout=20000)
    x, y = panel.full_data(panel.curve_item)
    # the distances are those of the public API at the trajectory's samples, in mm
    want = rg.check_collisions(session.robot, np.asarray(traj.q), cell).distance
    np.testing.assert_allclose(x, traj.t)
    np.testing.assert_allclose(y, 1e3 * want, atol=1e-9)
    assert y.min() < 0  # the post is hit
    assert panel.threshold_line.value() == pytest.approx(10.0)  # 10 mm
    assert "deepest contact" in panel.status_label.text()
    session.set_time(1.2)
    assert panel.cursors[0].value() == pytest.approx(1.2)
    # the post taken away: the curve follows the cell
    session.set_cell(rg.load_cell(DEMO_CELL))
    x2, y2 = panel.full_data(panel.curve_item)
    assert y2.min() > 0
    # the threshold typed in the toolbar, in the display unit
    field = panel.threshold_field
    field.selectAll()
    QTest.keyClicks(field, "25")
    QTest.keyClick(field, QtCore.Qt.Key.Key_Return)
    assert panel.threshold == pytest.approx(0.025)
    assert panel.threshold_line.value() == pytest.approx(25.0)


def test_dragging_the_tool_handle_down_onto_a_box_stops_before_it_with_the_reason(
        qtbot, window, session):
    from tests.app.interaction.test_handle import drag, settled

    session.go_to_pose("qn")
    session.set_cell(box_under_the_tool(session, gap=0.06))
    origin, axes, size = settled(qtbot, window)
    grab = 0.9 * size  # near the z arrow's head
    # 20 cm down along world z, well into the box, in 41 mouse moves
    drag(qtbot, window.view, [origin + (grab - s) * axes[2] for s in np.linspace(0, 0.2, 41)])
    rep = session.collisions
    assert not rep.colliding[0] and 0.0 <= rep.distance[0] <= 0.002 + 1e-9
    assert session.T[2, 3] > origin[2] - 0.06  # it never reached the box's top
    reason = window.view_tools.handle.reason
    assert reason is not None and re.fullmatch(
        r"\S.* would hit 'box' \(clearance \d[\d.]* mm\)", reason), reason


def test_an_arm_whose_shapes_touch_at_home_opens_clear_and_says_which_pair_is_left_out(
        qtbot, window, session, errors):
    """The Unitree Z1 (example-robot-data, no disabled pairs in its SRDF) rests folded at
    home, its upper arm's and wrist's collision meshes 8 mm into each other: it opens
    without the contact red, the clearance tooltip names the pair left out, and a real
    contact elsewhere still turns red."""
    from tests.urdf_files import ERD

    assert window.open_robot(str(ERD / "z1_description" / "urdf" / "z1.urdf")), errors
    qtbot.waitUntil(lambda: not window.view.scene.meshes_pending(), timeout=20000)
    assert session.contact_frames == frozenset()
    label = window.pose_panel.clearance_label
    assert label.styleSheet() == "" and not label.text().startswith("-")
    assert "link02 \u2013 link06" in label.toolTip()
    clear_red = red_pixels(window.view)
    rep = rg.check_collisions(session.robot, Q := session.robot.random_q(400, seed=1))
    hit = next(i for i, ps in enumerate(rep.pairs) if ("link02", "link04") in ps)
    session.set_q(Q[hit])
    qtbot.wait(50)
    assert session.contact_frames and "color" in label.styleSheet()
    assert red_pixels(window.view) > clear_red + 2000
