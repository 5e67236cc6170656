"""Joint positions, velocities and accelerations along the trajectory: three stacked
plots sharing the time axis, one colour per joint (the 3D view's joint colours), in the
display units (deg or rad; mm or m for prismatic joints)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from robogui.session.motion.envelope import analysis_envelopes

from .. import style
from .base import PlotPanel, joint_units, signals_blocked, unit_label

__all__ = ["JointStatePanel", "QUANTITIES"]

QUANTITIES = ("q", "qd", "qdd")
# plain qd / qdd as in the CSV columns: the UI font draws combining dots (q\u0307) far above the q
_AXIS_TEXT = {"q": "position q", "qd": "velocity qd", "qdd": "acceleration qdd"}
NO_TRAJECTORY = ("No trajectory.\nGenerate one or load a CSV on the timeline to see "
                 "the joint positions, velocities and accelerations along it.")


class JointStatePanel(PlotPanel):
    """q, qd and qdd against time, scaled to the session's display units."""

    TITLE = "Joint state"
    CSV_NAME = "joint_state"

    def __init__(self, session, runner, parent=None):
        super().__init__(session, runner, parent)
        self.joint: int | None = None
        self.toolbar.addWidget(QtWidgets.QLabel("Show"))
        self.joint_combo = QtWidgets.QComboBox()
        self.joint_combo.currentIndexChanged.connect(
            lambda i: self.set_joint(None if i <= 0 else i - 1))
        self.toolbar.addWidget(self.joint_combo)
        self.finish_toolbar()
        self.qplots = {name: self.add_plot(row, "") for row, name in enumerate(QUANTITIES)}
        self.set_bottom_label_only_on_last()
        self.legend = self.add_legend(columns=8)
        self._robot = None
        self._made = False
        self._subs.connect(session.events.robot, self._on_robot)
        for name in ("angle_unit", "length_unit"):
            self._subs.connect(session.display.events[name], lambda _v: self._on_units())
        self._on_robot(session.robot)
        if runner.analysis is not None:
            self._on_finished(runner.analysis)

    def _units(self, order: int) -> tuple[np.ndarray, list[str]]:
        return joint_units(self._robot, self.session.display, order)

    def curve_name(self, quantity: str, j: int) -> str:
        """CSV column / curve name of ``quantity`` ("q", "qd", "qdd") of joint ``j`` (0-based)."""
        order = QUANTITIES.index(quantity)
        return f"J{j + 1} {quantity} ({self._units(order)[1][j]})"

    def state_curve(self, quantity: str, j: int) -> pg.PlotDataItem:
        if quantity not in QUANTITIES:
            raise ValueError(f"quantity must be one of {QUANTITIES}, got {quantity!r}")
        self._make_curves()
        return self.curve(self.curve_name(quantity, j))

    def scale(self, quantity: str) -> np.ndarray:
        """Factors (n,) from SI to the plotted units of ``quantity``."""
        return self._units(QUANTITIES.index(quantity))[0]

    def _build(self) -> None:
        """Axis labels now; the curves and legend when there is something to plot
        (``_make_curves``): 3 n curves are seconds of pyqtgraph set-up for a 200-joint
        robot, which would freeze the app while it opens the robot."""
        self.remove_curves()
        self.legend.clear()
        self._made = False
        for order, name in enumerate(QUANTITIES):
            self.set_axis_label(self.qplots[name],
                                f"{_AXIS_TEXT[name]} ({unit_label(self._units(order)[1])})")

    @property
    def has_curves(self) -> bool:
        """Whether the curves exist (they are made with the first analysis shown)."""
        return self._made

    def _make_curves(self) -> None:
        if self._made:
            return
        self._made = True
        with self.legend_batch(), self.curves_batch(*self.qplots.values()):
            for name in QUANTITIES:
                plot = self.qplots[name]
                for j in range(self._robot.n):
                    curve = self.add_curve(plot, self.curve_name(name, j),
                                           style.joint_color(j), 1.6)
                    if name == "q":
                        self.legend.addItem(curve, f"J{j + 1}")

    def _on_robot(self, robot) -> None:
        self._robot = robot
        with signals_blocked(self.joint_combo):
            self.joint_combo.clear()
            self.joint_combo.addItem("all joints")
            self.joint_combo.addItems([f"J{j + 1}" for j in range(robot.n)])
        self.joint = None
        self._build()
        self.show_analysis(None)

    def _on_units(self) -> None:
        self._build()
        self.show_analysis(self.analysis)

    def set_joint(self, j: int | None) -> None:
        """Plot joint ``j`` (0-based) only, or all joints (None)."""
        if j is not None and not 0 <= j < self._robot.n:
            raise ValueError(f"j must be None or a joint index 0..{self._robot.n - 1}, got {j}")
        self.joint = j
        with signals_blocked(self.joint_combo):
            self.joint_combo.setCurrentIndex(0 if j is None else j + 1)
        self._refresh()

    def _refresh(self) -> None:
        a = self.analysis
        cols = list(range(self._robot.n)) if self.joint is None else [self.joint]
        if a is not None:
            env = analysis_envelopes(a)  # same extremes as the full data, 2 per column
            for name, plot in self.qplots.items():  # the final view first: one downsampling
                self.fit(plot, a.t, [(env[name][1] * self.scale(name))[:, cols]])
        if not self._made:
            return
        for name in QUANTITIES:
            for k in range(self._robot.n):
                self.state_curve(name, k).setVisible(k in cols)

    def show_analysis(self, analysis) -> None:
        a = analysis
        if a is not None and a.robot_key != self._robot.key:
            a = None
        self.analysis = a
        if a is None:
            for curve in self._curves.values():
                self.set_curve_data(curve)
            self.set_notice(NO_TRAJECTORY, empty=True)
            self.set_seekable(False)
            return
        self.set_notice(None)
        self._make_curves()
        self._refresh()
        env = analysis_envelopes(a)  # computed with the analysis, off the GUI thread
        for name in QUANTITIES:
            values, scale = getattr(a, name), self.scale(name)  # SI; x scale: display units
            xe, ye = env[name]
            for j in range(self._robot.n):
                self.set_curve_data(self.state_curve(name, j), a.t, values[:, j],
                                    envelope=(xe[:, j], ye[:, j]), scale=scale[j])
        self.set_seekable(True)

    def csv_header(self) -> list[str]:
        d = self.session.display
        return super().csv_header() + [f"units: angles {d.angle_unit}, lengths {d.length_unit}"]
