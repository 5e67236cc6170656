"""A robot whose meshes must be decimated opens from a draft (issue 27, first open <= 1 s):
robogui/session/geometry/visual_meshes.py (``draft=True``, parsing without full-resolution
shading) and visual_cache.load_visuals_soon (the draft now, the finished set later)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import trimesh

from robogui.io.robotfile import load_robot
from robogui.session.geometry import mesh_files, visual_cache, visual_meshes
from tests.urdf_files import ERD

URDF = """<robot name="balls">
  <link name="base"><visual><geometry><mesh filename="ball.stl"/></geometry></visual></link>
  <link name="l1"><visual><origin xyz="{x} 0 {z}"/>
    <geometry><mesh filename="ball.stl"/></geometry></visual></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""
RADIUS = 0.1


def write_balls(folder, monkeypatch, radius=RADIUS, second=(0.0, 0.5)) -> trimesh.Trimesh:
    """``folder``/balls.urdf: two links, each a sphere of 5,120 triangles in a binary STL
    (the second at x, z = ``second``); every mesh cache empty, the disk's in ``folder``."""
    ball = trimesh.creation.icosphere(subdivisions=4, radius=radius)
    ball.export(folder / "ball.stl")
    (folder / "balls.urdf").write_text(URDF.format(x=second[0], z=second[1]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder / "cache"))
    for table in (mesh_files._CACHE, mesh_files._MISSED, mesh_files._DISK_KEY,
                  visual_meshes._SHADED):
        table.clear()
    visual_cache.clear()
    return ball


@pytest.fixture
def balls(tmp_path, monkeypatch):
    yield tmp_path, write_balls(tmp_path, monkeypatch)
    visual_cache.clear()


def test_declared_faces_is_what_a_file_says_before_it_is_parsed(tmp_path):
    ball = trimesh.creation.icosphere(subdivisions=2)
    ball.export(tmp_path / "b.stl")
    ball.export(tmp_path / "a.stl", file_type="stl_ascii")
    ball.export(tmp_path / "b.obj")
    ball.export(tmp_path / "b.ply")
    told = {name: mesh_files.declared_faces(str(tmp_path / name))
            for name in ("b.stl", "a.stl", "b.obj", "b.ply", "none.stl", "none.dae")}
    # a binary STL by its size, an OBJ by its face lines; others and missing files: 0
    assert told == {"b.stl": 320, "a.stl": 0, "b.obj": 320, "b.ply": 0, "none.stl": 0,
                    "none.dae": 0}
    # a COLLADA file by its primitives' counts: Unitree's z1 as example-robot-data ships
    # it, what trimesh then reads
    for link in ("z1_Link01", "z1_GripperStator"):
        path = ERD / f"z1_description/meshes/visual/{link}.dae"
        loaded = trimesh.load(path, force="mesh")
        assert mesh_files.declared_faces(str(path), (str(ERD),)) == len(loaded.faces) > 1000
    # outside the folders the robot may read: not read, no guess
    path = ERD / "z1_description/meshes/visual/z1_Link01.dae"
    assert mesh_files.declared_faces(str(path), (str(tmp_path),)) == 0


def test_a_hostile_collada_file_is_not_scanned_past_its_first_primitives(tmp_path):
    # openings never closed, and a flood of primitives: counted in one pass, at most the
    # first 10,000 primitives (a real file has tens)
    (tmp_path / "open.dae").write_bytes(b"<triangles " * 1_000_000)
    (tmp_path / "many.dae").write_bytes(b'<triangles count="5">' * 1_000_000)
    (tmp_path / "huge.dae").write_bytes(b'<triangles count="9999999999999999">')
    assert mesh_files.declared_faces(str(tmp_path / "open.dae")) == 0
    assert mesh_files.declared_faces(str(tmp_path / "many.dae")) == 50_000
    assert mesh_files.declared_faces(str(tmp_path / "huge.dae")) == 0  # not a count


def test_a_robot_past_its_budget_is_parsed_unshaded_with_its_corners_merged(balls,
                                                                            monkeypatch):
    folder, ball = balls
    robot = load_robot(folder / "balls.urdf")
    seen = []
    prefetch = visual_meshes.prefetch_meshes
    monkeypatch.setattr(visual_meshes, "prefetch_meshes",
                        lambda jobs, extract: seen.append(extract) or prefetch(jobs, extract))
    # 2 x 5,120 triangles by the file sizes, over a budget of 4,000: all decimated
    out = visual_meshes.load_visuals(robot, budget=4_000)
    assert seen == [mesh_files.parsed_look_arrays]
    assert 3_000 < out.faces <= 4_000
    v, f, c, n = mesh_files.read_looks(str(folder / "ball.stl"), (),
                                       mesh_files.parsed_look_arrays)
    # STL repeats each corner for each of its triangles (15,360); merged, the sphere's
    # 2,562 vertices, and the same triangles
    assert n is None and len(v) == len(ball.vertices) == 2_562 and len(f) == 5_120
    np.testing.assert_allclose(np.sort(v[f].reshape(-1, 9), axis=0),
                               np.sort(ball.vertices[ball.faces].reshape(-1, 9), axis=0),
                               atol=1e-6)
    # within the budget: shaded in the worker at full resolution, as before
    seen.clear()
    whole = visual_meshes.load_visuals(robot, budget=20_000)
    assert seen == [mesh_files.shaded_look_arrays] and whole.faces == 10_240


def test_a_draft_is_clustered_near_the_surface_and_the_finished_set_follows(balls,
                                                                             monkeypatch):
    folder, _ball = balls
    monkeypatch.setattr(visual_meshes, "FACE_BUDGET", 4_000)
    robot = load_robot(folder / "balls.urdf")
    release = threading.Event()
    finish = visual_meshes.load_visuals

    def held(robot, budget, draft=False):  # the finished set waits for the test
        if not draft:
            assert release.wait(30)
        return finish(robot, budget, draft)

    monkeypatch.setattr(visual_meshes, "load_visuals", held)
    draft, future = visual_cache.load_visuals_soon(robot)
    assert draft.draft and future is not None and not future.done()
    assert len(draft.meshes) == 2 and 500 < draft.faces <= 4_000
    for m, centre in zip(draft.meshes, ([0, 0, 0], [0, 0, 0.5]), strict=True):
        r = np.linalg.norm(m.vertices - centre, axis=1)
        # cell means of a sphere's vertices: a little inside it, never outside
        assert r.max() <= RADIUS * 1.001 and r.min() >= 0.9 * RADIUS
        np.testing.assert_allclose(np.linalg.norm(m.normals, axis=1), 1, atol=1e-5)
        assert np.isfinite(m.colors).all() and m.colors.shape == (len(m.vertices), 4)
    # asked again while it is made: the same draft and the same Future, no second start
    again, same = visual_cache.load_visuals_soon(load_robot(folder / "balls.urdf"))
    assert same is future and again.faces == draft.faces
    release.set()
    done = future.result(timeout=60)
    assert not done.draft and 3_000 < done.faces <= 4_000
    assert done.faces != draft.faces  # the quadric collapse, not the clustering
    # from now on the finished set, at once and from the cache
    now, pending = visual_cache.load_visuals_soon(robot)
    assert pending is None and now.meshes[0].faces is done.meshes[0].faces


def test_a_robot_within_its_budget_or_already_decimated_has_no_draft(balls, monkeypatch):
    folder, _ball = balls
    robot = load_robot(folder / "balls.urdf")
    whole, pending = visual_cache.load_visuals_soon(robot)  # 10,240 < FACE_BUDGET
    assert pending is None and not whole.draft and whole.faces == 10_240
    monkeypatch.setattr(visual_meshes, "FACE_BUDGET", 4_000)
    visual_meshes.load_visuals(robot, 4_000)  # decimated once (memory and disk)
    visual_cache.clear()
    cached, pending = visual_cache.load_visuals_soon(robot)
    assert pending is None and not cached.draft and cached.faces <= 4_000
