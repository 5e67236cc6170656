"""The geoms of a compiled MuJoCo model as robogui visuals: mesh files and primitives in
the link frames, coloured by their material (or geom) rgba.

MuJoCo moves a mesh's vertices into the mesh's inertial frame when it compiles it
(``mesh_pos``, ``mesh_quat``: ``v_compiled = R^T (scale * v_file - p)``); the placement
here undoes that, so the file is drawn as written. Which geoms are drawn: when the model
marks visual geoms (no contacts: ``contype = conaffinity = 0``), those; else all of them.
Planes (floors) and height fields belong to the scene, not the robot.

Colours are MuJoCo's: the geom's material rgba, else the geom's rgba (MuJoCo's default
0.5 grey when it names neither); a mesh file's own material (an OBJ's ``mtllib``, or the
default grey trimesh gives a file without one) is never used, as MuJoCo never reads it
(``Visual.file_material = False``). A material's ``texture`` is used only through its
rgba: the arms PyPI packages ship name builtin flat white cube textures (robosuite's
Jaco), which leave the rgba as it is.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from robogui.engine.model.visual import Visual

__all__ = ["mjcf_visuals", "quat_matrix"]

_PLANE, _HFIELD, _SPHERE, _CAPSULE, _ELLIPSOID, _CYLINDER, _BOX, _MESH = range(8)


def quat_matrix(q) -> np.ndarray:
    """The rotation (3, 3) of a unit quaternion ``(w, x, y, z)`` (MuJoCo's order)."""
    w, x, y, z = np.asarray(q, float) / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _pose(pos, quat) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = quat_matrix(quat)
    T[:3, 3] = pos
    return T


def _mesh_files(spec, m, path: Path) -> dict[int, str]:
    """Mesh id -> the file it was read from (meshes given inline have none)."""
    base = Path(spec.modelfiledir or path.parent)
    meshdir = base / (spec.meshdir or "")
    out = {}
    for mesh in spec.meshes:
        if not mesh.file:
            continue
        i = m.mesh(mesh.name).id if mesh.name else None
        if i is None:
            continue
        f = Path(mesh.file)
        out[i] = str(f if f.is_absolute() else (meshdir / f))
    return out


def _rgba(m, g: int) -> tuple | None:
    mat = int(m.geom_matid[g])
    rgba = m.mat_rgba[mat] if mat >= 0 else m.geom_rgba[g]
    return tuple(float(x) for x in rgba)


def mjcf_visuals(spec, m, path: Path, frames: dict[int, tuple[int, np.ndarray]],
                 body_names: list[str]) -> list[Visual]:
    """Visuals of every geom on a body in ``frames`` (body -> (frame k, placement of the
    body frame in frame k))."""
    visual_only = (m.geom_contype == 0) & (m.geom_conaffinity == 0)
    drawn = visual_only if visual_only.any() else np.ones(m.ngeom, bool)
    files = _mesh_files(spec, m, path)
    out: list[Visual] = []
    for g in range(m.ngeom):
        b = int(m.geom_bodyid[g])
        if not drawn[g] or b not in frames:
            continue
        k, Tb = frames[b]
        rgba = _rgba(m, g)
        if rgba is not None and rgba[3] <= 0:
            continue
        T = Tb @ _pose(m.geom_pos[g], m.geom_quat[g])
        kind, size = int(m.geom_type[g]), m.geom_size[g]
        common = dict(rgba=rgba, link=body_names[b], file_material=False)
        if kind == _MESH:
            i = int(m.geom_dataid[g])
            if i not in files:
                continue
            Tm = _pose(m.mesh_pos[i], m.mesh_quat[i])
            scale = tuple(float(s) for s in m.mesh_scale[i])
            out.append(Visual(k, "mesh", T @ np.linalg.inv(Tm), filename=files[i],
                              uri=os.path.relpath(files[i], path.parent), scale=scale,
                              **common))
        elif kind == _BOX:
            out.append(Visual(k, "box", T, size=tuple(float(2 * s) for s in size), **common))
        elif kind in (_CYLINDER, _CAPSULE):  # a capsule drawn as its cylinder
            out.append(Visual(k, "cylinder", T, size=(float(size[0]), float(2 * size[1])),
                              **common))
        elif kind in (_SPHERE, _ELLIPSOID):
            out.append(Visual(k, "sphere", T, size=(float(size[0]),), **common))
    return out
