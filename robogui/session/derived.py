"""Quantities derived from the session's robot, joint vector and trajectory (frames,
Jacobian, manipulability, gravity torque, arm configuration, singularity, joint-limit
margins, the tool path and the trajectory analysis), each computed at most once per
change and cached until the next (collisions in the work cell: :mod:`.live_collisions`).

:class:`DerivedQuantities` is a mixin of :class:`~robogui.session.session.Session`: it
reads ``_robot``, ``_q``, ``_trajectory``, ``_cache``, ``_path_cache`` and ``_analysis``,
which the session owns and clears on every change.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from robogui.engine.kinematics import kinematics
from robogui.engine.model.robot import Robot

from .explain import armconfig

__all__ = ["DerivedQuantities", "NEAR_LIMIT", "AT_LIMIT"]

# a joint closer to a limit than this fraction of its range is "near" (amber)
NEAR_LIMIT = 0.05
# ... and closer than this fraction is "at" the limit (red)
AT_LIMIT = 1e-3


class DerivedQuantities:
    """Cached derived quantities of a :class:`~robogui.session.session.Session`."""

    def _derived(self, key: str, compute: Callable[[], Any]) -> Any:
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = compute()
            return value

    @property
    def frames(self) -> np.ndarray:
        """Base and link frames, ``fkine_all``: (n+1, 4, 4); the last has the tool."""
        return self._derived("frames", lambda: kinematics.fkine_all(self._robot, self._q))

    @property
    def trajectory_path(self) -> np.ndarray:
        """Tool-centre-point positions (k, 3) along the trajectory, base and tool included;
        (0, 3) without one. One batched ``fkine`` per trajectory, robot or tool."""
        traj, robot = self._trajectory, self._robot
        c = self._path_cache
        if c is None or c[0] is not traj or c[1] is not robot:
            q = None if traj is None else getattr(traj, "q", None)
            if q is None or len(q) == 0:
                path = np.zeros((0, 3))
            else:
                path = kinematics.fkine(robot, np.asarray(q, float))[:, :3, 3]
            path.setflags(write=False)
            self._path_cache = c = (traj, robot, path)
        return c[2]

    @property
    def analysis(self):
        """Torques (with their parts) and manipulability along the trajectory, a
        :class:`~robogui.session.motion.analysis.TrajectoryAnalysis`, once computed for the current
        trajectory, robot and tool; else None. See :meth:`compute_analysis`."""
        a = self._analysis
        if a is not None and a[0] is self._robot and a[1] is self._trajectory:
            return a[2]
        return None

    def compute_analysis(self, *, chunk: int | None = None, progress=None, cancel=None):
        """Analyse the current trajectory (batched, ``chunk`` samples at a time) unless
        already done, keep and return the result; None without a trajectory or when
        ``cancel()`` stopped it. ``progress(fraction)`` follows the chunks."""
        if self.analysis is not None or self._trajectory is None:
            return self.analysis
        from .motion.analysis import DEFAULT_CHUNK, TrajectoryAnalysis

        robot, traj = self._robot, self._trajectory
        result = TrajectoryAnalysis.compute(robot, traj, chunk=chunk or DEFAULT_CHUNK,
                                            progress=progress, cancel=cancel)
        if result is not None:
            self.set_analysis(robot, traj, result)
        return result

    def set_analysis(self, robot: Robot, trajectory, result) -> bool:
        """Keep ``result``, computed elsewhere (a worker thread) for ``robot`` and
        ``trajectory``, if they are still the current ones; fires ``analysis``. True when
        kept, False when the session has moved on (the result is dropped)."""
        if robot is not self._robot or trajectory is not self._trajectory:
            return False
        self._analysis = (robot, trajectory, result)
        self._emit("analysis", result)
        return True

    @property
    def T(self) -> np.ndarray:
        """End-effector pose (4, 4), base and tool included."""
        return self.frames[-1]

    @property
    def jacobian(self) -> np.ndarray:
        """Jacobian in the base frame, ``jacob0``: (6, n), rows vx vy vz wx wy wz."""
        def compute():
            from robogui.engine.kinematics.jacobians import jacob0

            return jacob0(self._robot, self._q)

        return self._derived("jacobian", compute)

    @property
    def manipulability(self) -> float:
        """Yoshikawa manipulability ``sqrt(det(J J^T))`` over the task directions the arm
        controls (all six for a 6-joint arm), as the plots show it."""
        measures = self._cache.get("manipulability_measures")
        if measures is not None:
            return measures["yoshikawa"]

        def compute():  # Yoshikawa alone: no inertia matrix per playback frame
            from .motion.analysis import manipulability_measures

            w = manipulability_measures(self._robot, self._q[None], J=self.jacobian[None],
                                        asada=False)
            return float(w["yoshikawa"][0])

        return self._derived("manipulability", compute)

    @property
    def manipulability_measures(self) -> dict[str, float | None]:
        """Yoshikawa, inverse condition number and Asada at ``q`` (floats), as the plots
        show them; Asada is None without dynamics and NaN where M is singular."""
        def compute():
            from .motion.analysis import manipulability_measures

            w = manipulability_measures(self._robot, self._q[None], J=self.jacobian[None],
                                        asada=self._robot.has_dynamics)
            return {k: (None if v is None else float(v[0])) for k, v in w.items()}

        return self._derived("manipulability_measures", compute)

    @property
    def gravity_torque(self) -> np.ndarray | None:
        """Joint torques that hold the arm against gravity, ``gravload``: (n,), or None
        for a robot without dynamic parameters."""
        def compute():
            if not self._robot.has_dynamics:
                return None
            from robogui.engine.dynamics.dynamics import gravload

            return np.asarray(gravload(self._robot, self._q), dtype=float)

        return self._derived("gravity_torque", compute)

    @property
    def is_puma_like(self) -> bool:
        """True when the arm configuration letters (l/r, u/d, n/f) apply."""
        return self._derived("puma_like", lambda: armconfig.is_puma_like(self._robot))

    @property
    def arm_config(self) -> str | None:
        """r6 configuration letters, e.g. ``"lun"``, for 6-axis arms with a spherical wrist
        (:func:`~robogui.session.explain.armconfig.config_of`); else None."""
        return self._derived(
            "arm_config", lambda: armconfig.config_of(self._robot, self._q, self.frames))

    @property
    def abb_conf(self) -> tuple[int, int, int, int] | None:
        """ABB ``confdata`` (cf1, cf4, cf6, cfx) for 6-axis arms with a spherical wrist
        (:func:`~robogui.session.explain.armconfig.abb_conf`); else None."""
        return self._derived("abb_conf", lambda: armconfig.abb_conf(self._robot, self._q))

    @property
    def singularity(self):
        """What the SVD of the Jacobian says here
        (:class:`~robogui.session.explain.singularity.SingularityExplanation`), cached per
        change."""
        from .explain.singularity import explain_singularity

        return self._derived("singularity",
                             lambda: explain_singularity(self._robot, self._q, self.jacobian))

    @property
    def limit_margin(self) -> np.ndarray:
        """Distance of each joint to its nearest limit as a fraction of its range: (n,).

        Negative when a joint is beyond a limit.
        """
        def compute():
            lim = self._robot.qlim
            span = np.maximum(lim[:, 1] - lim[:, 0], 1e-12)
            return np.minimum(self._q - lim[:, 0], lim[:, 1] - self._q) / span

        return self._derived("limit_margin", compute)

    @property
    def limit_state(self) -> np.ndarray:
        """Per joint 0 inside, 1 near a limit (amber), 2 at or beyond a limit (red): (n,) int."""
        m = self.limit_margin
        return np.where(m <= AT_LIMIT, 2, np.where(m <= NEAR_LIMIT, 1, 0))
