"""Trajectory > Export video...: the current trajectory as MP4, WebM, GIF or PNG files.

:class:`VideoExportDialog` asks for the file, the frame size, frames per second, the
playback speed, the camera (the 3D view's current camera or a preset), the projection
and the overlays (time, joint values, torque bars). :class:`VideoExporter` renders the
frames off screen at the asked size (:class:`robogui.app.view.render.VideoJob`: a scene of
its own, never the view's window or size), one frame per event-loop turn so the GUI
stays responsive and the export can be cancelled, and feeds them to the encoder
(:mod:`robogui.io.video`). The user's view, playhead and pose are not touched.
A cancelled or failed video leaves no file behind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from robogui.io.video import open_video, video_kind
from robogui.session.session import DisplayOptions
from robogui.session.video import Overlays

from ..view.render import VideoJob
from ..view.view3d import CAMERA_PRESETS

__all__ = ["VideoOptions", "VideoExporter", "VideoExportDialog", "CURRENT_VIEW"]

CURRENT_VIEW = "current"
_FORMATS = (("MP4 video (H.264)", ".mp4"), ("WebM video (VP9)", ".webm"),
            ("GIF animation", ".gif"), ("PNG image sequence (folder)", "/"))


@dataclass
class VideoOptions:
    """What to export: ``path`` (.mp4, .webm, .gif, or a folder for PNG files), ``size``
    (width, height) px, ``fps``, ``speed`` (trajectory s per video s), ``view`` (a camera
    preset or ``"current"``), ``projection`` and ``overlays``."""

    path: str
    size: tuple[int, int] = (1280, 720)
    fps: float = 30.0
    speed: float = 1.0
    view: str = CURRENT_VIEW
    projection: str = "perspective"
    overlays: Overlays = field(default_factory=Overlays)


def view_camera(view) -> dict:
    """The 3D view's camera as :class:`~robogui.app.view.render.FrameRenderer` takes it."""
    o = view.opts
    c = o["center"]
    return {"azimuth": float(o["azimuth"]), "elevation": float(o["elevation"]),
            "distance": float(o["distance"]), "fov": float(o["fov"]),
            "center": (float(c.x()), float(c.y()), float(c.z()))}


class VideoExporter(QtCore.QObject):
    """Renders ``session``'s trajectory to ``options.path``; call :meth:`start`.

    Signals: ``progress(done, total)``, ``finished(count)``, ``cancelled(count)``,
    ``failed(message)``. :meth:`cancel` stops after the current frame.
    Raises ValueError at construction for bad options (no trajectory, odd MP4 size, ...).
    """

    progress = QtCore.Signal(int, int)
    finished = QtCore.Signal(int)
    cancelled = QtCore.Signal(int)
    failed = QtCore.Signal(str)

    def __init__(self, session, options: VideoOptions, view=None, parent=None):
        super().__init__(parent)
        if session.trajectory is None:
            raise ValueError("there is no trajectory to export")
        if video_kind(options.path) == "still":
            raise ValueError(f"{options.path}: choose a video file or a folder, not a picture")
        d = session.display
        display = DisplayOptions(**{n: getattr(d, n) for n in DisplayOptions.field_names()})
        display.projection = options.projection
        camera = None
        if options.view == CURRENT_VIEW and view is not None:
            camera = view_camera(view)
        preset = options.view if options.view in CAMERA_PRESETS else "iso"
        self.options = options
        self.job = VideoJob(session.robot, session.trajectory, fps=options.fps,
                            speed=options.speed, size=options.size, view=preset,
                            display=display, overlays=options.overlays, camera=camera)
        self.writer = open_video(options.path, self.job.renderer.size, options.fps)
        self.count = 0
        self._cancel = False
        self._running = False

    @property
    def total(self) -> int:
        return self.job.total

    @property
    def running(self) -> bool:
        return self._running

    def start(self) -> None:
        self._running = True
        QtCore.QTimer.singleShot(0, self._next)

    def cancel(self) -> None:
        self._cancel = True

    def _next(self) -> None:
        if self._cancel:
            self._running = False
            self.writer.abort()
            self.cancelled.emit(self.count)
            return
        if self.count >= self.total:
            self._running = False
            try:
                self.writer.close()
            except OSError as exc:
                self.failed.emit(f"could not write {self.options.path}: {exc}")
                return
            self.finished.emit(self.count)
            return
        try:
            self.writer.append(self.job.frame(self.count))
        except Exception as exc:  # noqa: BLE001 - reported, never kills the GUI
            self._running = False
            self.writer.abort()
            self.failed.emit(f"frame {self.count + 1} of {self.total}: {exc}")
            return
        self.count += 1
        self.progress.emit(self.count, self.total)
        QtCore.QTimer.singleShot(0, self._next)


class VideoExportDialog(QtWidgets.QDialog):
    """The options of Trajectory > Export video...; :meth:`options` reads them back."""

    def __init__(self, session, parent=None, *, size=(1280, 720), folder: str = "",
                 fmt: str = ".mp4"):
        super().__init__(parent)
        self.setWindowTitle("Export video")
        form = QtWidgets.QFormLayout(self)
        self.format_combo = QtWidgets.QComboBox()
        for text, suffix in _FORMATS:
            self.format_combo.addItem(text, suffix)
        form.addRow("Format", self.format_combo)
        row = QtWidgets.QHBoxLayout()
        self.path_edit = QtWidgets.QLineEdit(str(Path(folder or Path.cwd()) / "trajectory.mp4"))
        self.path_edit.setToolTip("Video file, or the folder for a PNG image sequence")
        browse = QtWidgets.QPushButton("Browse\u2026")
        browse.clicked.connect(self._browse)
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow("File", row)
        self.width_spin, self.height_spin = QtWidgets.QSpinBox(), QtWidgets.QSpinBox()
        for spin, value in ((self.width_spin, size[0]), (self.height_spin, size[1])):
            spin.setRange(16, 8192)
            spin.setSingleStep(2)
            spin.setSuffix(" px")
            spin.setValue(int(value))
        sz = QtWidgets.QHBoxLayout()
        sz.addWidget(self.width_spin)
        sz.addWidget(QtWidgets.QLabel("\u00d7"))
        sz.addWidget(self.height_spin)
        form.addRow("Frame size", sz)
        self.fps_spin = QtWidgets.QDoubleSpinBox()
        self.fps_spin.setRange(1.0, 120.0)
        self.fps_spin.setDecimals(1)
        self.fps_spin.setValue(30.0)
        self.fps_spin.setSuffix(" fps")
        form.addRow("Frame rate", self.fps_spin)
        self.speed_spin = QtWidgets.QDoubleSpinBox()
        self.speed_spin.setRange(0.05, 20.0)
        self.speed_spin.setDecimals(2)
        self.speed_spin.setSingleStep(0.25)
        self.speed_spin.setValue(float(session.playback.speed))
        self.speed_spin.setSuffix(" \u00d7")
        self.speed_spin.setToolTip("Trajectory seconds per second of video")
        form.addRow("Speed", self.speed_spin)
        self.view_combo = QtWidgets.QComboBox()
        self.view_combo.addItem("Current 3D view camera", CURRENT_VIEW)
        for name in CAMERA_PRESETS:
            self.view_combo.addItem(f"{name} (fitted to the whole motion)", name)
        form.addRow("Camera", self.view_combo)
        self.projection_combo = QtWidgets.QComboBox()
        self.projection_combo.addItems(["perspective", "orthographic"])
        self.projection_combo.setCurrentText(session.display.projection)
        form.addRow("Projection", self.projection_combo)
        self.time_box = QtWidgets.QCheckBox("time")
        self.q_box = QtWidgets.QCheckBox("joint values")
        self.torque_box = QtWidgets.QCheckBox("torque bars")
        self.trail_box = QtWidgets.QCheckBox("tool path")
        self.trail_box.setChecked(True)  # as the 3D view shows the trajectory
        ov = QtWidgets.QHBoxLayout()
        for box in (self.time_box, self.q_box, self.torque_box, self.trail_box):
            ov.addWidget(box)
        form.addRow("Overlays", ov)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Ok
                                             | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setText("Export")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.format_combo.currentIndexChanged.connect(self._on_format)
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(fmt)))

    def _on_format(self) -> None:
        suffix = self.format_combo.currentData()
        p = Path(self.path_edit.text().strip() or "trajectory")
        base = p if video_kind_safe(p) in ("sequence", None) else p.with_suffix("")
        if suffix == "/":
            self.path_edit.setText(str(base) + "_frames/")
        else:
            self.path_edit.setText(str(Path(str(base).rstrip("/")).with_suffix(suffix)))

    def _browse(self) -> None:
        suffix = self.format_combo.currentData()
        if suffix == "/":
            path = QtWidgets.QFileDialog.getExistingDirectory(self, "Folder for the frames")
            if path:
                self.path_edit.setText(path.rstrip("/") + "/")
            return
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Export video", self.path_edit.text(), f"Video (*{suffix})")
        if path:
            self.path_edit.setText(path)

    def options(self) -> VideoOptions:
        return VideoOptions(
            path=self.path_edit.text().strip(),
            size=(self.width_spin.value(), self.height_spin.value()),
            fps=self.fps_spin.value(), speed=self.speed_spin.value(),
            view=self.view_combo.currentData(), projection=self.projection_combo.currentText(),
            overlays=Overlays(time=self.time_box.isChecked(), q=self.q_box.isChecked(),
                              torque=self.torque_box.isChecked(),
                              trail=self.trail_box.isChecked()))


def video_kind_safe(path) -> str | None:
    try:
        return video_kind(path)
    except ValueError:
        return None
