"""What a video of a trajectory shows, frame by frame (Qt-free).

Video time and trajectory time: frame ``k`` is shown at video time ``k / fps`` and
shows the trajectory at ``t0 + k * speed / fps``. A trajectory of duration ``D`` s
gives ``floor(D * fps / speed) + 1`` frames, the last at (or just before) its end: a
6 s trajectory at 25 fps and speed 1 gives 151 frames, 6.04 s of video.

:func:`plan_video` computes, for all frames at once with the batched engine, the joint
vectors, every link frame (``fkine_all``) and, when asked, the joint torques (``rne``)
and the joint-limit tint of each frame. The app only draws them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from robogui.engine.kinematics import kinematics

__all__ = ["frame_times", "plan_video", "VideoPlan", "Overlays", "load_motion", "pose_at",
           "limit_states", "MAX_FRAMES"]

#: a video longer than this many frames is refused (a typo in --fps or --speed)
MAX_FRAMES = 100_000


def frame_times(t0: float, t1: float, fps: float = 30.0, speed: float = 1.0) -> np.ndarray:
    """Trajectory times (N,) s of the frames of a video of ``[t0, t1]``.

    ``fps`` frames per second of video; ``speed`` trajectory seconds per video second.
    Raises ValueError naming the bad value.
    """
    for name, v in (("fps", fps), ("speed", speed)):
        if not (isinstance(v, (int, float, np.floating)) and math.isfinite(v) and v > 0):
            raise ValueError(f"{name} must be a positive number, got {v!r}")
    if not (math.isfinite(t0) and math.isfinite(t1)) or t1 < t0:
        raise ValueError(f"the time span must be finite with t1 >= t0, got [{t0}, {t1}]")
    step = speed / fps  # trajectory seconds per frame
    count = math.floor((t1 - t0) / step + 1e-9) + 1
    if count > MAX_FRAMES:
        raise ValueError(f"{count} frames at {fps} fps and speed {speed} is too many "
                         f"(at most {MAX_FRAMES}); lower --fps or raise --speed")
    return t0 + step * np.arange(count)


@dataclass(frozen=True)
class Overlays:
    """Optional overlays: the trajectory ``time``, the joint values ``q`` and a
    ``torque`` bar per joint (|tau| over its limit, or over the largest |tau| of the
    video for joints without one), drawn over each frame; ``trail``: the whole tool path
    drawn in the scene, as the app's trail."""

    time: bool = False
    q: bool = False
    torque: bool = False
    trail: bool = False

    @property
    def any(self) -> bool:
        """Whether anything is written over the frames (the trail is in the scene)."""
        return self.time or self.q or self.torque


@dataclass(frozen=True, eq=False)
class VideoPlan:
    """Everything the frames show. N frames, n joints.

    ``times`` (N,) s trajectory time; ``q`` (N, n) rad/m; ``frames`` (N, n+1, 4, 4)
    from ``fkine_all``; ``limit_state`` (N, n) 0 inside, 1 near, 2 at a joint limit;
    ``tau`` (N, n) N m / N or None; ``tau_limit`` (n,) N m / N (NaN: none given) or None;
    ``fps`` frames per video second; ``speed`` trajectory seconds per video second.
    """

    times: np.ndarray
    q: np.ndarray
    frames: np.ndarray
    limit_state: np.ndarray
    tau: np.ndarray | None
    tau_limit: np.ndarray | None
    fps: float
    speed: float

    def __len__(self) -> int:
        return int(self.times.size)

    @property
    def points(self) -> np.ndarray:
        """All frame origins over the whole video (N * (n+1), 3): the camera keeps them in view."""
        return self.frames[:, :, :3, 3].reshape(-1, 3)


def _interp_rows(t: np.ndarray, ts: np.ndarray, values: np.ndarray) -> np.ndarray:
    # (k, n) samples at ts -> (N, n) at t; the loop runs over the n joints only
    return np.stack([np.interp(t, ts, values[:, j]) for j in range(values.shape[1])], axis=-1)


def plan_video(robot, trajectory, *, fps: float = 30.0, speed: float = 1.0,
               torque: bool = False) -> VideoPlan:
    """The frames of a video of ``trajectory`` (``t`` (k,), ``q`` (k, n)) for ``robot``.

    With ``torque``, ``tau`` is the inverse dynamics ``rne`` along the frames (velocities
    and accelerations from the trajectory, or estimated from ``q`` by finite differences)
    and ``tau_limit`` each joint's limit; a robot without dynamics gives ``tau = None``.
    """
    ts = np.asarray(trajectory.t, dtype=float)
    qs = np.asarray(trajectory.q, dtype=float)
    if ts.ndim != 1 or ts.size < 1 or qs.shape != (ts.size, robot.n):
        raise ValueError(f"the trajectory must have t (k,) and q (k, {robot.n}), "
                         f"got {ts.shape} and {qs.shape}")
    times = frame_times(float(ts[0]), float(ts[-1]), fps, speed)
    q = _interp_rows(times, ts, qs)
    frames = kinematics.fkine_all(robot, q).reshape(len(times), robot.n_bodies + 1, 4, 4)
    state = limit_states(robot, q)
    tau = tau_limit = None
    if torque and ts.size >= 2 and robot.has_dynamics:
        from robogui.engine.dynamics.dynamics import rne
        from robogui.session.motion.analysis import torque_limits

        qd_s = getattr(trajectory, "qd", None)
        qdd_s = getattr(trajectory, "qdd", None)
        qd_s = np.gradient(qs, ts, axis=0) if qd_s is None else np.asarray(qd_s, float)
        qdd_s = np.gradient(qd_s, ts, axis=0) if qdd_s is None else np.asarray(qdd_s, float)
        tau = np.asarray(rne(robot, q, _interp_rows(times, ts, qd_s),
                             _interp_rows(times, ts, qdd_s)), float).reshape(len(times), -1)
        tau_limit = torque_limits(robot)
    return VideoPlan(times, q, frames, state, tau, tau_limit, float(fps), float(speed))


def limit_states(robot, q: np.ndarray) -> np.ndarray:
    """Per frame and joint 0 inside, 1 near, 2 at a limit, as ``Session.limit_state``: (N, n)."""
    from .session import AT_LIMIT, NEAR_LIMIT

    lim = robot.qlim  # (n, 2)
    span = np.maximum(lim[:, 1] - lim[:, 0], 1e-12)
    m = np.minimum(q - lim[:, 0], lim[:, 1] - q) / span
    return np.where(m <= AT_LIMIT, 2, np.where(m <= NEAR_LIMIT, 1, 0)).astype(int)


def pose_at(trajectory, time: float) -> np.ndarray:
    """Joint vector (n,) of ``trajectory`` at ``time`` s (linear between samples).

    Raises ValueError when ``time`` is not finite or outside the trajectory.
    """
    ts = np.asarray(trajectory.t, dtype=float)
    qs = np.asarray(trajectory.q, dtype=float)
    t = float(time)
    if not math.isfinite(t) or t < ts[0] or t > ts[-1]:
        raise ValueError(f"time {time!r} s is outside the trajectory "
                         f"[{ts[0]:g}, {ts[-1]:g}] s")
    return _interp_rows(np.array([t]), ts, qs)[0]


def load_motion(robot, *, trajectory: str | Path | None = None,
                program: str | Path | None = None):
    """The trajectory to render: a CSV file, or a teach program compiled for ``robot``.

    Raises ValueError (with the file name) for a malformed file or a program that does
    not compile, OSError when a file cannot be read.
    """
    if (trajectory is None) == (program is None):
        raise ValueError("give either a trajectory CSV or a program, not both")
    if trajectory is not None:
        from .motion.trajectories import load_trajectory_csv

        return load_trajectory_csv(trajectory, robot)
    from .teach.compile import compile_program
    from .teach.program import ProgramError
    from .teach.program_file import load_program

    prog = load_program(program)
    try:
        compiled = compile_program(prog, robot)
    except ProgramError as exc:
        raise ValueError(f"{program}: {exc}") from None
    errors = [p for p in compiled.problems if p.severity == "error"]
    if errors or compiled.trajectory is None:
        what = errors[0].message if errors else "no trajectory"
        raise ValueError(f"{program}: the program does not compile: {what}")
    return compiled.trajectory
