"""The pose a robot opens in is inside its joint limits (issue 27): the model's own start
pose when it names one (an MJCF keyframe, an SRDF group state, the library's qr), else
zero with each joint whose range excludes zero at the middle of its range."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from robogui.engine.model.start_pose import start_q, zero_in_limits
from robogui.io.robotfile import list_robots, load_robot
from robogui.io.ros.urdf import load_urdf
from robogui.session import Session, initial_q
from tests.mjcf_files import ARMS
from tests.urdf_files import PANDA

JACOS = [a for a in ARMS if "jaco" in a[0]]


def _inside(q, qlim):
    return bool(np.all((q >= qlim[:, 0]) & (q <= qlim[:, 1])))


def test_zero_in_limits_keeps_zero_and_takes_the_middle_or_the_finite_bound():
    lim = [[-1, 1], [0.5, 1.5], [-3, -1], [0.2, np.inf], [-np.inf, -0.3], [-np.inf, np.inf],
           [0, 2]]
    np.testing.assert_array_equal(zero_in_limits(lim), [0, 1.0, -2, 0.2, -0.3, 0, 0])


@pytest.mark.skipif(not JACOS, reason="robosuite / dm_control assets not installed")
@pytest.mark.parametrize(("name", "path", "tip"), JACOS, ids=[a[0] for a in JACOS])
def test_the_jaco_opens_inside_its_limits_at_the_middle_of_the_ranges_without_zero(
        name, path, tip):
    mujoco = pytest.importorskip("mujoco")
    m = mujoco.MjModel.from_xml_path(str(path))
    lo, hi = m.jnt_range[:, 0], m.jnt_range[:, 1]  # every joint of the file is an arm joint
    limited = m.jnt_limited.astype(bool)
    assert (limited & ((lo > 0) | (hi < 0))).sum() >= 2  # zero is outside some ranges
    expected = np.where(limited & ((lo > 0) | (hi < 0)), (lo + hi) / 2, 0.0)
    robot = load_robot(path)
    q = Session(robot).q
    np.testing.assert_allclose(q, expected, atol=1e-12)
    assert _inside(q, robot.qlim)
    # off the stops: no joint starts on a bound
    assert np.all(np.minimum(q - robot.qlim[:, 0], robot.qlim[:, 1] - q) > 0.3)
    if name == "jaco":  # robosuite's: joints 2, 4, 6 about their range's middle, pi
        np.testing.assert_allclose(q[[1, 3, 5]], np.pi, atol=0.01)


_MJCF = """<mujoco model="two"><compiler angle="radian"/>
  <worldbody><body name="a"><joint name="j1" range="-1 1"/><geom size="0.05"/>
    <body name="b" pos="0 0 0.3"><joint name="j2" axis="0 1 0" range="0.5 2"/>
      <geom size="0.05"/><site name="flange" pos="0 0 0.3"/></body></body></worldbody>
  {keys}
</mujoco>"""


@pytest.mark.parametrize(("keys", "start", "names"), [
    ('<keyframe><key name="stand" qpos="0.1 0.7"/><key name="home" qpos="0.2 0.9"/>'
     "</keyframe>", [0.2, 0.9], ["qz", "stand", "home"]),
    ('<keyframe><key qpos="0.3 1.1"/><key qpos="0.4 1.2"/></keyframe>', [0.3, 1.1],
     ["qz", "key 1", "key 2", "home"]),
    ('<keyframe><key name="far" qpos="3 1"/></keyframe>', [1.0, 1.0],
     ["qz", "far", "home"]),  # past joint 1's limit: clipped
    ("", [0.0, 1.25], ["qz"]),  # no keyframe: joint 2's range lacks zero, its middle
])
def test_an_mjcf_opens_at_its_home_keyframe_or_its_first(tmp_path, keys, start, names):
    pytest.importorskip("mujoco")
    path = tmp_path / "two.xml"
    path.write_text(_MJCF.format(keys=keys))
    robot = load_robot(path)
    assert list(robot.poses) == names
    np.testing.assert_allclose(initial_q(robot), start)
    assert _inside(initial_q(robot), robot.qlim)


def test_a_urdf_without_a_start_pose_opens_inside_its_limits(tmp_path):
    """The Panda's URDF without its SRDF: joint 4 ranges over [-3.0718, -0.0698], so it
    starts at the middle, -1.5708 (the elbow bent square), not on its stop."""
    (tmp_path / "urdf").mkdir()
    urdf = tmp_path / "urdf" / "panda.urdf"
    shutil.copy(PANDA, urdf)
    robot = load_urdf(urdf, tip="panda_hand", package_path=[str(PANDA.parents[2])])
    assert list(robot.poses) == ["qz"]
    np.testing.assert_allclose(robot.pose("qz")[3], -0.0698)  # qz: zero, clipped
    q = Session(robot).q
    np.testing.assert_allclose(q, [0, 0, 0, (-3.0718 - 0.0698) / 2, 0, 0, 0], atol=1e-9)
    assert _inside(q, robot.qlim)


def test_every_library_robot_opens_inside_its_limits_at_its_ready_pose():
    for name in list_robots():
        robot = load_robot(name)
        q = start_q(robot)
        assert _inside(q, robot.qlim), name
        if "qr" in robot.poses:
            np.testing.assert_allclose(q, robot.clip_q(robot.pose("qr")), err_msg=name)
