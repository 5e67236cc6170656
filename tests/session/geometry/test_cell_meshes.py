"""The cell's objects as triangles (what the view draws and picks): their extents match the
collision shapes' (coal's, built independently here), and rays pick the nearest shown one."""

from __future__ import annotations

import coal
import numpy as np
import pytest

from robogui.session.geometry.cell_meshes import CellPicker, object_mesh
from robogui.session.geometry.picking import Ray
from robogui.session.planning_scene.cell import Cell, CellObject


@pytest.mark.parametrize("obj, geom", [
    (CellObject("b", "box", (0.4, 0.2, 0.1)), coal.Box(0.4, 0.2, 0.1)),
    (CellObject("c", "cylinder", (0.05, 0.3)), coal.Cylinder(0.05, 0.3)),
    (CellObject("s", "sphere", (0.07,)), coal.Sphere(0.07)),
    (CellObject("k", "capsule", (0.04, 0.2)), coal.Capsule(0.04, 0.2)),
])
def test_object_triangles_span_the_collision_shape(obj, geom):
    v, f = object_mesh(obj)
    assert f.max() < len(v) and f.shape[1] == 3
    geom.computeLocalAABB()
    box = geom.aabb_local
    lo, hi = np.array(box.min_), np.array(box.max_)
    np.testing.assert_allclose(v.min(axis=0), lo, atol=1e-6)
    np.testing.assert_allclose(v.max(axis=0), hi, atol=1e-6)


def test_a_closed_mesh_encloses_the_volume_of_its_shape():
    # divergence theorem: the signed volume of the triangles (outward faces) ~ the shape's
    for obj, volume in ((CellObject("b", "box", (0.4, 0.2, 0.1)), 0.4 * 0.2 * 0.1),
                        (CellObject("s", "sphere", (0.1,)), 4 / 3 * np.pi * 0.1 ** 3),
                        (CellObject("c", "cylinder", (0.1, 0.3)), np.pi * 0.01 * 0.3)):
        v, f = object_mesh(obj)
        tri = v[f].astype(float)
        signed = np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum() / 6
        assert signed == pytest.approx(volume, rel=0.02), obj.shape  # positive: outward


def test_picking_the_nearest_shown_object_along_a_ray():
    cell = Cell((CellObject("near", "box", (0.2, 0.2, 0.2), xyz=(1, 0, 0)),
                 CellObject("far", "sphere", (0.1,), xyz=(2, 0, 0)),
                 CellObject("aside", "cylinder", (0.1, 0.2), xyz=(0, 3, 0))))
    picker = CellPicker(cell.objects)
    M = np.stack([o.T for o in cell.objects])
    ray = Ray(np.array([-1.0, 0, 0]), np.array([1.0, 0, 0]))
    name, t = picker.pick(ray, M)
    assert name == "near" and t == pytest.approx(1.9)  # the box's face at x = 0.9
    name, t = picker.pick(ray, M, shown=[False, True, True])
    assert name == "far" and t == pytest.approx(2.9, abs=1e-3)  # sphere at x = 1.9
    assert picker.pick(Ray(np.array([0, 0, 5.0]), np.array([0, 0, 1.0])), M) is None
    # a moved object is picked where it is placed
    M2 = M.copy()
    M2[2, :3, 3] = [0.5, 0, 0]
    assert picker.pick(ray, M2)[0] == "aside"
