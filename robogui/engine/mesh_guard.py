"""Reading one mesh file from the internet with bounded work (issue 23 items 2 and 3).

The bytes come through the guarded opener (a regular file inside the robot's folders, of
at most the mesh size limit); before trimesh allocates anything, the triangle count the
file declares (binary STL, PLY headers) or can hold (OBJ, ASCII STL: by its lines) is
checked against the triangle limit, and a compressed mesh (zip, zae) against the size its
members inflate to. Files a mesh references (OBJ materials, DAE and glTF textures and
buffers) are read through the same opener, confined to the same folders.

:func:`read_mesh_arrays` (what the visuals and the collision meshes use) does all of that
in a worker process of :mod:`robogui.engine.bounded_work`, so the parse itself is bounded
too: its memory by the worker's address-space cap, its wall time by killing the worker.
The worker sends back plain arrays (:func:`mesh_arrays`), which the callers cache;
:func:`prefetch_meshes` reads a robot's meshes two at a time before the caller asks for
them one by one, and a refusal is remembered by path, modification time, size, folders
and limits.
"""

from __future__ import annotations

import io
import os
import re
import struct
import threading
import time
import zipfile
from collections import OrderedDict
from pathlib import Path

import numpy as np

from . import bounds
from .collada import trim_collada
from .guarded_open import RefusedFile, read_guarded
from .limits import ENV, Limits, limits, set_limits

__all__ = ["MeshRefused", "load_mesh_guarded", "check_vertices", "scene_parts", "check_counts",
           "check_bytes", "mesh_arrays", "read_mesh_arrays", "prefetch_meshes", "refusal"]


class MeshRefused(ValueError):
    """A mesh past a limit or with bad numbers; the message names the limit."""


def _tri_limit_msg(n: int, what: str = "declares") -> str:
    cap = limits().triangles
    return (f"the mesh {what} {n:,} triangles, more than the limit of {cap:,} (raise it "
            f"with {ENV['triangles']}=N)")


def _check_counts(raw: bytes, suffix: str) -> None:
    cap = limits().triangles
    if suffix == ".stl":
        if raw[:5].lower() == b"solid" and b"facet" in raw[:4096]:
            n = raw.count(b"facet normal")
            if n > cap:
                raise MeshRefused(_tri_limit_msg(n, "holds"))
            return
        if len(raw) < 84:
            raise MeshRefused("a binary STL shorter than its 84-byte header")
        n = struct.unpack("<I", raw[80:84])[0]
        if n > cap:
            raise MeshRefused(_tri_limit_msg(n))
        if 84 + 50 * n != len(raw):
            raise MeshRefused(f"the binary STL declares {n:,} triangles but holds "
                              f"{(len(raw) - 84) // 50:,}")
    elif suffix == ".ply":
        head = raw[:65536].split(b"end_header", 1)[0].decode("latin-1")
        for kind, count in re.findall(r"element\s+(\w+)\s+(\d+)", head):
            if int(count) > 3 * cap:
                raise MeshRefused(f"the PLY declares {int(count):,} {kind}s, more than the "
                                  f"limit allows ({ENV['triangles']})")
    elif suffix == ".obj":
        n = raw.count(b"\nf ")
        if n > cap:
            raise MeshRefused(_tri_limit_msg(n, "holds"))


def check_counts(raw: bytes, suffix: str) -> None:
    """Raise MeshRefused when the mesh bytes ``raw`` (a file ending in ``suffix``: .stl,
    .ply, .obj) declare or hold more triangles than the limit, or lie about their count."""
    _check_counts(raw, suffix)


def check_bytes(raw: bytes, suffix: str) -> None:
    """Every check :func:`load_mesh_guarded` makes on a mesh file's bytes before parsing
    them (its declared or held triangles, what a zip or zae inflates to); raises
    MeshRefused. For a caller that uses arrays made earlier from the same bytes (a disk
    cache): the file is refused the same way as when it is parsed."""
    suffix = suffix.lower()
    _check_counts(raw, suffix)
    if suffix in (".zip", ".zae"):
        _check_zip(raw)


def _check_zip(raw: bytes) -> None:
    cap = limits().mesh_bytes
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            total = sum(i.file_size for i in z.infolist())
    except zipfile.BadZipFile as exc:
        raise MeshRefused(f"not a readable zip archive ({exc})") from None
    if total > cap:
        raise MeshRefused(f"the archive inflates to {total / 2**20:,.0f} MiB, more than the "
                          f"limit of {cap / 2**20:.0f} MiB (raise it with "
                          f"{ENV['mesh_bytes']}=MIB)")


def _resolver(folder: Path, roots):
    """A trimesh resolver reading through the guarded opener."""
    from trimesh.resolvers import Resolver

    class _Guarded(_Resolver, Resolver):
        pass

    return _Guarded(folder, roots)


class _Resolver:
    """trimesh's resolver protocol (get, namespaced, keys), reading guarded."""

    def __init__(self, folder: Path, roots):
        self.parent = folder
        self.roots = roots

    def get(self, name: str) -> bytes:
        path = (self.parent / str(name).replace("\\", "/")).absolute()
        return read_guarded(path, limits().mesh_bytes, self.roots)

    def write(self, name, data):  # trimesh never needs it for loading
        raise RefusedFile("mesh resources are read only", name)

    def namespaced(self, namespace: str):
        return _resolver(self.parent / namespace, self.roots)

    def keys(self):
        return iter(())


def load_mesh_guarded(path: str, roots=()):
    """(trimesh's Trimesh or Scene, 4x4 transform to apply to its vertices) of the mesh file
    ``path``, read inside the folders ``roots`` (empty: the mesh's own folder); the
    transform is a COLLADA file's unit and up axis (identity for other formats). Raises
    RefusedFile (an OSError) for a path refused, MeshRefused past a limit, and trimesh's
    own errors for a broken file."""
    import trimesh

    lim = limits()
    path = Path(path)
    roots = tuple(roots) or (str(path.parent),)
    suffix = path.suffix.lower()
    start = time.monotonic()
    raw = read_guarded(path, lim.mesh_bytes, roots)
    _check_counts(raw, suffix)
    if suffix in (".zip", ".zae"):
        _check_zip(raw)
    kind, fix = suffix.lstrip("."), np.eye(4)
    if kind == "dae":  # bytes after </COLLADA> ignored, <unit> and <up_axis> applied
        raw, fix = trim_collada(raw)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):  # checked below
        loaded = _parse(trimesh, raw, kind, _resolver(path.parent, roots))
    geoms = loaded.geometry.values() if isinstance(loaded, trimesh.Scene) else [loaded]
    for g in geoms:
        v = getattr(g, "vertices", None)
        if v is not None and len(v) and not np.isfinite(np.asarray(v, float)).all():
            raise MeshRefused("a vertex coordinate is not a finite number")
    n = sum(len(getattr(g, "faces", ())) for g in geoms)
    if n > lim.triangles:
        raise MeshRefused(_tri_limit_msg(n, "holds"))
    took = time.monotonic() - start
    if took > lim.seconds:
        raise MeshRefused(f"reading the mesh took {took:.0f} s, more than the limit of "
                          f"{lim.seconds:g} s (raise it with {ENV['seconds']}=SECONDS)")
    return loaded, fix


def _parse(trimesh, raw: bytes, kind: str, resolver):
    """What trimesh reads from ``raw``, its vertices as the file has them (no merging)."""
    if kind != "dae":
        return trimesh.load(io.BytesIO(raw), file_type=kind, process=False, resolver=resolver)
    # trimesh builds a COLLADA scene's meshes with its default processing whatever
    # ``process`` says (the flag does not reach them); merging their vertices was half
    # of a Panda link's parse, and the view welds by position when it shades anyway
    from trimesh.exchange.dae import load_collada

    parsed = load_collada(io.BytesIO(raw), resolver=resolver)
    for geometry in parsed.get("geometry", {}).values():
        if isinstance(geometry, dict):
            geometry["process"] = False
    return trimesh.load(parsed)


def check_vertices(verts: np.ndarray) -> None:
    """Raise MeshRefused when a (scaled) vertex is not finite or lies past the length
    bound of docs/bounds.md."""
    if verts.size == 0:
        return
    finite = np.isfinite(verts)
    if not finite.all():
        raise MeshRefused("a vertex coordinate is not a finite number")
    worst = float(np.abs(verts).max())
    if worst > bounds.MAX_LENGTH:
        raise MeshRefused(f"a vertex lies {worst:g} m from its frame, past the bound of "
                          f"{bounds.MAX_LENGTH:g} m (docs/bounds.md)")


# -- bounded reading in a worker process -------------------------------------------------------
def scene_parts(loaded) -> list:
    """(Trimesh, 4x4 placement) of every triangle mesh in what trimesh loaded: a scene's
    geometry nodes with their transforms, or the one mesh with the identity."""
    import trimesh

    if isinstance(loaded, trimesh.Scene):
        parts = []
        for name in loaded.graph.nodes_geometry:
            T, gname = loaded.graph[name]
            geom = loaded.geometry[gname]
            if isinstance(geom, trimesh.Trimesh):
                parts.append((geom, T))
        return parts
    return [(loaded, np.eye(4))] if isinstance(loaded, trimesh.Trimesh) else []


def mesh_arrays(loaded, fix: np.ndarray, source=None):
    """(vertices (v, 3) float64 m, faces (f, 3) int64, colours (v, 4) float32) of what
    :func:`load_mesh_guarded` returned: a scene's parts placed by their transforms and by
    ``fix`` (COLLADA unit and up axis), each part's material colour on its vertices (NaN
    where the part has none: the caller's colour is used). Raises ValueError when there
    are no triangles."""
    parts = scene_parts(loaded)
    # no copy more than needed: a mesh near the triangle cap must fit the memory budget
    vs, fs, cs, off = [], [], [], 0
    for mesh, T in parts:
        T = fix @ T
        v = np.asarray(mesh.vertices, dtype=np.float64)
        if not np.array_equal(T, np.eye(4)):
            v = v @ T[:3, :3].T + T[:3, 3]
        f = np.asarray(mesh.faces, dtype=np.int64)
        vs.append(v)
        fs.append(f + off if off else f)
        cs.append(np.broadcast_to(_mesh_color(mesh).astype(np.float32), (len(v), 4)))
        off += len(v)
    if not vs or not sum(len(f) for f in fs):
        raise ValueError("no triangles in the file")
    if len(vs) == 1:
        return vs[0], fs[0], np.ascontiguousarray(cs[0])
    return (np.vstack(vs), np.vstack(fs), np.vstack(cs))


def _mesh_color(mesh) -> np.ndarray:
    """One RGBA (4,) in 0..1 for a mesh: its material's main colour, else NaN."""
    vis = getattr(mesh, "visual", None)
    mat = getattr(vis, "material", None)
    c = getattr(mat, "main_color", None)
    if c is None:
        return np.full(4, np.nan)
    c = np.asarray(c, dtype=np.float64).ravel()[:4] / 255.0
    return c if c.size == 4 else np.full(4, np.nan)


def _job(path: str, roots: tuple, lim: Limits, extract):
    """What the worker runs: the guarded load under the caller's limits, then ``extract``."""
    set_limits(**{f: getattr(lim, f) for f in lim.__dataclass_fields__})
    loaded, fix = load_mesh_guarded(path, roots)
    return extract(loaded, fix, (path, roots))


# The callers keep the arrays they make of a mesh in their own caches; here only what
# they have not taken yet is kept: prefetched arrays until asked for (then handed over),
# refusals (small; a file that ran into the time limit is not read again), and which
# files were handed over (so a prefetch of a reopened robot reads nothing).
_READY: dict = {}
_REFUSED: OrderedDict = OrderedDict()
_HANDED: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def _key(path: str, roots: tuple, extract):
    st = os.stat(path)
    return (path, st.st_mtime_ns, st.st_size, tuple(roots), limits(),
            getattr(extract, "__module__", ""), getattr(extract, "__qualname__", ""))


def _note(table: OrderedDict, key, value=True) -> None:
    with _LOCK:
        table[key] = value
        table.move_to_end(key)
        while len(table) > 1024:
            table.popitem(last=False)


def _as_refusal(exc: BaseException) -> BaseException:
    from .bounded_work import WorkLimitExceeded

    if isinstance(exc, WorkLimitExceeded):
        return MeshRefused(f"reading the mesh {exc}")
    return exc


def refusal(path, roots=(), extract=mesh_arrays) -> BaseException | None:
    """The refusal :func:`read_mesh_arrays` remembered for this file (same modification
    time, size, folders, limits and ``extract``), or None."""
    try:
        key = _key(os.fspath(path), tuple(roots), extract)
    except OSError:
        return None
    with _LOCK:
        return _REFUSED.get(key)


def read_mesh_arrays(path, roots=(), extract=mesh_arrays):
    """``extract(*load_mesh_guarded(path, roots), (path, roots))`` (default:
    :func:`mesh_arrays`) computed in a bounded worker process (or taken from
    :func:`prefetch_meshes`). Raises RefusedFile (an OSError) for a refused path,
    MeshRefused past a limit (the time limit and the memory budget included, named with
    their variables), and the parser's own errors for a broken file; a refusal is
    remembered for the same file and limits. ``extract`` must be a module-level function.
    The caller owns the arrays (and caches them if it wants)."""
    from .bounded_work import WorkerUnavailable, run_bounded

    path = os.fspath(path)
    roots = tuple(roots)
    key = _key(path, roots, extract)
    with _LOCK:
        refused = _REFUSED.get(key)
        ready = _READY.pop(key, None)
    if refused is not None:
        raise refused
    if ready is None:
        try:
            ready = run_bounded(_job, path, roots, limits(), extract)
        except WorkerUnavailable:
            raise  # not the file's fault: not remembered
        except Exception as exc:
            refusal = _as_refusal(exc)
            _note(_REFUSED, key, refusal)
            raise refusal from None
    _note(_HANDED, key)
    return ready


def prefetch_meshes(jobs, extract=mesh_arrays) -> None:
    """Read the mesh files ``jobs`` (an iterable of (path, roots)) two at a time in the
    bounded workers, so that :func:`read_mesh_arrays` finds them; files already handed
    over or refused (a reopened robot) are not read again, and files that do not exist
    are left to it (it names them)."""
    from .bounded_work import WorkerUnavailable, run_many

    todo = {}
    for path, roots in jobs:
        path, roots = os.fspath(path), tuple(roots)
        try:
            key = _key(path, roots, extract)
        except OSError:
            continue
        with _LOCK:
            if key in _HANDED or key in _REFUSED or key in _READY:
                continue
        todo.setdefault(key, (path, roots))
    if len(todo) < 2:
        return  # one file: read_mesh_arrays reads it when asked
    keys = list(todo)
    lim = limits()
    results = run_many([(_job, (*todo[k], lim, extract)) for k in keys])
    for k, r in zip(keys, results, strict=True):
        if isinstance(r, WorkerUnavailable):
            continue
        if isinstance(r, BaseException):
            _note(_REFUSED, k, _as_refusal(r))
        else:
            with _LOCK:
                _READY[k] = r
