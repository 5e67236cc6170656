"""The work cell's objects as triangles, for drawing and for picking them in the view.

Each object of a :class:`~robogui.session.planning_scene.cell.Cell` becomes one triangle
mesh in the object's own frame, centred as the collision checks (coal) place the shapes:
a box of full extents ``size`` about its origin, a cylinder or capsule of ``length``
along z from ``-length/2`` to ``+length/2`` (a capsule's caps beyond), a sphere about its
origin, a mesh as read with the cell (scale applied). The view builds its GL items once
from these and then only moves them; :class:`CellPicker` intersects a camera ray
(:func:`~.picking.pixel_ray`) with the same triangles. Qt-free; tested without a window.
"""

from __future__ import annotations

import math

import numpy as np

from .picking import MeshPicker, Ray

__all__ = ["object_mesh", "CellPicker", "geometry_key"]

_SEGMENTS = 40  # around a cylinder, capsule or sphere


def _box(size) -> tuple[np.ndarray, np.ndarray]:
    # 4 vertices per side: flat normals on every face
    c = np.array([[x, y, z] for z in (-0.5, 0.5) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    v = np.concatenate([c[list(q)] for q in quads]) * np.asarray(size, float)
    o = 4 * np.arange(6)[:, None]
    f = np.concatenate([np.hstack([o, o + 1, o + 2]), np.hstack([o, o + 2, o + 3])])
    return v, f


def _ring(n: int) -> np.ndarray:
    a = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    return np.stack([np.cos(a), np.sin(a)], axis=1)


def _cylinder(radius: float, length: float, n: int = _SEGMENTS):
    r = _ring(n) * radius
    h = length / 2
    side = np.vstack([np.hstack([r, np.full((n, 1), -h)]), np.hstack([r, np.full((n, 1), h)])])
    bottom = np.vstack([[0.0, 0.0, -h], side[:n]])
    top = np.vstack([[0.0, 0.0, h], side[n:]])
    v = np.vstack([side, bottom, top])
    i = np.arange(n)
    j = (i + 1) % n
    b0, t0 = 2 * n, 3 * n + 1
    f = np.vstack([np.stack([i, j, i + n], 1), np.stack([j, j + n, i + n], 1),
                   np.stack([np.full(n, b0), b0 + 1 + j, b0 + 1 + i], 1),
                   np.stack([np.full(n, t0), t0 + 1 + i, t0 + 1 + j], 1)])
    return v, f


def _lathe(profile: np.ndarray, n: int = _SEGMENTS):
    """Surface of revolution about z of ``profile`` (k, 2) rows (radius, z), bottom to top."""
    ring = _ring(n)
    k = len(profile)
    v = (profile[:, None, 0:1] * ring[None]).reshape(-1, 2)
    v = np.hstack([v, np.repeat(profile[:, 1], n)[:, None]])
    i = np.arange(n)
    j = (i + 1) % n
    faces = []
    for row in range(k - 1):
        a, b = row * n, (row + 1) * n
        faces += [np.stack([a + i, a + j, b + i], 1), np.stack([a + j, b + j, b + i], 1)]
    return v, np.vstack(faces)


def _sphere(radius: float, half_length: float = 0.0, n: int = _SEGMENTS):
    """A sphere (``half_length`` 0) or a capsule: two hemispheres ``2 half_length`` apart."""
    lat = np.linspace(-math.pi / 2, math.pi / 2, n // 2 + 1)
    lower, upper = lat[lat <= 0], lat[lat >= 0]
    profile = np.vstack([np.stack([np.cos(lower), np.sin(lower) - 0.0], 1) * radius
                         + [0.0, -half_length],
                         np.stack([np.cos(upper), np.sin(upper)], 1) * radius
                         + [0.0, half_length]])
    return _lathe(profile, n)


def object_mesh(obj) -> tuple[np.ndarray, np.ndarray]:
    """Triangles of a cell object in its own frame: vertices (v, 3) m, faces (f, 3) int.

    ``obj`` is a :class:`~robogui.session.planning_scene.cell.CellObject` (``shape``,
    ``size``, ``mesh``). A mesh object whose triangles were not loaded gives a small box
    (1 cm), so it can still be seen and picked."""
    shape, size = obj.shape, obj.size
    if shape == "box":
        v, f = _box(size)
    elif shape == "cylinder":
        v, f = _cylinder(size[0], size[1])
    elif shape == "sphere":
        v, f = _sphere(size[0])
    elif shape == "capsule":
        v, f = _sphere(size[0], size[1] / 2)
    elif shape == "mesh" and obj.mesh is not None and len(obj.mesh[1]):
        v, f = obj.mesh
    else:
        v, f = _box((0.01, 0.01, 0.01))
    return np.asarray(v, np.float32), np.asarray(f, np.uint32)


def geometry_key(obj) -> tuple:
    """What the drawn triangles of ``obj`` depend on (not its pose, colour or name): equal
    keys mean the GL items built for it can be kept and only moved."""
    return (obj.shape, tuple(obj.size), obj.file, tuple(obj.scale),
            id(obj.mesh) if obj.mesh is not None else None)


class _Mesh:
    frame = 0

    def __init__(self, v, f):
        self.vertices, self.faces = v, f


class CellPicker:
    """Which cell object a camera ray meets first, against the triangles the view draws.

    ``objects``: the cell's objects (in drawing order). :meth:`pick` takes their
    placements (k, 4, 4) in the view's coordinates and which are shown."""

    def __init__(self, objects):
        self.names = [o.name for o in objects]
        self._picker = MeshPicker([_Mesh(*object_mesh(o)) for o in objects])

    def pick(self, ray: Ray, placements, shown=None) -> tuple[str, float] | None:
        """(name, distance along the ray in m) of the nearest object ``ray`` meets, or
        None. ``placements`` (k, 4, 4); ``shown`` (k,) bool leaves hidden objects out."""
        if not self.names:
            return None
        M = np.asarray(placements, dtype=float).reshape(len(self.names), 4, 4)
        hit = self._picker.pick(ray, np.eye(4)[None], shown, placements=M)
        return None if hit is None else (self.names[hit.index], hit.t)
