"""Picking in the 3D view as geometry: camera rays against the links' cylinders and boxes.

No GL colour-picking: a pixel becomes a ray (:func:`pixel_ray`, from the inverse of the
view's projection @ view matrix), and the ray is intersected with the shapes the view
draws, each given as the 4x4 placement of a unit shape:

* ``"cylinder"``: radius 1 about z, from z = 0 to z = 1 (capped);
* ``"box"``: x, y in [-0.5, 0.5], z in [0, 1].

All shapes are tested at once (numpy over the shapes); the nearest hit wins. Which
joint a shape belongs to is the caller's (the view knows its parts), see
:func:`joint_of_part`. Qt-free; tested without a window.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .jog import _joint_axes

__all__ = ["Ray", "Hit", "pixel_ray", "ray_cylinders", "ray_boxes", "pick", "joint_of_part",
           "joint_axes"]

SHAPES = ("cylinder", "box")


@dataclass(frozen=True)
class Ray:
    """A ray ``origin + t * direction`` (t >= 0); ``direction`` (3,) is a unit vector."""

    origin: np.ndarray
    direction: np.ndarray

    def at(self, t: float) -> np.ndarray:
        return self.origin + t * self.direction


@dataclass(frozen=True)
class Hit:
    """The nearest shape a ray meets: its ``index``, distance ``t`` and world ``point``."""

    index: int
    t: float
    point: np.ndarray


def pixel_ray(mvp: np.ndarray, x: float, y: float, width: float, height: float) -> Ray:
    """The ray through pixel (``x``, ``y``) (y down, widget pixels) of a ``width`` x
    ``height`` view whose projection @ view matrix is ``mvp`` (4, 4).

    Works for perspective and orthographic projections: the ray runs from the point on
    the near clip plane to the one on the far plane under that pixel.
    """
    inv = np.linalg.inv(np.asarray(mvp, dtype=float))
    nx, ny = 2.0 * x / width - 1.0, 1.0 - 2.0 * y / height
    ends = np.array([[nx, ny, -1.0, 1.0], [nx, ny, 1.0, 1.0]]) @ inv.T
    near, far = ends[:, :3] / ends[:, 3:4]
    d = far - near
    return Ray(near, d / np.linalg.norm(d))


def _local_rays(ray: Ray, placements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The ray in each shape's unit coordinates: origins (k, 3), directions (k, 3).

    The world parameter t is kept (directions are not renormalised), so hits compare.
    """
    M = np.asarray(placements, dtype=float).reshape(-1, 4, 4)
    inv = np.linalg.inv(M)
    o = inv[:, :3, :3] @ ray.origin + inv[:, :3, 3]
    d = inv[:, :3, :3] @ ray.direction
    return o, d


def ray_cylinders(ray: Ray, placements: np.ndarray) -> np.ndarray:
    """Distance t (k,) along ``ray`` to each unit cylinder placed by ``placements``
    (k, 4, 4) (``inf`` where it misses): the side and both caps."""
    o, d = _local_rays(ray, placements)
    best = np.full(len(o), np.inf)
    # side: (ox + t dx)^2 + (oy + t dy)^2 = 1 with 0 <= z <= 1
    a = d[:, 0] ** 2 + d[:, 1] ** 2
    b = 2 * (o[:, 0] * d[:, 0] + o[:, 1] * d[:, 1])
    c = o[:, 0] ** 2 + o[:, 1] ** 2 - 1.0
    disc = b * b - 4 * a * c
    ok = (a > 1e-18) & (disc >= 0)
    sq = np.sqrt(np.where(ok, disc, 0.0))
    for sign in (-1.0, 1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(ok, (-b + sign * sq) / (2 * np.where(ok, a, 1.0)), np.inf)
        z = o[:, 2] + t * d[:, 2]
        good = ok & (t >= 0) & (z >= 0) & (z <= 1)
        best = np.where(good & (t < best), t, best)
    # caps z = 0 and z = 1
    for zc in (0.0, 1.0):
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(np.abs(d[:, 2]) > 1e-18, (zc - o[:, 2]) / d[:, 2], np.inf)
        px, py = o[:, 0] + t * d[:, 0], o[:, 1] + t * d[:, 1]
        good = np.isfinite(t) & (t >= 0) & (px * px + py * py <= 1.0)
        best = np.where(good & (t < best), t, best)
    return best


def ray_boxes(ray: Ray, placements: np.ndarray) -> np.ndarray:
    """Distance t (k,) along ``ray`` to each unit box placed by ``placements`` (k, 4, 4)
    (``inf`` where it misses); slab method."""
    o, d = _local_rays(ray, placements)
    lo = np.array([-0.5, -0.5, 0.0])
    hi = np.array([0.5, 0.5, 1.0])
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / d
        t1, t2 = (lo - o) * inv, (hi - o) * inv
    # a direction component of zero: inside that slab or never
    flat = np.abs(d) < 1e-18
    inside = (o >= lo) & (o <= hi)
    t1 = np.where(flat, np.where(inside, -np.inf, np.inf), t1)
    t2 = np.where(flat, np.inf, t2)
    tmin = np.minimum(t1, t2).max(axis=1)
    tmax = np.maximum(t1, t2).min(axis=1)
    hit = (tmax >= np.maximum(tmin, 0.0))
    return np.where(hit, np.maximum(tmin, 0.0), np.inf)


def pick(ray: Ray, placements: np.ndarray, shapes) -> Hit | None:
    """The nearest of the shapes (``shapes`` (k,) of "cylinder" | "box", placed by
    ``placements`` (k, 4, 4)) that ``ray`` meets, or None."""
    M = np.asarray(placements, dtype=float).reshape(-1, 4, 4)
    kinds = np.asarray(shapes)
    if len(kinds) != len(M):
        raise ValueError(f"shapes must have {len(M)} entries, got {len(kinds)}")
    unknown = set(kinds.tolist()) - set(SHAPES)
    if unknown:
        raise ValueError(f"unknown shape(s) {sorted(unknown)}; shapes: {', '.join(SHAPES)}")
    t = np.full(len(M), np.inf)
    for kind, fn in (("cylinder", ray_cylinders), ("box", ray_boxes)):
        sel = kinds == kind
        if sel.any():
            t[sel] = fn(ray, M[sel])
    if not len(t) or not np.isfinite(t.min()):
        return None
    k = int(np.argmin(t))
    return Hit(k, float(t[k]), ray.at(float(t[k])))


def joint_of_part(kind: str, frame: int, joint: int) -> int | None:
    """The joint (0-based) a drawn part belongs to: a joint's own cylinder or box is that
    joint; a link stick on frame f (f >= 1) is moved last by joint f - 1; the base
    (frame 0) belongs to none."""
    if kind == "joint":
        return joint
    return frame - 1 if frame >= 1 else None


def joint_axes(robot, q) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 3) and unit directions (n, 3) of the joint axes in the world at ``q``
    (n,): what a grabbed link turns about (revolute) or slides along (prismatic)."""
    return _joint_axes(robot, np.asarray(q, dtype=float))
