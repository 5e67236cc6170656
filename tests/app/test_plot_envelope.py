"""Long trajectories reach pyqtgraph as a min/max envelope at screen resolution: every
extreme survives, exports hold all the samples, zooming in shows the samples in view.

Run under an X server: xvfb-run -a -s "-screen 0 1920x1080x24" python -m pytest tests/app
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtWidgets

from robogui.app.plots import install_plot_docks
from robogui.engine.trajectory.trajectory import Trajectory
from robogui.session.motion.envelope import ENVELOPE_COLUMNS

K = 300_000


@pytest.fixture
def long_plots(qtbot, session, puma):
    win = QtWidgets.QMainWindow()
    win.setCentralWidget(QtWidgets.QLabel("3D view"))
    qtbot.addWidget(win)
    docks = install_plot_docks(win, session, tabbed=False)
    win.resize(1800, 900)
    win.show()
    qtbot.waitExposed(win)
    t = np.linspace(0.0, K / 1000.0, K)
    q = puma.pose("qn") + np.outer(np.sin(3.0 * t), [0.9, -0.5, 0.4, 0.8, 0.6, -1.0])
    # one sample off the smooth curve, past everything else of q1 (a column of the envelope
    # spans seconds of the sine here, so a smaller spike may sit inside its column's range):
    # a spike the plot must show
    q[123_457, 0] += 1.2
    session.set_trajectory(Trajectory(t, q))
    session.finish_change()
    qtbot.waitUntil(lambda: docks.runner.analysis is not None, timeout=120_000)
    QtWidgets.QApplication.processEvents()
    yield docks, docks.runner.analysis
    docks.close()
    win.close()


def test_curves_hold_two_points_per_column_and_every_extreme(qtbot, long_plots):
    docks, a = long_plots
    js = docks.joint_state
    width = max(p.vb.width() for p in js.plots)
    assert width < ENVELOPE_COLUMNS  # the envelope is finer than the plot
    for name in ("q", "qd", "qdd"):
        scale = js.scale(name)
        full = getattr(a, name) * scale
        for j in range(6):
            x, y = js.state_curve(name, j).getData()
            assert len(x) <= 2 * ENVELOPE_COLUMNS
            # the highest and lowest sample of the whole curve are drawn, exactly
            assert np.max(y) == full[:, j].max() and np.min(y) == full[:, j].min()
    # the one-sample spike of q1 is on screen
    x, y = js.state_curve("q", 0).getData()
    assert np.degrees(a.q[123_457, 0]) in y
    # exports and the torque peaks come from all the samples
    assert len(js.plotted_data()[js.curve_name("q", 0)][0]) == K
    tp = docks.torque
    tx, ty = tp.torque_curve("total", 1).getData()
    assert len(tx) <= 2 * ENVELOPE_COLUMNS
    assert np.max(ty) == a.tau[:, 1].max() and np.min(ty) == a.tau[:, 1].min()
    for p in tp._peaks:
        xs, ys = tp.torque_curve("total", p.joint).getData()
        assert p.value in ys


def test_zooming_in_shows_every_sample_in_view(qtbot, long_plots):
    docks, a = long_plots
    js = docks.joint_state
    curve = js.state_curve("q", 0)
    plot = js.qplots["q"]
    plot.vb.setXRange(123.3, 123.6, padding=0.0)  # 0.3 s: 300 samples, the spike among them
    # before the re-drawing: the whole envelope's few points in view; after: all 300
    qtbot.waitUntil(lambda: len(curve.getData()[0]) >= 300, timeout=5000)
    x, y = curve.getData()
    inside = (a.t >= 123.3) & (a.t <= 123.6)
    assert np.isin(a.t[inside], x).all()  # every sample in view, none skipped
    np.testing.assert_allclose(y[np.isin(x, a.t[inside])], np.degrees(a.q[inside, 0]))
    assert np.degrees(a.q[123_457, 0]) in y
    # zooming out again gives back the whole envelope
    plot.vb.setXRange(0.0, K / 1000.0, padding=0.0)
    def whole():
        x = curve.getOriginalDataset()[0]
        return len(x) > 1000 and x[0] == 0.0 and x[-1] > 299.0

    qtbot.waitUntil(whole, timeout=5000)
    assert len(curve.getOriginalDataset()[0]) <= 2 * ENVELOPE_COLUMNS
