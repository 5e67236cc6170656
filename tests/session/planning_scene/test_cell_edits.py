"""The cell edits the app offers (new objects, meshes from files, meshes gathered beside a
saved cell) and the cell's autosave, without a window."""

from __future__ import annotations

import os

import numpy as np
import pytest
import trimesh

from robogui.session.planning_scene.cell import Cell, CellObject
from robogui.session.planning_scene.cell_autosave import CellAutosaver, recover_cell
from robogui.session.planning_scene.cell_file import load_cell, save_cell
from robogui.session.planning_scene.edits import (
    DEFAULT_SIZES,
    empty_cell,
    is_mesh_file,
    mesh_object,
    meshes_beside,
    new_object,
)


def test_new_objects_get_free_names_default_sizes_and_the_place_asked():
    cell = empty_cell(floor_z=-0.5)
    assert cell.floor_z == -0.5 and cell.objects == ()
    box = new_object(cell, "box", (0.1, 0.2, 0.3))
    assert box.name == "box" and box.size == DEFAULT_SIZES["box"] and box.xyz == (0.1, 0.2, 0.3)
    cell = cell.with_object(box)
    assert new_object(cell, "box").name == "box 2"
    with pytest.raises(ValueError, match="shape must be one of"):
        new_object(cell, "cone")


def test_a_mesh_object_reads_its_file_at_once_and_a_bad_one_is_named(tmp_path):
    stl = tmp_path / "Bracket.STL"
    trimesh.creation.box((0.1, 0.2, 0.3)).export(stl, file_type="stl")
    assert is_mesh_file(stl) and not is_mesh_file(tmp_path / "a.txt")
    obj = mesh_object(Cell(), stl, (1, 0, 0))
    assert obj.name == "Bracket" and obj.file == str(stl.resolve())
    np.testing.assert_allclose(np.ptp(obj.mesh[0], axis=0), (0.1, 0.2, 0.3), atol=1e-9)
    bad = tmp_path / "broken.obj"
    bad.write_text("this is not a mesh\n")
    with pytest.raises(ValueError, match="broken.obj"):
        mesh_object(Cell(), bad)
    with pytest.raises(ValueError, match="not a mesh file"):
        mesh_object(Cell(), tmp_path / "notes.txt")


def test_meshes_from_elsewhere_are_copied_beside_the_saved_cell(tmp_path):
    outside = tmp_path / "downloads"
    outside.mkdir()
    stl = outside / "part.stl"
    trimesh.creation.icosphere(radius=0.05).export(stl)
    cell = Cell()
    a = mesh_object(cell, stl)
    cell = cell.with_object(a).with_object(
        CellObject("twin", "mesh", (), file=a.file, mesh=a.mesh, xyz=(0.3, 0, 0)))
    target = tmp_path / "cells" / "work.cell"
    target.parent.mkdir()
    to_write, copies = meshes_beside(cell, target)
    dst = target.parent / "work-meshes" / "part.stl"
    assert copies == [(stl.resolve(), dst)]  # one copy for both objects
    assert {o.file for o in to_write.objects} == {str(dst)}
    dst.parent.mkdir()
    dst.write_bytes(stl.read_bytes())
    save_cell(to_write, target)
    back = load_cell(target)
    assert back.names == ("part", "twin") and back.object("twin").file == str(dst)
    # a mesh already in the folder tree stays where it is
    assert meshes_beside(back, target)[1] == []


def test_autosave_writes_dirty_cells_at_most_every_interval_and_recovers_unsaved_edits(
        tmp_path):
    path = tmp_path / "autosave.cell"
    saver = CellAutosaver(path, interval_s=3.0)
    cell = Cell((CellObject("table", "box", (1, 1, 0.1)),))
    assert not saver.maybe_save(0.0)  # nothing to save
    saver.mark_dirty(cell)
    assert saver.maybe_save(10.0) and load_cell(path) == cell
    saver.mark_dirty(cell.without("table"))
    assert not saver.maybe_save(11.0)  # 1 s after the last autosave
    assert saver.maybe_save(13.0) and load_cell(path).names == ()
    assert recover_cell(path) == Cell()  # never saved on purpose: offered back
    saver.mark_saved()  # the cell was saved (or opened) on purpose
    os.utime(path, ns=(1, 1))  # the autosave is older than the marker
    assert recover_cell(path) is None
    saver.mark_dirty(cell)
    assert saver.save_now() and recover_cell(path) == cell  # newer edits: offered
    saver.clear()
    assert not path.exists() and recover_cell(path) is None
