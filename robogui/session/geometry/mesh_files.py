"""Mesh files read once: parsed in the bounded mesh workers, kept in memory and on disk.

:func:`read_looks` gives a mesh file's arrays as the view starts from them: the scene's
parts placed (COLLADA's unit and up axis applied), per vertex the material's diffuse,
ambient and specular terms (:func:`~.mesh_looks.vertex_terms`), and normals when the
worker shaded it at full resolution (:func:`shaded_look_arrays`; a robot past its face
budget is parsed without: :func:`parsed_look_arrays`). Files are parsed in a bounded
worker process (:mod:`robogui.engine.mesh_guard`: time and memory limits, folders), kept
in memory by path, modification time and size (tables bounded by bytes), and on disk by
content hash (:mod:`.mesh_store`), so a new process opening the same robot parses
nothing. :mod:`.visual_meshes` makes the robot's drawn meshes from them.
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict

import numpy as np
import xxhash

from robogui.engine.bounded_work import preload
from robogui.engine.collada import trim_collada
from robogui.engine.guarded_open import read_guarded
from robogui.engine.limits import limits
from robogui.engine.mesh_guard import (
    check_bytes,
    read_mesh_arrays,
    refusal,
    scene_parts,
)

from . import mesh_looks, mesh_store
from .mesh_looks import (
    crease_normals,
    dae_effects,
    equal_rows,
    one_sided,
    quadric_decimate,
    vertex_terms,
)

__all__ = ["FACE_BUDGET", "WORKER_DECIMATE", "read_looks", "file_ready", "file_disk_key",
           "look_arrays", "shaded_look_arrays", "parsed_look_arrays", "declared_faces",
           "unit_shading", "decimate", "drop_degenerate", "valid_entry", "bounded_put"]

#: triangles per robot drawn at full resolution; past it every mesh is decimated in
#: proportion (quadric, silhouettes kept). From ``benchmarks/bench_urdf.py --mesh-fps``
#: (tool-handle drag at 1600x1000, software GL, a shared 2-core machine at load 2.5): the
#: Panda at 134,912 / 39,925 / 7,944 triangles and the stick Puma drew at 5 / 11 / 19 /
#: 29 fps, i.e. 34 ms a frame plus about 1.2 us a triangle; scaled to the idle machine
#: of the README's figures (the stick Puma at 162 fps, 5.7x faster) the whole Panda takes
#: about 35 ms (29 fps): it stays whole (decimated meshes shade less cleanly), heavier
#: robots are brought down to this
FACE_BUDGET = 150_000
#: triangles of one mesh past which it is decimated (to FACE_BUDGET) inside the bounded
#: mesh worker: below it the app's process holds a mesh in well under the 2 GiB budget
WORKER_DECIMATE = 1_000_000
# the workers import this module (the parse's extracts) when they start, not at the
# first file
preload(__name__, "scipy.sparse.csgraph")


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


def parsed_look_arrays(loaded, fix: np.ndarray, source) -> tuple:
    """:func:`look_arrays` with no normals (``(v, f, terms, None)``): the parse of a robot
    whose files already hold more triangles than its budget (:func:`declared_faces`), whose
    meshes are all decimated, so that shading them at full resolution would be thrown
    away (the so101's 400,000 triangles: 1.4 s of the workers' time). Vertices equal in
    position and material are merged: an STL file repeats each corner of each triangle,
    six times the arrays that go back to the app (the shading welds them anyway)."""
    v, f, c = look_arrays(loaded, fix, source)
    key = np.ascontiguousarray(v, np.float32).view(np.int32)
    if not np.isnan(c).all():
        key = np.hstack([key, np.ascontiguousarray(c, np.float32).view(np.int32)])
    first, ids = equal_rows(key)
    return v[first], ids[f], c[first], None


#: a COLLADA primitive's opening tag, and the count attribute inside such a tag
_DAE_PRIMITIVE = re.compile(rb"<(?:triangles|polylist|polygons|tristrips|trifans)\b")
_DAE_COUNT = re.compile(rb'\bcount="(\d{1,12})"')


def _dae_declared(raw: bytes) -> int:
    """The counts of a COLLADA file's primitives (a polygon counts as one triangle). Each
    tag is searched only up to its end (its ``>``, before any ``<``, within 4 KiB), so a
    file of openings never closed is read in linear time too; past 10,000 primitives (a
    real file has tens) the guess is what was counted so far."""
    total = 0
    for k, m in enumerate(_DAE_PRIMITIVE.finditer(raw)):
        if k == 10_000:
            break
        start = m.end()
        stop = raw.find(b"<", start, start + 4096)
        stop = start + 4096 if stop < 0 else stop
        end = raw.find(b">", start, stop)
        count = _DAE_COUNT.search(raw, start, end) if end >= 0 else None
        total += int(count.group(1)) if count else 0
    return total


def declared_faces(path: str, roots: tuple = ()) -> int:
    """Triangles a mesh file says it holds, read before parsing it to choose how: a
    binary STL's size (84 bytes of header and count, 50 a triangle), the counts of a
    COLLADA file's primitives (z1's 20 MB in 35 ms), an OBJ file's face lines; 0 for
    any other file, or one that cannot be read (its parse names why). A guess: a
    wrong one costs time, never the result."""
    suffix = os.path.splitext(str(path))[1].lower()
    try:
        if suffix == ".stl":
            size = os.stat(path).st_size
            return (size - 84) // 50 if size >= 84 and (size - 84) % 50 == 0 else 0
        if suffix not in (".dae", ".obj"):
            return 0
        raw = read_guarded(path, limits().mesh_bytes, roots or (os.path.dirname(path),))
    except Exception:  # noqa: BLE001 - the parse refuses it and says why
        return 0
    if suffix == ".obj":
        return raw.count(b"\nf ")
    return _dae_declared(raw)


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


def valid_entry(a: dict) -> bool:
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
        # xxh3: a robot's 16 MB of STL in 3 ms, sha256 took 58 ms of its first open (the
        # key is no secret: it names a cache entry, whose arrays are checked when read)
        xxh3=xxhash.xxh3_128_hexdigest(raw), size=st.st_size,
        mtime_ns=st.st_mtime_ns, limits=repr(limits()), face_budget=FACE_BUDGET,
        worker_decimate=WORKER_DECIMATE, crease=mesh_looks.CREASE_DEG,
        max_fan=mesh_looks.MAX_FAN)


#: the disk key of each file (by its in-memory key), for the entries of its drawn forms
_DISK_KEY: OrderedDict = OrderedDict()

#: disk keys of files the disk cache did not have (so the parse that follows does not
#: read and hash them again to write its entry)
_MISSED: OrderedDict = OrderedDict()


def _from_disk(path: str, roots: tuple, mem_key, extract=shaded_look_arrays):
    """(arrays as :func:`read_looks` gives them or None, the disk key or None). The file
    is read through the guarded opener and its bytes get every check made before
    parsing (a refused file is refused here as when parsed: the caller parses it then
    and names the refusal); a file refused earlier is not looked up."""
    with _LOCK:
        missed = _MISSED.pop(mem_key, None)
    if missed is not None:
        return None, missed
    if not mesh_store.max_bytes() or refusal(path, roots, extract) is not None:
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
        bounded_put(_DISK_KEY, mem_key, key, 1024)
    a = mesh_store.load(key, _SPEC, valid_entry)
    if a is None:
        return None, key
    return (a["v"], a["f"], a["c"], a.get("n")), key


def _mem_key(path: str, roots: tuple):
    st = os.stat(path)
    return (path, st.st_mtime_ns, st.st_size, roots, limits())


def read_looks(path: str, roots: tuple = (), extract=shaded_look_arrays):
    """(vertices, faces, terms, normals or None) of a mesh file, scene transforms
    applied, ``terms`` (v, 10) the material per vertex (:func:`~.mesh_looks.vertex_terms`:
    diffuse RGBA, ambient, specular; NaN unknown), ``normals`` when shaded in the worker
    (``extract``: :func:`shaded_look_arrays`, or :func:`parsed_look_arrays` for a robot
    past its budget); cached in memory and on disk (:mod:`.mesh_store`).
    Parsed in a bounded worker process (:mod:`robogui.engine.mesh_guard`: time and
    memory limits) inside the folders ``roots``."""
    key = _mem_key(path, roots)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            return hit
    out, disk_key = _from_disk(path, roots, key, extract)
    if out is None:
        # parsed in a bounded worker process (time and memory limits), COLLADA units applied
        v, f, c, n = read_mesh_arrays(path, roots, extract=extract)
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
        bounded_put(_CACHE, key, out)


def _read_mesh(path: str, roots: tuple = ()):
    """(vertices, faces, terms) of :func:`read_looks`."""
    return read_looks(path, roots)[:3]


def file_ready(path: str, roots: tuple, extract=shaded_look_arrays) -> bool:
    """Whether ``path``'s arrays are at hand, in memory or (then kept in memory) in the
    disk cache: no worker needs to parse it."""
    try:
        key = _mem_key(path, roots)
    except OSError:
        return False
    with _LOCK:
        if key in _CACHE:
            return True
    out, disk_key = _from_disk(path, roots, key, extract)
    if out is not None:
        _keep(key, out)
        return True
    if disk_key is not None:
        with _LOCK:
            bounded_put(_MISSED, key, disk_key)
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


def bounded_put(table, key, value, limit: int = 256, max_bytes: int | None = None) -> None:
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


def file_disk_key(path: str, roots: tuple):
    """The disk key of a file read (or looked up) in this process, or None: what the
    entries of its drawn forms are keyed by (:mod:`.visual_meshes`)."""
    with _LOCK:
        return _DISK_KEY.get(_mem_key(path, roots))
