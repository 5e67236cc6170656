"""Cost of picking a link under the mouse (a hover), Qt-free.

    python benchmarks/bench_picking.py

Rays through a 64 x 40 grid of pixels of a 1280 x 800 view looking at the Panda URDF
(drawn with its decimated meshes) from the front, as the 3D view casts one per mouse
move. Each ray is picked with :class:`robogui.session.geometry.picking.MeshPicker` (bounding
spheres, then Moller-Trumbore in numpy) and, for comparison, with trimesh's ray caster
(``RayMeshIntersector``, no embree) on the same posed triangles. Reported: the median and
95th percentile per ray, over all rays and over those that hit the robot.
"""

from __future__ import annotations

import math
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from robogui.io.robotfile import load_robot  # noqa: E402
from robogui.session.geometry.picking import MeshPicker, pixel_ray  # noqa: E402
from robogui.session.geometry.visual_meshes import load_visuals  # noqa: E402
from tests.urdf_files import PANDA  # noqa: E402


def look_at_mvp(eye, center, fov_deg=40.0, aspect=1.6, near=0.05, far=50.0) -> np.ndarray:
    eye, center = np.asarray(eye, float), np.asarray(center, float)
    f = (center - eye) / np.linalg.norm(center - eye)
    s = np.cross(f, [0, 0, 1.0])
    s /= np.linalg.norm(s)
    u = np.cross(s, f)
    V = np.eye(4)
    V[0, :3], V[1, :3], V[2, :3] = s, u, -f
    V[:3, 3] = -V[:3, :3] @ eye
    t = 1 / math.tan(math.radians(fov_deg) / 2)
    P = np.zeros((4, 4))
    P[0, 0], P[1, 1] = t / aspect, t
    P[2, 2], P[2, 3] = (far + near) / (near - far), 2 * far * near / (near - far)
    P[3, 2] = -1
    return P @ V


def main() -> None:
    import trimesh
    from trimesh.ray.ray_triangle import RayMeshIntersector

    robot = load_robot(PANDA, tip="panda_hand")
    meshes = load_visuals(robot).meshes
    F = np.asarray(robot.fkine_all([0.2, -0.4, 0.1, -2.1, 0.1, 1.9, 0.7]))
    picker = MeshPicker(meshes)
    off = 0
    verts, faces = [], []
    for m in meshes:
        T = F[m.frame]
        verts.append(m.vertices.astype(float) @ T[:3, :3].T + T[:3, 3])
        faces.append(m.faces.astype(np.int64) + off)
        off += len(m.vertices)
    world = RayMeshIntersector(trimesh.Trimesh(np.vstack(verts), np.vstack(faces),
                                               process=False))
    W, H = 1280, 800
    mvp = look_at_mvp([1.5, 0.0, 0.5], [0.3, 0.0, 0.45])  # the arm fills the height
    rays = [pixel_ray(mvp, x, y, W, H) for x in np.linspace(0, W, 64)
            for y in np.linspace(0, H, 40)]
    ours, theirs, hit = [], [], []
    for r in rays:
        t0 = time.perf_counter()
        h = picker.pick(r, F)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        world.intersects_first([r.origin], [r.direction])
        theirs.append(time.perf_counter() - t0)
        hit.append(h is not None)
    hit = np.array(hit)
    print(f"Panda URDF, {picker.triangle_count} triangles in {len(picker)} meshes; "
          f"{len(rays)} rays, {hit.sum()} on the robot")
    for name, ts in (("MeshPicker", np.array(ours)), ("trimesh", np.array(theirs))):
        print(f"  {name:10s} per ray: median {statistics.median(ts) * 1e3:.3f} ms, "
              f"p95 {np.percentile(ts, 95) * 1e3:.3f} ms; on the robot: median "
              f"{statistics.median(ts[hit]) * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
