"""Image sequences of the 3D view for video (the trajectory files live in
:mod:`robogui.session.motion.trajectories` and are re-exported here for the timeline).

:class:`ImageSequenceExporter` renders the 3D view at each sample time, one frame per
event-loop turn (the GUI stays responsive and the export can be cancelled), through
the view's own framebuffer (``grab_image``), never a screen grab; it writes
``frame_0000.png``, ``frame_0001.png``, ... and puts the playhead back afterwards.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore

from robogui.session.motion.trajectories import (
    demo_trajectory,
    export_trajectory_csv,
    load_trajectory_csv,
)

__all__ = ["load_trajectory_csv", "export_trajectory_csv", "demo_trajectory",
           "ImageSequenceExporter", "FRAME_PATTERN"]

FRAME_PATTERN = "frame_{:04d}.png"


class ImageSequenceExporter(QtCore.QObject):
    """Render ``view`` at each time of ``times`` (default: every trajectory sample).

    Signals: ``progress(done, total)``, ``finished(count)``, ``cancelled(count)``,
    ``failed(message)``. Call :meth:`start`; :meth:`cancel` stops after the current frame.
    """

    progress = QtCore.Signal(int, int)
    finished = QtCore.Signal(int)
    cancelled = QtCore.Signal(int)
    failed = QtCore.Signal(str)

    def __init__(self, view, session, folder, times=None, parent=None):
        super().__init__(parent)
        if session.trajectory is None:
            raise ValueError("there is no trajectory to export")
        self.view, self.session = view, session
        self.folder = Path(folder)
        self.times = np.asarray(session.trajectory.t if times is None else times, float)
        self.count = 0
        self.paths: list[Path] = []
        self._cancel = False
        self._running = False
        self._restore_time = session.time

    @property
    def total(self) -> int:
        return int(self.times.size)

    @property
    def running(self) -> bool:
        return self._running

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._running = True
        QtCore.QTimer.singleShot(0, self._next)

    def cancel(self) -> None:
        self._cancel = True

    def _done(self) -> None:
        self._running = False
        self.session.set_time(self._restore_time, changing=False)

    def _next(self) -> None:
        if self._cancel:
            self._done()
            self.cancelled.emit(self.count)
            return
        if self.count >= self.total:
            self._done()
            self.finished.emit(self.count)
            return
        self.session.set_time(float(self.times[self.count]))  # moves the view's items
        image = self.view.grab_image()  # renders this frame into the view's framebuffer
        path = self.folder / FRAME_PATTERN.format(self.count)
        if not image.save(str(path)):
            self._done()
            self.failed.emit(f"could not write {path}")
            return
        self.paths.append(path)
        self.count += 1
        self.progress.emit(self.count, self.total)
        QtCore.QTimer.singleShot(0, self._next)
