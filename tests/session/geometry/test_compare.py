"""Several robots in one view, the Qt-free part: companions and their frames."""

import numpy as np
import pytest

from robogui.io.robotfile import load_robot
from robogui.session import Session
from robogui.session.geometry.compare import MAX_COMPANIONS, Comparison


def test_pose_snapshot_drawn_over():
    s = Session(load_robot("puma560"))
    c = Comparison(s)
    seen = []
    c.events.changed.connect(seen.append)
    q0 = s.q.copy()
    comp = c.add_pose()
    assert len(seen) == 1 and comp.robot is s.robot
    s.set_q(q0 + 0.3)
    # the snapshot stays where it was, the robot moved
    np.testing.assert_allclose(c.frames()[0], s.robot.fkine_all(q0), atol=1e-15)
    assert not np.allclose(c.frames()[0], s.frames)
    with pytest.raises(ValueError, match="6 finite joint values"):
        c.add_pose([1, 2])


def test_second_arm_beside_follows_or_keeps_its_pose():
    s = Session(load_robot("puma560"))
    c = Comparison(s)
    other = load_robot("puma560akb")  # the same arm in modified D-H
    comp = c.add_robot(other, "beside")
    gap = s.robot.reach + other.reach
    F = c.frames()[0]
    np.testing.assert_allclose(F[0, :3, 3], other.base[:3, 3] + [0, gap, 0])
    # it follows the session's q: the tool is the Puma's shifted by the gap
    s.set_q(s.q + 0.2)
    np.testing.assert_allclose(c.frames()[0][-1, :3, 3] - [0, gap, 0],
                               other.fkine(s.q)[:3, 3], atol=1e-12)
    assert comp.q is None
    # a 2-link arm cannot follow a 6-axis q: it keeps its ready pose, drawn over
    two = load_robot("twolink")
    c.add_robot(two, "over")
    np.testing.assert_allclose(c.frames()[1], two.fkine_all(two.pose("qz")
                                                            if "qr" not in two.poses
                                                            else two.pose("qr")))
    c.remove(0)
    assert len(c.companions) == 1 and c.companions[0].robot.name == two.name
    c.clear()
    assert c.frames() == []


def test_limits_and_bad_input():
    s = Session(load_robot("twolink"))
    c = Comparison(s)
    for _ in range(MAX_COMPANIONS):
        c.add_pose()
    with pytest.raises(ValueError, match="at most"):
        c.add_pose()
    assert len({comp.color for comp in c.companions}) == MAX_COMPANIONS
    with pytest.raises(ValueError, match="placement"):
        Comparison(s).add_robot(s.robot, "under")
    with pytest.raises(ValueError, match="no companion"):
        c.remove(9)
