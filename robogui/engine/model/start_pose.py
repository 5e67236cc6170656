"""The pose a robot opens in, one rule for every format, always inside its joint limits.

In order: the robot's ready pose ``qr`` (the library's robots); a start pose its file
names: ``ready``, ``home`` or ``default`` in any case (an SRDF's ``<group_state>``, an MJCF
``<keyframe>``; see :func:`robogui.io.mjcf.mjcf.load_mjcf`); ``qz`` when the robot's own
file wrote one; else the zero pose brought into the limits. A joint whose range does not
contain zero starts at the *middle* of its range, not at the bound nearest zero: a joint
parked on its stop lights the at-limit warning from the start and refuses every jog one
way, and for the arms that have such ranges the middle is the maker's upright pose
(robosuite's Jaco: joints 2, 4 and 6 range over about [0.5, 5.8] rad around pi, the arm
straight up). A range open on one side starts at its finite bound. A named pose that lies
outside the limits (a file's rounding) is clipped into them.

The readers' own ``qz`` is the zero pose clipped to the nearest bound ("as near zero as
the limits allow"); it is recognised here and replaced by the rule above.
"""

from __future__ import annotations

import numpy as np

__all__ = ["START_POSE_NAMES", "zero_in_limits", "start_q"]

#: names of a start pose in a robot's files (SRDF group states, MJCF keyframes), in the
#: order they are looked for
START_POSE_NAMES = ("ready", "home", "default")


def zero_in_limits(qlim) -> np.ndarray:
    """The zero pose (n,) inside the limits ``qlim`` (n, 2) (rad or m): 0 where the range
    holds it; the middle of a finite range that does not; the finite bound of a range
    open on one side."""
    lim = np.asarray(qlim, dtype=float).reshape(-1, 2)
    lo, hi = lim[:, 0], lim[:, 1]
    q = np.zeros(len(lim))
    outside = (lo > 0) | (hi < 0)
    both = np.isfinite(lo) & np.isfinite(hi)
    edge = np.where(lo > 0, lo, hi)
    mid = np.where(both, 0.5 * (np.where(both, lo, 0) + np.where(both, hi, 0)), edge)
    return np.where(outside, mid, q)


def start_q(robot) -> np.ndarray:
    """The joint values (n,) ``robot`` opens in (the module's rule), inside its limits."""
    poses = {name.lower(): name for name in robot.poses}
    for name in ("qr", *START_POSE_NAMES):
        if name in poses:
            return robot.clip_q(robot.pose(poses[name]))
    zero = zero_in_limits(robot.qlim)
    if "qz" in poses:
        qz = np.asarray(robot.pose(poses["qz"]), dtype=float)
        if not np.allclose(qz, robot.clip_q(np.zeros(robot.n)), rtol=0, atol=1e-12):
            return robot.clip_q(qz)  # a qz the file chose, not zero pushed onto a stop
    return zero
