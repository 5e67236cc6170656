"""Playback cursor over a precomputed trajectory: pure logic, no timer, no sleeping.

The app owns a Qt timer; on every tick it measures the elapsed wall-clock time with
``time.monotonic()`` and calls :meth:`Playback.advance`. The cursor moves by
``wall_dt * speed`` seconds of trajectory time, so playback runs at the right speed
whatever the frame rate. The Session wraps this class and fires its change events.

>>> import numpy as np
>>> class Traj:  # anything with t (k,), q (k, n) and sample(time) works
...     t = np.linspace(0.0, 2.0, 21); q = np.zeros((21, 1))
...     def sample(self, time): return np.zeros(1)
>>> pb = Playback(Traj(), speed=2.0)
>>> pb.play(); _ = pb.advance(0.5); pb.time
1.0
"""

from __future__ import annotations

import math

import numpy as np

from robogui.engine.checks import as_scalar as _finite_float

__all__ = ["Playback", "MIN_SPEED", "MAX_SPEED", "SPEED_PRESETS"]

MIN_SPEED = 0.1
MAX_SPEED = 10.0
#: speeds offered by the timeline's speed menu
SPEED_PRESETS = (0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class Playback:
    """A time cursor over a trajectory (anything with ``t`` (k,), ``q`` (k, n), ``sample(time)``).

    State: ``time`` (s, trajectory time, within ``[start, end]``), ``speed`` (0.1x-10x),
    ``loop`` and ``playing``. Every mutating method returns True when it changed the
    cursor time or the playing flag, so the owner knows whether to fire events.
    Without a trajectory the cursor sits at 0 and the methods do nothing.
    """

    def __init__(self, trajectory=None, speed: float = 1.0, loop: bool = False):
        self._traj = None
        self._t = np.zeros(1)
        self._time = 0.0
        self._speed = 1.0
        self._loop = bool(loop)
        self._playing = False
        self.speed = speed
        if trajectory is not None:
            self.set_trajectory(trajectory)

    # -- trajectory ------------------------------------------------------------
    @property
    def trajectory(self):
        return self._traj

    @property
    def has_trajectory(self) -> bool:
        return self._traj is not None

    def set_trajectory(self, trajectory) -> None:
        """Load a trajectory (or None); the cursor goes back to its start and stops."""
        if trajectory is None:
            self._traj, self._t = None, np.zeros(1)
        else:
            t = np.asarray(getattr(trajectory, "t", None), dtype=float)
            if t.ndim != 1 or t.size < 1 or not np.all(np.isfinite(t)):
                raise ValueError("trajectory.t must be a finite 1-D array of sample times")
            if np.any(np.diff(t) < 0):
                raise ValueError("trajectory.t must be non-decreasing")
            self._traj, self._t = trajectory, t
        self._time = float(self._t[0])
        self._playing = False

    @property
    def start(self) -> float:
        """Time of the first sample, s."""
        return float(self._t[0])

    @property
    def end(self) -> float:
        """Time of the last sample, s."""
        return float(self._t[-1])

    @property
    def duration(self) -> float:
        return self.end - self.start

    @property
    def n_samples(self) -> int:
        return 0 if self._traj is None else int(self._t.size)

    # -- state -----------------------------------------------------------------
    @property
    def time(self) -> float:
        """Cursor time in trajectory time, s."""
        return self._time

    @property
    def fraction(self) -> float:
        """Cursor position as a fraction 0..1 of the duration (0 for an empty one)."""
        d = self.duration
        return 0.0 if d <= 0 else (self._time - self.start) / d

    @property
    def speed(self) -> float:
        """Playback speed factor, clamped to [0.1, 10]."""
        return self._speed

    @speed.setter
    def speed(self, value) -> None:
        self._speed = min(MAX_SPEED, max(MIN_SPEED, _finite_float(value, "speed")))

    @property
    def loop(self) -> bool:
        return self._loop

    @loop.setter
    def loop(self, value: bool) -> None:
        self._loop = bool(value)

    @property
    def playing(self) -> bool:
        return self._playing

    @property
    def at_end(self) -> bool:
        return self._time >= self.end

    @property
    def index(self) -> int:
        """Index of the last sample at or before the cursor."""
        i = int(np.searchsorted(self._t, self._time + 1e-12, side="right")) - 1
        return min(max(i, 0), self._t.size - 1)

    # -- transport ---------------------------------------------------------------
    def play(self) -> bool:
        """Start playing; from the end of a finished (non-looping) run, restart at the start."""
        if self._traj is None or self.duration <= 0 or self._playing:
            return False
        if self.at_end:
            self._time = self.start
        self._playing = True
        return True

    def pause(self) -> bool:
        changed = self._playing
        self._playing = False
        return changed

    def toggle(self) -> bool:
        """Play/pause (the space bar)."""
        return self.pause() if self._playing else self.play()

    def stop(self) -> bool:
        """Stop and return to the start."""
        changed = self._playing or self._time != self.start
        self._playing = False
        self._time = self.start
        return changed

    def seek(self, time) -> bool:
        """Move the cursor to ``time`` (s), clamped into the trajectory; playing continues."""
        t = min(self.end, max(self.start, _finite_float(time, "time")))
        changed = t != self._time
        self._time = t
        return changed

    def seek_fraction(self, fraction) -> bool:
        """Move the cursor to a fraction 0..1 of the duration (the timeline slider)."""
        f = _finite_float(fraction, "fraction")
        return self.seek(self.start + f * self.duration)

    def step(self, direction: int = 1) -> bool:
        """Pause and move one sample forward (+1) or back (-1) (the arrow keys).

        From a sample, to the next (previous) one; from between two samples (after a
        scrub), past the next (previous) one to the sample after it, so every press moves
        by at least one sample interval (up to the ends of the trajectory).
        """
        if direction not in (1, -1):
            raise ValueError(f"direction must be +1 or -1, got {direction!r}")
        if self._traj is None:
            return False
        paused = self.pause()
        t, last = self._t, self._t.size - 1
        k = min(max(int(np.searchsorted(t, self._time, side="right")) - 1, 0), last)
        # on a sample: within a billionth of the interval around it (scrubbing rounds)
        span = float(t[min(k + 1, last)] - t[max(k - 1, 0)]) or 1.0
        if k < last and t[k + 1] - self._time <= 1e-9 * span:
            k += 1
        on_sample = abs(self._time - t[k]) <= 1e-9 * span
        if direction > 0:
            i = k + 1 if on_sample else k + 2
        else:
            i = k - 1
        i = min(max(i, 0), last)
        return self.seek(t[i]) or paused

    def advance(self, wall_dt) -> bool:
        """Move the cursor by ``wall_dt * speed`` (wall_dt in s, >= 0) when playing.

        At the end the cursor stops (playing becomes False) unless looping, when it
        wraps to the start and carries on. Returns True when the cursor moved.
        """
        dt = _finite_float(wall_dt, "wall_dt")
        if dt < 0:
            raise ValueError(f"wall_dt must not be negative, got {dt}")
        if not self._playing or self._traj is None:
            return False
        t = self._time + dt * self._speed
        if t >= self.end:
            if self._loop and self.duration > 0:
                t = self.start + math.fmod(t - self.start, self.duration)
            else:
                t = self.end
                self._playing = False
        changed = t != self._time
        self._time = t
        return changed or not self._playing

    # -- values ----------------------------------------------------------------
    def q_at_cursor(self) -> np.ndarray | None:
        """Joint vector (n,) at the cursor, interpolated by the trajectory; None when empty."""
        if self._traj is None:
            return None
        sample = getattr(self._traj, "sample", None)
        if sample is not None:
            return np.asarray(sample(self._time), dtype=float)
        q = np.asarray(self._traj.q, dtype=float)
        return np.array([np.interp(self._time, self._t, q[:, j]) for j in range(q.shape[1])])

    def __repr__(self) -> str:
        state = "playing" if self._playing else "paused"
        return (f"Playback(time={self._time:.3f}/{self.end:.3f} s, speed={self._speed:g}x, "
                f"{state}{', loop' if self._loop else ''})")
