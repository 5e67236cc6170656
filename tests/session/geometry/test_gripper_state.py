"""The gripper's opening in the session (issue 27 item 4), without a window: the finger
links (and what mimics them, through every stage) go where Pinocchio's full model of
the file puts them at the gripper joint's value."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.io.robotfile import load_robot
from robogui.io.ros.urdf import load_urdf
from robogui.session import Session
from robogui.session.geometry.follow import follow_placements
from tests.io.ros.test_urdf_mimic_chains import TALOS, _pin_frames
from tests.urdf_files import PANDA


def _drawn(session):
    """{link: world placement of the link frame} for the links that follow something."""
    robot = session.robot
    F = robot.fkine_all(session.q)
    out = {}
    for v in robot.visuals:
        if v.follow and v.link not in out:
            P = follow_placements(robot.full.joint_models, F, [v.follow],
                                  session.gripper.values())[0]
            out[v.link] = (F[v.frame] @ P, v)
    return out


def _origin(path, link: str) -> np.ndarray:
    """The first <visual>'s <origin> of ``link`` in the file (yourdfpy reads it)."""
    import yourdfpy

    urdf = yourdfpy.URDF.load(str(path), load_meshes=False, build_scene_graph=False)
    vis = urdf.link_map[link].visuals[0]
    return np.eye(4) if vis.origin is None else vis.origin


def test_the_panda_fingers_open_as_pinocchio_puts_them():
    s = Session(load_urdf(PANDA))
    assert s.robot.tip == "panda_hand" and s.gripper.opening == 0.0
    s.gripper.set_opening(0.5)
    assert s.gripper.values() == {"panda_finger_joint1": pytest.approx(0.02)}
    names = [f"panda_joint{k + 1}" for k in range(7)]
    values = dict(zip(names, s.q, strict=True))
    values.update(panda_finger_joint1=0.02, panda_finger_joint2=0.02)  # 2 mimics 1
    exp = _pin_frames(PANDA, values, ["panda_leftfinger", "panda_rightfinger"])
    got = _drawn(s)
    for link in ("panda_leftfinger", "panda_rightfinger"):
        M, v = got[link]
        # v.matrix is the link frame moved by the <visual>'s own <origin>
        np.testing.assert_allclose(M @ v.matrix @ np.linalg.inv(_origin(PANDA, link)),
                                   exp[link], atol=1e-12)
    # the two fingers 2 x 0.02 m apart more than closed
    s.gripper.set_opening(0.0)
    closed = {k: M[:3, 3] for k, (M, _) in _drawn(s).items()}
    s.gripper.set_opening(0.5)
    opened = {k: M[:3, 3] for k, (M, _) in _drawn(s).items()}
    gap = np.linalg.norm(opened["panda_leftfinger"] - opened["panda_rightfinger"]) \
        - np.linalg.norm(closed["panda_leftfinger"] - closed["panda_rightfinger"])
    assert gap == pytest.approx(0.04, abs=1e-12)


@pytest.mark.skipif(not TALOS.exists(), reason="example-robot-data without TALOS")
def test_talos_gripper_moves_its_fingertips_through_two_stages():
    robot = load_urdf(TALOS, tip="gripper_left_base_link")
    (g,) = robot.gripper
    assert g.name == "gripper_left_joint" and g.revolute
    s = Session(robot)
    s.gripper.set_opening(0.6)
    v = s.gripper.values()["gripper_left_joint"]
    assert v == pytest.approx(g.at(0.6))
    names = [L.name for L in robot.chain]
    values = dict(zip(names, s.q, strict=True))
    mimics = {"gripper_left_joint": 1.0, "gripper_left_inner_double_joint": 1.0,
              "gripper_left_fingertip_1_joint": -1.0, "gripper_left_fingertip_2_joint": -1.0,
              "gripper_left_motor_single_joint": -1.0,
              "gripper_left_inner_single_joint": -1.0,
              "gripper_left_fingertip_3_joint": -1.0}
    values.update({m: mult * v for m, mult in mimics.items()})
    got = _drawn(s)
    assert len(got["gripper_left_fingertip_1_link"][1].follow) == 2
    exp = _pin_frames(TALOS, values, list(got))
    for link, (M, vis) in got.items():
        np.testing.assert_allclose(M @ vis.matrix @ np.linalg.inv(_origin(TALOS, link)),
                                   exp[link], atol=1e-9)


def test_bad_openings_are_refused_and_a_new_robot_starts_at_rest():
    s = Session(load_urdf(PANDA))
    for bad in (float("nan"), "wide", None):
        with pytest.raises(ValueError, match="gripper opening"):
            s.gripper.set_opening(bad)
    s.gripper.set_opening(7.0)  # clipped
    assert s.gripper.opening == 1.0
    seen = []
    s.gripper.events.opening.connect(seen.append)
    s.set_robot(load_robot("puma560"))
    assert s.gripper.joints == () and s.gripper.opening == 0.0 and seen == [0.0]
    with pytest.raises(ValueError, match="no gripper"):
        s.gripper.set_opening(0.5)
