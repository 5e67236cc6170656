"""The Qt-free application state: robot, joint vector, tool, trajectory, playhead, display.

Widgets observe a :class:`Session` through ``session.events`` and change it only
through its methods. Derived quantities (frames, Jacobian, manipulability, gravity
torque, arm configuration, joint-limit margins) are computed here, at most once per
change, and cached until the next change. Quantities along the trajectory (the tool
path, and the torques and manipulability of :attr:`Session.analysis`) are kept once per
trajectory, robot and tool.

Events (each called with one argument):

========== ==================================================================
robot      a different robot was loaded (rebuild everything); value: Robot
tool       the tool transform changed (same robot otherwise); value: (4, 4)
q          the joint vector changed, while dragging or not; value: (n,)
frames     link frames changed (after robot, tool or q); value: (n+1, 4, 4)
trajectory a trajectory was set or cleared; value: the trajectory or None
time       the playhead moved; value: float seconds
changed    a change is complete ("released"): heavy updates may run; value: q
playing    playback started or stopped; value: bool
speed      playback speed or loop changed; value: (speed, loop)
analysis   the trajectory's analysis is ready; value: TrajectoryAnalysis
cell       the work cell was replaced (objects, base, floor); value: Cell or None
held       the gripper took or let go of a part; value: HeldPart or None
========== ==================================================================

Dragging a slider calls ``set_q(q, changing=True)`` repeatedly ("changing": only the
frames are computed, for the 3D view) and ``finish_change()`` on release, which
fires ``changed`` once. Any other ``set_q`` is complete at once and fires ``changed``.

Playback: ``session.playback`` is the time cursor
(:class:`~robogui.session.motion.playback.Playback`) over the trajectory. The app's timer
calls :meth:`Session.advance` with the wall-clock time since its previous tick; the cursor
moves by ``wall_dt * speed`` and the playhead and the robot follow. Playing is a "changing"
state like a drag: ``changed`` fires when playback stops. :meth:`set_time` (a seek from
anywhere) moves the cursor too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from robogui.engine.checks import as_float_array, as_vector
from robogui.engine.model.robot import Robot
from robogui.engine.model.start_pose import start_q

from .derived import AT_LIMIT, NEAR_LIMIT, DerivedQuantities  # noqa: F401  (re-exported)
from .display import DisplayOptions
from .live_collisions import LiveCollisions
from .motion.playback import Playback
from .observable import EventEmitter, ListenerError, values_equal
from .validation import check_trajectory, validate_robot

__all__ = ["Session", "DisplayOptions", "initial_q", "robot_identity", "NEAR_LIMIT"]

_KEEP = object()  # set_robot(trajectory=...) not given: keep the trajectory if it fits


def robot_identity(robot) -> tuple[str, int]:
    """What a trajectory or program records of the robot it belongs to: (name, joints)."""
    return (str(robot.name), int(robot.n))


def initial_q(robot: Robot) -> np.ndarray:
    """The pose a freshly loaded robot is shown in, inside its limits
    (:func:`robogui.engine.model.start_pose.start_q`: ``qr``; else a start pose its file names,
    ``ready``, ``home``, ``default``; else the file's own ``qz``; else zero, a joint whose
    range excludes zero at the middle of its range)."""
    return start_q(robot)


class Session(DerivedQuantities, LiveCollisions, EventEmitter):
    """What the user is working on. See the module docstring for the events.

    >>> from robogui import Link, Robot
    >>> s = Session(Robot([Link(a=1), Link(a=1)]))
    >>> s.set_q([0, np.pi / 2]); s.T[:2, 3].round(6)
    array([1., 1.])
    """

    EVENTS = ("robot", "tool", "q", "frames", "trajectory", "time", "changed", "playing",
              "speed", "analysis", "cell", "held")

    def __init__(self, robot: Robot, q=None, display: DisplayOptions | None = None):
        self._init_events(self.EVENTS)
        self.display = display if display is not None else DisplayOptions()
        self._robot = self._check_robot(robot)
        self._q = self._check_q(initial_q(robot) if q is None else q)
        self._trajectory = None
        self._trajectory_robot: tuple[str, int] | None = None  # robot_identity, see set_robot
        self.playback = Playback()  # the time cursor over the trajectory
        self._time = 0.0
        self._changing = False  # a drag is in progress (set_q(..., changing=True))
        self._cache: dict[str, Any] = {}
        # per trajectory (not per q): (trajectory, robot, tool path), checked by identity
        self._path_cache: tuple | None = None
        self._analysis: tuple | None = None  # (robot, trajectory, TrajectoryAnalysis)
        self._cell = None  # the work cell (planning_scene.Cell) or None: the robot alone
        self._held = None  # the part in the gripper (planning_scene.carried.HeldPart) or None
        # collisions (derived.py): (robot, cell, world, error) and (trajectory, world, curve)
        self._world_cache: tuple | None = None
        self._clearance_cache: tuple | None = None
        # (world, q, report): the last state checked (check_step's, or the last shown)
        self._checked_ahead: tuple | None = None
        #: jogs and handle drags stop before a contact (check_step); the app's toggle
        self.stop_before_contact = True

    # -- robot and tool ------------------------------------------------------------
    @staticmethod
    def _check_robot(robot) -> Robot:
        if not isinstance(robot, Robot):
            raise ValueError(f"robot must be a Robot, got {type(robot).__name__}")
        return robot

    @property
    def robot(self) -> Robot:
        return self._robot

    @robot.setter
    def robot(self, robot: Robot) -> None:
        self.set_robot(robot)

    def set_robot(self, robot: Robot, q=None, *, trajectory=_KEEP):
        """Show another robot at ``q`` (default :func:`initial_q`); returns the trajectory
        this cleared (or None).

        The robot is validated completely first (bounds, frames and gravity torque at
        ``q`` finite): a robot that fails raises ValueError and nothing changes. A
        trajectory made for another robot (see :attr:`trajectory_robot`) is cleared;
        ``trajectory=`` sets the one the new robot gets instead (an undo of a robot change
        passes back the trajectory it cleared). When a listener fails while the change
        is shown, the previous robot, q and trajectory are restored and ValueError says
        what failed.

        Fires robot, q, frames and changed (once each); trajectory when it changes.
        """
        robot = self._check_robot(robot)
        q_new = self._check_q(initial_q(robot) if q is None else q, robot)
        same = robot == self._robot
        if not same:
            validate_robot(robot, q_new)
        keep = trajectory is _KEEP
        if not keep and trajectory is not None:
            check_trajectory(trajectory, robot)
        old_traj = self._trajectory
        if keep:
            new_traj = old_traj
            if old_traj is not None and (np.shape(old_traj.q)[1] != robot.n
                                         or self._trajectory_robot != robot_identity(robot)):
                new_traj = None
        else:
            new_traj = trajectory
        cleared = old_traj if (old_traj is not None and new_traj is not old_traj) else None
        if same and new_traj is old_traj and q is None:
            return None
        saved = self._snapshot()
        try:
            with self.batch():
                if not same:
                    self._robot = robot
                    self._cache.clear()
                    self._emit("robot", robot)
                    self._emit("frames", lazy=lambda: self.frames)
                if new_traj is not old_traj:
                    self._replace_trajectory(new_traj, robot_identity(robot))
                if not same or q is not None:
                    self._store_q(q_new, changing=False, force=not same)
        except ListenerError as exc:
            self._restore(saved)
            raise ValueError(f"{robot.name!r} could not be shown, the previous robot is back: "
                             f"{exc}") from exc
        return cleared

    def _snapshot(self) -> tuple:
        return (self._robot, self._q, self._trajectory, self._trajectory_robot, self._time,
                self._analysis)

    def _restore(self, saved: tuple) -> None:
        """Back to a :meth:`_snapshot` after a failed change; every listener is told again
        (a second failure is dropped: the first one is what gets reported)."""
        robot, q, traj, traj_robot, time, analysis = saved
        self._set_cursor_trajectory(traj)
        self._robot, self._q, self._trajectory, self._trajectory_robot = robot, q, traj, traj_robot
        self._time, self._analysis, self._changing = time, analysis, False
        self._cache.clear()
        self._path_cache = None
        if traj is not None:
            self.playback.seek(time)
        try:
            with self.batch():
                self._emit("robot", robot)
                self._emit("frames", lazy=lambda: self.frames)
                self._emit("trajectory", traj)
                self._emit("time", time)
                self._emit("q", q)
                self._emit("changed", lazy=lambda: self.q)
        except ListenerError:
            pass

    @property
    def tool(self) -> np.ndarray:
        """The tool transform (4, 4) of the current robot."""
        return self._robot.tool

    @tool.setter
    def tool(self, T) -> None:
        self.set_tool(T)

    def set_tool(self, T) -> None:
        """Replace the tool transform; fires tool, frames, changed (not robot)."""
        T = np.asarray(as_float_array(T, "tool"))
        if values_equal(T, self._robot.tool):
            return
        with self.batch():
            self._robot = self._robot.with_tool(T)  # validates T
            self._cache.clear()
            self._emit("tool", self._robot.tool)
            self._emit("frames", lazy=lambda: self.frames)
            self._emit("changed", lazy=lambda: self.q)

    @property
    def gripper(self):
        """The gripper's opening (:class:`~.geometry.gripper.GripperState`), made on first
        use; follows the robot."""
        g = self.__dict__.get("_gripper_state")
        if g is None:
            from .geometry.gripper import GripperState

            g = self._gripper_state = GripperState(self)
        return g

    # -- work cell --------------------------------------------------------------------
    @property
    def cell(self):
        """The work cell around the robot (:class:`~.planning_scene.cell.Cell`) or None."""
        return self._cell

    def set_cell(self, cell) -> None:
        """Replace the work cell (a Cell, immutable, so undo can hold the old one; None: no
        cell); fires cell and changed. A listener that fails puts the previous cell back."""
        from .planning_scene.cell import Cell

        if cell is not None and not isinstance(cell, Cell):
            raise ValueError(f"cell must be a Cell or None, got {type(cell).__name__}")
        if cell is self._cell:
            return
        previous = self._cell
        self._cell = cell
        self._cache.clear()
        if self._held is not None and (cell is None or self._held.name not in cell.names):
            self.set_held(None)  # its part is gone
        try:
            with self.batch():
                self._emit("cell", cell)
                self._emit("changed", lazy=lambda: self.q)
        except ListenerError as exc:
            self._cell = previous
            self._cache.clear()
            try:
                with self.batch():
                    self._emit("cell", previous)
            except ListenerError:
                pass
            raise ValueError(f"the cell could not be shown, the previous one is back: {exc}"
                             ) from exc

    def object_poses(self) -> dict[str, np.ndarray]:
        """World pose (4, 4) of every cell object as shown now, by name: its pose in the
        cell, or, for a part that the current trajectory carries (a program's grasp and
        release steps), where the tool holds it or where it was put down at the playhead.
        The trajectory says so through ``carried_poses(t, tcp)`` -> {name: (4, 4)}."""
        cell = self._cell
        if cell is None:
            return {}
        poses = {o.name: o.T for o in cell.objects}
        carried = getattr(self._trajectory, "carried_poses", None)
        if carried is not None and self._trajectory_robot == robot_identity(self._robot):
            poses.update({k: v for k, v in carried(self._time, self.T).items() if k in poses})
        if self._held is not None and self._held.name in poses:  # in the gripper now
            poses[self._held.name] = self._held.pose(cell, self.T)
        return poses

    @property
    def held(self):
        """The part in the gripper while the user drives
        (:class:`~.planning_scene.carried.HeldPart`: name, pose in the tool frame) or None."""
        return self._held

    def set_held(self, held) -> None:
        """Take a part in the gripper (a HeldPart naming an object of the cell) or let go
        (None; the part goes back to its pose in the cell: to leave it where it is, set the
        cell from :func:`~.planning_scene.carried.released_cell` first). Fires held."""
        from .planning_scene.carried import HeldPart

        if held is not None:
            if not isinstance(held, HeldPart):
                raise ValueError(f"held must be a HeldPart or None, got {type(held).__name__}")
            if self._cell is None or held.name not in self._cell.names:
                raise ValueError(f"there is no object {held.name!r} in the cell to hold")
        if held is self._held:
            return
        self._held = held
        self._cache.clear()  # the live collisions hold the part now (or no longer)
        self._emit("held", held)

    # -- joint vector ----------------------------------------------------------------
    def _check_q(self, q, robot: Robot | None = None) -> np.ndarray:
        robot = robot or self._robot
        q = as_vector(q, robot.n, "q").copy()
        q.setflags(write=False)  # the session's q is only changed through set_q
        return q

    @property
    def q(self) -> np.ndarray:
        """Joint vector (n,), radians / metres; read-only array."""
        return self._q

    @q.setter
    def q(self, q) -> None:
        self.set_q(q)

    @property
    def is_changing(self) -> bool:
        """True while a drag is in progress (between changing set_q calls and finish_change)."""
        return self._changing

    def set_q(self, q, *, changing: bool = False) -> None:
        """Set the joint vector. ``changing=True`` while dragging: only frames are updated.

        Fires q and frames on a real change, and changed when the change is complete.
        """
        self._store_q(self._check_q(q), changing=changing)

    def set_joint(self, j: int, value: float, *, changing: bool = False) -> None:
        """Set joint ``j`` (0-based) to ``value`` (rad or m), keeping the others."""
        if not 0 <= int(j) < self._robot.n:
            raise ValueError(f"j must be a joint index in 0..{self._robot.n - 1}, got {j}")
        q = np.array(self._q)
        q[int(j)] = float(value)
        self.set_q(q, changing=changing)

    def finish_change(self) -> None:
        """End a drag: fires changed once if the drag changed q."""
        if self._changing:
            self._changing = False
            self._emit("changed", lazy=lambda: self.q)

    def _store_q(self, q: np.ndarray, *, changing: bool, force: bool = False) -> None:
        if not force and values_equal(q, self._q):
            if not changing:
                self.finish_change()
            return
        with self.batch():
            self._q = q
            self._cache.clear()
            self._emit("q", q)
            self._emit("frames", lazy=lambda: self.frames)
            if changing:
                self._changing = True
            else:
                self._changing = False
                self._emit("changed", lazy=lambda: self.q)

    def go_to_pose(self, name: str) -> None:
        """Move to the robot's named pose (e.g. ``"qr"``); unknown names raise ValueError."""
        self.set_q(self._robot.pose(name))

    def zero(self) -> None:
        """All joints to zero (clipped into the limits)."""
        self.set_q(self._robot.clip_q(np.zeros(self._robot.n)))

    def randomize(self, seed=None) -> None:
        """A random configuration uniformly within the joint limits."""
        self.set_q(self._robot.random_q(seed=seed))

    # -- trajectory and playhead ----------------------------------------------------
    @property
    def trajectory(self):
        """The current trajectory (an object with ``t`` (k,) and ``q`` (k, n)) or None."""
        return self._trajectory

    @property
    def trajectory_robot(self) -> tuple[str, int] | None:
        """(name, joint count) of the robot the trajectory was made for; None without one.
        :meth:`set_robot` clears a trajectory when the new robot is not that robot."""
        return self._trajectory_robot if self._trajectory is not None else None

    def set_trajectory(self, trajectory, *, robot: tuple[str, int] | None = None) -> None:
        """Set (or clear, with None) the trajectory; the playhead goes to its start.

        ``robot`` is the (name, joint count) of the robot it was made for (default: the
        current robot); the trajectory is checked completely before it replaces the
        current one, and a listener failure restores the previous one (ValueError)."""
        if trajectory is not None:
            check_trajectory(trajectory, self._robot)
        if robot is not None and (not isinstance(robot, tuple) or len(robot) != 2):
            raise ValueError(f"robot must be (name, joint count), got {robot!r}")
        saved = self._snapshot()
        try:
            self._replace_trajectory(trajectory, robot or robot_identity(self._robot))
        except ListenerError as exc:
            self._restore(saved)
            raise ValueError(f"the trajectory could not be shown, the previous state is "
                             f"back: {exc}") from exc

    def _replace_trajectory(self, trajectory, robot_id: tuple[str, int]) -> None:
        with self.batch():
            self._set_cursor_trajectory(trajectory)
            self._trajectory = trajectory
            self._trajectory_robot = robot_id if trajectory is not None else None
            self._emit("trajectory", trajectory)
            if trajectory is not None:
                self.set_time(float(np.asarray(trajectory.t)[0]))

    @property
    def time(self) -> float:
        """Playhead time in seconds."""
        return self._time

    @property
    def time_range(self) -> tuple[float, float] | None:
        if self._trajectory is None:
            return None
        t = np.asarray(self._trajectory.t, dtype=float)
        return float(t[0]), float(t[-1])

    def q_at(self, t) -> np.ndarray:
        """Trajectory joint vector at time(s) ``t``, interpolated: () -> (n,), (k,) -> (k, n)."""
        if self._trajectory is None:
            raise ValueError("there is no trajectory")
        tt = np.asarray(self._trajectory.t, dtype=float)
        qt = np.asarray(self._trajectory.q, dtype=float)
        ts = as_float_array(t, "t")
        # linear interpolation between the two samples around each time (np.interp's
        # answer): O(log k) per time, where np.interp on a column of q copied all k rows
        # (a 300,000-sample trajectory cost ~2 ms per joint on every playback frame)
        x = np.clip(np.atleast_1d(ts).astype(float), tt[0], tt[-1])
        i = np.clip(np.searchsorted(tt, x, side="right") - 1, 0, len(tt) - 1)
        j = np.minimum(i + 1, len(tt) - 1)
        dt = tt[j] - tt[i]
        w = np.where(dt > 0, (x - tt[i]) / np.where(dt > 0, dt, 1.0), 0.0)
        out = qt[i] + w[:, None] * (qt[j] - qt[i])
        return out[0] if ts.ndim == 0 else out.reshape(ts.shape + (qt.shape[1],))

    def set_time(self, t: float, *, changing: bool = True) -> None:
        """Move the playhead (clamped to the trajectory) and the robot with it.

        The default ``changing=True`` treats playback like a drag: call
        :meth:`finish_change` when playback stops.
        """
        t = float(t)
        if not np.isfinite(t):
            raise ValueError(f"t must be finite, got {t}")
        span = self.time_range
        if span is not None:
            t = min(max(t, span[0]), span[1])
        with self.batch():
            if t != self._time:
                self._time = t
                self._emit("time", t)
            if span is not None:
                self.playback.seek(t)  # the cursor follows seeks made anywhere
                self.set_q(self.q_at(t), changing=changing)

    # -- playback: a time cursor advanced by the app's wall-clock timer ----------------
    def _set_cursor_trajectory(self, trajectory) -> None:
        was = self.playback.playing
        self.playback.set_trajectory(trajectory)  # stops, back to the start
        if was:
            self._emit("playing", False)

    @property
    def playing(self) -> bool:
        return self.playback.playing

    def _follow_cursor(self, was_playing: bool) -> None:
        """Playhead and robot to the cursor; fire playing/changed when playback stopped."""
        playing = self.playback.playing
        with self.batch():
            self.set_time(self.playback.time, changing=playing)
            if was_playing != playing:
                self._emit("playing", playing)
        if not playing:
            self.finish_change()

    def play(self) -> bool:
        """Start playing (from the start when at the end); False when there is nothing to play."""
        if not self.playback.play():
            return False
        self._follow_cursor(False)
        return True

    def pause(self) -> bool:
        if not self.playback.pause():
            return False
        self._follow_cursor(True)
        return True

    def toggle_play(self) -> bool:
        """Play/pause (the space bar)."""
        return self.pause() if self.playback.playing else self.play()

    def stop(self) -> bool:
        """Stop and go back to the start of the trajectory."""
        was = self.playback.playing
        if not self.playback.stop():
            return False
        self._follow_cursor(was)
        return True

    def step(self, direction: int = 1) -> bool:
        """Pause and move one sample forward (+1) or back (-1)."""
        was = self.playback.playing
        if not self.playback.step(direction):
            return False
        self._follow_cursor(was)
        return True

    def scrub(self, fraction: float, *, changing: bool = False) -> None:
        """Put the playhead at ``fraction`` (0..1) of the trajectory (the timeline slider);
        ``changing`` while the slider is held."""
        self.playback.seek_fraction(fraction)
        self.set_time(self.playback.time, changing=changing or self.playback.playing)
        if not changing and not self.playback.playing:
            self.finish_change()

    def advance(self, wall_dt: float) -> bool:
        """One timer tick: move the cursor by ``wall_dt * speed`` (``wall_dt`` in s, >= 0)."""
        was = self.playback.playing
        moved = self.playback.advance(wall_dt)
        if moved or was != self.playback.playing:
            self._follow_cursor(was)
        return moved

    def set_speed(self, speed: float) -> None:
        """Playback speed factor, clamped to 0.1-10."""
        old = self.playback.speed
        self.playback.speed = speed
        if self.playback.speed != old:
            self._emit("speed", (self.playback.speed, self.playback.loop))

    def set_loop(self, loop: bool) -> None:
        if bool(loop) != self.playback.loop:
            self.playback.loop = bool(loop)
            self._emit("speed", (self.playback.speed, self.playback.loop))
