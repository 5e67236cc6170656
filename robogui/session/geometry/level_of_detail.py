"""Level of detail: light copies of a robot's meshes drawn while the view moves.

A software rasteriser (Mesa llvmpipe) pays for every triangle of every frame: its vertex
stage runs on the GUI thread, once for the robot and once for its floor shadow. The
budget rule: a scene of more than :func:`triangle_budget` triangles is drawn from a
decimated copy (quadric edge collapse, silhouettes kept: the same decimation and crease
normals as the full meshes, :func:`.visual_meshes.load_visuals` with the smaller budget)
while the user drags the tool handle, jogs, orbits or a stream is followed, and at full
resolution as soon as the view is still. The copy is made once per robot, off the GUI
thread (:func:`request_light`), and cached with the full meshes (:mod:`.visual_cache`);
lighter levels besides it (each a third of the one before) are drawn where the frames
measured say the machine cannot keep the frame rate with it (:mod:`.lod_governor`).

The budget comes from the measured cost of a frame on llvmpipe
(``benchmarks/bench_drag.py``): :data:`SOFTWARE_FRAME_MS` fixed (the overlay, the event,
IK, the swap) plus :data:`SOFTWARE_TRIANGLE_US` per mesh triangle (with its shadow).
Hardware GL draws full resolution always.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

import numpy as np

from . import visual_cache, visual_meshes

__all__ = ["ENABLED", "TARGET_FPS", "SOFTWARE_FRAME_MS", "SOFTWARE_TRIANGLE_US",
           "LEVEL_RATIO", "triangle_budget", "needs_light", "light_budget", "light_budgets",
           "request_light"]

#: the rule on or off (benchmarks measure both)
ENABLED = True
#: frames per second a drag should keep (issue 27)
TARGET_FPS = 30.0
#: ms of a software-GL frame that do not depend on the meshes, at 1600x1000: the floor,
#: the grid, the overlay, the mouse event, IK, the session, the swap. ``bench_drag.py``'s
#: stick Puma 560 (no meshes) takes this on a quiet 2-core machine (6.2 ms at 1280x800
#: in the README's figures; 1600x1000 has 1.56 times the pixels)
SOFTWARE_FRAME_MS = 12.0
#: us of a software-GL frame per mesh triangle, drawn and flattened as its shadow: the
#: slope of the frame time over the triangles of the full arms against the stick Puma
#: in one run (``bench_drag.py``; ``bench_urdf.py --mesh-fps``: 1.2 us at load 2.5 on the
#: shared 2-core machine, 2.3 us at load 6, a few times less on an idle one). The
#: loaded machine's figure on purpose: a drag keeps its rate on a shared machine, and
#: the light copy is only seen while the view moves. Budget: 17,777 triangles
SOFTWARE_TRIANGLE_US = 1.2
#: no mesh of the light copy drops below this many triangles (small parts stay whole)
MIN_FACES = visual_meshes.MIN_FACES
#: each light level holds this many times fewer triangles than the one before; a machine
#: slower than the budget's (or loaded) draws a lighter level (:mod:`.lod_governor`)
LEVEL_RATIO = 3.0
#: light levels at most (the budget, a third, a ninth)
MAX_LEVELS = 3


def triangle_budget(fps: float | None = None, frame_ms: float | None = None,
                    triangle_us: float | None = None) -> int:
    """Triangles a software-GL frame can draw and still reach ``fps`` (default
    :data:`TARGET_FPS`): what is left of the frame (1000 / fps ms) after its fixed
    ``frame_ms`` (default :data:`SOFTWARE_FRAME_MS`), at ``triangle_us`` per triangle
    (default :data:`SOFTWARE_TRIANGLE_US`). At least :data:`MIN_FACES`."""
    fps = TARGET_FPS if fps is None else fps
    frame_ms = SOFTWARE_FRAME_MS if frame_ms is None else frame_ms
    triangle_us = SOFTWARE_TRIANGLE_US if triangle_us is None else triangle_us
    if not (fps > 0 and triangle_us > 0 and frame_ms >= 0):
        raise ValueError(f"fps, triangle_us must be > 0 and frame_ms >= 0, got {fps}, "
                         f"{triangle_us}, {frame_ms}")
    spare_us = 1000.0 * (1000.0 / fps - frame_ms)
    return max(MIN_FACES, int(spare_us / triangle_us))


def needs_light(triangles: int, budget: int | None = None) -> bool:
    """Whether a scene of ``triangles`` mesh triangles needs a light copy while moving
    (more than ``budget``, default :func:`triangle_budget`) under the rule."""
    return ENABLED and int(triangles) > (triangle_budget() if budget is None else budget)


def light_budget(triangles: int, budget: int | None = None) -> int | None:
    """Face budget of the light copy of a scene of ``triangles`` (the whole scene's
    budget, shared by its meshes in proportion), or None when it needs none."""
    budget = triangle_budget() if budget is None else int(budget)
    return budget if needs_light(triangles, budget) else None


_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:  # one worker: the copies of two robots are made one after the other
            _POOL = ThreadPoolExecutor(1, thread_name_prefix="robogui-lod")
        return _POOL


def light_visuals(robot, budget: int) -> visual_meshes.VisualSet:
    """The light copy of ``robot``'s meshes: every mesh decimated in proportion so that
    all together hold about ``budget`` triangles (at least ``MIN_FACES`` each), in the same
    order and frames as the full set; cached (:mod:`.visual_cache`). Quadric collapse
    stops above its aim on some meshes (many small pieces, seams): when the copy is
    over ``budget`` by more than a tenth, the others are asked for less, once."""
    light = visual_cache.load_visuals(robot, int(budget))
    if light.faces > 1.1 * budget:
        light = visual_cache.load_visuals(robot, int(budget * budget / light.faces))
    return light


def light_budgets(triangles: int, budget: int | None = None, meshes: int = 1) -> list[int]:
    """Face budgets of the light levels of a scene of ``triangles`` in ``meshes`` meshes,
    heaviest first: the budget, then each :data:`LEVEL_RATIO` times fewer, down to what
    the meshes can give (:data:`MIN_FACES` each); empty when the scene needs no light
    copy."""
    first = light_budget(triangles, budget)
    if first is None:
        return []
    floor = MIN_FACES * max(1, int(meshes))
    out = [first]
    while len(out) < MAX_LEVELS:
        # the last level may be what the meshes can give, when that is clearly lighter
        nxt = max(floor, int(out[-1] / LEVEL_RATIO))
        if nxt > 0.8 * out[-1]:
            break
        out.append(nxt)
    return out


def lighter(light: visual_meshes.VisualSet, budget: int) -> visual_meshes.VisualSet:
    """``light`` decimated again to about ``budget`` triangles in all, in proportion (at
    least :data:`MIN_FACES` each), shaded as the full meshes (crease normals, the same
    material terms): the next level of a chain, made from the level before it, not from
    the full meshes (a tenth of the work: the first level already took the big meshes
    down)."""
    targets = visual_meshes.face_targets([len(m.faces) for m in light.meshes], budget)
    out = visual_meshes.VisualSet(warnings=list(light.warnings),
                                  missing_frames=set(light.missing_frames))
    for m, target in zip(light.meshes, targets, strict=True):
        if target >= len(m.faces):
            out.meshes.append(m)
            continue
        terms = np.hstack([m.colors, m.ambient, m.specular]).astype(np.float32)
        v, f, t = visual_meshes.decimate(m.vertices, m.faces, terms, target)
        v, f, t, normals = visual_meshes.unit_shading(np.asarray(v, np.float32), f, t)
        out.meshes.append(replace(m, vertices=v, faces=f,
                                  colors=t[:, :4].copy(), normals=normals,
                                  ambient=t[:, 4:7].copy(), specular=t[:, 7:10].copy()))
    return out


_LIGHTER: OrderedDict = OrderedDict()  # (source arrays' ids, budget) -> (source, level)
_LIGHTER_LOCK = threading.Lock()


def _lighter_cached(light: visual_meshes.VisualSet, budget: int) -> visual_meshes.VisualSet:
    """:func:`lighter`, remembered for the last few sources: a robot opened again gets
    its first level from the mesh cache (the same arrays), and its next levels here."""
    key = (tuple(id(m.faces) for m in light.meshes), int(budget))
    with _LIGHTER_LOCK:
        hit = _LIGHTER.get(key)
        if hit is not None and hit[0] is light.meshes[0].faces:
            _LIGHTER.move_to_end(key)
            return hit[1]
    out = lighter(light, budget)
    with _LIGHTER_LOCK:
        # the source's first array is kept with the entry: its id is not reused meanwhile
        _LIGHTER[key] = (light.meshes[0].faces, out)
        while len(_LIGHTER) > 16:
            _LIGHTER.popitem(last=False)
    return out


def _light_levels(robot, budgets: list[int]) -> list[visual_meshes.VisualSet]:
    levels = [light_visuals(robot, budgets[0])]
    for b in budgets[1:]:
        light = _lighter_cached(levels[-1], b)
        # a level the decimation could not make clearly lighter is not worth drawing
        if light.faces <= 0.8 * levels[-1].faces:
            levels.append(light)
    return levels


def request_light(robot, triangles: int, budget: int | None = None, meshes: int = 1
                  ) -> Future | None:
    """Start making the light levels of ``robot``'s meshes (``triangles`` in the full
    set of ``meshes`` meshes, see :func:`light_budgets`) off the calling thread; a Future
    of their :class:`~.visual_meshes.VisualSet` list (heaviest first), or None when the
    scene is within the budget (or the rule is off)."""
    budgets = light_budgets(triangles, budget, meshes)
    if not budgets:
        return None
    return _pool().submit(_light_levels, robot, budgets)
