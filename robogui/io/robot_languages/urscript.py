"""Universal Robots URScript (``.script``): ``movej`` / ``movel`` / ``movec`` and ``set_tcp``.

Units: metres, radians, seconds. Poses are ``p[x, y, z, rx, ry, rz]``: the position and
the rotation vector (axis times angle, angle in [0, pi]) of the tool centre point in the
robot's base frame. Joint moves are ``movej([q1, ..., q6], a=, v=, r=)`` with ``v`` the
program's speed fraction times the slowest joint's maximum speed (rad/s) and ``a`` the
acceleration fraction times the smallest maximum joint acceleration (rad/s^2); linear and
circular moves take ``v`` (m/s) and ``a`` (m/s^2) of the tool; ``r`` is the blend radius
(m); a move with a duration gets ``t=`` (URScript then ignores ``a`` and ``v``).
A grasp is ``set_tool_digital_out(0, True)``, a release ``set_tool_digital_out(0, False)``
(the tool flange's digital output 0, :data:`GRIPPER_OUTPUT`, fixed), followed by
``sleep(t)`` when the step has a duration.
A UR arm has six revolute joints: other robots are refused.

:func:`read_urscript` reads back exactly what :func:`write_urscript` writes.
"""

from __future__ import annotations

import re

import numpy as np

from robogui.engine.spatial.transforms import angvec2tr, tr2angvec, transl

from .targets import (
    ExportProgram,
    GripperAction,
    ReadMove,
    RobotLanguageError,
    check_joints,
    checked_text,
    commented_name,
    fmt,
    identifiers,
    parse_number,
)

__all__ = ["write_urscript", "read_urscript", "ur_pose", "pose_from_ur", "DECIMALS",
           "SUFFIX", "GRIPPER_OUTPUT"]

DIALECT = "URScript"
SUFFIX = ".script"
#: decimals written for metres and radians (1 um, 1 urad)
DECIMALS = 6
_PARAM_DECIMALS = 4
#: the tool flange's digital output that closes the gripper (True) and opens it (False)
GRIPPER_OUTPUT = 0


def ur_pose(T: np.ndarray) -> np.ndarray:
    """(4, 4) transform -> (6,) ``[x, y, z, rx, ry, rz]``, metres and rotation vector (rad)."""
    theta, v = tr2angvec(np.asarray(T, dtype=float))
    return np.concatenate([np.asarray(T, dtype=float)[:3, 3], theta * v])


def pose_from_ur(p) -> np.ndarray:
    """(6,) ``[x, y, z, rx, ry, rz]`` -> (4, 4) transform (the inverse of :func:`ur_pose`)."""
    p = np.asarray(p, dtype=float)
    theta = float(np.linalg.norm(p[3:]))
    R = np.eye(4) if theta < 1e-15 else angvec2tr(theta, p[3:] / theta)
    return transl(p[:3]) @ R


def _p(T) -> str:
    return "p[" + ", ".join(fmt(x, DECIMALS) for x in ur_pose(T)) + "]"


def _args(**kw) -> str:
    return ", ".join(f"{k}={fmt(v, _PARAM_DECIMALS)}" for k, v in kw.items() if v is not None)


def write_urscript(program: ExportProgram) -> str:
    """The program as a URScript text (one function, called at the end)."""
    check_joints(program, DIALECT, 6, exact=True)
    fname = identifiers([program.name or "robogui_program"], 60)[program.name or
                                                                 "robogui_program"].lower()
    v_joint = float(np.min(program.max_joint_speed))
    a_joint = float(np.min(program.max_joint_accel))
    lines = [f"# robogui export: program {program.name!r}, robot {program.robot_name!r}",
             "# URScript; metres, radians, seconds; poses p[x, y, z, rx, ry, rz] in the base",
             "# frame (rotation vector); see docs/robot-languages.md",
             f"def {fname}():",
             f"  set_tcp({_p(program.tool)})"]
    for i, m in enumerate(program.motions):
        if isinstance(m, GripperAction):
            lines += [f"  # {m.label(i + 1)}",
                      f"  set_tool_digital_out({GRIPPER_OUTPUT}, {m.on})"]
            if m.duration is not None:
                lines.append(f"  sleep({fmt(m.duration, 3)})")
            continue
        note = f"  ({m.comment})" if m.comment else ""
        via = f" via {m.via.name}" if m.via is not None else ""
        lines.append(f"  # move {i + 1}: {m.kind}{via} -> {m.target.name}{note}")
        if m.kind == "joint":
            q = "[" + ", ".join(fmt(x, DECIMALS) for x in m.target.q) + "]"
            params = _args(a=m.accel_fraction * a_joint, v=m.speed_fraction * v_joint,
                           t=m.duration, r=m.blend_radius)
            lines.append(f"  movej({q}, {params})")
        elif m.kind == "linear":
            params = _args(a=m.accel_fraction * program.max_tcp_accel, v=m.tcp_speed,
                           t=m.duration, r=m.blend_radius)
            lines.append(f"  movel({_p(m.target.pose)}, {params})")
        else:
            params = _args(a=m.accel_fraction * program.max_tcp_accel, v=m.tcp_speed,
                           r=m.blend_radius)
            lines.append(f"  movec({_p(m.via.pose)}, {_p(m.target.pose)}, {params}, mode=0)")
    lines += ["end", f"{fname}()", ""]
    return "\n".join(lines)


_NUM = r"[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"
_LIST = r"\[([^\]]*)\]"
_PARAMS = r"((?:,\s*[a-z]+=" + _NUM + r")*)"
_MOVEJ = re.compile(r"^movej\(" + _LIST + _PARAMS + r"\)$")
_MOVEL = re.compile(r"^movel\(p" + _LIST + _PARAMS + r"\)$")
_MOVEC = re.compile(r"^movec\(p" + _LIST + r",\s*p" + _LIST + _PARAMS + r"\)$")
_TCP = re.compile(r"^set_tcp\(p" + _LIST + r"\)$")
_COMMENT = re.compile(r"^# move \d+: \w+(?: via \S+)? -> (.*?)(?:  \(.*\))?$")
_OUTPUT = re.compile(r"^set_tool_digital_out\((\d+),\s*(True|False)\)$")
_SLEEP = re.compile(r"^sleep\((" + _NUM + r")\)$")


def _numbers(text: str, count: int, where: str) -> np.ndarray:
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != count:
        raise RobotLanguageError(f"{DIALECT}: {where}: expected {count} numbers, got "
                                 f"{len(parts)}")
    return np.array([parse_number(t, DIALECT, where) for t in parts])


def _params(text: str, where: str) -> dict:
    out = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        key, _, value = item.partition("=")
        out[key] = parse_number(value, DIALECT, f"{where}, {key}")
    return out


def read_urscript(text: str) -> tuple[np.ndarray, list[ReadMove]]:
    """Read what :func:`write_urscript` wrote: ``(tcp, moves)`` with ``tcp`` the (4, 4)
    ``set_tcp`` transform and one :class:`ReadMove` per ``movej`` / ``movel`` / ``movec``
    and per gripper output (kind "grasp" / "release", the part as ``name``, ``params``
    ``output`` and, after a ``sleep``, ``duration`` s). Any other statement is refused with
    its line number."""
    checked_text(text, DIALECT)
    tcp, moves, name = None, [], ""
    for k, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"line {k}"
        if not line:
            continue
        if line.startswith("#"):
            name = commented_name(line, _COMMENT, name)
            continue
        if line.startswith("def ") or line == "end" or re.fullmatch(r"\w+\(\)", line):
            continue
        if mt := _OUTPUT.match(line):
            moves.append(ReadMove("grasp" if mt.group(2) == "True" else "release", name,
                                  params={"output": int(mt.group(1))}))
        elif mt := _SLEEP.match(line):
            if not moves or moves[-1].kind not in ("grasp", "release"):
                raise RobotLanguageError(f"{DIALECT}: {where}: a sleep robogui writes only "
                                         "after a gripper output")
            moves[-1].params["duration"] = parse_number(mt.group(1), DIALECT, where)
        elif mt := _TCP.match(line):
            tcp = pose_from_ur(_numbers(mt.group(1), 6, where))
        elif mt := _MOVEJ.match(line):
            moves.append(ReadMove("joint", name, q=_numbers(mt.group(1), 6, where),
                                  params=_params(mt.group(2), where)))
        elif mt := _MOVEL.match(line):
            moves.append(ReadMove("linear", name,
                                  pose=pose_from_ur(_numbers(mt.group(1), 6, where)),
                                  params=_params(mt.group(2), where)))
        elif mt := _MOVEC.match(line):
            moves.append(ReadMove("circular", name,
                                  via_pose=pose_from_ur(_numbers(mt.group(1), 6, where)),
                                  pose=pose_from_ur(_numbers(mt.group(2), 6, where)),
                                  params=_params(mt.group(3).replace(", mode=0", ""), where)))
        else:
            raise RobotLanguageError(f"{DIALECT}: {where}: not a statement robogui writes: "
                                     f"{line[:80]!r}")
    if tcp is None:
        raise RobotLanguageError(f"{DIALECT}: no set_tcp(p[...]) found")
    return tcp, moves
