"""Every robot installed, for the robot gallery: robogui's library, the arms that
example-robot-data, rtb-data, robosuite and dm_control ship when they are installed, and
the recent files; with each robot's name, maker and joint count (no Qt here).

Finding robots (:func:`find_robots`) only lists files, so it is instant; describing one
(:func:`describe`) loads it with :func:`~robogui.io.robotfile.load_robot` (tens of
milliseconds for a URDF, up to 2 s for an MJCF model whose meshes mujoco compiles), which
the app does in a background process and caches on disk under :func:`file_key`.

The packages are found through their installed metadata (``importlib.metadata`` for
example-robot-data's ``cmeel.prefix`` data, ``importlib.util.find_spec`` for the others):
nothing of theirs is imported or run. Only the arm descriptions are listed (the folders
in :data:`ARM_FOLDERS`), not their humanoids, quadrupeds and mobile bases.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from .file_error import RobotFileError
from .robotfile import _library, load_robot

__all__ = ["CatalogueEntry", "Description", "find_robots", "describe", "file_key",
           "matches", "load_descriptions", "save_descriptions", "ARM_FOLDERS", "SOURCES"]

#: where robots come from, in the order the gallery lists them
SOURCES = ("library", "example-robot-data", "rtb-data", "robosuite", "dm_control", "recent")

#: (source, folder inside the package's robot data, maker) of the arms it ships
ARM_FOLDERS: tuple[tuple[str, str, str], ...] = (
    ("example-robot-data", "ur_description", "Universal Robots"),
    ("example-robot-data", "panda_description", "Franka Emika"),
    ("example-robot-data", "kinova_description", "Kinova"),
    ("example-robot-data", "xarm_description", "UFACTORY"),
    ("example-robot-data", "z1_description", "Unitree"),
    ("example-robot-data", "so_arm_description", "The Robot Studio"),
    ("rtb-data", "abb_irb140_description", "ABB"),
    ("rtb-data", "kuka_description", "KUKA"),
    ("rtb-data", "unimation_puma560_description", "Unimation"),
    ("rtb-data", "lynxmotion_al5d_description", "Lynxmotion"),
    ("rtb-data", "trossen_descriptions", "Trossen Robotics"),
    ("rtb-data", "qut_frankie_description", "Franka Emika"),
    ("robosuite", "panda", "Franka Emika"),
    ("robosuite", "sawyer", "Rethink Robotics"),
    ("robosuite", "iiwa", "KUKA"),
    ("robosuite", "jaco", "Kinova"),
    ("robosuite", "kinova3", "Kinova"),
    ("robosuite", "ur5e", "Universal Robots"),
    ("robosuite", "xarm7", "UFACTORY"),
    ("robosuite", "spot_arm", "Boston Dynamics"),
    ("dm_control", "kinova", "Kinova"),
)

_ROBOT_SUFFIXES = (".toml", ".urdf", ".xacro", ".xml", ".mjcf", ".conf", ".dat")
# xacro files that hold macros or constants for other files, not a robot
_NOT_A_ROBOT = re.compile(r"(_macro|^common_\w*)\.xacro$|^macros?\.xacro$")
_FIND = re.compile(rb"\$\(find\s+([A-Za-z0-9_]+)\s*\)|package://([A-Za-z0-9_]+)/")


@dataclass(frozen=True)
class CatalogueEntry:
    """One robot the gallery lists. ``target`` is what opens it (a library name or an
    absolute file path, as ``load_robot`` and File > Open take it); ``path`` is its file
    (the TOML file of a library robot); ``package_path`` the ``NAME=DIR`` package folders
    its file needs that the package ships under other folder names."""

    name: str
    source: str
    target: str
    path: Path
    maker: str = ""
    package_path: tuple[str, ...] = ()


@dataclass(frozen=True)
class Description:
    """What loading a robot tells the gallery: its ``name`` (as the file names it), maker,
    joint count, and the loader's message when it does not load (``joints`` is None)."""

    name: str
    maker: str
    joints: int | None
    error: str | None = None


# -- where the packages keep their robots -----------------------------------------------
def _distribution_folder(dist: str, inside: str) -> Path | None:
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        folder = Path(distribution(dist).locate_file(inside))
    except (PackageNotFoundError, OSError, TypeError, ValueError):
        return None
    return folder if folder.is_dir() else None


def _module_folder(name: str) -> Path | None:
    """The folder of package ``name`` without importing it (None when not installed)."""
    from importlib.util import find_spec

    try:
        spec = find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def package_roots() -> dict[str, Path]:
    """{source: folder holding its robot descriptions} of the packages installed."""
    roots = {}
    erd = _distribution_folder("example-robot-data",
                               "cmeel.prefix/share/example-robot-data/robots")
    if erd is not None:
        roots["example-robot-data"] = erd
    for source, module, inside in (("rtb-data", "rtbdata", "xacro"),
                                   ("robosuite", "robosuite", "models/assets/robots"),
                                   ("dm_control", "dm_control", "third_party")):
        folder = _module_folder(module)
        if folder is not None and (folder / inside).is_dir():
            roots[source] = folder / inside
    return roots


def _arm_files(folder: Path) -> list[Path]:
    """The robot files of a description folder: URDFs, and xacros that are not macro
    files, a robot already expanded beside them (``X.urdf``), or the macro of a
    ``X.urdf.xacro``."""
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".urdf", ".xacro")
                   and p.is_file() and "accessories" not in p.parts)
    names = {p.name for p in files}
    keep = []
    for p in files:
        stem = _display_name(p)
        if p.suffix == ".xacro" and (_NOT_A_ROBOT.search(p.name) or f"{stem}.urdf" in names
                                     or (p.name == f"{stem}.xacro"
                                         and f"{stem}.urdf.xacro" in names)):
            continue
        keep.append(p)
    return keep


def _display_name(path: Path) -> str:
    name = path.name
    for suffix in (".urdf.xacro", ".xacro", ".urdf"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _top_folders(root: Path) -> dict[str, Path]:
    """{name: folder} of the folders one and two levels under ``root``."""
    found = {}
    for child in sorted(root.iterdir()):
        if child.is_dir():
            found.setdefault(child.name, child)
            for grandchild in sorted(child.iterdir()):
                if grandchild.is_dir():
                    found.setdefault(grandchild.name, grandchild)
    return found


def _package_folders(path: Path, folders: dict[str, Path]) -> tuple[str, ...]:
    """``NAME=DIR`` for each package the file names (``$(find NAME)``, ``package://NAME``)
    that is no ancestor folder of it but sits under ``root`` with its ``_support`` suffix
    dropped or replaced by ``_description`` (rtb-data renamed ROS-Industrial's
    ``kuka_kr5_support`` to ``kuka_kr5``, ``abb_irb140_support`` to
    ``abb_irb140_description``). Reads at most 1 MiB of the file and of each xacro beside
    it (the macro files it includes name packages too)."""
    text = b""
    for f in [path, *sorted(path.parent.glob("*.xacro"))][:20]:
        try:
            with open(f, "rb") as fh:
                text += fh.read(1 << 20)
        except OSError:
            continue
    names = sorted({a or b for a, b in _FIND.findall(text)} - {b"", None})
    found = []
    ancestors = {p.name for p in path.parents}
    for raw in names:
        name = raw.decode("ascii")
        if name in ancestors:
            continue
        for guess in (name, name.removesuffix("_support"),
                      name.removesuffix("_support") + "_description"):
            if guess in folders:
                found.append(f"{name}={folders[guess]}")
                break
    return tuple(found)


def _package_entries(source: str, root: Path) -> list[CatalogueEntry]:
    out, tops = [], None
    for src, folder, maker in ARM_FOLDERS:
        if src != source:
            continue
        if source == "robosuite":
            f = root / folder / "robot.xml"
            if f.is_file():
                out.append(CatalogueEntry(folder, source, str(f), f, maker))
            continue
        if source == "dm_control":
            f = root / folder / "jaco_arm.xml"
            if f.is_file():
                out.append(CatalogueEntry("jaco_arm", source, str(f), f, maker))
            continue
        base = root / folder
        if not base.is_dir():
            continue
        tops = tops if tops is not None else _top_folders(root)
        for f in _arm_files(base):
            out.append(CatalogueEntry(_display_name(f), source, str(f), f, maker,
                                      _package_folders(f, tops)))
    return out


def _maker_of(path: Path) -> str:
    """The maker of a file that sits in one of the packages' arm folders ('' if not)."""
    parts = set(path.parts)
    return next((maker for _, folder, maker in ARM_FOLDERS
                 if folder in parts and "_description" in folder), "")


def find_robots(recent=(), sources=SOURCES) -> list[CatalogueEntry]:
    """Every robot installed: the library's, the packages' arms (those installed), then
    the ``recent`` files (paths; missing files and ones already listed are left out).
    Lists files only: nothing is loaded."""
    entries: list[CatalogueEntry] = []
    if "library" in sources:
        entries += [CatalogueEntry(name, "library", name, path)
                    for name, path in _library().items()]
    roots = package_roots()
    for source in SOURCES[1:-1]:
        if source in sources and source in roots:
            entries += _package_entries(source, roots[source])
    if "recent" in sources:
        listed = {str(e.path.resolve()) for e in entries}
        for raw in recent:
            p = Path(str(raw)).expanduser()
            try:
                real = p.resolve()
                ok = real.is_file() and real.suffix.lower() in _ROBOT_SUFFIXES
            except OSError:
                ok = False
            if ok and str(real) not in listed:
                listed.add(str(real))
                entries.append(CatalogueEntry(_display_name(real), "recent", str(real), real,
                                              _maker_of(real)))
    return entries


# -- describing a robot -----------------------------------------------------------------
def file_key(path, extra: str = "") -> str:
    """A cache key of a robot file: its absolute path, modification time, size and
    robogui's version (so a changed file or a new robogui redraws), plus ``extra`` (e.g.
    a thumbnail size): 40 hex digits. A file that cannot be read gets a key of its path."""
    from .. import __version__

    p = Path(path)
    try:
        st = p.stat()
        stamp = f"{st.st_mtime_ns}:{st.st_size}"
    except OSError:
        stamp = "missing"
    text = f"{p.resolve()}|{stamp}|{__version__}|{extra}"
    return hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()


def describe(entry: CatalogueEntry):
    """(Description, the Robot or None) of ``entry``, loaded as the gallery opens it
    (default tip, its package folders). A file that does not load gives a Description
    with ``joints`` None and the loader's message (which names the file)."""
    try:
        robot = load_robot(entry.target, package_path=list(entry.package_path) or None)
    except (RobotFileError, OSError, ValueError) as exc:
        return Description(entry.name, entry.maker, None, str(exc) or type(exc).__name__), None
    name = robot.name or entry.name
    return Description(name, entry.maker or robot.manufacturer, int(robot.n)), robot


def load_descriptions(cache_file) -> dict[str, Description]:
    """{file_key: Description} saved by :func:`save_descriptions` ({} when the file is
    missing, unreadable or not ours)."""
    try:
        raw = json.loads(Path(cache_file).read_text("utf-8"))
        return {str(k): Description(str(v["name"]), str(v["maker"]),
                                    None if v["joints"] is None else int(v["joints"]),
                                    None if v.get("error") is None else str(v["error"]))
                for k, v in raw.items()}
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {}


def save_descriptions(cache_file, table: dict[str, Description]) -> None:
    """Write ``table`` (atomically: a reader never sees half a file)."""
    from ..engine.files import atomic_write_text

    Path(cache_file).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(Path(cache_file), json.dumps({k: asdict(v) for k, v in table.items()}))


# -- searching --------------------------------------------------------------------------
_JOINTS = re.compile(r"^(\d+)\s*(-?\s*(joints?|axis|axes|dof))?$")


def matches(entry: CatalogueEntry, description: Description | None, text: str) -> bool:
    """Whether the search ``text`` finds ``entry``: every word must occur (case-insensitive)
    in its name, the robot's own name, its maker or its source; a number (``6``, ``6 joints``,
    ``6-axis``, ``7 dof``) matches the joint count."""
    text = " ".join(text.lower().split())
    if not text:
        return True
    joints = description.joints if description is not None else None
    m = _JOINTS.match(text)
    if m:
        if joints is not None and int(m.group(1)) == joints:
            return True
        if m.group(2):
            return False
    hay = " ".join([entry.name, entry.maker, entry.source, os.fspath(entry.path.name),
                    *(() if description is None else (description.name, description.maker))]
                   ).lower()
    return all(word in hay for word in text.split())
