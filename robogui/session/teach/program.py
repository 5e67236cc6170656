"""Teach program model: named waypoints and a list of moves, immutable.

Every edit returns a new :class:`Program` (``program.record(q)``, ``.rename_waypoint``,
``.touch_up``, ...), so an undo stack only keeps references to old programs and the
Session compares old and new to fire its events. Invalid edits raise
:class:`ProgramError` with a message meant for the user.

Deleting a waypoint that moves still use is refused with a message that lists those
moves, unless ``cascade=True`` is given, which deletes the moves too.

:func:`compile_program` turns a program into one trajectory for a robot, timed as a
controller would (TOPP-RA within the joint limits, blend zones, circular moves), plus the
time range of every move, its active limit and any problems found.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from robogui.engine import bounds

__all__ = [
    "Waypoint",
    "Move",
    "Program",
    "ProgramError",
    "Problem",
    "MOVE_KINDS",
    "GRIPPER_KINDS",
    "STEP_KINDS",
    "SEVERITIES",
]

#: steps that move the arm
MOVE_KINDS = ("joint", "linear", "circular")
#: steps that work the gripper where the arm is (format version 3): ``grasp PART``, ``release``
GRIPPER_KINDS = ("grasp", "release")
STEP_KINDS = MOVE_KINDS + GRIPPER_KINDS
SEVERITIES = ("error", "warning", "info")
_AUTO_NAME = re.compile(r"^P(\d+)$")


class ProgramError(ValueError):
    """An edit or a program that does not make sense; the message is for the user."""


@dataclass(frozen=True)
class Problem:
    """One finding of compilation or pre-flight, located in time (the GUI seeks to it).

    ``time`` s into the trajectory, ``index`` the sample index, ``move_index`` the
    0-based move (None when not tied to one), ``severity`` "error"|"warning"|"info",
    ``joint`` the 0-based joint concerned (or None), ``kind`` a short machine tag
    ("joint-limit", "ik", "singularity", "velocity", "torque", ...).
    """

    time: float
    index: int
    move_index: int | None
    severity: str
    message: str
    kind: str = ""
    joint: int | None = None

    def __post_init__(self):
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity must be one of {SEVERITIES}, got {self.severity!r}")

    def __str__(self) -> str:
        return f"[{self.severity}] t={self.time:.3f} s: {self.message}"


def _robot_key(name: str) -> str:
    """A robot name for comparison: a library name (``puma560``) matches the robot's own
    name (``Puma 560``)."""
    return re.sub(r"[^0-9a-z]", "", str(name).lower())


def _check_name(name, what: str = "waypoint name") -> str:
    if not isinstance(name, str):
        raise ProgramError(f"a {what} must be text, got {name!r}")
    if not name.strip() or name != name.strip():
        raise ProgramError(f"a {what} must not be empty or start/end with spaces, got {name!r}")
    if any(ord(c) < 0x20 for c in name):
        raise ProgramError(f"a {what} must not contain control characters, got {name!r}")
    return name


def _optional_positive(value, what: str) -> float | None:
    if value is None:
        return None
    try:
        x = float(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise ProgramError(f"{what} must be a number, got {value!r}") from exc
    if not math.isfinite(x) or x <= 0:
        raise ProgramError(f"{what} must be a positive number, got {value!r}")
    return x


@dataclass(frozen=True, eq=False)
class Waypoint:
    """A named joint configuration ``q`` (n,), radians / metres, with a free comment."""

    name: str
    q: np.ndarray
    comment: str = ""

    def __post_init__(self):
        _check_name(self.name)
        try:
            q = np.array(self.q, dtype=float).reshape(-1)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ProgramError(
                f"waypoint {self.name!r}: q must be numbers, got {self.q!r}") from exc
        if q.size == 0 or not np.all(np.isfinite(q)):
            raise ProgramError(f"waypoint {self.name!r}: q must be finite numbers, got {q}")
        if q.size > bounds.MAX_JOINTS:
            raise ProgramError(f"waypoint {self.name!r}: {q.size} joint values is more than "
                               f"the {bounds.MAX_JOINTS} robogui handles")
        why = bounds.out_of_bounds(q, bounds.MAX_ANGLE)
        if why:
            raise ProgramError(f"waypoint {self.name!r}: q value {why} (rad or m)")
        q.setflags(write=False)
        object.__setattr__(self, "q", q)
        object.__setattr__(self, "comment", str(self.comment))

    def replace(self, **changes) -> Waypoint:
        return replace(self, **changes)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Waypoint) and self.name == other.name
                and self.comment == other.comment and np.array_equal(self.q, other.q))

    def __hash__(self) -> int:
        return hash((self.name, self.comment, self.q.tobytes()))

    def __repr__(self) -> str:
        return f"Waypoint({self.name!r}, q={np.array2string(self.q, precision=4)})"


@dataclass(frozen=True)
class Move:
    """A move to waypoint ``target``.

    ``kind``: "joint" (joint-interpolated), "linear" (straight line of the tool centre
    point, orientation slerped, solved by IK along the line) or "circular" (an arc of the
    tool centre point from where the arm is through waypoint ``via`` to ``target``,
    orientation slerped from start to target: RAPID's MoveC, URScript's movec).
    Moves are timed time-optimally (TOPP-RA) within the robot's joint limits, scaled by:
    ``speed_percent`` and ``accel_percent`` (0, 100], per-move overrides of the joint speed
    and acceleration limits (None = 100 %); ``speed``: for a joint move a fraction (0, 1]
    of each joint's maximum speed (the same as ``speed_percent`` / 100, kept from format
    version 1), for a linear or circular move the tool's speed limit in m/s (default
    0.25 m/s); ``duration`` s stretches the move to take that long (never faster than the
    limits allow). Give ``duration`` or ``speed``, not both.
    ``blend_radius`` m (file: ``blend_radius_mm``): the path leaves this move's target
    within that distance of it and rounds the corner into the next move without
    stopping (UR's ``r``, ABB's zone); 0 is a fine point where the arm stops exactly.
    ``blend`` s (format version 1): joint moves blend over that time into the next joint
    move (``mstraj``); 0 = stop.
    ``planned``: names of waypoints a joint move passes through on its way to ``target``
    (a planned, e.g. collision-free, path; empty = straight in joint space).

    Gripper steps (format version 3) do not move the arm: ``kind`` "grasp" takes the cell
    object ``part`` in the gripper where the arm is, "release" lets go of what is held.
    They have no ``target`` (""); ``duration`` s is the time the gripper takes (the arm
    waits; None = instantly); no other field applies.
    """

    kind: str = "joint"
    target: str = ""
    duration: float | None = None
    speed: float | None = None
    blend: float = 0.0
    comment: str = ""
    via: str | None = None
    speed_percent: float | None = None
    accel_percent: float | None = None
    blend_radius: float = 0.0
    planned: tuple[str, ...] = ()
    part: str = ""

    def __post_init__(self):
        if self.kind not in STEP_KINDS:
            raise ProgramError(f"a move kind must be 'joint', 'linear' or 'circular' (or a "
                               f"gripper step 'grasp' or 'release'), got {self.kind!r}")
        if self.kind in GRIPPER_KINDS:
            self._check_gripper()
            return
        if self.part:
            raise ProgramError(f"only a grasp names a part, not a {self.kind} move")
        _check_name(self.target, "move target")
        if self.kind == "circular":
            if self.via is None:
                raise ProgramError("a circular move needs a via waypoint")
            _check_name(self.via, "via waypoint")
        elif self.via is not None:
            raise ProgramError("only a circular move has a via waypoint")
        planned = tuple(self.planned)
        for name in planned:
            _check_name(name, "planned waypoint")
        if planned and self.kind != "joint":
            raise ProgramError("only a joint move has planned via waypoints")
        object.__setattr__(self, "planned", planned)
        for key in ("speed_percent", "accel_percent"):
            pct = _optional_positive(getattr(self, key), f"a move's {key.replace('_', ' ')}")
            if pct is not None and pct > 100.0:
                raise ProgramError(f"a move's {key.replace('_', ' ')} must be in (0, 100], "
                                   f"got {pct:g}")
            object.__setattr__(self, key, pct)
        try:
            radius = float(self.blend_radius)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ProgramError(f"a move blend radius must be a number, got "
                               f"{self.blend_radius!r}") from exc
        if not math.isfinite(radius) or not 0.0 <= radius <= bounds.MAX_LENGTH:
            raise ProgramError(f"a move blend radius must be zero or a positive length in m, "
                               f"got {self.blend_radius!r}")
        object.__setattr__(self, "blend_radius", radius)
        dur = _optional_positive(self.duration, "a move duration")
        spd = _optional_positive(self.speed, "a move speed")
        if dur is not None and spd is not None:
            raise ProgramError("give a move a duration or a speed, not both")
        if spd is not None and self.kind == "joint" and not (
                bounds.MIN_JOINT_SPEED_FRACTION <= spd <= 1.0):
            raise ProgramError(
                f"a joint move's speed is a fraction [{bounds.MIN_JOINT_SPEED_FRACTION:g}, 1] "
                f"of the maximum joint speed, got {spd:g}")
        if spd is not None and self.kind != "joint" and not (
                bounds.MIN_LINEAR_SPEED <= spd <= bounds.MAX_LINEAR_SPEED):
            raise ProgramError(
                f"a {self.kind} move's speed must be between {bounds.MIN_LINEAR_SPEED:g} and "
                f"{bounds.MAX_LINEAR_SPEED:g} m/s, got {spd:g}")
        if dur is not None and dur > bounds.MAX_MOVE_TIME:
            raise ProgramError(f"a move duration must be at most {bounds.MAX_MOVE_TIME:g} s, "
                               f"got {dur:g}")
        try:
            blend = float(self.blend)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ProgramError(f"a move blend must be a number, got {self.blend!r}") from exc
        if not math.isfinite(blend) or blend < 0:
            raise ProgramError(f"a move blend must be zero or a positive time in s, got {blend}")
        if blend > bounds.MAX_MOVE_TIME:
            raise ProgramError(f"a move blend must be at most {bounds.MAX_MOVE_TIME:g} s, "
                               f"got {blend:g}")
        object.__setattr__(self, "duration", dur)
        object.__setattr__(self, "speed", spd)
        object.__setattr__(self, "blend", blend)
        object.__setattr__(self, "comment", str(self.comment))

    def _check_gripper(self) -> None:
        """A grasp or release: a part for a grasp, a duration at most, nothing else."""
        if self.kind == "grasp":
            _check_name(self.part, "grasped part's name")
        elif self.part:
            raise ProgramError("a release names no part (it lets go of what is held)")
        if self.target:
            raise ProgramError(f"a {self.kind} step has no target waypoint, got "
                               f"{self.target!r}")
        extra = [name for name, value, default in (
            ("via", self.via, None), ("planned", tuple(self.planned), ()),
            ("speed", self.speed, None), ("speed percent", self.speed_percent, None),
            ("accel percent", self.accel_percent, None), ("blend", self.blend, 0.0),
            ("blend radius", self.blend_radius, 0.0)) if value != default]
        if extra:
            raise ProgramError(f"a {self.kind} step takes only a duration and a comment, "
                               f"not a {extra[0]}")
        dur = _optional_positive(self.duration, f"a {self.kind} step's duration")
        if dur is not None and dur > bounds.MAX_MOVE_TIME:
            raise ProgramError(f"a {self.kind} step's duration must be at most "
                               f"{bounds.MAX_MOVE_TIME:g} s, got {dur:g}")
        object.__setattr__(self, "duration", dur)
        object.__setattr__(self, "planned", ())
        object.__setattr__(self, "blend", 0.0)
        object.__setattr__(self, "blend_radius", 0.0)
        object.__setattr__(self, "comment", str(self.comment))

    @property
    def is_gripper(self) -> bool:
        """True for a grasp or release step (it does not move the arm)."""
        return self.kind in GRIPPER_KINDS

    def replace(self, **changes) -> Move:
        return replace(self, **changes)

    def describe(self) -> str:
        """A one-line summary for the program list, e.g. ``joint -> P2 (2 s)``,
        ``grasp part``, ``release (0.5 s)``."""
        if self.is_gripper:
            took = f" ({self.duration:g} s)" if self.duration is not None else ""
            return f"grasp {self.part}{took}" if self.kind == "grasp" else f"release{took}"
        how = ""
        if self.duration is not None:
            how = f" ({self.duration:g} s)"
        elif self.speed is not None:
            how = (f" ({self.speed * 100:g} %)" if self.kind == "joint"
                   else f" ({self.speed:g} m/s)")
        if self.speed_percent is not None:
            how += f" v {self.speed_percent:g} %"
        if self.accel_percent is not None:
            how += f" a {self.accel_percent:g} %"
        blend = f", blend {self.blend:g} s" if self.blend > 0 else ""
        if self.blend_radius > 0:
            blend += f", r {self.blend_radius * 1000:g} mm"
        via = f" via {self.via}" if self.via else ""
        if self.planned:
            via += " through " + ", ".join(self.planned)
        return f"{self.kind} -> {self.target}{via}{how}{blend}"

    @property
    def waypoints_used(self) -> tuple[str, ...]:
        """Every waypoint name this move refers to: planned, via, then target (none for a
        gripper step)."""
        if self.is_gripper:
            return ()
        return self.planned + ((self.via,) if self.via else ()) + (self.target,)


@dataclass(frozen=True, eq=False)
class Program:
    """A teach program: waypoints (unique names) and moves that refer to them by name.

    ``name`` and ``robot`` (the name of the robot it was taught on) are descriptive.
    All waypoints have the same number of joints. Edits return new programs.
    """

    waypoints: tuple[Waypoint, ...] = ()
    moves: tuple[Move, ...] = ()
    name: str = "untitled"
    robot: str = ""
    comment: str = ""
    _index: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        wps = tuple(self.waypoints)
        moves = tuple(self.moves)
        for i, w in enumerate(wps):
            if not isinstance(w, Waypoint):
                raise ProgramError(f"waypoints[{i}] must be a Waypoint, got {type(w).__name__}")
        for i, m in enumerate(moves):
            if not isinstance(m, Move):
                raise ProgramError(f"moves[{i}] must be a Move, got {type(m).__name__}")
        index: dict[str, int] = {}
        for i, w in enumerate(wps):
            if w.name in index:
                raise ProgramError(f"two waypoints are named {w.name!r}; names must be unique")
            index[w.name] = i
        sizes = {w.q.size for w in wps}
        if len(sizes) > 1:
            detail = ", ".join(f"{w.name}: {w.q.size}" for w in wps)
            raise ProgramError(f"waypoints have different numbers of joints ({detail})")
        for i, m in enumerate(moves):
            for name in m.waypoints_used:
                if name not in index:
                    raise ProgramError(f"move {i + 1} ({m.describe()}) goes to or through "
                                       f"{name!r}, which is not a waypoint")
        object.__setattr__(self, "waypoints", wps)
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "name", str(self.name))
        object.__setattr__(self, "robot", str(self.robot))
        object.__setattr__(self, "comment", str(self.comment))
        object.__setattr__(self, "_index", index)

    # -- queries ----------------------------------------------------------------
    @property
    def n_joints(self) -> int | None:
        """Joint count of the waypoints (None for a program without waypoints)."""
        return self.waypoints[0].q.size if self.waypoints else None

    @property
    def names(self) -> list[str]:
        return [w.name for w in self.waypoints]

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def waypoint(self, name: str) -> Waypoint:
        try:
            return self.waypoints[self._index[name]]
        except KeyError:
            known = ", ".join(self.names) or "none"
            raise ProgramError(f"there is no waypoint {name!r} (waypoints: {known})") from None

    def moves_using(self, name: str) -> list[int]:
        """0-based indices of the moves that go to (or through) waypoint ``name``."""
        return [i for i, m in enumerate(self.moves) if name in m.waypoints_used]

    def next_name(self, prefix: str = "P") -> str:
        """The next free automatic name: P1, P2, ... (one above the highest used)."""
        pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$")
        used = [int(mt.group(1)) for w in self.waypoints if (mt := pattern.match(w.name))]
        k = max(used, default=0) + 1
        while f"{prefix}{k}" in self._index:  # cannot happen, but never hand out a clash
            k += 1
        return f"{prefix}{k}"

    def check_robot(self, robot) -> list[str]:
        """Reasons this program cannot run on ``robot`` (empty list when it can)."""
        out = []
        n = self.n_joints
        if n is not None and n != robot.n:
            taught = f" (it was taught on {self.robot!r})" if self.robot else ""
            out.append(f"the program's waypoints have {n} joints but {robot.name!r} has "
                       f"{robot.n}{taught}")
        return out

    def robot_mismatch(self, robot) -> str | None:
        """A sentence for the user when this program's waypoints were taught on another
        robot than ``robot`` (or do not fit it); None when it belongs to ``robot`` or has no
        waypoints."""
        reasons = self.check_robot(robot)
        if reasons:
            return reasons[0]
        if self.waypoints and self.robot and _robot_key(self.robot) != _robot_key(robot.name):
            return (f"the program was taught on {self.robot!r}, not on {robot.name!r}: the "
                    "same joint angles put this arm elsewhere")
        return None

    # -- edits (each returns a new Program) ---------------------------------------
    def _with(self, **changes) -> Program:
        kw = dict(waypoints=self.waypoints, moves=self.moves, name=self.name,
                  robot=self.robot, comment=self.comment)
        kw.update(changes)
        return Program(**kw)

    def with_name(self, name: str) -> Program:
        return self._with(name=str(name))

    def with_comment(self, comment: str) -> Program:
        return self._with(comment=str(comment))

    def with_robot(self, robot_name: str) -> Program:
        return self._with(robot=str(robot_name))

    def add_waypoint(self, q, name: str | None = None, comment: str = "") -> Program:
        """Add a waypoint (auto-named P1, P2, ... when ``name`` is None)."""
        name = self.next_name() if name is None else _check_name(name)
        if name in self._index:
            raise ProgramError(f"a waypoint named {name!r} already exists")
        return self._with(waypoints=self.waypoints + (Waypoint(name, q, comment),))

    def record(self, q, name: str | None = None, comment: str = "",
               move_kind: str | None = "joint", **move_options) -> Program:
        """The Record button: store ``q`` as a new waypoint and append a move to it.

        ``move_kind`` None stores the waypoint only; ``move_options`` (duration, speed,
        blend) go to the new :class:`Move`.
        """
        prog = self.add_waypoint(q, name, comment)
        if move_kind is None:
            return prog
        return prog.insert_move(Move(move_kind, prog.waypoints[-1].name, **move_options))

    def rename_waypoint(self, old: str, new: str) -> Program:
        """Rename a waypoint; moves that go to it follow the new name."""
        self.waypoint(old)
        _check_name(new)
        if new == old:
            return self
        if new in self._index:
            raise ProgramError(f"cannot rename {old!r} to {new!r}: a waypoint named {new!r} "
                               "already exists")
        wps = tuple(w.replace(name=new) if w.name == old else w for w in self.waypoints)
        moves = tuple(m.replace(target=new if m.target == old else m.target,
                                via=new if m.via == old else m.via,
                                planned=tuple(new if p == old else p for p in m.planned))
                      if old in m.waypoints_used else m for m in self.moves)
        return self._with(waypoints=wps, moves=moves)

    def delete_waypoint(self, name: str, cascade: bool = False) -> Program:
        """Delete a waypoint. Refused while moves use it, unless ``cascade`` deletes them too."""
        self.waypoint(name)
        users = self.moves_using(name)
        if users and not cascade:
            listed = ", ".join(str(i + 1) for i in users)
            s = "s" if len(users) > 1 else ""
            raise ProgramError(f"waypoint {name!r} is used by move{s} {listed}; delete "
                               f"{'those moves' if s else 'that move'} first (or delete "
                               "them together)")
        wps = tuple(w for w in self.waypoints if w.name != name)
        moves = tuple(m for m in self.moves if name not in m.waypoints_used)
        return self._with(waypoints=wps, moves=moves)

    def touch_up(self, name: str, q) -> Program:
        """Replace waypoint ``name``'s configuration by ``q`` (the current pose)."""
        w = self.waypoint(name)
        new = Waypoint(name, q, w.comment)
        if self.n_joints is not None and new.q.size != self.n_joints:
            raise ProgramError(f"touch up of {name!r}: q has {new.q.size} joints, the program "
                               f"has {self.n_joints}")
        return self._with(waypoints=tuple(new if x.name == name else x for x in self.waypoints))

    def set_waypoint_comment(self, name: str, comment: str) -> Program:
        w = self.waypoint(name)
        new = w.replace(comment=str(comment))
        return self._with(waypoints=tuple(new if x.name == name else x for x in self.waypoints))

    def _move_index(self, index: int, insert: bool = False) -> int:
        n = len(self.moves) + (1 if insert else 0)
        if not isinstance(index, (int, np.integer)) or not -n <= index < n:
            raise ProgramError(f"there is no move {index!r} (the program has "
                               f"{len(self.moves)} moves)")
        return int(index) % n

    def insert_move(self, move: Move, index: int | None = None) -> Program:
        """Insert ``move`` before position ``index`` (0-based; None appends)."""
        if not isinstance(move, Move):
            raise ProgramError(f"expected a Move, got {type(move).__name__}")
        moves = list(self.moves)
        if index is None:
            moves.append(move)
        else:
            moves.insert(self._move_index(index, insert=True), move)
        return self._with(moves=tuple(moves))

    def replace_move(self, index: int, move: Move) -> Program:
        moves = list(self.moves)
        moves[self._move_index(index)] = move
        return self._with(moves=tuple(moves))

    def update_move(self, index: int, **changes) -> Program:
        """Change fields of move ``index``, e.g. ``update_move(0, kind="linear", speed=0.1)``."""
        i = self._move_index(index)
        return self.replace_move(i, self.moves[i].replace(**changes))

    def set_planned_path(self, index: int, qs, prefix: str | None = None) -> Program:
        """Joint move ``index`` passes through the configurations ``qs`` (k, n) on its way
        to its target, e.g. a collision-free path from a planner: they become waypoints
        (named ``<target>~1``, ``<target>~2``, ... or ``prefix``1, ...) and the move's
        ``planned`` list, in one edit (one undo step). An empty ``qs`` makes the move
        straight again (its old planned waypoints stay until deleted)."""
        i = self._move_index(index)
        move = self.moves[i]
        if move.kind != "joint":
            raise ProgramError(f"move {i + 1} is a {move.kind} move; only joint moves take a "
                               "planned path")
        prog, names = self, []
        stem = f"{move.target}~" if prefix is None else prefix
        for q in np.asarray(qs, dtype=float).reshape(-1, self.n_joints or 0):
            name = prog.next_name(stem)
            prog = prog.add_waypoint(q, name, comment=f"planned for move {i + 1}")
            names.append(name)
        return prog.update_move(i, planned=tuple(names))

    def grasp(self, part: str, index: int | None = None, duration: float | None = None
              ) -> Program:
        """Insert a ``grasp part`` step before position ``index`` (None appends): the
        gripper takes the cell object ``part`` where the arm is."""
        return self.insert_move(Move("grasp", part=part, duration=duration), index)

    def release(self, index: int | None = None, duration: float | None = None) -> Program:
        """Insert a ``release`` step before position ``index`` (None appends)."""
        return self.insert_move(Move("release", duration=duration), index)

    @property
    def has_gripper_steps(self) -> bool:
        """True when a step grasps or releases (the file needs format version 3)."""
        return any(m.is_gripper for m in self.moves)

    @property
    def motion_moves(self) -> list[int]:
        """0-based indices of the steps that move the arm (not grasp or release)."""
        return [i for i, m in enumerate(self.moves) if not m.is_gripper]

    def set_move_comment(self, index: int, comment: str) -> Program:
        return self.update_move(index, comment=str(comment))

    def delete_move(self, index: int) -> Program:
        moves = list(self.moves)
        del moves[self._move_index(index)]
        return self._with(moves=tuple(moves))

    def move_move(self, src: int, dst: int) -> Program:
        """Take move ``src`` out and put it at position ``dst`` (drag and drop in the list)."""
        moves = list(self.moves)
        m = moves.pop(self._move_index(src))
        if not 0 <= dst <= len(moves):
            raise ProgramError(f"cannot move to position {dst}: positions are 0..{len(moves)}")
        moves.insert(dst, m)
        return self._with(moves=tuple(moves))

    def reorder_moves(self, order: Sequence[int]) -> Program:
        """Moves in a new order: ``order`` is a permutation of 0..len(moves)-1."""
        order = [int(i) for i in order]
        if sorted(order) != list(range(len(self.moves))):
            raise ProgramError(f"{order} is not a reordering of the {len(self.moves)} moves")
        return self._with(moves=tuple(self.moves[i] for i in order))

    # -- comparison ---------------------------------------------------------------
    def __eq__(self, other) -> bool:
        return (isinstance(other, Program) and self.name == other.name
                and self.robot == other.robot and self.comment == other.comment
                and self.waypoints == other.waypoints and self.moves == other.moves)

    def __hash__(self) -> int:
        return hash((self.name, self.robot, self.comment, self.waypoints, self.moves))

    def __repr__(self) -> str:
        return (f"Program({self.name!r}, {len(self.waypoints)} waypoints, "
                f"{len(self.moves)} moves)")

    @classmethod
    def from_configurations(cls, qs: Iterable, name: str = "untitled",
                            kind: str = "joint", **move_options) -> Program:
        """A program that visits the configurations ``qs`` in order (P1, P2, ...)."""
        prog = cls(name=name)
        for q in qs:
            prog = prog.record(q, move_kind=kind, **move_options)
        return prog
