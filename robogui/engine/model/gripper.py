"""A robot's gripper joints: moving joints off the arm's chain that open and close the
hand (the Panda's ``panda_finger_joint1``; a Robotiq's ``finger_joint``).

They are no arm joints (q never holds them, the kinematics and dynamics never see them);
geometry beyond them follows their value (``Visual.follow`` stages that name them), and
their followers (URDF ``<mimic>``) with them. The session holds their values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["GripperJoint", "check_gripper"]


@dataclass(frozen=True)
class GripperJoint:
    """One gripper joint: ``name`` (as in the file), ``revolute`` (else prismatic),
    ``lower`` <= ``upper`` its travel (rad or m), ``open`` which end opens the hand
    ("upper" or "lower")."""

    name: str
    revolute: bool
    lower: float
    upper: float
    open: str = "upper"

    def __post_init__(self):
        if not isinstance(self.name, str) or not 0 < len(self.name) <= 200:
            raise ValueError(f"gripper joint name must have 1..200 characters, got "
                             f"{self.name!r}")
        lo, hi = float(self.lower), float(self.upper)
        if not (np.isfinite(lo) and np.isfinite(hi) and lo <= hi):
            raise ValueError(f"gripper joint {self.name!r}: limits must be finite with "
                             f"lower <= upper, got ({self.lower}, {self.upper})")
        if self.open not in ("upper", "lower"):
            raise ValueError(f"gripper joint {self.name!r}: open must be 'upper' or "
                             f"'lower', got {self.open!r}")
        object.__setattr__(self, "lower", lo)
        object.__setattr__(self, "upper", hi)
        object.__setattr__(self, "revolute", bool(self.revolute))

    @property
    def rest(self) -> float:
        """The value the file's description is drawn at: 0 within the limits."""
        return float(np.clip(0.0, self.lower, self.upper))

    def at(self, opening: float) -> float:
        """The joint value at ``opening`` in [0, 1] (0 closed, 1 open)."""
        s = float(np.clip(opening, 0.0, 1.0))
        closed, opened = ((self.lower, self.upper) if self.open == "upper"
                          else (self.upper, self.lower))
        return closed + s * (opened - closed)

    def opening(self, value: float) -> float:
        """The inverse of :meth:`at`: the opening in [0, 1] of joint value ``value``."""
        span = self.upper - self.lower
        if span <= 0:
            return 0.0
        s = (float(value) - self.lower) / span
        return float(np.clip(s if self.open == "upper" else 1.0 - s, 0.0, 1.0))


def check_gripper(gripper) -> tuple[GripperJoint, ...]:
    """``gripper`` as a tuple of GripperJoint with distinct names (ValueError)."""
    out = tuple(gripper or ())
    for g in out:
        if not isinstance(g, GripperJoint):
            raise ValueError(f"gripper must hold GripperJoint items, got {type(g).__name__}")
    names = [g.name for g in out]
    if len(set(names)) != len(names):
        raise ValueError(f"gripper joint names must be distinct, got {names}")
    return out
