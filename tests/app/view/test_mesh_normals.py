"""Vertex normals of the 3D view's meshes: the vectorised computation equals pyqtgraph's
MeshData.vertexNormals (its per-vertex Python loop was what made a 200-link robot slow
to open)."""

import numpy as np
import pyqtgraph.opengl as gl

from robogui.app.view.robot_mesh_item import vertex_normals


def test_vertex_normals_equal_pyqtgraphs_on_a_sphere_and_a_cylinder():
    for md in (gl.MeshData.sphere(rows=12, cols=20),
               gl.MeshData.cylinder(rows=2, cols=16, radius=[0.5, 0.3], length=2.0)):
        v, f = md.vertexes().astype(np.float32), md.faces()
        expected = gl.MeshData(vertexes=v, faces=f).vertexNormals()
        np.testing.assert_allclose(vertex_normals(v, f), expected, atol=1e-6)


def test_a_vertex_on_no_face_gets_a_zero_normal():
    v = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [5, 5, 5]], np.float32)
    n = vertex_normals(v, np.array([[0, 1, 2]]))
    np.testing.assert_array_equal(n[:3], [[0, 0, 1]] * 3)
    np.testing.assert_array_equal(n[3], [0, 0, 0])


def test_a_repeated_mesh_computes_its_normals_once():
    # every joint of a long chain is the same cylinder: one computation, shared
    from robogui.app.view import robot_mesh_item

    md = gl.MeshData.cylinder(rows=2, cols=16, radius=[0.5, 0.5], length=1.0)
    v, f = md.vertexes().astype(np.float32), md.faces().astype(np.uint32)
    a = robot_mesh_item._normals_of(v, f)
    b = robot_mesh_item._normals_of(v.copy(), f.copy())
    assert a is b and not a.flags.writeable
    np.testing.assert_array_equal(a, vertex_normals(v, f))
    moved = robot_mesh_item._normals_of(v * np.float32(2.0), f)  # other bytes: own entry
    assert moved is not a
