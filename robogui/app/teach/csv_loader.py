"""Loading a large trajectory CSV without freezing the window, with progress and cancel.

A :class:`BackgroundCsvLoad` runs :mod:`robogui.session.motion.trajectory_job` in a child
process (a ``QProcess``: its output arrives as events, nothing blocks), shows its stage
in a progress bar with a Cancel button, and hands the Trajectory to ``on_done`` on the
GUI thread. Errors go to ``on_error(message)``; cancelling kills the child and keeps the
current trajectory.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from robogui.session.motion.trajectory_job import child_command, collect_trajectory, parse_message

__all__ = ["BackgroundCsvLoad", "ProgressRow", "BACKGROUND_BYTES"]

#: files larger than this are read in a child process (smaller ones in a blink)
BACKGROUND_BYTES = 4_000_000


class ProgressRow(QtWidgets.QWidget):
    """A slim progress bar with a label and a Cancel button (hidden when idle)."""

    cancelled = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QtWidgets.QLabel()
        self.label.setStyleSheet("color: #9fb0c3;")
        self.bar = QtWidgets.QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setMaximumHeight(14)
        self.bar.setTextVisible(False)
        self.bar.setToolTip("reading the trajectory file in the background")
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setToolTip("stop reading the file; the current trajectory stays")
        self.cancel_button.clicked.connect(self.cancelled)
        lay.addWidget(self.label)
        lay.addWidget(self.bar, 1)
        lay.addWidget(self.cancel_button)
        self.hide()

    def show_stage(self, text: str, fraction: float | None) -> None:
        self.label.setText(text)
        if fraction is None:
            self.bar.setRange(0, 0)  # busy
        else:
            self.bar.setRange(0, 100)
            self.bar.setValue(round(100 * fraction))
        self.show()


class BackgroundCsvLoad(QtCore.QObject):
    """One background read of ``path`` for a robot with ``n`` joints."""

    def __init__(self, path, n: int, progress: ProgressRow,
                 on_done: Callable[[object], None], on_error: Callable[[str], None],
                 parent: QtCore.QObject | None = None, poll_ms: int = 40):
        super().__init__(parent)
        self.path = Path(path)
        self.progress, self.on_done, self.on_error = progress, on_done, on_error
        self._dir = tempfile.mkdtemp(prefix="robogui-csv-")
        self.process = QtCore.QProcess(self)
        program, args, env = child_command(self.path, n, self._dir)
        penv = QtCore.QProcessEnvironment.systemEnvironment()
        for key, value in env.items():
            old = penv.value(key)
            penv.insert(key, value + (os.pathsep + old if old else ""))
        self.process.setProcessEnvironment(penv)
        self.process.setProcessChannelMode(QtCore.QProcess.ProcessChannelMode.SeparateChannels)
        self.process.readyReadStandardOutput.connect(self.poll)
        self.process.finished.connect(lambda *_: self.poll())
        self._buffer = b""
        self.process.start(program, args)
        self.started = time.monotonic()
        self.finished = False
        mb = self.path.stat().st_size / 1e6
        self._what = f"{self.path.name} ({mb:.0f} MB)"
        self._fraction = 0.0
        progress.show_stage(f"Loading {self._what}: starting", 0.0)
        progress.cancelled.connect(self.cancel)
        self.timer = QtCore.QTimer(self)
        self.timer.setInterval(poll_ms)
        self.timer.timeout.connect(self.poll)
        self.timer.start()

    def poll(self) -> None:
        """Take the child's messages (never blocks)."""
        if self.finished:
            return
        self._buffer += bytes(self.process.readAllStandardOutput())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            msg = parse_message(line.decode("utf-8", "replace"))
            if msg is None:
                continue
            kind = msg[0]
            if kind == "stage":
                self._fraction = float(msg[2])
                self.progress.show_stage(f"Loading {self._what}: {msg[1]}", self._fraction)
            elif kind == "done":
                try:
                    traj = collect_trajectory(msg[1])
                except (ValueError, OSError) as exc:
                    self._finish()
                    self.on_error(f"{self.path}: {exc}")
                    return
                self._finish(keep_files=True)
                self.on_done(traj)
                return
            elif kind == "error":
                self._finish()
                self.on_error(msg[1])
                return
        if self.process.state() == QtCore.QProcess.ProcessState.NotRunning and \
                not self.process.bytesAvailable():
            err = bytes(self.process.readAllStandardError()).decode("utf-8", "replace")
            self._finish()
            self.on_error(f"{self.path}: the CSV reader stopped (exit code "
                          f"{self.process.exitCode()}) {err.strip()[-300:]}")
            return
        if 0.05 <= self._fraction < 0.85:
            # the child cannot count rows while numpy parses: show time passing, bounded
            elapsed = time.monotonic() - self.started
            self.progress.bar.setValue(round(100 * min(0.8, 0.05 + 0.75 * (1 - 0.9 ** elapsed))))

    def cancel(self) -> None:
        """Stop the child; nothing changes in the session."""
        if not self.finished:
            self._finish()
            self.process.kill()
            self.process.waitForFinished(5000)

    @property
    def running(self) -> bool:
        """True while the child process runs."""
        return self.process.state() != QtCore.QProcess.ProcessState.NotRunning

    def _finish(self, keep_files: bool = False) -> None:
        self.finished = True
        self.timer.stop()
        try:
            self.progress.cancelled.disconnect(self.cancel)
        except (RuntimeError, TypeError):
            pass
        self.progress.hide()
        if not keep_files:  # mapped files stay until the process ends (the OS cleans /tmp)
            shutil.rmtree(self._dir, ignore_errors=True)

    def wait(self, timeout_s: float = 120.0) -> bool:
        """Block until finished, polling (scripts and tests); True when finished."""
        end = time.monotonic() + timeout_s
        while not self.finished and time.monotonic() < end:
            self.process.waitForReadyRead(50)
            self.poll()
        return self.finished
