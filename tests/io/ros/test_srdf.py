"""Named poses from the SRDF beside a URDF (MoveIt group states), on real files."""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pytest

from robogui.io.ros.srdf import find_srdf, read_group_states
from robogui.io.ros.urdf import load_urdf
from robogui.session import initial_q
from tests.urdf_files import ERD, PANDA, UR5

XARM = ERD / "xarm_description/urdf/xarm7.urdf"
# example-robot-data's panda.srdf, group state "default" (the arm's ready pose)
PANDA_DEFAULT = [0, -0.785398, 0, -2.35619, 0, 1.5707, 0.785398]


def test_panda_srdf_default_pose_is_named_and_the_start_pose():
    assert find_srdf(PANDA, "panda") == ERD / "panda_description/srdf/panda.srdf"
    arm = load_urdf(PANDA, tip="panda_hand")
    assert list(arm.poses) == ["qz", "default"]
    np.testing.assert_array_equal(arm.pose("default"), PANDA_DEFAULT)
    np.testing.assert_array_equal(initial_q(arm), PANDA_DEFAULT)
    # qz is zero within the limits: joint 4 stops at -0.0698 rad
    np.testing.assert_array_equal(arm.pose("qz"), [0, 0, 0, -0.0698, 0, 0, 0])
    # the default tip is the hand (the fingers are no arm joints); with a finger as tip
    # the finger joint joins the chain, and the same group state sets it too
    assert load_urdf(PANDA).tip == "panda_hand"
    with_finger = load_urdf(PANDA, tip="panda_leftfinger")
    np.testing.assert_array_equal(with_finger.pose("default"), [*PANDA_DEFAULT, 0.001])
    # the ready pose is far from the near-singular straight-up arm q = 0 gives
    assert arm.manipulability(arm.pose("default")) > 100 * arm.manipulability(
        arm.clip_q(np.zeros(7)))


def test_xarm_srdf_poses_in_file_order_and_the_home_pose_starts():
    xarm = load_urdf(XARM)
    assert list(xarm.poses) == ["qz", "home", "hold-up"]
    np.testing.assert_array_equal(xarm.pose("hold-up"), [0, 0, 0, 0, 0, -1.5708, 0])
    np.testing.assert_array_equal(initial_q(xarm), np.zeros(7))


def test_no_srdf_or_no_group_state_gives_only_qz(tmp_path):
    assert list(load_urdf(UR5, tip="tool0").poses) == ["qz"]  # ur5.srdf: no group_state
    lone = tmp_path / "panda.urdf"
    lone.write_bytes(PANDA.read_bytes())
    assert find_srdf(lone, "panda") is None
    assert list(load_urdf(lone, tip="panda_hand", package_path=[str(PANDA.parents[2])])
                .poses) == ["qz"]


def _panda_copy(tmp_path, srdf_text: str):
    """The Panda URDF in an example-robot-data-like layout with the given SRDF."""
    (tmp_path / "urdf").mkdir()
    (tmp_path / "srdf").mkdir()
    urdf = tmp_path / "urdf" / "panda.urdf"
    shutil.copy(PANDA, urdf)
    (tmp_path / "srdf" / "panda.srdf").write_text(srdf_text)
    return urdf


def test_values_are_clipped_into_the_limits_and_unknown_joints_ignored(tmp_path):
    urdf = _panda_copy(tmp_path, """<robot name="panda">
      <group_state name="past_the_limit" group="arm">
        <joint name="panda_joint4" value="0.5"/>  <!-- upper limit -0.0698 -->
        <joint name="panda_joint2" value="-5"/>
        <joint name="some_other_joint" value="1"/>
      </group_state>
      <group_state name="other_arm" group="arm2"><joint name="left_j1" value="1"/></group_state>
    </robot>""")
    arm = load_urdf(urdf, tip="panda_hand", package_path=[str(PANDA.parents[2])])
    assert list(arm.poses) == ["qz", "past_the_limit"]  # other_arm sets no chain joint
    q = arm.pose("past_the_limit")
    assert q[3] == arm.qlim[3, 1] and q[1] == arm.qlim[1, 0]
    assert q[0] == 0.0  # a joint the state does not set


@pytest.mark.parametrize("text, message", [
    ("<robot><group_state", "not valid XML"),
    ("<robo/>", "root element is <robo>"),
    ('<robot><group_state name="a"><joint name="panda_joint1" value="nan"/></group_state>'
     "</robot>", "finite value"),
    ('<robot><group_state name="a"><joint name="panda_joint1" value="one"/></group_state>'
     "</robot>", "'one' is not a number"),
    ('<robot><group_state><joint name="panda_joint1" value="1"/></group_state></robot>',
     "has no name"),
])
def test_a_bad_srdf_is_named_in_a_warning_and_the_urdf_still_loads(tmp_path, text, message):
    urdf = _panda_copy(tmp_path, text)
    srdf = tmp_path / "srdf" / "panda.srdf"
    with pytest.raises(ValueError, match=message):
        read_group_states(srdf)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        arm = load_urdf(urdf, tip="panda_hand", package_path=[str(PANDA.parents[2])])
    assert arm.n == 7 and list(arm.poses) == ["qz"]
    assert any(str(srdf) in str(w.message) and "not used" in str(w.message) for w in caught)


def test_entities_in_an_srdf_are_not_expanded(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("1.25")
    urdf = _panda_copy(tmp_path, f"""<?xml version="1.0"?>
    <!DOCTYPE robot [<!ENTITY s SYSTEM "file://{secret}">]>
    <robot><group_state name="a"><joint name="panda_joint1" value="&s;"/></group_state>
    </robot>""")
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        arm = load_urdf(urdf, tip="panda_hand", package_path=[str(PANDA.parents[2])])
    assert "a" not in arm.poses or arm.pose("a")[0] != 1.25
