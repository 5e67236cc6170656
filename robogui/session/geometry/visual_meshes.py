"""Triangles for a robot's visual geometry (URDF meshes and primitives), without Qt.

:func:`load_visuals` reads every :class:`~robogui.engine.model.visual.Visual` of a robot once:
STL, OBJ and DAE files through trimesh (pycollada for DAE), boxes, cylinders and spheres
built by trimesh. Meshes keep their full resolution up to :data:`FACE_BUDGET` triangles
per robot (measured: see the constant); past it they are decimated by quadric edge
collapse, which keeps silhouettes. Each mesh comes with smooth normals that keep edges
sharper than a crease angle, and per vertex the material's diffuse (texture colours
sampled at the UVs), ambient and specular terms (:mod:`.mesh_looks`). Missing or
unreadable files give a warning naming the file and the link; the view draws those
links as sticks.

Files are cached by path and modification time, the shaded meshes by the file, scale and
face target, so opening the same robot again does not read or shade them again. A mesh's
crease normals are computed in the mesh worker with its parsing
(:func:`shaded_look_arrays`: several files at once), a robot past its budget is
decimated there too (:func:`decimated_shading`, two meshes at a time), and what the
workers make of a file
is kept on disk too (:mod:`.mesh_store`, keyed by the file's content hash; a decimated
mesh also as drawn), so a new process opening the same robot parses nothing.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.bounded_work import preload, run_many
from robogui.engine.collada import trim_collada
from robogui.engine.guarded_open import read_guarded
from robogui.engine.limits import limits
from robogui.engine.mesh_guard import (
    MeshRefused,
    check_bytes,
    check_vertices,
    prefetch_meshes,
    read_mesh_arrays,
    refusal,
    scene_parts,
)

from . import mesh_looks, mesh_store
from .mesh_looks import (
    crease_normals,
    dae_effects,
    one_sided,
    quadric_decimate,
    vertex_terms,
)

__all__ = ["VisualMesh", "VisualSet", "load_visuals", "decimate", "drop_degenerate",
           "face_targets", "FACE_BUDGET", "MIN_FACES"]

#: triangles per robot drawn at full resolution; past it every mesh is decimated in
#: proportion (quadric, silhouettes kept). From ``benchmarks/bench_urdf.py --mesh-fps``
#: (tool-handle drag at 1600x1000, software GL, a shared 2-core machine at load 2.5): the
#: Panda at 134,912 / 39,925 / 7,944 triangles and the stick Puma drew at 5 / 11 / 19 /
#: 29 fps, i.e. 34 ms a frame plus about 1.2 us a triangle; scaled to the idle machine
#: of the README's figures (the stick Puma at 162 fps, 5.7x faster) the whole Panda takes
#: about 35 ms (29 fps): it stays whole (decimated meshes shade less cleanly), heavier
#: robots are brought down to this
FACE_BUDGET = 150_000
# the workers import this module (shaded_look_arrays) and the collapse's (decimated_shading)
# when they start, not at the first file
preload(__name__, "fast_simplification", "scipy.spatial", "scipy.sparse.csgraph")
#: triangles of one mesh past which it is decimated (to FACE_BUDGET) inside the bounded
#: mesh worker: below it the app's process holds a mesh in well under the 2 GiB budget
WORKER_DECIMATE = 1_000_000
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

    @property
    def faces(self) -> int:
        return sum(len(m.faces) for m in self.meshes)


def decimate(vertices: np.ndarray, faces: np.ndarray, colors: np.ndarray, target: int):
    """At most about ``target`` faces by quadric edge collapse (silhouettes kept); each
    new vertex takes the ``colors`` row (any width) of the nearest original vertex.
    Returns (vertices, faces, colors)."""
    if len(faces) <= target:
        return vertices, faces, colors
    v, f, src = quadric_decimate(vertices, faces, target)
    return v, f, np.asarray(colors)[src]


_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def look_arrays(loaded, fix: np.ndarray, source) -> tuple:
    """(vertices (v, 3) m, faces (f, 3), terms (v, 10)) of what the guarded loader read from
    ``source`` = (path, roots): the scene's parts placed (their transforms and ``fix``,
    COLLADA's unit and up axis; a mirroring node's faces turned to stay outward), and
    per vertex the material (:func:`~.mesh_looks.vertex_terms`), a COLLADA file's ambient
    and specular terms read from its bytes (trimesh keeps only the diffuse term). Runs in
    the mesh worker (:func:`robogui.engine.mesh_guard.read_mesh_arrays`'s ``extract``)."""
    path, roots = source
    effects = []
    if str(path).lower().endswith(".dae"):
        raw = read_guarded(path, limits().mesh_bytes, roots or (os.path.dirname(path),))
        effects = dae_effects(trim_collada(raw)[0])
    vs, fs, cs, off = [], [], [], 0
    for mesh, T in scene_parts(loaded):
        T = fix @ T
        v = np.asarray(mesh.vertices, dtype=np.float64) @ T[:3, :3].T + T[:3, 3]
        f = np.asarray(mesh.faces, dtype=np.int64)
        if np.linalg.det(T[:3, :3]) < 0:  # a mirroring node: keep the faces outward
            f = f[:, ::-1]
        vs.append(v)
        fs.append(f + off)
        cs.append(vertex_terms(mesh, effects))
        off += len(v)
    if not vs or not sum(len(f) for f in fs):
        raise ValueError("no triangles in the file")
    v, f, c = np.vstack(vs), np.vstack(fs), np.vstack(cs).astype(np.float32)
    # a mesh of millions of triangles is decimated here, inside the worker's time and
    # memory budget, so the app's own process never holds such a mesh (docs/security.md)
    return decimate(v, f, c, FACE_BUDGET) if len(f) > WORKER_DECIMATE else (v, f, c)


def shaded_look_arrays(loaded, fix: np.ndarray, source) -> tuple:
    """(vertices (k, 3), faces (t, 3), terms (k, 10), normals (k, 3) or None): for a mesh
    of at most :data:`FACE_BUDGET` triangles, :func:`look_arrays`'s mesh shaded at scale 1
    and full resolution (:func:`unit_shading`), else its arrays and None. The crease
    normals are computed in the worker, in parallel with the other files' parsing."""
    v, f, c = look_arrays(loaded, fix, source)
    # coordinates past any scale a robot file may give (check_vertices refuses them
    # after scaling): left as read, so the refusal names them
    if len(f) <= FACE_BUDGET and float(np.abs(v).max()) < 1e6:
        try:
            shaded = unit_shading(v, f, c)
        except MemoryError:  # past the worker's budget: the app's process shades it
            shaded = None
        if shaded is not None and len(shaded[1]):
            return shaded
    return v, f, c, None


def unit_shading(verts, faces, terms) -> tuple:
    """(vertices (k, 3) float32, faces (t, 3) uint32, terms (k, 10) float32 with NaN
    unknown, normals (k, 3) float32) of a mesh at scale 1 without decimation: zero-area
    and doubled faces left out, crease-angle normals, the corners split where the normal
    or the material changes (:func:`~.mesh_looks.crease_normals`). The result is the
    same mesh (a uniform scale moves no normal; decimation and a non-uniform scale start
    from it again: both weld by position)."""
    verts, faces, terms = drop_degenerate(np.asarray(verts), np.asarray(faces),
                                           np.asarray(terms))
    src, normals, faces = crease_normals(verts, faces, attrs=terms)
    return (verts[src].astype(np.float32), faces, terms[src].astype(np.float32), normals)


# what a disk cache entry holds: name -> (dtype, ndim, columns); "?": may be missing
_SPEC = {"v": ("float32", 2, 3), "f": ("uint32", 2, 3), "c": ("float32", 2, 10),
         "n?": ("float32", 2, 3)}


def _terms_ok(t: np.ndarray) -> bool:
    known = t[~np.isnan(t)]
    return bool(known.size == 0 or (known.min() >= -1e-6 and known.max() <= 1 + 1e-6))


def _valid_entry(a: dict) -> bool:
    """A disk entry's arrays are a mesh this module could have made: shapes agree, face
    indices in range, at most the triangle limit, finite coordinates, unit normals,
    material terms in [0, 1] or NaN."""
    v, f, c = a["v"], a["f"], a["c"]
    if not (0 < len(f) <= limits().triangles and len(v) > 0 and len(c) == len(v)):
        return False
    if int(f.max()) >= len(v) or not np.isfinite(v).all() or not _terms_ok(c):
        return False
    n = a.get("n")
    return n is None or bool(len(n) == len(v) and np.isfinite(n).all() and
                             np.all(np.abs(np.linalg.norm(n, axis=1) - 1) < 1e-3))


def _disk_key(path: str, roots: tuple, raw: bytes, st) -> str:
    return mesh_store.key_of(
        kind="visual mesh", path=os.path.abspath(path), roots=list(roots),
        sha256=hashlib.sha256(raw).hexdigest(), size=st.st_size,
        mtime_ns=st.st_mtime_ns, limits=repr(limits()), face_budget=FACE_BUDGET,
        worker_decimate=WORKER_DECIMATE, crease=mesh_looks.CREASE_DEG,
        max_fan=mesh_looks.MAX_FAN)


_DRAWN_SPEC = {"v": ("float32", 2, 3), "f": ("uint32", 2, 3), "c": ("float32", 2, 10),
               "n": ("float32", 2, 3)}
#: the disk key of each file (by its in-memory key), for the entries of its drawn forms
_DISK_KEY: OrderedDict = OrderedDict()

#: disk keys of files the disk cache did not have (so the parse that follows does not
#: read and hash them again to write its entry)
_MISSED: OrderedDict = OrderedDict()


def _from_disk(path: str, roots: tuple, mem_key):
    """(arrays as :func:`_read_looks` gives them or None, the disk key or None). The file
    is read through the guarded opener and its bytes get every check made before
    parsing (a refused file is refused here as when parsed: the caller parses it then
    and names the refusal); a file refused earlier is not looked up."""
    with _LOCK:
        missed = _MISSED.pop(mem_key, None)
    if missed is not None:
        return None, missed
    if not mesh_store.max_bytes() or refusal(path, roots, shaded_look_arrays) is not None:
        return None, None
    try:
        st = os.stat(path)
        raw = read_guarded(path, limits().mesh_bytes, roots or (os.path.dirname(path),))
        check_bytes(raw, os.path.splitext(path)[1])
        if os.stat(path).st_mtime_ns != st.st_mtime_ns:
            return None, None  # written while read: no entry for a moving target
    except Exception:  # the parse in the worker names the refusal
        return None, None
    key = _disk_key(path, roots, raw, st)
    with _LOCK:
        _bounded_put(_DISK_KEY, mem_key, key, 1024)
    a = mesh_store.load(key, _SPEC, _valid_entry)
    if a is None:
        return None, key
    return (a["v"], a["f"], a["c"], a.get("n")), key


def _mem_key(path: str, roots: tuple):
    st = os.stat(path)
    return (path, st.st_mtime_ns, st.st_size, roots, limits())


def _read_looks(path: str, roots: tuple = ()):
    """(vertices, faces, terms, normals or None) of a mesh file, scene transforms
    applied, ``terms`` (v, 10) the material per vertex (:func:`~.mesh_looks.vertex_terms`:
    diffuse RGBA, ambient, specular; NaN unknown), ``normals`` when shaded in the worker
    (:func:`shaded_look_arrays`); cached in memory and on disk (:mod:`.mesh_store`).
    Parsed in a bounded worker process (:mod:`robogui.engine.mesh_guard`: time and
    memory limits) inside the folders ``roots``."""
    key = _mem_key(path, roots)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
    out, disk_key = _from_disk(path, roots, key)
    if out is None:
        # parsed in a bounded worker process (time and memory limits), COLLADA units applied
        v, f, c, n = read_mesh_arrays(path, roots, extract=shaded_look_arrays)
        out = (v.astype(np.float32), f.astype(np.uint32), c.astype(np.float32), n)
        if disk_key is not None:
            arrays = dict(zip("vfc", out[:3], strict=True))
            if n is not None:
                arrays["n"] = n
            mesh_store.store(disk_key, arrays)
    _keep(key, out)
    return out


def _keep(key, out) -> None:
    with _LOCK:
        _bounded_put(_CACHE, key, out)


def _read_mesh(path: str, roots: tuple = ()):
    """(vertices, faces, terms) of :func:`_read_looks`."""
    return _read_looks(path, roots)[:3]


def _ready(path: str, roots: tuple) -> bool:
    """Whether ``path``'s arrays are at hand, in memory or (then kept in memory) in the
    disk cache: no worker needs to parse it."""
    try:
        key = _mem_key(path, roots)
    except OSError:
        return False
    with _LOCK:
        if key in _CACHE:
            return True
    out, disk_key = _from_disk(path, roots, key)
    if out is not None:
        _keep(key, out)
        return True
    if disk_key is not None:
        with _LOCK:
            _bounded_put(_MISSED, key, disk_key)
    return False


#: bytes of arrays the in-memory mesh tables keep each (a count alone let full-resolution
#: meshes of every arm a gallery opened pile up to gigabytes)
TABLE_BYTES = 256 * 2**20


def _nbytes(value) -> int:
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, (tuple, list)):
        return sum(_nbytes(x) for x in value)
    if isinstance(value, dict):
        return sum(_nbytes(x) for x in value.values())
    return 0


def _bounded_put(table, key, value, limit: int = 256, max_bytes: int | None = None) -> None:
    """``table[key] = value`` as its newest entry; the oldest are dropped past ``limit``
    entries or past ``max_bytes`` (default :data:`TABLE_BYTES`) of arrays, the newest
    always kept (an OrderedDict; the caller holds the lock)."""
    table[key] = value
    table.move_to_end(key)
    budget = TABLE_BYTES if max_bytes is None else max_bytes
    while len(table) > limit:
        table.popitem(last=False)
    total = sum(_nbytes(v) for v in table.values())
    while total > budget and len(table) > 1:
        _, old = table.popitem(last=False)
        total -= _nbytes(old)


def drop_degenerate(verts, faces, cols):
    """Faces of zero area have no normal (NaN shading): leave them out. A triangle
    there twice (once per side, or repeated) is kept once, wound outward
    (:func:`~.mesh_looks.one_sided`)."""
    tri = verts[faces].astype(np.float64)
    area2 = np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    keep = area2 > 1e-12 * max(1.0, float(np.abs(verts).max()) ** 2)
    faces = one_sided(verts, faces[keep])
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


def decimated_shading(verts, faces, terms, target: int) -> tuple:
    """:func:`unit_shading` of a mesh decimated to ``target`` faces when it has more
    (one side of two-sided surfaces first: a collapse of two coincident sheets tears
    both, and it may then need none). A module-level function: the bounded mesh workers
    run it for several meshes at once (:func:`_prefetch_shaded`)."""
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
        file_key = _DISK_KEY.get(_mem_key(v.filename, tuple(getattr(v, "roots", ()))))
    if hit is not None or file_key is None:
        return hit, key, None
    # decimated or scaled unevenly: kept on disk as drawn
    disk_key = mesh_store.key_of(file=file_key, scale=[float(x) for x in v.scale],
                                 rgba=v.rgba, target=int(target))
    # (the decimation may stop a little above its target: not checked)
    a = mesh_store.load(disk_key, _DRAWN_SPEC,
                        lambda a: _valid_entry(a) and not np.isnan(a["c"]).any())
    if a is not None:
        hit = (a["v"], a["f"], a["c"], a["n"])
        with _LOCK:
            _SHADED[key] = hit
    return hit, key, disk_key


def _shading_input(v, faces, terms) -> tuple:
    """(faces, terms) as :func:`decimated_shading` takes them: the visual's colour where
    the file has none, a mirroring scale's faces turned to stay outward."""
    terms = _filled(terms, v.rgba if v.rgba is not None else DEFAULT_RGBA)
    if np.prod(v.scale) < 0:
        faces = faces[:, ::-1]
    return faces, terms


def _keep_shaded(key, disk_key, out) -> None:
    if disk_key is not None:
        mesh_store.store(disk_key, dict(zip("vfcn", out, strict=True)))
    if key is not None:
        with _LOCK:
            _bounded_put(_SHADED, key, out)


def _shaded(v, verts, faces, terms, target: int):
    """(vertices, faces, terms, normals) of one visual in its own coordinates:
    decimated to ``target`` faces when it has more, crease-angle normals; cached for
    mesh files (path, modification time, scale, colour, target)."""
    hit, key, disk_key = _shaded_cached(v, target)
    if hit is not None:
        return hit
    out = decimated_shading(verts, *_shading_input(v, faces, terms), target)
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
            todo.append((key, disk_key, (verts, *_shading_input(v, faces, terms), target)))
    if len(todo) < 2:
        return  # one mesh: no gain from a worker
    todo.sort(key=lambda job: -len(job[2][1]))  # the biggest first: the two end together
    results = run_many([(decimated_shading, args) for _key, _disk, args in todo])
    for (key, disk_key, _args), out in zip(todo, results, strict=True):
        if not isinstance(out, BaseException):
            _keep_shaded(key, disk_key, out)


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


def _bytes_first(file: tuple) -> tuple:
    """Sort key of a (path, roots): the biggest file first, then by path."""
    try:
        size = os.stat(file[0]).st_size
    except OSError:
        size = 0
    return -size, file


def load_visuals(robot, budget: int = FACE_BUDGET) -> VisualSet:
    """Triangles of every visual of ``robot``: full resolution up to ``budget`` faces in
    all, past it each mesh decimated in proportion (at least 200 faces each)."""
    out = VisualSet()
    raw = []
    files = {(v.filename, tuple(getattr(v, "roots", ()))) for v in robot.visuals
             if v.kind == "mesh" and v.filename and not getattr(v, "problem", "")}
    # files the disk cache answers are not parsed; the others two at a time, the biggest
    # first (the two workers then end together)
    prefetch_meshes((f for f in sorted(files, key=_bytes_first) if not _ready(*f)),
                    extract=shaded_look_arrays)
    for v in robot.visuals:
        try:
            if getattr(v, "problem", ""):
                raise MeshRefused(v.problem)
            if v.kind == "mesh":
                if not os.path.lexists(v.filename):
                    raise FileNotFoundError("not found")
                verts, faces, cols, normals = _read_looks(v.filename,
                                                          tuple(getattr(v, "roots", ())))
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
    _prefetch_shaded((v, verts, faces, terms, target)
                     for (v, verts, faces, terms, normals), target in zip(raw, targets, strict=True)
                     if v.kind == "mesh" and not _shaded_already(v, faces, normals, target))
    for (v, verts, faces, terms, normals), target in zip(raw, targets, strict=True):
        if _shaded_already(v, faces, normals, target):
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
