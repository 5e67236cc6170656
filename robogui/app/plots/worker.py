"""Runs the trajectory analysis off the GUI thread, with progress and cancel.

:class:`AnalysisRunner` follows a session: when its trajectory, robot or tool changes it
has the session compute :class:`~robogui.session.motion.analysis.TrajectoryAnalysis` once
(``Session.compute_analysis``; the session keeps it as ``Session.analysis``), for all
the plot panels. Short trajectories (``<= sync_limit`` samples, a few tens of ms) are
computed on the GUI thread; longer ones in a private one-thread ``QThreadPool``, chunk
by chunk, reporting progress and stopping between chunks when cancelled. A newer request
cancels the older job and its late result is dropped. Results come back through Qt
signals, queued onto the GUI thread.

Requests are deferred to the next turn of the event loop, so the several events of one
session change (robot + trajectory + time) start a single computation.
"""

from __future__ import annotations

import threading

from PySide6 import QtCore

from robogui.session.motion.analysis import DEFAULT_CHUNK, TrajectoryAnalysis
from robogui.session.motion.envelope import analysis_envelopes

from ..bindings import Subscriptions

__all__ = ["AnalysisRunner", "SYNC_LIMIT"]

#: trajectories up to this many samples are analysed synchronously (about 20 ms for 6R)
SYNC_LIMIT = 2500


class _JobSignals(QtCore.QObject):
    """Lives on the GUI thread; emitted from the worker, so delivery is queued."""

    progress = QtCore.Signal(int, float)
    done = QtCore.Signal(int, object)
    cancelled = QtCore.Signal(int)
    failed = QtCore.Signal(int, str)


class _Job(QtCore.QRunnable):
    def __init__(self, generation: int, robot, trajectory, signals: _JobSignals,
                 stop: threading.Event, chunk: int):
        super().__init__()
        self.setAutoDelete(True)
        self.generation, self.robot, self.trajectory = generation, robot, trajectory
        self.signals, self.stop, self.chunk = signals, stop, chunk

    def run(self) -> None:
        gen, sig = self.generation, self.signals
        try:
            result = TrajectoryAnalysis.compute(
                self.robot, self.trajectory, chunk=self.chunk,
                progress=lambda f: sig.progress.emit(gen, float(f)), cancel=self.stop.is_set)
            if result is not None and not self.stop.is_set():
                # the plots' screen-resolution curves, here rather than on the GUI thread
                analysis_envelopes(result)
        except Exception as exc:  # noqa: BLE001 - reported to the GUI, never lost
            sig.failed.emit(gen, f"{type(exc).__name__}: {exc}")
            return
        if result is None:
            sig.cancelled.emit(gen)
        else:
            sig.done.emit(gen, result)


class AnalysisRunner(QtCore.QObject):
    """The current trajectory's analysis, kept up to date for the plot panels.

    Signals: ``started()``, ``progress(fraction)``, ``finished(analysis or None)`` (None:
    no trajectory), ``cancelled()``, ``failed(message)``. ``analysis`` is the latest result.
    """

    started = QtCore.Signal()
    progress = QtCore.Signal(float)
    finished = QtCore.Signal(object)
    cancelled = QtCore.Signal()
    failed = QtCore.Signal(str)

    def __init__(self, session, *, sync_limit: int = SYNC_LIMIT, chunk: int = DEFAULT_CHUNK,
                 parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.session = session
        self.sync_limit = int(sync_limit)
        self.chunk = int(chunk)
        self.analysis: TrajectoryAnalysis | None = None
        self._source = None  # (robot, trajectory) of self.analysis or of the running job
        self._generation = 0
        self._stop: threading.Event | None = None
        self._busy = False
        self._closed = False
        self._pool = QtCore.QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # one analysis at a time; a newer one cancels it
        self._signals = _JobSignals(self)
        self._signals.progress.connect(self._job_progress)
        self._signals.done.connect(self._job_done)
        self._signals.cancelled.connect(self._job_cancelled)
        self._signals.failed.connect(self._job_failed)
        self._pending = False
        self._subs = Subscriptions(self)
        for name in ("robot", "tool", "trajectory"):
            self._subs.connect(session.events[name], lambda _v: self.request())

    @property
    def busy(self) -> bool:
        """True while a worker-thread analysis is running."""
        return self._busy

    def request(self) -> None:
        """Recompute at the next turn of the event loop if the robot or trajectory changed."""
        if self._closed or self._pending:
            return
        self._pending = True
        QtCore.QTimer.singleShot(0, self._run_pending)

    def _run_pending(self) -> None:
        self._pending = False
        if not self._closed:
            self.run()

    def run(self, *, force: bool = False, synchronous: bool | None = None) -> None:
        """Start the analysis of the session's current trajectory now.

        Nothing happens when the result for the same robot and trajectory is already
        there (unless ``force``). ``synchronous`` overrides the ``sync_limit`` choice.
        """
        robot, traj = self.session.robot, self.session.trajectory
        if not force and self._source is not None and self._source[1] is traj \
                and self._source[0] == robot:
            return
        self._cancel_job()
        self._source = (robot, traj)
        self._generation += 1
        if traj is None:
            self.analysis = None
            self.finished.emit(None)
            return
        sync = (len(traj.t) <= self.sync_limit) if synchronous is None else synchronous
        kept = self.session.analysis
        if kept is not None:  # computed already (another runner, or before a re-request)
            self.analysis = kept
            self.finished.emit(kept)
            return
        if sync:
            try:
                result = self.session.compute_analysis(chunk=self.chunk)
            except Exception as exc:  # noqa: BLE001 - shown in the panels
                self._source = None
                self.failed.emit(f"{type(exc).__name__}: {exc}")
                return
            self.analysis = result
            self.finished.emit(result)
            return
        self._stop = threading.Event()
        self._busy = True
        self.started.emit()
        self._pool.start(_Job(self._generation, robot, traj, self._signals, self._stop,
                              self.chunk))

    def cancel(self) -> None:
        """Stop the running analysis (the panels keep what they showed)."""
        if self._busy:
            self._cancel_job()
            self._source = None  # a later request recomputes
            self._busy = False
            self.cancelled.emit()

    def _cancel_job(self) -> None:
        if self._stop is not None:
            self._stop.set()
            self._stop = None

    def wait(self, msecs: int = 5000) -> bool:
        """Block until the worker is idle (tests, shutdown); True when it is."""
        return self._pool.waitForDone(msecs)

    # -- results from the worker (GUI thread) ------------------------------------------------
    def _job_progress(self, gen: int, fraction: float) -> None:
        if gen == self._generation and self._busy:
            self.progress.emit(fraction)

    def _job_done(self, gen: int, result) -> None:
        if gen != self._generation or self._closed:
            return  # superseded by a newer request
        self._busy = False
        self._stop = None
        robot, traj = self._source
        self.session.set_analysis(robot, traj, result)
        self.analysis = result
        self.finished.emit(result)

    def _job_cancelled(self, gen: int) -> None:
        if gen == self._generation and self._busy:
            self._busy = False
            self._source = None
            self.cancelled.emit()

    def _job_failed(self, gen: int, message: str) -> None:
        if gen == self._generation and not self._closed:
            self._busy = False
            self._source = None
            self.failed.emit(message)

    def close(self) -> None:
        """Disconnect from the session, cancel the worker and wait for it (idempotent)."""
        self._closed = True
        self._subs.clear()
        self._cancel_job()
        self._busy = False
        self._pool.waitForDone(5000)
