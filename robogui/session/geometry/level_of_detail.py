"""Level of detail: light copies of a robot's meshes drawn while the view moves.

A software rasteriser (Mesa llvmpipe) pays for every triangle of every frame: its vertex
stage runs on the GUI thread, once for the robot and once for its floor shadow. The
budget rule: a scene of more than :func:`triangle_budget` triangles is drawn from a
decimated copy (quadric edge collapse, silhouettes kept: the same decimation and crease
normals as the full meshes, :func:`.visual_meshes.load_visuals` with the smaller budget)
while the user drags the tool handle, jogs, orbits or a stream is followed, and at full
resolution as soon as the view is still. The copy is made once per robot, off the GUI
thread (:func:`request_light`), and cached with the full meshes (:mod:`.visual_cache`).

The budget comes from the measured cost of a frame on llvmpipe
(``benchmarks/bench_drag.py``): :data:`SOFTWARE_FRAME_MS` fixed (the overlay, the event,
IK, the swap) plus :data:`SOFTWARE_TRIANGLE_US` per mesh triangle (with its shadow).
Hardware GL draws full resolution always.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor

from . import visual_cache, visual_meshes

__all__ = ["ENABLED", "TARGET_FPS", "SOFTWARE_FRAME_MS", "SOFTWARE_TRIANGLE_US",
           "triangle_budget", "needs_light", "light_budget", "request_light"]

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
MIN_FACES = 200


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


def request_light(robot, triangles: int, budget: int | None = None) -> Future | None:
    """Start making the light copy of ``robot``'s meshes (``triangles`` in the full set)
    off the calling thread; a Future of its :class:`~.visual_meshes.VisualSet`, or None
    when the scene is within the budget (or the rule is off)."""
    lb = light_budget(triangles, budget)
    if lb is None:
        return None
    return _pool().submit(light_visuals, robot, lb)
