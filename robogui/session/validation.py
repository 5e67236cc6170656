"""Checks a new robot or trajectory passes before it replaces the session's current one.

All-or-nothing changes (issue 14): what the first use of a robot computes (its frames,
its gravity torque, the generated dynamics code) is computed here first, so a robot that
would overflow anywhere is refused with a ValueError and the session keeps the old one.
"""

from __future__ import annotations

import numpy as np

from robogui.engine.bounds import robot_bound_problems
from robogui.engine.checks import as_float_array
from robogui.engine.kinematics import kinematics
from robogui.engine.model.robot import Robot

__all__ = ["validate_robot", "check_trajectory"]


def validate_robot(robot: Robot, q: np.ndarray) -> None:
    """Raise ValueError when ``robot`` has values beyond the bounds (docs/bounds.md) or
    its frames or gravity torque at ``q`` (n,) are not finite."""
    problems = robot_bound_problems(robot)
    if problems:
        raise ValueError(f"{robot.name!r}: {problems[0]}")
    with np.errstate(all="ignore"):
        frames = kinematics.fkine_all(robot, q)
    if not np.all(np.isfinite(frames)):
        raise ValueError(f"{robot.name!r}: the link frames at q overflow (not finite)")
    if robot.has_dynamics:
        from robogui.engine.dynamics.dynamics import gravload

        with np.errstate(all="ignore"):
            tau = np.asarray(gravload(robot, q), dtype=float)
        if not np.all(np.isfinite(tau)):
            raise ValueError(f"{robot.name!r}: the gravity torque at q overflows (not finite)")


def check_trajectory(trajectory, robot: Robot) -> None:
    """Raise ValueError unless ``trajectory`` has finite, non-decreasing ``t`` (k,) and
    finite ``q`` (k, n) for ``robot``'s n joints."""
    t = as_float_array(getattr(trajectory, "t", None), "trajectory.t")
    qt = as_float_array(getattr(trajectory, "q", None), "trajectory.q")
    if t.ndim != 1 or t.size < 1:
        raise ValueError(f"trajectory.t must have shape (k,), k >= 1, got {t.shape}")
    if qt.shape != (t.size, robot.n):
        raise ValueError(f"trajectory.q must have shape ({t.size}, {robot.n}), got {qt.shape}")
    if np.any(np.diff(t) < 0) or not np.all(np.isfinite(t)):
        raise ValueError("trajectory.t must be finite and non-decreasing")
    if not np.all(np.isfinite(qt)):
        raise ValueError("trajectory.q must be finite")
