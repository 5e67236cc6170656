"""ABB RAPID (``.mod``): robtargets, jointtargets, MoveAbsJ / MoveJ / MoveL / MoveC.

Units: millimetres, degrees, quaternions ``[q1, q2, q3, q4]`` scalar first (as ABB writes
them), in the robot's base frame (``wobj0``). Joint moves go to ``jointtarget`` s with
``MoveAbsJ`` (the waypoint's joint values exactly, no configuration to resolve); with
``joint_instruction="MoveJ"`` they go to ``robtarget`` s with ``MoveJ`` instead. Linear
and circular moves use ``robtarget`` s with ``confdata`` (see :func:`confdata`).

Speeds: RAPID has no joint-speed percentage per move, so a joint move's speed fraction
becomes the speed override ``VelSet pct, 5000`` (written when it changes) with ``vmax``;
a Cartesian move gets ``VelSet 100, 5000`` and a ``speeddata`` ``[v_tcp mm/s, 500 deg/s,
5000 mm/s, 1000 deg/s]``; a move with a duration gets ``\\T:=`` seconds. Accelerations:
``AccSet pct, 100`` (ABB raises values under 20 % to 20 %). Blend radii: ``fine`` for 0,
else a ``zonedata`` ``[FALSE, r, 1.5 r, 1.5 r, 0.15 r deg, 1.5 r, 0.15 r deg]`` (r in mm,
the proportions of ABB's predefined z10). ``tooldata`` from the tool with a placeholder
load of 1 g (ABB refuses a zero mass; enter the real load). A grasp is ``SetDO doGripper,
1;``, a release ``SetDO doGripper, 0;`` (the digital output :data:`GRIPPER_SIGNAL`, fixed:
define it in the controller's I/O configuration), followed by ``WaitTime t;`` when the step
has a duration; the move before it ends at ``fine`` so the output switches at the point.

At most six revolute robot axes; prismatic joints and more joints are refused (missing
axes of a smaller arm are written as 0 deg). :func:`read_rapid` reads back exactly what
:func:`write_rapid` writes.
"""

from __future__ import annotations

import math
import re

import numpy as np

from robogui.engine.spatial.quaternion import q2r, r2q
from robogui.engine.spatial.transforms import rt2tr

from .targets import (
    ExportProgram,
    GripperAction,
    ReadMove,
    RobotLanguageError,
    Target,
    check_joints,
    checked_text,
    commented_name,
    fmt,
    identifiers,
    parse_brackets,
    parse_number,
)

__all__ = ["write_rapid", "read_rapid", "confdata", "MM_DECIMALS", "QUAT_DECIMALS",
           "DEG_DECIMALS", "SUFFIX", "GRIPPER_SIGNAL"]

DIALECT = "RAPID"
SUFFIX = ".mod"
MM_DECIMALS = 3
QUAT_DECIMALS = 9
DEG_DECIMALS = 6
_NAME_LEN = 32
_EXT = "[9E9, 9E9, 9E9, 9E9, 9E9, 9E9]"
_TOOL = "t_robogui"
#: the digital output that closes the gripper (1) and opens it (0)
GRIPPER_SIGNAL = "doGripper"


def confdata(q, sides: tuple[bool, bool] | None) -> tuple[int, int, int, int]:
    """ABB ``confdata [cf1, cf4, cf6, cfx]`` of joint values ``q`` (n,) rad.

    cf1, cf4, cf6: the quadrant of axes 1, 4, 6 as ABB numbers them,
    ``floor(angle / 90 deg)`` (0 for 0..90 deg, 1 for 90..180, -1 for -90..0, -2 for
    -180..-90, and so on past one turn); an axis the arm lacks counts as 0.
    cfx = 4 b1 + 2 b2 + b3 (ABB's table for serial six-axis arms):
    b1 = 1 when the wrist centre is behind axis 1 (``sides[0]``);
    b2 = 1 when the wrist centre is behind the lower arm (``sides[1]``);
    b3 = 1 when axis 5's angle is negative (``q5 < 0``).
    ``sides`` comes from :func:`robogui.session.teach.export.arm_sides` (read off the
    joint axes); None (an arm without a spherical wrist) gives b1 = b2 = 0. Angles are the
    robot model's: they are ABB's when the model uses ABB's joint zeros and senses.
    """
    q = np.asarray(q, dtype=float).reshape(-1)

    def quadrant(i: int) -> int:
        return int(math.floor(q[i] / (math.pi / 2) + 1e-12)) if i < q.size else 0

    b1 = b2 = 0
    if sides is not None:
        b1, b2 = int(bool(sides[0])), int(bool(sides[1]))
    b3 = int(q.size >= 5 and q[4] < 0)
    return quadrant(0), quadrant(3), quadrant(5), 4 * b1 + 2 * b2 + b3


def _vec(values, decimals: int) -> str:
    return "[" + ", ".join(fmt(x, decimals) for x in values) + "]"


def _pose_text(T) -> str:
    T = np.asarray(T, dtype=float)
    return (f"[{_vec(T[:3, 3] * 1000.0, MM_DECIMALS)}, "
            f"{_vec(r2q(T[:3, :3]), QUAT_DECIMALS)}]")


def _robtarget(t: Target) -> str:
    cf = ", ".join(str(c) for c in confdata(t.q, t.sides))
    return f"[{_pose_text(t.pose)}, [{cf}], {_EXT}]"


def _jointtarget(t: Target) -> str:
    deg = np.zeros(6)
    deg[:t.q.size] = np.degrees(t.q)
    return f"[{_vec(deg, DEG_DECIMALS)}, {_EXT}]"


def _speed_name(v_mm: float) -> str:
    return "v_" + fmt(v_mm, 1).replace(".", "_")


def _zone_name(r_mm: float) -> str:
    return "z_" + fmt(r_mm, 1).replace(".", "_")


def write_rapid(program: ExportProgram, joint_instruction: str = "MoveAbsJ") -> str:
    """The program as one RAPID module (``PROC main``); ``joint_instruction`` "MoveAbsJ"
    (jointtargets, the default) or "MoveJ" (robtargets) for joint moves."""
    if joint_instruction not in ("MoveAbsJ", "MoveJ"):
        raise RobotLanguageError(f"{DIALECT}: joint moves use MoveAbsJ or MoveJ, got "
                                 f"{joint_instruction!r}")
    check_joints(program, DIALECT, 6)
    mod = identifiers([program.name or "robogui"], _NAME_LEN)[program.name or "robogui"]
    joint_names = {t.name for m in program.motions if m.kind == "joint" for t in [m.target]}
    cart_names = {t.name for m in program.motions if m.kind != "joint"
                  for t in (m.target, m.via) if t is not None}
    if joint_instruction == "MoveJ":
        cart_names |= joint_names
        joint_names = set()
    targets = program.targets()
    jt = identifiers([t.name for t in targets], _NAME_LEN, "jt_")
    pt = identifiers([t.name for t in targets], _NAME_LEN, "p_")
    decl = [f"  PERS tooldata {_TOOL} := [TRUE, {_pose_text(program.tool)}, "
            "[0.001, [0, 0, 0.001], [1, 0, 0, 0], 0, 0, 0]];"]
    for t in targets:
        if t.name in joint_names:
            decl.append(f"  CONST jointtarget {jt[t.name]} := {_jointtarget(t)};")
        if t.name in cart_names:
            decl.append(f"  CONST robtarget {pt[t.name]} := {_robtarget(t)};")
    speeds, zones, body = {}, {}, []
    vel, acc = None, None
    for i, m in enumerate(program.motions):
        if isinstance(m, GripperAction):
            body += [f"    ! {m.label(i + 1)}", f"    SetDO {GRIPPER_SIGNAL}, {int(m.on)};"]
            if m.duration is not None:
                body.append(f"    WaitTime {fmt(m.duration, 3)};")
            continue
        via = f" via {m.via.name}" if m.via is not None else ""
        note = f" ({m.comment})" if m.comment else ""
        body.append(f"    ! move {i + 1}: {m.kind}{via} -> {m.target.name}{note}")
        pct = 100.0 if m.kind != "joint" or m.duration is not None else m.speed_fraction * 100
        if pct != vel:
            body.append(f"    VelSet {fmt(pct, 1)}, 5000;")
            vel = pct
        apct = m.accel_fraction * 100.0
        if apct != acc:
            body.append(f"    AccSet {fmt(apct, 1)}, 100;")
            acc = apct
        if m.kind == "joint":
            speed = "vmax"
        else:
            v_mm = m.tcp_speed * 1000.0
            speed = _speed_name(v_mm)
            speeds[speed] = f"[{fmt(v_mm, 1)}, 500, 5000, 1000]"
        if m.duration is not None:
            speed += f" \\T:={fmt(m.duration, 3)}"
        r_mm = m.blend_radius * 1000.0
        if r_mm > 0:
            zone = _zone_name(r_mm)
            zones[zone] = (f"[FALSE, {fmt(r_mm, 1)}, {fmt(1.5 * r_mm, 2)}, "
                           f"{fmt(1.5 * r_mm, 2)}, {fmt(0.15 * r_mm, 3)}, "
                           f"{fmt(1.5 * r_mm, 2)}, {fmt(0.15 * r_mm, 3)}]")
        else:
            zone = "fine"
        tail = f"{speed}, {zone}, {_TOOL};"
        if m.kind == "joint" and joint_instruction == "MoveAbsJ":
            body.append(f"    MoveAbsJ {jt[m.target.name]}, {tail}")
        elif m.kind == "joint":
            body.append(f"    MoveJ {pt[m.target.name]}, {tail}")
        elif m.kind == "linear":
            body.append(f"    MoveL {pt[m.target.name]}, {tail}")
        else:
            body.append(f"    MoveC {pt[m.via.name]}, {pt[m.target.name]}, {tail}")
    decl += [f"  CONST speeddata {k} := {v};" for k, v in speeds.items()]
    decl += [f"  CONST zonedata {k} := {v};" for k, v in zones.items()]
    lines = [f"MODULE {mod}",
             f"  ! robogui export: program {program.name!r}, robot {program.robot_name!r}",
             "  ! RAPID; mm, degrees, quaternions scalar first, base frame (wobj0);",
             "  ! see docs/robot-languages.md",
             *decl,
             "  PROC main()",
             "    ConfJ \\On;",
             "    ConfL \\On;",
             *body,
             "  ENDPROC",
             "ENDMODULE",
             ""]
    return "\n".join(lines)


_DECL = re.compile(r"^(CONST|PERS|VAR)\s+(robtarget|jointtarget|speeddata|zonedata|tooldata)"
                   r"\s+(\w+)\s*:=\s*(.*);$")
_MOVE = re.compile(r"^(MoveAbsJ|MoveJ|MoveL|MoveC)\s+(\w+)(?:,\s*(\w+))?,\s*(\w+)"
                   r"(?:\s*\\T:=\s*([-+0-9.eE]+))?,\s*(\w+),\s*(\w+);$")
_SET = re.compile(r"^(VelSet|AccSet)\s+([-+0-9.eE]+),\s*([-+0-9.eE]+);$")
_SKIP = re.compile(r"^(MODULE\s+\w+|ENDMODULE|PROC\s+main\(\)|ENDPROC|Conf[JL]\s+\\On;)$")
_COMMENT = re.compile(r"^! move \d+: \w+(?: via \S+)? -> (.*?)(?: \(.*\))?$")
_SETDO = re.compile(r"^SetDO\s+(\w+),\s*([01]);$")
_WAIT = re.compile(r"^WaitTime\s+([-+0-9.eE]+);$")


def _pose_from(value, where: str) -> np.ndarray:
    try:
        trans, rot = value[0], value[1]
        if any(isinstance(x, (bool, list)) for x in [*trans, *rot]):
            raise ValueError
        p = np.array(trans, dtype=float) / 1000.0
        quat = np.array(rot, dtype=float)
        if p.shape != (3,) or quat.shape != (4,):
            raise ValueError
    except (TypeError, ValueError, IndexError):
        raise RobotLanguageError(f"{DIALECT}: {where}: expected [[x, y, z], [q1, q2, q3, q4]]"
                                 ) from None
    norm = float(np.linalg.norm(quat))
    if abs(norm - 1.0) > 1e-6:
        raise RobotLanguageError(f"{DIALECT}: {where}: quaternion norm {norm:g} is not 1")
    return rt2tr(q2r(quat / norm), p)


def _read_move(groups, data: dict, state: dict, name: str, where: str) -> ReadMove:
    """One move instruction (the groups of ``_MOVE``) with its declarations looked up."""
    instr, first, second, speed, t, zone, _tool = groups

    def lookup(ident, want, where=where):
        kind, value = data.get(ident.lower(), (None, None))
        if kind != want:
            raise RobotLanguageError(f"{DIALECT}: {where}: {ident} is not a declared {want}")
        return value

    params = dict(state, speed=speed, zone=zone)
    if t is not None:
        params["T"] = parse_number(t, DIALECT, where)
    if speed != "vmax":
        params["v_tcp"] = lookup(speed, "speeddata")[0] / 1000.0
    params["radius"] = 0.0 if zone == "fine" else lookup(zone, "zonedata")[1] / 1000.0
    if instr == "MoveAbsJ":
        axes = lookup(first, "jointtarget")[0]
        if not (isinstance(axes, list) and len(axes) == 6
                and all(isinstance(a, float) for a in axes)):
            raise RobotLanguageError(f"{DIALECT}: {where}: {first} must hold six axis angles")
        return ReadMove("joint", name, q=np.radians(np.array(axes)), params=params)
    target = second if instr == "MoveC" else first
    rt = lookup(target, "robtarget")
    if not (isinstance(rt[1], list) and len(rt[1]) == 4
            and all(isinstance(c, float) and c == int(c) for c in rt[1])):
        raise RobotLanguageError(f"{DIALECT}: {where}: {target}'s confdata must be four "
                                 "integers")
    params["conf"] = tuple(int(c) for c in rt[1])
    via = None
    if instr == "MoveC":
        via = _pose_from(lookup(first, "robtarget")[0], f"{where} ({first})")
    kind = {"MoveJ": "joint", "MoveL": "linear", "MoveC": "circular"}[instr]
    return ReadMove(kind, name, pose=_pose_from(rt[0], f"{where} ({target})"),
                    via_pose=via, params=params)


def read_rapid(text: str) -> tuple[np.ndarray, list[ReadMove]]:
    """Read what :func:`write_rapid` wrote: ``(tool, moves)``, ``tool`` the (4, 4) tooldata
    frame (m), one :class:`ReadMove` per move instruction with ``q`` (6,) rad (MoveAbsJ) or
    ``pose`` (4, 4) m, the robtarget's ``confdata`` in ``params["conf"]``, and the
    ``VelSet``/``AccSet`` in force; a gripper step (``SetDO``) as kind "grasp" / "release"
    with the part as ``name``, ``params`` ``signal`` and, after a ``WaitTime``,
    ``duration`` s. Anything else is refused with its line number."""
    checked_text(text, DIALECT)
    data: dict[str, tuple[str, object]] = {}
    moves, tool, name = [], None, ""
    state = {"velset": 100.0, "accset": 100.0}
    for k, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"line {k}"
        if not line or _SKIP.match(line):
            continue
        if line.startswith("!"):
            name = commented_name(line, _COMMENT, name)
            continue
        if mt := _SETDO.match(line):
            moves.append(ReadMove("grasp" if mt.group(2) == "1" else "release", name,
                                  params={"signal": mt.group(1)}))
            continue
        if mt := _WAIT.match(line):
            if not moves or moves[-1].kind not in ("grasp", "release"):
                raise RobotLanguageError(f"{DIALECT}: {where}: a WaitTime robogui writes only "
                                         "after a gripper output")
            moves[-1].params["duration"] = parse_number(mt.group(1), DIALECT, where)
            continue
        if mt := _DECL.match(line):
            kind, ident = mt.group(2), mt.group(3)
            value = parse_brackets(mt.group(4), DIALECT, f"{where} ({ident})")
            data[ident.lower()] = (kind, value)
            if kind == "tooldata":
                if not (isinstance(value, list) and len(value) == 3):
                    raise RobotLanguageError(f"{DIALECT}: {where}: {ident} is not a tooldata")
                tool = _pose_from(value[1], f"{where} ({ident})")
            continue
        if mt := _SET.match(line):
            state["velset" if mt.group(1) == "VelSet" else "accset"] = parse_number(
                mt.group(2), DIALECT, where)
            continue
        mt = _MOVE.match(line)
        if not mt:
            raise RobotLanguageError(f"{DIALECT}: {where}: not a statement robogui writes: "
                                     f"{line[:80]!r}")
        try:
            moves.append(_read_move(mt.groups(), data, state, name, where))
        except (TypeError, IndexError) as exc:
            raise RobotLanguageError(f"{DIALECT}: {where}: a target, speeddata or zonedata "
                                     f"of the wrong shape ({exc})") from None
    if tool is None:
        raise RobotLanguageError(f"{DIALECT}: no tooldata declared")
    return tool, moves
