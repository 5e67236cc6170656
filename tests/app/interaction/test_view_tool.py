"""A tool (TCP offset) is a point beyond the flange: the robot's own geometry stays on the
last link, the tool axes move to the tool point, and a stick joins the two."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.app import style
from robogui.app.view.view3d import RobotView
from robogui.engine.spatial.transforms import transl, trotx
from robogui.io.robotfile import load_robot
from robogui.session import Session
from tests.urdf_files import PANDA

TOOL = transl(0.02, -0.01, 0.15) @ trotx(0.4)


def _view(qtbot, robot):
    session = Session(robot)
    v = RobotView(session)
    qtbot.addWidget(v)
    v.resize(640, 480)
    v.show()
    qtbot.waitExposed(v)
    return session, v


def _placements(v, kinds):
    sc = v.scene
    parts = [p for p in sc._parts if p.kind in kinds and p.frame == sc._robot.n_bodies]
    return parts, sc.part_transforms(sc._frames, parts)


@pytest.mark.parametrize("robot", [("urdf", "panda_hand"), ("library", "panda")])
def test_the_last_links_geometry_stays_on_the_flange_when_a_tool_is_set(qtbot, robot):
    """The Panda URDF's hand meshes, and the modified D-H Panda's joint 7 cylinder, both on
    the last frame."""
    kind, name = robot
    arm = load_robot(PANDA, tip=name) if kind == "urdf" else load_robot(name)
    session, v = _view(qtbot, arm.replace(tool=np.eye(4)))
    kinds = ("mesh", "joint", "link")
    parts, before = _placements(v, kinds)
    assert parts  # meshes of the hand (URDF) or the last joint's cylinder (D-H)
    session.set_tool(TOOL)
    qtbot.wait(20)
    after_parts, after = _placements(v, kinds)
    flange = session.robot.fkine_all(session.q)[-1] @ np.linalg.inv(TOOL)
    # the same parts, where they were; one more: the tool stick from flange to tool point
    assert len(after_parts) == len(parts) + 1
    is_tool = [p.item.opts["color"] == style.rgba(style.TOOL) for p in after_parts]
    assert sum(is_tool) == 1
    order = np.argsort(is_tool, kind="stable")  # the tool stick last
    after = after[order]
    # (the view is rebuilt for the tool and its sizes follow the new reach: compare each
    # part's centre and axis, which do not depend on the drawn thickness)
    def centre_axis(M):
        c = M @ [0, 0, 0.5, 1.0]
        z = M[:, :3, 2]
        return np.concatenate([c[:, :3], z / np.linalg.norm(z, axis=1)[:, None]], axis=1)

    np.testing.assert_allclose(centre_axis(after[:len(parts)]), centre_axis(before), atol=1e-9)
    stick = after[-1]
    ends = stick @ np.array([[0, 0, 0, 1.0], [0, 0, 1, 1.0]]).T  # unit cylinder along z
    np.testing.assert_allclose(np.sort(ends[:3].T, axis=0),
                               np.sort(np.stack([flange[:3, 3], session.T[:3, 3]]), axis=0),
                               atol=1e-9)
    # the tool axes sit at the tool point
    _, wrist = _placements(v, ("wrist",))
    np.testing.assert_allclose(wrist[0], session.T, atol=1e-12)


def test_picking_the_hand_mesh_with_a_tool_set(qtbot):
    """A click on the drawn hand still picks it (the picker's rays meet the meshes where
    they are drawn, not shifted by the tool)."""
    session, v = _view(qtbot, load_robot(PANDA, tip="panda_hand"))
    session.set_tool(transl(0, 0, 0.3))
    qtbot.wait(20)
    sc = v.scene
    hand = [k for k, p in enumerate(sc.mesh_parts) if p.frame == sc._robot.n_bodies]
    centre = (sc.body_frames(sc._frames)[-1] @ [0, 0, 0.05, 1.0])[:3]  # inside the hand
    cam = sc.camera_position()
    from robogui.session.geometry.picking import Ray

    ray = Ray(cam, (centre - cam) / np.linalg.norm(centre - cam))
    hit = sc.mesh_picker.pick(ray, sc.body_frames(sc._frames))
    assert hit is not None and hit.index in hand
