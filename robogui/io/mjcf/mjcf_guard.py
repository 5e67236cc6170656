"""An MJCF file from the internet compiled by MuJoCo under robogui's file rules
(docs/security.md).

MuJoCo's compiler reads every ``<include file>``, mesh, texture, height field and skin a
model names, wherever it points (``/etc/passwd``, ``../../``, a FIFO), and builds whatever
it is asked to (100,000 bodies, a gigabyte texture). Here robogui reads the model first:

- the file and everything it includes or references through the guarded opener: regular
  files inside the model's own folder tree (and package folders given), of bounded size
  (XML ``Limits.xml_bytes``, assets ``Limits.mesh_bytes`` each and together); an include
  loop, includes nested past 50, an ``<!ENTITY``, a ``<model file>`` attachment and a
  non-finite number are refused, and so is a model with more bodies than ``Limits.links``;
  a binary STL's declared triangles are checked as for URDF meshes;
- MuJoCo then compiles the text from memory with those bytes as its virtual file system
  (``MjModel.from_xml_string(xml, assets)``), in a bounded worker process
  (:mod:`robogui.engine.bounded_work`: the memory budget and the wall-time limit), in an
  empty working folder, so nothing it reads comes from the disk.

Every refusal is a RobotFileError naming the model file, and the referenced file or element.
"""

from __future__ import annotations

import os
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import mujoco  # imported here, before a bounded worker caps its memory for the job

from robogui.engine.guarded_open import RefusedFile, read_guarded
from robogui.engine.limits import ENV, limits
from robogui.engine.mesh_guard import MeshRefused, check_counts

from ..file_error import RobotFileError

__all__ = ["guarded_sources", "compile_guarded", "MAX_INCLUDE_DEPTH"]

MAX_INCLUDE_DEPTH = 50
_NAMES = {"name", "class", "childclass", "prefix", "model", "content_type"}
# asset elements and the compiler folder their files are looked up in
_ASSET_DIR = {"mesh": "meshdir", "skin": "meshdir", "hfield": "meshdir",
              "texture": "texturedir"}
_TEXTURE_SIDES = ("file", "fileright", "fileleft", "fileup", "filedown", "filefront",
                  "fileback")


def _parse(raw: bytes, where: Path, model: Path) -> ET.Element:
    if re.search(rb"<!ENTITY", raw, re.IGNORECASE):
        raise RobotFileError(f"{where.name}: XML entity declarations (<!ENTITY>) are not "
                             "allowed in a robot file", model)
    try:
        return ET.fromstring(raw)
    except ET.ParseError as exc:
        raise RobotFileError(f"{where.name}: not well-formed XML ({exc})", model) from None


def _refused(exc: OSError, model: Path, what: str) -> RobotFileError:
    why = exc.strerror or str(exc)
    return RobotFileError(f"{what} {getattr(exc, 'filename', '') or ''}: {why}"[:480], model)


def _check_numbers(el: ET.Element, model: Path) -> None:
    for key, value in el.attrib.items():
        if key in _NAMES or key.startswith("file"):
            continue
        for tok in value.split():
            try:
                x = float(tok)
            except ValueError:
                break  # a word: not a numeric attribute
            if x != x or x in (float("inf"), float("-inf")):
                name = el.get("name")
                who = f"<{el.tag} name={name!r}>" if name else f"<{el.tag}>"
                raise RobotFileError(f"{who} {key}: {tok} is not a finite number", model)


def _count(el: ET.Element, key: str, default: int = 1) -> int:
    prod = 1
    for tok in (el.get(key) or str(default)).split():
        try:
            prod *= max(1, int(float(tok)))
        except (ValueError, OverflowError):
            return 10**12
    return prod


class _Reader:
    """Reads a model's files under the rules; collects the bytes MuJoCo may ask for."""

    def __init__(self, path: Path, roots):
        self.path = path
        self.base = path.parent
        self.roots = tuple(str(r) for r in roots) or (str(self.base),)
        self.lim = limits()
        self.assets: dict[str, bytes] = {}
        self.total = 0
        self.bodies = 0
        self.dirs = {"meshdir": "", "texturedir": "", "assetdir": ""}

    def read(self, name: str, cap: int, what: str) -> bytes:
        target = Path(name)
        target = target if target.is_absolute() else self.base / target
        try:
            data = read_guarded(target, cap, self.roots)
        except RefusedFile as exc:
            raise RobotFileError(f"{what} {name}: {exc.strerror}"[:480], self.path) from None
        except OSError as exc:
            raise RobotFileError(f"{what} {name}: cannot read it ({exc.strerror or exc})"[:480],
                                 self.path) from None
        self.total += len(data)
        if self.total > self.lim.mesh_bytes:
            raise RobotFileError(f"the files the model reads add up to more than "
                                 f"{self.lim.mesh_bytes / 2**20:.0f} MiB, the limit (raise it "
                                 f"with {ENV['mesh_bytes']}=MIB)", self.path)
        return data

    def walk(self, root: ET.Element, chain: tuple[str, ...], mult: int = 1) -> None:
        """Check ``root``'s elements, read its includes (recursively) and asset files."""
        for el in root:
            tag = el.tag if isinstance(el.tag, str) else ""
            _check_numbers(el, self.path)
            if tag == "include":
                self.include(el.get("file") or "", chain, mult)
                continue
            if tag == "compiler":
                for key in self.dirs:
                    if el.get(key) is not None:
                        self.dirs[key] = el.get(key)
            elif tag == "model" and el.get("file"):
                raise RobotFileError(f"<model file={el.get('file')!r}>: attaching other "
                                     "model files is not supported", self.path)
            elif tag in _ASSET_DIR:
                for key in _TEXTURE_SIDES:
                    if el.get(key):
                        self.asset(tag, el.get(key))
            elif any(k.startswith("file") and v for k, v in el.attrib.items()):
                # e.g. <flexcomp file>: MuJoCo would read it from the disk, unchecked
                raise RobotFileError(f"<{tag}> names a file robogui does not read for "
                                     "MuJoCo (only <include>, <mesh>, <skin>, <hfield> and "
                                     "<texture> files are supported)", self.path)
            inner = mult
            if tag == "body":
                self.bodies += mult
            elif tag == "replicate":
                inner = mult * _count(el, "count")
            elif tag in ("composite", "flexcomp"):
                self.bodies += mult * _count(el, "count")
            if self.bodies > self.lim.links:
                raise RobotFileError(f"the model has more than {self.lim.links:,} bodies, the "
                                     f"limit (raise it with {ENV['links']}=N)", self.path)
            self.walk(el, chain, inner)

    def include(self, name: str, chain: tuple[str, ...], mult: int) -> None:
        if not name:
            raise RobotFileError("an <include> without a file", self.path)
        if name in chain:
            raise RobotFileError(f"<include file={name!r}>: an include loop "
                                 f"({' -> '.join([*chain, name])[-300:]})", self.path)
        if len(chain) >= MAX_INCLUDE_DEPTH:
            raise RobotFileError(f"includes nest more than {MAX_INCLUDE_DEPTH} deep", self.path)
        raw = self.read(name, self.lim.xml_bytes, "<include>")
        self.assets[name] = raw
        sub = _parse(raw, Path(name), self.path)
        self.walk(sub, (*chain, name), mult)

    def asset(self, tag: str, name: str) -> None:
        folder = self.dirs[_ASSET_DIR[tag]] or self.dirs["assetdir"]
        key = name if Path(name).is_absolute() or not folder else \
            os.path.join(folder, name)
        if key in self.assets:
            return
        raw = self.read(key, self.lim.mesh_bytes, f"<{tag}>")
        if tag == "mesh" and key.lower().endswith(".stl"):
            try:
                check_counts(raw, ".stl")
            except MeshRefused as exc:
                raise RobotFileError(f"<mesh> {name}: {exc}", self.path) from None
        self.assets[key] = raw


def guarded_sources(path: Path, roots=()) -> tuple[str, dict[str, bytes]]:
    """(the model's XML text, {name as MuJoCo asks for it: bytes} of every file it includes
    or references), each read under the rules above; RobotFileError naming the file."""
    lim = limits()
    reader = _Reader(path, roots)
    try:
        raw = read_guarded(path, lim.xml_bytes)
    except OSError as exc:
        raise RobotFileError(f"cannot read the file ({exc.strerror or exc})", path) from None
    root = _parse(raw, path, path)
    if root.tag != "mujoco":
        raise RobotFileError("the root element is not <mujoco>: not an MJCF model", path)
    reader.walk(root, (path.name,))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RobotFileError("the file is not UTF-8 text", path) from None
    return text, reader.assets


def _compile_job(text: str, assets: dict, folder: str):
    """What the bounded worker runs: compile from memory (``MjModel.from_xml_string`` with
    the files as its virtual file system; ``MjSpec.from_string`` does not look includes up
    there) in an empty working folder; returns (the compiled MjModel, what robogui needs
    of the spec: model name, folder, meshes with the paths they were read from)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as empty:
        os.chdir(empty)
        try:
            model = mujoco.MjModel.from_xml_string(text, assets)
        except Exception as exc:
            # under the worker's address-space cap a failed C++ allocation reaches Python
            # as "Caught an unknown exception!" (std::bad_alloc) or MuJoCo's own message
            text_ = str(exc).lower()
            if any(w in text_ for w in ("unknown exception", "bad_alloc", "allocate")):
                raise MemoryError(str(exc)) from None
            raise
        finally:
            os.chdir(here)
    names, paths = bytes(model.names), bytes(model.paths)

    def at(buf: bytes, adr: int) -> str:
        return buf[adr:buf.index(b"\0", adr)].decode("utf-8", "replace") if adr >= 0 else ""

    meshes = [SimpleNamespace(name=at(names, int(model.name_meshadr[i])),
                              file=at(paths, int(model.mesh_pathadr[i])))
              for i in range(model.nmesh)]
    info = SimpleNamespace(modelname=at(names, 0), modelfiledir=folder, meshdir="",
                           meshes=meshes)
    return model, info


def compile_guarded(path: Path, roots=()):
    """(spec info: modelname, modelfiledir, meshdir, meshes[name, file]; the compiled
    MjModel) of an MJCF file, read and compiled under the rules above."""
    from robogui.engine.bounded_work import WorkLimitExceeded, run_bounded

    text, assets = guarded_sources(path, roots)
    try:
        model, info = run_bounded(_compile_job, text, assets, str(path.parent))
    except WorkLimitExceeded as exc:
        raise RobotFileError(f"compiling the model {exc}", path) from None
    except Exception as exc:  # mujoco raises ValueError and others, all "cannot compile"
        msg = " ".join(str(exc).split())
        raise RobotFileError(f"MuJoCo cannot compile the model: {msg}"[:500], path) from None
    return info, model
