"""Collisions of the session's robot in its work cell, live (issue 24): the report of the
current q, the clearance, the links in contact, the guard of the next step, and the
clearance along the trajectory, each computed at most once per change.

:class:`LiveCollisions` is a mixin of :class:`~robogui.session.session.Session` (beside
:class:`~robogui.session.derived.DerivedQuantities`, whose ``_derived`` cache it uses): it
reads ``_robot``, ``_q``, ``_cell``, ``_trajectory``, ``display`` and
``stop_before_contact``, and keeps ``_world_cache``, ``_clearance_cache`` and
``_checked_ahead``, which the session owns. The checks themselves are
:mod:`robogui.session.planning_scene.live`'s.
"""

from __future__ import annotations

import numpy as np

from .planning_scene import live

__all__ = ["LiveCollisions"]


class LiveCollisions:
    """Live collision state of a :class:`~robogui.session.session.Session`."""

    @property
    def collision_world(self):
        """The robot's collision world in the current cell (self-collisions included, and the
        part the gripper holds: ``session.held``), built once per robot, tool, cell and held
        part and kept by identity; None when the robot has no
        collision geometry, it cannot be built, or it is too big to check on every frame
        (``collision_error`` says why)."""
        robot, cell, held = self._robot, self._cell, getattr(self, "_held", None)
        c = self._world_cache
        if c is None or c[0] is not robot or c[1] is not cell or c[4] is not held:
            from .planning_scene.collisions import collision_world

            world, error = None, None
            try:
                if robot.n_bodies > live.MAX_LIVE_BODIES:  # its pairs alone take seconds
                    error = (f"live collision checks are off for robots of more than "
                             f"{live.MAX_LIVE_BODIES} links ({robot.name} has "
                             f"{robot.n_bodies}); check programs with robogui check")
                elif held is not None and cell is not None and held.name in cell.names:
                    # the part rides on the tip link; what it stood on is not checked
                    # against it while it is held (as along programs, planning_scene.carrying)
                    from .planning_scene.carrying import holding_world

                    world = holding_world(robot, cell, held.name, held.offset,
                                          exclude=held.lifted_from)
                    error = live.too_many_pairs(world)
                else:
                    world = collision_world(robot, cell)
                    error = live.too_many_pairs(world)
                    if error is not None or not world.geometry.pieces:
                        world = None
            except ValueError as exc:  # a collision mesh that cannot be read
                error = str(exc)
            self._world_cache = c = (robot, cell, world, error, held)
        return c[2]

    @property
    def collision_error(self) -> str | None:
        """Why the collision world could not be built (a collision mesh file), or None."""
        self.collision_world  # noqa: B018  (builds it)
        return self._world_cache[3]

    @property
    def pairs_allowed_at_start(self) -> tuple[tuple[str, str], ...]:
        """Link pairs of the robot file's collision geometry that are not checked because
        they touch in the pose the robot opens in and its SRDF lists no disabled pairs
        (MoveIt's setup assistant's "Default" rule; ``RobotGeometry.allowed_at_start``)."""
        world = self.collision_world
        return () if world is None else world.geometry.allowed_at_start

    @property
    def collisions(self):
        """The :class:`~robogui.engine.collision_detection.checker.CollisionReport` of the
        current q in the current cell (the robot alone without a cell: self-collisions), as
        ``check_collisions`` gives it for q of shape (1, n): ``colliding`` (1,) bool,
        ``distance`` (1,) the smallest signed distance (m, negative = depth), ``pairs[0]``
        the pairs in contact (link names, object names, "floor"), ``depths[0]``,
        ``nearest[0]`` the nearest pair. None when the robot has no collision geometry.
        Once per change of q, robot, tool or cell."""
        def compute():
            rep = self._live_report
            return None if rep is None else live.as_batch(rep)

        return self._derived("collisions", compute)

    @property
    def _live_report(self):
        """The single-state report of the current q (plain values), or None."""
        def compute():
            world = self.collision_world
            if world is None:
                return None
            ahead = self._checked_ahead  # check_step's report of the state it let through
            if ahead is not None and ahead[0] is world and np.array_equal(ahead[1], self._q):
                rep = ahead[2]
            else:  # helped by the previous state's report (pairs far apart stay settled)
                prev = ahead if ahead is not None and ahead[0] is world else (None, None, None)
                rep = live.check_near(world, self._q, prev[1], prev[2])
            self._checked_ahead = (world, self._q, rep)
            return rep

        return self._derived("live_report", compute)

    @property
    def clearance(self) -> tuple[tuple[str, str] | None, float] | None:
        """(nearest pair ``(name_a, name_b)``, signed distance m) of the current q for the
        pose panel; None without collision geometry. The distance is negative in contact
        (the penetration depth) and inf with nothing to check."""
        rep = self._live_report
        return None if rep is None else (rep.nearest, float(rep.distance))

    @property
    def contact_frames(self) -> frozenset[int]:
        """The ``fkine_all`` frames of the links in contact now (the 3D view turns their
        parts red); empty when nothing touches."""
        def compute():
            rep, world = self._live_report, self.collision_world
            if rep is None or not rep.colliding:
                return frozenset()
            names = self._cell.names if self._cell is not None else ()
            return live.contact_frames(world, rep.pairs, names)

        return self._derived("contact_frames", compute)

    def check_step(self, q_new) -> live.StepCheck:
        """May the robot move from the current q to ``q_new`` (n,) without a contact? The
        guard of jogs and handle drags (``stop_before_contact``): checked continuously (no
        link point moves more than 2 mm between checks). Returns a
        :class:`~robogui.session.planning_scene.live.StepCheck` with where the motion may go
        and the reason in words in the display's length unit; always clear when
        ``stop_before_contact`` is off or the robot has no collision geometry."""
        q_new = self._check_q(q_new)
        world = self.collision_world
        if not self.stop_before_contact or world is None:
            return live.StepCheck(q_new, False)
        names = self._cell.names if self._cell is not None else ()
        check = live.check_step(world, self._q, q_new, self._live_report, object_names=names,
                                length_unit=self.display.length_unit)
        if check.report is not None:  # the collisions of q_new, when the robot moves there
            self._checked_ahead = (world, check.q, check.report)
        return check

    @property
    def trajectory_clearance(self):
        """The smallest signed distance along the current trajectory
        (:class:`~robogui.session.planning_scene.live.ClearanceCurve`), once per trajectory,
        robot, tool and cell; None without a trajectory or collision geometry."""
        traj, world = self._trajectory, self.collision_world
        c = self._clearance_cache
        if c is None or c[0] is not traj or c[1] is not world:
            curve = None
            q = None if traj is None else getattr(traj, "q", None)
            if q is not None and world is not None and len(traj.t) \
                    and np.shape(q)[1:] == (self._robot.n,):
                curve = live.clearance_along(world, traj.t, q)
            self._clearance_cache = c = (traj, world, curve)
        return c[2]
