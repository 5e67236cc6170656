"""Clearance along the trajectory (issue 24, item 7): the smallest signed distance between
the robot and its work cell (and itself) against time, with a threshold line, synced to the
playhead like the other plots (a click or drag in the plot seeks).

The distances are the session's (``session.trajectory_clearance``: one batched check of up
to 1,000 of the trajectory's samples per trajectory, robot, tool and cell, Qt-free), asked
for only while the panel is shown; the panel draws them in the display's length unit. Below
zero the robot is in contact (the depth is the distance's magnitude); pre-flight lists those
contacts, checked continuously.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from robogui.session.explain import readout

from .. import style
from ..widgets.numeric_field import follow_units, unit_field
from .base import PlotPanel, pen

__all__ = ["ClearancePanel", "DEFAULT_THRESHOLD"]

#: the threshold line's default height (m): closer than this is worth a look
DEFAULT_THRESHOLD = 0.01
_CURVE_COLOR = "#7fd1ff"


class ClearancePanel(PlotPanel):
    """The smallest distance to the cell against time, with a threshold line."""

    TITLE = "Clearance"
    CSV_NAME = "clearance"

    def __init__(self, session, runner, parent=None):
        super().__init__(session, runner, parent)
        d = session.display
        self.toolbar.addWidget(QtWidgets.QLabel("Threshold"))
        self.threshold_field = unit_field(d, "length", 0.0, 1.0, what="clearance threshold")
        self.threshold_field.set_si_value(DEFAULT_THRESHOLD)
        self.threshold_field.setToolTip("Draws a line at this clearance: closer than this is "
                                        "worth a look")
        self.threshold_field.setMaximumWidth(110)
        self.threshold_field.editingFinished.connect(self._place_threshold)
        self.toolbar.addWidget(self.threshold_field)
        self.finish_toolbar()
        self.plot = self.add_plot(0, "clearance")
        self.legend = self.add_legend(columns=2)
        self.threshold_line = pg.InfiniteLine(
            angle=0, movable=False,
            pen=pen(style.NEAR_LIMIT_COLOR, 1.3, QtCore.Qt.PenStyle.DashLine))
        self.threshold_line.setZValue(400)
        self.plot.addItem(self.threshold_line, ignoreBounds=True)
        self.contact_line = pg.InfiniteLine(angle=0, movable=False,
                                            pen=pen(style.AT_LIMIT_COLOR, 1.0, alpha=0.8))
        self.plot.addItem(self.contact_line, ignoreBounds=True)
        self.curve_item = None
        self.curve_data = None  # the session's ClearanceCurve shown, or None
        self._stale = True  # the curve waits for the panel to be shown
        follow_units(self._subs, d, [self.threshold_field])
        self._subs.connect(d.events.length_unit, lambda _u: self._redraw())
        self._subs.connect(session.events.cell, lambda _c: self._redraw())
        self._subs.connect(session.events.robot, lambda _r: self._redraw())
        self._redraw()
        if runner.analysis is not None:
            self._on_finished(runner.analysis)

    @property
    def threshold(self) -> float:
        """The threshold line's clearance (m)."""
        return self.threshold_field.si_value()

    def _unit(self) -> tuple[float, str]:
        u = self.session.display.length_unit
        return readout.length_scale(u), u

    def _place_threshold(self) -> None:
        scale, _u = self._unit()
        self.threshold_line.setValue(self.threshold * scale)

    def show_analysis(self, analysis) -> None:
        """A new trajectory analysis is there (or None): draw the clearance along it."""
        self._redraw()

    def _ensure_curve(self) -> tuple[float, str]:
        """The curve, named with the display's length unit (a new one when it changed)."""
        scale, unit = self._unit()
        name = f"clearance ({unit})"
        if self.curve_item is None or name not in self.curve_names:
            self.remove_curves()
            self.legend.clear()
            self.curve_item = self.add_curve(self.plot, name, _CURVE_COLOR, 2.0)
            self.legend.addItem(self.curve_item, "smallest distance to the cell")
            self.legend.addItem(pg.PlotDataItem(pen=self.threshold_line.pen), "threshold")
            self.fit_legend()
            self.set_axis_label(self.plot, name)
        self._place_threshold()
        return scale, unit

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        if self._stale:
            self._redraw()

    def _redraw(self) -> None:
        # the distances along a trajectory cost a batched check (a second for a long one
        # with meshes): only for a panel that is shown, else when it is next shown
        scale, unit = self._ensure_curve()
        self._stale = not self.isVisible()
        if self._stale:
            return
        s = self.session
        curve = s.trajectory_clearance if s.trajectory is not None else None
        self.curve_data = curve
        if curve is None:
            self.set_curve_data(self.curve_item)
            why = ("No trajectory to check.\nGenerate or load one, or Check a program."
                   if s.trajectory is None else
                   f"No collision geometry for this robot.\n{s.collision_error or ''}")
            self.set_notice(why, empty=s.trajectory is None)
            self.set_seekable(False)
            self.status_label.setText("")
            return
        self.set_notice(None)
        d = np.where(np.isfinite(curve.distance), curve.distance, np.nan)
        self.set_curve_data(self.curve_item, curve.t, d, scale=scale)
        low, t_low, pair = curve.smallest
        shown = [d * scale, np.array([self.threshold * scale, 0.0])]
        self.fit(self.plot, curve.t, shown)
        self.set_seekable(True)
        if pair is not None and np.isfinite(low):
            word = "deepest contact" if low < 0 else "smallest"
            self.status_label.setText(
                f"{word} {abs(low) * scale:.{readout.decimals(unit)}f} {unit} at "
                f"t = {t_low:.2f} s ({pair[0]} \u2013 {pair[1]})")
        self.settle()
