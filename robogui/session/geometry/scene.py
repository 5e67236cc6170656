"""Scene geometry the 3D view needs from a robot: annotation size and floor height.

Qt-free, so the view only places items with what this computes.
"""

from __future__ import annotations

from robogui.engine.kinematics import kinematics
from robogui.engine.model.robot import Robot

__all__ = ["scene_scale", "floor_height", "stands_on_base", "reaches_below_floor"]


def scene_scale(robot: Robot, mag: float = 1.0) -> float:
    """The r6 annotation size: ``mag = reach / 10`` times the user's factor, metres."""
    return robot.reach / 10.0 * mag


def stands_on_base(robot: Robot) -> bool:
    """True for a robot drawn from its maker's geometry (URDF, MJCF: it has visuals): its
    root link is where it is mounted, so it stands on the floor there, as mounted."""
    return bool(robot.visuals)


def reaches_below_floor(robot: Robot, samples: int = 256) -> bool:
    """True when a frame origin the arm can reach lies below :func:`floor_height` (the
    view then draws a faint floor, so that reach stays visible)."""
    q = robot.random_q(samples, seed=0)
    z = kinematics.fkine_all(robot, q)[..., 2, 3]
    return bool(z.min() < floor_height(robot, samples) - 1e-9)


def floor_height(robot: Robot, samples: int = 256) -> float:
    """z of the floor (m).

    A robot with its maker's geometry (:func:`stands_on_base`) stands on the floor at its
    base. A D-H robot, whose base frame is wherever its D-H parameters start (the Puma's
    at the shoulder), gets a floor below the base and below every frame origin it can
    reach, sampled over random configurations within the limits (batched, fixed seed),
    and stands on a pedestal.
    """
    if stands_on_base(robot):
        return float(robot.base[2, 3])
    q = robot.random_q(samples, seed=0)
    z = kinematics.fkine_all(robot, q)[..., 2, 3]
    low = min(float(z.min()), float(robot.base[2, 3]))
    return low - 0.5 * scene_scale(robot)
