"""Triangles for a robot's visual geometry (URDF meshes and primitives), without Qt.

:func:`load_visuals` reads every :class:`~robogui.engine.model.visual.Visual` of a robot once:
STL, OBJ and DAE files through trimesh (pycollada for DAE), boxes, cylinders and spheres
built by trimesh. Large meshes are decimated by vertex clustering so a software
rasteriser keeps its frame rate. Missing or unreadable files give a warning naming the
file and the link; the view draws those links as sticks.

Files are cached by path, modification time and face budget, so opening the same
robot again does not read them again.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.limits import limits
from robogui.engine.mesh_guard import MeshRefused, check_vertices, prefetch_meshes, read_mesh_arrays

__all__ = ["VisualMesh", "VisualSet", "load_visuals", "decimate", "FACE_BUDGET"]

#: triangles per robot above which meshes are decimated: the Panda's 135,000 become about
#: 6,000, which software GL (llvmpipe) draws with their shadows as fast as the stick Puma
FACE_BUDGET = 8_000
DEFAULT_RGBA = (0.72, 0.74, 0.78, 1.0)


@dataclass
class VisualMesh:
    """Triangles of one visual in its link frame: ``frame`` (fkine_all index), vertices
    (v, 3) float32 already placed by the visual's transform, faces (f, 3) uint32,
    colours (v, 4) float32. With ``follow`` the vertices are in the mimic joint's child
    frame (see :mod:`robogui.session.geometry.follow`)."""

    frame: int
    vertices: np.ndarray
    faces: np.ndarray
    colors: np.ndarray
    link: str = ""
    follow: tuple = ()  # Visual.follow: moved by an off-chain mimic joint (placed after it)


@dataclass
class VisualSet:
    meshes: list[VisualMesh] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: frames (fkine_all indices) with geometry that could not be loaded
    missing_frames: set[int] = field(default_factory=set)

    @property
    def faces(self) -> int:
        return sum(len(m.faces) for m in self.meshes)


def decimate(vertices: np.ndarray, faces: np.ndarray, colors: np.ndarray, target: int):
    """Vertex clustering: snap vertices to a grid, merge each cell's vertices, drop the
    faces that collapse. Coarser grids are tried until at most ``target`` faces remain.
    Returns (vertices, faces, colors)."""
    if len(faces) <= target:
        return vertices, faces, colors
    v = np.asarray(vertices, dtype=np.float64)
    lo = v.min(axis=0)
    ext = float(np.ptp(v, axis=0).max()) or 1.0
    res = 256
    out = (vertices, faces, colors)
    while res >= 4:
        cell = np.floor((v - lo) / (ext / res)).astype(np.int64)  # 0..res per axis
        key = (cell[:, 0] * (res + 1) + cell[:, 1]) * (res + 1) + cell[:, 2]
        _, inv = np.unique(key, return_inverse=True)
        inv = inv.ravel()
        count = np.bincount(inv).astype(np.float64)
        nv = np.stack([np.bincount(inv, v[:, k]) for k in range(3)], axis=1) / count[:, None]
        nc = np.stack([np.bincount(inv, colors[:, k]) for k in range(4)], axis=1) / count[:, None]
        nf = inv[faces]
        keep = (nf[:, 0] != nf[:, 1]) & (nf[:, 1] != nf[:, 2]) & (nf[:, 0] != nf[:, 2])
        out = (nv.astype(np.float32), nf[keep].astype(np.uint32), nc.astype(np.float32))
        if keep.sum() <= target:
            break
        res = int(res * 0.7)
    return out


_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def _read_mesh(path: str, roots: tuple = ()):
    """(vertices, faces, colors) of a mesh file, scene transforms and material colours
    applied; cached. Read through :mod:`robogui.engine.mesh_guard` inside the folders ``roots``."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, roots, limits())
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
    # parsed in a bounded worker process (time and memory limits), COLLADA units applied
    v, f, c = read_mesh_arrays(path, roots)
    out = (v.astype(np.float32), f.astype(np.uint32), c.astype(np.float32))
    with _LOCK:
        _CACHE[key] = out
        while len(_CACHE) > 256:
            _CACHE.popitem(last=False)
    return out


def _mesh_color(mesh) -> np.ndarray:
    """One RGBA for a mesh: its material's main colour, else NaN (the URDF colour or the
    default is used)."""
    vis = getattr(mesh, "visual", None)
    mat = getattr(vis, "material", None)
    c = getattr(mat, "main_color", None)
    if c is None:
        return np.full(4, np.nan)
    c = np.asarray(c, dtype=np.float64).ravel()[:4] / 255.0
    return c if c.size == 4 else np.full(4, np.nan)


def _drop_degenerate(verts, faces, cols):
    """Faces of zero area have no normal (NaN shading): leave them out."""
    tri = verts[faces].astype(np.float64)
    area2 = np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    keep = area2 > 1e-12 * max(1.0, float(np.abs(verts).max()) ** 2)
    faces = faces[keep]
    # clustering can leave a face twice, once per side: their normals cancel (NaN)
    _, first = np.unique(np.sort(faces, axis=1), axis=0, return_index=True)
    faces = faces[np.sort(first)]
    used, inv = np.unique(faces, return_inverse=True)  # vertices no face uses: no normal
    return verts[used], inv.reshape(faces.shape).astype(np.uint32), cols[used]


def _primitive(v):
    import trimesh

    if v.kind == "box":
        m = trimesh.creation.box(extents=v.size)
    elif v.kind == "cylinder":
        m = trimesh.creation.cylinder(radius=v.size[0], height=v.size[1], sections=32)
    else:
        m = trimesh.creation.icosphere(subdivisions=2, radius=v.size[0])
    n = len(m.vertices)
    return (np.asarray(m.vertices, np.float32), np.asarray(m.faces, np.uint32),
            np.full((n, 4), np.nan, np.float32))


def load_visuals(robot, budget: int = FACE_BUDGET) -> VisualSet:
    """Triangles of every visual of ``robot``, decimated to about ``budget`` faces."""
    out = VisualSet()
    raw = []
    prefetch_meshes((v.filename, tuple(getattr(v, "roots", ()))) for v in robot.visuals
                    if v.kind == "mesh" and v.filename and not getattr(v, "problem", ""))
    for v in robot.visuals:
        try:
            if getattr(v, "problem", ""):
                raise MeshRefused(v.problem)
            if v.kind == "mesh":
                if not os.path.lexists(v.filename):
                    raise FileNotFoundError("not found")
                verts, faces, cols = _read_mesh(v.filename, tuple(getattr(v, "roots", ())))
                verts = verts * np.asarray(v.scale, np.float32)
            else:
                verts, faces, cols = _primitive(v)
            check_vertices(verts)
        except Exception as exc:  # any reader error: warn and draw a stick instead
            what = v.uri or v.filename
            if not what:  # geometry the loader dropped: the reason says it all
                out.warnings.append(f"link {str(v.link)[:80]!r}: {str(exc)[:400]}")
                out.missing_frames.add(v.frame)
                continue
            why = str(getattr(exc, "strerror", None) or exc)
            why = why if len(why) <= 300 else why[:297] + "..."
            out.warnings.append(f"link {str(v.link)[:80]!r}: cannot load mesh {str(what)[:200]} "
                                f"({why})")
            out.missing_frames.add(v.frame)
            continue
        raw.append((v, verts, faces, cols))
    total = sum(len(f) for _, _, f, _ in raw)
    scale = min(1.0, budget / total) if total else 1.0
    for v, verts, faces, cols in raw:
        rgba = np.asarray(v.rgba if v.rgba is not None else DEFAULT_RGBA, np.float32)
        cols = np.where(np.isnan(cols), rgba, cols).astype(np.float32)
        if scale < 1.0:
            verts, faces, cols = decimate(verts, faces, cols, max(200, int(len(faces) * scale)))
        verts, faces, cols = _drop_degenerate(verts, faces, cols)
        T = v.matrix
        placed = (verts.astype(np.float64) @ T[:3, :3].T + T[:3, 3]).astype(np.float32)
        out.meshes.append(VisualMesh(v.frame, placed, faces, cols, v.link, v.follow))
    return out
