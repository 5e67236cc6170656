"""The playback bar under the 3D view.

Play/pause, stop, step one sample back/forward, a scrub slider, the time, speed
0.1x-10x and loop. While playing, a Qt timer measures the wall-clock time since its
previous tick (``clock``, default ``time.monotonic``) and advances the session's cursor
by it (``Session.advance``): the speed is right whatever the frame rate, and nothing
sleeps. Keys: space play/pause, Left/Right step (on the bar, and on any widget passed to
:meth:`Timeline.install_keys`, e.g. the 3D view).

The Trajectory menu loads a CSV file (a malformed file is reported and the current
trajectory kept), generates a demo (jtraj between two named poses), exports the
trajectory as CSV (t, q, qd, qdd), exports the view as an image sequence and exports a
video of the trajectory at any size (:mod:`.video_export`).
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.motion.playback import SPEED_PRESETS

from ..bindings import Subscriptions
from ..widgets.numeric_field import NumberField
from .csv_loader import BACKGROUND_BYTES, BackgroundCsvLoad, ProgressRow
from .export import (
    ImageSequenceExporter,
    demo_trajectory,
    export_trajectory_csv,
    load_trajectory_csv,
)

__all__ = ["Timeline", "SLIDER_STEPS", "transport_icon"]

SLIDER_STEPS = 10000
_ICON_COLOR = "#d7dce3"


def transport_icon(kind: str, size: int = 18) -> QtGui.QIcon:
    """Light play/pause/stop/step icons drawn here (the style's are too dark on our theme)."""
    pix = QtGui.QPixmap(size, size)
    pix.fill(QtCore.Qt.GlobalColor.transparent)
    p = QtGui.QPainter(pix)
    p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
    p.setPen(QtCore.Qt.PenStyle.NoPen)
    p.setBrush(QtGui.QColor(_ICON_COLOR))
    s = float(size)
    P = QtCore.QPointF

    def triangle(x0, x1):  # pointing from x0 to x1
        p.drawPolygon(QtGui.QPolygonF([P(x0, 0.18 * s), P(x1, 0.5 * s), P(x0, 0.82 * s)]))

    def bar(x, w):
        p.drawRect(QtCore.QRectF(x, 0.2 * s, w, 0.6 * s))

    if kind == "play":
        triangle(0.25 * s, 0.82 * s)
    elif kind == "pause":
        bar(0.25 * s, 0.18 * s)
        bar(0.57 * s, 0.18 * s)
    elif kind == "stop":
        p.drawRect(QtCore.QRectF(0.24 * s, 0.24 * s, 0.52 * s, 0.52 * s))
    elif kind == "back":
        bar(0.2 * s, 0.12 * s)
        triangle(0.8 * s, 0.34 * s)
    elif kind == "forward":
        triangle(0.2 * s, 0.66 * s)
        bar(0.68 * s, 0.12 * s)
    else:
        raise ValueError(f"unknown icon {kind!r}")
    p.end()
    return QtGui.QIcon(pix)


class Timeline(QtWidgets.QWidget):
    """Transport controls for the playback of ``session``; ``view`` for image export."""

    def __init__(self, session, view=None, parent=None, *, clock=time.monotonic,
                 error_presenter=None, tick_ms: int = 15):
        super().__init__(parent)
        self.session, self.view = session, view
        self.clock = clock
        self.error_presenter = error_presenter if error_presenter is not None else (
            lambda title, text: QtWidgets.QMessageBox.warning(self, title, text))
        self.exporter: ImageSequenceExporter | None = None
        self.video_exporter = None  # the running or last VideoExporter
        self._last_tick = 0.0
        self.timer = QtCore.QTimer(self)
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self.tick)

        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(6, 2, 6, 2)
        outer.setSpacing(1)
        top, row = QtWidgets.QHBoxLayout(), QtWidgets.QHBoxLayout()
        outer.addLayout(top)
        outer.addLayout(row)
        def tool(icon, tip, slot):
            b = QtWidgets.QToolButton()
            b.setIcon(transport_icon(icon))
            b.setToolTip(tip)
            b.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
            b.clicked.connect(slot)
            b.setAutoRaise(True)
            row.addWidget(b)
            return b

        self.stop_button = tool("stop", "Stop (back to the start)", self.session.stop)
        self.back_button = tool("back", "Step back one sample (Left)",
                                lambda: self.session.step(-1))
        self.play_button = tool("play", "Play / pause (Space)", self.session.toggle_play)
        self.fwd_button = tool("forward", "Step forward one sample (Right)",
                               lambda: self.session.step(1))
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setRange(0, SLIDER_STEPS)
        self.slider.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.slider.sliderMoved.connect(
            lambda v: self.session.scrub(v / SLIDER_STEPS, changing=True))
        self.slider.sliderReleased.connect(
            lambda: self.session.scrub(self.slider.value() / SLIDER_STEPS))
        self.slider.actionTriggered.connect(self._on_slider_action)
        top.addWidget(self.slider, 1)
        self.time_label = QtWidgets.QLabel()
        self.time_label.setMinimumWidth(170)
        self.time_label.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                     | QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.time_label.setFont(QtGui.QFontDatabase.systemFont(
            QtGui.QFontDatabase.SystemFont.FixedFont))
        top.addWidget(self.time_label)
        self.speed_combo = QtWidgets.QComboBox()
        self.speed_combo.setToolTip("Playback speed")
        self.speed_combo.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        for s in SPEED_PRESETS:
            self.speed_combo.addItem(f"{s:g}x", s)
        self.speed_combo.setCurrentIndex(SPEED_PRESETS.index(1.0))
        self.speed_combo.currentIndexChanged.connect(
            lambda i: self.session.set_speed(self.speed_combo.itemData(i)))
        row.addWidget(self.speed_combo)
        self.loop_box = QtWidgets.QCheckBox("Loop")
        self.loop_box.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.loop_box.toggled.connect(self.session.set_loop)
        row.addWidget(self.loop_box)

        self.menu_button = QtWidgets.QToolButton()
        self.menu_button.setText("Trajectory")
        self.menu_button.setPopupMode(QtWidgets.QToolButton.ToolButtonPopupMode.InstantPopup)
        self.menu_button.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        menu = QtWidgets.QMenu(self.menu_button)
        self.act_load = menu.addAction("Load CSV\u2026", self.load_csv_dialog)
        self.act_demo = menu.addAction("Demo: move between two poses\u2026", self.demo_dialog)
        menu.addSeparator()
        self.act_export = menu.addAction("Export CSV (t, q, qd, qdd)\u2026", self.export_csv_dialog)
        self.act_images = menu.addAction("Export view as image sequence\u2026",
                                         self.export_images_dialog)
        self.act_video = menu.addAction("Export video\u2026", self.export_video_dialog)
        self.act_video.setToolTip("MP4, WebM, GIF or PNG files of the trajectory at any size")
        menu.addSeparator()
        self.act_clear = menu.addAction("Clear trajectory",
                                        lambda: self.session.set_trajectory(None))
        self.menu_button.setMenu(menu)
        row.addWidget(self.menu_button)
        # the popup arrow sits on the button's right edge: keep the label clear of it
        row.addSpacing(10)
        self.info_label = QtWidgets.QLabel()
        self.info_label.setStyleSheet("color: #9fb0c3;")
        row.addWidget(self.info_label, 1)

        self.csv_load: BackgroundCsvLoad | None = None
        self.progress_row = ProgressRow()
        outer.addWidget(self.progress_row)

        self.shortcuts: list[QtGui.QShortcut] = []
        self.install_keys(self)
        self._subs = Subscriptions(self)
        self._subs.connect(session.events.time, lambda _t: self._show_time())
        self._subs.connect(session.events.trajectory, lambda _t: self._on_trajectory())
        self._subs.connect(session.events.playing, self._on_playing)
        self._subs.connect(session.events.speed, self._on_speed)
        self._on_trajectory()

    # -- keys ------------------------------------------------------------------------------
    def install_keys(self, widget: QtWidgets.QWidget) -> None:
        """Space / Left / Right on ``widget`` (and its children) drive playback."""
        ctx = QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut
        for key, slot in ((QtCore.Qt.Key.Key_Space, self.session.toggle_play),
                          (QtCore.Qt.Key.Key_Left, lambda: self.session.step(-1)),
                          (QtCore.Qt.Key.Key_Right, lambda: self.session.step(1))):
            sc = QtGui.QShortcut(QtGui.QKeySequence(key), widget)
            sc.setContext(ctx)
            sc.activated.connect(slot)
            self.shortcuts.append(sc)

    # -- playing -----------------------------------------------------------------------------
    def _on_playing(self, playing: bool) -> None:
        if playing:
            self._last_tick = self.clock()
            self.timer.start()
        else:
            self.timer.stop()
        self.play_button.setIcon(transport_icon("pause" if playing else "play"))

    def _on_speed(self, value) -> None:
        speed, loop = value
        k = self.speed_combo.findData(speed)
        with QtCore.QSignalBlocker(self.speed_combo), QtCore.QSignalBlocker(self.loop_box):
            if k >= 0:
                self.speed_combo.setCurrentIndex(k)
            self.loop_box.setChecked(loop)

    def tick(self) -> None:
        """Advance by the wall-clock time since the previous tick."""
        now = self.clock()
        dt, self._last_tick = max(0.0, now - self._last_tick), now
        self.session.advance(dt)

    def _on_slider_action(self, action: int) -> None:
        # page clicks on the groove: let the slider move, then seek to where it went
        if action in (QtWidgets.QAbstractSlider.SliderAction.SliderPageStepAdd,
                      QtWidgets.QAbstractSlider.SliderAction.SliderPageStepSub):
            QtCore.QTimer.singleShot(0, lambda: self.session.scrub(
                self.slider.value() / SLIDER_STEPS))

    def _show_time(self) -> None:
        pb = self.session.playback
        if not pb.has_trajectory:
            self.time_label.setText("no trajectory")
            return
        if not self.slider.isSliderDown():
            with QtCore.QSignalBlocker(self.slider):
                self.slider.setValue(round(pb.fraction * SLIDER_STEPS))
        self.time_label.setText(f"{pb.time:6.2f} / {pb.end:.2f} s  "
                                f"#{pb.index}/{pb.n_samples - 1}")

    def _on_trajectory(self) -> None:
        traj = self.session.trajectory
        has = traj is not None
        for w in (self.play_button, self.stop_button, self.back_button, self.fwd_button,
                  self.slider):
            w.setEnabled(has)
        for a in (self.act_export, self.act_images, self.act_video, self.act_clear):
            a.setEnabled(has)
        if has:
            name = getattr(traj, "name", "") or "trajectory"
            self.info_label.setText(f"{name}, {len(traj.t)} samples")
        else:
            self.info_label.setText("")
        self._show_time()

    # -- trajectory files ------------------------------------------------------------------------
    def load_csv(self, path, background: bool | None = None) -> bool:
        """Load a CSV trajectory; on error report it and keep the current trajectory.

        Files over :data:`~.csv_loader.BACKGROUND_BYTES` (or ``background=True``) are read
        in a child process with progress and Cancel: this returns True at once and the
        trajectory arrives later (:attr:`csv_load`). A new load cancels a running one.
        """
        if self.csv_load is not None:
            self.csv_load.cancel()
            self.csv_load = None
        if background is None:
            try:
                background = Path(path).stat().st_size > BACKGROUND_BYTES
            except OSError:
                background = False  # the synchronous path reports the error
        if background:
            self.csv_load = BackgroundCsvLoad(
                path, self.session.robot.n, self.progress_row,
                on_done=self._loaded_in_background, on_error=self._load_failed, parent=self)
            return True
        try:
            traj = load_trajectory_csv(path, self.session.robot)
        except (OSError, ValueError) as exc:
            self._load_failed(str(exc))
            return False
        self._take(traj)
        return True

    def _load_failed(self, message: str) -> None:
        self.error_presenter("Cannot load the trajectory", message)
        self.info_label.setText("load failed: the previous trajectory is kept")

    def _loaded_in_background(self, traj) -> None:
        if traj.q is None or traj.q.shape[1] != self.session.robot.n:
            self._load_failed(f"{self.csv_load.path}: the file is for another number of "
                              f"joints than {self.session.robot.name}'s {self.session.robot.n}")
            return
        self._take(traj)

    def _take(self, traj) -> None:
        self.session.pause()
        try:
            self.session.set_trajectory(traj)
        except ValueError as exc:
            self._load_failed(str(exc))
            return
        self.session.finish_change()

    def generate_demo(self, pose_a: str | None = None, pose_b: str | None = None,
                      duration: float = 3.0) -> bool:
        """jtraj between two named poses (default: the first two the robot has)."""
        robot = self.session.robot
        names = list(robot.poses)
        if len(names) < 2 and (pose_a is None or pose_b is None):
            self.error_presenter("No demo", f"{robot.name} has fewer than two named poses")
            return False
        a = pose_a or names[0]
        b = pose_b or next(n for n in names if n != a)
        try:
            traj = demo_trajectory(robot, a, b, duration)
        except ValueError as exc:
            self.error_presenter("No demo", str(exc))
            return False
        self.session.pause()
        self.session.set_trajectory(traj)
        self.session.finish_change()
        return True

    def export_csv(self, path) -> Path | None:
        if self.session.trajectory is None:
            return None
        try:
            return export_trajectory_csv(self.session.trajectory, path)
        except (OSError, ValueError) as exc:
            self.error_presenter("Cannot export the trajectory", str(exc))
            return None

    def export_images(self, folder, times=None, *, show_progress: bool = True
                      ) -> ImageSequenceExporter | None:
        """Start rendering the view frame by frame into ``folder`` (non-blocking)."""
        if self.view is None or self.session.trajectory is None:
            return None
        self.session.pause()
        exp = ImageSequenceExporter(self.view, self.session, folder, times, parent=self)
        self.exporter = exp
        if show_progress:
            dlg = QtWidgets.QProgressDialog("Rendering frames\u2026", "Cancel", 0, exp.total, self)
            dlg.setWindowTitle("Export image sequence")
            dlg.setMinimumDuration(300)
            dlg.setAutoClose(True)
            exp.progress.connect(lambda done, _total: dlg.setValue(done))
            dlg.canceled.connect(exp.cancel)
            exp.finished.connect(lambda _n: dlg.reset())
            exp.cancelled.connect(lambda _n: dlg.reset())
            self.progress_dialog = dlg
        exp.finished.connect(lambda n: self.info_label.setText(f"wrote {n} frames to {folder}"))
        exp.cancelled.connect(
            lambda n: self.info_label.setText(f"export cancelled after {n} frames"))
        exp.failed.connect(lambda msg: self.error_presenter("Image export failed", msg))
        exp.start()
        return exp

    def export_video(self, options, *, show_progress: bool = True):
        """Start rendering the trajectory to a video (non-blocking; see video_export).

        Returns the :class:`VideoExporter`, or None (no trajectory, bad options: reported).
        """
        from .video_export import VideoExporter

        if self.session.trajectory is None:
            return None
        self.session.pause()
        try:
            exp = VideoExporter(self.session, options, self.view, parent=self)
        except (OSError, ValueError) as exc:
            self.error_presenter("Cannot export the video", str(exc))
            return None
        self.video_exporter = exp
        if show_progress:
            dlg = QtWidgets.QProgressDialog("Rendering the video\u2026", "Cancel", 0, exp.total,
                                            self)
            dlg.setWindowTitle("Export video")
            dlg.setMinimumDuration(300)
            dlg.setAutoClose(True)
            exp.progress.connect(lambda done, _total: dlg.setValue(done))
            dlg.canceled.connect(exp.cancel)
            for sig in (exp.finished, exp.cancelled):
                sig.connect(lambda _n: dlg.reset())
            exp.failed.connect(lambda _m: dlg.reset())
            self.video_progress = dlg
        exp.finished.connect(lambda n: self.info_label.setText(
            f"wrote {n} frames to {options.path}"))
        exp.cancelled.connect(
            lambda n: self.info_label.setText(f"video cancelled after {n} frames"))
        exp.failed.connect(lambda msg: self.error_presenter("Video export failed", msg))
        exp.start()
        return exp

    # -- dialogs (interactive only) ---------------------------------------------------------------
    def export_video_dialog(self) -> None:
        from .video_export import VideoExportDialog

        dlg = VideoExportDialog(self.session, self)
        if dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            self.export_video(dlg.options())

    def load_csv_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, "Load trajectory", "", "CSV trajectory (*.csv);;All files (*)")
        if path:
            self.load_csv(path)

    def export_csv_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Export trajectory", "trajectory.csv", "CSV (*.csv)")
        if path:
            self.export_csv(path)

    def export_images_dialog(self) -> None:
        """PNG files of the trajectory at any size: the video dialog, set to an image
        sequence at the view's size."""
        from .video_export import VideoExportDialog

        size = (self.view.width(), self.view.height()) if self.view is not None else (1280, 720)
        dlg = VideoExportDialog(self.session, self, size=size, fmt="/")
        if dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            self.export_video(dlg.options())

    def demo_dialog(self) -> None:
        robot = self.session.robot
        names = list(robot.poses)
        if len(names) < 2:
            self.error_presenter("No demo", f"{robot.name} has fewer than two named poses")
            return
        dlg = QtWidgets.QDialog(self)
        dlg.setWindowTitle("Demo trajectory")
        form = QtWidgets.QFormLayout(dlg)
        a, b = QtWidgets.QComboBox(), QtWidgets.QComboBox()
        a.addItems(names)
        b.addItems(names)
        b.setCurrentIndex(1)
        dur = NumberField("time", "s", what="duration", decimals=2)
        dur.setRange(0.1, 600.0)
        dur.setValue(3.0)
        dur.setToolTip("how long the demo move takes")
        self.demo_duration = dur
        form.addRow("From pose", a)
        form.addRow("To pose", b)
        form.addRow("Duration", dur)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Ok
                                             | QtWidgets.QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        form.addRow(buttons)
        dlg.accepted.connect(lambda: self.generate_demo(a.currentText(), b.currentText(),
                                                        dur.value()))
        dlg.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.open()
