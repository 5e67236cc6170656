"""Go-to targets for the teach pendant: a pose typed as xyz + rpy, solved by IK.

:func:`solve_target` returns every candidate configuration for a target pose: for 6-axis
arms with a spherical wrist or of UR type (read off the joint axes) the eight closed-form
branches of ``ikine_analytic_all`` (left/right, elbow up/down, wrist flip), otherwise one
numeric ``ikine`` solution seeded from the current configuration. The GUI shows the
candidates as ghost robots before anything moves; an unreachable target gives ``reachable ==
False`` and a sentence saying why.

Qt-free: the app only displays a :class:`TargetSolution` and calls ``session.set_q``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from robogui.engine.checks import as_transform, as_vector
from robogui.engine.kinematics.arm_family import arm_family
from robogui.engine.spatial.transforms import rpy2tr, tr2rpy

from ..explain.armconfig import config_of, describe_config
from .jog import task_mask

__all__ = ["TargetSolution", "pose_from_xyz_rpy", "xyz_rpy_from_pose", "solve_target",
           "solve_waypoint"]


def pose_from_xyz_rpy(xyz, rpy) -> np.ndarray:
    """Pose (4, 4) from a position ``xyz`` (3,) m and roll-pitch-yaw ``rpy`` (3,) rad (zyx)."""
    p = as_vector(xyz, 3, "xyz")
    T = rpy2tr(as_vector(rpy, 3, "rpy"))
    T[:3, 3] = p
    return T


def xyz_rpy_from_pose(T) -> tuple[np.ndarray, np.ndarray]:
    """Position (3,) m and roll-pitch-yaw (3,) rad of a pose (4, 4)."""
    T = as_transform(T, "T", stack=False)
    return T[:3, 3].copy(), np.asarray(tr2rpy(T), dtype=float)


@dataclass(frozen=True, eq=False)
class TargetSolution:
    """Candidate configurations for a target pose.

    ``T`` (4, 4) the target; ``q`` (k, n) candidates (k = 8 for the analytic
    branches, 1 otherwise); ``ok`` (k,) reachable and inside the joint limits;
    ``reachable`` (k,) the pose is reached (possibly outside the limits); ``labels``
    branch letters ("lun", ...) or "numeric"; ``reasons`` (k,) words for each
    candidate; ``chosen`` the index proposed to the user (None when none is ok);
    ``message`` one sentence for the status line.
    """

    T: np.ndarray
    q: np.ndarray
    ok: np.ndarray
    reachable: np.ndarray
    labels: tuple[str, ...]
    reasons: tuple[str, ...]
    chosen: int | None
    message: str
    analytic: bool = False

    @property
    def success(self) -> bool:
        """True when at least one candidate can be moved to."""
        return self.chosen is not None

    def describe(self, i: int) -> str:
        """``"left, elbow up, no flip"`` for an analytic branch, else the label."""
        lab = self.labels[i]
        return describe_config(lab) if self.analytic else lab


def _closest(q_all: np.ndarray, mask: np.ndarray, q_now: np.ndarray) -> int | None:
    idx = np.flatnonzero(mask)
    if idx.size == 0:
        return None
    d = np.abs(q_all[idx] - q_now).max(axis=1)
    return int(idx[int(np.argmin(d))])


def solve_target(robot, T, q_current) -> TargetSolution:
    """All IK candidates for pose ``T`` (4, 4) (base and tool included) from ``q_current`` (n,).

    Arms with a spherical wrist or of UR type: the eight closed-form branches
    (:func:`~robogui.engine.kinematics.ikine_branches.ikine_analytic_all`, the Puma's
    are ``ikine560``'s); the proposed one keeps the arm's
    current configuration letters when that branch is within the limits, otherwise
    the valid branch nearest to ``q_current``. Other arms: ``ikine`` seeded from
    ``q_current`` (masked to the directions the arm controls).
    """
    T = as_transform(T, "T", stack=False)
    q_now = as_vector(q_current, robot.n, "q_current")
    if robot.n == 6 and arm_family(robot) is not None:
        from robogui.engine.kinematics.ikine_branches import analytic_config, ikine_analytic_all

        res = ikine_analytic_all(robot, T)
        q_all = np.asarray(res.q, dtype=float)
        ok = np.asarray(res.success, dtype=bool)
        reasons = tuple(str(r) for r in res.reason)
        reach = np.array([not r.startswith("out of reach") for r in reasons])
        labels = tuple(res.config)
        current = analytic_config(robot, q_now)  # read as the branches' labels are
        chosen = labels.index(current) if ok[labels.index(current)] else _closest(
            q_all, ok, q_now)
        if chosen is not None:
            msg = (f"{int(ok.sum())} of 8 arm configurations reach the target within the "
                   f"joint limits; proposed: {describe_config(labels[chosen])}")
        elif reach.any():
            msg = ("The target is reachable only with joints outside their limits "
                   f"({reasons[int(np.flatnonzero(reach)[0])]}); nothing moves")
        else:
            msg = f"Unreachable target: {reasons[0]}; nothing moves"
        return TargetSolution(T, q_all, ok, reach, labels,
                              tuple("within limits" if o else r for o, r in
                                    zip(ok, reasons, strict=True)),
                              chosen, msg, analytic=True)
    from robogui.engine.kinematics.ikine import ikine

    mask = task_mask(robot).astype(float)
    res = ikine(robot, T, q0=q_now, mask=mask, slimit=20)
    ok = np.array([bool(res.success)])
    q = np.asarray(res.q, dtype=float).reshape(1, -1)
    if res.success:
        msg = "The target is reachable (numeric inverse kinematics)"
        return TargetSolution(T, q, ok, ok.copy(), ("numeric",), ("within limits",), 0, msg)
    why = str(res.reason)
    return TargetSolution(T, q, ok, ok.copy(), ("numeric",), (why,), None,
                          f"Unreachable target: {why}; nothing moves")


def solve_waypoint(robot, q) -> TargetSolution:
    """A waypoint as a target: its configuration is the only candidate (no IK needed)."""
    q = as_vector(q, robot.n, "q")
    inside = bool(np.all((q >= robot.qlim[:, 0] - 1e-9) & (q <= robot.qlim[:, 1] + 1e-9)))
    T = robot.fkine(q)
    label = config_of(robot, q) if robot.n == 6 and arm_family(robot) is not None else "waypoint"
    reason = "within limits" if inside else "outside the joint limits"
    msg = "Waypoint configuration" if inside else "The waypoint is outside the joint limits"
    return TargetSolution(T, q[None].copy(), np.array([inside]), np.array([True]), (label,),
                          (reason,), 0 if inside else None, msg)
