"""The triangles of the last few robots opened, kept ready: reopening a robot does not
read, decimate and shade its meshes again.

:func:`load_visuals` is :func:`.visual_meshes.load_visuals` with a small cache in front,
keyed by what the result depends on: the robot's visuals (an immutable tuple), each mesh
file's modification time and size, the face budget and the work limits. The file cache
inside :mod:`.visual_meshes` keeps the files read; this one keeps the finished meshes
(decimating the UR5 again took 0.35 s of the 0.5 s it took to reopen it).

:func:`load_visuals_soon` is what the view opens a robot with: a robot whose meshes must
be decimated and are in no cache gets a draft at once (vertex clustering: the so101's
first open waited 3 s for the quadric collapse of its 400,000 triangles) and the finished
set later, from a background thread.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

from robogui.engine.limits import limits

from . import visual_meshes

__all__ = ["load_visuals", "load_visuals_soon", "mesh_picker", "clear"]

_KEEP = 8  # robots; the Panda at full resolution is ~10 MB of arrays
_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def _stamp(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def _key(robot, budget: int):
    """What a robot's set depends on (its visuals, their files' stamps, the budget, the
    limits), or None when a visual holds something unhashable (no caching)."""
    visuals = tuple(robot.visuals)
    try:
        key = (visuals, tuple(_stamp(v.filename) if v.filename else None for v in visuals),
               int(budget), limits())
        hash(key)
    except TypeError:
        return None
    return key


def _fresh(hit: visual_meshes.VisualSet) -> visual_meshes.VisualSet:
    return replace(hit, meshes=list(hit.meshes), warnings=list(hit.warnings),
                   missing_frames=set(hit.missing_frames))


def _cached(key):
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
        return hit


def _keep(key, value: visual_meshes.VisualSet) -> None:
    with _LOCK:
        _CACHE[key] = value
        while len(_CACHE) > _KEEP:
            _CACHE.popitem(last=False)


def load_visuals(robot, budget: int | None = None) -> visual_meshes.VisualSet:
    """Triangles of every visual of ``robot`` (see :func:`.visual_meshes.load_visuals`),
    from the cache when the robot's visuals, their files and the budget are unchanged.
    The result is a fresh :class:`~.visual_meshes.VisualSet` (its lists are the caller's);
    the arrays are shared and must not be written to."""
    if budget is None:
        budget = visual_meshes.FACE_BUDGET
    key = _key(robot, budget)
    if key is None:
        return visual_meshes.load_visuals(robot, budget)
    hit = _cached(key)
    if hit is None:
        hit = visual_meshes.load_visuals(robot, budget)
        _keep(key, hit)
    return _fresh(hit)


_PENDING: dict = {}  # key -> (draft set, Future of the finished set)
_POOL: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _LOCK:
        if _POOL is None:  # the work itself runs in the mesh workers (two at a time)
            _POOL = ThreadPoolExecutor(1, thread_name_prefix="robogui-meshes")
        return _POOL


def load_visuals_soon(robot) -> tuple[visual_meshes.VisualSet, Future | None]:
    """(the set to draw now, None) as :func:`load_visuals` gives it, or, for a robot
    whose meshes must be decimated and are in no cache, (a draft: its meshes
    vertex-clustered, a fraction of the time; a Future of the finished set, made off the
    calling thread and then cached). The view draws the draft until the Future is done
    (the so101's first open: 1 s to its draft, 3 s to its finished meshes)."""
    budget = visual_meshes.FACE_BUDGET
    key = _key(robot, budget)
    if key is None:
        return visual_meshes.load_visuals(robot, budget), None
    hit = _cached(key)
    if hit is not None:
        return _fresh(hit), None
    with _LOCK:
        pending = _PENDING.get(key)
        if pending is not None and pending[1].done():
            del _PENDING[key]  # finished, and dropped from the cache since: begin again
            pending = None
    if pending is not None:
        return _fresh(pending[0]), pending[1]
    first = visual_meshes.load_visuals(robot, budget, draft=True)
    if not first.draft:
        _keep(key, first)
        return _fresh(first), None

    def finish() -> visual_meshes.VisualSet:
        try:
            return load_visuals(robot, budget)
        finally:
            with _LOCK:
                _PENDING.pop(key, None)

    future = _pool().submit(finish)
    with _LOCK:
        if not future.done():
            _PENDING[key] = (first, future)
    return _fresh(first), future


_PICKERS: OrderedDict = OrderedDict()


def mesh_picker(loaded: visual_meshes.VisualSet):
    """The :class:`~.picking.MeshPicker` of ``loaded``'s meshes, kept with them: a reopened
    robot (the same mesh objects, from :func:`load_visuals`) does not build it again (its
    triangle edges for the Panda took 0.05-0.1 s of a 0.2 s reopen)."""
    from .picking import MeshPicker

    key = tuple(id(m) for m in loaded.meshes)
    with _LOCK:
        hit = _PICKERS.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], loaded.meshes,
                                                          strict=True)):
            _PICKERS.move_to_end(key)
            return hit[1]
    picker = MeshPicker(loaded.meshes)
    with _LOCK:  # the meshes are held here, so their ids are not reused while kept
        _PICKERS[key] = (list(loaded.meshes), picker)
        while len(_PICKERS) > _KEEP:
            _PICKERS.popitem(last=False)
    return picker


def clear() -> None:
    """Forget every robot's triangles (tests; the memory of a long session)."""
    with _LOCK:
        _CACHE.clear()
        _PICKERS.clear()
        _PENDING.clear()
