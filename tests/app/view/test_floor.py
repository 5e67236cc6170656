"""The floor: a robot drawn from its maker's geometry stands on the floor at its base
(no invented pedestal); when it reaches below the floor, the floor is faint and that reach
shows through it. D-H robots, whose base frame is where their parameters start, keep the
floor below their reach and the pedestal."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.app import style
from robogui.app.view.view3d import RobotView
from robogui.app.view.view_parts import FAINT_FLOOR_ALPHA
from robogui.io.robotfile import load_robot
from robogui.session import Session
from robogui.session.geometry.scene import floor_height, reaches_below_floor, stands_on_base
from tests.urdf_files import PANDA, UR5


def test_file_robots_stand_on_their_base_and_dh_robots_on_a_pedestal():
    ur5 = load_robot(UR5)
    assert stands_on_base(ur5) and floor_height(ur5) == ur5.base[2, 3] == 0.0
    # the UR5's shoulder can swing the arm below its mounting plane
    assert reaches_below_floor(ur5)
    puma = load_robot("puma560")
    assert not stands_on_base(puma)
    assert floor_height(puma) < puma.base[2, 3] and not reaches_below_floor(puma)


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_the_ur5_stands_on_a_faint_floor_without_a_pedestal(qtbot, size):
    session = Session(load_robot(UR5))
    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    scene = view.scene
    kinds = [k for _, k in scene._static]
    assert "base" not in kinds  # no pedestal
    assert scene.floor_z == 0.0
    assert scene._plane.faint
    # at start the robot fills at least half the view's height
    with_arm = view.grab_array().astype(int)
    session.display.update(show_meshes=False, show_links=False, show_joints=False,
                           show_wrist=False, show_base=False, show_shadow=False,
                           show_name=False)
    without = view.grab_array().astype(int)
    rows = np.flatnonzero((np.abs(with_arm - without).max(axis=2) > 40).any(axis=1))
    assert rows.size and (rows[-1] - rows[0]) >= 0.5 * with_arm.shape[0]


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_the_reach_below_the_floor_shows_through_it(qtbot, size):
    """The Panda leaning forward and down: its white links below the floor show."""
    session = Session(load_robot(PANDA))
    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    scene = view.scene
    assert scene._plane.faint and scene.floor_z == 0.0
    session.set_q(np.array([0.0, 1.7, 0.0, -1.6, 0.0, 2.5, 0.0]))
    F = session.frames
    below = F[F[:, 2, 3] < -0.1, :3, 3]
    assert len(below) >= 2
    scene.fit_to_robot()  # View > Fit: the whole arm, the part below the floor too
    with_arm = view.grab_array().astype(int)
    session.display.update(show_meshes=False, show_links=False, show_joints=False,
                           show_wrist=False, show_base=False, show_shadow=False)
    without = view.grab_array().astype(int)
    h, w = with_arm.shape[:2]
    shown = 0
    for xy in view.project(below) * w / view.width():
        x, y = int(round(xy[0])), int(round(xy[1]))
        assert 12 <= x < w - 12 and 12 <= y < h - 12
        # 25 px around the origin: a fitted view draws the arm large, and an origin may
        # fall on a dark cap (as dark as the floor) with the white link right beside it
        patch = np.abs(with_arm[y - 12:y + 13, x - 12:x + 13]
                       - without[y - 12:y + 13, x - 12:x + 13])
        shown += patch.max() > 40
    assert shown >= len(below) / 2, "the reach below the floor is hidden"


def test_the_floor_lies_over_the_reach_below_it_as_a_blend_would(qtbot):
    """The see-through floor is drawn first, opaque, and the robot's shader lays the
    floor's colour over the parts beyond it: each such pixel is the floor's colour at
    FAINT_FLOOR_ALPHA over the part's own, seen from above and from below; parts on the
    eye's side are untouched. A floor filling the view is not drawn (the clear is)."""
    session = Session(load_robot(PANDA))
    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    qtbot.waitExposed(view)
    scene = view.scene
    session.set_q(np.array([0.0, 1.7, 0.0, -1.6, 0.0, 2.5, 0.0]))
    F = session.frames
    floor = np.array(style.rgba(style.FLOOR)[:3]) * 255
    for elevation, beyond in ((25, F[:, 2, 3] < -0.15), (-25, F[:, 2, 3] > 0.15)):
        scene.fit_to_robot()
        scene.set_camera(elevation=elevation)
        seen = view.grab_array().astype(float)
        session.display.update(show_floor=False)  # the parts as they are, no floor
        bare = view.grab_array().astype(float)
        session.display.update(show_floor=True)
        h, w = seen.shape[:2]
        pts = F[beyond, :3, 3]
        assert len(pts) >= 2
        checked = 0
        for xy in view.project(pts) * w / view.width():
            x, y = int(round(xy[0])), int(round(xy[1]))
            if not (6 <= x < w - 6 and 6 <= y < h - 6):
                continue
            part = bare[y - 5:y + 6, x - 5:x + 6].reshape(-1, 3)
            got = seen[y - 5:y + 6, x - 5:x + 6].reshape(-1, 3)
            # the robot's pixels: off the background (which the floor replaces)
            robot = np.abs(part - bare[3, 3]).max(axis=1) > 30
            if robot.sum() < 20:
                continue
            want = FAINT_FLOOR_ALPHA * floor + (1 - FAINT_FLOOR_ALPHA) * part[robot]
            assert np.median(np.abs(got[robot] - want)) <= 3.0
            checked += 1
        assert checked >= 1, f"no part beyond the floor in sight at elevation {elevation}"
    # from above, close to the floor: the floor fills the view and is not drawn
    scene.set_camera(elevation=60, distance=0.5, center=(0.3, 0.0, 0.0))
    view.grab_array()
    assert scene._plane.skip and scene._plane.faint
