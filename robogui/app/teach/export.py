"""Trajectory files and image sequences for the timeline.

* :func:`load_trajectory_csv` / :func:`export_trajectory_csv`: CSV with ``t, q, qd, qdd``
  (derivatives estimated when a file has none).
* :func:`demo_trajectory`: ``jtraj`` between two named poses of the robot.
* :class:`ImageSequenceExporter`: renders the 3D view at each sample time, one frame per
  event-loop turn (the GUI stays responsive and the export can be cancelled), through
  the view's own framebuffer (``grab_image``), never a screen grab; writes
  ``frame_0000.png``, ``frame_0001.png``, ... and puts the playhead back afterwards.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore

from robogui.engine.trajectory import Trajectory, jtraj

__all__ = ["load_trajectory_csv", "export_trajectory_csv", "demo_trajectory",
           "ImageSequenceExporter", "FRAME_PATTERN"]

FRAME_PATTERN = "frame_{:04d}.png"


def load_trajectory_csv(path, robot) -> Trajectory:
    """Read a CSV trajectory for ``robot`` (its joint count is checked).

    Raises TrajectoryFileError (a ValueError naming file, line and column) or OSError.
    """
    traj = Trajectory.from_csv(path, n=robot.n)
    if traj.q is None:
        raise ValueError(f"{path}: the file has poses (T11..T34) but no joint columns "
                         "q1..qn; the timeline plays joint trajectories")
    if traj.qd is None or traj.qdd is None:
        if len(traj) >= 2:
            traj = traj.with_derivatives()
    return traj


def _as_trajectory(traj) -> Trajectory:
    if isinstance(traj, Trajectory):
        return traj
    return Trajectory(np.asarray(traj.t, float), np.asarray(traj.q, float),
                      name=getattr(traj, "name", ""))


def export_trajectory_csv(traj, path) -> Path:
    """Write ``traj`` as CSV with t, q, qd, qdd (derivatives estimated if missing)."""
    tr = _as_trajectory(traj)
    if (tr.qd is None or tr.qdd is None) and len(tr) >= 2:
        tr = tr.with_derivatives()
    path = Path(path)
    if path.suffix == "":
        path = path.with_suffix(".csv")
    tr.to_csv(path)
    return path


def demo_trajectory(robot, pose_a: str, pose_b: str, duration: float = 3.0,
                    dt: float = 0.02) -> Trajectory:
    """A quintic ``jtraj`` from named pose ``pose_a`` to ``pose_b`` over ``duration`` s."""
    if not duration > 0 or not dt > 0:
        raise ValueError(f"duration and dt must be positive, got {duration} and {dt}")
    k = max(2, int(round(duration / dt)) + 1)
    q1 = robot.pose(pose_b)
    tr = jtraj(robot.pose(pose_a), q1, np.linspace(0.0, duration, k))
    q = tr.q.copy()
    q[-1] = q1  # exactly on the pose, not within rounding
    return Trajectory(tr.t, q, tr.qd, tr.qdd, name=f"demo {pose_a} to {pose_b}")


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
