"""The triangles of the last few robots opened, kept ready: reopening a robot does not
read, decimate and shade its meshes again.

:func:`load_visuals` is :func:`.visual_meshes.load_visuals` with a small cache in front,
keyed by what the result depends on: the robot's visuals (an immutable tuple), each mesh
file's modification time and size, the face budget and the work limits. The file cache
inside :mod:`.visual_meshes` keeps the files read; this one keeps the finished meshes
(decimating the UR5 again took 0.35 s of the 0.5 s it took to reopen it).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import replace

from robogui.engine.limits import limits

from . import visual_meshes

__all__ = ["load_visuals", "clear"]

_KEEP = 8  # robots; the Panda at full resolution is ~10 MB of arrays
_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def _stamp(path: str):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def load_visuals(robot, budget: int | None = None) -> visual_meshes.VisualSet:
    """Triangles of every visual of ``robot`` (see :func:`.visual_meshes.load_visuals`),
    from the cache when the robot's visuals, their files and the budget are unchanged.
    The result is a fresh :class:`~.visual_meshes.VisualSet` (its lists are the caller's);
    the arrays are shared and must not be written to."""
    if budget is None:
        budget = visual_meshes.FACE_BUDGET
    visuals = tuple(robot.visuals)
    try:
        key = (visuals, tuple(_stamp(v.filename) if v.filename else None for v in visuals),
               int(budget), limits())
        hash(key)
    except TypeError:  # something unhashable in a visual: no caching
        return visual_meshes.load_visuals(robot, budget)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
    if hit is None:
        hit = visual_meshes.load_visuals(robot, budget)
        with _LOCK:
            _CACHE[key] = hit
            while len(_CACHE) > _KEEP:
                _CACHE.popitem(last=False)
    return replace(hit, meshes=list(hit.meshes), warnings=list(hit.warnings),
                   missing_frames=set(hit.missing_frames))


def clear() -> None:
    """Forget every robot's triangles (tests; the memory of a long session)."""
    with _LOCK:
        _CACHE.clear()
