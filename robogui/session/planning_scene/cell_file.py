"""Cell files (``.cell``, TOML), format described in docs/cell-file-format.md.

``save_cell`` writes atomically; ``load_cell`` raises :class:`CellFileError` naming the file,
the line, the object (``object 2 ('bin')``) and the field of anything malformed, unknown keys
included. Mesh files are read relative to the cell file and must lie in its folder tree.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from pathlib import Path

from robogui.engine.bounds import MAX_FILE_BYTES
from robogui.engine.collision_detection.meshes import read_mesh
from robogui.engine.files import TextDecodeProblem, atomic_write_text, read_text
from robogui.io.tomlwrite import toml_value

from .cell import MAX_OBJECTS, Cell, CellObject

__all__ = ["load_cell", "save_cell", "loads_cell", "dumps_cell", "CellFileError",
           "FORMAT_NAME", "FORMAT_VERSION", "CELL_SUFFIX"]

FORMAT_NAME = "robogui-cell"
FORMAT_VERSION = 1
CELL_SUFFIX = ".cell"

_NUM, _LIST = "a number", "a list"
_ROOT_KEYS = {"format": str, "version": int, "name": str, "robot": str, "base": dict,
              "floor": (bool, dict), "object": list}
_BASE_KEYS = {"xyz": list, "rpy": list}
_FLOOR_KEYS = {"z": float, "collides": bool}
_OBJECT_KEYS = {"name": str, "shape": str, "size": list, "radius": float, "length": float,
                "file": str, "scale": (float, list), "xyz": list, "rpy": list, "color": str,
                "collides": bool, "hidden": bool}
_SIZE_KEYS = {"box": ("size",), "cylinder": ("radius", "length"),
              "capsule": ("radius", "length"), "sphere": ("radius",), "mesh": ("file",)}
_WORDS = {str: "text", int: "an integer", float: _NUM, list: _LIST, dict: "a table",
          bool: "true or false"}


class CellFileError(ValueError):
    """A cell file that cannot be read; ``path``, ``line``, ``entry``, ``field`` locate it."""

    def __init__(self, path, message: str, line: int | None = None, entry: str | None = None,
                 field: str | None = None):
        self.path = None if path is None else str(path)
        self.line, self.entry, self.field, self.reason = line, entry, field, message
        where = self.path or "<cell text>"
        if line is not None:
            where += f", line {line}"
        parts = [p for p in (entry, f"field '{field}'" if field else None) if p]
        super().__init__(f"{where}: {': '.join([*parts, message])}")


# -- writing -------------------------------------------------------------------------
def dumps_cell(cell: Cell, folder=None) -> str:
    """The TOML text of ``cell``; mesh files are written relative to ``folder`` when they
    lie in it (the folder of the file being written)."""
    lines = [f"format = {toml_value(FORMAT_NAME)}", f"version = {FORMAT_VERSION}"]
    if cell.name:
        lines.append(f"name = {toml_value(cell.name)}")
    if cell.robot:
        lines.append(f"robot = {toml_value(cell.robot)}")
    lines.append(f"base = {{ xyz = {toml_value(list(cell.base_xyz))}, "
                 f"rpy = {toml_value(list(cell.base_rpy))} }}")
    lines.append(f"floor = {{ z = {toml_value(cell.floor_z)}, "
                 f"collides = {toml_value(cell.floor)} }}")
    for o in cell.objects:
        lines += ["", "[[object]]", f"name = {toml_value(o.name)}",
                  f"shape = {toml_value(o.shape)}"]
        if o.shape == "box":
            lines.append(f"size = {toml_value(list(o.size))}")
        elif o.shape in ("cylinder", "capsule"):
            lines += [f"radius = {toml_value(o.size[0])}", f"length = {toml_value(o.size[1])}"]
        elif o.shape == "sphere":
            lines.append(f"radius = {toml_value(o.size[0])}")
        else:
            lines += [f"file = {toml_value(_relative(o.file, folder))}",
                      f"scale = {toml_value(list(o.scale))}"]
        lines += [f"xyz = {toml_value(list(o.xyz))}", f"rpy = {toml_value(list(o.rpy))}",
                  f"color = {toml_value(o.color)}"]
        if not o.collides:
            lines.append("collides = false")
        if o.hidden:
            lines.append("hidden = true")
    return "\n".join(lines) + "\n"


def _relative(file: str, folder) -> str:
    if folder is None:
        return file
    try:
        return Path(os.path.relpath(file, folder)).as_posix() if Path(file).is_absolute() \
            and Path(file).resolve().is_relative_to(Path(folder).resolve()) else file
    except ValueError:  # another drive
        return file


def save_cell(cell: Cell, path) -> Path:
    """Write ``cell`` to ``path`` atomically (old file or new, never a mix); the path."""
    if not isinstance(cell, Cell):
        raise ValueError(f"cell must be a Cell, got {type(cell).__name__}")
    path = Path(path)
    atomic_write_text(path, dumps_cell(cell, path.parent))
    return path


# -- reading -------------------------------------------------------------------------
def _line_of(lines: list[str], k: int | None, key: str | None) -> int | None:
    """Line of key ``key`` in [[object]] entry k (root table when k is None)."""
    heads = [no for no, t in enumerate(lines, 1) if re.match(r"^\s*\[", t)]
    objs = [no for no, t in enumerate(lines, 1) if re.match(r"^\s*\[\[\s*object\s*\]\]", t)]
    if k is None:
        first, last = 1, (heads[0] - 1 if heads else len(lines))
    elif k < len(objs):
        first = objs[k]
        later = [no for no in heads if no > first]
        last = later[0] - 1 if later else len(lines)
    else:
        return None
    if key is None:
        return first if k is not None else None
    pat = re.compile(rf'^\s*("{re.escape(key)}"|{re.escape(key)})\s*=')
    for no in range(first, last + 1):
        if pat.match(lines[no - 1]):
            return no
    return first if k is not None else None


def _is(value, typ) -> bool:
    if isinstance(typ, tuple):
        return any(_is(value, t) for t in typ)
    if typ is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if typ is bool:
        return isinstance(value, bool)
    return isinstance(value, typ) and not isinstance(value, bool)


def _words(typ) -> str:
    return " or ".join(_WORDS[t] for t in typ) if isinstance(typ, tuple) else _WORDS[typ]


def loads_cell(text: str, path=None, folder=None) -> Cell:
    """Parse cell text. ``path`` names the source in errors; mesh files are read relative to
    ``folder`` (the cell file's folder; meshes are refused when None)."""
    text = text.removeprefix("\ufeff")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise CellFileError(path, f"not valid TOML: {exc}",
                            line=int(m.group(1)) if m else None) from None
    except (RecursionError, MemoryError):
        raise CellFileError(path, "the tables or arrays are nested too deeply to read") from None
    try:
        return _cell_from_data(data, text.splitlines(), path, folder)
    except (RecursionError, MemoryError, OverflowError) as exc:
        raise CellFileError(path, f"a value is too large or too deeply nested ({exc})") from None


def _cell_from_data(data: dict, lines: list[str], path, folder) -> Cell:
    def fail(message, k=None, key=None, entry=None):
        raise CellFileError(path, message, line=_line_of(lines, k, key), entry=entry, field=key)

    def check(table: dict, allowed: dict, k=None, entry=None, prefix=""):
        for key, value in table.items():
            if key not in allowed:
                fail(f"unknown key (known keys: {', '.join(sorted(allowed))})", k,
                     prefix + key, entry)
            if not _is(value, allowed[key]):
                fail(f"must be {_words(allowed[key])}, got {value!r}"[:300], k, prefix + key,
                     entry)

    check(data, _ROOT_KEYS)
    if "format" not in data:
        fail(f"missing 'format = \"{FORMAT_NAME}\"'; is this a robogui cell file?")
    if data["format"] != FORMAT_NAME:
        fail(f"expected {FORMAT_NAME!r}, got {data['format']!r}"[:300], key="format")
    version = data.get("version", FORMAT_VERSION)
    if not 1 <= version <= FORMAT_VERSION:
        fail(f"version {version} is not supported (this robogui reads version "
             f"{FORMAT_VERSION})", key="version")
    base = data.get("base", {})
    check(base, _BASE_KEYS, prefix="base.")
    floor = data.get("floor", True)
    if isinstance(floor, dict):
        check(floor, _FLOOR_KEYS, prefix="floor.")
    floor_on = floor if isinstance(floor, bool) else floor.get("collides", True)
    floor_z = 0.0 if isinstance(floor, bool) else floor.get("z", 0.0)
    objects_data = data.get("object", [])
    if len(objects_data) > MAX_OBJECTS:
        fail(f"{len(objects_data)} objects, more than the {MAX_OBJECTS} a cell may hold")
    objects = []
    for k, od in enumerate(objects_data):
        entry = f"object {k + 1}"
        if not isinstance(od, dict):
            fail("must be an [[object]] table", k, None, entry)
        check(od, _OBJECT_KEYS, k, entry)
        for key in ("name", "shape"):
            if key not in od:
                fail("is missing", k, key, entry)
        entry = f"object {k + 1} ({od['name']!r})"[:240]
        shape = od["shape"]
        if shape not in _SIZE_KEYS:
            fail(f"must be one of {', '.join(_SIZE_KEYS)}, got {shape!r}"[:300], k, "shape",
                 entry)
        for key in _SIZE_KEYS[shape]:
            if key not in od:
                fail(f"is missing (a {shape} needs {' and '.join(_SIZE_KEYS[shape])})", k,
                     key, entry)
        for key in ("size", "radius", "length", "file", "scale"):
            if key in od and key not in _SIZE_KEYS[shape] and not (
                    key == "scale" and shape == "mesh"):
                fail(f"a {shape} has no {key} (it takes {', '.join(_SIZE_KEYS[shape])})",
                     k, key, entry)
        for key in ("size", "xyz", "rpy", "scale", "radius", "length"):
            v = od.get(key)
            vals = v if isinstance(v, list) else [v] if v is not None else []
            if not all(_is(x, float) for x in vals):
                fail(f"must be numbers, got {v!r}"[:300], k, key, entry)
            if not all(math.isfinite(x) for x in vals):
                fail(f"must be finite numbers, got {v!r}"[:300], k, key, entry)
        size = (od["size"] if shape == "box" else [od["radius"]] if shape == "sphere"
                else () if shape == "mesh" else [od["radius"], od["length"]])
        kw = {}
        if shape == "mesh":
            kw["file"], kw["mesh"], kw["scale"] = _mesh(od, folder, fail, k, entry)
        try:
            objects.append(CellObject(
                od["name"], shape, size, xyz=od.get("xyz", (0, 0, 0)),
                rpy=od.get("rpy", (0, 0, 0)), color=od.get("color", "#8a8f98"),
                collides=od.get("collides", True), hidden=od.get("hidden", False), **kw))
        except ValueError as exc:
            msg = str(exc)
            key = next((f for f in ("size", "xyz", "rpy", "color", "name", "scale")
                        if msg.startswith(f)), None)
            if key == "size" and shape != "box":
                key = "radius"
            fail(msg[:300], k, key, entry)
        if sum(1 for o in objects if o.name == od["name"]) > 1:
            fail(f"the name {od['name']!r} is used by an earlier object; names must be unique"
                 [:300], k, "name", entry)
    try:
        return Cell(tuple(objects), robot=data.get("robot", ""),
                    base_xyz=base.get("xyz", (0, 0, 0)), base_rpy=base.get("rpy", (0, 0, 0)),
                    floor=floor_on, floor_z=floor_z, name=data.get("name", ""))
    except ValueError as exc:
        msg = str(exc)
        key = "base" if msg.startswith("base") else "floor" if "floor" in msg else None
        fail(msg[:300], key=key)


def _mesh(od: dict, folder, fail_at, k, entry):
    def fail(message):
        fail_at(message, k, "file", entry)

    scale = od.get("scale", 1.0)
    scale = [scale] * 3 if not isinstance(scale, list) else scale
    if folder is None:
        fail("a mesh needs the cell file's folder (load the cell from a file)")
    root = Path(folder).resolve()
    target = (root / od["file"]).resolve()
    if not target.is_relative_to(root):
        fail(f"{od['file']!r} lies outside the cell file's folder; meshes must be in it or "
             "below it")
    if not target.is_file():
        fail(f"no mesh file {od['file']!r} next to the cell file")
    try:
        mesh = read_mesh(target, scale if len(scale) == 3 else (1, 1, 1))
    except ValueError as exc:
        fail(str(exc))
    return str(target), mesh, scale


def load_cell(path) -> Cell:
    """Read a cell file. Raises :class:`CellFileError` (a ValueError) naming what is wrong."""
    path = Path(path)
    try:
        text = read_text(path, MAX_FILE_BYTES)
    except OSError as exc:
        raise CellFileError(path, f"cannot read the file: {exc.strerror or exc}") from None
    except TextDecodeProblem as exc:
        raise CellFileError(path, str(exc), line=exc.line) from None
    return loads_cell(text, path, path.parent)
