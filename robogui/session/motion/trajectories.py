"""Trajectories for the timeline: CSV files and a demo move (Qt-free).

* :func:`load_trajectory_csv` / :func:`export_trajectory_csv`: CSV with ``t, q, qd, qdd``
  (derivatives estimated when a file has none).
* :func:`demo_trajectory`: ``jtraj`` between two named poses of the robot.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from robogui.engine.trajectory.trajectory import Trajectory, jtraj
from robogui.engine.trajectory.trajectory_io import TrajectoryFileError

__all__ = ["load_trajectory_csv", "export_trajectory_csv", "demo_trajectory"]


def load_trajectory_csv(path, robot) -> Trajectory:
    """Read a CSV trajectory for ``robot`` (its joint count is checked).

    Raises only TrajectoryFileError (a ValueError naming file, line and column).
    """
    try:
        traj = Trajectory.from_csv(path, n=robot.n)
        if traj.q is None:
            raise TrajectoryFileError(f"{path}: the file has poses (T11..T34) but no joint "
                                      "columns q1..qn; the timeline plays joint trajectories")
        if traj.qd is None or traj.qdd is None:
            if len(traj) >= 2:
                traj = traj.with_derivatives()
    except TrajectoryFileError:
        raise
    except (ValueError, OverflowError, MemoryError) as exc:  # the container's own checks
        raise TrajectoryFileError(f"{path}: {exc}") from None
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
