"""Unit meshes and placement matrices for the 3D robot view (numpy only).

Meshes are built once, in unit size, and placed and sized by a 4x4 matrix, so
moving the robot never rebuilds geometry. Faces that should look flat (cylinder
caps, box sides) have their own vertices, so smooth vertex normals stay crisp there.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["cylinder", "box", "cone", "triad", "segment_matrix", "scale_matrix",
           "translate_matrix", "nice_step"]


def cylinder(segments: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """Capped cylinder of radius 1 from z = 0 to z = 1: (vertices (v, 3), faces (f, 3))."""
    a = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a)], axis=1)
    zeros, ones = np.zeros((segments, 1)), np.ones((segments, 1))
    side = np.vstack([np.hstack([ring, zeros]), np.hstack([ring, ones])])
    bottom = np.vstack([[0.0, 0.0, 0.0], np.hstack([ring, zeros])])
    top = np.vstack([[0.0, 0.0, 1.0], np.hstack([ring, ones])])
    verts = np.vstack([side, bottom, top])
    i = np.arange(segments)
    j = (i + 1) % segments
    faces = [np.stack([i, j, i + segments], 1), np.stack([j, j + segments, i + segments], 1)]
    b0, t0 = 2 * segments, 3 * segments + 1
    faces.append(np.stack([np.full(segments, b0), b0 + 1 + j, b0 + 1 + i], 1))
    faces.append(np.stack([np.full(segments, t0), t0 + 1 + i, t0 + 1 + j], 1))
    return verts.astype(np.float32), np.vstack(faces).astype(np.uint32)


def cone(segments: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """Cone of base radius 1 at z = 0 with its tip at z = 1, base capped."""
    a = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    ring = np.stack([np.cos(a), np.sin(a), np.zeros(segments)], axis=1)
    verts = np.vstack([ring, [[0.0, 0.0, 1.0]], ring, [[0.0, 0.0, 0.0]]])
    i = np.arange(segments)
    j = (i + 1) % segments
    tip, b0, bc = segments, segments + 1, 2 * segments + 1
    faces = np.vstack([np.stack([i, j, np.full(segments, tip)], 1),
                       np.stack([np.full(segments, bc), b0 + j, b0 + i], 1)])
    return verts.astype(np.float32), faces.astype(np.uint32)


def box() -> tuple[np.ndarray, np.ndarray]:
    """Box with x, y in [-0.5, 0.5] and z in [0, 1]; 4 vertices per side for flat normals."""
    c = np.array([[x, y, z] for z in (0.0, 1.0) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    verts, faces = [], []
    for k, (a, b, cc, d) in enumerate(quads):
        verts.extend(c[[a, b, cc, d]])
        o = 4 * k
        faces.extend([(o, o + 1, o + 2), (o, o + 2, o + 3)])
    return np.asarray(verts, np.float32), np.asarray(faces, np.uint32)


def _transform(verts: np.ndarray, M: np.ndarray) -> np.ndarray:
    return (verts @ M[:3, :3].T + M[:3, 3]).astype(np.float32)


def triad(length: float, radius: float, colors) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three arrows along x, y, z of a frame: (vertices, faces, per-vertex RGBA colours).

    One mesh for the whole frame, so a frame costs one draw call.
    """
    cv, cf = cylinder(16)
    kv, kf = cone(16)
    head = 0.25 * length
    to_axis = [np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]], float),  # Ry(90): z -> x
               np.array([[1, 0, 0], [0, 0, 1], [0, -1, 0]], float),  # Rx(-90): z -> y
               np.eye(3)]
    verts, faces, cols = [], [], []
    count = 0
    for R, col in zip(to_axis, colors, strict=True):
        shaft = np.eye(4)
        shaft[:3, :3] = R @ np.diag([radius, radius, length - head])
        tip = np.eye(4)
        tip[:3, :3] = R @ np.diag([2.4 * radius, 2.4 * radius, head])
        tip[:3, 3] = R @ np.array([0.0, 0.0, length - head])
        for v, f, M in ((cv, cf, shaft), (kv, kf, tip)):
            verts.append(_transform(v, M))
            faces.append(f + count)
            cols.append(np.tile(np.asarray(col, np.float32), (len(v), 1)))
            count += len(v)
    return np.vstack(verts), np.vstack(faces).astype(np.uint32), np.vstack(cols)


def scale_matrix(sx: float, sy: float, sz: float) -> np.ndarray:
    return np.diag([sx, sy, sz, 1.0])


def translate_matrix(x: float, y: float, z: float) -> np.ndarray:
    M = np.eye(4)
    M[:3, 3] = (x, y, z)
    return M


def segment_matrix(p0, p1, radius: float) -> np.ndarray:
    """Matrix placing the unit cylinder (or box) between points p0 and p1 with ``radius``."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    axis = p1 - p0
    length = float(np.linalg.norm(axis))
    z = axis / length if length > 0 else np.array([0.0, 0.0, 1.0])
    # any unit vector not parallel to z completes the frame
    helper = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    M = np.eye(4)
    M[:3, 0], M[:3, 1], M[:3, 2] = x * radius, y * radius, z * max(length, 1e-9)
    M[:3, 3] = p0
    return M


def nice_step(span: float, target_lines: int = 10) -> float:
    """A round grid spacing (1, 2 or 5 times a power of ten) giving about ``target_lines``."""
    raw = span / max(target_lines, 1)
    p = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * p >= raw:
            return m * p
    return 10 * p
