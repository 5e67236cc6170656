"""Manipulability along the trajectory, or a live strip chart while the user moves the arm.

Trajectory mode: Yoshikawa ``w = sqrt(det(J J^T))`` against time with the singularity
threshold line (upper plot), the inverse condition number ``sigma_min / sigma_max`` and
Asada's measure (lower plot, both between 0 and 1), from the
:class:`~robogui.session.motion.analysis.TrajectoryAnalysis`.

Live mode: while the user drives the sliders or jogs (a joint change that is not the
playhead's), the same measures at each new configuration are kept in
:class:`~robogui.session.motion.analysis.ManipulabilityHistory` ring buffers and drawn against
time, 0 being the latest change. The panel switches to live mode on such a change and
back to trajectory mode when the playhead moves or a new analysis arrives; the mode
box switches by hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from robogui.session.motion.analysis import (
    ManipulabilityHistory,
    singularity_threshold,
)
from robogui.session.motion.envelope import analysis_envelopes
from robogui.session.teach.jog import task_mask

from .. import style
from .base import PlotPanel, pen, signals_blocked

__all__ = ["ManipulabilityPanel", "MEASURE_COLORS", "LIVE_WINDOW", "yoshikawa_units"]

MEASURE_COLORS = {"yoshikawa": "#f2f4f7", "condition": "#ffd166", "asada": "#ef8fd0"}
LIVE_WINDOW = 30.0  # seconds of history shown by the strip chart
LIVE_CAPACITY = 2000
_MODES = ("trajectory", "live")


def yoshikawa_units(robot) -> str:
    """Units of Yoshikawa's measure over the robot's task rows: "m³" for a 6R arm."""
    rows = task_mask(robot)
    kt = int(rows[:3].sum())
    if not all(link.isrevolute for link in robot.links):
        return "mixed units"
    return {0: "1", 1: "m", 2: "m²", 3: "m³"}[kt]


class ManipulabilityPanel(PlotPanel):
    """Yoshikawa, inverse condition number and Asada, along the trajectory or live."""

    TITLE = "Manipulability"
    CSV_NAME = "manipulability"

    def __init__(self, session, runner, parent=None, *,
                 clock: Callable[[], float] = time.monotonic):
        super().__init__(session, runner, parent)
        self.clock = clock
        self.mode = "live"
        self.toolbar.addWidget(QtWidgets.QLabel("Mode"))
        self.mode_combo = QtWidgets.QComboBox()
        self.mode_combo.addItems(["along the trajectory", "live (sliders, jog)"])
        self.mode_combo.setToolTip("Switches by itself: live while you move the arm, "
                                   "trajectory when the playhead moves")
        self.mode_combo.currentIndexChanged.connect(lambda i: self.set_mode(_MODES[i]))
        self.toolbar.addWidget(self.mode_combo)
        self.finish_toolbar()

        self.wplot = self.add_plot(0, "Yoshikawa w")
        self.rplot = self.add_plot(1, "ratio (0\u20131)")
        self.set_bottom_label_only_on_last()
        self.legend = self.add_legend(columns=4)
        self.threshold_line = pg.InfiniteLine(
            angle=0, movable=False,
            pen=pen(style.NEAR_LIMIT_COLOR, 1.3, QtCore.Qt.PenStyle.DashLine),
            label="singularity threshold", labelOpts={
                "position": 0.02, "color": style.NEAR_LIMIT_COLOR, "anchors": [(0, 1), (0, 1)]})
        self.threshold_line.setZValue(400)
        self.wplot.addItem(self.threshold_line)
        self.threshold = 0.0
        self.history = {name: ManipulabilityHistory(LIVE_CAPACITY) for name in MEASURE_COLORS}
        self._live_dirty = False
        self._first_pending = False  # the robot's first live sample is queued
        self._robot = None
        self._subs.connect(session.events.robot, self._on_robot)
        self._subs.connect(session.events.q, self._on_q, paced=True)
        self._subs.connect(session.events.time, lambda _t: self._on_playhead())
        self._on_robot(session.robot)
        if runner.analysis is not None:
            self._on_finished(runner.analysis)

    # -- curves ----------------------------------------------------------------------------------
    def _names(self) -> dict[str, str]:
        return {"yoshikawa": f"Yoshikawa w ({self._wunits})",
                "condition": "inverse condition number (1)", "asada": "Asada (1)"}

    def measure_curve(self, measure: str) -> pg.PlotDataItem:
        """The curve of "yoshikawa", "condition" (inverse condition number) or "asada"."""
        return self.curve(self._names()[measure])

    def _on_robot(self, robot) -> None:
        self._robot = robot
        self._wunits = yoshikawa_units(robot)
        self.remove_curves()
        self.legend.clear()
        names = self._names()
        for measure, color in MEASURE_COLORS.items():
            plot = self.wplot if measure == "yoshikawa" else self.rplot
            width = 2.0 if measure == "yoshikawa" else 1.6
            curve = self.add_curve(plot, names[measure], color, width)
            self.legend.addItem(curve, {"yoshikawa": "Yoshikawa w",
                                        "condition": "1/condition number",
                                        "asada": "Asada"}[measure])
        self.legend.addItem(pg.PlotDataItem(pen=self.threshold_line.pen), "singularity threshold")
        self.fit_legend()
        self.set_axis_label(self.wplot, f"Yoshikawa w ({self._wunits})")
        for h in self.history.values():
            h.clear()
        self.analysis = None
        self.set_mode("live")
        # the first sample on the next event-loop pass: on a long chain its engine set-up
        # would otherwise add to the time the GUI is blocked while the robot opens
        self._first_pending = True
        QtCore.QTimer.singleShot(0, self, lambda r=robot: self._first_live_sample(r))

    def _first_live_sample(self, robot) -> None:
        if self._robot is not robot or not self._first_pending:
            return  # another robot since (its own call is queued), or recorded already
        self._first_pending = False
        if self.analysis is None:  # 512 random poses of the engine: not in the same pass
            self.threshold = singularity_threshold(robot)
            self.threshold_line.setValue(self.threshold)
        self._record_live()
        if self.mode == "live":
            self._show_live()

    # -- modes -----------------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        """Show "trajectory" (the analysis) or "live" (the strip chart)."""
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {mode!r}")
        self.mode = mode
        with signals_blocked(self.mode_combo):
            self.mode_combo.setCurrentIndex(_MODES.index(mode))
        self._redraw()

    def _redraw(self) -> None:
        if self.mode == "trajectory" and self.analysis is not None:
            self._show_trajectory(self.analysis)
        elif self.mode == "trajectory":
            for curve in self._curves.values():
                self.set_curve_data(curve)
            self.set_notice("No trajectory to analyse.\nMove the arm to see the live "
                            "manipulability, or generate a trajectory on the timeline.", empty=True)
            self.set_seekable(False)
        else:
            self._show_live()

    def _show_trajectory(self, a) -> None:
        self.set_notice(None)
        self.threshold = a.threshold
        self.threshold_line.setValue(a.threshold)
        values = {"yoshikawa": a.yoshikawa, "condition": a.condition, "asada": a.asada}
        for measure, v in values.items():
            curve = self.measure_curve(measure)
            curve.setVisible(v is not None)
            curve.setSymbol(None)
            if v is None:
                self.set_curve_data(curve)
            else:
                self.set_curve_data(curve, a.t, v, envelope=analysis_envelopes(a)[measure])
        self.plots[-1].setLabel("bottom", "time (s)")
        self.fit(self.wplot, a.t, [], ylim=self._w_range(a.yoshikawa))
        self.fit(self.rplot, a.t, [], ylim=(0.0, 1.05))
        self.set_seekable(True)

    def _show_live(self) -> None:
        self.set_notice(None)
        self.set_seekable(False)
        t_w, _ = self.history["yoshikawa"].arrays(LIVE_WINDOW)
        t0 = t_w[-1] if t_w.size else 0.0
        for measure, h in self.history.items():
            t, v = h.arrays(LIVE_WINDOW)
            curve = self.measure_curve(measure)
            has = t.size > 0 and not np.all(np.isnan(v))
            curve.setVisible(has)
            self.set_curve_data(curve, t - t0, v) if has else self.set_curve_data(curve)
            # a lone sample is a point, not a line
            curve.setSymbol("o" if t.size == 1 else None)
            curve.setSymbolSize(5)
            curve.setSymbolBrush(MEASURE_COLORS[measure])
            curve.setSymbolPen(None)
        self.plots[-1].setLabel("bottom", "time (s), 0 = latest change")
        window = np.array([-LIVE_WINDOW, 0.0])
        self.fit(self.wplot, window, [],
                 ylim=self._w_range(self.history["yoshikawa"].arrays(LIVE_WINDOW)[1]))
        self.fit(self.rplot, window, [], ylim=(0.0, 1.05))

    def _w_range(self, w: np.ndarray) -> tuple[float, float]:
        # from 0, and high enough that the threshold line and its label stay in view
        top = float(np.nanmax(w)) if w.size and not np.all(np.isnan(w)) else 0.0
        top = max(top, 2.0 * self.threshold, 1e-12)
        return 0.0, 1.08 * top

    # -- live feed -------------------------------------------------------------------------------
    def _from_playhead(self, q: np.ndarray) -> bool:
        s = self.session
        if s.trajectory is None:
            return False
        return bool(np.allclose(q, s.q_at(s.time), rtol=0.0, atol=1e-9))

    def _on_q(self, q) -> None:
        if self._from_playhead(np.asarray(q)):
            return
        if self._first_pending:  # the robot's first sample, queued, records this q
            return
        self._record_live()
        if self.mode != "live":
            self.set_mode("live")
        elif not self._live_dirty:
            # coalesce redraws while a slider streams changes
            self._live_dirty = True
            QtCore.QTimer.singleShot(30, self._flush_live)

    def _flush_live(self) -> None:
        self._live_dirty = False
        if self.mode == "live":
            self._show_live()

    def _record_live(self) -> None:
        """Append the session's measures at its configuration (computed once per change)."""
        m = self.session.manipulability_measures
        now = self.clock()
        for measure, h in self.history.items():
            v = m[measure]
            h.append(now, v if v is not None else np.nan)

    def _on_playhead(self) -> None:
        if self.mode != "trajectory" and self.analysis is not None:
            self.set_mode("trajectory")

    # -- analysis --------------------------------------------------------------------------------
    def show_analysis(self, analysis) -> None:
        a = analysis
        if a is not None and a.robot_key != self._robot.key:
            a = None
        self.analysis = a
        self.set_mode("trajectory" if a is not None else "live")

    def show_failure(self, message: str) -> None:
        pass  # the live chart stays; the status label says why there is no trajectory plot

    def x_label(self) -> str:
        return "t (s)" if self.mode == "trajectory" else "t - t_latest (s)"

    def csv_header(self) -> list[str]:
        return super().csv_header() + [
            f"mode: {self.mode}", f"singularity threshold (Yoshikawa): {self.threshold:.6g}"]
