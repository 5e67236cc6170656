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

__all__ = ["load_visuals", "mesh_picker", "clear"]

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
