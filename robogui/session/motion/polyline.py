"""Polylines reduced to what a screen can show, and points along them (Qt-free).

The 3D view draws the tool path of a trajectory as one line. A 1,000,000-sample
trajectory has a million vertices, far more than the pixels the line covers; drawing
them all every frame made playback crawl (0.8 fps). :func:`decimate_polyline` keeps a
vertex only where the path has moved on by at least ``tol`` along its length, so the
line looks the same on screen and costs the same whatever the trajectory's length.
"""

from __future__ import annotations

import numpy as np

__all__ = ["decimate_polyline", "screen_segments", "MAX_TRAIL_POINTS", "point_at", "tool_path"]

#: at most this many vertices in a drawn path (a few per pixel of a large window)
MAX_TRAIL_POINTS = 3000


def decimate_polyline(points: np.ndarray, tol: float | None = None,
                      max_points: int = MAX_TRAIL_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of ``points`` (k, d) at least ``tol`` apart along the path (first and
    last always kept), at most ``max_points`` (``tol`` grows to fit).

    ``tol`` defaults to the path's bounding-box diagonal / 1000 (about a pixel when
    the whole path is in view). Returns the kept points (m, d) and their indices (m,).
    One pass of numpy over the k points, no Python loop.
    """
    p = np.asarray(points, dtype=float)
    if p.ndim != 2:
        raise ValueError(f"points must have shape (k, d), got {p.shape}")
    k = len(p)
    if k <= 2:
        return p.copy(), np.arange(k)
    if max_points < 2:
        raise ValueError(f"max_points must be >= 2, got {max_points}")
    seg = np.linalg.norm(np.diff(p, axis=0), axis=1)
    s = np.concatenate([[0.0], np.cumsum(seg)])  # arc length at each vertex
    length = s[-1]
    if tol is None:
        tol = float(np.linalg.norm(p.max(axis=0) - p.min(axis=0))) / 1000.0
    tol = max(float(tol), length / (max_points - 2), np.finfo(float).tiny)
    if length <= 0.0:
        idx = np.array([0, k - 1])
    else:
        bins = np.floor(s / tol)
        keep = np.empty(k, dtype=bool)
        keep[0] = True
        keep[1:] = bins[1:] != bins[:-1]  # the first vertex of each tol-long stretch
        keep[-1] = True
        idx = np.flatnonzero(keep)
    return p[idx], idx


def screen_segments(points: np.ndarray, tol: float | None = None,
                    max_segments: int = MAX_TRAIL_POINTS) -> np.ndarray:
    """The path ``points`` (k, 3) as line segments (2m, 3) for ``GL_LINES``: a vertex
    where the path enters another ``tol``-sized cube, and each segment drawn once even
    when the path passes over it again and again (segments are compared by the cells of
    their ends), at most ``max_segments`` (``tol`` grows).

    A trajectory that repeats one cycle 300 times draws the cycle once, as finely as a
    single pass; the first segment starts at the path's first point.
    """
    p = np.asarray(points, dtype=float)
    if p.ndim != 2 or p.shape[1] != 3:
        raise ValueError(f"points must have shape (k, 3), got {p.shape}")
    if len(p) < 2:
        return np.zeros((0, 3))
    if tol is None:
        tol = float(np.linalg.norm(p.max(axis=0) - p.min(axis=0))) / 1000.0
    tol = max(float(tol), 1e-12)
    for _ in range(8):
        # a vertex where the path enters another tol-sized cell: every pass over the
        # same stretch crosses the same cells, so its segments compare equal below
        all_cells = np.floor(p / tol).astype(np.int64)
        change = np.ones(len(p), dtype=bool)
        change[1:] = np.any(all_cells[1:] != all_cells[:-1], axis=1)
        change[-1] = True
        kept, cells = p[change], all_cells[change]
        a, b = cells[:-1], cells[1:]
        # a segment and its reverse are the same line: order each pair of cells
        swap = np.any(a != b, axis=1) & (
            (a[:, 0] > b[:, 0]) | ((a[:, 0] == b[:, 0]) & (
                (a[:, 1] > b[:, 1]) | ((a[:, 1] == b[:, 1]) & (a[:, 2] > b[:, 2])))))
        lo, hi = np.where(swap[:, None], b, a), np.where(swap[:, None], a, b)
        # one 64-bit key per segment (a hash of its six cell indices: a rare collision
        # drops one sub-pixel segment), then a plain 1-D unique: fast, short GIL holds
        mult = np.array([1, 73856093, 19349663, 83492791, 2654435761, 97531], dtype=np.uint64)
        key = (np.concatenate([lo, hi], axis=1).astype(np.uint64) * mult).sum(axis=1)
        _, first = np.unique(key, return_index=True)
        first.sort()
        if len(first) <= max_segments:
            seg = np.empty((2 * len(first), 3))
            seg[0::2], seg[1::2] = kept[first], kept[first + 1]
            return seg
        tol *= np.sqrt(len(first) / max_segments) * 1.05
    seg = np.empty((2 * len(first), 3))
    seg[0::2], seg[1::2] = kept[first], kept[first + 1]
    return seg


def point_at(t: np.ndarray, points: np.ndarray, time: float) -> np.ndarray:
    """The point (d,) of the polyline ``points`` (k, d) sampled at times ``t`` (k,,
    non-decreasing) at ``time`` (clamped), interpolated linearly; O(log k)."""
    t = np.asarray(t, dtype=float)
    p = np.asarray(points, dtype=float)
    k = len(t)
    if k == 0 or len(p) != k:
        raise ValueError(f"t (k,) and points (k, d) must have the same k > 0, got {k}, {len(p)}")
    x = min(max(float(time), t[0]), t[-1])
    i = int(np.clip(np.searchsorted(t, x, side="right") - 1, 0, k - 1))
    j = min(i + 1, k - 1)
    dt = t[j] - t[i]
    w = (x - t[i]) / dt if dt > 0 else 0.0
    return p[i] + w * (p[j] - p[i])


def tool_path(robot, q: np.ndarray, *, chunk: int = 20_000, cancel=None) -> np.ndarray | None:
    """Tool-centre-point positions (k, 3) of ``robot`` at the joint vectors ``q`` (k, n),
    base and tool included: batched ``fkine`` ``chunk`` rows at a time. ``cancel()``
    (optional) is asked between chunks; True stops and returns None.

    Chunks keep each numpy call short, so a worker thread computing a 1,000,000-sample
    path leaves the GUI thread free between them.
    """
    from robogui.engine.kinematics import kinematics

    q = np.asarray(q, dtype=float)
    out = np.empty((len(q), 3))
    for a in range(0, len(q), chunk):
        if cancel is not None and cancel():
            return None
        out[a:a + chunk] = kinematics.fkine(robot, q[a:a + chunk])[:, :3, 3]
    return out
