"""Picking in the 3D view as geometry: camera rays against the links' cylinders and boxes.

No GL colour-picking: a pixel becomes a ray (:func:`pixel_ray`, from the inverse of the
view's projection @ view matrix), and the ray is intersected with the shapes the view
draws, each given as the 4x4 placement of a unit shape:

* ``"cylinder"``: radius 1 about z, from z = 0 to z = 1 (capped);
* ``"box"``: x, y in [-0.5, 0.5], z in [0, 1].

All shapes are tested at once (numpy over the shapes); the nearest hit wins. Which
joint a shape belongs to is the caller's (the view knows its parts), see
:func:`joint_of_part`. Links drawn as triangle meshes (URDF) are picked against their
triangles (:class:`MeshPicker`). Qt-free; tested without a window.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..explain.arm_axes import _joint_axes

__all__ = ["Ray", "Hit", "pixel_ray", "ray_cylinders", "ray_boxes", "pick", "joint_of_part",
           "joint_axes", "MeshPicker", "ray_triangles"]

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


def joint_of_part(kind: str, frame: int, joint: int, follow: tuple = ()) -> int | None:
    """The joint (0-based) a drawn part belongs to: a joint's own cylinder or box is that
    joint; a link stick on frame f (f >= 1) is moved last by joint f - 1; a mesh beyond
    an off-chain mimic joint (``follow``, see Visual.follow) by the joint it mimics
    (beyond a gripper joint: by the joint of its frame); the base (frame 0) to none."""
    if kind == "joint":
        return joint
    if follow and not isinstance(follow[0][0], str):
        return int(follow[0][0])  # the chain joint its first following joint mimics
    return frame - 1 if frame >= 1 else None


def joint_axes(robot, q) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 3) and unit directions (n, 3) of the joint axes in the world at ``q``
    (n,): what a grabbed link turns about (revolute) or slides along (prismatic)."""
    return _joint_axes(robot, np.asarray(q, dtype=float))


def ray_triangles(origins: np.ndarray, directions: np.ndarray, v0: np.ndarray,
                  e1: np.ndarray, e2: np.ndarray) -> np.ndarray:
    """Moller-Trumbore, both faces: distance t (f,) along each ray (``origins``,
    ``directions`` (f, 3), one per triangle) to the triangle with corner ``v0`` (f, 3)
    and edges ``e1``, ``e2`` (f, 3); ``inf`` where it misses or lies behind."""
    p = np.cross(directions, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-15
    inv = 1.0 / np.where(ok, det, 1.0)
    s = origins - v0
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = np.einsum("ij,ij->i", directions, q) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t >= 0)
    return np.where(hit, t, np.inf)


class MeshPicker:
    """The links' triangle meshes, ready for rays: each mesh hangs on a frame
    (``fkine_all`` index) with its triangles in that frame's coordinates (metres).

    Built once per robot from the drawn (decimated) meshes; :meth:`pick` tests a ray
    against the meshes whose bounding sphere it meets, all their triangles in one numpy
    pass, with the ray taken into each frame (never the triangles into the world).
    """

    def __init__(self, meshes):
        """``meshes``: objects with ``frame`` (int), ``vertices`` (v, 3) and ``faces``
        (f, 3) in the frame's coordinates, e.g.
        :class:`~robogui.session.geometry.visual_meshes.VisualMesh`."""
        frames, v0, e1, e2, owner, centers, radii = [], [], [], [], [], [], []
        for k, m in enumerate(meshes):
            v = np.asarray(m.vertices, dtype=float)
            tri = v[np.asarray(m.faces, dtype=np.intp)]
            frames.append(int(m.frame))
            v0.append(tri[:, 0])
            e1.append(tri[:, 1] - tri[:, 0])
            e2.append(tri[:, 2] - tri[:, 0])
            owner.append(np.full(len(tri), k))
            c = 0.5 * (v.min(axis=0) + v.max(axis=0)) if len(v) else np.zeros(3)
            centers.append(c)
            radii.append(float(np.linalg.norm(v - c, axis=1).max()) if len(v) else 0.0)
        self.frames = np.array(frames, dtype=int)
        z = np.zeros((0, 3))
        self._v0 = np.vstack(v0) if v0 else z
        self._e1 = np.vstack(e1) if e1 else z
        self._e2 = np.vstack(e2) if e2 else z
        self._owner = np.concatenate(owner) if owner else np.zeros(0, int)
        self.centers = np.array(centers, dtype=float).reshape(-1, 3)
        self.radii = np.array(radii, dtype=float)

    def __len__(self) -> int:
        return len(self.frames)

    @property
    def triangle_count(self) -> int:
        return len(self._owner)

    def pick(self, ray: Ray, frames: np.ndarray, shown=None,
             placements: np.ndarray | None = None) -> Hit | None:
        """The nearest mesh ``ray`` meets with the robot at ``frames`` (n+1, 4, 4), or None:
        ``Hit.index`` is the mesh's index, ``t`` the distance along the ray (metres).
        ``shown`` (m,) bool leaves hidden meshes out. ``placements`` (m, 4, 4), when
        given, place the meshes instead of their frames (meshes that move within their
        frame, beyond an off-chain mimic joint)."""
        if not len(self):
            return None
        F = (np.asarray(frames, dtype=float)[self.frames] if placements is None
             else np.asarray(placements, dtype=float))  # (m, 4, 4)
        live = np.ones(len(self), bool) if shown is None else np.asarray(shown, bool)
        # bounding spheres first: most links are nowhere near the ray
        c = F[:, :3, :3] @ self.centers[:, :, None]
        c = c[:, :, 0] + F[:, :3, 3]
        along = (c - ray.origin) @ ray.direction
        off = np.linalg.norm(c - ray.origin - along[:, None] * ray.direction, axis=1)
        scale = np.abs(np.linalg.det(F[:, :3, :3])) ** (1.0 / 3.0)  # frames are rigid: 1
        near = live & (off <= self.radii * scale) & (along + self.radii * scale >= 0)
        if not near.any():
            return None
        o, d = _local_rays(ray, F[near])  # the ray in each candidate's frame (t kept)
        slot = np.full(len(self), -1)
        slot[near] = np.arange(int(near.sum()))
        sel = near[self._owner]
        which = slot[self._owner[sel]]
        t = ray_triangles(o[which], d[which], self._v0[sel], self._e1[sel], self._e2[sel])
        if not len(t) or not np.isfinite(t.min()):
            return None
        i = int(np.argmin(t))
        k = int(self._owner[sel][i])
        return Hit(k, float(t[i]), ray.at(float(t[i])))
