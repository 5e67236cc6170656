"""Joint torques along the current trajectory, one colour per joint.

The total ``rne`` torque is drawn solid in the joint's colour; its parts (gravity,
inertial, Coriolis / centripetal, friction) can be switched on and are drawn each in a
colour of its own (none of them a joint's colour) and a dash pattern of its own, so they
are told apart on a colour screen and in grey print alike; the legend shows both. They add
up to the total by construction of the analysis. Torque
limits from the robot file (``link.tau_max``) are drawn as dashed lines at +-limit and
the peaks of stretches over a limit are marked with red rings. A robot without dynamic
parameters shows a notice instead of (meaningless) zeros.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from robogui.session.motion.envelope import analysis_envelopes

from .. import style
from .base import PlotPanel, pen, signals_blocked

__all__ = ["TorquePanel", "COMPONENTS", "COMPONENT_LABELS", "PART_COLORS", "part_color"]

COMPONENTS = ("total", "gravity", "inertial", "coriolis", "friction")
COMPONENT_LABELS = {"total": "total", "gravity": "gravity", "inertial": "inertial",
                    "coriolis": "Coriolis/centripetal", "friction": "friction"}
_DASH = {"total": QtCore.Qt.PenStyle.SolidLine, "gravity": QtCore.Qt.PenStyle.DashLine,
         "inertial": QtCore.Qt.PenStyle.DotLine, "coriolis": QtCore.Qt.PenStyle.DashDotLine,
         "friction": QtCore.Qt.PenStyle.DashDotDotLine}
_WIDTH = {"total": 2.0}
#: the parts' colours: away from the joints' blues, greens and violets and from the
#: amber/red of the limits, so a part never reads as a joint
PART_COLORS = {"gravity": "#ff8c42", "inertial": "#f2f2f2", "coriolis": "#e6dc5a",
               "friction": "#8c8c8c"}
_COLOR_TEXT = {"gravity": "orange", "inertial": "white", "coriolis": "yellow",
               "friction": "grey"}
_FIELD = {c: "tau" if c == "total" else f"tau_{c}" for c in COMPONENTS}  # analysis fields
_SHORT = {**COMPONENT_LABELS, "coriolis": "Coriolis"}
_LEGEND_TEXT = {"total": "solid, joint colour", "gravity": "orange, dashed",
                "inertial": "white, dotted", "coriolis": "yellow, dash-dot",
                "friction": "grey, dash-dot-dot"}
_DASH_TEXT = {"total": "solid", "gravity": "dashed", "inertial": "dotted",
              "coriolis": "dash-dotted", "friction": "dash-dot-dotted"}
NO_TRAJECTORY = ("No trajectory.\nGenerate one or load a CSV on the timeline to see the "
                 "joint torques along it.")


def _no_dynamics_message(robot) -> str:
    return (f"{robot.name} has no dynamic parameters (masses, inertias), so joint torques "
            "cannot be computed. Load a robot file with dynamics to see them.")


class TorquePanel(PlotPanel):
    """Joint torques (N m; N for prismatic joints) against time along the trajectory."""

    TITLE = "Joint torques"
    CSV_NAME = "torques"

    def __init__(self, session, runner, parent=None):
        super().__init__(session, runner, parent)
        self.components: set[str] = {"total"}
        self.joint: int | None = None  # None: all joints
        self.boxes: dict[str, QtWidgets.QCheckBox] = {}
        self.toolbar.addWidget(QtWidgets.QLabel("Show"))
        self.joint_combo = QtWidgets.QComboBox()
        self.joint_combo.setToolTip("Joints to plot")
        self.joint_combo.currentIndexChanged.connect(self._on_joint_combo)
        self.toolbar.addWidget(self.joint_combo)
        self.finish_toolbar()
        # the parts get a row of their own, wrapped onto two rows in a narrow dock
        self.parts_grid = QtWidgets.QGridLayout()
        self.parts_grid.setHorizontalSpacing(10)
        self.parts_grid.setVerticalSpacing(0)
        self.parts_grid.addWidget(QtWidgets.QLabel("Parts"), 0, 0)
        for name in COMPONENTS:
            box = QtWidgets.QCheckBox(_SHORT[name])
            where = ("in the joint's colour" if name == "total"
                     else f"in {_COLOR_TEXT[name]}")
            box.setToolTip(f"{COMPONENT_LABELS[name]} torque, drawn {_DASH_TEXT[name]} {where}")
            box.setChecked(name in self.components)
            box.toggled.connect(lambda on, n=name: self._toggle_component(n, on))
            self.boxes[name] = box
        self._parts_columns = 0
        self._reflow_parts()
        self.layout().insertLayout(1, self.parts_grid)

        self.plot = self.add_plot(0, "joint torque (N m)")
        self.legend = self.add_legend(columns=8)
        self.limit_curves: list[pg.PlotDataItem] = []
        self.peak_markers = pg.ScatterPlotItem(
            symbol="o", size=13, pen=pen(style.AT_LIMIT_COLOR, 2.0), brush=pg.mkBrush(None),
            hoverable=True, tip=self._peak_tip)
        self.peak_markers.setZValue(500)
        self.plot.addItem(self.peak_markers)
        self._peaks: list = []
        self._loaded: set[tuple[str, int]] = set()  # curves holding the analysis' data
        self._made: set[tuple[str, int]] = set()  # curves that exist (made when first shown)
        self._legend_key = None
        self._robot = None
        self._subs.connect(session.events.robot, self._on_robot)
        self._on_robot(session.robot)
        if runner.analysis is not None:
            self._on_finished(runner.analysis)

    def _reflow_parts(self) -> None:
        boxes = list(self.boxes.values())
        need = sum(b.sizeHint().width() + 10 for b in boxes) + 50
        cols = len(boxes) if self.width() >= need or not self.isVisible() else 3
        if cols == self._parts_columns:
            return
        self._parts_columns = cols
        for k, box in enumerate(boxes):
            self.parts_grid.removeWidget(box)
            self.parts_grid.addWidget(box, k // cols, 1 + k % cols)
        self.parts_grid.setColumnStretch(len(boxes) + 1, 1)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._reflow_parts()

    # -- robot ---------------------------------------------------------------------------------
    def _unit(self, j: int) -> str:
        return "N m" if self._robot.links[j].isrevolute else "N"

    def curve_name(self, component: str, j: int) -> str:
        """CSV column / curve name of ``component`` of joint ``j`` (0-based)."""
        return f"J{j + 1} {COMPONENT_LABELS[component]} ({self._unit(j)})"

    def torque_curve(self, component: str, j: int) -> pg.PlotDataItem:
        """The curve of ``component`` ("total", "gravity", ...) of joint ``j`` (0-based)."""
        if component not in COMPONENTS:
            raise ValueError(f"component must be one of {', '.join(COMPONENTS)}, got {component!r}")
        if not 0 <= j < self._robot.n:
            raise ValueError(f"j must be a joint index 0..{self._robot.n - 1}, got {j}")
        if (component, j) not in self._made:  # asked for before it was shown: made hidden
            self._make_curve(component, j).setVisible(False)
        return self.curve(self.curve_name(component, j))

    def _make_curve(self, comp: str, j: int) -> pg.PlotDataItem:
        curve = self.add_curve(self.plot, self.curve_name(comp, j), part_color(comp, j),
                               _WIDTH.get(comp, 1.4), _DASH[comp])
        curve.setZValue(10 if comp == "total" else 5)
        self._made.add((comp, j))
        return curve

    def _on_robot(self, robot) -> None:
        self._robot = robot
        self._loaded = set()
        self._legend_key = None
        self.remove_curves()
        for c in self.limit_curves:
            self.plot.removeItem(c)
        self.limit_curves = []
        # curves are made when first shown (see _refresh): a 200-joint robot would need
        # 1,000 of them up front, seconds of pyqtgraph set-up while the app opens it
        self._made = set()
        units = {self._unit(j) for j in range(robot.n)}
        self.set_axis_label(self.plot, "joint torque (" + " | ".join(
            u for u in ("N m", "N") if u in units) + ")")
        with signals_blocked(self.joint_combo):
            self.joint_combo.clear()
            self.joint_combo.addItem("all joints")
            for j in range(robot.n):
                self.joint_combo.addItem(f"J{j + 1}")
        self.joint = None
        self.show_analysis(None)

    # -- options ---------------------------------------------------------------------------------
    def set_components(self, names) -> None:
        """Show these torque parts (subset of :data:`COMPONENTS`)."""
        names = set(names)
        bad = names - set(COMPONENTS)
        if bad:
            raise ValueError(f"unknown torque components {sorted(bad)}; known: {COMPONENTS}")
        self.components = names
        for name, box in self.boxes.items():
            with signals_blocked(box):
                box.setChecked(name in names)
        self._refresh()

    def set_joint(self, j: int | None) -> None:
        """Plot joint ``j`` (0-based) only, or all joints (None)."""
        if j is not None and not 0 <= j < self._robot.n:
            raise ValueError(f"j must be None or a joint index 0..{self._robot.n - 1}, got {j}")
        self.joint = j
        with signals_blocked(self.joint_combo):
            self.joint_combo.setCurrentIndex(0 if j is None else j + 1)
        self._refresh()

    def _on_joint_combo(self, index: int) -> None:
        self.set_joint(None if index <= 0 else index - 1)

    def _toggle_component(self, name: str, on: bool) -> None:
        self.set_components(self.components | {name} if on else self.components - {name})

    # -- data ------------------------------------------------------------------------------------
    def show_analysis(self, analysis) -> None:
        a = analysis
        if a is not None and a.robot_key != self._robot.key:
            a = None  # an old result for a robot no longer shown
        self.analysis = a
        for comp, j in self._loaded:
            self.set_curve_data(self.torque_curve(comp, j))
        self._loaded = set()
        for c in self.limit_curves:
            self.plot.removeItem(c)
        self.limit_curves = []
        self._peaks = []
        if not self._robot.has_dynamics:
            msg = a.dynamics_message if a is not None and a.dynamics_message else None
            self.set_notice(msg or _no_dynamics_message(self._robot))
            self.set_seekable(False)
            self._refresh()
            return
        if a is None or a.tau is None:
            self.set_notice(NO_TRAJECTORY, empty=True)
            self.set_seekable(False)
            self._refresh()
            return
        self.set_notice(None)
        t = a.t
        for j in range(self._robot.n):
            lim = float(a.tau_max[j])
            if np.isnan(lim):
                continue
            # +-limit as short curves (inside the autorange, unlike InfiniteLine, so a
            # limit is always on screen)
            for sign in (1.0, -1.0):
                c = pg.PlotDataItem([t[0], t[-1]], [sign * lim, sign * lim],
                                    pen=pen(style.joint_color(j), 1.2,
                                            QtCore.Qt.PenStyle.DashLine, alpha=0.8))
                c.setProperty("joint", j)
                self.plot.addItem(c)
                self.limit_curves.append(c)
        self._peaks = list(a.torque_peaks)
        self._refresh()
        self.set_seekable(True)

    def _parts(self) -> dict[str, np.ndarray] | None:
        a = self.analysis
        if a is None or a.tau is None:
            return None
        return {"total": a.tau, **a.components}

    def _refresh(self) -> None:
        """Apply the joint and component choices to curves, limits, peaks and legend.

        Curves are made and get their data when first shown: hidden parts cost nothing.
        """
        if self._robot is None:
            return
        joints = list(range(self._robot.n)) if self.joint is None else [self.joint]
        parts = self._parts()
        self._fit(joints)  # the final view first: the curves then downsample once
        shown = set() if parts is None else {(c, j) for j in joints for c in self.components}
        missing = sorted(shown - self._made, key=lambda k: (k[1], COMPONENTS.index(k[0])))
        if missing:
            with self.curves_batch(self.plot):
                for comp, j in missing:
                    self._make_curve(comp, j)
        for comp, j in self._made:
            curve = self.curve(self.curve_name(comp, j))
            show = (comp, j) in shown
            if show and (comp, j) not in self._loaded:
                xe, ye = analysis_envelopes(self.analysis)[_FIELD[comp]]
                self.set_curve_data(curve, self.analysis.t, parts[comp][:, j],
                                    envelope=(xe[:, j], ye[:, j]))
                self._loaded.add((comp, j))
            curve.setVisible(show)
        for c in self.limit_curves:
            c.setVisible(c.property("joint") in joints)
        shown = [p for p in self._peaks if p.joint in joints] if "total" in self.components else []
        self.peak_markers.setData(
            x=[p.time for p in shown], y=[p.value for p in shown], data=shown)
        self._fill_legend(joints)

    def _fit(self, joints) -> None:
        a, parts = self.analysis, self._parts()
        if parts is None:
            return
        env = analysis_envelopes(a)  # the extremes of the full data, far fewer samples
        ys = [env[_FIELD[c]][1][:, joints] for c in COMPONENTS if c in self.components]
        ys += [np.array([a.tau_max[j], -a.tau_max[j]]) for j in joints
               if not np.isnan(a.tau_max[j])]
        self.fit(self.plot, a.t, ys)

    def _fill_legend(self, joints) -> None:
        limits = any(c.isVisible() for c in self.limit_curves)
        peaks = bool(len(self.peak_markers.data))
        key = (self.analysis is not None, tuple(joints), tuple(sorted(self.components)),
               limits, peaks)
        if key == self._legend_key:
            return  # rebuilding a legend costs more than drawing the curves
        self._legend_key = key
        self.legend.clear()
        if self.analysis is None or not self.components:
            return
        with self.legend_batch():
            self._add_legend_entries(joints, limits, peaks)

    def _add_legend_entries(self, joints, limits: bool, peaks: bool) -> None:
        for j in joints:
            self.legend.addItem(_sample(style.joint_color(j)), f"J{j + 1}")
        if self.components != {"total"}:
            for comp in COMPONENTS:
                if comp in self.components:
                    color = "#c9ced6" if comp == "total" else PART_COLORS[comp]
                    self.legend.addItem(_sample(color, _DASH[comp], _WIDTH.get(comp, 1.4)),
                                        f"{_SHORT[comp]} ({_LEGEND_TEXT[comp]})")
        if limits:
            self.legend.addItem(_sample("#c9ced6", QtCore.Qt.PenStyle.DashLine, 1.2), "limit")
        if peaks:
            self.legend.addItem(pg.ScatterPlotItem(symbol="o", size=10, brush=pg.mkBrush(None),
                                                   pen=pen(style.AT_LIMIT_COLOR, 2.0)),
                                "over limit")

    @staticmethod
    def _peak_tip(x, y, data) -> str:
        p = data
        return (f"J{p.joint + 1} {p.value:.4g} over its limit {p.limit:.4g} at t = {p.time:.3f} s"
                f"\nover the limit from {p.t_start:.3f} s to {p.t_end:.3f} s")

    @property
    def peak_points(self) -> tuple[np.ndarray, np.ndarray]:
        """(times, values) of the marked peaks over the torque limits."""
        d = self.peak_markers.data
        return np.asarray(d["x"], dtype=float), np.asarray(d["y"], dtype=float)

    def csv_header(self) -> list[str]:
        lines = super().csv_header()
        if self.analysis is not None:
            lim = ", ".join("none" if np.isnan(v) else f"{v:g}" for v in self.analysis.tau_max)
            lines.append(f"torque limits: {lim}")
        return lines


def part_color(component: str, j: int) -> str:
    """``#rrggbb`` of the curve of ``component`` of joint ``j`` (0-based): the total in the
    joint's colour, each part in its own."""
    return style.joint_color(j) if component == "total" else PART_COLORS[component]


def _sample(color: str, dash=QtCore.Qt.PenStyle.SolidLine, width: float = 2.0) -> pg.PlotDataItem:
    """A curve that exists only as a legend sample."""
    return pg.PlotDataItem(pen=pen(color, width, dash))
