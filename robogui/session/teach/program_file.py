"""Teach programs as TOML text files (``.prog``), format described in docs/program-file-format.md.

``save_program`` writes atomically (a temporary file in the same folder, flushed and
synced, then ``os.replace``), so a crash never leaves a half-written program.
``load_program`` raises :class:`ProgramFileError` naming the file, the line, the entry
(``waypoint 2``, ``move 3``) and the field of anything malformed, unknown keys included.

Joint values are stored in SI units: radians for revolute joints, metres for
prismatic ones (a trailing comment shows revolute-looking values in degrees, for
people reading the file).
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

from robogui.engine.bounds import MAX_FILE_BYTES
from robogui.engine.files import TextDecodeProblem, atomic_write_text, read_text
from robogui.io.tomlwrite import toml_key, toml_value

from .program import Move, Program, ProgramError, Waypoint

__all__ = ["save_program", "load_program", "dumps_program", "loads_program", "ProgramFileError",
           "FORMAT_NAME", "FORMAT_VERSION", "PROGRAM_SUFFIX", "file_version"]

FORMAT_NAME = "robogui-program"
#: 2 added via, speed_percent, accel_percent, blend_radius_mm, planned; 3 the gripper steps
#: (kind "grasp" with part, kind "release"). A program is written as the lowest version that
#: holds it: one without gripper steps stays version 2.
FORMAT_VERSION = 3
PROGRAM_SUFFIX = ".prog"

_ROOT_KEYS = {"format": str, "version": int, "name": str, "robot": str, "comment": str,
              "waypoint": list, "move": list}
_WAYPOINT_KEYS = {"name": str, "q": list, "comment": str}
_MOVE_KEYS = {"kind": str, "target": str, "duration": float, "speed": float, "blend": float,
              "comment": str, "via": str, "speed_percent": float, "accel_percent": float,
              "blend_radius_mm": float, "planned": list, "part": str}
#: move keys that version 1 files do not have
_V2_MOVE_KEYS = ("via", "speed_percent", "accel_percent", "blend_radius_mm", "planned")
#: move keys and kinds that version 2 files do not have
_V3_MOVE_KEYS = ("part",)
_V3_KINDS = ("grasp", "release")
#: waypoints, and moves, in one program file
MAX_ENTRIES = 100_000
_TYPE_WORDS = {str: "text", int: "an integer", float: "a number", list: "a list"}


class ProgramFileError(ProgramError):
    """A program file that cannot be read; ``path``, ``line``, ``entry``, ``field`` locate it."""

    def __init__(self, path, message: str, line: int | None = None, entry: str | None = None,
                 field: str | None = None):
        self.path = None if path is None else str(path)
        self.line, self.entry, self.field, self.reason = line, entry, field, message
        where = self.path or "<program text>"
        if line is not None:
            where += f", line {line}"
        parts = [p for p in (entry, f"field '{field}'" if field else None) if p]
        super().__init__(f"{where}: {': '.join(parts + [message])}" if parts
                         else f"{where}: {message}")


# -- writing -------------------------------------------------------------------------
def _deg_comment(q) -> str:
    return "# deg: [" + ", ".join(f"{math.degrees(x):.6g}" for x in q) + "]"


def dumps_program(program: Program) -> str:
    """The text of ``program`` in the robogui program format."""
    lines = ["# robogui teach program (TOML). Joint values in radians (revolute) or metres",
             "# (prismatic); see docs/program-file-format.md.",
             f"format = {toml_value(FORMAT_NAME)}",
             f"version = {file_version(program)}",
             f"name = {toml_value(program.name)}",
             f"robot = {toml_value(program.robot)}"]
    if program.comment:
        lines.append(f"comment = {toml_value(program.comment)}")
    for w in program.waypoints:
        lines += ["", "[[waypoint]]", f"name = {toml_value(w.name)}",
                  f"q = {toml_value([float(x) for x in w.q])}  {_deg_comment(w.q)}"]
        if w.comment:
            lines.append(f"comment = {toml_value(w.comment)}")
    for m in program.moves:
        if m.is_gripper:  # kind, part, duration, comment: nothing else applies
            lines += ["", "[[move]]", f"kind = {toml_value(m.kind)}"]
            if m.part:
                lines.append(f"part = {toml_value(m.part)}")
            if m.duration is not None:
                lines.append(f"duration = {toml_value(float(m.duration))}")
            if m.comment:
                lines.append(f"comment = {toml_value(m.comment)}")
            continue
        lines += ["", "[[move]]", f"kind = {toml_value(m.kind)}",
                  f"target = {toml_value(m.target)}"]
        if m.via is not None:
            lines.append(f"via = {toml_value(m.via)}")
        if m.planned:
            lines.append(f"planned = {toml_value(list(m.planned))}")
        for key in ("duration", "speed", "speed_percent", "accel_percent"):
            value = getattr(m, key)
            if value is not None:
                lines.append(f"{toml_key(key)} = {toml_value(float(value))}")
        if m.blend:
            lines.append(f"blend = {toml_value(float(m.blend))}")
        if m.blend_radius:
            lines.append(f"blend_radius_mm = {toml_value(float(m.blend_radius) * 1000.0)}")
        if m.comment:
            lines.append(f"comment = {toml_value(m.comment)}")
    return "\n".join(lines) + "\n"


def file_version(program: Program) -> int:
    """The format version ``program`` is written as: 3 with grasp or release steps, else 2
    (so a program without them still opens in a robogui that reads version 2)."""
    return 3 if program.has_gripper_steps else 2


def save_program(program: Program, path) -> Path:
    """Write ``program`` to ``path`` atomically; returns the path written.

    The text goes to a temporary file next to ``path``, is flushed to disk, then
    renamed over ``path``: readers see either the old file or the new one, never a mix.
    """

    if not isinstance(program, Program):
        raise ValueError(f"program must be a Program, got {type(program).__name__}")
    path = Path(path)
    text = dumps_program(program)
    atomic_write_text(path, text)
    return path


# -- reading -------------------------------------------------------------------------
class _Locator:
    """Finds the line of ``[[table]]`` entry k and of a key inside it, for error messages."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.headers: list[tuple[int, str]] = []  # (line number, table name)
        for no, line in enumerate(self.lines, 1):
            m = re.match(r"^\s*\[\[\s*([A-Za-z_-]+)\s*\]\]", line)
            if m:
                self.headers.append((no, m.group(1)))
            elif re.match(r"^\s*\[", line):
                self.headers.append((no, "?"))

    def entry(self, table: str | None, k: int | None) -> tuple[int, int]:
        """Line span [first, last] of entry k of ``table`` (root table for None)."""
        if table is None:
            first = 1
            last = self.headers[0][0] - 1 if self.headers else len(self.lines)
            return first, last
        starts = [no for no, name in self.headers if name == table]
        if k is None or k >= len(starts):
            return 1, len(self.lines)
        first = starts[k]
        later = [no for no, _ in self.headers if no > first]
        return first, (later[0] - 1 if later else len(self.lines))

    def line(self, table: str | None, k: int | None, key: str | None = None) -> int | None:
        first, last = self.entry(table, k)
        if key is None:
            return first if table is not None else None
        pat = re.compile(rf'^\s*("{re.escape(key)}"|{re.escape(key)})\s*=')
        for no in range(first, last + 1):
            if pat.match(self.lines[no - 1]):
                return no
        return first if table is not None else None


def _is_finite(x) -> bool:
    try:
        return math.isfinite(x)
    except OverflowError:  # an integer beyond the float range
        return False


def _check_keys(data: dict, allowed: dict, fail, table, k, entry) -> None:
    for key in data:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            fail(f"unknown key (known keys: {known})", table, k, key, entry)
    for key, typ in allowed.items():
        if key not in data:
            continue
        value = data[key]
        ok = (isinstance(value, (int, float)) and not isinstance(value, bool)
              if typ is float else isinstance(value, typ) and not isinstance(value, bool))
        if not ok:
            fail(f"must be {_TYPE_WORDS[typ]}, got {value!r}", table, k, key, entry)


def loads_program(text: str, path=None) -> Program:
    """Parse program text (``path`` only names the source in errors)."""
    text = text.removeprefix("\ufeff")  # a byte-order mark is not part of the TOML
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ProgramFileError(path, f"not valid TOML: {exc}",
                               line=int(m.group(1)) if m else None) from None
    except (RecursionError, MemoryError):  # tomllib recurses once per nesting level
        raise ProgramFileError(path, "the tables or arrays are nested too deeply to read"
                               ) from None
    try:
        return _program_from_data(data, text, path)
    except (RecursionError, MemoryError, OverflowError) as exc:
        raise ProgramFileError(path, f"a value is too large or too deeply nested ({exc})"
                               ) from None


def _program_from_data(data: dict, text: str, path) -> Program:
    loc = _Locator(text)

    def fail(message, table=None, k=None, key=None, entry=None):
        raise ProgramFileError(path, message, line=loc.line(table, k, key), entry=entry,
                               field=key)

    _check_keys(data, _ROOT_KEYS, fail, None, None, None)
    fmt = data.get("format")
    if fmt is None:
        fail(f"missing 'format = \"{FORMAT_NAME}\"'; is this a robogui program file?")
    if fmt != FORMAT_NAME:
        fail(f"expected {FORMAT_NAME!r}, got {fmt!r}", key="format")
    version = data.get("version", FORMAT_VERSION)
    waypoints_data, moves_data = data.get("waypoint", []), data.get("move", [])
    if len(waypoints_data) > MAX_ENTRIES or len(moves_data) > MAX_ENTRIES:
        fail(f"more than {MAX_ENTRIES} waypoints or moves")
    if version > FORMAT_VERSION or version < 1:
        fail(f"version {version} is not supported (this robogui reads versions 1 to "
             f"{FORMAT_VERSION})", key="version")

    waypoints = []
    for k, w in enumerate(waypoints_data):
        entry = f"waypoint {k + 1}"
        if not isinstance(w, dict):
            fail("must be a [[waypoint]] table", "waypoint", k, None, entry)
        _check_keys(w, _WAYPOINT_KEYS, fail, "waypoint", k, entry)
        for key in ("name", "q"):
            if key not in w:
                fail("is missing", "waypoint", k, key, entry)
        entry = f"waypoint {k + 1} ({w['name']!r})"
        q = w["q"]
        if not q or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in q):
            fail(f"must be a non-empty list of numbers, got {q!r}", "waypoint", k, "q", entry)
        if not all(_is_finite(x) for x in q):
            fail(f"must be finite numbers, got {q!r}", "waypoint", k, "q", entry)
        try:
            waypoints.append(Waypoint(w["name"], [float(x) for x in q], w.get("comment", "")))
        except ProgramError as exc:
            fail(str(exc), "waypoint", k, "q" if ": q " in str(exc) else "name", entry)
        if waypoints[0].q.size != len(q):
            fail(f"has {len(q)} joint values but waypoint 1 has {waypoints[0].q.size}",
                 "waypoint", k, "q", entry)
        if sum(1 for x in waypoints if x.name == w["name"]) > 1:
            fail(f"the name {w['name']!r} is used by an earlier waypoint; names must be unique",
                 "waypoint", k, "name", entry)

    names = {w.name for w in waypoints}
    moves = []
    for k, mv in enumerate(moves_data):
        entry = f"move {k + 1}"
        if not isinstance(mv, dict):
            fail("must be a [[move]] table", "move", k, None, entry)
        _check_keys(mv, _MOVE_KEYS, fail, "move", k, entry)
        gripper = mv.get("kind") in _V3_KINDS
        needed = {"grasp": ("part",), "release": ()}.get(mv.get("kind"), ("target",))
        for key in ("kind", *needed):
            if key not in mv:
                fail("is missing", "move", k, key, entry)
        if version < 3:
            if gripper:
                fail(f"a {mv['kind']} step is a version 3 kind; this file says version "
                     f"{version}", "move", k, "kind", entry)
            for key in _V3_MOVE_KEYS:
                if key in mv:
                    fail(f"is a version 3 field; this file says version {version}", "move",
                         k, key, entry)
        if version < 2:
            for key in _V2_MOVE_KEYS:
                if key in mv:
                    fail("is a version 2 field; this file says version 1", "move", k, key,
                         entry)
        known = ", ".join(sorted(names)) or "none"
        for key in ("target", "via"):
            if key in mv and mv[key] not in names:
                fail(f"{mv[key]!r} is not a waypoint of this file (waypoints: {known})",
                     "move", k, key, entry)
        fields = dict(mv)
        if "planned" in fields:
            if not all(isinstance(x, str) for x in fields["planned"]):
                fail("must be a list of waypoint names", "move", k, "planned", entry)
            missing = [x for x in fields["planned"] if x not in names]
            if missing:
                fail(f"{missing[0]!r} is not a waypoint of this file (waypoints: {known})",
                     "move", k, "planned", entry)
            fields["planned"] = tuple(fields["planned"])
        if "blend_radius_mm" in fields:
            fields["blend_radius"] = fields.pop("blend_radius_mm") / 1000.0
        try:
            moves.append(Move(**fields))
        except ProgramError as exc:
            # point at the field the message is about when we can tell
            words = {"blend radius": "blend_radius_mm", "speed percent": "speed_percent",
                     "accel percent": "accel_percent", "via": "via", "planned": "planned",
                     "part": "part", "target": "target"}
            key = next((f for w, f in words.items() if f in mv and w in str(exc)), None)
            key = key or next((f for f in ("kind", "duration", "speed", "blend")
                               if f in mv and f in str(exc)), None)
            fail(str(exc), "move", k, key, entry)
    try:
        return Program(tuple(waypoints), tuple(moves), name=data.get("name", "untitled"),
                       robot=data.get("robot", ""), comment=data.get("comment", ""))
    except ProgramError as exc:  # anything the per-entry checks did not catch
        fail(str(exc))


def load_program(path) -> Program:
    """Read a program file. Raises ProgramFileError (a ValueError) naming what is wrong."""
    path = Path(path)
    try:
        text = read_text(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise ProgramFileError(path, f"cannot read the file: {exc.strerror or exc}") from None
    except TextDecodeProblem as exc:
        raise ProgramFileError(path, str(exc), line=exc.line) from None
    return loads_program(text, path)
