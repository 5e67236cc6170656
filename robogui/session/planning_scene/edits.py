"""Edits of the work cell the app offers, as functions from a cell to a new cell (Qt-free).

A new object gets a free name (``box``, ``box 2``, ...), a default size and colour per
shape, and a place the user sees: where the caller puts it (the app: the tool centre
point). A mesh object is read from its file at once (through the guarded mesh reader), so
a bad file is refused before the cell changes.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from robogui.engine.collision_detection.meshes import read_mesh

from .cell import Cell, CellObject

__all__ = ["MESH_SUFFIXES", "DEFAULT_SIZES", "DEFAULT_COLORS", "new_object", "mesh_object",
           "empty_cell", "is_mesh_file", "meshes_beside"]

#: mesh files an object can be made of (read by trimesh)
MESH_SUFFIXES = (".stl", ".obj", ".dae", ".gltf", ".glb")
#: size of a new object (m): box full extents, cylinder and capsule (radius, length), sphere
DEFAULT_SIZES = {"box": (0.2, 0.2, 0.2), "cylinder": (0.05, 0.2), "capsule": (0.05, 0.2),
                 "sphere": (0.08,)}
DEFAULT_COLORS = {"box": "#c98a3e", "cylinder": "#3e8ac9", "capsule": "#8a3ec9",
                  "sphere": "#3ec98a", "mesh": "#a0a4ab"}


def empty_cell(floor_z: float = 0.0) -> Cell:
    """A cell with no objects, the robot's base at the world origin and the floor at
    ``floor_z`` (m; the app passes the height its view draws the floor at)."""
    return Cell(floor_z=floor_z)


def is_mesh_file(path) -> bool:
    """True for a file whose suffix (any case) is one of :data:`MESH_SUFFIXES`."""
    return Path(path).suffix.lower() in MESH_SUFFIXES


def new_object(cell: Cell, shape: str, xyz=(0.0, 0.0, 0.0)) -> CellObject:
    """A new ``shape`` object ("box", "cylinder", "capsule", "sphere") for ``cell``, named
    after its shape (a name no object has yet), of the default size, at ``xyz`` (3,) m."""
    if shape not in DEFAULT_SIZES:
        raise ValueError(f"shape must be one of {', '.join(DEFAULT_SIZES)}, got {shape!r}")
    return CellObject(cell.unique_name(shape), shape, DEFAULT_SIZES[shape], xyz=xyz,
                      color=DEFAULT_COLORS[shape])


def mesh_object(cell: Cell, path, xyz=(0.0, 0.0, 0.0), scale=(1.0, 1.0, 1.0)) -> CellObject:
    """A mesh object read from ``path`` (STL, OBJ, DAE, glTF), named after the file, at
    ``xyz`` (3,) m. Raises ValueError naming the file when it is not a mesh robogui reads."""
    path = Path(path)
    if not is_mesh_file(path):
        raise ValueError(f"{path}: not a mesh file robogui reads (the suffix must be one of "
                         f"{', '.join(MESH_SUFFIXES)})")
    mesh = read_mesh(path, scale)
    return CellObject(cell.unique_name(path.stem or "mesh"), "mesh", (), xyz=xyz,
                      color=DEFAULT_COLORS["mesh"], file=str(path.resolve()), scale=scale,
                      mesh=mesh)


def meshes_beside(cell: Cell, path) -> tuple[Cell, list[tuple[Path, Path]]]:
    """The cell to write to the cell file ``path``, with every mesh file that lies outside
    the file's folder tree copied into ``<stem>-meshes/`` beside it (a cell file may only
    name meshes in its own folder tree). Returns (cell naming the copies, [(from, to)]);
    nothing is copied here: the caller copies, then saves."""
    folder = Path(path).resolve().parent
    moves: list[tuple[Path, Path]] = []
    objects = []
    taken: set[str] = set()
    mapped: dict[Path, Path] = {}
    for o in cell.objects:
        src = Path(o.file).resolve() if o.shape == "mesh" and o.file else None
        if src is None or src.is_relative_to(folder):
            objects.append(o)
            continue
        if src not in mapped:
            name, k = src.name, 2
            while name.lower() in taken:
                name, k = f"{src.stem}-{k}{src.suffix}", k + 1
            taken.add(name.lower())
            mapped[src] = folder / f"{Path(path).stem}-meshes" / name
            moves.append((src, mapped[src]))
        objects.append(replace(o, file=str(mapped[src])))
    return cell.replaced(objects=tuple(objects)), moves
