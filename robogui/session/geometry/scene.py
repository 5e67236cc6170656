"""Scene geometry the 3D view needs from a robot: annotation size and floor height.

Qt-free, so the view only places items with what this computes.
"""

from __future__ import annotations

from robogui.engine.kinematics import kinematics
from robogui.engine.model.robot import Robot

__all__ = ["scene_scale", "floor_height"]


def scene_scale(robot: Robot, mag: float = 1.0) -> float:
    """The r6 annotation size: ``mag = reach / 10`` times the user's factor, metres."""
    return robot.reach / 10.0 * mag


def floor_height(robot: Robot, samples: int = 256) -> float:
    """z of the floor: below the base and below every frame origin the arm can reach.

    Sampled over random configurations within the limits (batched, fixed seed), so
    the arm never goes through the floor and fixed-base arms stand on a pedestal.
    """
    q = robot.random_q(samples, seed=0)
    z = kinematics.fkine_all(robot, q)[..., 2, 3]
    low = min(float(z.min()), float(robot.base[2, 3]))
    return low - 0.5 * scene_scale(robot)
