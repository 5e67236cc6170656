"""Presentation mode switched on at start-up (remembered), with the docks built after it
(the plot docks after the first frame): every dock scrolls instead of clipping, in every
task, at 1280x720; and the 3D view's own tool axes and floor grid grow with it."""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.app.shell.presentation import FONT_SCALE, SETTINGS_KEY, clipped_widgets


@pytest.fixture
def started_in_presentation(qtbot, session, settings, errors):
    from robogui.app.shell.main_window import MainWindow

    settings.q.setValue(SETTINGS_KEY, True)
    # as run_app: the plot panels come after the first frame, here after the mode is on
    win = MainWindow(session, settings=settings, error_presenter=errors, restore=False,
                     defer_plots=True)
    qtbot.addWidget(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    qtbot.waitUntil(lambda: win.teaching.presentation.enabled)
    assert win.plot_docks is None
    win.ensure_plots()
    yield win
    win.teaching.presentation.action.trigger()  # off: the application font back
    win.close()


def test_presentation_at_startup_wraps_late_docks_and_clips_nothing_in_any_task(
        qtbot, started_in_presentation, errors):
    win = started_in_presentation
    qtbot.wait(100)
    docks = win.findChildren(QtWidgets.QDockWidget)
    plot_docks = list(win.plot_docks.docks.values())
    assert plot_docks and all(d in docks for d in plot_docks)
    # one mechanism for every dock, whenever it was built: each panel sits in a scroll area
    for dock in docks:
        assert isinstance(dock.widget(), QtWidgets.QScrollArea), dock.windowTitle()
    for key, act in win.tasks.actions.items():
        act.trigger()  # Ctrl+1..3
        win.resize(1280, 720)
        qtbot.wait(200)
        assert (win.width(), win.height()) == (1280, 720)
        shown = [d for d in docks if d.isVisible()]
        assert shown, key
        for dock in shown:
            assert isinstance(dock.widget(), QtWidgets.QScrollArea), (key, dock.windowTitle())
        clipped = clipped_widgets(win)
        assert clipped == [], f"task {key}:\n" + "\n".join(why for _w, why in clipped)
    # a dock the user opens later (the chain panel, the D-H editor) is wrapped too
    win.teaching.chain_dock.toggleViewAction().trigger()
    win.dh_dock.show()
    qtbot.wait(200)
    assert isinstance(win.teaching.chain_dock.widget(), QtWidgets.QScrollArea)
    assert clipped_widgets(win) == []
    assert errors == []


def test_clipped_widgets_sees_cut_checkbox_tab_and_header(qtbot):
    root = QtWidgets.QWidget()
    qtbot.addWidget(root)
    lay = QtWidgets.QVBoxLayout(root)
    box = QtWidgets.QCheckBox("a check box with a long text")
    box.setFixedWidth(30)
    tabs = QtWidgets.QTabBar()
    tabs.setElideMode(QtCore.Qt.TextElideMode.ElideRight)
    tabs.setExpanding(False)
    tabs.addTab("a very long tab title indeed")
    tabs.setFixedWidth(60)
    table = QtWidgets.QTableView()
    model = QtGui.QStandardItemModel(1, 1)
    model.setHorizontalHeaderLabels(["a long column title"])
    table.setModel(model)
    table.setColumnWidth(0, 20)
    for w in (box, tabs, table):
        lay.addWidget(w)
    root.show()
    qtbot.waitExposed(root)
    kinds = {why.split()[0] for _w, why in clipped_widgets(root)}
    assert {"button", "tab", "header"} <= kinds
    table.resizeColumnsToContents()
    box.setFixedWidth(box.sizeHint().width())
    tabs.setFixedWidth(tabs.tabSizeHint(0).width() + 40)
    qtbot.wait(50)
    assert clipped_widgets(root) == []


def test_presentation_enlarges_tool_axes_and_floor_grid(qtbot, window):
    scene = window.view.scene

    def grid_widths():
        return sorted(item.width for item, kind in scene._static
                      if kind == "floor" and isinstance(item, gl.GLLinePlotItem))

    def wrist_extent():
        parts = [p for p in scene._parts if p.kind == "wrist"]
        return max(float(np.abs(p.item.opts["meshdata"].vertexes()).max()) for p in parts)

    length, widths, extent = scene.tool_axes_length, grid_widths(), wrist_extent()
    triad_width = window.view_tools.labels.items[0].width
    assert widths == [1.0, 1.5]
    window.teaching.presentation.action.trigger()
    try:
        assert np.isclose(scene.label_scale, FONT_SCALE)
        assert np.isclose(scene.tool_axes_length, FONT_SCALE * length)
        assert np.isclose(wrist_extent(), FONT_SCALE * extent)  # the drawn mesh, not a number
        assert np.allclose(grid_widths(), np.multiply(widths, FONT_SCALE))
        assert np.isclose(window.view_tools.labels.items[0].width,
                          FONT_SCALE * triad_width)
        # the robot still stands where the session puts it after the rebuild
        assert np.allclose(scene._frames, window.session.frames)
    finally:
        window.teaching.presentation.action.trigger()
    assert np.isclose(scene.tool_axes_length, length) and grid_widths() == widths
