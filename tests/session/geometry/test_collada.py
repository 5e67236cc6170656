"""COLLADA files as their makers meant them: <unit meter> scales, <up_axis> turns the
file's up axis to z, bytes after </COLLADA> are ignored (as assimp-based tools do)."""

from __future__ import annotations

import re

import numpy as np
import pytest
import trimesh

from robogui.engine.collada import collada_frame
from robogui.session.geometry.mesh_files import _read_mesh
from tests.urdf_files import ERD

UPPERARM = ERD / "ur_description/meshes/ur5/visual/upperarm.dae"  # meter 1, Z_UP


@pytest.fixture(scope="module")
def original():
    """The vertices as trimesh reads the unmodified file (metres, z up)."""
    text = UPPERARM.read_text()
    assert '<unit name="meter" meter="1"/>' in text and "<up_axis>Z_UP</up_axis>" in text
    mesh = trimesh.load(UPPERARM, force="mesh", process=False)
    return np.asarray(mesh.vertices)


def _variant(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def test_millimetres_are_scaled_to_metres(tmp_path, original):
    text = UPPERARM.read_text().replace('<unit name="meter" meter="1"/>',
                                        '<unit name="millimeter" meter="0.001"/>')
    v, faces, _ = _read_mesh(_variant(tmp_path, "mm.dae", text))
    np.testing.assert_allclose(v.min(0), original.min(0) * 0.001, rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(v.max(0), original.max(0) * 0.001, rtol=1e-5, atol=1e-9)


def test_y_up_turns_y_to_z(tmp_path, original):
    text = re.sub(r"<up_axis>Z_UP</up_axis>", "<up_axis>Y_UP</up_axis>", UPPERARM.read_text())
    v, _, _ = _read_mesh(_variant(tmp_path, "yup.dae", text))
    x, y, z = original.T
    turned = np.column_stack([x, -z, y])  # the file's y (up) is the world's z
    np.testing.assert_allclose(v.min(0), turned.min(0), atol=1e-6)
    np.testing.assert_allclose(v.max(0), turned.max(0), atol=1e-6)


def test_bytes_after_the_document_are_ignored(tmp_path, original):
    raw = UPPERARM.read_bytes() + b"\x00\x00\r\nsaved by an exporter\x1a"
    v, _, _ = _read_mesh(_variant(tmp_path, "trailing.dae", raw))
    np.testing.assert_allclose(v.min(0), original.min(0), atol=1e-6)
    np.testing.assert_allclose(v.max(0), original.max(0), atol=1e-6)


@pytest.mark.parametrize("unit", ["abc", "-1", "0", "nan", "inf"])
def test_a_nonsense_unit_is_ignored(unit):
    head = f'<COLLADA><asset><unit meter="{unit}"/><up_axis>Z_UP</up_axis></asset>'.encode()
    np.testing.assert_array_equal(collada_frame(head), np.eye(4))


def test_x_up_turns_x_to_z():
    T = collada_frame(b"<COLLADA><asset><up_axis>X_UP</up_axis></asset></COLLADA>")
    np.testing.assert_allclose(T[:3, :3] @ [1, 0, 0], [0, 0, 1])
    assert np.linalg.det(T[:3, :3]) == pytest.approx(1.0)


def test_a_dae_scene_is_read_as_the_file_has_it_without_merging():
    # trimesh merges a COLLADA scene's vertices whatever ``process`` says (half a Panda
    # link's parse): robogui reads them as they are, the same triangles in the same order
    from robogui.engine.mesh_guard import load_mesh_guarded, scene_parts

    link1 = ERD / "panda_description/meshes/visual/link1.dae"
    loaded, fix = load_mesh_guarded(str(link1))
    merged = trimesh.load(link1, process=False)
    ours, theirs = scene_parts(loaded), scene_parts(merged)
    assert len(ours) == len(theirs) == 1
    (mine, T), (other, T2) = ours[0], theirs[0]
    assert len(mine.vertices) > len(other.vertices)  # the file's corners, unmerged
    np.testing.assert_array_equal(fix, np.eye(4))
    np.testing.assert_allclose(T, T2)
    np.testing.assert_array_equal(np.asarray(mine.vertices)[mine.faces],
                                  np.asarray(other.vertices)[other.faces])
