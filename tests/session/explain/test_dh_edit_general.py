"""Editing a general (URDF) joint in the D-H table: origin, axis, after-transform."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.engine.spatial.transforms import rpy2tr, transl
from robogui.io.ros.urdf import load_urdf
from robogui.session.explain.dh_edit import cell_text, column_index, column_tip, edit_cell
from tests.urdf_files import UR5


@pytest.fixture(scope="module")
def ur5():
    return load_urdf(UR5, tip="tool0")


def test_origin_axis_and_post_typed_as_shown(ur5):
    col = column_index
    lifted = edit_cell(ur5, 1, col("theta"), "0 200 0", "deg", "mm")
    # (the file's pitch is 1.570796325, pi/2 rounded)
    np.testing.assert_allclose(lifted.links[1].origin,
                               transl(0, 0.2, 0) @ rpy2tr(0, np.pi / 2, 0), atol=1e-9)
    turned = edit_cell(lifted, 1, col("d"), "10 20 30", "deg", "mm")
    np.testing.assert_allclose(turned.links[1].origin,
                               transl(0, 0.2, 0) @ rpy2tr(np.radians([10, 20, 30])),
                               atol=1e-15)
    assert cell_text(turned, 1, col("d"), "deg", "mm") == "10 20 30"
    assert cell_text(turned, 1, col("d"), "rad", "m") == "0.1745 0.3491 0.5236"
    tilted = edit_cell(ur5, 2, col("a"), "0 3 4")
    np.testing.assert_allclose(tilted.links[2].axis, [0, 0.6, 0.8])
    after = edit_cell(ur5, 5, col("alpha"), "0 82.3 0 / 0 0 90", "deg", "mm")
    np.testing.assert_allclose(after.links[5].post,
                               transl(0, 0.0823, 0) @ rpy2tr(0, 0, np.pi / 2), atol=1e-15)
    assert cell_text(after, 5, col("alpha"), "deg", "mm") == "0 82.3 0 / 0 0 90"
    none = edit_cell(after, 5, col("alpha"), "-")
    np.testing.assert_array_equal(none.links[5].post, np.eye(4))
    # the kinematics follow: the new shoulder height moves the tool by the difference
    q = ur5.random_q(seed=4)
    d = lifted.fkine(q)[:3, 3] - ur5.fkine(q)[:3, 3]
    np.testing.assert_allclose(np.linalg.norm(d), 0.2 - 0.13585, atol=1e-12)


@pytest.mark.parametrize("key, text, message", [
    ("theta", "0 0", "type 3 numbers"),
    ("d", "a b c", "is not a number"),
    ("a", "0 0 0", "non-zero direction"),
    ("alpha", "0 0 0", "x y z / roll pitch yaw"),
    ("convention", "modified", "no D-H convention"),
])
def test_bad_cells_name_the_link_and_the_column(ur5, key, text, message):
    with pytest.raises(ValueError, match=message) as err:
        edit_cell(ur5, 1, column_index(key), text)
    assert str(err.value).startswith("link 2, ")


def test_tooltips_say_what_general_columns_hold(ur5):
    assert "URDF origin xyz" in column_tip(ur5, column_index("theta"))
    from robogui.io.robotfile import load_robot

    assert "URDF" not in column_tip(load_robot("puma560"), column_index("theta"))
