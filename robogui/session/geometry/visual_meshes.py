"""Triangles for a robot's visual geometry (URDF meshes and primitives), without Qt.

:func:`load_visuals` reads every :class:`~robogui.engine.model.visual.Visual` of a robot once:
STL, OBJ and DAE files through trimesh (pycollada for DAE; :mod:`.mesh_files` parses and
keeps them), boxes, cylinders and spheres built by trimesh. Meshes keep their full
resolution up to :data:`FACE_BUDGET` triangles per robot (measured: see the constant);
past it they are decimated by quadric edge collapse, which keeps silhouettes. Each mesh
comes with smooth normals that keep edges sharper than a crease angle, and per vertex the
material's diffuse (texture colours sampled at the UVs), ambient and specular terms
(:mod:`.mesh_looks`). Missing or unreadable files give a warning naming the file and the
link; the view draws those links as sticks.

A mesh's crease normals are computed in the mesh worker with its parsing, several files
at once; a robot past its budget is decimated in the workers too
(:func:`decimated_shading`, two meshes at a time), and the meshes as drawn are cached by
the file, scale and face target, in memory and on disk (:mod:`.mesh_store`), so opening
the same robot again, even in a new process, neither parses nor decimates. The quadric
collapse of a heavy robot takes seconds (the so101's 400,000 triangles: 3 s): asked for
a ``draft``, :func:`load_visuals` vertex-clusters such meshes instead (:func:`draft_shading`,
a fraction of the time), for the view to draw until the finished set is made
(:func:`~.visual_cache.load_visuals_soon`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.bounded_work import preload, run_many
from robogui.engine.limits import limits
from robogui.engine.mesh_guard import MeshRefused, check_vertices, prefetch_meshes

from . import mesh_store
from .mesh_files import (
    FACE_BUDGET,
    bounded_put,
    decimate,
    declared_faces,
    drop_degenerate,
    file_disk_key,
    file_ready,
    parsed_look_arrays,
    read_looks,
    shaded_look_arrays,
    unit_shading,
    valid_entry,
)
from .mesh_looks import vertex_cluster

__all__ = ["VisualMesh", "VisualSet", "load_visuals", "decimate", "drop_degenerate",
           "face_targets", "FACE_BUDGET", "MIN_FACES", "unit_shading"]

# the workers import this module (decimated_shading, draft_shading) and the collapse's
# when they start, not at the first mesh
preload(__name__, "fast_simplification", "scipy.spatial", "scipy.sparse.csgraph")
DEFAULT_RGBA = (0.72, 0.74, 0.78, 1.0)
#: the view's look for a colour without material terms: ambient = 0.6 x diffuse, a
#: neutral highlight
DEFAULT_AMBIENT = 0.6
DEFAULT_SPECULAR = (0.25, 0.25, 0.25)


@dataclass
class VisualMesh:
    """Triangles of one visual in its link frame: ``frame`` (fkine_all index), vertices
    (v, 3) float32 already placed by the visual's transform, faces (f, 3) uint32,
    colours (v, 4) float32 (the diffuse term), and per vertex ``normals`` (v, 3), the
    ``ambient`` and ``specular`` terms (v, 3) float32. With ``follow`` the vertices are
    in the last following joint's child frame (see
    :mod:`robogui.session.geometry.follow`)."""

    frame: int
    vertices: np.ndarray
    faces: np.ndarray
    colors: np.ndarray
    link: str = ""
    follow: tuple = ()  # Visual.follow: moved by joints off the chain (placed after them)
    normals: np.ndarray | None = None
    ambient: np.ndarray | None = None
    specular: np.ndarray | None = None


@dataclass
class VisualSet:
    meshes: list[VisualMesh] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: frames (fkine_all indices) with geometry that could not be loaded
    missing_frames: set[int] = field(default_factory=set)
    #: a first look (``load_visuals(..., draft=True)``): some meshes vertex-clustered,
    #: not yet decimated by the quadric collapse
    draft: bool = False

    @property
    def faces(self) -> int:
        return sum(len(m.faces) for m in self.meshes)


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
            np.full((n, 10), np.nan, np.float32))


def _filled(terms: np.ndarray, rgba) -> np.ndarray:
    """Material terms (v, 10) with the unknowns filled: diffuse from the URDF colour (or
    the default), ambient 0.6 x diffuse, the neutral highlight."""
    t = np.array(terms, dtype=np.float32)
    dif = t[:, :4]
    t[:, :4] = np.where(np.isnan(dif), np.asarray(rgba, np.float32), dif)
    amb = t[:, 4:7]
    t[:, 4:7] = np.where(np.isnan(amb), DEFAULT_AMBIENT * t[:, :3], amb)
    spec = t[:, 7:10]
    t[:, 7:10] = np.where(np.isnan(spec), np.asarray(DEFAULT_SPECULAR, np.float32), spec)
    return t


_SHADED: OrderedDict = OrderedDict()
_LOCK = threading.Lock()
_DRAWN_SPEC = {"v": ("float32", 2, 3), "f": ("uint32", 2, 3), "c": ("float32", 2, 10),
               "n": ("float32", 2, 3)}


def decimated_shading(verts, faces, terms, target: int, rgba=DEFAULT_RGBA,
                       mirrored: bool = False) -> tuple:
    """:func:`unit_shading` of a mesh decimated to ``target`` faces when it has more
    (one side of two-sided surfaces first: a collapse of two coincident sheets tears
    both, and it may then need none); first the colour ``rgba`` where ``terms`` has none,
    the faces turned when a ``mirrored`` scale places them (:func:`_shading_input`). A
    module-level function: the bounded mesh workers run it for several meshes at once
    (:func:`_prefetch_shaded`)."""
    faces, terms = _outward_filled(faces, terms, rgba, mirrored)
    if len(faces) > target:
        verts, faces, terms = drop_degenerate(verts, faces, terms)
        if len(faces) > target:
            verts, faces, terms = decimate(verts, faces, terms, target)
    return unit_shading(verts, faces, terms)  # (again: what the collapse left degenerate)


def _shaded_cached(v, target: int) -> tuple:
    """(the shaded arrays of ``v`` at ``target`` faces from memory or disk, or None; the
    memory key; the disk key): mesh files only (None, None, None otherwise)."""
    if v.kind != "mesh":
        return None, None, None
    st = os.stat(v.filename)
    key = (v.filename, st.st_mtime_ns, st.st_size, tuple(v.scale), v.rgba,
           v.file_material, target, limits())
    with _LOCK:
        hit = _SHADED.get(key)
    file_key = file_disk_key(v.filename, tuple(getattr(v, "roots", ())))
    if hit is not None or file_key is None:
        return hit, key, None
    # decimated or scaled unevenly: kept on disk as drawn
    disk_key = mesh_store.key_of(file=file_key, scale=[float(x) for x in v.scale],
                                 rgba=v.rgba, target=int(target))
    # (the decimation may stop a little above its target: not checked)
    a = mesh_store.load(disk_key, _DRAWN_SPEC,
                        lambda a: valid_entry(a) and not np.isnan(a["c"]).any())
    if a is not None:
        hit = (a["v"], a["f"], a["c"], a["n"])
        with _LOCK:
            _SHADED[key] = hit
    return hit, key, disk_key


def _shading_input(v) -> tuple:
    """(rgba, mirrored) of a visual as :func:`decimated_shading` takes them: its colour
    for the file's vertices that have none, whether a mirroring scale places it."""
    return (v.rgba if v.rgba is not None else DEFAULT_RGBA), bool(np.prod(v.scale) < 0)


def _outward_filled(faces, terms, rgba, mirrored: bool) -> tuple:
    """(faces, terms): the unknown terms filled (:func:`_filled`), a mirrored mesh's faces
    turned to stay outward. In the workers: a robot's arrays are big (so101: 0.12 s)."""
    return (faces[:, ::-1] if mirrored else faces), _filled(terms, rgba)


def _keep_shaded(key, disk_key, out) -> None:
    if disk_key is not None:
        mesh_store.store(disk_key, dict(zip("vfcn", out, strict=True)))
    if key is not None:
        with _LOCK:
            bounded_put(_SHADED, key, out)


def _shaded(v, verts, faces, terms, target: int):
    """(vertices, faces, terms, normals) of one visual in its own coordinates:
    decimated to ``target`` faces when it has more, crease-angle normals; cached for
    mesh files (path, modification time, scale, colour, target)."""
    hit, key, disk_key = _shaded_cached(v, target)
    if hit is not None:
        return hit
    out = decimated_shading(verts, faces, terms, target, *_shading_input(v))
    _keep_shaded(key, disk_key, out)
    return out


def _prefetch_shaded(jobs) -> None:
    """Decimate and shade the mesh visuals ``jobs`` ((visual, vertices, faces, terms,
    target) each) that no cache holds, two at a time in the bounded mesh workers, and
    cache them for :func:`_shaded`: the collapse is most of a heavy robot's first open
    (the so101's 400,000 triangles: 3.4 s on one core). A mesh a worker could not do is
    left to :func:`_shaded`, which does it here."""
    todo, seen = [], set()
    for v, verts, faces, terms, target in jobs:
        try:
            hit, key, disk_key = _shaded_cached(v, target)
        except OSError:
            continue  # _shaded names it
        if hit is None and key not in seen:  # one file drawn several times: once
            seen.add(key)
            todo.append((key, disk_key, (verts, faces, terms, target, *_shading_input(v))))
    if len(todo) < 2:
        return  # one mesh: no gain from a worker
    todo.sort(key=lambda job: -len(job[2][1]))  # the biggest first: the two end together
    results = run_many([(decimated_shading, args) for _key, _disk, args in todo])
    for (key, disk_key, _args), out in zip(todo, results, strict=True):
        if not isinstance(out, BaseException):
            _keep_shaded(key, disk_key, out)


def draft_shading(verts, faces, terms, target: int, rgba=DEFAULT_RGBA,
                  mirrored: bool = False) -> tuple:
    """:func:`decimated_shading`'s quick stand-in, drawn while the collapse runs: vertex
    clustering (:func:`~.mesh_looks.vertex_cluster`: a few passes over the vertices, never
    a stall) instead, each new vertex with the material of a vertex of its cell. (Faces
    made degenerate or doubled go in the clustering and the shading.)"""
    faces, terms = _outward_filled(faces, terms, rgba, mirrored)
    if len(faces) > target:
        # half the target: a draft is drawn for seconds, and its first frame is sooner
        # (so101: 0.1 s of llvmpipe at 50,000 triangles); two tries: the first cell size
        # gives 0.05 to 1.3 times the faces aimed at (thin walls and fine detail
        # collapse), the second is closer
        v, f, src = vertex_cluster(verts, faces, max(1, target // 2), tries=2,
                                   with_source=True)
        verts, faces, terms = v.astype(np.float32), f, np.asarray(terms)[src]
    return unit_shading(verts, faces, terms)


def _drafts(jobs) -> dict:
    """{index: shaded arrays} of the jobs ((index, visual, vertices, faces, terms,
    target) each) that need the collapse and that no cache holds, made by
    :func:`draft_shading` two at a time in the mesh workers; empty when none does."""
    todo: dict = {}
    for i, v, verts, faces, terms, target in jobs:
        if len(faces) <= target:
            continue
        try:
            hit, key, _disk = _shaded_cached(v, target)
        except OSError:
            continue  # _shaded names it
        if hit is None:
            if key not in todo:  # one file drawn several times: once
                todo[key] = ([], (verts, faces, terms, target, *_shading_input(v)))
            todo[key][0].append(i)
    # the biggest first: the two workers end together
    todo = dict(sorted(todo.items(), key=lambda kv: -len(kv[1][1][1])))
    results = run_many([(draft_shading, args) for _idx, args in todo.values()])
    return {i: out for (idx, _args), out in zip(todo.values(), results, strict=True)
            if not isinstance(out, BaseException) for i in idx}


#: no mesh is decimated below this many faces (small parts stay whole)
MIN_FACES = 200


def _shaded_already(v, faces, normals, target: int) -> bool:
    """Whether the worker's crease normals serve as they are: full resolution and a
    uniform positive scale (which turns no normal)."""
    scale = np.asarray(v.scale, np.float64)
    return (normals is not None and target >= len(faces) and bool(np.all(scale == scale[0]))
            and scale[0] > 0)


def face_targets(counts, budget: int) -> list[int]:
    """Faces each mesh keeps (``counts`` faces each) so that all hold about ``budget``:
    every mesh keeps up to :data:`MIN_FACES`, the rest of the budget goes in
    proportion; all whole when they fit."""
    counts = np.asarray(list(counts), np.int64)
    floor = np.minimum(counts, MIN_FACES)
    above = int((counts - floor).sum())
    share = min(1.0, max(0, int(budget) - int(floor.sum())) / above) if above else 1.0
    return [int(n) if share >= 1.0 else int(lo + int((n - lo) * share))
            for n, lo in zip(counts.tolist(), floor.tolist(), strict=True)]


def _declared_past(visuals, budget: int) -> bool:
    """Whether the mesh files of ``visuals`` declare more than ``budget`` triangles in
    all (:func:`~.mesh_files.declared_faces`; the STL files, told by their sizes, first,
    and no more files read than needed)."""
    told: dict = {}
    total = 0
    for v in sorted(visuals, key=lambda v: not v.filename.lower().endswith(".stl")):
        if v.filename not in told:
            told[v.filename] = declared_faces(v.filename, tuple(getattr(v, "roots", ())))
        total += told[v.filename]
        if total > budget:
            return True
    return False


def _bytes_first(file: tuple) -> tuple:
    """Sort key of a (path, roots): the biggest file first, then by path."""
    try:
        size = os.stat(file[0]).st_size
    except OSError:
        size = 0
    return -size, file


def load_visuals(robot, budget: int = FACE_BUDGET, draft: bool = False) -> VisualSet:
    """Triangles of every visual of ``robot``: full resolution up to ``budget`` faces in
    all, past it each mesh decimated in proportion (at least 200 faces each). With
    ``draft``, meshes that need the collapse and are in no cache are vertex-clustered
    instead (:func:`draft_shading`, a fraction of the time), and the set says
    :attr:`VisualSet.draft`: a first look, to be replaced by the set made without it."""
    out = VisualSet()
    raw = []
    shown = [v for v in robot.visuals
             if v.kind == "mesh" and v.filename and not getattr(v, "problem", "")]
    files = {(v.filename, tuple(getattr(v, "roots", ()))) for v in shown}
    # past the budget already by what the files declare: every mesh will be decimated,
    # so none is shaded at full resolution
    extract = parsed_look_arrays if _declared_past(shown, budget) else shaded_look_arrays
    # files the disk cache answers are not parsed; the others two at a time, the biggest
    # first (the two workers then end together)
    prefetch_meshes((f for f in sorted(files, key=_bytes_first) if not file_ready(*f, extract)),
                    extract=extract)
    for v in robot.visuals:
        try:
            if getattr(v, "problem", ""):
                raise MeshRefused(v.problem)
            if v.kind == "mesh":
                if not os.path.lexists(v.filename):
                    raise FileNotFoundError("not found")
                verts, faces, cols, normals = read_looks(
                    v.filename, tuple(getattr(v, "roots", ())), extract)
                verts = verts * np.asarray(v.scale, np.float32)
                if not v.file_material:  # MJCF: the model's rgba decides, not the file
                    cols = np.full_like(cols, np.nan)
            else:
                verts, faces, cols = _primitive(v)
                normals = None
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
        raw.append((v, verts, faces, cols, normals))
    targets = face_targets([len(r[2]) for r in raw], budget)
    jobs = [(i, v, verts, faces, terms, target)
            for i, ((v, verts, faces, terms, normals), target)
            in enumerate(zip(raw, targets, strict=True))
            if v.kind == "mesh" and not _shaded_already(v, faces, normals, target)]
    drafts = _drafts(jobs) if draft else {}
    out.draft = bool(drafts)
    if not drafts:
        _prefetch_shaded(job[1:] for job in jobs)
    for i, ((v, verts, faces, terms, normals), target) in enumerate(
            zip(raw, targets, strict=True)):
        if i in drafts:
            verts, faces, terms, normals = drafts[i]
        elif _shaded_already(v, faces, normals, target):
            # shaded in the worker (a uniform scale turns no normal): only the colours
            terms = _filled(terms, v.rgba if v.rgba is not None else DEFAULT_RGBA)
        else:
            verts, faces, terms, normals = _shaded(v, verts, faces, terms, target)
        T = v.matrix
        placed = (verts.astype(np.float64) @ T[:3, :3].T + T[:3, 3]).astype(np.float32)
        turned = (normals.astype(np.float64) @ T[:3, :3].T).astype(np.float32)
        out.meshes.append(VisualMesh(v.frame, placed, faces, terms[:, :4].copy(), v.link,
                                     v.follow, normals=turned,
                                     ambient=terms[:, 4:7].copy(),
                                     specular=terms[:, 7:10].copy()))
    return out
