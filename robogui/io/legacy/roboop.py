"""ROBOOP robot configuration files (``.conf``): import and export.

The reader follows ROBOOP 1.32's ``Config::read_conf`` and ``Robot_basic`` exactly as
docs/formats.md (section 1) describes them. By default (``strict=True``) the quirks that
would silently hide a mistake are rejected with a :class:`LegacyFormatError` naming the
line and token: a ``[`` header without ``]`` (ROBOOP loops forever), ``key:value`` and
``key:`` (ROBOOP reuses the previous line's value), ``key : value``, an indented section
header, an unparseable value of a key ROBOOP reads, an unterminated last line that holds
a parameter, an unknown joint type. ``strict=False`` reproduces ROBOOP's silent behaviour
and reports each case as a warning instead (the only exception: a ``[`` line without
``]`` is always an error). Semantics kept from ROBOOP: ``theta`` (revolute) or ``d``
(prismatic) is the initial joint value and ``joint_offset`` the kinematic offset;
``Motor: 0`` ignores the motor keys; ``angle_in_degree`` also converts a prismatic
joint's limits and offset; the ``Fix`` link is the identity.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ...engine import bounds
from ...engine.files import TextDecodeProblem, atomic_write_text, read_text
from ...engine.model.link import Link
from ...engine.model.robot import Robot
from ..file_error import RobotFileError, _closest

__all__ = ["LegacyFormatError", "LegacyFormatWarning", "ConfFile", "parse_conf", "load_roboop",
           "read_roboop", "read_conf_text", "robot_to_conf", "save_roboop", "BASE_KEYS",
           "LINK_KEYS"]

#: the keys ROBOOP 1.32 reads in a robot's base section and in its link sections
BASE_KEYS = ("Name", "DH", "Fix", "MinPara", "dof", "angle_in_degree", "Motor")
LINK_KEYS = ("joint_type", "theta", "d", "a", "alpha", "theta_min", "theta_max",
             "joint_offset", "immobile", "m", "cx", "cy", "cz", "Ixx", "Ixy", "Ixz", "Iyy",
             "Iyz", "Izz", "Im", "Gr", "B", "Cf")


def read_conf_text(path) -> str:
    """The text of a .conf file (UTF-8, a byte-order mark allowed); LegacyFormatError for
    a file that cannot be read or is not text."""
    try:
        return read_text(path, bounds.MAX_FILE_BYTES).removeprefix("\ufeff")
    except OSError as exc:
        raise LegacyFormatError(f"cannot read the file ({exc.strerror or exc})", path) from None
    except TextDecodeProblem as exc:
        raise LegacyFormatError(str(exc), path, exc.line) from None


class LegacyFormatError(RobotFileError):
    """A legacy robot file (ROBOOP .conf, Rob_Mat .DAT/.MOT) that cannot be read.

    ``line`` (1-based) and ``token`` say where, when known.
    """

    def __init__(self, problem: str, path=None, line: int | None = None,
                 token: str | None = None):
        where = []
        if line is not None:
            where.append(f"line {line}")
        if token is not None:
            where.append(f"token {token!r}")
        super().__init__(", ".join(where) + (": " if where else "") + problem, path)
        self.line = line
        self.token = token


class LegacyFormatWarning(UserWarning):
    """Something ROBOOP or Rob_Mat would accept silently, but that may be a mistake."""


_INT = re.compile(r"[+-]?\d+\Z")
_DOUBLE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")


@dataclass
class ConfFile:
    """The parsed triples: ``sections[name][key] = (value, line)``; first occurrence wins."""

    path: str | None
    sections: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)

    def get(self, section: str, key: str):
        return self.sections.get(section, {}).get(key)


def parse_conf(text: str, path=None, strict: bool = True) -> ConfFile:
    """Split a .conf text into ``(section, key, value)`` triples the way ROBOOP does."""
    conf = ConfFile(None if path is None else str(path))
    warn = conf.warnings.append
    lines = text.split("\n")
    last_unterminated = lines[-1] != ""
    section = None
    prev_value = ""  # ROBOOP's reused buffer, for the key:value quirk
    for no, raw in enumerate(lines, start=1):
        if no == len(lines):
            if not last_unterminated:
                break
            line = raw.replace("\r", "")
            if section is not None and ":" in line and not line.startswith(("#", "[")):
                msg = "the last line has no newline; ROBOOP drops it"
                if strict:
                    raise LegacyFormatError(msg + " (end the file with a newline)", path, no,
                                            line.strip())
                warn(f"line {no}: {msg}")
            break
        line = raw.replace("\r", " ")
        if line.startswith("["):
            end = line.find("]")
            if end < 0:
                raise LegacyFormatError("section header without ']' (ROBOOP would loop forever)",
                                        path, no, line.strip())
            section = line[1:end]
            conf.sections.setdefault(section, {})
            continue
        if section is None or line.startswith("#") or ":" not in line:
            stripped = line.strip()
            if section is not None and stripped.startswith("[") and "]" in stripped:
                msg = "indented section header is not a header; the lines below stay in " \
                      f"section [{section}]"
                if strict:
                    raise LegacyFormatError(msg, path, no, stripped)
                warn(f"line {no}: {msg}")
            continue
        tokens = line.split()
        key_token = tokens[0]
        if key_token.startswith("#"):
            continue  # an indented '#' line: stored by ROBOOP under key '#', harmless
        if ":" in key_token and key_token.index(":") == len(key_token) - 1 and len(tokens) > 1:
            key, value = key_token[:-1], " ".join(tokens[1:])
        elif ":" in key_token:
            key = key_token[: key_token.index(":")]
            msg = (f"'{key_token}' needs a space after ':' and a value; ROBOOP would reuse the "
                   "previous line's value")
            if strict:
                raise LegacyFormatError(msg, path, no, key_token)
            warn(f"line {no}: {msg}")
            value = prev_value
        else:
            key, value = key_token, " ".join(tokens[1:])
            if len(tokens) > 1 and tokens[1].startswith(":"):
                msg = f"'{key_token}' is followed by ' :'; write 'key: value' (ROBOOP ignores it)"
            else:
                msg = (f"the line has a ':' but does not start with 'key:' (ROBOOP would read "
                       f"key '{key_token}' with value '{' '.join(tokens[1:])}' and ignore it)")
            if strict:
                raise LegacyFormatError(msg, path, no, line.strip())
            warn(f"line {no}: {msg}")
        prev_value = value
        entries = conf.sections[section]
        if key in entries:
            warn(f"line {no}: duplicate key '{key}' in [{section}] ignored (the first one, "
                 f"line {entries[key][1]}, wins)")
            continue
        entries[key] = (value, no)
    return conf


class _Values:
    """Typed lookups with ROBOOP's defaults and boost::lexical_cast rules."""

    def __init__(self, conf: ConfFile, strict: bool):
        self.conf, self.strict = conf, strict

    def get(self, section: str, key: str, kind: str, default):
        hit = self.conf.get(section, key)
        if hit is None:
            return default
        text, line = hit
        ok = {"int": _INT, "double": _DOUBLE, "bool": re.compile(r"[01]\Z")}[kind].match(text)
        if ok:
            return int(text) if kind != "double" else float(text)
        msg = (f"value of '{key}' in [{section}] is not a valid {kind}"
               + (" (only 0 or 1)" if kind == "bool" else "")
               + "; ROBOOP would silently use the default")
        if self.strict:
            raise LegacyFormatError(msg, self.conf.path, line, text)
        self.conf.warnings.append(f"line {line}: {msg} {default}")
        return default

    def has(self, section: str, key: str) -> bool:
        return self.conf.get(section, key) is not None


def _base_sections(conf: ConfFile) -> list[str]:
    return [s for s, e in conf.sections.items() if "dof" in e]


def read_roboop(path, robot_name: str | None = None, mdh: bool | None = None, *,
                strict: bool = True, min_para: bool | None = None,
                load_motor: bool | None = None, text: str | None = None):
    """Read a ROBOOP .conf robot: returns ``(Robot, warnings)``.

    ``robot_name`` is the base section (found automatically when the file has exactly one
    section with a ``dof`` key). ``mdh`` picks modified (True) or standard D-H (False);
    None takes the informational ``DH`` key. ``min_para`` likewise overrides ``MinPara``.
    ``load_motor=True`` reads ``Im Gr B Cf`` even when ``Motor: 0`` (ROBOOP ignores them).
    The initial joint values (``theta``/``d``) become the pose ``"initial"`` when nonzero.
    """
    if text is None:
        text = read_conf_text(path)
    conf = parse_conf(text.removeprefix("\ufeff"), path, strict)
    warn = conf.warnings.append
    bases = _base_sections(conf)
    if robot_name is None:
        if not bases:
            raise LegacyFormatError(
                "no robot in the file: no section has a 'dof' key (a ROBOOP robot's base "
                "section needs 'dof: <number of joints>')", path)
        if len(bases) != 1:
            found = ", ".join(f"[{b}]" for b in bases)
            raise LegacyFormatError(
                f"give robot_name: the sections with a 'dof' key are {found}", path)
        robot_name = bases[0]
    if robot_name not in conf.sections:
        raise LegacyFormatError(f"no section [{robot_name}] (robots in the file: "
                                f"{', '.join(bases) or 'none'})", path)
    v = _Values(conf, strict)
    dof = v.get(robot_name, "dof", "int", None)
    if dof is None or dof < 1:
        hit = conf.get(robot_name, "dof")
        raise LegacyFormatError(f"[{robot_name}] needs 'dof: <positive integer>'", path,
                                hit[1] if hit else None, hit[0] if hit else None)
    if dof > bounds.MAX_JOINTS:  # the header, checked before anything per link
        hit = conf.get(robot_name, "dof")
        raise LegacyFormatError(f"'dof: {dof}' is more than the {bounds.MAX_JOINTS} joints "
                                "robogui handles", path, hit[1], hit[0])
    fix = v.get(robot_name, "Fix", "int", 0)
    if fix not in (0, 1):
        raise LegacyFormatError(f"'Fix' must be 0 or 1, got {fix}", path,
                                conf.get(robot_name, "Fix")[1])
    motor = bool(v.get(robot_name, "Motor", "bool", 0))
    degrees = bool(v.get(robot_name, "angle_in_degree", "bool", 0))
    if mdh is None:
        dh = v.get(robot_name, "DH", "bool", None)
        if dh is None:
            raise LegacyFormatError(
                f"[{robot_name}] has no 'DH' key: ROBOOP takes the notation from the class "
                "used, so pass mdh=True (mRobot) or mdh=False (Robot)", path)
        mdh = dh == 0
    if min_para is None:
        min_para = bool(v.get(robot_name, "MinPara", "bool", 0))
    if load_motor is None:
        load_motor = motor
    name_hit = conf.get(robot_name, "Name")
    name = name_hit[0] if name_hit else robot_name
    conv = math.radians if degrees else float

    _warn_unknown_keys(conf, robot_name, dof)
    links, init, immobile = [], [], {}
    for j in range(1, dof + 1):
        sec = f"{robot_name}_LINK{j}"
        if sec not in conf.sections:
            msg = (f"section [{sec}] is missing although 'dof: {dof}' announces link {j} "
                   "(is the file truncated?); ROBOOP would make every value of the link 0")
            if strict:
                hit = conf.get(robot_name, "dof")
                raise LegacyFormatError(msg, path, hit[1], hit[0])
            warn(msg)
        g = lambda key, kind="double", default=0.0, s=sec: v.get(s, key, kind, default)
        jt = g("joint_type", "int", 0)
        if jt not in (0, 1):
            msg = f"link {j}: joint_type {jt} on a movable link; ROBOOP treats it as prismatic"
            hit = conf.get(sec, "joint_type")
            if strict:
                raise LegacyFormatError(msg, path, hit[1], hit[0])
            warn(f"line {hit[1]}: {msg}")
        prismatic = jt != 0
        theta, d = conv(g("theta")), g("d")
        alpha, a = conv(g("alpha")), g("a")
        qmin, qmax, offset = conv(g("theta_min")), conv(g("theta_max")), conv(g("joint_offset"))
        if prismatic and degrees and (qmin or qmax or offset):
            warn(f"link {j}: angle_in_degree also converts this prismatic joint's limits and "
                 "offset from degrees (as ROBOOP does)")
        if not v.has(sec, "joint_offset") and (d if prismatic else theta) != 0:
            warn(f"link {j}: no joint_offset and a nonzero initial value; files for ROBOOP's "
                 "2004 versions may have meant joint_offset = theta")
        if g("immobile", "bool", 0):  # locked at its initial value (theta or d)
            immobile[j - 1] = d if prismatic else theta
        qlim = None
        if qmin != 0 or qmax != 0:
            if qmin > qmax:
                hit = conf.get(sec, "theta_min")
                raise LegacyFormatError(f"link {j}: theta_min {qmin:g} is above theta_max "
                                        f"{qmax:g}", path, hit[1] if hit else None)
            qlim = (qmin, qmax)
        m = g("m")
        c = np.array([g("cx"), g("cy"), g("cz")])
        I = np.array([[g("Ixx"), g("Ixy"), g("Ixz")], [g("Ixy"), g("Iyy"), g("Iyz")],
                      [g("Ixz"), g("Iyz"), g("Izz")]])
        if min_para:  # first moment m*r and inertia about the frame origin -> COM form
            if m == 0 and np.any(c):
                raise LegacyFormatError(f"link {j}: MinPara gives m*c without a mass", path)
            r = c / m if m else c
            I = I - m * (np.dot(r, r) * np.eye(3) - np.outer(r, r))
            c = r
        kw = {}
        if load_motor:
            Cf, Gr = g("Cf"), g("Gr")
            if Gr < 0 and Cf:
                warn(f"link {j}: Gr = {Gr:g} < 0: ROBOOP's Coulomb term Gr*Cf*sign(qd) would "
                     "then push along the motion; robogui's friction uses |Gr|")
            kw = dict(Jm=g("Im"), G=Gr, B=g("B"), Tc=(abs(Cf), -abs(Cf)))
        elif any(v.has(sec, k) and g(k) for k in ("Im", "Gr", "B", "Cf")) and j == 1:
            warn("Motor: 0, so the motor keys (Im, Gr, B, Cf) are ignored, as ROBOOP does")
        try:
            links.append(Link(joint="P" if prismatic else "R",
                              theta=theta if prismatic else 0.0, d=0.0 if prismatic else d,
                              a=a, alpha=alpha, mdh=mdh, offset=offset, qlim=qlim, m=m, r=c,
                              I=I, **kw))
        except ValueError as exc:
            raise LegacyFormatError(f"link {j} ([{sec}]): {exc}", path) from None
        init.append(d if prismatic else theta)
    if fix:
        sec = f"{robot_name}_LINK{dof + 1}"
        vals = [val for k, (val, _) in conf.sections.get(sec, {}).items()
                if k != "joint_type" and _DOUBLE.match(val) and float(val) != 0]
        if vals:
            warn(f"Fix: 1 and [{sec}] holds nonzero values; ROBOOP 1.32 replaces that link by "
                 "the identity, and so does robogui")
    poses = {"initial": init} if any(init) else None
    try:
        robot = Robot(links, name=name, gravity=(0.0, 0.0, -9.81), poses=poses,
                      comment=f"imported from ROBOOP file section [{robot_name}]",
                      source=str(path) if path is not None else "")
    except ValueError as exc:
        raise LegacyFormatError(str(exc), path) from None
    problems = bounds.robot_bound_problems(robot)
    if problems:
        raise LegacyFormatError(f"{problems[0]} (SI units; see docs/bounds.md)", path)
    if immobile:
        from ...engine.model.immobile import lock_joints

        try:
            robot = lock_joints(robot, immobile)
        except ValueError as exc:
            raise LegacyFormatError(f"immobile joints: {exc}", path) from None
        held = ", ".join(f"{j + 1} at {v:g}" for j, v in sorted(immobile.items()))
        warn(f"immobile joints held at their initial value and removed from q: {held}")
    return robot, list(conf.warnings)


def _warn_unknown_keys(conf: ConfFile, robot_name: str, dof: int) -> None:
    """A misspelt key is silently ignored by ROBOOP (its default is used): warn."""
    sections = [(robot_name, BASE_KEYS)] + [(f"{robot_name}_LINK{j}", LINK_KEYS)
                                           for j in range(1, dof + 1)]
    for sec, known in sections:
        for key, (_, line) in conf.sections.get(sec, {}).items():
            if key not in known:
                conf.warnings.append(f"line {line}: unknown key '{key}' in [{sec}] is ignored "
                                     f"(ROBOOP ignores it too){_closest(key, known)}")


def load_roboop(path, robot_name: str | None = None, mdh: bool | None = None, **kw) -> Robot:
    """Load a ROBOOP .conf robot (see :func:`read_roboop`); warnings go to ``warnings``."""
    robot, msgs = read_roboop(path, robot_name, mdh, **kw)
    for msg in msgs:
        warnings.warn(f"{path}: {msg}", LegacyFormatWarning, stacklevel=2)
    return robot


# -- export ------------------------------------------------------------------------------
def _num(x: float) -> str:
    return repr(float(x))


def robot_to_conf(robot: Robot, section: str | None = None, *,
                  drop_base_tool: bool = False) -> str:
    """ROBOOP .conf text for ``robot`` (radians, ``Motor: 1`` when it has motor data).

    A .conf file cannot hold a base or tool transform: a robot with one raises ValueError
    unless ``drop_base_tool=True``. An asymmetric Coulomb friction is written as the mean of
    |Tc+| and |Tc-| (ROBOOP has one coefficient). Gravity is not stored (ROBOOP assumes -z).
    """
    if not drop_base_tool and (not np.array_equal(robot.base, np.eye(4))
                               or not robot.tool_is_identity):
        raise ValueError("a ROBOOP .conf file cannot hold a base or tool transform; pass "
                         "drop_base_tool=True to write the robot without them")
    if section is None:
        section = re.sub(r"\W+", "_", robot.name).strip("_").upper() or "ROBOT"
    if not re.fullmatch(r"[^\[\]\n]+", section):
        raise ValueError(f"section must be a name without brackets or newlines, got {section!r}")
    motor = any(L.Jm or L.B or any(L.Tc) or L.G != 1.0 for L in robot.links)
    init = robot.poses.get("initial", np.zeros(robot.n))
    name = " ".join(robot.name.split()) or section
    out = [
        "# ROBOOP robot configuration file written by robogui",
        f"# robot: {name}",
        "# angles in radians; SI units; theta (revolute) / d (prismatic) is the initial q",
        "",
        f"[{section}]",
        "",
        f"Name:            {name}",
        f"DH:              {0 if robot.is_mdh else 1}",
        "Fix:             0",
        "MinPara:         0",
        f"dof:             {robot.n}",
        "angle_in_degree: 0",
        f"Motor:           {1 if motor else 0}",
        "",
    ]
    for j, L in enumerate(robot.links, start=1):
        qlim = L.qlim or (0.0, 0.0)
        theta = L.theta if L.joint == "P" else float(init[j - 1])
        d = float(init[j - 1]) if L.joint == "P" else L.d
        items = [("joint_type", "0" if L.joint == "R" else "1"), ("theta", _num(theta)),
                 ("d", _num(d)), ("a", _num(L.a)), ("alpha", _num(L.alpha)),
                 ("theta_min", _num(qlim[0])), ("theta_max", _num(qlim[1])),
                 ("joint_offset", _num(L.offset)), ("immobile", "0"), ("m", _num(L.m)),
                 ("cx", _num(L.r[0])), ("cy", _num(L.r[1])), ("cz", _num(L.r[2])),
                 ("Ixx", _num(L.I[0, 0])), ("Ixy", _num(L.I[0, 1])), ("Ixz", _num(L.I[0, 2])),
                 ("Iyy", _num(L.I[1, 1])), ("Iyz", _num(L.I[1, 2])), ("Izz", _num(L.I[2, 2])),
                 ("Im", _num(L.Jm)), ("Gr", _num(abs(L.G))), ("B", _num(L.B)),
                 ("Cf", _num(0.5 * (abs(L.Tc[0]) + abs(L.Tc[1]))))]
        out += [f"[{section}_LINK{j}]", ""]
        out += [f"{k + ':':<14}{val}" for k, val in items]
        out.append("")
    return "\n".join(out) + "\n"


def save_roboop(robot: Robot, path, section: str | None = None, **kw) -> Path:
    """Write :func:`robot_to_conf` to ``path`` atomically (newline-terminated, as ROBOOP
    needs): a temporary file replaces the target in one step."""
    path = Path(path)
    text = robot_to_conf(robot, section, **kw)
    atomic_write_text(path, text)  # "\n" line ends, as ROBOOP needs
    return path


