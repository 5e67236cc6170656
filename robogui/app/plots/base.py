"""What every plot panel shares: themed pyqtgraph plots, the playhead cursor, seeking,
legends, progress of the analysis, and PNG / CSV export.

A panel shows a :class:`~robogui.session.motion.analysis.TrajectoryAnalysis` delivered by an
:class:`~robogui.app.plots.worker.AnalysisRunner`; it never computes kinematics or
dynamics itself. The cursor (a vertical ``InfiniteLine`` in every plot) follows the
session's ``time`` event; a left click or a left drag in a plot moves the playhead with
``session.set_time`` (a drag is "changing", its release completes the change), so the
robot in the 3D view follows. Right drag / wheel zoom, middle drag pans, as pyqtgraph.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.motion.envelope import ENVELOPE_COLUMNS, minmax_envelope, visible_envelope

from ..bindings import Subscriptions
from .plot_export import PlotExportMixin
from .plot_items import (
    AXIS_COLOR,
    CURSOR_COLOR,
    NOTICE_STYLE,
    PLOT_BACKGROUND,
    TEXT_COLOR,
    SeekViewBox,
    _Caption,
)

__all__ = ["PlotPanel", "SeekViewBox", "PLOT_BACKGROUND", "CURSOR_COLOR", "pen",
           "joint_units", "unit_label", "signals_blocked"]


@contextmanager
def signals_blocked(widget: QtCore.QObject) -> Iterator[None]:
    """Block ``widget``'s signals inside the block (programmatic updates do not echo).

    Not ``QtCore.QSignalBlocker``: in PySide6 6.12 each QSignalBlocker drops a reference
    to ``None``, which aborts the interpreter at exit after a few thousand uses.
    """
    old = widget.blockSignals(True)
    try:
        yield
    finally:
        widget.blockSignals(old)


def pen(color: str, width: float = 1.5, dash: QtCore.Qt.PenStyle = QtCore.Qt.PenStyle.SolidLine,
        alpha: float = 1.0) -> QtGui.QPen:
    """A cosmetic pen of ``width`` pixels (independent of the plot's zoom)."""
    c = QtGui.QColor(color)
    c.setAlphaF(alpha)
    p = pg.mkPen(c, width=width, style=dash)
    p.setCosmetic(True)
    return p


def joint_units(robot, display, order: int = 0) -> tuple[np.ndarray, list[str]]:
    """Scale factors (n,) from SI and unit names per joint for a derivative of ``order``.

    Revolute joints use ``display.angle_unit`` (deg or rad), prismatic ones
    ``display.length_unit`` (mm or m); order 1 and 2 append "/s" and "/s²".
    """
    suffix = ("", "/s", "/s²")[order]
    deg = display.angle_unit == "deg"
    mm = display.length_unit == "mm"
    scale, names = [], []
    for link in robot.links:
        if link.isrevolute:
            scale.append(np.degrees(1.0) if deg else 1.0)
            names.append(("deg" if deg else "rad") + suffix)
        else:
            scale.append(1000.0 if mm else 1.0)
            names.append(("mm" if mm else "m") + suffix)
    return np.array(scale), names


def unit_label(names: list[str]) -> str:
    """One axis unit for joint units that may differ: "deg" or "deg | mm"."""
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return " | ".join(seen)


class PlotPanel(PlotExportMixin, QtWidgets.QWidget):
    """Base of the plot panels (see the module docstring).

    Subclasses build their plots with :meth:`add_plot` and :meth:`add_curve` and show
    an analysis in :meth:`show_analysis`. Curves are registered by name: the names are
    the CSV column headers, with units.
    """

    TITLE = "Plot"
    CSV_NAME = "plot"

    def __init__(self, session, runner, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self.session = session
        self.runner = runner
        self.analysis = None
        self.plots: list[pg.PlotItem] = []
        self.cursors: list[pg.InfiniteLine] = []
        self._curves: dict[str, pg.PlotDataItem] = {}
        # curve -> (x, y, scale, envelope): the full data behind a curve that shows its
        # min/max envelope (exports and zoomed views read it); y * scale is what is plotted
        self._full: dict[pg.PlotDataItem, tuple] = {}
        self._zoomed: set[pg.PlotDataItem] = set()  # curves showing a zoomed-in envelope
        self._zoom_timer = QtCore.QTimer(self)
        self._zoom_timer.setSingleShot(True)
        self._zoom_timer.setInterval(80)  # after the wheel / drag settles
        self._zoom_timer.timeout.connect(self._redecimate)
        self._ylabels: dict[int, list] = {}  # id(plot) -> [plot, y label, caption]
        self._seekable = False
        self._empty_notice: str | None = None  # the "no trajectory" text shown, if any
        self._analysis_state: str | None = "computing" if runner.busy else None
        self.error_presenter: Callable[[str, str], None] = (
            lambda title, text: QtWidgets.QMessageBox.warning(self, title, text))

        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(4, 2, 4, 2)
        outer.setSpacing(2)
        self.toolbar = QtWidgets.QHBoxLayout()
        self.toolbar.setSpacing(6)
        outer.addLayout(self.toolbar)
        self._tools_end = QtWidgets.QHBoxLayout()  # progress and export, right-aligned
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setMaximumWidth(140)
        self.progress.setFormat("computing %p%")
        self.progress.hide()
        self.cancel_button = QtWidgets.QToolButton(text="Cancel")
        self.cancel_button.setToolTip("Stop computing the trajectory analysis")
        self.cancel_button.clicked.connect(runner.cancel)
        self.cancel_button.hide()
        self.status_label = QtWidgets.QLabel()
        self.status_label.setStyleSheet("color: #aeb6c2;")
        self.png_button = QtWidgets.QToolButton(text="PNG\u2026")
        self.png_button.setToolTip("Export this panel as a PNG image")
        self.png_button.clicked.connect(self._export_png_dialog)
        self.csv_button = QtWidgets.QToolButton(text="CSV\u2026")
        self.csv_button.setToolTip("Export the plotted curves as CSV")
        self.csv_button.clicked.connect(self._export_csv_dialog)
        for w in (self.status_label, self.progress, self.cancel_button, self.png_button,
                  self.csv_button):
            self._tools_end.addWidget(w)

        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground(PLOT_BACKGROUND)
        self.graphics.ci.setContentsMargins(4, 4, 8, 4)
        self.graphics.ci.setSpacing(2)
        self.notice = QtWidgets.QLabel()
        self.notice.setObjectName("plotNotice")
        self.notice.setStyleSheet(NOTICE_STYLE)
        self.notice.setWordWrap(True)
        self.notice.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.stack = QtWidgets.QStackedWidget()
        self.stack.addWidget(self.graphics)
        self.stack.addWidget(self.notice)
        outer.addWidget(self.stack, 1)
        self.setMinimumSize(240, 180)  # small windows (1200x800) must still fit

        self._subs = Subscriptions(self)
        self._subs.connect(session.events.time, self._on_time)
        self._runner_slots = [
            (runner.started, self._on_started), (runner.progress, self._on_progress),
            (runner.finished, self._on_finished), (runner.cancelled, self._on_cancelled),
            (runner.failed, self._on_failed)]
        for signal, slot in self._runner_slots:
            signal.connect(slot)


    def sizeHint(self) -> QtCore.QSize:  # noqa: N802
        # modest: a dock's size hint decides how much room the window gives it at first,
        # and the 3D view should keep most of it
        return QtCore.QSize(420, 260)

    def finish_toolbar(self) -> None:
        """Subclasses call this after adding their own toolbar widgets (left side)."""
        self.toolbar.addStretch(1)
        self.toolbar.addLayout(self._tools_end)

    # -- building --------------------------------------------------------------------------------
    def add_plot(self, row: int, ylabel: str, *, xlabel: str = "time (s)") -> pg.PlotItem:
        """A themed plot in ``row`` (0 = top) with a cursor; x is linked to the first plot."""
        vb = SeekViewBox(self._seek)
        plot = self.graphics.addPlot(row=row + 1, col=0, viewBox=vb)  # row 0: the legend
        plot.showGrid(x=True, y=True, alpha=0.18)
        plot.setClipToView(True)
        plot.setDownsampling(auto=True, mode="peak")  # long trajectories draw ~2 points/px
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.enableAutoSIPrefix(False)
            axis.setPen(pg.mkPen(AXIS_COLOR))
            axis.setTextPen(pg.mkPen(TEXT_COLOR))
        plot.getAxis("left").setWidth(64)  # stacked plots line up
        plot.setLabel("bottom", xlabel, color=TEXT_COLOR)
        # the y label goes along the axis when the plot is tall enough, else into a
        # caption in the plot's corner (stacked plots in a low dock)
        caption = _Caption(plot.vb)
        self._ylabels[id(plot)] = [plot, "", caption]
        plot.getAxis("left").geometryChanged.connect(lambda p=plot: self._place_axis_label(p))
        self.set_axis_label(plot, ylabel)
        cursor = pg.InfiniteLine(angle=90, movable=False, pen=pen(CURSOR_COLOR, 1.5, alpha=0.9))
        cursor.setZValue(1000)
        cursor.hide()
        plot.addItem(cursor, ignoreBounds=True)
        if self.plots:
            plot.setXLink(self.plots[0])
        plot.vb.sigXRangeChanged.connect(lambda *_: self._zoom_timer.start())
        self.plots.append(plot)
        self.cursors.append(cursor)
        return plot

    def set_axis_label(self, plot: pg.PlotItem, text: str) -> None:
        """The y-axis label of ``plot``, with units: "joint torque (N m)".

        It is written along the left axis when the axis is long enough for it; in a plot
        too low for that (three stacked plots in a low dock) the rotated label would run
        into its neighbours' labels, so it is shown as a horizontal caption in the plot's
        top-left corner instead. ``axis.labelText`` holds the text either way.
        """
        entry = self._ylabels[id(plot)]
        entry[1] = text
        plot.setLabel("left", text, color=TEXT_COLOR)
        entry[2].set_text(text)
        self._place_axis_label(plot)

    def axis_label_placement(self, plot: pg.PlotItem) -> str | None:
        """Where the y label of ``plot`` is shown: "axis", "caption" or None (no label)."""
        _plot, text, caption = self._ylabels[id(plot)]
        if not text:
            return None
        return "caption" if caption.isVisible() else "axis"

    def axis_caption(self, plot: pg.PlotItem) -> _Caption:
        """The corner caption that stands in for the y label of a low ``plot``."""
        return self._ylabels[id(plot)][2]

    def _place_axis_label(self, plot: pg.PlotItem) -> None:
        _plot, text, caption = self._ylabels[id(plot)]
        axis = plot.getAxis("left")
        label = axis.label
        if label is None:  # the axis is being destroyed
            return
        need = (QtGui.QFontMetricsF(label.font()).horizontalAdvance(text)
                + 2 * label.document().documentMargin() + 4)
        along = bool(text) and need <= axis.height()
        if label.isVisible() != along:
            axis.showLabel(along)
        caption.setVisible(bool(text) and not along)

    def add_legend(self, columns: int = 1) -> pg.LegendItem:
        """The panel's legend, in a row of its own above the plots (never over a curve)."""
        legend = pg.LegendItem(labelTextColor=TEXT_COLOR, verSpacing=-8, horSpacing=10,
                               labelTextSize="8pt")
        self.graphics.ci.addItem(legend, row=0, col=0)
        legend.setColumnCount(columns)
        self._legend, self._legend_columns = legend, columns
        return legend

    @staticmethod
    @contextmanager
    def curves_batch(*plots: pg.PlotItem) -> Iterator[None]:
        """Add many curves at once: pyqtgraph's ``PlotItem.addItem`` walks all the plot's
        curves after every new one (for its average and max-traces options), quadratic in
        the curves (seconds for a 200-joint robot); here once per plot at the end."""
        noop = lambda: None  # noqa: E731
        for plot in plots:  # instance attributes shadow the methods
            plot.updateParamList = plot.updateDecimation = noop
        try:
            yield
        finally:
            for plot in plots:
                del plot.updateParamList, plot.updateDecimation
                plot.updateDecimation()
                plot.updateParamList()

    @contextmanager
    def legend_batch(self) -> Iterator[pg.LegendItem]:
        """Add many legend entries at once: pyqtgraph lays the whole legend out again after
        every entry (quadratic: seconds for a 200-joint robot), here once at the end, by
        :meth:`fit_legend`."""
        legend = self._legend
        legend.updateSize = lambda: None  # an instance attribute shadows the method
        try:
            yield legend
        finally:
            del legend.updateSize
            self.fit_legend()

    def fit_legend(self) -> None:
        """As many legend columns as fit the panel's width (at most the preferred
        number), in balanced rows: a legend wider than the panel would widen the plots
        beyond the view."""
        legend = getattr(self, "_legend", None)
        if legend is None or not legend.items:
            return
        avail = self.graphics.viewport().width() - 24
        n = len(legend.items)
        fit = min(self._legend_columns, n)
        while True:
            cols = math.ceil(n / math.ceil(n / fit))  # balanced rows: 3 + 3, not 5 + 1
            if cols != legend.columnCount:
                legend.setColumnCount(cols)
            hint = legend.layout.effectiveSizeHint(QtCore.Qt.SizeHint.MinimumSize).width()
            if hint <= avail or fit == 1:
                break
            fit -= 1
        legend.updateSize()
        # the layout may still be as wide as the old legend made it: back to the view
        gv = self.graphics
        if gv.centralWidget is not None:
            gv.centralWidget.setGeometry(gv.range)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.fit_legend()

    def add_curve(self, plot: pg.PlotItem, name: str, color: str, width: float = 1.5,
                  dash: QtCore.Qt.PenStyle = QtCore.Qt.PenStyle.SolidLine) -> pg.PlotDataItem:
        """A curve named ``name`` (CSV column, with units) drawn in ``color``."""
        if name in self._curves:
            raise ValueError(f"a curve called {name!r} exists already")
        curve = pg.PlotDataItem(pen=pen(color, width, dash))
        curve.setClipToView(True)
        curve.setDownsampling(auto=True, method="peak")
        # min/max per pixel: looks the same as all samples, draws 10k-sample curves fast
        curve.opts["autoDownsampleFactor"] = 1.0
        plot.addItem(curve)
        self._curves[name] = curve
        return curve

    @staticmethod
    def fit(plot: pg.PlotItem, x: np.ndarray, ys, *, ylim: tuple[float, float] | None = None,
            pad: float = 0.05) -> None:
        """Set the view to the data (x range of ``x``, y range of the arrays ``ys``).

        Done at once instead of pyqtgraph's autorange, which runs inside the next paint
        and then schedules more paints as ranges, downsampling and axes settle.
        """
        x0, x1 = (float(x[0]), float(x[-1])) if len(x) else (0.0, 1.0)
        if x1 <= x0:
            x1 = x0 + 1.0
        dx = 0.01 * (x1 - x0)  # a little room: the first and last tick labels show
        x0, x1 = x0 - dx, x1 + dx
        if ylim is None:
            lo, hi = np.inf, -np.inf
            for y in ys:
                if y is not None and np.size(y) and not np.all(np.isnan(y)):
                    lo, hi = min(lo, float(np.nanmin(y))), max(hi, float(np.nanmax(y)))
            if not np.isfinite(lo):
                lo, hi = -1.0, 1.0
            span = hi - lo
            if span <= 1e-12 * max(1.0, abs(hi)):
                span = max(abs(hi), 1.0)
                lo, hi = lo - 0.5 * span, hi + 0.5 * span
            lo, hi = lo - pad * (hi - lo), hi + pad * (hi - lo)
        else:
            lo, hi = ylim
        plot.vb.setRange(xRange=(x0, x1), yRange=(lo, hi), padding=0.0)

    def remove_curves(self) -> None:
        for curve in self._curves.values():
            vb = curve.getViewBox()
            if vb is not None:
                curve.getViewBox().removeItem(curve)
        self._curves.clear()
        self._full.clear()
        self._zoomed.clear()

    def set_curve_data(self, curve: pg.PlotDataItem, x=None, y=None, *, envelope=None,
                       scale: float = 1.0) -> None:
        """Show ``y * scale`` over ``x`` (both (k,); None: no data) in ``curve``.

        pyqtgraph gets at most 2 points per pixel column, the min/max envelope
        (``envelope``: its ``(xe, ye)`` computed already, e.g. off the GUI thread by
        :func:`~robogui.session.motion.envelope.analysis_envelopes`; else computed here), so a
        1,000,000-sample curve costs the GUI thread what a 4,000-sample one does. The
        full data stays for exports and for re-drawing a zoomed-in view at full detail.
        """
        self._zoomed.discard(curve)
        if x is None or len(x) == 0:
            self._full.pop(curve, None)
            curve.setData([], [])
            return
        if envelope is None:
            envelope = minmax_envelope(x, y, ENVELOPE_COLUMNS)
        self._full[curve] = (x, y, float(scale), envelope)
        xe, ye = envelope
        curve.setData(xe, ye * scale if scale != 1.0 else ye)
        if len(xe) < len(x):
            self._zoom_timer.start()  # the view may be zoomed in already

    def _redecimate(self) -> None:
        """Re-draw the curves of a zoomed-in view from the samples in view (at full
        detail); a view of more than a quarter of the data keeps the whole envelope
        (already finer than the screen there). Costs the samples in view, not all."""
        for curve, (x, y, scale, (xe, ye)) in list(self._full.items()):
            if len(xe) >= len(x) or not curve.isVisible():
                continue
            vb = curve.getViewBox()
            if vb is None:
                continue
            x0, x1 = vb.viewRange()[0]
            zoomed = (x1 - x0) < 0.25 * (x[-1] - x[0])
            if zoomed:
                xv, yv = visible_envelope(x, y, x0, x1, ENVELOPE_COLUMNS)
                curve.setData(xv, yv * scale)
                self._zoomed.add(curve)
            elif curve in self._zoomed:
                curve.setData(xe, ye * scale)
                self._zoomed.discard(curve)

    def full_data(self, curve: pg.PlotDataItem) -> tuple[np.ndarray, np.ndarray] | None:
        """(x, y) of all the samples behind ``curve`` in plotted units (None: none)."""
        if curve in self._full:
            x, y, scale, _env = self._full[curve]
            return np.asarray(x, dtype=float), np.asarray(y, dtype=float) * scale
        x, y = curve.getOriginalDataset()
        if x is None or len(x) == 0:
            return None
        return np.asarray(x, dtype=float), np.asarray(y, dtype=float)

    def set_bottom_label_only_on_last(self) -> None:
        """Stacked plots share the time axis: only the last one labels it."""
        for plot in self.plots[:-1]:
            plot.getAxis("bottom").setLabel("")
            plot.getAxis("bottom").setStyle(showValues=False)
            plot.getAxis("bottom").setHeight(6)

    # -- notice ----------------------------------------------------------------------------------
    def set_notice(self, text: str | None, *, empty: bool = False) -> None:
        """Show ``text`` instead of the plots (None: show the plots).

        ``empty``: ``text`` says that there is no trajectory analysis to show ("No
        trajectory..."). While the analysis of a trajectory is being computed, or after
        it was cancelled, the panel says that instead: there is a trajectory.
        """
        self._empty_notice = text if (text and empty) else None
        if self._empty_notice and self.session.trajectory is not None:
            n = len(self.session.trajectory.t)
            if self._analysis_state == "computing":
                text = (f"Computing the {self.TITLE.lower()} along the trajectory "
                        f"({n:,} samples)\u2026")
            elif self._analysis_state == "cancelled":
                text = (f"The analysis of the trajectory ({n:,} samples) was cancelled.\n"
                        "Load or generate the trajectory again to compute it.")
        if text:
            self.notice.setText(text)
            self.stack.setCurrentWidget(self.notice)
        else:
            self.notice.setText("")
            self.stack.setCurrentWidget(self.graphics)

    @property
    def notice_text(self) -> str | None:
        """The notice shown instead of the plots, or None when the plots are shown."""
        return self.notice.text() if self.stack.currentWidget() is self.notice else None

    # -- curves and data -------------------------------------------------------------------------
    def curve(self, name: str) -> pg.PlotDataItem:
        try:
            return self._curves[name]
        except KeyError:
            raise KeyError(f"no curve {name!r}; curves: {', '.join(self._curves)}") from None

    @property
    def curve_names(self) -> list[str]:
        return list(self._curves)

    def plotted_data(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Name -> (x, y) of every shown curve that has data (the full data, before the
        screen-resolution envelope)."""
        out = {}
        for name, curve in self._curves.items():
            if not curve.isVisible():
                continue
            data = self.full_data(curve)
            if data is not None:
                out[name] = data
        return out

    # -- playhead --------------------------------------------------------------------------------
    def set_seekable(self, on: bool) -> None:
        """Show the cursor and let clicks seek (a trajectory is shown) or not."""
        self._seekable = bool(on)
        for plot, cursor in zip(self.plots, self.cursors, strict=True):
            plot.vb.seek_enabled = self._seekable
            cursor.setVisible(self._seekable)
        if self._seekable:
            self._on_time(self.session.time)

    def _seek(self, t: float, changing: bool) -> None:
        if not self._seekable or self.session.trajectory is None:
            return
        self.session.set_time(t, changing=changing)

    def _on_time(self, t: float) -> None:
        if self._seekable:
            for cursor in self.cursors:
                cursor.setValue(float(t))

    # -- analysis --------------------------------------------------------------------------------
    def _set_analysis_state(self, state: str | None) -> None:
        """None, "computing" or "cancelled"; an empty-state notice on show follows it."""
        self._analysis_state = state
        if self._empty_notice:
            self.set_notice(self._empty_notice, empty=True)

    def _on_started(self) -> None:
        self._set_analysis_state("computing")
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        self.status_label.setText("")

    def _on_progress(self, fraction: float) -> None:
        self.progress.setValue(int(round(100 * fraction)))

    def _idle(self) -> None:
        self._set_analysis_state(None)
        self.progress.hide()
        self.cancel_button.hide()

    def _on_finished(self, analysis) -> None:
        self._idle()
        self.analysis = analysis
        self.show_analysis(analysis)
        self.settle()

    def settle(self) -> None:
        """Apply pending view-range and transform changes now, so the next paint is final
        (otherwise they happen inside the paint and each asks for yet another paint)."""
        for plot in self.plots:
            plot.vb.prepareForPaint()

    def _on_cancelled(self) -> None:
        self._idle()
        self._set_analysis_state("cancelled")
        self.status_label.setText("analysis cancelled")

    def _on_failed(self, message: str) -> None:
        self._idle()
        self.status_label.setText("analysis failed")
        self.status_label.setToolTip(message)
        self.analysis = None
        self.show_analysis(None)
        self.show_failure(message)

    def show_failure(self, message: str) -> None:
        """Say that the trajectory analysis failed (instead of "no trajectory")."""
        self.set_notice(f"The analysis of this trajectory failed:\n{message}")

    def show_analysis(self, analysis) -> None:
        """Show ``analysis`` (a TrajectoryAnalysis) or the empty state for None."""
        raise NotImplementedError

    # -- closing ---------------------------------------------------------------------------------
    def close_panel(self) -> None:
        """Disconnect from the session and the runner (idempotent)."""
        self._subs.clear()
        for signal, slot in self._runner_slots:
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):
                pass  # already disconnected
        self._runner_slots = []

    def closeEvent(self, event) -> None:  # noqa: N802
        self.close_panel()
        super().closeEvent(event)
