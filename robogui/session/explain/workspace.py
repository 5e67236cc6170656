"""The reachable workspace: tool positions of many random joint states, with manipulability.

:func:`sample_workspace` draws ``m`` joint vectors uniformly within the joint limits
(``robot.random_q(m, seed)``), and runs the engine's batched ``fkine`` and ``jacob0`` on
chunks of them, so a GUI worker thread can report progress and stop between chunks.
The colour is the Yoshikawa manipulability over the task directions the arm controls
(:func:`robogui.session.teach.jog.task_mask`), so planar and SCARA arms are not all zero.

:func:`section_mask` picks the points near a plane (the movable section plane);
:func:`write_csv` saves the cloud. Everything is Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine

from .arm_axes import task_mask

__all__ = ["Workspace", "sample_workspace", "section_mask", "write_csv", "DEFAULT_SAMPLES"]

DEFAULT_SAMPLES = 100_000


@dataclass(frozen=True)
class Workspace:
    """A sampled workspace. ``points`` (m, 3) tool positions in the world frame (m);
    ``manipulability`` (m,) Yoshikawa over the task rows; ``seed`` and ``robot_name``
    say how to draw the same joint states again (``robot.random_q(m, seed)``)."""

    points: np.ndarray
    manipulability: np.ndarray
    seed: int
    robot_name: str

    def __len__(self) -> int:
        return len(self.points)

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Lower and upper corners (3,), (3,) of the cloud's bounding box."""
        return self.points.min(axis=0), self.points.max(axis=0)


def task_manipulability(robot, J: np.ndarray) -> np.ndarray:
    """Yoshikawa ``sqrt(det(Jt Jt^T))`` of the task rows ``Jt`` of J (m, 6, n) -> (m,)."""
    rows = np.flatnonzero(task_mask(robot))
    Jt = J[:, rows]
    k, n = Jt.shape[1:]
    if k == n:
        return np.abs(np.linalg.det(Jt))
    if k > n:
        return np.zeros(len(J))
    return np.sqrt(np.clip(np.linalg.det(Jt @ np.swapaxes(Jt, 1, 2)), 0.0, None))


def sample_workspace(robot, m: int = DEFAULT_SAMPLES, *, seed: int = 0, chunk: int = 25_000,
                     progress: Callable[[float], None] | None = None,
                     cancel: Callable[[], bool] | None = None) -> Workspace | None:
    """Sample ``m`` joint states of ``robot`` and return their tool positions and
    manipulability; None when ``cancel()`` turned true between chunks.

    ``progress(fraction)`` is called after each chunk of ``chunk`` states (0 < f <= 1).
    """
    m = int(m)
    if m < 1:
        raise ValueError(f"m (number of samples) must be at least 1, got {m}")
    if int(chunk) < 1:
        raise ValueError(f"chunk must be at least 1, got {chunk}")
    q = robot.random_q(m, seed=seed)
    points = np.empty((m, 3))
    w = np.empty(m)
    for a in range(0, m, int(chunk)):
        if cancel is not None and cancel():
            return None
        qc = q[a:a + int(chunk)]
        points[a:a + len(qc)] = fkine(robot, qc)[:, :3, 3]
        w[a:a + len(qc)] = task_manipulability(robot, jacob0(robot, qc))
        if progress is not None:
            progress(min(1.0, (a + len(qc)) / m))
    return Workspace(points, w, int(seed), robot.name)


def section_mask(points: np.ndarray, axis: int, offset: float, thickness: float) -> np.ndarray:
    """Points (m, 3) within ``thickness / 2`` of the plane ``x[axis] = offset``: (m,) bool."""
    if axis not in (0, 1, 2):
        raise ValueError(f"axis must be 0 (x), 1 (y) or 2 (z), got {axis!r}")
    if not thickness > 0:
        raise ValueError(f"thickness must be positive, got {thickness!r}")
    return np.abs(np.asarray(points)[:, axis] - float(offset)) <= thickness / 2


def write_csv(ws: Workspace, path: str | Path) -> Path:
    """Write ``x, y, z, manipulability`` rows (metres) with a header; returns the path."""
    path = Path(path)
    data = np.column_stack([ws.points, ws.manipulability])
    try:
        np.savetxt(path, data, delimiter=",", fmt="%.6g",
                   header=f"{ws.robot_name} workspace, seed {ws.seed}\nx_m,y_m,z_m,manipulability",
                   comments="# ")
    except OSError as exc:
        raise OSError(f"could not write the workspace CSV {path}: {exc.strerror or exc}") from exc
    return path
