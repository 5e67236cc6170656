"""Robot definition files (TOML) and the robot library.

One robot per file, readable with the standard library's ``tomllib`` and written
back by :func:`save_robot`. The format is documented in ``docs/robot-file-format.md``.

- :func:`load_robot` takes a library name (``"puma560"``) or a path to any file.
- :func:`list_robots` gives the names in the library (the ``robots/`` directory,
  shipped inside wheels as the data package ``robogui._robots``).
- :func:`save_robot` writes a file atomically; ``load_robot(save_robot(r, p)) == r``.
- Anything wrong in a file raises :class:`RobotFileError` naming the file, the link
  (1-based) and the field.
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Mapping
from decimal import Decimal
from pathlib import Path

import numpy as np

from ..engine import bounds
from ..engine.files import TextDecodeProblem, atomic_write_text, decode_text
from ..engine.guarded_open import check_regular, read_guarded
from ..engine.model.link import Link, inertia_vector
from ..engine.model.robot import Robot
from ..engine.spatial.transforms import rpy2r, tr2rpy
from .file_error import RobotFileError, _closest
from .tomlwrite import toml_table

__all__ = [
    "FORMAT",
    "RobotFileError",
    "load_robot",
    "save_robot",
    "list_robots",
    "library_path",
    "robot_from_toml",
    "robot_to_toml",
]

FORMAT = "robogui-robot 1"

TOP_KEYS = ("format", "name", "manufacturer", "source", "comment", "convention", "units",
            "length_units", "gravity", "base", "tool", "poses", "links")
TOP_REQUIRED = ("format", "name", "convention", "units", "links")
LINK_KEYS = ("joint", "name", "theta", "d", "a", "alpha", "offset", "qlim", "m", "r", "I",
             "Jm", "G", "B", "Tc", "tau_max", "qd_max", "qdd_max", "flip", "locked",
             "collision_radius")
FRAME_KEYS = ("xyz", "rpy", "matrix")
CONVENTIONS = {"standard": False, "modified": True}
ANGLE_UNITS = {"rad": None, "deg": math.radians}
LENGTH_UNITS = {"m": 1.0, "mm": 1000.0}


# ---------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------
class _Exact(float):
    """A float from the file that remembers its decimal text, so that a length given in
    millimetres converts to the nearest metre value (260.4 mm -> 0.2604 m exactly)."""

    text: str

    def __new__(cls, text: str):
        obj = super().__new__(cls, text)
        obj.text = text
        return obj


class _Reader:
    """Turns the dict from ``tomllib`` into a Robot, checking every field on the way."""

    def __init__(self, where: str, data: dict):
        self.where = where
        self.data = data
        self.link: int | None = None  # 1-based link being read, for messages

    def error(self, problem: str, field: str | None = None) -> RobotFileError:
        return RobotFileError(problem, self.where, self.link, field)

    # -- typed getters ---------------------------------------------------------------
    def check_keys(self, table: Mapping, valid, what: str) -> None:
        unknown = [k for k in table if k not in valid]
        if unknown:
            key = unknown[0]
            raise self.error(f"unknown key '{key}' in {what}{_closest(key, valid)} "
                             f"(valid keys: {', '.join(valid)})", field=key)

    def number(self, value, field: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(f"expected a number, got {type(value).__name__} {value!r}", field)
        try:
            finite = math.isfinite(value)
        except OverflowError:  # an integer beyond the float range
            finite = False
        if not finite:
            raise self.error(f"must be a finite number, got {value!r}", field)
        return value if isinstance(value, _Exact) else float(value)

    def numbers(self, value, count: int, field: str) -> list[float]:
        if not isinstance(value, list):
            raise self.error(f"expected a list of {count} numbers, got "
                             f"{type(value).__name__} {value!r}", field)
        if len(value) != count:
            raise self.error(f"expected {count} numbers, got {len(value)}", field)
        return [self.number(v, field) for v in value]

    def string(self, value, field: str) -> str:
        if not isinstance(value, str):
            raise self.error(f"expected a string, got {type(value).__name__} {value!r}", field)
        return value

    def choice(self, value, options, field: str) -> str:
        text = self.string(value, field)
        if text not in options:
            raise self.error(f"unknown value {text!r}{_closest(text, options)} "
                             f"(expected one of: {', '.join(options)})", field)
        return text

    # -- the file ----------------------------------------------------------------------
    def robot(self) -> Robot:
        data = self.data
        self.check_keys(data, TOP_KEYS, "the file")
        for key in TOP_REQUIRED:
            if key not in data:
                raise self.error("required key is missing", key)
        fmt = self.string(data["format"], "format")
        if fmt != FORMAT:
            raise self.error(f"unsupported format {fmt!r} (this version reads {FORMAT!r})",
                             "format")
        name = self.string(data["name"], "name")
        texts = {k: self.string(data.get(k, ""), k) for k in ("manufacturer", "source", "comment")}
        mdh = CONVENTIONS[self.choice(data["convention"], tuple(CONVENTIONS), "convention")]
        self.to_rad = ANGLE_UNITS[self.choice(data["units"], tuple(ANGLE_UNITS), "units")]
        self.per_m = LENGTH_UNITS[self.choice(data.get("length_units", "m"),
                                              tuple(LENGTH_UNITS), "length_units")]
        gravity = self.numbers(data.get("gravity", [0.0, 0.0, -9.81]), 3, "gravity")

        links_data = data["links"]
        if not isinstance(links_data, list) or not links_data or not all(
                isinstance(t, dict) for t in links_data):
            raise self.error("expected one or more [[links]] tables", "links")
        if len(links_data) > bounds.MAX_JOINTS:
            raise self.error(f"{len(links_data)} links is more than the {bounds.MAX_JOINTS} "
                             "robogui handles", "links")
        why = bounds.out_of_bounds(gravity, bounds.MAX_GRAVITY)
        if why:
            raise self.error(why, "gravity")
        links, self.locked, self.radii = [], {}, {}
        for k, table in enumerate(links_data, 1):
            self.link = k
            links.append(self.one_link(table, mdh))
        self.link = None

        base = self.frame(data.get("base", {}), "base")
        tool = self.frame(data.get("tool", {}), "tool")
        poses = self.poses(data.get("poses", {}), links)
        for field, T in (("base", base), ("tool", tool)):
            why = bounds.out_of_bounds(T[:3, 3], bounds.MAX_LENGTH)
            if why:
                raise self.error(f"translation {why} m", field)
        try:
            radii = [self.radii.get(k, 0.0) for k in range(len(links))] if self.radii else ()
            robot = Robot(links, name=name, base=base, tool=tool, gravity=gravity, poses=poses,
                          collision_radii=radii, **texts)
        except ValueError as exc:  # e.g. a base matrix that is not a rigid transform
            field = str(exc).split()[0] if str(exc) else None
            raise self.error(str(exc), field if field in TOP_KEYS else None) from exc
        problems = bounds.robot_bound_problems(robot)  # what the per-field checks left
        if problems:
            raise self.error(problems[0])
        if self.locked:  # immobile joints: held at their value and dropped from q
            from ..engine.model.immobile import lock_joints

            try:
                return lock_joints(robot, self.locked)
            except ValueError as exc:
                raise self.error(str(exc), "locked") from exc
        return robot

    def angle(self, x: float) -> float:
        return float(x) if self.to_rad is None else self.to_rad(x)

    def length(self, x: float) -> float:
        if self.per_m == 1.0:
            return float(x)
        # divide the decimal text, then round once (260.4 mm -> 0.2604 m, not 0.26039...96)
        exact = Decimal(x.text) if isinstance(x, _Exact) else Decimal(x)
        return float(exact / Decimal(self.per_m))

    def one_link(self, t: dict, mdh: bool) -> Link:
        for bad in ("convention", "mdh"):
            if bad in t:
                raise self.error("the D-H convention is set once for the whole robot "
                                 "(top-level 'convention'); a link cannot choose its own, "
                                 "so conventions cannot be mixed", bad)
        self.check_keys(t, LINK_KEYS, f"link {self.link}")
        if "joint" not in t:
            raise self.error("required key is missing", "joint")
        joint = self.string(t["joint"], "joint")
        if joint not in ("R", "P"):
            raise self.error(f"unknown joint type {joint!r} (expected 'R' for revolute or "
                             "'P' for prismatic)", "joint")
        revolute = joint == "R"
        # the fixed D-H parameters are required; the one the joint variable replaces is not
        fixed = ("d", "a", "alpha") if revolute else ("theta", "a", "alpha")
        for key in fixed:
            if key not in t:
                kind = "revolute" if revolute else "prismatic"
                raise self.error(f"required key is missing (a {kind} link needs "
                                 f"{', '.join(fixed)})", key)
        num = lambda key, default=0.0: self.number(t[key], key) if key in t else default
        joint_unit = self.angle if revolute else self.length
        kw = dict(
            joint=joint, mdh=mdh,
            theta=self.angle(num("theta")), d=self.length(num("d")),
            a=self.length(num("a")), alpha=self.angle(num("alpha")),
            offset=joint_unit(num("offset")),
            m=num("m"), Jm=num("Jm"), G=num("G", 1.0), B=num("B"),
            name=self.string(t.get("name", ""), "name"),
        )
        for key in ("m", "Jm", "B"):
            if kw[key] < 0:
                raise self.error(f"must not be negative, got {t[key]!r}", key)
        if "qlim" in t:
            lo, hi = self.numbers(t["qlim"], 2, "qlim")
            if lo > hi:
                raise self.error(f"lower limit {lo!r} is above upper limit {hi!r}", "qlim")
            kw["qlim"] = (joint_unit(lo), joint_unit(hi))
        elif not revolute:
            raise self.error("required key is missing (a prismatic joint needs its travel "
                             "limits [lower, upper])", "qlim")
        if "r" in t:
            kw["r"] = [self.length(x) for x in self.numbers(t["r"], 3, "r")]
        if "I" in t:
            kw["I"] = self.inertia(t["I"])
        if "Tc" in t:
            tc = t["Tc"]
            kw["Tc"] = self.number(tc, "Tc") if not isinstance(tc, list) else tuple(
                self.numbers(tc, 2, "Tc"))
        if "locked" in t:  # the value the joint is held at (joint unit of the file)
            self.locked[self.link - 1] = joint_unit(self.number(t["locked"], "locked"))
        if "flip" in t:
            if not isinstance(t["flip"], bool):
                raise self.error(f"must be true (reversed joint axis) or false, got "
                                 f"{t['flip']!r}", "flip")
            kw["flip"] = t["flip"]
        if "tau_max" in t:
            kw["tau_max"] = self.number(t["tau_max"], "tau_max")
            if kw["tau_max"] < 0:
                raise self.error(f"must not be negative, got {t['tau_max']!r}", "tau_max")
        if "collision_radius" in t:  # capsules of the collision checks around the sticks
            r = self.length(self.number(t["collision_radius"], "collision_radius"))
            if not 0.0 < r <= bounds.MAX_LENGTH:
                raise self.error(f"must be a positive length of at most {bounds.MAX_LENGTH:g} m,"
                                 f" got {t['collision_radius']!r}", "collision_radius")
            self.radii[self.link - 1] = r
        for key in ("qd_max", "qdd_max"):  # per second (squared), in the file's joint unit
            if key in t:
                value = self.number(t[key], key)
                if not value > 0:
                    raise self.error(f"must be a positive number, got {t[key]!r}", key)
                kw[key] = joint_unit(value)
        try:
            link = Link(**kw)
        except ValueError as exc:
            # Link's messages start with the field name, e.g. "I (inertia) must be ..."
            word = str(exc).split()[0] if str(exc) else ""
            raise self.error(str(exc), word if word in LINK_KEYS else None) from exc
        for field, why in bounds.link_bound_problems(link):  # SI values, after conversion
            raise self.error(f"{why} (in SI units; see docs/bounds.md)", field)
        return link

    def inertia(self, value) -> list[float] | list[list[float]]:
        if isinstance(value, list) and len(value) == 3 and all(isinstance(v, list) for v in value):
            return [self.numbers(row, 3, "I") for row in value]
        if isinstance(value, list) and len(value) != 6:
            raise self.error(f"expected 6 numbers [Ixx, Iyy, Izz, Ixy, Iyz, Ixz] or a 3x3 "
                             f"matrix, got {len(value)} values", "I")
        return self.numbers(value, 6, "I")

    def frame(self, t, field: str) -> np.ndarray:
        if not isinstance(t, dict):
            raise self.error(f"expected a table [{field}] with xyz and rpy, or matrix", field)
        self.check_keys(t, FRAME_KEYS, f"[{field}]")
        if "matrix" in t:
            if len(t) > 1:
                raise self.error("give either 'matrix' or 'xyz'/'rpy', not both",
                                 f"{field}.matrix")
            rows = t["matrix"]
            if not isinstance(rows, list) or len(rows) != 4:
                raise self.error("expected a 4x4 matrix (4 rows of 4 numbers)", f"{field}.matrix")
            M = [self.numbers(row, 4, f"{field}.matrix") for row in rows]
            return np.array([[self.length(x) if j == 3 and i < 3 else float(x)
                              for j, x in enumerate(row)] for i, row in enumerate(M)])
        xyz = [self.length(x) for x in self.numbers(t.get("xyz", [0, 0, 0]), 3, f"{field}.xyz")]
        rpy = [self.angle(x) for x in self.numbers(t.get("rpy", [0, 0, 0]), 3, f"{field}.rpy")]
        return _frame(xyz, rpy)

    def poses(self, t, links: list[Link]) -> dict[str, list[float]]:
        if not isinstance(t, dict):
            raise self.error("expected a table [poses] of name = [q1, q2, ...]", "poses")
        out = {}
        for name, value in t.items():
            field = f"poses.{name}"
            if not isinstance(value, list):
                raise self.error(f"expected a list of {len(links)} joint values, got "
                                 f"{type(value).__name__} {value!r}", field)
            if len(value) != len(links):
                raise self.error(f"has {len(value)} values but the robot has {len(links)} "
                                 "joints", field)
            q = [self.number(v, field) for v in value]
            out[name] = [self.angle(x) if L.joint == "R" else self.length(x)
                         for x, L in zip(q, links, strict=True)]
        return out


def _frame(xyz, rpy) -> np.ndarray:
    """4x4 transform from a translation and roll-pitch-yaw angles (zyx order), radians."""
    T = np.eye(4)
    if any(rpy):
        T[:3, :3] = rpy2r(rpy)
    T[:3, 3] = xyz
    return T


def robot_from_toml(text: str | bytes, where: str = "<string>") -> Robot:
    """Parse the text of a robot file. ``where`` names the source in error messages."""
    if isinstance(text, bytes):
        try:
            text = decode_text(text)
        except TextDecodeProblem as exc:
            raise RobotFileError(str(exc), where) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark is not part of the TOML
    try:
        data = tomllib.loads(text, parse_float=_Exact)
    except tomllib.TOMLDecodeError as exc:  # its message carries the line and column
        raise RobotFileError(f"TOML syntax error: {exc}", where) from None
    except (RecursionError, MemoryError):  # tomllib recurses once per nesting level
        raise RobotFileError("the tables or arrays are nested too deeply to read", where) from None
    try:
        return _Reader(where, data).robot()
    except (RecursionError, MemoryError, OverflowError) as exc:
        raise RobotFileError(f"a value is too large or too deeply nested ({exc})",
                             where) from None


# ---------------------------------------------------------------------------------
# the library
# ---------------------------------------------------------------------------------
_cache: dict[str, tuple[tuple[int, int], Robot]] = {}


def library_path() -> Path:
    """The directory of the robot library.

    Installed (wheel or editable) it is the data package ``robogui._robots``; in a plain
    source checkout it is the ``robots/`` directory next to the ``robogui`` package.
    """
    try:
        from importlib.resources import files

        for entry in files("robogui._robots").iterdir():
            if isinstance(entry, Path) and entry.suffix == ".toml":
                return entry.parent
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    return Path(__file__).resolve().parents[2] / "robots"


def _library() -> dict[str, Path]:
    folder = library_path()
    if not folder.is_dir():
        return {}
    return {p.stem.lower(): p for p in sorted(folder.glob("*.toml"))}


def list_robots() -> list[str]:
    """Names of the robots in the library, sorted (e.g. ``["irb140", "kr5", ...]``)."""
    return sorted(_library())


def _is_library_name(name_or_path) -> bool:
    if not isinstance(name_or_path, str):
        return False
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    suffix = os.path.splitext(name_or_path)[1].lower()
    return not any(s in name_or_path for s in seps) and suffix not in LOADERS_BY_SUFFIX


#: file suffixes load_robot understands; legacy formats are read by their own modules
LOADERS_BY_SUFFIX = {".toml": "robogui", ".conf": "ROBOOP", ".dat": "SpaceLib Rob_Mat",
                     ".urdf": "URDF", ".xacro": "URDF (xacro)", ".xml": "MJCF (MuJoCo)",
                     ".mjcf": "MJCF (MuJoCo)"}


def load_robot(name_or_path: str | os.PathLike, tip: str | None = None,
               package_path=None, xacro_args=None) -> Robot:
    """Load a robot from the library by name, or from a file by path.

    A string without a path separator and without a known suffix is a library name
    (case-insensitive), e.g. ``load_robot("puma560")``; anything else is a path. Besides
    robogui's TOML files, ROBOOP ``.conf`` and SpaceLib Rob_Mat ``.DAT`` files load too
    (see docs/legacy-formats.md). URDF ``.urdf`` and xacro ``.xacro`` files give the
    chain from the root link to ``tip`` (default: see :func:`robogui.io.ros.urdf.load_urdf`);
    ``package_path`` adds folders for ``package://`` names; ``xacro_args`` (a dict NAME ->
    VALUE) gives a xacro's ``$(arg NAME)``. MuJoCo ``.xml`` / ``.mjcf``
    files (root ``<mujoco>``) are compiled by the ``mujoco`` package and give the chain from
    the world to ``tip``, a body or site (see :func:`robogui.io.mjcf.mjcf.load_mjcf`); a
    ``.xml`` file whose root is ``<robot>`` is read as URDF.
    Parsed files are cached by (path, modification time, size), and a Robot is immutable,
    so loading the same file twice is cheap and returns equal robots.

    Raises RobotFileError (a ValueError) for an unknown name, an unreadable file or a
    malformed one; the message names the file, the link and the field.
    """
    if _is_library_name(name_or_path):
        lib = _library()
        path = lib.get(name_or_path.lower())
        if path is None:
            raise RobotFileError(
                f"no robot named {name_or_path!r} in the library{_closest(name_or_path, lib)}"
                f" (available: {', '.join(sorted(lib)) or 'none'})")
    else:
        path = Path(name_or_path)
    suffix = path.suffix.lower()
    if suffix in (".urdf", ".xacro"):
        from .ros.urdf import load_urdf

        return load_urdf(path, tip=tip, package_path=package_path, xacro_args=xacro_args)
    if xacro_args:
        raise RobotFileError("xacro_args= applies to xacro files only", path)
    if suffix in (".xml", ".mjcf"):
        from .mjcf.mjcf import is_mjcf, load_mjcf

        if suffix == ".xml" and not is_mjcf(path) and path.is_file():
            from .ros.urdf import load_urdf

            return load_urdf(path, tip=tip, package_path=package_path)
        return load_mjcf(path, tip=tip)
    if tip is not None:
        raise RobotFileError("tip= applies to URDF, xacro and MJCF files only", path)
    if suffix == ".conf":
        from .legacy.roboop import load_roboop

        return load_roboop(path)
    if suffix == ".dat":
        from .legacy.robmat import load_robmat_dat

        return load_robmat_dat(path)
    try:
        stat = check_regular(path)
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    key = str(path.resolve())
    stamp = (stat.st_mtime_ns, stat.st_size)
    hit = _cache.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    if stat.st_size > bounds.MAX_FILE_BYTES:
        raise RobotFileError(f"the file is {stat.st_size / 2**20:.1f} MiB; a robot file is at "
                             f"most {bounds.MAX_FILE_BYTES // 2**20} MiB", path)
    try:
        raw = read_guarded(path, bounds.MAX_FILE_BYTES)  # regular file, never blocks
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    robot = robot_from_toml(raw, str(path))
    _cache[key] = (stamp, robot)
    return robot


# ---------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------
def _floats(values) -> list[float]:
    return [float(v) for v in np.asarray(values, dtype=float).ravel()]


def _frame_items(T: np.ndarray) -> list[tuple[str, object]]:
    """xyz/rpy when they reproduce T bit for bit, otherwise the full matrix."""
    xyz = _floats(T[:3, 3])
    rpy = [0.0] * 3
    if not np.array_equal(T[:3, :3], np.eye(3)):
        rpy = [x + 0.0 for x in _floats(tr2rpy(T[:3, :3]))]  # + 0.0 turns -0.0 into 0.0
    if np.array_equal(_frame(xyz, rpy), T):
        items = []
        if any(xyz):
            items.append(("xyz", xyz))
        if any(rpy):
            items.append(("rpy", rpy))
        return items
    return [("matrix", [_floats(row) for row in T])]


def _link_items(L: Link) -> list[tuple[str, object]]:
    if getattr(L, "is_general", False):  # the format has D-H links only (so far)
        raise ValueError(f"link {L.name or L!r} is a general joint (origin/axis), which the "
                         "robot file format cannot describe; nothing was written")
    items: list[tuple[str, object]] = [("joint", L.joint)]
    if L.name:
        items.append(("name", L.name))
    if L.joint == "R":
        if L.theta != 0.0:
            items.append(("theta", L.theta))
        items.append(("d", L.d))
    else:
        items.append(("theta", L.theta))
        if L.d != 0.0:
            items.append(("d", L.d))
    items += [("a", L.a), ("alpha", L.alpha)]
    if L.offset != 0.0:
        items.append(("offset", L.offset))
    if L.flip:
        items.append(("flip", True))
    if L.qlim is not None:
        items.append(("qlim", list(L.qlim)))
    if L.m != 0.0:
        items.append(("m", L.m))
    if np.any(L.r):
        items.append(("r", _floats(L.r)))
    if np.any(L.I):
        items.append(("I", inertia_vector(L.I)))
    if L.Jm != 0.0:
        items.append(("Jm", L.Jm))
    if L.G != 1.0:
        items.append(("G", L.G))
    if L.B != 0.0:
        items.append(("B", L.B))
    if L.Tc != (0.0, 0.0):
        items.append(("Tc", list(L.Tc)))
    if L.tau_max is not None:
        items.append(("tau_max", L.tau_max))
    for key in ("qd_max", "qdd_max"):
        if getattr(L, key) is not None:
            items.append((key, getattr(L, key)))
    return items


def robot_to_toml(robot: Robot) -> str:
    """The text of a robot file for ``robot`` (radians and metres, floats exact)."""
    if not isinstance(robot, Robot):
        raise ValueError(f"robot must be a Robot, got {type(robot).__name__}")
    if robot.mimic:  # the TOML format has no coupling: a file without it would be wrong
        raise ValueError(f"{robot.name!r} has mimic joints, which a robogui TOML file cannot "
                         "hold; save it as .urdf")
    head = [("format", FORMAT), ("name", robot.name)]
    head += [(k, getattr(robot, k)) for k in ("manufacturer", "source", "comment")
             if getattr(robot, k)]
    head += [("convention", "modified" if robot.is_mdh else "standard"), ("units", "rad"),
             ("length_units", "m"), ("gravity", _floats(robot.gravity))]
    parts = [toml_table(None, head)]
    for field, T in (("base", robot.base), ("tool", robot.tool)):
        if not np.array_equal(T, np.eye(4)):
            parts.append(toml_table(field, _frame_items(T)))
    if robot.poses:
        parts.append(toml_table("poses", [(k, _floats(v)) for k, v in robot.poses.items()]))
    radii = robot.collision_radii or (0.0,) * robot.n
    for L, r in zip(robot.links, radii, strict=True):
        extra = [("collision_radius", r)] if r > 0 else []
        parts.append(toml_table("links", _link_items(L) + extra, array=True))
    return "\n".join(parts)


def save_robot(robot: Robot, path: str | os.PathLike) -> Path:
    """Write ``robot`` to ``path`` as a robot file (``.urdf``: URDF, else robogui TOML),
    atomically; returns the path.

    The text goes to a temporary file in the same directory which then replaces the
    target in one step, so a crash never leaves a half-written file. Units are radians
    and metres; floats are written exactly, so ``load_robot(path) == robot``.
    """
    path = Path(path)
    if path.suffix.lower() == ".urdf":
        from .ros.urdf_write import robot_to_urdf

        text = robot_to_urdf(robot)
    else:
        text = robot_to_toml(robot)
    atomic_write_text(path, text)
    _cache.pop(str(path.resolve()), None)
    return path

