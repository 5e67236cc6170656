"""A teach program exported to a robot language: URScript, ABB RAPID or KUKA KRL.

Builds the writers' :class:`~robogui.io.robot_languages.targets.ExportProgram` from a
:class:`Program` and a robot (tool-centre-point poses by forward kinematics in the robot's
base frame, ABB's arm sides for confdata, speeds in the controllers' terms) and hands it
to the dialect's writer. Move fields the program model may not have (blend radius, speed
and acceleration percentages, a circular move's via waypoint) are read through
:func:`move_options` alone, which gives defaults when a field is missing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from robogui.engine.files import atomic_write_text
from robogui.io.robot_languages import krl, rapid, urscript
from robogui.io.robot_languages.targets import (
    ExportProgram,
    GripperAction,
    Motion,
    RobotLanguageError,
    Target,
)

from ..explain.arm_axes import _closest_point, _joint_axes
from ..explain.armconfig import config_of
from .compile import max_joint_speeds
from .move_paths import DEFAULT_TCP_SPEED
from .program import Move, Program, ProgramError

__all__ = ["DIALECTS", "MoveOptions", "move_options", "export_data", "export_texts",
           "export_program", "dialect_of", "RobotLanguageError", "MAX_TCP_ACCEL",
           "max_joint_accels", "arm_sides"]

#: dialect -> (title, the suffixes of the files written)
DIALECTS = {"urscript": ("URScript", (urscript.SUFFIX,)),
            "rapid": ("ABB RAPID", (rapid.SUFFIX,)),
            "krl": ("KUKA KRL", krl.SUFFIXES)}
#: 100 % tool acceleration, m/s^2 (UR's default for movel)
MAX_TCP_ACCEL = 1.2
#: 100 % joint acceleration reaches a joint's maximum speed in this time, s
_JOINT_ACCEL_TIME = 0.5
_CIRCULAR_KINDS = ("circular", "circle", "movec", "arc")
#: peak over mean speed of a quintic (minimum-jerk) move: a move given only a duration is
#: written with the speed a smooth move of that duration peaks at
_QUINTIC_PEAK = 1.875


@dataclass(frozen=True)
class MoveOptions:
    """A move's export options: ``kind`` "joint"|"linear"|"circular", ``blend_radius`` m,
    ``speed_percent`` and ``accel_percent`` (0, 100] or None (not given), ``via`` the name
    of a circular move's via waypoint (None for other moves)."""

    kind: str
    blend_radius: float = 0.0
    speed_percent: float | None = None
    accel_percent: float = 100.0
    via: str | None = None


def _field(move, names, default):
    for n in names:
        value = getattr(move, n, None)
        if value is not None:
            return value
    return default


def move_options(move: Move) -> MoveOptions:
    """The one place that reads blend radius, speed/acceleration percentages and a
    circular move's via from a :class:`Move`; a Move without those fields gets radius 0,
    accel 100 %, no speed percentage (the move's own speed or the defaults) and no via."""
    kind = str(move.kind)
    kind = "circular" if kind in _CIRCULAR_KINDS else kind
    radius = float(_field(move, ("blend_radius", "radius", "zone"), 0.0))
    speed = _field(move, ("speed_percent", "speed_pct"), None)
    accel = float(_field(move, ("accel_percent", "acceleration_percent", "accel_pct"), 100.0))
    via = _field(move, ("via", "via_target", "via_waypoint"), None)
    if not (math.isfinite(radius) and radius >= 0):
        raise ProgramError(f"a move's blend radius must be zero or positive, got {radius}")
    if not (math.isfinite(accel) and 0 < accel <= 100):
        raise ProgramError(f"a move's acceleration must be in (0, 100] %, got {accel}")
    if speed is not None:
        speed = float(speed)
        if not (math.isfinite(speed) and 0 < speed <= 100):
            raise ProgramError(f"a move's speed must be in (0, 100] %, got {speed}")
    return MoveOptions(kind, radius, speed, accel, None if via is None else str(via))


def max_joint_accels(robot) -> np.ndarray:
    """What 100 % joint acceleration means, (n,) rad/s^2 or m/s^2: a link's ``qdd_max``
    when the robot gives one, else the maximum speed reached in 0.5 s."""
    vmax = max_joint_speeds(robot)
    out = vmax / _JOINT_ACCEL_TIME
    for j, L in enumerate(robot.links):
        given = getattr(L, "qdd_max", None)
        if given is not None and math.isfinite(float(given)) and float(given) > 0:
            out[j] = float(given)
    return out


def _line_points(p1, d1, p2, d2) -> tuple[np.ndarray, np.ndarray] | None:
    """Closest points of two lines (point, unit direction); None when they are parallel."""
    w = p1 - p2
    b = float(d1 @ d2)
    den = 1.0 - b * b
    if den < 1e-12:
        return None
    s = (b * float(d2 @ w) - float(d1 @ w)) / den
    t = (float(d2 @ w) - b * float(d1 @ w)) / den
    return p1 + s * d1, p2 + t * d2


def arm_sides(robot, q, config: str | None = None) -> tuple[bool, bool] | None:
    """ABB's two arm-configuration questions for a 6-axis arm with a spherical wrist at
    ``q`` (n,): (is the wrist centre behind axis 1, is it behind the lower arm); None for
    other arms. Read off the joint axes, so neither the D-H convention nor the axes'
    senses matter:

    * up ``u1`` is axis 1's direction turned to the base frame's +z side; forward ``f``
      is the horizontal part of the common normal from axis 1 to axis 2 (the shoulder
      offset, a1 on ABB and KUKA arms); the wrist centre ``W`` (where axes 4-6 meet) is
      behind axis 1 when ``(W - P1) . f < 0``.
    * in the plane normal to axis 2, the lower arm runs from the shoulder ``S`` (on
      axis 2) to the elbow ``E`` (axis 3 in that plane); the wrist is in front of the
      lower arm when it lies on the forward side, ``((E - S) x (W - S)) . (f x u1) < 0``
      (a vertical lower arm with the wrist ahead along ``f`` is in front).

    An arm whose axes 1 and 2 meet (no shoulder offset: the Puma) has no forward
    direction of its own; it falls back on the configuration letters (``"l"`` behind
    axis 1, ``"d"`` behind the lower arm), r6's reading of the same postures.
    """
    q = np.asarray(q, dtype=float)
    if config is None:
        config = config_of(robot, q)
    if config is None:
        return None
    pts, dirs = _joint_axes(robot, q)
    W = _closest_point(pts[3:], dirs[3:])[0]
    u1 = dirs[0] * (1.0 if dirs[0] @ np.asarray(robot.base)[:3, 2] >= 0 else -1.0)
    near = _line_points(pts[0], u1, pts[1], dirs[1])
    fallback = (config[0] == "l", config[1] == "d")
    if near is None:
        return fallback
    P1, S = near
    f = (S - P1) - ((S - P1) @ u1) * u1
    if np.linalg.norm(f) < 1e-6 * max(1.0, robot.reach):
        return fallback
    f = f / np.linalg.norm(f)
    u2 = dirs[1]
    E = pts[2] + ((S - pts[2]) @ u2) * u2
    Wp = (W - S) - ((W - S) @ u2) * u2
    behind_axis1 = bool((W - P1) @ f < 0)
    behind_lower = bool(np.cross(E - S, Wp) @ np.cross(f, u1) > 0)
    return behind_axis1, behind_lower


def export_data(program: Program, robot) -> ExportProgram:
    """``program`` on ``robot`` in the writers' terms: every target's pose (tool centre
    point in the robot's base frame, m), configuration letters, and each move's speed,
    acceleration, blend radius and duration; grasp and release steps become
    :class:`GripperAction` s (the move before one stops exactly). A move given a duration
    also gets the
    equivalent speed (the compiler's quintic profile: peak = 1.875 x mean) for dialects
    without move times. Raises ProgramError for a program that does not fit the robot."""
    from robogui.engine.kinematics.kinematics import fkine, fkine_all
    from robogui.engine.spatial.transforms import trinv

    reasons = program.check_robot(robot)
    if reasons:
        raise ProgramError(reasons[0])
    if not program.moves:
        raise ProgramError("the program has no moves to export")
    names = program.names
    qs = np.array([program.waypoint(n).q for n in names]).reshape(len(names), robot.n)
    poses = trinv(robot.base) @ fkine(robot, qs).reshape(-1, 4, 4)
    frames = fkine_all(robot, qs).reshape(len(names), -1, 4, 4)
    targets = {}
    for i, n in enumerate(names):
        w = program.waypoint(n)
        config = config_of(robot, w.q, frames[i]) if robot.n == 6 else None
        sides = arm_sides(robot, w.q, config) if config is not None else None
        targets[n] = Target(n, w.q, poses[i], sides, w.comment)
    vmax = max_joint_speeds(robot)
    motions = []
    prev = None
    for i, m in enumerate(program.moves):
        if m.is_gripper:  # the gripper's output where the arm stopped
            motions.append(GripperAction(m.kind, m.part, m.duration, m.comment))
            continue
        opt = move_options(m)
        after = program.moves[i + 1] if i + 1 < len(program.moves) else None
        if after is not None and after.is_gripper:  # stop exactly, then switch
            opt = MoveOptions(opt.kind, 0.0, opt.speed_percent, opt.accel_percent, opt.via)
        target = targets[m.target]
        via = None
        if opt.kind == "circular":
            if opt.via is None or opt.via not in targets:
                raise ProgramError(f"move {i + 1}: a circular move needs a via waypoint, got "
                                   f"{opt.via!r}")
            via = targets[opt.via]
        # as compile times it: 100 % of the joint limits unless the move says less
        pct = 1.0 if opt.speed_percent is None else opt.speed_percent / 100.0
        frac = pct * (m.speed if (m.kind == "joint" and m.speed is not None) else 1.0)
        v_tcp = m.speed if (m.kind != "joint" and m.speed is not None) else (
            DEFAULT_TCP_SPEED * pct)
        if m.duration is not None and prev is not None:
            dq = np.abs(target.q - prev.q)
            frac = float(np.clip(np.max(_QUINTIC_PEAK * dq / (m.duration * vmax)), 0.01, 1.0))
            length = float(np.linalg.norm(target.pose[:3, 3] - prev.pose[:3, 3]))
            v_tcp = max(_QUINTIC_PEAK * length / m.duration, 1e-4)
        for name in getattr(m, "planned", ()):  # a planned path: joint moves through its points
            if name not in targets:
                raise ProgramError(f"move {i + 1}: no waypoint named {name!r} on its planned "
                                   "path")
            motions.append(Motion("joint", targets[name], None, speed_fraction=float(frac),
                                  tcp_speed=float(v_tcp), accel_fraction=opt.accel_percent / 100,
                                  blend_radius=0.0, duration=None,
                                  comment=f"planned path of move {i + 1}"))
        motions.append(Motion(opt.kind, target, via, speed_fraction=float(frac),
                              tcp_speed=float(v_tcp), accel_fraction=opt.accel_percent / 100,
                              blend_radius=opt.blend_radius, duration=m.duration,
                              comment=m.comment))
        prev = target
    types = "".join("R" if L.joint == "R" else "P" for L in robot.links)
    return ExportProgram(program.name, robot.name, types, np.asarray(robot.tool, float),
                         vmax, max_joint_accels(robot), MAX_TCP_ACCEL, tuple(motions),
                         program.comment)


def dialect_of(name: str) -> str:
    """``"urscript"|"rapid"|"krl"`` from a dialect name (case-insensitive) or a file
    suffix (``.script``, ``.mod``, ``.src``); ValueError naming the choices otherwise."""
    key = str(name).lower().lstrip(".")
    aliases = {"ur": "urscript", "script": "urscript", "abb": "rapid", "mod": "rapid",
               "kuka": "krl", "src": "krl"}
    key = aliases.get(key, key)
    if key not in DIALECTS:
        raise ValueError(f"unknown robot language {name!r}; choose urscript, rapid or krl")
    return key


def export_texts(program: Program, robot, dialect: str, stem: str | None = None
                 ) -> dict[str, str]:
    """The exported files' texts by suffix: ``{".script": text}``, ``{".mod": text}`` or
    ``{".src": text, ".dat": text}``; ``stem`` names the KRL module (the files' stem).
    Raises RobotLanguageError for what the dialect cannot express, ProgramError for a
    program that does not fit the robot."""
    dialect = dialect_of(dialect)
    data = export_data(program, robot)
    if dialect == "urscript":
        return {urscript.SUFFIX: urscript.write_urscript(data)}
    if dialect == "rapid":
        return {rapid.SUFFIX: rapid.write_rapid(data)}
    src, dat = krl.write_krl(data, stem)
    return {".src": src, ".dat": dat}


def export_program(program: Program, robot, dialect: str, path) -> list[Path]:
    """Write ``program`` for ``robot`` in ``dialect`` to ``path`` (its suffix replaced by
    the dialect's; KRL writes the ``.src`` and the ``.dat`` side by side, the stem made a
    KRL name: ``pick-and-place.src`` -> ``pick_and_place.src``). Nothing is written when
    the program cannot be exported. Returns the paths written."""
    path = Path(path)
    dialect = dialect_of(dialect)
    if dialect == "krl":  # KRL modules are named as their files: make the stem a name
        path = path.with_name(krl.module_name(path.stem) + path.suffix)
    texts = export_texts(program, robot, dialect,
                         stem=path.stem if dialect == "krl" else None)
    written = []
    for suffix, text in texts.items():
        out = path.with_suffix(suffix)
        atomic_write_text(out, text)
        written.append(out)
    return written
