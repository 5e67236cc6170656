"""KUKA KRL (``.src`` + ``.dat``): E6AXIS / E6POS points, PTP / LIN / CIRC, $VEL, $TOOL.

Units: millimetres and degrees. ``E6POS`` holds X, Y, Z (mm) and A, B, C (deg) of the tool
centre point in the robot's base frame, ``R = Rz(A) Ry(B) Rx(C)`` (KUKA's Z-Y-X angles);
its Status and Turn are not written: LIN and CIRC ignore them and joint moves go to
``E6AXIS`` points (A1..A6 deg, the waypoint's joint values exactly) with ``PTP``.
Speeds: ``BAS(#VEL_PTP, pct)`` / ``BAS(#ACC_PTP, pct)`` for joint moves (percent of each
axis's maximum), ``$VEL.CP`` (m/s) and ``$ACC.CP`` (m/s^2) for LIN and CIRC. KRL has no
move time: a move given a duration gets the equivalent speed (computed by the session).
Blend radii: ``$APO.CDIS`` (mm) and ``C_DIS`` after the move (``C_DIS`` after ``PTP``
too: a radius is a distance, while ``C_PTP``'s percent of axis travel is not; 0 = exact
stop). ``$TOOL = {X, Y, Z, A, B, C}`` from the tool, ``$BASE`` the null frame. A grasp is
``$OUT[1]=TRUE``, a release ``$OUT[1]=FALSE`` (output :data:`GRIPPER_OUTPUT`, fixed),
followed by ``WAIT SEC t`` when the step has a duration; the move before it is an exact
stop, so the output switches at the point.

The module's name is the files' stem (KRL requires it). At most six revolute robot axes;
more joints and prismatic joints are refused (a smaller arm's missing axes are 0 deg).
:func:`read_krl` reads back exactly what :func:`write_krl` writes.
"""

from __future__ import annotations

import re

import numpy as np

from robogui.engine.spatial.transforms import rpy2r, rt2tr, tr2rpy

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
    parse_number,
)

__all__ = ["write_krl", "read_krl", "kuka_abc", "pose_from_kuka", "MM_DECIMALS",
           "DEG_DECIMALS", "SUFFIXES", "module_name", "GRIPPER_OUTPUT"]

DIALECT = "KRL"
SUFFIXES = (".src", ".dat")
MM_DECIMALS = 3
DEG_DECIMALS = 6
_NAME_LEN = 24
_EXTAXES = ",".join(f"E{i} 0.0" for i in range(1, 7))
#: the digital output ``$OUT[n]`` that closes the gripper (TRUE) and opens it (FALSE)
GRIPPER_OUTPUT = 1


def kuka_abc(T) -> np.ndarray:
    """(4, 4) or (3, 3) -> KUKA ``[A, B, C]`` in degrees: ``R = Rz(A) Ry(B) Rx(C)``."""
    roll, pitch, yaw = tr2rpy(np.asarray(T, dtype=float), order="zyx")
    return np.degrees([yaw, pitch, roll])


def pose_from_kuka(xyzabc) -> np.ndarray:
    """``[X, Y, Z, A, B, C]`` (mm, deg) -> (4, 4) transform in metres."""
    v = np.asarray(xyzabc, dtype=float)
    a, b, c = np.radians(v[3:])
    return rt2tr(rpy2r(c, b, a, order="zyx"), v[:3] / 1000.0)


def _frame(T) -> str:
    T = np.asarray(T, dtype=float)
    xyz = T[:3, 3] * 1000.0
    abc = kuka_abc(T)
    return ",".join([f"X {fmt(xyz[0], MM_DECIMALS)}", f"Y {fmt(xyz[1], MM_DECIMALS)}",
                     f"Z {fmt(xyz[2], MM_DECIMALS)}", f"A {fmt(abc[0], DEG_DECIMALS)}",
                     f"B {fmt(abc[1], DEG_DECIMALS)}", f"C {fmt(abc[2], DEG_DECIMALS)}"])


def _e6axis(t: Target) -> str:
    deg = np.zeros(6)
    deg[:t.q.size] = np.degrees(t.q)
    axes = ",".join(f"A{i + 1} {fmt(d, DEG_DECIMALS)}" for i, d in enumerate(deg))
    return "{" + axes + "," + _EXTAXES + "}"


def module_name(stem: str) -> str:
    """A valid KRL module name from a file stem (``pick-and-place`` -> ``pick_and_place``)."""
    return identifiers([stem or "robogui"], _NAME_LEN)[stem or "robogui"]


def write_krl(program: ExportProgram, module: str | None = None) -> tuple[str, str]:
    """The program as KRL ``(src, dat)`` texts of module ``module`` (the files' stem; by
    default the program's name made an identifier)."""
    check_joints(program, DIALECT, 6)
    raw = module or program.name or "robogui"
    mod = identifiers([raw], _NAME_LEN)[raw]
    if module is not None and mod != module:
        raise RobotLanguageError(f"{DIALECT}: {module!r} cannot name a KRL module (letters, "
                                 f"digits and _, starting with a letter, at most {_NAME_LEN})")
    targets = program.targets()
    axis_use = {m.target.name for m in program.motions if m.kind == "joint"}
    pos_use = {t.name for m in program.motions if m.kind != "joint"
               for t in (m.target, m.via) if t is not None}
    xa = identifiers([t.name for t in targets], _NAME_LEN, "XJ_")
    xp = identifiers([t.name for t in targets], _NAME_LEN, "XP_")
    dat = ["&ACCESS RVP", "&REL 1", f"DEFDAT {mod}",
           f"  ; robogui export: program {program.name!r}, robot {program.robot_name!r}"]
    for t in targets:
        if t.name in axis_use:
            dat.append(f"  DECL E6AXIS {xa[t.name]}={_e6axis(t)}")
        if t.name in pos_use:
            dat.append(f"  DECL E6POS {xp[t.name]}={{{_frame(t.pose)},{_EXTAXES}}}")
    dat += ["ENDDAT", ""]
    src = ["&ACCESS RVP", "&REL 1", f"DEF {mod}( )",
           f"  ; robogui export: program {program.name!r}, robot {program.robot_name!r}",
           "  ; KRL; mm, degrees, A B C = Z-Y-X angles, base frame; see docs/robot-languages.md",
           "  BAS(#INITMOV, 0)",
           "  $BASE = {X 0.0,Y 0.0,Z 0.0,A 0.0,B 0.0,C 0.0}",
           f"  $TOOL = {{{_frame(program.tool)}}}"]
    state: dict[str, str] = {}

    def setting(key: str, line: str) -> None:
        if state.get(key) != line:
            src.append(line)
            state[key] = line

    for i, m in enumerate(program.motions):
        if isinstance(m, GripperAction):
            src += [f"  ; {m.label(i + 1)}",
                    f"  $OUT[{GRIPPER_OUTPUT}]={'TRUE' if m.on else 'FALSE'}"]
            if m.duration is not None:
                src.append(f"  WAIT SEC {fmt(m.duration, 3)}")
            continue
        via = f" via {m.via.name}" if m.via is not None else ""
        note = f" ({m.comment})" if m.comment else ""
        src.append(f"  ; move {i + 1}: {m.kind}{via} -> {m.target.name}{note}")
        r_mm = m.blend_radius * 1000.0
        if r_mm > 0:
            setting("apo", f"  $APO.CDIS = {fmt(r_mm, 1)}")
        cont = " C_DIS" if r_mm > 0 else ""
        if m.kind == "joint":
            setting("vptp", f"  BAS(#VEL_PTP, {fmt(m.speed_fraction * 100.0, 1)})")
            setting("aptp", f"  BAS(#ACC_PTP, {fmt(m.accel_fraction * 100.0, 1)})")
            src.append(f"  PTP {xa[m.target.name]}{cont}")
            continue
        setting("vcp", f"  $VEL.CP = {fmt(m.tcp_speed, 4)}")
        setting("acp", f"  $ACC.CP = {fmt(m.accel_fraction * program.max_tcp_accel, 4)}")
        if m.kind == "linear":
            src.append(f"  LIN {xp[m.target.name]}{cont}")
        else:
            src.append(f"  CIRC {xp[m.via.name]}, {xp[m.target.name]}{cont}")
    src += ["END", ""]
    return "\n".join(src), "\n".join(dat)


_DECL = re.compile(r"^DECL\s+(E6AXIS|E6POS)\s+(\w+)\s*=\s*\{(.*)\}$")
_PAIR = re.compile(r"^\s*([A-Z]+\d?)\s+(\S+)\s*$")
_SET = re.compile(r"^(\$APO\.CDIS|\$VEL\.CP|\$ACC\.CP)\s*=\s*(\S+)$")
_BAS = re.compile(r"^BAS\(#(VEL_PTP|ACC_PTP|INITMOV),\s*(\S+)\)$")
_MOVE = re.compile(r"^(PTP|LIN|CIRC)\s+(\w+)(?:,\s*(\w+))?(\s+C_DIS)?$")
_SKIP = re.compile(r"^(&ACCESS RVP|&REL 1|DEF\s+\w+\(\s*\)|END|DEFDAT\s+\w+|ENDDAT|"
                   r"\$BASE = \{X 0\.0,Y 0\.0,Z 0\.0,A 0\.0,B 0\.0,C 0\.0\})$")
_COMMENT = re.compile(r"^; move \d+: \w+(?: via \S+)? -> (.*?)(?: \(.*\))?$")
_OUT = re.compile(r"^\$OUT\[(\d+)\]\s*=\s*(TRUE|FALSE)$")
_WAIT = re.compile(r"^WAIT SEC\s+(\S+)$")


def _fields(body: str, where: str) -> dict[str, float]:
    out = {}
    for item in body.split(","):
        mt = _PAIR.match(item)
        if not mt:
            raise RobotLanguageError(f"{DIALECT}: {where}: cannot read {item.strip()[:40]!r}")
        out[mt.group(1)] = parse_number(mt.group(2), DIALECT, f"{where}, {mt.group(1)}")
    return out


def _need(fields: dict, keys, where: str) -> list[float]:
    missing = [k for k in keys if k not in fields]
    if missing:
        raise RobotLanguageError(f"{DIALECT}: {where}: missing {', '.join(missing)}")
    return [fields[k] for k in keys]


def read_krl(src: str, dat: str) -> tuple[np.ndarray, list[ReadMove]]:
    """Read what :func:`write_krl` wrote: ``(tool, moves)``, ``tool`` the (4, 4) ``$TOOL``
    (m), one :class:`ReadMove` per PTP / LIN / CIRC with ``q`` (6,) rad (E6AXIS) or
    ``pose`` (4, 4) m (E6POS) and the settings in force in ``params``; a gripper step
    (``$OUT[n]=``) as kind "grasp" / "release" with the part as ``name``, ``params``
    ``output`` and, after a ``WAIT SEC``, ``duration`` s."""
    checked_text(src, DIALECT)
    checked_text(dat, DIALECT)
    points: dict[str, tuple[str, dict]] = {}
    for k, raw in enumerate(dat.splitlines(), start=1):
        line = raw.strip()
        where = f".dat line {k}"
        if not line or line.startswith(";") or _SKIP.match(line):
            continue
        mt = _DECL.match(line)
        if not mt:
            raise RobotLanguageError(f"{DIALECT}: {where}: not a declaration robogui writes: "
                                     f"{line[:80]!r}")
        points[mt.group(2).upper()] = (mt.group(1), _fields(mt.group(3), where))
    tool, moves, name, state = None, [], "", {}
    for k, raw in enumerate(src.splitlines(), start=1):
        line = raw.strip()
        where = f".src line {k}"
        if not line or _SKIP.match(line):
            continue
        if line.startswith(";"):
            name = commented_name(line, _COMMENT, name)
            continue
        if mt := _OUT.match(line):
            moves.append(ReadMove("grasp" if mt.group(2) == "TRUE" else "release", name,
                                  params={"output": int(mt.group(1))}))
            continue
        if mt := _WAIT.match(line):
            if not moves or moves[-1].kind not in ("grasp", "release"):
                raise RobotLanguageError(f"{DIALECT}: {where}: a WAIT SEC robogui writes only "
                                         "after a gripper output")
            moves[-1].params["duration"] = parse_number(mt.group(1), DIALECT, where)
            continue
        if line.startswith("$TOOL"):
            body = line.partition("=")[2].strip()
            if not (body.startswith("{") and body.endswith("}")):
                raise RobotLanguageError(f"{DIALECT}: {where}: $TOOL must be {{X ..., C ...}}")
            tool = pose_from_kuka(_need(_fields(body[1:-1], where), "XYZABC", where))
            continue
        if mt := _SET.match(line):
            state[mt.group(1)] = parse_number(mt.group(2), DIALECT, where)
            continue
        if mt := _BAS.match(line):
            state[mt.group(1)] = parse_number(mt.group(2), DIALECT, where)
            continue
        mt = _MOVE.match(line)
        if not mt:
            raise RobotLanguageError(f"{DIALECT}: {where}: not a statement robogui writes: "
                                     f"{line[:80]!r}")
        instr, first, second, cdis = mt.groups()
        params = dict(state)
        params["radius"] = state.get("$APO.CDIS", 0.0) / 1000.0 if cdis else 0.0

        def point(ident, want, where=where):
            kind, f = points.get(ident.upper(), (None, None))
            if kind != want:
                raise RobotLanguageError(f"{DIALECT}: {where}: {ident} is not an {want} "
                                         "declared in the .dat")
            return f

        if instr == "PTP":
            f = point(first, "E6AXIS")
            deg = _need(f, [f"A{i}" for i in range(1, 7)], where)
            moves.append(ReadMove("joint", name, q=np.radians(deg), params=params))
            continue
        target = second if instr == "CIRC" else first
        pose = pose_from_kuka(_need(point(target, "E6POS"), "XYZABC", where))
        via = None
        if instr == "CIRC":
            via = pose_from_kuka(_need(point(first, "E6POS"), "XYZABC", where))
        moves.append(ReadMove("linear" if instr == "LIN" else "circular", name, pose=pose,
                              via_pose=via, params=params))
    if tool is None:
        raise RobotLanguageError(f"{DIALECT}: no $TOOL assignment found")
    return tool, moves
