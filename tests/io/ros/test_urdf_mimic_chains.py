"""A follower of a follower is placed through both motions (issue 27 item 3: the IRB
6700's piston rides on its cylinder, both mimicking joint 2). Checked against
Pinocchio's full model of the same file, every joint free and the followers set by
their mimic rules in the test."""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest

from robogui.io.ros.urdf import load_urdf
from robogui.session.geometry.follow import follow_placements
from tests.urdf_files import ERD

# j1, j2 on the chain; the cylinder hangs on l1 and turns with j2; the piston slides in
# the cylinder (mimics j2 too); the rod on the piston mimics the cylinder (a mimic of a
# mimic: 2 * (-0.5 q2 + 0.1) = -q2 + 0.2)
PISTON = """<robot name="piston_arm">
  <link name="base"/>
  <link name="l1"/><link name="l2"/><link name="tool"/>
  <link name="cyl"><visual><geometry><box size="0.05 0.05 0.3"/></geometry></visual></link>
  <link name="piston"><visual><geometry><box size="0.02 0.02 0.2"/></geometry></visual>
    <collision><geometry><box size="0.02 0.02 0.2"/></geometry></collision></link>
  <link name="rod"><visual><origin xyz="0.05 0 0"/>
    <geometry><sphere radius="0.02"/></geometry></visual></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.1 0 0.3" rpy="0.2 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="1"/></joint>
  <joint name="j3" type="fixed"><parent link="l2"/><child link="tool"/>
    <origin xyz="0 0 0.7"/></joint>
  <joint name="cyl_joint" type="revolute"><parent link="l1"/><child link="cyl"/>
    <origin xyz="-0.2 0.05 0.1" rpy="0 0.3 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="j2" multiplier="-0.5" offset="0.1"/></joint>
  <joint name="piston_joint" type="prismatic"><parent link="cyl"/><child link="piston"/>
    <origin xyz="0 0 0.15" rpy="0 0 0.4"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="j2" multiplier="0.2" offset="0.01"/></joint>
  <joint name="rod_joint" type="revolute"><parent link="piston"/><child link="rod"/>
    <origin xyz="0 0.03 0.1"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="cyl_joint" multiplier="2.0"/></joint>
</robot>
"""

TALOS = ERD / "talos_data/robots/talos_full_v2.urdf"


def _pin_frames(path, values: dict, links):
    """World placements of ``links`` with Pinocchio, every joint set from ``values``
    {name: value} (others at 0)."""
    model = pin.buildModelFromUrdf(str(path))
    data = model.createData()
    q = pin.neutral(model)
    for name, v in values.items():
        jnt = model.joints[model.getJointId(name)]
        if jnt.nq == 2:  # continuous: cos, sin
            q[jnt.idx_q:jnt.idx_q + 2] = np.cos(v), np.sin(v)
        else:
            q[jnt.idx_q] = v
    pin.framesForwardKinematics(model, data, q)
    return {k: data.oMf[model.getFrameId(k)].homogeneous for k in links}


def _placed(robot, q, gripper=None):
    """{link: world placement of its first visual} as robogui draws it."""
    F = robot.fkine_all(q)
    if robot.coupling is not None:
        F = robot.full.fkine_all(robot.coupling.expand(q, robot.n, "q", False))
    jm = robot.full.joint_models
    out = {}
    for v in robot.visuals:
        if v.link in out:
            continue
        P = follow_placements(jm, F, [v.follow], gripper)[0] if v.follow else np.eye(4)
        out[v.link] = F[v.frame] @ P @ v.matrix
    return out


@pytest.fixture()
def piston(tmp_path):
    path = tmp_path / "piston_arm.urdf"
    path.write_text(PISTON)
    return path


def test_a_piston_on_its_cylinder_follows_both_like_pinocchio(piston):
    robot = load_urdf(piston, tip="tool")
    stages = {v.link: v.follow for v in robot.visuals}
    assert [s[:3] for s in stages["cyl"]] == [(1, -0.5, 0.1)]
    assert [s[:3] for s in stages["piston"]] == [(1, -0.5, 0.1), (1, 0.2, 0.01)]
    # the rod's leader (the cylinder) mimics j2 in turn: the rule is composed
    assert [s[:3] for s in stages["rod"]][-1] == pytest.approx((1, -1.0, 0.2))
    rod_origin = np.eye(4)
    rod_origin[0, 3] = 0.05  # the rod's <visual> origin
    for seed in range(6):
        q = robot.random_q(seed=seed)
        c = -0.5 * q[1] + 0.1
        expected = _pin_frames(piston, {"j1": q[0], "j2": q[1], "cyl_joint": c,
                                        "piston_joint": 0.2 * q[1] + 0.01,
                                        "rod_joint": 2 * c}, ["cyl", "piston", "rod"])
        got = _placed(robot, q)
        for link in ("cyl", "piston"):
            np.testing.assert_allclose(got[link], expected[link], atol=1e-12)
        np.testing.assert_allclose(got["rod"], expected["rod"] @ rod_origin, atol=1e-12)


def test_the_one_level_rule_would_have_put_the_piston_off(piston):
    """The former rule (only the first following joint moves) misplaces the piston by
    the piston joint's own travel: the test above is not passing by accident."""
    robot = load_urdf(piston, tip="tool")
    q = np.array([0.3, 1.5])
    got = _placed(robot, q)["piston"]
    exp = _pin_frames(piston, {"j1": 0.3, "j2": 1.5, "cyl_joint": -0.65,
                               "piston_joint": 0.01, "rod_joint": -1.3}, ["piston"])["piston"]
    assert np.linalg.norm(got[:3, 3] - exp[:3, 3]) == pytest.approx(0.3, abs=1e-9)


def test_the_collision_checker_places_the_piston_as_drawn(piston):
    from robogui.engine.collision_detection.checker import CollisionWorld

    robot = load_urdf(piston, tip="tool")
    chk = CollisionWorld(robot)
    q = np.array([0.4, -1.1])
    W = chk.piece_poses(q)[0]
    drawn = _placed(robot, q)
    geom = chk.geometry
    for k, p in enumerate(geom.pieces):
        if p.follow and len(p.follow) == 2:  # the piston's box
            np.testing.assert_allclose(W[k], drawn["piston"], atol=1e-12)
            break
    else:
        pytest.fail("no piston piece")


@pytest.mark.skipif(not TALOS.exists(), reason="example-robot-data without TALOS")
def test_talos_fingertips_on_their_inner_links_follow_like_pinocchio():
    """A real file: TALOS's gripper, whose fingertips hang on inner links that mimic
    the gripper joint too (two levels)."""
    robot = load_urdf(TALOS, tip="gripper_left_motor_double_link")
    names = [L.name for L in robot.chain]
    k = names.index("gripper_left_joint")
    deep = {v.link for v in robot.visuals if len(v.follow) == 2}
    assert {"gripper_left_fingertip_1_link", "gripper_left_fingertip_2_link",
            "gripper_left_fingertip_3_link"} <= deep
    links = sorted({v.link for v in robot.visuals if v.follow})
    mimics = {"gripper_left_inner_double_joint": 1.0, "gripper_left_fingertip_1_joint": -1.0,
              "gripper_left_fingertip_2_joint": -1.0,
              "gripper_left_motor_single_joint": -1.0,
              "gripper_left_inner_single_joint": -1.0,
              "gripper_left_fingertip_3_joint": -1.0}
    for seed in range(3):
        q = robot.random_q(seed=seed)
        values = dict(zip(names, q, strict=True))
        values.update({m: mult * q[k] for m, mult in mimics.items()})
        expected = _pin_frames(TALOS, values, links)
        got = _placed(robot, q)
        for link in links:
            v = next(v for v in robot.visuals if v.link == link)
            # the visual's own <origin> is in v.matrix: compare the link frames
            np.testing.assert_allclose(got[link] @ np.linalg.inv(_visual_origin(link)),
                                       expected[link], atol=1e-9)
            assert v.follow


def _visual_origin(link: str) -> np.ndarray:
    import yourdfpy

    urdf = yourdfpy.URDF.load(str(TALOS), load_meshes=False, build_scene_graph=False)
    vis = urdf.link_map[link].visuals[0]
    return np.eye(4) if vis.origin is None else vis.origin
