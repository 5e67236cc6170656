"""Reopening a robot reuses its finished meshes (robogui/session/geometry/visual_cache.py);
a changed mesh file or another face budget loads again."""

from __future__ import annotations

import os

import numpy as np
import trimesh

from robogui.io.robotfile import load_robot
from robogui.session.geometry import visual_cache, visual_meshes


def _arm(tmp_path):
    trimesh.creation.box(extents=(0.1, 0.1, 0.4)).export(tmp_path / "link.stl")
    (tmp_path / "arm.urdf").write_text("""<robot name="a">
  <link name="base"/>
  <link name="l1"><visual><geometry><mesh filename="link.stl"/></geometry></visual></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>""")
    return load_robot(tmp_path / "arm.urdf")


def test_reopen_reuses_the_meshes_and_a_changed_file_reloads(tmp_path, monkeypatch):
    visual_cache.clear()
    calls = []
    real = visual_meshes.load_visuals
    monkeypatch.setattr(visual_meshes, "load_visuals",
                        lambda robot, budget: calls.append(budget) or real(robot, budget))
    robot = _arm(tmp_path)
    first = visual_cache.load_visuals(robot)
    again = visual_cache.load_visuals(load_robot(tmp_path / "arm.urdf"))
    assert calls == [visual_meshes.FACE_BUDGET]  # the second open did no work
    assert again.meshes[0].vertices is first.meshes[0].vertices
    assert again.meshes is not first.meshes and again.warnings is not first.warnings
    assert len(first.meshes[0].faces) == 12  # the box's triangles
    np.testing.assert_allclose(np.ptp(first.meshes[0].vertices, axis=0), [0.1, 0.1, 0.4],
                               atol=1e-6)
    visual_cache.load_visuals(robot, budget=100_000)  # another budget: its own entry
    assert calls == [visual_meshes.FACE_BUDGET, 100_000]
    st = os.stat(tmp_path / "link.stl")
    trimesh.creation.box(extents=(0.2, 0.1, 0.4)).export(tmp_path / "link.stl")
    os.utime(tmp_path / "link.stl", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    changed = visual_cache.load_visuals(robot)
    assert len(calls) == 3
    np.testing.assert_allclose(np.ptp(changed.meshes[0].vertices, axis=0)[0], 0.2, atol=1e-6)
    visual_cache.clear()


def test_a_reopened_robot_keeps_its_mesh_picker(tmp_path):
    visual_cache.clear()
    robot = _arm(tmp_path)
    first = visual_cache.load_visuals(robot)
    picker = visual_cache.mesh_picker(first)
    again = visual_cache.load_visuals(load_robot(tmp_path / "arm.urdf"))
    assert visual_cache.mesh_picker(again) is picker
    assert picker.triangle_count == 12
    other = visual_cache.load_visuals(robot, budget=100_000)  # other meshes: its own
    assert visual_cache.mesh_picker(other) is not picker
    visual_cache.clear()
