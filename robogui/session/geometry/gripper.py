"""The gripper's opening, Qt-free: one value in [0, 1] (0 closed, 1 open) that sets every
gripper joint of the robot (``Robot.gripper``) between its limits, so the fingers and
the mimic joints that follow them move together.

Gripper joints are no arm joints: q never holds them, kinematics, dynamics and programs
never see them. The view draws the geometry beyond them where their values put it
(``Visual.follow`` stages that name them). A new robot starts at its file's rest
(joint values 0 within the limits).
"""

from __future__ import annotations

import math

from ..observable import EventEmitter

__all__ = ["GripperState"]


class GripperState(EventEmitter):
    """The opening of ``session``'s gripper; fires ``opening`` (the new value) on a real
    change. Made once per session (``session.gripper``)."""

    EVENTS = ("opening",)

    def __init__(self, session):
        self._init_events(self.EVENTS)
        self._session = session
        self._robot = None
        self._opening = 0.0
        self._sync()
        session.events.robot.connect(lambda _r: self._sync())

    def _sync(self) -> None:
        robot = self._session.robot
        if robot is self._robot:
            return
        self._robot = robot
        joints = robot.gripper
        value = joints[0].opening(joints[0].rest) if joints else 0.0
        if value != self._opening:
            self._opening = value
            self._emit("opening", value)

    @property
    def joints(self) -> tuple:
        """The robot's gripper joints (:class:`~robogui.engine.model.gripper.GripperJoint`)."""
        self._sync()
        return self._robot.gripper

    @property
    def opening(self) -> float:
        """0 closed .. 1 open."""
        self._sync()
        return self._opening

    def set_opening(self, value: float) -> None:
        """Open the gripper to ``value`` in [0, 1] (clipped); ValueError for a value
        that is not a finite number or a robot without a gripper."""
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"gripper opening must be a number in [0, 1], got {value!r}"
                             ) from None
        if not math.isfinite(v):
            raise ValueError(f"gripper opening must be a finite number in [0, 1], got {v}")
        if not self.joints:
            raise ValueError(f"{self._robot.name!r} has no gripper joints")
        v = min(max(v, 0.0), 1.0)
        if abs(v - self._opening) <= 1e-12:
            return
        self._opening = v
        self._emit("opening", v)

    def values(self) -> dict[str, float]:
        """``{gripper joint name: value}`` (rad or m) at the current opening."""
        return {g.name: g.at(self.opening) for g in self.joints}

    def travel(self) -> float:
        """The first gripper joint's value now, in its own units (a Panda finger's
        opening in metres)."""
        j = self.joints
        return j[0].at(self.opening) if j else 0.0
