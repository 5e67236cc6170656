"""Which light copy a moving view draws: the heaviest whose frame fits the frame rate.

A robot over the triangle budget gets light copies at a few levels of detail
(:func:`.level_of_detail.light_budgets`: each a third of the one before). Which one a
moving frame draws is chosen from the frames drawn, as VTK's level-of-detail actors
choose theirs from the render time each took (the allocated-render-time rule of
``vtkLODProp3D``): the cost of painting a frame is modelled as

    paint_ms = scale * (frame_ms + triangle_us / 1000 * triangles)

with the shape of :mod:`.level_of_detail` (a fixed part and a cost per triangle,
measured on llvmpipe) and ``scale`` this machine now (its speed, its load, the window's
size), fitted to each moving frame's measured paint time. The heaviest level predicted
to paint within ``target_ms`` is drawn; a heavier level than the current one must be
predicted within ``headroom`` of it (hysteresis: no flicker between two levels whose
frames straddle the target). Qt-free: the view records its frames' times and asks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from . import level_of_detail

__all__ = ["LevelGovernor", "PAINT_SHARE"]

#: share of a frame's period its paint may take: the rest goes to the event that moved
#: the robot (IK, the session, the view's transforms; ~5 ms of a Panda handle drag)
PAINT_SHARE = 0.75


class LevelGovernor:
    """Chooses among light levels (``triangles`` per level, heaviest first) by the
    measured paint times of moving frames.

    :meth:`record` takes the paint time of a frame drawn at a level; :attr:`level` is
    the level the next moving frame should draw. Before any frame is measured, the
    heaviest level is drawn."""

    def __init__(self, triangles: Sequence[int], target_ms: float | None = None, *,
                 frame_ms: float | None = None, triangle_us: float | None = None,
                 headroom: float = 0.85, smoothing: float = 0.5):
        tris = [int(t) for t in triangles]
        if not tris or any(t < 0 for t in tris):
            raise ValueError(f"triangles must be non-negative counts, got {list(triangles)}")
        if any(b > a for a, b in zip(tris, tris[1:], strict=False)):
            raise ValueError(f"levels must go from the heaviest to the lightest, got {tris}")
        self.triangles = tris
        self.target_ms = (PAINT_SHARE * 1000.0 / level_of_detail.TARGET_FPS
                          if target_ms is None else float(target_ms))
        self.frame_ms = (level_of_detail.SOFTWARE_FRAME_MS if frame_ms is None
                         else float(frame_ms))
        self.triangle_us = (level_of_detail.SOFTWARE_TRIANGLE_US if triangle_us is None
                            else float(triangle_us))
        if not (self.target_ms > 0 and self.frame_ms >= 0 and self.triangle_us > 0
                and self.frame_ms + self.triangle_us > 0):
            raise ValueError("target_ms and triangle_us must be > 0, frame_ms >= 0")
        if not (0.0 < headroom <= 1.0 and 0.0 < smoothing <= 1.0):
            raise ValueError(f"headroom and smoothing must be in (0, 1], got {headroom}, "
                             f"{smoothing}")
        self.headroom = float(headroom)
        self.smoothing = float(smoothing)
        self.level = 0
        self.scale: float | None = None  # measured / modelled paint time; None: unmeasured

    def model_ms(self, level: int) -> float:
        """The model's paint time of ``level`` on the reference machine (scale 1)."""
        return self.frame_ms + self.triangle_us / 1000.0 * self.triangles[level]

    def predict_ms(self, level: int) -> float | None:
        """Predicted paint time of ``level`` here and now; None before any frame."""
        return None if self.scale is None else self.scale * self.model_ms(level)

    def record(self, level: int, paint_ms: float) -> int:
        """A moving frame drawn at ``level`` took ``paint_ms`` to paint: update the fit
        and choose the level of the next moving frame (returned). Times that are not a
        positive finite number (a clock hiccup) are ignored."""
        if not 0 <= level < len(self.triangles):
            raise ValueError(f"level must be in [0, {len(self.triangles)}), got {level}")
        if not (np.isfinite(paint_ms) and paint_ms > 0):
            return self.level
        s = paint_ms / self.model_ms(level)
        a = self.smoothing
        self.scale = s if self.scale is None else a * s + (1.0 - a) * self.scale
        self.level = self._choose()
        return self.level

    def _choose(self) -> int:
        for level in range(len(self.triangles)):
            limit = self.target_ms * (self.headroom if level < self.level else 1.0)
            if self.predict_ms(level) <= limit:
                return level
        return len(self.triangles) - 1  # none fits: the lightest there is

    def reset(self) -> None:
        """Forget the fit (a new robot or window size): the heaviest level first."""
        self.level, self.scale = 0, None
