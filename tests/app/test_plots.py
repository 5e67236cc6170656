"""Plot panels: the plotted data is the engine's, the cursor follows the playhead and a
click seeks, torque parts add up, exports hold what is shown, no-dynamics notice,
threaded analysis with cancel, live manipulability strip chart, end-effector ellipsoid.

Run under an X server: xvfb-run -a -s "-screen 0 1920x1080x24" python -m pytest tests/app
"""

from __future__ import annotations

import csv

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.app.plots import install_plot_docks
from robogui.app.plots.worker import AnalysisRunner
from robogui.engine.dynamics import dynamics
from robogui.engine.dynamics.manipulability import manipulability, vellipse
from robogui.engine.trajectory.trajectory import jtraj
from robogui.io.robotfile import load_robot
from robogui.session import Session

# a motion away from singularities (q5 != 0), so every measure is informative
DQ = np.array([0.9, -0.5, 0.4, 0.8, 0.6, -1.0])


def puma_traj(robot, k=201, duration=2.0):
    q0 = robot.pose("qn")
    return jtraj(q0, q0 + DQ, np.linspace(0.0, duration, k))


@pytest.fixture
def plots(qtbot, session):
    win = QtWidgets.QMainWindow()
    win.setCentralWidget(QtWidgets.QLabel("3D view"))
    qtbot.addWidget(win)
    docks = install_plot_docks(win, session, tabbed=False)
    win.resize(1800, 900)
    win.show()
    qtbot.waitExposed(win)
    yield docks
    docks.close()
    win.close()


def wait_analysis(qtbot, docks, traj):
    qtbot.waitUntil(lambda: docks.runner.analysis is not None
                    and docks.runner.analysis.n_samples == len(traj.t), timeout=5000)
    QtWidgets.QApplication.processEvents()
    return docks.runner.analysis


def ydata(curve):
    x, y = curve.getData()
    return np.asarray(x), np.asarray(y)


def test_plotted_data_equals_engine(qtbot, session, puma, plots):
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    q, qd, qdd = traj.q, traj.qd, traj.qdd
    plots.torque.set_components(["total", "gravity", "inertial", "coriolis", "friction"])
    engine = {
        "total": dynamics.rne(puma, q, qd, qdd),
        "gravity": dynamics.gravload(puma, q),
        "inertial": dynamics.inertia(puma, q) @ qdd[:, :, None],
        "coriolis": dynamics.coriolis_torque(puma, q, qd),
        "friction": -dynamics.friction(puma, qd),
    }
    engine["inertial"] = engine["inertial"][..., 0]
    for comp, tau in engine.items():
        for j in range(puma.n):
            x, y = ydata(plots.torque.torque_curve(comp, j))
            np.testing.assert_allclose(x, traj.t, rtol=0, atol=0)
            np.testing.assert_allclose(y, tau[:, j], rtol=1e-9, atol=1e-9, err_msg=f"{comp} J{j+1}")

    # joint state, in the display units (degrees by default)
    assert session.display.angle_unit == "deg"
    for name, ref in (("q", q), ("qd", qd), ("qdd", qdd)):
        for j in range(puma.n):
            x, y = ydata(plots.joint_state.state_curve(name, j))
            np.testing.assert_array_equal(x, traj.t)
            np.testing.assert_allclose(y, np.degrees(ref[:, j]), rtol=1e-12, atol=1e-12)
    session.display.angle_unit = "rad"
    _, y = ydata(plots.joint_state.state_curve("qd", 2))
    np.testing.assert_allclose(y, qd[:, 2], rtol=1e-12, atol=1e-12)
    assert "rad/s" in plots.joint_state.qplots["qd"].getAxis("left").labelText

    m = plots.manipulability
    assert m.mode == "trajectory"
    for measure, method, tol in (("yoshikawa", "yoshikawa", 1e-9), ("condition", "condition", 1e-9),
                                 ("asada", "asada", 1e-6)):
        x, y = ydata(m.measure_curve(measure))
        np.testing.assert_array_equal(x, traj.t)
        np.testing.assert_allclose(y, manipulability(puma, q, method=method), rtol=tol, atol=1e-12)
    assert m.threshold_line.value() == pytest.approx(plots.runner.analysis.threshold)


def test_components_add_up_to_total(qtbot, session, puma, plots):
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    panel = plots.torque
    panel.set_components(["total", "gravity", "inertial", "coriolis", "friction"])
    for j in range(puma.n):
        total = ydata(panel.torque_curve("total", j))[1]
        parts = sum(ydata(panel.torque_curve(c, j))[1]
                    for c in ("gravity", "inertial", "coriolis", "friction"))
        np.testing.assert_allclose(parts, total, rtol=1e-12, atol=1e-9)
        assert np.ptp(ydata(panel.torque_curve("inertial", j))[1]) > 0  # not trivially zero
    # one joint only: the others are hidden, its five curves shown
    panel.set_joint(1)
    shown = set(panel.plotted_data())
    assert shown == {panel.curve_name(c, 1) for c in
                     ("total", "gravity", "inertial", "coriolis", "friction")}


def test_cursor_follows_playhead_and_click_seeks(qtbot, session, puma, plots):
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    for t in (0.0, 0.83, 2.0):
        session.set_time(t)
        for panel in plots.panels:
            assert all(c.isVisible() and c.value() == pytest.approx(t) for c in panel.cursors)

    # a left click at x = 1.5 s in the torque plot moves the playhead and the robot there
    panel = plots.torque
    vb = panel.plot.vb
    (x0, x1), (y0, y1) = vb.viewRange()
    target = x0 + 0.75 * (x1 - x0)
    scene_pt = vb.mapViewToScene(QtCore.QPointF(target, 0.5 * (y0 + y1)))
    pos = panel.graphics.mapFromScene(scene_pt)
    changed = []
    session.events.changed.connect(changed.append)
    qtbot.mouseClick(panel.graphics.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    px = (x1 - x0) / vb.width()  # one pixel in seconds
    assert session.time == pytest.approx(target, abs=2 * px)
    np.testing.assert_allclose(session.q, session.q_at(session.time), atol=1e-12)
    assert changed, "a click is a complete change"
    for p in plots.panels:
        assert p.cursors[0].value() == pytest.approx(session.time)

    # dragging scrubs: "changing" while it moves, complete on release
    a = vb.mapViewToScene(QtCore.QPointF(x0 + 0.2 * (x1 - x0), 0.5 * (y0 + y1)))
    b = vb.mapViewToScene(QtCore.QPointF(x0 + 0.4 * (x1 - x0), 0.5 * (y0 + y1)))
    vp = panel.graphics.viewport()
    pa, pb = panel.graphics.mapFromScene(a), panel.graphics.mapFromScene(b)
    qtbot.mousePress(vp, QtCore.Qt.MouseButton.LeftButton, pos=pa)
    for f in np.linspace(0, 1, 6)[1:]:
        p = QtCore.QPoint(int(pa.x() + f * (pb.x() - pa.x())), pa.y())
        btn = QtCore.Qt.MouseButton
        ev = QtGui.QMouseEvent(QtCore.QEvent.Type.MouseMove, QtCore.QPointF(p),
                               QtCore.QPointF(vp.mapToGlobal(p)), btn.NoButton, btn.LeftButton,
                               QtCore.Qt.KeyboardModifier.NoModifier)
        QtWidgets.QApplication.sendEvent(vp, ev)
    assert session.is_changing
    qtbot.mouseRelease(vp, QtCore.Qt.MouseButton.LeftButton, pos=pb)
    assert not session.is_changing
    assert session.time == pytest.approx(x0 + 0.4 * (x1 - x0), abs=2 * px)


def test_exports_hold_what_is_shown(qtbot, session, puma, plots, tmp_path):
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    plots.torque.set_components(["total", "gravity"])
    for panel in plots.panels:
        png = panel.export_png(tmp_path / f"{panel.CSV_NAME}.png")
        assert png.stat().st_size > 0
        img = QtGui.QImage(str(png))
        assert not img.isNull()
        shown = panel.graphics.grab().toImage()
        assert (img.width(), img.height()) == (shown.width(), shown.height())
        # pixel for pixel what the panel shows on screen
        fmt = QtGui.QImage.Format.Format_RGB32
        assert img.convertToFormat(fmt) == shown.convertToFormat(fmt)
        # not a blank image: the curves' colours are in it
        assert len(set(img.pixel(x, y) for x in range(0, img.width(), 7)
                       for y in range(0, img.height(), 7))) > 10

        path = panel.export_csv(tmp_path / f"{panel.CSV_NAME}.csv")
        rows = [r for r in csv.reader(path.read_text().splitlines()) if not r[0].startswith("#")]
        header, table = rows[0], np.array(rows[1:], dtype=float)
        data = panel.plotted_data()
        assert header == ["t (s)"] + list(data)
        for k, (x, y) in enumerate(data.values()):
            np.testing.assert_array_equal(table[:, 0], x)
            np.testing.assert_array_equal(table[:, k + 1], y)  # exactly, not approximately
        # what getData shows is what was exported (no downsampling at this size)
        for name, (_x, y) in data.items():
            _gx, gy = panel.curve(name).getData()
            np.testing.assert_array_equal(gy, y)
    assert not list(tmp_path.glob(".*"))  # no temporary files left behind
    assert len(plots.torque.plotted_data()) == 2 * puma.n


def test_no_dynamics_notice(qtbot, session, plots):
    robot = load_robot("irb140")
    assert not robot.has_dynamics
    session.set_robot(robot)
    traj = jtraj(robot.pose("qz") if "qz" in robot.poses else np.zeros(robot.n),
                 np.full(robot.n, 0.4), np.linspace(0, 1, 51))
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    panel = plots.torque
    assert panel.notice_text is not None and "no dynamic parameters" in panel.notice_text
    assert panel.notice.isVisible() and not panel.graphics.isVisible()
    assert panel.plotted_data() == {}  # no zeros plotted
    # kinematic panels still work for this robot
    assert len(plots.joint_state.plotted_data()) == 3 * robot.n
    assert plots.manipulability.measure_curve("asada").isVisible() is False
    with pytest.raises(ValueError, match="no curves"):
        panel.export_csv("/nonexistent/never-written.csv")


def test_torque_limits_and_peaks(qtbot, puma):
    limits = [None, 30.0, 10.0, None, None, None]
    robot = puma.with_links([L.replace(tau_max=v) for L, v in zip(puma.links, limits, strict=True)])
    session = Session(robot)
    runner = AnalysisRunner(session)
    from robogui.app.plots import TorquePanel

    panel = TorquePanel(session, runner)
    qtbot.addWidget(panel)
    traj = puma_traj(robot, duration=1.0)  # fast: big inertial torques
    session.set_trajectory(traj)
    qtbot.waitUntil(lambda: panel.analysis is not None, timeout=5000)
    tau = dynamics.rne(robot, traj.q, traj.qd, traj.qdd)
    lines = {(c.property("joint"), float(c.getData()[1][0])) for c in panel.limit_curves}
    assert lines == {(1, 30.0), (1, -30.0), (2, 10.0), (2, -10.0)}
    t, v = panel.peak_points
    assert t.size > 0
    for p in panel.analysis.torque_peaks:
        assert abs(p.value) > p.limit == limits[p.joint]
        stretch = (traj.t >= p.t_start) & (traj.t <= p.t_end)
        assert abs(p.value) == pytest.approx(np.max(np.abs(tau[stretch, p.joint])), rel=1e-9)
    np.testing.assert_allclose(sorted(v), sorted(p.value for p in panel.analysis.torque_peaks))
    over = np.abs(tau[:, 2]) > 10.0
    assert over.any() and any(p.joint == 2 for p in panel.analysis.torque_peaks)
    panel.set_joint(0)  # joint 1 has no limit and no peak
    assert panel.peak_points[0].size == 0
    assert not any(c.isVisible() for c in panel.limit_curves)
    panel.close_panel()
    runner.close()


def test_worker_thread_progress_and_cancel(qtbot, session, puma):
    runner = AnalysisRunner(session, sync_limit=100, chunk=128)
    progress = []
    runner.progress.connect(progress.append)
    traj = puma_traj(puma, k=3000)
    with qtbot.waitSignal(runner.finished, timeout=10000) as blocker:
        session.set_trajectory(traj)
    result = blocker.args[0]
    assert result is runner.analysis and result.n_samples == 3000
    assert len(progress) >= 2 and progress == sorted(progress)  # reported while computing
    np.testing.assert_allclose(result.yoshikawa, manipulability(puma, traj.q), rtol=1e-9,
                               atol=1e-12)

    # cancel: a new long trajectory, stopped at once; the old result stays
    traj2 = puma_traj(puma, k=20000)
    with qtbot.waitSignal(runner.started, timeout=2000):
        session.set_trajectory(traj2)
    with qtbot.waitSignal(runner.cancelled, timeout=5000):
        runner.cancel()
    assert runner.wait(5000)
    qtbot.wait(50)
    assert runner.analysis is result and not runner.busy
    runner.close()
    assert len(session.events.trajectory) == 0


def test_live_strip_chart(qtbot, session, puma, plots):
    clock = iter(np.arange(0.0, 100.0, 0.5))
    m = plots.manipulability
    m.clock = lambda: float(next(clock))
    for h in m.history.values():
        h.clear()
    qs = [puma.pose("qn") + 0.05 * k * DQ for k in range(6)]
    for q in qs:
        session.set_q(q, changing=True)  # a slider drag
    session.finish_change()
    qtbot.wait(60)
    assert m.mode == "live" and not any(c.isVisible() for c in m.cursors)
    x, y = ydata(m.measure_curve("yoshikawa"))
    np.testing.assert_allclose(y, manipulability(puma, np.array(qs)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(x, 0.5 * np.arange(-5, 1))  # seconds before the latest
    _, c = ydata(m.measure_curve("condition"))
    np.testing.assert_allclose(c, manipulability(puma, np.array(qs), method="condition"),
                               rtol=1e-9)

    # a trajectory takes over; moving a slider goes live again; the playhead comes back
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    assert m.mode == "trajectory"
    session.set_joint(0, 0.3)
    assert m.mode == "live"
    session.set_time(0.5)
    assert m.mode == "trajectory"


def test_close_disconnects(qtbot, session, plots):
    before = {name: len(session.events[name]) for name in session.events.names}
    assert before["time"] >= 3
    plots.close()
    after = {name: len(session.events[name]) for name in session.events.names}
    assert after["time"] == after["trajectory"] == after["q"] == 0
    session.set_trajectory(puma_traj(session.robot, k=21))  # nothing listens; nothing fails
    session.set_time(0.5)


def test_ellipsoid_overlay(qtbot, session, puma):
    from robogui.app.view.ellipsoid_item import EllipsoidOverlay
    from robogui.app.view.view3d import RobotView
    from robogui.session.explain.ellipse import ellipsoid_scale

    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    qtbot.waitExposed(view)
    overlay = EllipsoidOverlay(view, session, "velocity")
    session.set_q(puma.pose("qn"))
    e = vellipse(puma, puma.pose("qn"))
    M = overlay.item.matrix()
    s = ellipsoid_scale(puma, "velocity", "trans")
    np.testing.assert_allclose(M[:3, 3], e.centre, atol=1e-6)
    np.testing.assert_allclose(M[:3, :3], e.rotation * np.clip(e.radii * s, 2e-3 * puma.reach,
                                                              0.75 * puma.reach), atol=1e-6)
    assert overlay.item.visible() and overlay.item in view.items
    session.set_robot(load_robot("puma560akb"))  # the view rebuilds: the item comes back
    assert overlay.item in view.items
    overlay.set_kind("force")
    assert overlay.item.visible()
    overlay.set_kind("none")
    assert not overlay.item.visible()
    with pytest.raises(ValueError, match="kind"):
        overlay.set_kind("torque")
    overlay.close()


def test_failed_analysis_is_said(qtbot, session, puma, plots):
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    plots.runner.failed.emit("LinAlgError: Singular matrix")
    for panel in (plots.torque, plots.joint_state):
        assert "failed" in panel.notice_text and "Singular matrix" in panel.notice_text
        assert panel.plotted_data() == {}
    assert plots.manipulability.status_label.text() == "analysis failed"


def test_axis_labels_readable_in_a_low_dock(qtbot, session, puma, plots):
    """A y label never runs past its plot: along the axis when it fits, else as a
    horizontal caption inside the plot's corner; either way it names the units."""
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    win = plots.torque.window()
    seen = set()
    for height in (1000, 330):
        win.resize(1800, height)
        qtbot.wait(50)
        for panel in plots.panels:
            for plot in panel.plots:
                axis, caption = plot.getAxis("left"), panel.axis_caption(plot)
                text = axis.labelText
                assert text.endswith(")") and "(" in text, text  # units
                where = panel.axis_label_placement(plot)
                seen.add((panel.CSV_NAME, height, where))
                if where == "axis":
                    assert axis.label.isVisible() and not caption.isVisible()
                    assert axis.label.boundingRect().width() <= axis.height()
                else:
                    assert where == "caption" and not axis.label.isVisible()
                    assert caption.isVisible() and caption.text() == text
                    box = caption.mapRectToItem(plot.vb, caption.rect())
                    assert plot.vb.rect().contains(box), (text, box, plot.vb.rect())
    assert ("torques", 1000, "axis") in seen
    assert ("joint_state", 330, "caption") in seen
    # the joint-state labels say which derivative, in the display units
    labels = [p.getAxis("left").labelText for p in plots.joint_state.plots]
    assert labels == ["position q (deg)", "velocity qd (deg/s)", "acceleration qdd (deg/s²)"]

    # a click on a caption still seeks (the caption takes no mouse buttons)
    panel = plots.joint_state
    plot = panel.qplots["qd"]
    caption = panel.axis_caption(plot)
    assert caption.isVisible()
    scene_pt = caption.mapToScene(caption.rect().center())
    t_click = plot.vb.mapSceneToView(scene_pt).x()
    session.set_time(1.9)
    qtbot.mouseClick(panel.graphics.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=panel.graphics.mapFromScene(scene_pt))
    (x0, x1), _ = plot.vb.viewRange()
    assert session.time == pytest.approx(t_click, abs=2 * (x1 - x0) / plot.vb.width())
    assert session.time < 1.0


def test_joint_curves_have_the_3d_views_joint_colours(qtbot, session, puma, plots):
    from robogui.app import style

    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    plots.torque.set_components(["total", "gravity", "inertial", "coriolis", "friction"])
    for j in range(puma.n):
        want = QtGui.QColor(style.joint_color(j)).name()
        # the total in the joint's colour; the parts in their own (issue 28 item 7)
        assert plots.torque.torque_curve("total", j).opts["pen"].color().name() == want
        for name in ("q", "qd", "qdd"):
            assert plots.joint_state.state_curve(name, j).opts["pen"].color().name() == want
    # joints are told apart: no two share a colour
    assert len({style.joint_color(j) for j in range(puma.n)}) == puma.n


def test_jogging_feeds_the_live_strip_chart(qtbot, window, session, puma):
    """In the main window, jog steps (no trajectory playing) are drawn by the live chart."""
    m = window.ensure_plots().manipulability
    clock = iter(np.arange(0.0, 100.0, 1.0))
    m.clock = lambda: float(next(clock))
    session.set_q(puma.pose("qn"))
    for h in m.history.values():
        h.clear()
    qs = []
    for _ in range(4):
        res = window.teach.jog.jog_once("x", +1)
        assert res.moved
        qs.append(session.q.copy())
    qtbot.wait(60)
    assert m.mode == "live"
    x, y = ydata(m.measure_curve("yoshikawa"))
    np.testing.assert_allclose(y, manipulability(puma, np.array(qs)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(x, [-3.0, -2.0, -1.0, 0.0])
    assert len({tuple(q) for q in qs}) == 4  # each step moved the arm


def test_panels_say_computing_not_no_trajectory(qtbot, session, puma, plots):
    """While a long trajectory is analysed in the worker, the panels that have nothing
    to show say that it is being computed (not "No trajectory"); a cancel says so."""
    runner = plots.runner
    runner.sync_limit, runner.chunk = 100, 64
    traj = puma_traj(puma, k=20000)
    with qtbot.waitSignal(runner.started, timeout=2000):
        session.set_trajectory(traj)
    for panel in (plots.torque, plots.joint_state):
        assert panel.notice_text.startswith(f"Computing the {panel.TITLE.lower()}")
        assert "20,000 samples" in panel.notice_text
        assert panel.progress.isVisible() and panel.cancel_button.isVisible()
    with qtbot.waitSignal(runner.cancelled, timeout=5000):
        plots.torque.cancel_button.click()
    assert runner.wait(5000)
    for panel in (plots.torque, plots.joint_state):
        assert "was cancelled" in panel.notice_text and not panel.progress.isVisible()
    # a new trajectory computes again and its curves replace the notice
    traj2 = puma_traj(puma, k=3000)
    with qtbot.waitSignal(runner.finished, timeout=10000):
        session.set_trajectory(traj2)
    for panel in (plots.torque, plots.joint_state):
        assert panel.notice_text is None and panel.plotted_data()
    # a robot without dynamics keeps its own notice while computing
    robot = load_robot("irb140")
    session.set_robot(robot)
    with qtbot.waitSignal(runner.started, timeout=2000):
        session.set_trajectory(jtraj(np.zeros(robot.n), np.full(robot.n, 0.3),
                                     np.linspace(0.0, 2.0, 5000)))
    assert "no dynamic parameters" in plots.torque.notice_text
    assert plots.joint_state.notice_text.startswith("Computing")
    assert runner.wait(10000)


def test_part_checkboxes_switch_the_curves(qtbot, session, puma, plots):
    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    panel = plots.torque
    assert set(panel.plotted_data()) == {panel.curve_name("total", j) for j in range(puma.n)}
    panel.boxes["gravity"].click()
    panel.boxes["total"].click()
    assert panel.components == {"gravity"}
    data = panel.plotted_data()
    assert set(data) == {panel.curve_name("gravity", j) for j in range(puma.n)}
    g = dynamics.gravload(puma, traj.q)
    for j in range(puma.n):
        np.testing.assert_allclose(data[panel.curve_name("gravity", j)][1], g[:, j],
                                   rtol=1e-9, atol=1e-9)
    legend = [item[1].text for item in panel.legend.items]
    assert legend[:puma.n] == [f"J{j + 1}" for j in range(puma.n)]
    assert "gravity (orange, dashed)" in legend
    assert not panel.peak_points[0].size  # peaks belong to the total, hidden now


def test_torque_parts_have_colours_of_their_own_and_the_legend_says_which(qtbot, session, puma,
                                                                          plots):
    """Issue 28 item 7: each part in its own colour (not a joint's, not the limits'), with
    its own dash pattern too; the legend's sample for a part is drawn in the part's colour
    and names colour and pattern."""
    from robogui.app import style
    from robogui.app.plots.torque_panel import PART_COLORS

    traj = puma_traj(puma)
    session.set_trajectory(traj)
    wait_analysis(qtbot, plots, traj)
    panel = plots.torque
    for name in ("gravity", "inertial", "coriolis", "friction"):
        panel.boxes[name].click()  # as a person ticks the boxes
    QtWidgets.QApplication.processEvents()

    def colour(item):
        return item.opts["pen"].color().name()

    parts = ("gravity", "inertial", "coriolis", "friction")
    joint_colours = {style.joint_color(j) for j in range(puma.n)}
    for j in range(puma.n):
        assert colour(panel.torque_curve("total", j)) == style.joint_color(j)
        seen = {colour(panel.torque_curve(c, j)) for c in parts}
        assert seen == {PART_COLORS[c] for c in parts} and len(seen) == 4
    forbidden = joint_colours | {style.NEAR_LIMIT_COLOR, style.AT_LIMIT_COLOR}
    assert not set(PART_COLORS.values()) & forbidden
    # hue distance between parts: at least 20 degrees or a clear difference in lightness
    qc = [QtGui.QColor(PART_COLORS[c]) for c in parts]
    for a in range(4):
        for b in range(a + 1, 4):
            dh = abs(qc[a].hslHue() - qc[b].hslHue()) % 360
            dh = min(dh, 360 - dh)
            dl = abs(qc[a].lightness() - qc[b].lightness())
            assert dh >= 20 or dl >= 60, (parts[a], parts[b])
    legend = {item[1].text: item[0].item for item in panel.legend.items}
    for c, text in (("gravity", "gravity (orange, dashed)"),
                    ("inertial", "inertial (white, dotted)"),
                    ("coriolis", "Coriolis (yellow, dash-dot)"),
                    ("friction", "friction (grey, dash-dot-dot)")):
        assert text in legend, sorted(legend)
        assert colour(legend[text]) == PART_COLORS[c]
        assert legend[text].opts["pen"].style() == panel.torque_curve(c, 0).opts["pen"].style()
