"""Visual meshes without a window: loading, colours, decimation, missing files."""

import numpy as np

from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.model.visual import Visual
from robogui.io.ros.urdf import load_urdf
from robogui.session.geometry.visual_meshes import decimate, load_visuals
from tests.urdf_files import KR5, PACKAGES, PANDA


def test_panda_meshes_are_decimated_to_the_budget_and_keep_their_extent():
    robot = load_urdf(PANDA, tip="panda_hand")
    full = load_visuals(robot, budget=10**9)
    small = load_visuals(robot, budget=20_000)
    assert full.faces > 130_000 and small.faces <= 20_000 and not small.warnings
    for a, b in zip(full.meshes, small.meshes, strict=True):
        assert a.frame == b.frame and a.link == b.link
        # the decimated mesh fills the same box (to a few mm)
        np.testing.assert_allclose(b.vertices.min(0), a.vertices.min(0), atol=6e-3)
        np.testing.assert_allclose(b.vertices.max(0), a.vertices.max(0), atol=6e-3)


def test_dae_material_colours_are_read():
    kr5 = load_visuals(load_urdf(KR5, package_path=PACKAGES))
    colours = {tuple(np.round(m.colors[0], 2)) for m in kr5.meshes}
    assert (1.0, 0.5, 0.0, 1.0) in colours  # KUKA orange from the .dae


def test_missing_file_is_a_warning_naming_file_and_link():
    T = np.eye(4)
    robot = Robot([Link(origin=T)], visuals=[
        Visual(1, "mesh", T, filename="/nonexistent/arm.stl", uri="package://p/arm.stl",
               link="arm"),
        Visual(0, "box", T, size=(1.0, 2.0, 3.0), rgba=(1, 0, 0, 1), link="base")])
    vs = load_visuals(robot)
    assert vs.missing_frames == {1}
    assert vs.warnings == ["link 'arm': cannot load mesh package://p/arm.stl (not found)"]
    (box,) = vs.meshes
    np.testing.assert_allclose(np.ptp(box.vertices, axis=0), [1, 2, 3], atol=1e-6)
    np.testing.assert_allclose(box.colors[0], [1, 0, 0, 1])


def test_decimate_reaches_the_target():
    import trimesh

    m = trimesh.creation.icosphere(subdivisions=5)
    cols = np.ones((len(m.vertices), 4))
    v, f, c = decimate(m.vertices, m.faces, cols, 2000)
    assert len(f) <= 2000 and len(c) == len(v)
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=0.05)


def test_obj_and_stl_meshes_with_scale_from_a_urdf(tmp_path):
    import trimesh

    trimesh.creation.box(extents=(1.0, 1.0, 1.0)).export(tmp_path / "cube.obj")
    trimesh.creation.icosphere(radius=1.0).export(tmp_path / "ball.stl")
    (tmp_path / "arm.urdf").write_text("""<robot name="m">
      <link name="a"><visual><geometry><mesh filename="cube.obj" scale="0.1 0.2 0.3"/>
      </geometry></visual></link>
      <link name="b"><visual><origin xyz="0 0 1"/><geometry>
      <mesh filename="file://%s"/></geometry></visual></link>
      <joint name="j" type="prismatic"><parent link="a"/><child link="b"/>
      <axis xyz="1 0 0"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
    </robot>""" % (tmp_path / "ball.stl"))
    vs = load_visuals(load_urdf(tmp_path / "arm.urdf"))
    assert not vs.warnings
    cube, ball = vs.meshes
    np.testing.assert_allclose(np.ptp(cube.vertices, axis=0), [0.1, 0.2, 0.3], atol=1e-6)
    assert cube.frame == 0 and ball.frame == 1
    np.testing.assert_allclose(ball.vertices.mean(axis=0), [0, 0, 1], atol=1e-2)


def test_the_in_memory_mesh_tables_are_bounded_by_bytes_as_well_as_entries():
    # full-resolution meshes of every arm a gallery opened must not pile up in memory
    from collections import OrderedDict

    import numpy as np

    from robogui.session.geometry.mesh_files import bounded_put

    table = OrderedDict()
    mb = np.zeros(2**20 // 8)  # 1 MiB
    for k in range(10):
        bounded_put(table, k, (mb.copy(), {"n": mb.copy()}), limit=256, max_bytes=5 * 2**20)
    assert list(table) == [8, 9]  # 2 MiB each: the newest that fit in 5 MiB
    bounded_put(table, "big", np.zeros(10 * 2**20 // 8), max_bytes=5 * 2**20)
    assert list(table) == ["big"]  # the newest is kept even alone over the budget
    for k in range(5):
        bounded_put(table, k, "no arrays", limit=3)
    assert list(table) == [2, 3, 4]  # and the count bound still holds


def test_decimation_in_the_workers_gives_what_the_app_process_gives(monkeypatch):
    # a robot past its budget is decimated two meshes at a time in the mesh workers;
    # the result is the one the app's process makes itself, and is cached as such
    from robogui.engine import bounded_work
    from robogui.session.geometry import mesh_files
    from robogui.session.geometry import visual_meshes as vm

    robot = load_urdf(PANDA, tip="panda_hand")
    load_visuals(robot, budget=10**9)  # parsed: only the decimation is left
    jobs = []
    run_many = bounded_work.run_many

    def watched(calls):
        calls = list(calls)
        jobs.extend(fn.__name__ for fn, _args in calls)
        return run_many(calls)

    monkeypatch.setattr(vm, "run_many", watched)
    # neither run finds the other's result in memory or on disk
    monkeypatch.setattr(mesh_files, "_DISK_KEY", type(mesh_files._DISK_KEY)())
    vm._SHADED.clear()
    by_workers = load_visuals(robot, budget=30_000)
    assert len(jobs) >= 8 and set(jobs) == {"decimated_shading"}
    assert by_workers.faces <= 30_000
    monkeypatch.setattr(vm, "_prefetch_shaded", lambda jobs: None)
    vm._SHADED.clear()
    here = load_visuals(robot, budget=30_000)
    for a, b in zip(by_workers.meshes, here.meshes, strict=True):
        for name in ("vertices", "faces", "colors", "normals", "ambient", "specular"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
