"""The remote API's work-cell requests: open a cell file, add, move and remove objects.

The session holds the cell (an immutable :class:`~..planning_scene.cell.Cell`); each
request here builds the complete new cell first, from checked values, and only then hands
it to the session (in the app through the undo stack), so a refused request leaves the
cell as it was. Poses come either as a 4x4 transform ``pose`` (checked to be a rigid
motion) or as ``xyz`` (m) and ``rpy`` (rad, the cell file's roll-pitch-yaw).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from robogui.engine.collision_detection.meshes import read_mesh
from robogui.engine.spatial.transforms import tr2rpy

from ..planning_scene.cell import SHAPES, Cell, CellObject
from ..planning_scene.cell_file import load_cell
from .protocol import RemoteError

__all__ = ["cell_summary", "object_summary", "opened_cell", "cell_with_new_object",
           "cell_with_moved_object", "cell_without_object", "SIZE_COUNTS"]

#: how many numbers ``size`` holds per shape (a mesh takes ``scale`` instead)
SIZE_COUNTS = {"box": 3, "cylinder": 2, "capsule": 2, "sphere": 1, "mesh": 0}
_SIZE_WORDS = {"box": "[x, y, z] full extents", "cylinder": "[radius, length]",
               "capsule": "[radius, length]", "sphere": "[radius]", "mesh": "none (give scale)"}
# a rotation block farther than this from orthonormal is not a rotation
_ROTATION_TOL = 1e-6


def object_summary(obj: CellObject) -> dict:
    """One object as the protocol shows it (JSON-ready)."""
    out = {"name": obj.name, "shape": obj.shape, "size": list(obj.size), "xyz": list(obj.xyz),
           "rpy": list(obj.rpy), "color": obj.color, "collides": obj.collides}
    if obj.shape == "mesh":
        out["file"], out["scale"] = obj.file, list(obj.scale)
    return out


def cell_summary(cell: Cell | None) -> dict:
    """The cell as the protocol shows it: ``name``, ``robot``, ``objects`` (no cell: empty)."""
    if cell is None:
        return {"name": "", "robot": "", "objects": []}
    return {"name": cell.name, "robot": cell.robot,
            "objects": [object_summary(o) for o in cell.objects]}


def _placement(op: str, pose, xyz, rpy) -> tuple[tuple | None, tuple | None]:
    """(xyz, rpy) from a 4x4 ``pose`` or from ``xyz``/``rpy`` (either may be None: keep)."""
    if pose is not None:
        if xyz is not None or rpy is not None:
            raise RemoteError("bad_request", f"{op} takes pose (4x4) or xyz and rpy, not both")
        if len(pose) != 4 or any(len(row) != 4 for row in pose):
            raise RemoteError("bad_size", f"{op}.pose must be 4 rows of 4 numbers (a 4x4 "
                                          "transform, m)")
        T = np.asarray(pose, dtype=float)
        R = T[:3, :3]
        if (not np.allclose(T[3], [0, 0, 0, 1], rtol=0, atol=_ROTATION_TOL)
                or not np.allclose(R.T @ R, np.eye(3), rtol=0, atol=_ROTATION_TOL)
                or np.linalg.det(R) < 0):
            raise RemoteError("bad_request", f"{op}.pose is not a rigid motion: its 3x3 block "
                                             "must be a rotation and its last row 0, 0, 0, 1")
        return tuple(T[:3, 3]), tuple(tr2rpy(R))
    for name, value in (("xyz", xyz), ("rpy", rpy)):
        if value is not None and len(value) != 3:
            raise RemoteError("bad_size", f"{op}.{name} must be 3 numbers, got {len(value)}")
    return (None if xyz is None else tuple(xyz)), (None if rpy is None else tuple(rpy))


def _known(cell: Cell | None, op: str, name: str) -> CellObject:
    names = () if cell is None else cell.names
    if name not in names:
        raise RemoteError("unknown_object", f"{op}: the cell has no object {name[:200]!r} "
                                            f"(objects: {', '.join(names[:20]) or 'none'})")
    return cell.object(name)


def opened_cell(path: str) -> Cell:
    """The cell of the ``.cell`` file ``path`` (the file's errors name file, line, field)."""
    try:
        return load_cell(path)
    except OSError as exc:
        raise RemoteError("failed", f"{path}: {exc.strerror or exc}") from None


def cell_with_new_object(cell: Cell | None, name: str, shape: str, size=None, pose=None,
                         xyz=None, rpy=None, color=None, collides=None, file=None,
                         scale=None) -> Cell:
    """``cell`` (None: an empty one) with a new object; RemoteError naming what is wrong."""
    op = "add_object"
    if shape not in SHAPES:
        raise RemoteError("bad_request", f"{op}.shape must be one of {', '.join(SHAPES)}, "
                                         f"got {shape[:40]!r}")
    if cell is not None and name in cell.names:
        raise RemoteError("bad_request", f"{op}: an object is already called {name[:200]!r} "
                                         "(move_object moves it, remove_object removes it)")
    count = SIZE_COUNTS[shape]
    size = [] if size is None and shape == "mesh" else size
    if size is None or len(size) != count:
        got = "none" if size is None else f"{len(size)} numbers"
        raise RemoteError("bad_size", f"{op}.size of a {shape} is {_SIZE_WORDS[shape]} "
                                      f"({count} numbers, m), got {got}")
    if (file is not None) != (shape == "mesh"):
        raise RemoteError("bad_request", f"{op}: a mesh needs file (a mesh file on the app's "
                                         "machine) and only a mesh takes one")
    if scale is not None and (shape != "mesh" or len(scale) not in (1, 3)):
        raise RemoteError("bad_size" if shape == "mesh" else "bad_request",
                          f"{op}.scale (a mesh's only) is 1 or 3 numbers")
    where, angles = _placement(op, pose, xyz, rpy)
    fields = {"xyz": where or (0.0, 0.0, 0.0), "rpy": angles or (0.0, 0.0, 0.0)}
    if color is not None:
        fields["color"] = color
    if collides is not None:
        fields["collides"] = collides
    if shape == "mesh":
        factors = tuple(scale or [1.0]) * (3 if scale is None or len(scale) == 1 else 1)
        target = Path(file).expanduser().resolve()
        try:  # the mesh reader's guards (size, triangles, time) as for a cell file's mesh
            mesh = read_mesh(target, factors)
        except ValueError as exc:
            raise RemoteError("failed", f"{op} {name[:200]!r}: {exc}") from None
        fields.update(file=str(target), scale=factors, mesh=mesh)
    try:
        new = CellObject(name, shape, tuple(size), **fields)
        return (cell or Cell()).with_object(new)
    except ValueError as exc:  # a value out of range: non-positive size, bad colour...
        raise RemoteError("bad_request", f"{op} {name[:200]!r}: {exc}") from None


def cell_with_moved_object(cell: Cell | None, name: str, pose=None, xyz=None,
                           rpy=None) -> Cell:
    """``cell`` with object ``name`` at a new pose (missing ``xyz`` or ``rpy`` kept)."""
    op = "move_object"
    obj = _known(cell, op, name)
    if pose is None and xyz is None and rpy is None:
        raise RemoteError("bad_request", f"{op} needs pose (4x4), or xyz and/or rpy")
    where, angles = _placement(op, pose, xyz, rpy)
    try:
        return cell.with_object(obj.moved(where, angles))
    except ValueError as exc:  # a position beyond the bounds of any cell
        raise RemoteError("bad_request", f"{op} {name[:200]!r}: {exc}") from None


def cell_without_object(cell: Cell | None, name: str) -> Cell:
    """``cell`` without object ``name``."""
    _known(cell, "remove_object", name)
    return cell.without(name)
