"""The 3D view renders through GL: robot pixels where the joints project, moves in the right
region, items built once per robot, limit tints, camera and projection."""

from __future__ import annotations

import math

import numpy as np
import pytest

from robogui.app import style
from robogui.app.view.robot_mesh_item import RobotMeshItem
from robogui.app.view.view3d import RobotView
from robogui.io.robotfile import load_robot
from robogui.session import Session

ROBOT_PARTS = ("show_base", "show_links", "show_joints", "show_wrist")


@pytest.fixture
def view(qtbot, session):
    v = RobotView(session)
    qtbot.addWidget(v)
    v.resize(640, 480)
    v.show()
    qtbot.waitExposed(v)
    session.display.update(show_shadow=False, show_name=False)
    return v


def robot_mask(view) -> tuple[np.ndarray, np.ndarray]:
    """(image with the robot, mask of pixels that differ from the empty scene)."""
    d = view._display
    full = view.grab_array().astype(int)
    d.update(**{k: False for k in ROBOT_PARTS})
    empty = view.grab_array().astype(int)
    d.update(**{k: True for k in ROBOT_PARTS})
    return full, np.abs(full - empty).max(axis=2) > 24


def near(mask: np.ndarray, xy, r: int = 2) -> bool:
    x, y = int(round(xy[0])), int(round(xy[1]))
    return bool(mask[max(y - r, 0):y + r + 1, max(x - r, 0):x + r + 1].any())


def test_robot_pixels_where_the_joints_project(view, session):
    session.set_q([0.3, 0.6, -1.2, 0.4, 0.9, 0.2])
    img, mask = robot_mask(view)
    h, w = mask.shape
    assert (h, w) == (view.height(), view.width())
    xy = view.project(session.frames[:, :3, 3])
    for k, p in enumerate(xy):
        assert 0 <= p[0] < w and 0 <= p[1] < h, f"frame {k} is out of view"
        assert near(mask, p), f"no robot pixels at the origin of frame {k} ({p})"
    assert 0.005 < mask.mean() < 0.5
    # the background is the view's clear colour and the floor, not robot
    assert not mask[:5, :5].any()
    bg = np.array([int(style.BACKGROUND[i:i + 2], 16) for i in (1, 3, 5)])
    assert np.abs(img[2, 2] - bg).max() <= 2


def test_moving_a_joint_changes_the_image_in_the_right_region(view, session):
    session.set_q([0.2, 0.5, -1.0, 0.0, 0.8, 0.0])
    before = view.grab_array().astype(int)
    F0 = session.frames
    session.set_joint(4, 0.8 - 0.7)  # bend the wrist only
    after = view.grab_array().astype(int)
    F1 = session.frames
    diff = np.abs(after - before).max(axis=2) > 24
    assert diff.sum() > 50
    # what moves is the wrist and the tool axes: frames 5, 6 and the axis tips
    s = view._scale
    pts = np.vstack([F[k, :3, 3] + off for F in (F0, F1) for k in (4, 5, 6)
                     for off in np.vstack([np.zeros(3), 1.9 * s * F[6, :3, :3].T,
                                           0.6 * s * np.eye(3), -0.6 * s * np.eye(3)])])
    xy = view.project(pts)
    lo, hi = xy.min(0) - 12, xy.max(0) + 12
    ys, xs = np.nonzero(diff)
    inside = (xs >= lo[0]) & (xs <= hi[0]) & (ys >= lo[1]) & (ys <= hi[1])
    assert inside.all(), f"{(~inside).sum()} changed pixels outside the wrist region"
    # the shoulder and the pedestal did not change
    for k in (0, 1):
        p = view.project(F0[k, :3, 3])[0]
        assert not near(diff, p, 3)


def test_items_are_built_once_per_robot_and_q_only_moves_them(view, session):
    ids = [id(p.item) for p in view._parts]
    count = len(view.items)
    tr = view._parts[3].item.transform().copyDataTo()
    for k in range(5):
        session.set_joint(1, 0.2 * k)
        view.grab_image()
    assert [id(p.item) for p in view._parts] == ids and len(view.items) == count
    assert view._parts[3].item.transform().copyDataTo() != tr
    batches = [i for i in view.items if isinstance(i, RobotMeshItem)]
    session.set_robot(load_robot("twolink"))
    assert [id(p.item) for p in view._parts] != ids
    assert not any(i in view.items for i in batches)  # the former robot's items are gone


def test_joints_near_and_at_limits_are_tinted(view, session):
    lo, hi = session.robot.qlim[2]
    q = np.zeros(6)
    q[2] = lo + 0.01 * (hi - lo)
    q[4] = session.robot.qlim[4, 1]
    session.set_q(q)
    assert view.joint_tint(2) == pytest.approx(style.rgba(style.NEAR_LIMIT_COLOR))
    assert view.joint_tint(4) == pytest.approx(style.rgba(style.AT_LIMIT_COLOR))
    assert view.joint_tint(0) == pytest.approx(style.rgba(style.joint_color(0)))
    session.set_q(np.zeros(6))
    assert view.joint_tint(2) == pytest.approx(style.rgba(style.joint_color(2)))


@pytest.mark.parametrize("name", ["twolink", "stanford", "puma560akb", "panda", "scara"])
def test_other_robots_standard_modified_prismatic(qtbot, name):
    robot = load_robot(name)
    s = Session(robot, q=robot.random_q(seed=3))
    s.display.update(show_shadow=False, show_name=False)
    v = RobotView(s)
    qtbot.addWidget(v)
    v.resize(480, 360)
    v.show()
    qtbot.waitExposed(v)
    v.fit_to_robot()
    _, mask = robot_mask(v)
    for k, p in enumerate(v.project(s.frames[:, :3, 3])):
        assert near(mask, p, 3), f"{name}: no robot pixels at frame {k}"


def test_camera_presets_projection_and_fit(view, session):
    view.set_camera("top")
    assert view.opts["elevation"] == 90
    top = view.grab_array()
    view.set_camera("front")
    view.fit_to_robot()
    front = view.grab_array()
    assert np.abs(top.astype(int) - front).max() > 50
    xy = view.project(session.frames[:, :3, 3])
    assert np.all((xy > 0) & (xy < [view.width(), view.height()]))
    session.display.projection = "orthographic"
    view.fit_to_robot()
    ortho = view.grab_array()
    assert np.abs(ortho.astype(int) - front).max() > 50
    xy = view.project(session.frames[:, :3, 3])
    assert np.all((xy > 0) & (xy < [view.width(), view.height()]))
    with pytest.raises(ValueError, match="unknown view 'diagonal'"):
        view.set_camera("diagonal")
    with pytest.raises(ValueError, match="projection must be"):
        view.set_projection("fisheye")
    with pytest.raises(ValueError, match=r"frames must have shape \(7, 4, 4\)"):
        view.show_frames(np.zeros((3, 4, 4)))


def test_wrist_labels_and_scale(view, session):
    labels = [lab.text for lab in view._labels if lab.kind == "wrist"]
    assert labels == ["X", "Y", "Z"]
    session.display.wrist_labels = "noa"
    assert [lab.text for lab in view._labels if lab.kind == "wrist"] == ["N", "O", "A"]
    s1 = view._scale
    assert s1 == pytest.approx(session.robot.reach / 10)
    session.display.mag = 2.0
    assert view._scale == pytest.approx(2 * s1)
    assert math.isfinite(view.floor_z) and view.floor_z < session.frames[:, 2, 3].min()


def test_name_label_stands_on_the_floor_below_a_rotated_base(view, session):
    session.set_robot(load_robot("twolink"))  # base turned +90 deg about x
    (name,) = [lab for lab in view._labels if lab.kind == "name"]
    base = session.robot.base
    np.testing.assert_allclose(view.label_points([name])[0],
                               [base[0, 3], base[1, 3], view.floor_z], atol=1e-12)
