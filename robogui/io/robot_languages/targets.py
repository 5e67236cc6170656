"""What every robot-language writer takes: targets, motions and a program, in SI units.

The session builds an :class:`ExportProgram` from a teach program and a robot (poses by
forward kinematics, ABB's arm configuration, speeds); the writers turn it into text and never
compute kinematics. Also here: the error they raise, identifiers for the languages'
names, number formatting, and the bounded bracket parser the readers share.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

__all__ = ["RobotLanguageError", "Target", "Motion", "GripperAction", "ExportProgram",
           "ReadMove", "MOTION_KINDS", "GRIPPER_KINDS", "identifiers", "fmt", "check_joints",
           "MAX_TEXT_CHARS", "checked_text", "parse_number", "parse_brackets",
           "GRIPPER_COMMENT", "commented_name"]

MOTION_KINDS = ("joint", "linear", "circular")
#: program steps that switch the gripper's output where the arm is
GRIPPER_KINDS = ("grasp", "release")
#: readers refuse longer texts (a program of 100,000 moves stays well under it)
MAX_TEXT_CHARS = 64 * 2**20


class RobotLanguageError(ValueError):
    """A program that a robot language cannot express, or exported text that cannot be read.

    The message names the dialect and the move, waypoint, line or value concerned.
    """


@dataclass(frozen=True, eq=False)
class Target:
    """A waypoint as the controllers see it.

    ``q`` (n,) joint values, rad (revolute) / m (prismatic); ``pose`` (4, 4) the tool
    centre point in the robot's base frame (robogui's base transform removed), metres;
    ``sides`` ABB's two arm-configuration answers (wrist centre behind axis 1, wrist
    centre behind the lower arm), or None when the arm has no such configuration.
    """

    name: str
    q: np.ndarray
    pose: np.ndarray
    sides: tuple[bool, bool] | None = None
    comment: str = ""


@dataclass(frozen=True, eq=False)
class Motion:
    """One move: ``kind`` "joint" | "linear" | "circular" (through ``via``) to ``target``.

    ``speed_fraction`` (0, 1] of each joint's maximum speed (joint moves);
    ``tcp_speed`` m/s (linear and circular moves); ``accel_fraction`` (0, 1] of the
    maximum acceleration; ``blend_radius`` m (0 = stop at the target); ``duration`` s or
    None (the move's time when the program gives one instead of a speed).
    """

    kind: str
    target: Target
    via: Target | None = None
    speed_fraction: float = 0.5
    tcp_speed: float = 0.25
    accel_fraction: float = 1.0
    blend_radius: float = 0.0
    duration: float | None = None
    comment: str = ""

    def __post_init__(self):
        if self.kind not in MOTION_KINDS:
            raise RobotLanguageError(f"a motion kind must be one of {MOTION_KINDS}, "
                                     f"got {self.kind!r}")
        if (self.kind == "circular") != (self.via is not None):
            raise RobotLanguageError("a circular move needs a via waypoint, and only it has one")
        # the comment goes into one comment line of the exported text: no line breaks
        object.__setattr__(self, "comment",
                           " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", str(self.comment)).split()))


def _one_line(text) -> str:
    """``text`` fit for one comment line of exported text: no control characters."""
    return " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", str(text)).split())


@dataclass(frozen=True, eq=False)
class GripperAction:
    """A gripper step: ``kind`` "grasp" (the gripper's output on) or "release" (off), the
    ``part`` it takes (named in a comment), the gripper's ``duration`` s (the program waits)
    or None. ``target`` and ``via`` are None (it does not move the arm)."""

    kind: str
    part: str = ""
    duration: float | None = None
    comment: str = ""
    target: None = None
    via: None = None

    def __post_init__(self):
        if self.kind not in GRIPPER_KINDS:
            raise RobotLanguageError(f"a gripper step is 'grasp' or 'release', got "
                                     f"{self.kind!r}")
        if self.duration is not None and not (math.isfinite(self.duration)
                                              and self.duration > 0):
            raise RobotLanguageError(f"a gripper step's duration must be positive, got "
                                     f"{self.duration!r}")
        object.__setattr__(self, "part", _one_line(self.part))
        object.__setattr__(self, "comment", _one_line(self.comment))

    @property
    def on(self) -> bool:
        """The output's value: True to grasp, False to release."""
        return self.kind == "grasp"

    def label(self, step: int) -> str:
        """The comment line's words, e.g. ``step 4: grasp part (close)``."""
        note = f" ({self.comment})" if self.comment else ""
        part = f" {self.part}" if self.part else ""
        return f"step {step}: {self.kind}{part}{note}"


#: what the readers take back from a gripper step's comment: kind, part
GRIPPER_COMMENT = re.compile(r"step \d+: (grasp|release)(?: (.*?))?(?: \(.*\))?$")


def commented_name(line: str, move_comment: re.Pattern, name: str) -> str:
    """The waypoint or part a comment line names (a dialect's ``move N: ...`` comment, or
    a gripper step's), else ``name``, the one named before: the readers give each read
    move the name of the comment above it."""
    c = move_comment.match(line)
    g = GRIPPER_COMMENT.match(line[2:])
    return c.group(1) if c else (g.group(2) or "") if g else name


@dataclass(frozen=True, eq=False)
class ExportProgram:
    """A program ready to write: ``name``, the robot's ``robot_name``, its ``joint_types``
    ("R"/"P" per joint), ``tool`` (4, 4) flange -> TCP in metres, ``max_joint_speed`` (n,)
    rad/s or m/s, ``max_joint_accel`` (n,) rad/s^2 or m/s^2, ``max_tcp_accel`` m/s^2
    (what 100 % acceleration means), and the ``motions`` in order (:class:`Motion` s and
    :class:`GripperAction` s)."""

    name: str
    robot_name: str
    joint_types: str
    tool: np.ndarray
    max_joint_speed: np.ndarray
    max_joint_accel: np.ndarray
    max_tcp_accel: float
    motions: tuple[Motion, ...] = ()
    comment: str = ""

    @property
    def n(self) -> int:
        return len(self.joint_types)

    def targets(self) -> list[Target]:
        """Every target once, in order of first use (vias before their move's target)."""
        seen: dict[str, Target] = {}
        for m in self.motions:
            for t in (m.via, m.target):
                if t is not None and t.name not in seen:
                    seen[t.name] = t
        return list(seen.values())


@dataclass
class ReadMove:
    """One move read back from exported text: ``kind`` as in :data:`MOTION_KINDS` (or a
    gripper step, :data:`GRIPPER_KINDS`, ``name`` the part, ``params`` the output and
    ``duration``), ``name`` of the target (the identifier written), ``q`` (n,) rad for
    joint moves or ``pose`` (4, 4) metres for Cartesian ones, ``via_pose`` for circular
    moves, and the move's parameters as written (``params``: dialect words -> numbers)."""

    kind: str
    name: str
    q: np.ndarray | None = None
    pose: np.ndarray | None = None
    via_pose: np.ndarray | None = None
    params: dict = field(default_factory=dict)


def check_joints(program: ExportProgram, dialect: str, max_joints: int,
                 exact: bool = False) -> None:
    """Refuse what the dialect's joint targets cannot hold: more joints than ``max_joints``
    (or not exactly that many when ``exact``) and prismatic joints."""
    n = program.n
    if (exact and n != max_joints) or n > max_joints:
        need = f"exactly {max_joints}" if exact else f"at most {max_joints}"
        raise RobotLanguageError(
            f"{dialect}: {program.robot_name!r} has {n} joints; {dialect} joint targets hold "
            f"{need} robot axes, so this program cannot be exported to {dialect}")
    prismatic = [i + 1 for i, k in enumerate(program.joint_types) if k != "R"]
    if prismatic:
        listed = ", ".join(str(i) for i in prismatic)
        raise RobotLanguageError(
            f"{dialect}: joint {listed} of {program.robot_name!r} is prismatic; {dialect}'s "
            "robot axes are all revolute, so this program cannot be exported to " + dialect)
    for m in program.motions:
        for t in (m.target, m.via):
            if t is not None and t.q.size != n:
                raise RobotLanguageError(f"{dialect}: waypoint {t.name!r} has {t.q.size} "
                                         f"joint values, the robot has {n}")


def identifiers(names, max_len: int, prefix: str = "", upper: bool = False) -> dict[str, str]:
    """A valid, unique identifier for each name: letters, digits and ``_``, starting with a
    letter, at most ``max_len`` characters (``prefix`` included), case-insensitively unique
    (RAPID and KRL ignore case). ``{"above pick": "p_above_pick", ...}``."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if name in out:
            continue
        base = re.sub(r"[^0-9A-Za-z_]", "_", name.encode("ascii", "replace").decode())
        base = prefix + base
        if not base[:1].isalpha():
            base = "P" + base
        base = base[:max_len]
        cand, k = base, 1
        while cand.lower() in used:
            k += 1
            suffix = f"_{k}"
            cand = base[:max_len - len(suffix)] + suffix
        used.add(cand.lower())
        out[name] = cand.upper() if upper else cand
    return out


def fmt(x: float, decimals: int) -> str:
    """``x`` with a fixed number of decimals, never ``-0.000``."""
    s = f"{float(x):.{decimals}f}"
    if float(s) == 0.0:
        s = s.lstrip("-")
    return s


def checked_text(text, dialect: str) -> str:
    """Refuse what no reader should parse: not text, or more than :data:`MAX_TEXT_CHARS`."""
    if not isinstance(text, str):
        raise RobotLanguageError(f"{dialect}: expected text, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise RobotLanguageError(f"{dialect}: {len(text)} characters is more than the "
                                 f"{MAX_TEXT_CHARS} a program may have")
    return text


def parse_number(token: str, dialect: str, where: str) -> float:
    """A finite float from ``token``; a :class:`RobotLanguageError` naming ``where``."""
    try:
        x = float(token)
    except ValueError:
        raise RobotLanguageError(f"{dialect}: {where}: {token!r} is not a number") from None
    if not math.isfinite(x):
        raise RobotLanguageError(f"{dialect}: {where}: {token!r} is not a finite number")
    return x


_TOKEN = re.compile(r"\s*(\[|\]|,|TRUE|FALSE|[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)",
                    re.IGNORECASE)


def parse_brackets(text: str, dialect: str, where: str, max_depth: int = 6):
    """A RAPID aggregate ``[[1, 2], TRUE, ...]`` -> nested lists of floats and bools.

    Only brackets, commas, numbers and TRUE/FALSE are accepted (nothing is evaluated);
    nesting deeper than ``max_depth`` is refused."""
    pos, stack, out = 0, [], None
    text = text.strip()
    expect_value = True
    while pos < len(text):
        mt = _TOKEN.match(text, pos)
        if not mt:
            raise RobotLanguageError(f"{dialect}: {where}: cannot read {text[pos:pos + 20]!r}")
        tok, pos = mt.group(1), mt.end()
        if tok == "[":
            if len(stack) >= max_depth:
                raise RobotLanguageError(f"{dialect}: {where}: brackets nested too deep")
            stack.append([])
            expect_value = True
        elif tok == "]":
            if not stack:
                raise RobotLanguageError(f"{dialect}: {where}: unbalanced ']'")
            done = stack.pop()
            if stack:
                stack[-1].append(done)
            elif pos < len(text.rstrip()):
                raise RobotLanguageError(f"{dialect}: {where}: text after the value")
            else:
                out = done
            expect_value = False
        elif tok == ",":
            expect_value = True
        else:
            if not stack or not expect_value:
                raise RobotLanguageError(f"{dialect}: {where}: misplaced {tok!r}")
            up = tok.upper()
            stack[-1].append(up == "TRUE" if up in ("TRUE", "FALSE")
                             else parse_number(tok, dialect, where))
            expect_value = False
    if stack or out is None:
        raise RobotLanguageError(f"{dialect}: {where}: unbalanced '['")
    return out
