"""Issue 24, item 1: the immutable cell and its TOML file (round trip, meshes beside the
file, errors naming file, line and field)."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh

import robogui
from robogui.session.planning_scene.cell import Cell, CellObject
from robogui.session.planning_scene.cell_file import CellFileError, dumps_cell, loads_cell


def _cell(tmp_path):
    part = trimesh.creation.box((0.1, 0.2, 0.3))
    part.export(tmp_path / "meshes" / "part.stl") if (tmp_path / "meshes").mkdir() is None \
        else None
    return Cell((
        CellObject("table", "box", (1.2, 0.8, 0.04), xyz=(0.6, 0, 0.38), color="#112233"),
        CellObject("post", "cylinder", (0.05, 1.0), xyz=(0, 0.6, 0.5), rpy=(0.1, 0.2, 0.3)),
        CellObject("ball", "sphere", (0.1,), xyz=(0.3, 0.3, 1.0), collides=False),
        CellObject("rail", "capsule", (0.02, 0.5), xyz=(-0.3, 0, 0.2)),
        CellObject("part", "mesh", file=str(tmp_path / "meshes" / "part.stl"),
                   scale=(2, 2, 2), xyz=(0.5, 0.0, 0.45)),
    ), robot="puma560", base_xyz=(0.1, 0.2, 0.0), base_rpy=(0, 0, 0.5), floor_z=-0.01,
        name="test cell")


def test_save_then_load_gives_the_same_cell_with_the_mesh_relative_and_scaled(tmp_path):
    cell = _cell(tmp_path)
    path = robogui.save_cell(cell, tmp_path / "a.cell")
    text = path.read_text()
    assert 'file = "meshes/part.stl"' in text  # written relative to the cell file
    back = robogui.load_cell(path)
    assert back == cell
    v, f = back.object("part").mesh
    # the 0.1 x 0.2 x 0.3 box scaled by 2
    np.testing.assert_allclose(np.ptp(v, axis=0), [0.2, 0.4, 0.6])
    assert f.shape == (12, 3)
    np.testing.assert_allclose(back.base[:3, 3], [0.1, 0.2, 0.0])
    np.testing.assert_allclose(back.object("post").T[:3, :3],
                               robogui.rpy2r(0.1, 0.2, 0.3))
    assert not list(tmp_path.glob("*.tmp*"))  # the atomic write left nothing behind


def test_the_issue_example_reads():
    text = '''format = "robogui-cell"
version = 1
robot = "puma560"
base = { xyz = [0, 0, 0], rpy = [0, 0, 0] }
[[object]]
name = "table"
shape = "box"
size = [1.2, 0.8, 0.04]
xyz = [0.6, 0.0, 0.38]
rpy = [0, 0, 0]
color = "#8a8f98"
'''
    cell = loads_cell(text)
    assert cell.names == ("table",) and cell.floor and cell.floor_z == 0.0
    assert cell.object("table").size == (1.2, 0.8, 0.04)
    assert loads_cell(dumps_cell(cell)) == cell


def test_edits_return_new_cells_and_leave_the_old_one():
    cell = Cell((CellObject("a", "box", (1, 1, 1)),))
    more = cell.with_object(CellObject("b", "sphere", 0.2))
    assert cell.names == ("a",) and more.names == ("a", "b")
    assert more.renamed("b", "c").names == ("a", "c")
    assert more.without("a").names == ("b",)
    moved = more.with_object(more.object("a").moved(xyz=(1, 2, 3)))
    assert moved.object("a").xyz == (1.0, 2.0, 3.0) and moved.names == ("a", "b")
    assert more.unique_name("a") == "a 2"
    with pytest.raises(ValueError, match="already called"):
        more.renamed("a", "b")
    with pytest.raises(ValueError, match="used twice"):
        Cell((CellObject("a", "box", (1, 1, 1)), CellObject("a", "sphere", 1)))
    with pytest.raises(ValueError, match="no object 'z'.*objects: a"):
        cell.object("z")


@pytest.mark.parametrize("change, words", [
    (("size = [1.2, 0.8, 0.04]", "size = [1.2, 0.8, -1]"), "line 8: object 1 ('table'): "
     "field 'size': size (size = [x, y, z] full extents) must be positive"),
    (('color = "#8a8f98"', 'color = "red"'), "line 11: object 1 ('table'): field 'color'"),
    (("version = 1", "version = 2"), "line 2: field 'version': version 2 is not supported"),
    (('shape = "box"', 'shape = "cone"'), "line 7: object 1 ('table'): field 'shape': must be "
     "one of box, cylinder, capsule, sphere, mesh"),
    (("rpy = [0, 0, 0]\ncolor", "rpy = [0, 0, 0]\nradius = 0.2\ncolor"),
     "field 'radius': a box has no radius"),
])
def test_errors_name_the_line_object_and_field(change, words):
    text = '''format = "robogui-cell"
version = 1
robot = "puma560"
base = { xyz = [0, 0, 0], rpy = [0, 0, 0] }
[[object]]
name = "table"
shape = "box"
size = [1.2, 0.8, 0.04]
xyz = [0.6, 0.0, 0.38]
rpy = [0, 0, 0]
color = "#8a8f98"
'''
    with pytest.raises(CellFileError) as info:
        loads_cell(text.replace(*change), "x.cell")
    assert words in str(info.value)
    assert str(info.value).startswith("x.cell")
