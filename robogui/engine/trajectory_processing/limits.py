"""Joint motion limits of a robot: speed, acceleration and torque per joint, with defaults.

A robot file may give ``qd_max`` (rad/s or m/s) and ``qdd_max`` (rad/s^2 or m/s^2) per
link (URDF ``<limit velocity>``; the TOML fields of the same names; the D-H table). Where
it gives none the defaults below apply; they are documented in docs/robot-file-format.md.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "DEFAULT_QD_MAX_REVOLUTE",
    "DEFAULT_QD_MAX_PRISMATIC",
    "DEFAULT_ACCEL_PER_SPEED",
    "velocity_limits",
    "acceleration_limits",
    "torque_limits",
]

#: speed limit of a revolute joint when the robot gives none: 180 deg/s (rad/s)
DEFAULT_QD_MAX_REVOLUTE = math.radians(180.0)
#: speed limit of a prismatic joint when the robot gives none (m/s)
DEFAULT_QD_MAX_PRISMATIC = 0.5
#: acceleration limit when the robot gives none, per unit of the joint's speed limit
#: (1/s): the joint reaches full speed in 0.2 s (900 deg/s^2 for a 180 deg/s joint)
DEFAULT_ACCEL_PER_SPEED = 5.0


def _given(value) -> float | None:
    if value is None:
        return None
    x = float(value)
    return x if math.isfinite(x) and x > 0 else None


def velocity_limits(robot) -> np.ndarray:
    """Speed limit of each joint (n,), rad/s (revolute) or m/s (prismatic).

    A link's ``qd_max`` when given (> 0), otherwise 180 deg/s revolute, 0.5 m/s prismatic.
    """
    out = np.empty(robot.n)
    for j, L in enumerate(robot.links):
        given = _given(getattr(L, "qd_max", None))
        if given is None:
            given = DEFAULT_QD_MAX_REVOLUTE if L.joint == "R" else DEFAULT_QD_MAX_PRISMATIC
        out[j] = given
    return out


def acceleration_limits(robot) -> np.ndarray:
    """Acceleration limit of each joint (n,), rad/s^2 or m/s^2.

    A link's ``qdd_max`` when given (> 0), otherwise ``DEFAULT_ACCEL_PER_SPEED`` times its
    speed limit (full speed in 0.2 s).
    """
    vmax = velocity_limits(robot)
    out = np.empty(robot.n)
    for j, L in enumerate(robot.links):
        given = _given(getattr(L, "qdd_max", None))
        out[j] = DEFAULT_ACCEL_PER_SPEED * vmax[j] if given is None else given
    return out


def torque_limits(robot) -> np.ndarray | None:
    """Torque (force) limit of each joint (n,), N m or N, or None when a joint has none
    (torque-limited timing needs every joint's limit and the robot's dynamics)."""
    taus = [_given(getattr(L, "tau_max", None)) for L in robot.links]
    if any(t is None for t in taus):
        return None
    return np.array(taus, dtype=float)
