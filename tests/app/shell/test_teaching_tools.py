"""Chain stepping, D-H frames in 3D, workspace cloud, singularities and presentation mode,
driven through the window's menus, buttons and keys."""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtWidgets
from PySide6.QtTest import QTest

from robogui.app.shell.presentation import FONT_SCALE, SETTINGS_KEY, clipped_widgets

Key = QtCore.Qt.Key


def _numbers(label: QtWidgets.QLabel) -> np.ndarray:
    """The numbers of a 4x4 matrix shown as an HTML table in a label."""
    import re

    return np.array([float(x) for x in re.findall(r"-?\d+\.\d+", label.text())]).reshape(4, 4)


def test_step_through_chain_with_keys_shows_link_transforms(qtbot, window, session):
    t = window.teaching
    act = t.chain_dock.toggleViewAction()
    act.trigger()
    assert t.chain_dock.isVisible()
    session.set_q(np.radians([20, -30, 40, 10, 25, -15]))
    panel = t.chain
    panel.setFocus()
    QTest.keyClick(panel, Key.Key_Right)
    assert panel.i == 1
    QTest.keyClick(panel, Key.Key_Right)
    QTest.keyClick(panel, Key.Key_Right)
    assert panel.i == 3
    robot, q = session.robot, session.q
    # A(3) as numbers equals the engine's link transform at q3, to the 4 decimals shown
    assert np.allclose(_numbers(panel.numeric), robot.link_transform(2, q[2]), atol=6e-5)
    assert np.allclose(_numbers(panel.product), session.frames[3], atol=6e-5)
    assert "cos(q3)" in panel.symbolic.text() and "sin(q3)" in panel.symbolic.text()
    # link 3 highlighted in 3D (frames shown for the selected link), T(0,3) drawn
    assert t.frames.mode == "one" and t.frames.highlighted == 2
    assert np.allclose(t.frames.label_positions()["T(0,i)"], session.frames[3, :3, 3])
    assert np.allclose(np.array(t.frames.extra_item.transform().data()).reshape(4, 4).T,
                       session.frames[3])
    assert window.dh_table.selected_row() == 2
    # the buttons step too, and the numbers follow q
    qtbot.mouseClick(panel.prev_button, QtCore.Qt.MouseButton.LeftButton)
    assert panel.i == 2
    session.set_joint(1, 0.5)
    assert np.allclose(_numbers(panel.numeric), robot.link_transform(1, 0.5), atol=6e-5)
    QTest.keyClick(panel, Key.Key_End)
    assert panel.i == 6 and not panel.next_button.isEnabled()
    QTest.keyClick(panel, Key.Key_Escape)
    assert panel.i == 0 and t.frames.extra is None


def test_dh_frames_highlight_selected_row_and_show_parameter_values(qtbot, window, session):
    t = window.teaching
    window.dh_dock.show()
    t.frame_actions["all"].trigger()
    labels = t.frames.label_positions()
    assert {f"{{{i}}}" for i in range(7)} <= set(labels)
    # lengths in the app's length unit (mm by default; issue 28 item 8), and they follow it
    assert session.display.length_unit == "mm"
    assert "a2 = 431.8 mm" in labels and "d3 = 150.0 mm" in labels
    session.display.length_unit = "m"
    labels_m = t.frames.label_positions()
    assert "a2 = 0.432 m" in labels_m and "d3 = 0.150 m" in labels_m
    session.display.length_unit = "mm"
    labels = t.frames.label_positions()
    assert "a2 = 431.8 mm" in labels
    # every mark is a GL item built once in its link frame and placed by that frame
    world = {(m.link, m.name): m.points for m in t.frames.marks}
    placed = 0
    for m, item in t.frames.mark_items:
        if not item.visible():
            continue
        M = np.array(item.transform().data()).reshape(4, 4).T
        assert np.allclose(M, session.frames[m.frame] if m.frame < 6 else
                           session.frames[6] @ np.linalg.inv(session.robot.tool))
        pts = (M @ np.c_[item.pos, np.ones(len(item.pos))].T).T[:, :3]
        assert np.allclose(pts, world[(m.link, m.name)], atol=1e-6)
        placed += 1
    assert placed == len(world) > 6
    before = {id(item) for _m, item in t.frames.mark_items}
    session.set_joint(2, 0.4)  # moving a joint keeps the items, only transforms (and arcs)
    assert {id(item) for _m, item in t.frames.mark_items} == before
    img_all = window.view.grab_array()
    # selecting a table row highlights that link's marks and frame label
    table = window.dh_table.table
    table.setCurrentIndex(window.dh_table.model.index(1, 4))
    assert t.frames.highlighted == 1
    colours = {text: c for _p, text, c in t.frames.labels()}
    assert colours["a2 = 431.8 mm"] == "#ffff40" and colours["a3 = 20.3 mm"] != "#ffff40"
    # "selected link only" shows frames {1} and {2} and the four marks of link 2
    t.frame_actions["one"].trigger()
    texts = [text for _p, text, _c in t.frames.labels()]
    q2 = f"{math.degrees(session.q[1]):.1f}"
    assert sorted(texts) == sorted(["{1}", "{2}", "d2 = 0.0 mm", f"\u03b82 = {q2}\u00b0",
                                    "a2 = 431.8 mm", "\u03b12 = 0.0\u00b0"])
    t.frame_actions["off"].trigger()
    assert t.frames.labels() == []
    img_off = window.view.grab_array()
    assert np.abs(img_all.astype(int) - img_off.astype(int)).sum() > 0  # drawn in pixels


def test_workspace_cloud_sampled_off_thread_from_the_engine(qtbot, window, session, tmp_path,
                                                            monkeypatch):
    t = window.teaching
    t.workspace_dock.toggleViewAction().trigger()
    panel = t.workspace
    assert panel.count.value() >= 100_000
    with qtbot.waitSignal(panel.finished, timeout=60000) as sig:
        qtbot.mouseClick(panel.sample_button, QtCore.Qt.MouseButton.LeftButton)
    ws = sig.args[0]
    assert ws is not None and len(ws) == panel.count.value()
    assert panel.progress.value() == 100 and panel.cloud.visible()
    q = session.robot.random_q(len(ws), seed=0)
    pick = np.arange(0, len(ws), 1001)
    assert np.allclose(ws.points[pick], session.robot.fkine(q[pick])[:, :3, 3])
    assert np.allclose(panel.cloud.pos, ws.points)
    # the section plane keeps a slab of points
    panel.section_box.setChecked(True)
    axis, offset, thick = panel.section()
    shown = panel.shown_points()
    assert 0 < len(shown) < len(ws) and np.all(np.abs(shown[:, axis] - offset) <= thick / 2)
    panel.offset.setValue(200)
    assert panel.section()[1] < offset
    # export CSV and PNG through the buttons (file dialogs answered)
    csv, png = tmp_path / "ws.csv", tmp_path / "ws.png"
    answers = iter([(str(csv), ""), (str(png), "")])
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: next(answers))
    qtbot.mouseClick(panel.csv_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.png_button, QtCore.Qt.MouseButton.LeftButton)
    assert np.loadtxt(csv, delimiter=",").shape == (len(ws), 4)
    assert png.stat().st_size > 1000


def test_workspace_cancel_keeps_previous_cloud(qtbot, window):
    panel = window.teaching.workspace
    panel.count.setValue(2_000_000)
    with qtbot.waitSignal(panel.finished, timeout=60000) as sig:
        panel.start()
        panel.cancel()
    assert sig.args[0] is None and panel.workspace is None
    assert "Cancelled" in panel.info.text() and panel.sample_button.isEnabled()


def test_singular_direction_live_arrows_and_words_while_dragging(qtbot, window, session):
    t = window.teaching
    t.singularity_dock.toggleViewAction().trigger()
    q = np.array([0.2, 0.5, -1.0, 0.3, 0.4, 0.1])
    session.set_q(q)
    assert "Not near a singularity" in t.singularity.text.text()
    assert t.singularity.arrow_directions() == []
    q[4] = 0.0  # drag q5 to zero: the wrist axes line up
    session.set_q(q, changing=True)
    e = session.singularity
    assert e.near and "wrist singularity" in t.singularity.text.text()
    dirs = t.singularity.arrow_directions()
    assert len(dirs) == 1 and abs(abs(dirs[0] @ e.lost[0].axis) - 1) < 1e-6
    U = np.linalg.svd(session.jacobian)[0]
    assert abs(abs(e.lost[0].twist @ U[:, -1]) - 1) < 1e-9
    assert "joints 4 and 6 can move together" in t.singularity.text.text()
    session.finish_change()


def test_presentation_mode_scales_fonts_is_remembered_and_nothing_clipped(qtbot, window,
                                                                          settings):
    app = QtWidgets.QApplication.instance()
    base = app.font().pointSizeF()
    window.resize(1280, 720)
    for dock in (window.dh_dock, window.teaching.chain_dock):
        dock.show()
    qtbot.wait(50)
    act = window.teaching.presentation.action
    act.trigger()
    try:
        assert app.font().pointSizeF() == base * FONT_SCALE
        assert window.view.label_scale == FONT_SCALE and window.teaching.frames.scale == FONT_SCALE
        assert str(settings.q.value(SETTINGS_KEY)).lower() == "true"
        window.resize(1280, 720)
        qtbot.wait(200)
        assert (window.width(), window.height()) == (1280, 720)
        clipped = clipped_widgets(window)
        assert clipped == [], "\n".join(why for _w, why in clipped)
        # no tab bar of hidden docks left over another dock's contents
        shown = {d.windowTitle() for d in window.findChildren(QtWidgets.QDockWidget)
                 if d.isVisible()}
        for bar in window.findChildren(QtWidgets.QTabBar):
            if (bar.parent() is window and bar.isVisible() and bar.count()
                    and bar.geometry().intersects(window.rect())):
                assert {bar.tabText(i) for i in range(bar.count())} & shown
    finally:
        act.trigger()
    assert app.font().pointSizeF() == base
    assert str(settings.q.value(SETTINGS_KEY)).lower() == "false"
    assert math.isclose(window.view.label_scale, 1.0)


def test_presentation_mode_is_restored_from_settings(qtbot, session, settings):
    from robogui.app.shell.main_window import MainWindow

    settings.q.setValue(SETTINGS_KEY, True)
    app = QtWidgets.QApplication.instance()
    base = app.font().pointSizeF()
    win = MainWindow(session, settings=settings, restore=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.teaching.presentation.enabled)
    assert app.font().pointSizeF() == base * FONT_SCALE
    win.teaching.presentation.action.trigger()
    assert app.font().pointSizeF() == base
    win.close()


def test_presentation_mode_keeps_the_joint_rows_whole_and_in_sight(qtbot, window):
    """Presentation mode on a 1280x720 projector, Drive task: the column widens until each
    joint row shows its value and unit (no sideways scrolling), and the joint list gets
    room for several rows while the pose readout below it scrolls."""
    window.resize(1280, 720)
    window.tasks.switch("drive")
    qtbot.wait(100)
    act = window.teaching.presentation.action
    act.trigger()
    try:
        qtbot.wait(200)
        rows = window.joint_panel.rows
        area = next(a for a in window.joint_panel.findChildren(QtWidgets.QScrollArea)
                    if a.widget() is not None and a.widget().isAncestorOf(rows[0]))
        right = area.viewport().mapToGlobal(area.viewport().rect().topRight()).x()
        unit = rows[0].unit
        assert unit.mapToGlobal(unit.rect().topRight()).x() <= right
        assert not area.horizontalScrollBar().isVisible()
        bottom = area.viewport().height() - area.widget().y()  # content y shown at the foot
        whole = [r for r in rows if r.isVisible() and r.geometry().bottom() <= bottom]
        assert len(whole) >= 3
        # the 3D view keeps most of the width
        assert window.view.width() > 0.55 * window.width()
        # the task buttons went to a second toolbar row, not behind the overflow arrow
        tasks = window.tasks
        for a in tasks.actions.values():
            button = tasks.toolbar.widgetForAction(a)
            assert button.isVisible()
            right = button.mapTo(window, button.rect().topRight()).x()
            assert right <= window.width()
        assert window.toolBarBreak(tasks.toolbar)
    finally:
        act.trigger()
    qtbot.wait(50)  # back on one row with the normal font
    assert not window.toolBarBreak(window.tasks.toolbar)


def test_closing_the_chain_and_workspace_panels_takes_their_drawings_out_of_the_view(
        qtbot, window, session):
    """Issue 28 item 8: the chain step's triad T(0,i) and the workspace cloud go when their
    panels are closed (the menu entry, as a person does), and the cloud comes back with
    its panel."""
    t = window.teaching
    chain_act = t.chain_dock.toggleViewAction()
    chain_act.trigger()
    panel = t.chain
    panel.setFocus()
    QTest.keyClick(panel, Key.Key_Right)
    QTest.keyClick(panel, Key.Key_Right)
    assert panel.i == 2 and t.frames.extra is not None and t.frames.mode == "one"
    chain_act.trigger()  # Robot > Step through the chain, unticked
    qtbot.waitUntil(lambda: t.chain_dock.isHidden() and panel.i == 0)
    assert t.frames.extra is None
    assert t.frames.mode == "off"  # the frames the stepping turned on went with it
    assert t.frames.labels() == []

    ws_act = t.workspace_dock.toggleViewAction()
    ws_act.trigger()
    wpanel = t.workspace
    wpanel.count.setValue(2000)
    with qtbot.waitSignal(wpanel.finished, timeout=60000):
        qtbot.mouseClick(wpanel.sample_button, QtCore.Qt.MouseButton.LeftButton)
    assert wpanel.cloud.visible()
    ws_act.trigger()
    qtbot.waitUntil(lambda: t.workspace_dock.isHidden() and not wpanel.cloud.visible())
    assert not wpanel.plane.visible()
    ws_act.trigger()
    qtbot.waitUntil(lambda: not t.workspace_dock.isHidden() and wpanel.cloud.visible())
