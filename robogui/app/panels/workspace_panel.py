"""The workspace panel: sample the reachable tool positions and show them as a cloud.

Sampling (:func:`robogui.session.explain.workspace.sample_workspace`, batched engine fkine and
Jacobians) runs in a private ``QThreadPool`` thread, chunk by chunk, with a progress bar
and Cancel; the result comes back through a queued signal. The cloud is one
``GLScatterPlotItem`` coloured by manipulability (dark blue low, yellow high); the
section plane keeps only the points within a slab ``|x_axis - offset| <= thickness/2``
and draws the plane. Export: the 3D view as PNG, the points as CSV.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.explain.workspace import (
    DEFAULT_SAMPLES,
    Workspace,
    sample_workspace,
    section_mask,
    write_csv,
)

__all__ = ["WorkspacePanel", "manipulability_colors"]


def manipulability_colors(w: np.ndarray) -> np.ndarray:
    """RGBA (m, 4) float32: w scaled by its 99th percentile, dark blue -> teal -> yellow."""
    w = np.asarray(w, float)
    top = float(np.percentile(w, 99)) if w.size else 1.0
    t = np.clip(w / top, 0.0, 1.0) if top > 0 else np.zeros_like(w)
    stops = np.array([[0.15, 0.1, 0.45], [0.1, 0.6, 0.6], [1.0, 0.9, 0.2]])
    k = np.minimum((t * 2).astype(int), 1)
    f = (t * 2 - k)[:, None]
    rgb = stops[k] * (1 - f) + stops[k + 1] * f
    return np.column_stack([rgb, np.full(len(w), 0.9)]).astype(np.float32)


class _Signals(QtCore.QObject):
    progress = QtCore.Signal(int, float)
    done = QtCore.Signal(int, object)


class _Job(QtCore.QRunnable):
    def __init__(self, gen, robot, m, seed, signals, stop):
        super().__init__()
        self.setAutoDelete(True)
        self.gen, self.robot, self.m, self.seed = gen, robot, m, seed
        self.signals, self.stop = signals, stop

    def run(self) -> None:
        try:
            ws = sample_workspace(self.robot, self.m, seed=self.seed, cancel=self.stop.is_set,
                                  progress=lambda f: self.signals.progress.emit(self.gen, f))
        except Exception as exc:  # noqa: BLE001 - reported in the panel, never lost
            ws = f"{type(exc).__name__}: {exc}"
        self.signals.done.emit(self.gen, ws)


class WorkspacePanel(QtWidgets.QWidget):
    """Sample, show, section and export the workspace of the session's robot in ``view``."""

    finished = QtCore.Signal(object)  # Workspace, or None when cancelled

    def __init__(self, session, view, parent=None):
        super().__init__(parent)
        self.session, self.view = session, view
        self.workspace: Workspace | None = None
        self._panel_open = True  # the window says when its dock is closed
        self._gen = 0
        self._stop = threading.Event()
        self._pool = QtCore.QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._signals = _Signals(self)
        self._signals.progress.connect(self._on_progress)
        self._signals.done.connect(self._on_done)
        self.cloud = gl.GLScatterPlotItem(pos=np.zeros((1, 3)), size=2.0, pxMode=True)
        self.cloud.setGLOptions("translucent")
        self.cloud.setVisible(False)
        self.plane = gl.GLMeshItem(meshdata=gl.MeshData(
            vertexes=np.array([[-.5, -.5, 0], [.5, -.5, 0], [.5, .5, 0], [-.5, .5, 0]], float),
            faces=np.array([[0, 1, 2], [0, 2, 3]])), color=(0.9, 0.9, 1.0, 0.18),
            glOptions="translucent", smooth=False)
        self.plane.setVisible(False)
        view.robotRebuilt.connect(self._readd)
        self._readd()
        view.add_fit_points(self._fit_points)  # "Fit to robot" keeps the cloud in view

        self.count = QtWidgets.QSpinBox()
        self.count.setRange(1000, 2_000_000)
        self.count.setSingleStep(50_000)
        self.count.setValue(DEFAULT_SAMPLES)
        self.count.setSuffix(" states")
        self.sample_button = QtWidgets.QPushButton("Sample workspace")
        self.sample_button.clicked.connect(self.start)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.setEnabled(False)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setRange(0, 100)
        self.info = QtWidgets.QLabel("Not sampled yet")
        self.info.setWordWrap(True)
        self.show_box = QtWidgets.QCheckBox("Show cloud")
        self.show_box.setChecked(True)
        self.show_box.toggled.connect(lambda _on: self._update_cloud())
        self.section_box = QtWidgets.QCheckBox("Section plane")
        self.section_box.toggled.connect(lambda _on: self._update_cloud())
        self.axis = QtWidgets.QComboBox()
        self.axis.addItems(["x", "y", "z"])
        self.axis.setCurrentIndex(1)
        self.axis.currentIndexChanged.connect(lambda _i: self._update_cloud())
        self.offset = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.offset.setRange(0, 1000)
        self.offset.setValue(500)
        self.offset.valueChanged.connect(lambda _v: self._update_cloud())
        self.png_button = QtWidgets.QPushButton("Export PNG\u2026")
        self.png_button.clicked.connect(self.export_png_dialog)
        self.csv_button = QtWidgets.QPushButton("Export CSV\u2026")
        self.csv_button.clicked.connect(self.export_csv_dialog)

        grid = QtWidgets.QGridLayout(self)
        grid.setContentsMargins(6, 6, 6, 6)
        grid.addWidget(self.count, 0, 0)
        grid.addWidget(self.sample_button, 0, 1)
        grid.addWidget(self.cancel_button, 0, 2)
        grid.addWidget(self.progress, 1, 0, 1, 3)
        grid.addWidget(self.info, 2, 0, 1, 3)
        grid.addWidget(self.show_box, 3, 0)
        grid.addWidget(self.section_box, 3, 1)
        grid.addWidget(self.axis, 3, 2)
        grid.addWidget(self.offset, 4, 0, 1, 3)
        grid.addWidget(self.png_button, 5, 0)
        grid.addWidget(self.csv_button, 5, 1)
        grid.setRowStretch(6, 1)
        self._set_exports()

    # -- sampling ----------------------------------------------------------------------------
    def start(self, seed: int = 0) -> None:
        """Sample ``count`` states of the current robot in the worker thread."""
        self.cancel()
        self._gen += 1
        self._stop = threading.Event()
        self.progress.setValue(0)
        self.info.setText(f"Sampling {self.count.value():,} joint states\u2026")
        self.sample_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._pool.start(_Job(self._gen, self.session.robot, self.count.value(), int(seed),
                              self._signals, self._stop))

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, ms: int = 30000) -> bool:
        """Wait for the worker (tests, closing); True when it is idle."""
        return self._pool.waitForDone(ms)

    def _on_progress(self, gen: int, f: float) -> None:
        if gen == self._gen:
            self.progress.setValue(round(100 * f))

    def _on_done(self, gen: int, ws) -> None:
        if gen != self._gen:
            return  # an older, cancelled job
        self.sample_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if isinstance(ws, str):
            self.info.setText(f"Sampling failed: {ws}")
            ws = None
        elif ws is None:
            self.info.setText("Cancelled; the previous cloud is kept")
        else:
            self.workspace = ws
            lo, hi = ws.bounds
            self.info.setText(f"{len(ws):,} tool positions; colour: manipulability "
                              f"0..{ws.manipulability.max():.3g}")
            self.info.setToolTip(
                f"{ws.robot_name}: box x {lo[0]:.2f}..{hi[0]:.2f}, y {lo[1]:.2f}..{hi[1]:.2f}, "
                f"z {lo[2]:.2f}..{hi[2]:.2f} m; dark blue low, yellow high manipulability")
            self._colors = manipulability_colors(ws.manipulability)
            self._update_cloud()
            if self.view.auto_fit:
                self.view.fit_to_robot()
        self._set_exports()
        self.finished.emit(ws)

    # -- showing ---------------------------------------------------------------------------
    def _readd(self) -> None:
        for item in (self.cloud, self.plane):
            if item not in self.view.items:
                self.view.addItem(item)

    def _fit_points(self) -> np.ndarray:
        """The corners of the shown cloud's box (for fitting the camera)."""
        ws = self.workspace
        if ws is None or not self.cloud.visible() or ws.robot_name != self.session.robot.name:
            return np.zeros((0, 3))
        lo, hi = ws.bounds
        return np.array([lo, hi])

    def section(self) -> tuple[int, float, float]:
        """(axis, offset m, thickness m) of the section plane from the widgets."""
        ws = self.workspace
        axis = self.axis.currentIndex()
        lo, hi = ws.bounds if ws is not None else (np.zeros(3) - 1, np.zeros(3) + 1)
        offset = lo[axis] + (hi[axis] - lo[axis]) * self.offset.value() / 1000.0
        return axis, float(offset), float(max(hi - lo) * 0.04)

    def shown_points(self) -> np.ndarray:
        """The points drawn now (k, 3): all, or the section's slab."""
        ws = self.workspace
        if ws is None:
            return np.zeros((0, 3))
        if not self.section_box.isChecked():
            return ws.points
        return ws.points[section_mask(ws.points, *self.section())]

    def set_panel_open(self, on: bool) -> None:
        """The panel's dock was opened (closed): its cloud and plane show (go) with it."""
        if on != self._panel_open:
            self._panel_open = on
            self._update_cloud()

    def _update_cloud(self) -> None:
        ws = self.workspace
        if ws is None or not self.show_box.isChecked() or not self._panel_open:
            self.cloud.setVisible(False)
            self.plane.setVisible(False)
            self.view.update()
            return
        if self.section_box.isChecked():
            axis, offset, thick = self.section()
            mask = section_mask(ws.points, axis, offset, thick)
            self.cloud.setData(pos=ws.points[mask], color=self._colors[mask], size=4.0)
            lo, hi = ws.bounds
            M = np.eye(4)
            size = (hi - lo) * 1.1
            centre = (hi + lo) / 2
            # the unit square (in xy) turned so that its normal is the chosen axis
            R = {0: np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]]),
                 1: np.array([[1, 0, 0], [0, 0, 1], [0, 1, 0]]), 2: np.eye(3)}[axis]
            S = np.diag([size[(axis + 1) % 3], size[(axis + 2) % 3], 1.0]) if axis != 1 else \
                np.diag([size[0], size[2], 1.0])
            M[:3, :3] = R @ S
            M[:3, 3] = centre
            M[axis, 3] = offset
            self.plane.setTransform(QtGui.QMatrix4x4(*M.ravel().tolist()))
            self.plane.setVisible(True)
        else:
            self.cloud.setData(pos=ws.points, color=self._colors, size=2.0)
            self.plane.setVisible(False)
        self.cloud.setVisible(True)
        self.view.update()

    # -- export ------------------------------------------------------------------------------
    def _set_exports(self) -> None:
        for b in (self.png_button, self.csv_button):
            b.setEnabled(self.workspace is not None)

    def export_csv(self, path) -> Path:
        if self.workspace is None:
            raise ValueError("nothing to export: sample the workspace first")
        return write_csv(self.workspace, path)

    def export_png(self, path) -> Path:
        path = Path(path)
        if not self.view.grab_image().save(str(path)):
            raise OSError(f"could not write the image {path}")
        return path

    def _export_dialog(self, title, name, filt, fn) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, title, name, filt)
        if not path:
            return
        try:
            fn(path)
            self.info.setText(f"saved {path}")
        except (OSError, ValueError) as exc:
            QtWidgets.QMessageBox.warning(self, title, str(exc))

    def export_csv_dialog(self) -> None:
        self._export_dialog("Export workspace CSV", "workspace.csv", "CSV (*.csv)",
                            self.export_csv)

    def export_png_dialog(self) -> None:
        self._export_dialog("Export workspace image", "workspace.png", "PNG image (*.png)",
                            self.export_png)

    def close_worker(self) -> None:
        self.cancel()
        self.wait()
