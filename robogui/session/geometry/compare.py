"""Several robots in one view: companions drawn beside or over the session's robot.

A companion is a robot (another arm, or the session's own robot) in a pose: a second
configuration of the same arm drawn over the first (a snapshot of a pose, to compare two
poses), or a second arm standing beside or over the first (to compare two arms). A
companion with the same number of joints can *follow* the session's q, so both arms
move together. Qt-free: :class:`Comparison` holds the companions and computes their link
frames (one batched ``fkine_all`` per companion and change); the app draws them.

Events: ``changed`` (value: the list of companions) when companions are added or removed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robogui.engine.kinematics.kinematics import fkine_all
from robogui.engine.model.robot import Robot

from ..observable import EventEmitter

__all__ = ["Companion", "Comparison", "PLACEMENTS", "COMPANION_COLORS", "MAX_COMPANIONS"]

PLACEMENTS = ("over", "beside")
COMPANION_COLORS = ("#ff9f43", "#a78bfa", "#34d399", "#f472b6")
MAX_COMPANIONS = 4


@dataclass(frozen=True, eq=False)
class Companion:
    """``robot`` (its base already placed), ``q`` its pose (n,), or None to follow the
    session's q; ``label`` shown in the menu; ``color`` a "#rrggbb" colour."""

    robot: Robot
    q: np.ndarray | None
    label: str
    color: str

    def pose(self, session_q: np.ndarray) -> np.ndarray:
        if self.q is None and np.size(session_q) == self.robot.n:
            return np.asarray(session_q, dtype=float)
        return self.q if self.q is not None else _rest_pose(self.robot)


def _rest_pose(robot: Robot) -> np.ndarray:
    for name in ("qr", "qz"):
        if name in robot.poses:
            return robot.pose(name)
    return np.zeros(robot.n)


class Comparison(EventEmitter):
    """The companions of ``session`` (see the module text)."""

    EVENTS = ("changed",)

    def __init__(self, session):
        self._init_events(self.EVENTS)
        self.session = session
        self.companions: list[Companion] = []

    def _color(self) -> str:
        used = {c.color for c in self.companions}
        return next((c for c in COMPANION_COLORS if c not in used), COMPANION_COLORS[0])

    def _add(self, comp: Companion) -> Companion:
        if len(self.companions) >= MAX_COMPANIONS:
            raise ValueError(f"at most {MAX_COMPANIONS} robots are shown beside the first; "
                             "remove one first")
        self.companions = self.companions + [comp]
        self._emit("changed", list(self.companions))
        return comp

    def add_pose(self, q=None, label: str | None = None) -> Companion:
        """The session's robot at ``q`` (default: the current q), drawn over it: a second
        configuration to compare with the poses that follow."""
        robot = self.session.robot
        qq = np.array(self.session.q if q is None else q, dtype=float).reshape(-1)
        if qq.size != robot.n or not np.all(np.isfinite(qq)):
            raise ValueError(f"q must be {robot.n} finite joint values, got {q!r}")
        qq.setflags(write=False)
        text = label or "pose [" + ", ".join(f"{v:.3g}" for v in qq) + "]"
        return self._add(Companion(robot, qq, text, self._color()))

    def add_robot(self, robot: Robot, placement: str = "beside", follow: bool = True,
                  q=None, gap: float | None = None) -> Companion:
        """Another robot in the view. ``placement``: "beside" (its base moved along the
        world y axis by ``gap``, default the two arms' reach: they do not collide) or
        "over" (where its file puts it, on the same world origin as the session's robot).
        ``follow``: move with the session's q when the joint counts match; otherwise ``q``
        (default its ready pose qr or qz)."""
        if not isinstance(robot, Robot):
            raise ValueError(f"robot must be a Robot, got {type(robot).__name__}")
        if placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")
        own = self.session.robot
        P = np.eye(4)  # "over": both robots where their files put them (same world origin)
        if placement == "beside":
            d = (own.reach + robot.reach) if gap is None else float(gap)
            if not np.isfinite(d):
                raise ValueError(f"gap must be finite, got {gap!r}")
            P[1, 3] = d
        base = P @ np.asarray(robot.base, dtype=float)
        placed = robot.with_base(base)
        qq = None
        if q is not None or not follow or robot.n != own.n:
            qq = _rest_pose(robot) if q is None else np.array(q, dtype=float).reshape(-1)
            if qq.size != robot.n or not np.all(np.isfinite(qq)):
                raise ValueError(f"q must be {robot.n} finite joint values, got {q!r}")
            qq.setflags(write=False)
        label = f"{robot.name} ({placement})"
        return self._add(Companion(placed, qq, label, self._color()))

    def remove(self, index: int) -> None:
        if not 0 <= index < len(self.companions):
            raise ValueError(f"no companion {index} (there are {len(self.companions)})")
        self.companions = self.companions[:index] + self.companions[index + 1:]
        self._emit("changed", list(self.companions))

    def clear(self) -> None:
        if self.companions:
            self.companions = []
            self._emit("changed", [])

    def frames(self) -> list[np.ndarray]:
        """Link frames (n_k + 1, 4, 4) of every companion at its pose (``fkine_all``)."""
        q = np.asarray(self.session.q, dtype=float)
        return [fkine_all(c.robot, c.pose(q)) for c in self.companions]

