"""Picking links drawn as meshes (the Panda URDF's), without a window: rays against the
drawn triangles agree with trimesh's own ray caster on the posed robot."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from trimesh.ray.ray_triangle import RayMeshIntersector

from robogui.io.robotfile import load_robot
from robogui.session.geometry.picking import MeshPicker, Ray, ray_triangles
from robogui.session.geometry.visual_meshes import load_visuals
from tests.urdf_files import PANDA

Q = np.array([0.2, -0.4, 0.1, -2.1, 0.1, 1.9, 0.7])


@pytest.fixture(scope="module")
def panda():
    robot = load_robot(PANDA, tip="panda_hand")
    meshes = load_visuals(robot).meshes
    F = np.asarray(robot.fkine_all(Q))
    # the posed robot as one trimesh mesh; face_owner: which visual each face is from
    verts, faces, owner, off = [], [], [], 0
    for k, m in enumerate(meshes):
        T = F[m.frame]
        verts.append(m.vertices.astype(float) @ T[:3, :3].T + T[:3, 3])
        faces.append(m.faces.astype(np.int64) + off)
        owner.append(np.full(len(m.faces), k))
        off += len(m.vertices)
    world = trimesh.Trimesh(np.vstack(verts), np.vstack(faces), process=False)
    return robot, meshes, F, world, np.concatenate(owner)


def _first_hit(world, owner, o, d):
    """(visual index, distance) of trimesh's nearest hit along the ray, or None."""
    locs, _rays, tris = RayMeshIntersector(world).intersects_location(
        [o], [d], multiple_hits=True)
    if not len(tris):
        return None
    t = (locs - o) @ d
    i = int(np.argmin(t))
    return int(owner[tris[i]]), float(t[i])


def test_pick_link_ray_triangles_moller_trumbore_by_hand():
    # triangle (0,0,0) (1,0,0) (0,1,0) in the plane z = 0; rays straight down from z = 2
    v0, e1, e2 = np.zeros((1, 3)), np.array([[1.0, 0, 0]]), np.array([[0, 1.0, 0]])
    down = np.array([[0, 0, -1.0]])
    assert ray_triangles(np.array([[0.2, 0.3, 2.0]]), down, v0, e1, e2)[0] == 2.0
    assert np.isinf(ray_triangles(np.array([[0.6, 0.6, 2.0]]), down, v0, e1, e2)[0])
    # from below, going up: both faces count; pointing away: behind the origin, no hit
    assert ray_triangles(np.array([[0.1, 0.1, -0.5]]), -down, v0, e1, e2)[0] == 0.5
    assert np.isinf(ray_triangles(np.array([[0.1, 0.1, -0.5]]), down, v0, e1, e2)[0])


@pytest.mark.parametrize("k", range(1, 8))
def test_pick_link_ray_through_a_panda_link_triangle_picks_that_link(panda, k):
    robot, meshes, F, world, owner = panda
    picker = MeshPicker(meshes)
    mesh = next(i for i, m in enumerate(meshes) if m.link == f"panda_link{k}")
    m = meshes[mesh]
    T = F[m.frame]
    tri = m.vertices[m.faces].astype(float) @ T[:3, :3].T + T[:3, 3]  # (f, 3, 3) world
    normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    area = np.linalg.norm(normal, axis=1)
    tested = 0
    for f in np.argsort(-area):  # the largest triangles first, each seen along its normal
        if tested >= 5:
            break
        centre = tri[f].mean(axis=0)
        for side in (1.0, -1.0):
            d = -side * normal[f] / area[f]
            o = centre - 0.8 * d  # 0.8 m away, looking at the centre of triangle f
            ref = _first_hit(world, owner, o, d)
            if ref is None or ref[0] != mesh or abs(ref[1] - 0.8) > 1e-9:
                continue  # something else in front (trimesh says): not this triangle's ray
            hit = picker.pick(Ray(o, d), F)
            assert hit is not None and hit.index == mesh
            assert meshes[hit.index].link == f"panda_link{k}"
            assert hit.t == pytest.approx(0.8, abs=1e-9)
            np.testing.assert_allclose(hit.point, centre, atol=1e-9)
            tested += 1
    assert tested == 5


def test_pick_link_meshes_agree_with_trimesh_on_many_rays_and_misses_pick_nothing(panda):
    robot, meshes, F, world, owner = panda
    picker = MeshPicker(meshes)
    rng = np.random.default_rng(7)
    lo, hi = world.bounds
    hits = misses = 0
    for _ in range(150):
        o = rng.normal(size=3)
        o = o / np.linalg.norm(o) * 2.0 + world.centroid
        d = rng.uniform(lo - 0.1, hi + 0.1) - o
        d /= np.linalg.norm(d)
        ref = _first_hit(world, owner, o, d)
        hit = picker.pick(Ray(o, d), F)
        if ref is None:
            assert hit is None
            misses += 1
        else:
            assert hit is not None and hit.t == pytest.approx(ref[1], abs=1e-9)
            # the same link (two links touching at the hit point may swap: same distance)
            assert hit.index == ref[0] or meshes[hit.index].frame == meshes[ref[0]].frame \
                or abs(hit.t - ref[1]) < 1e-9
            hits += 1
    assert hits > 30 and misses > 30


def test_pick_link_ray_through_a_bounding_sphere_but_no_triangle_picks_nothing(panda):
    robot, meshes, F, world, owner = panda
    picker = MeshPicker(meshes)
    # straight down the world z axis beside the arm, through link 0's bounding sphere
    k0 = next(i for i, m in enumerate(meshes) if m.link == "panda_link0")
    c = F[0, :3, :3] @ picker.centers[k0] + F[0, :3, 3]
    o = c + [0.0, picker.radii[k0] * 0.97, 2.0]
    d = np.array([0.0, 0.0, -1.0])
    assert _first_hit(world, owner, o, d) is None  # trimesh: no triangle on this ray
    assert picker.pick(Ray(o, d), F) is None
    # a ray down onto link 4's centre meets the robot where trimesh says; with every mesh
    # hidden it picks nothing
    k4 = next(i for i, m in enumerate(meshes) if m.link == "panda_link4")
    c4 = F[4, :3, :3] @ picker.centers[k4] + F[4, :3, 3]
    o = c4 + [0.0, 0.0, 2.0]
    ref = _first_hit(world, owner, o, d)
    hit = picker.pick(Ray(o, d), F)
    assert hit is not None and hit.t == pytest.approx(ref[1], abs=1e-9)
    assert picker.pick(Ray(o, d), F, shown=np.zeros(len(meshes), bool)) is None
