"""The live link: Follow joint states streamed from outside, and Record them to a trajectory.

A real controller's bridge (docs/remote-api.md) sends ``stream_q`` messages; while
:attr:`LiveLink.following` the robot on screen takes each one as a drag in progress
(``set_q(q, changing=True)``: frames only, no undo step per sample) and one complete
change when Follow stops, so the undo stack gets one step for a whole stream.
While :attr:`LiveLink.recording`, every sample followed is kept with its time and
:meth:`LiveLink.save_csv` writes them as a trajectory CSV the timeline can load. The
teach pendant's "Record waypoint" takes the session's q, which is the live pose while
following.

Events (each with a bool): ``follow`` (Follow switched), ``record`` (Record switched).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from robogui.engine.checks import as_vector
from robogui.engine.trajectory.trajectory import Trajectory

from ..observable import EventEmitter

__all__ = ["LiveLink", "MAX_RECORDED_SAMPLES"]

# one hour at 250 Hz; beyond that recording stops instead of exhausting memory
MAX_RECORDED_SAMPLES = 900_000


class LiveLink(EventEmitter):
    """Follow mode and the recorder for one session. ``clock`` gives seconds (monotonic)."""

    EVENTS = ("follow", "record")

    def __init__(self, session, *, clock=time.monotonic):
        self._init_events(self.EVENTS)
        self.session = session
        self._clock = clock
        self.following = False
        self.recording = False
        self.received = 0  # samples followed since Follow was switched on
        self._t: list[float] = []
        self._q: list[np.ndarray] = []
        self._t0: float | None = None

    # -- follow --------------------------------------------------------------------------
    def set_follow(self, on: bool) -> None:
        """Switch Follow; switching it off ends the stream's change (one undo step)."""
        on = bool(on)
        if on == self.following:
            return
        self.following = on
        self.received = 0
        if on:
            self.session.pause()  # the stream moves the robot, not the playhead
        else:
            self.session.finish_change()
            self.set_record(False)
        self._emit("follow", on)

    def feed(self, q, t: float | None = None, *, show: bool = True) -> None:
        """Show one streamed joint vector (n,) rad/m; ``t`` (s) is the sender's time stamp
        (default: the arrival time). ``show=False`` checks and records the sample without
        moving the robot (a newer sample arrived with it). ValueError for a wrong size or
        a non-finite value, RuntimeError when not following; the state is unchanged then."""
        if not self.following:
            raise RuntimeError("the app is not following live joint states: switch Follow "
                               "on (Live > Follow, or the follow request) first")
        robot = self.session.robot
        q = as_vector(q, robot.n, "q")  # size and values checked before anything changes
        if show:
            self.session.set_q(q, changing=True)
        self.received += 1
        if self.recording:
            self._keep(q, t)

    # -- record --------------------------------------------------------------------------
    def set_record(self, on: bool) -> None:
        """Start (clearing the previous recording) or stop recording the followed samples."""
        on = bool(on)
        if on == self.recording:
            return
        if on:
            self._t, self._q, self._t0 = [], [], None
        self.recording = on
        self._emit("record", on)

    @property
    def sample_count(self) -> int:
        return len(self._t)

    def _keep(self, q: np.ndarray, t: float | None) -> None:
        stamp = float(self._clock() if t is None else t)
        if self._t0 is None:
            self._t0 = stamp
        rel = stamp - self._t0
        if self._t and rel <= self._t[-1]:
            return  # a repeated or out-of-order time stamp: a trajectory's t must increase
        if len(self._t) >= MAX_RECORDED_SAMPLES:
            self.set_record(False)
            return
        self._t.append(rel)
        self._q.append(np.array(q, dtype=float))

    def trajectory(self) -> Trajectory:
        """The recording as a Trajectory: t (k,) s from the first sample, q (k, n)."""
        if not self._t:
            raise ValueError("nothing was recorded: switch Record on while following")
        return Trajectory(np.array(self._t), np.array(self._q), name="live recording")

    def save_csv(self, path) -> Path:
        """Write the recording as a trajectory CSV (atomically); returns the path."""
        path = Path(path)
        self.trajectory().to_csv(path)
        return path
