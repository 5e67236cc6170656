"""Issue 24, item 4: collision geometry of robots (URDF <collision>, capsules around the sticks
of D-H robots), the pair rule, SRDF disabled pairs, and the batched segment distance."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import robogui as rg
from robogui.engine.collision_detection.checker import CollisionWorld, Obstacle
from robogui.engine.collision_detection.robot_geometry import robot_geometry
from robogui.engine.collision_detection.segments import segment_distance

SIX = Path(__file__).resolve().parents[2] / "data" / "collision" / "six_primitives.urdf"


def test_segment_distance_is_the_minimum_over_dense_samples():
    rng = np.random.default_rng(3)
    P = rng.normal(size=(300, 4, 3))
    P[:40, 1] = P[:40, 0]  # points
    P[40:80, 3] = P[40:80, 2]
    P[80:120, 3] = P[80:120, 2] + 2.0 * (P[80:120, 1] - P[80:120, 0])  # parallel
    d = segment_distance(P[:, 0], P[:, 1], P[:, 2], P[:, 3])
    s = np.linspace(0.0, 1.0, 201)
    for i in range(0, 300, 3):
        A = P[i, 0] + np.outer(s, P[i, 1] - P[i, 0])
        B = P[i, 2] + np.outer(s, P[i, 3] - P[i, 2])
        brute = np.min(np.linalg.norm(A[:, None] - B[None], axis=-1))
        # the exact minimum is never above the sampled one and within the sampling step
        assert d[i] <= brute + 1e-12
        assert brute - d[i] <= 0.005 * np.linalg.norm(P[i, 1] - P[i, 0]) \
            + 0.005 * np.linalg.norm(P[i, 3] - P[i, 2]) + 1e-12


def test_urdf_collision_elements_become_collision_geometry_in_their_link_frames():
    robot = rg.load_robot(SIX)
    kinds = [(c.link, c.frame, c.kind, c.size) for c in robot.collisions]
    assert kinds[0] == ("base", 0, "cylinder", (0.12, 0.2))
    assert ("upper_arm", 2, "sphere", (0.07,)) in kinds
    assert ("flange", 6, "box", (0.06, 0.1, 0.04)) in kinds
    assert not robot.visuals  # the file has no <visual>: collisions are kept apart
    geom = robot_geometry(robot)
    names = geom.links
    pairs = {tuple(sorted((names[a], names[b]))) for a, b in geom.self_pairs}
    # joined by one joint: never; two joints apart: checked
    assert ("base", "shoulder") not in pairs and ("shoulder", "upper_arm") not in pairs
    assert ("base", "upper_arm") in pairs and ("forearm", "shoulder") in pairs
    assert ("flange", "wrist2") not in pairs and ("flange", "wrist1") in pairs


def test_an_srdf_beside_the_urdf_disables_its_pairs(tmp_path):
    urdf = tmp_path / "six_primitives.urdf"
    shutil.copy(SIX, urdf)
    (tmp_path / "six_primitives.srdf").write_text(
        '<robot name="six_primitives">\n'
        '  <disable_collisions link1="base" link2="upper_arm" reason="Never"/>\n'
        '  <disable_collisions link1="wrist1" link2="flange" reason="Never"/>\n</robot>\n')
    robot = rg.load_robot(urdf)
    assert robot.disabled_collisions == (("base", "upper_arm"), ("flange", "wrist1"))
    geom = robot_geometry(robot)
    pairs = {tuple(sorted((geom.links[a], geom.links[b]))) for a, b in geom.self_pairs}
    assert ("base", "upper_arm") not in pairs and ("flange", "wrist1") not in pairs
    assert ("base", "forearm") in pairs


def test_dh_robots_get_capsules_around_their_sticks():
    arm = rg.Robot([rg.Link(a=1.0), rg.Link(a=1.0), rg.Link(a=1.0)], name="planar")
    geom = robot_geometry(arm)
    sticks = [p for p in geom.pieces if p.size[1] > 0.5]
    assert len(sticks) == 3 and all(p.kind == "capsule" for p in sticks)
    world = CollisionWorld(arm, geometry=robot_geometry(arm, radius=0.05))
    # straight: links 1 and 3 are 1 m apart (minus two radii and the joint capsules' bulge)
    straight = world.check(np.zeros(3))
    assert not straight.colliding
    # folded: link 3 crosses link 1 (q2 = q3 = 2.6 rad: link 3 runs from (0.143, 0.515) to
    # (0.611, -0.368) and meets the x axis, where link 1 lies)
    folded = world.check([0.0, 2.6, 2.6])
    assert folded.colliding and ("link1", "link3") in [tuple(sorted(p)) for p in folded.pairs]
    # a sphere obstacle at (2, 0.3, 0): 0.3 m from joint 3's axis capsule (radius 1.3 x 0.05)
    ball = CollisionWorld(arm, [Obstacle("ball", "sphere", (0.2,), np.eye(4) + np.pad(
        [[2.0], [0.3], [0.0]], ((0, 1), (3, 0))))], geometry=robot_geometry(arm, radius=0.05))
    rep = ball.check(np.zeros(3))
    assert rep.distance == pytest.approx(0.3 - 0.2 - 0.065, abs=1e-12)
    assert rep.nearest == ("link2", "ball")


def test_puma_named_poses_are_free_and_a_puma_in_the_floor_is_not():
    puma = rg.load_robot("puma560")
    rep = rg.check_collisions(puma, np.array([puma.pose(k) for k in ("qz", "qr", "qs", "qn")]))
    assert not rep.colliding.any() and np.all(rep.distance > 0.1)
    cell = rg.Cell(floor_z=0.5)  # the library Puma's base frame is at the shoulder
    rep = rg.check_collisions(puma, puma.pose("qz"), cell)
    assert rep.colliding and {b for _, b in rep.pairs} == {"floor"}


def test_the_robot_file_sets_capsule_radii_per_link_and_keeps_them():
    from robogui.io.robotfile import RobotFileError, robot_from_toml, robot_to_toml

    puma = rg.load_robot("puma560")
    text = robot_to_toml(puma.replace(collision_radii=[0, 0.08, 0.06, 0, 0, 0]))
    assert text.count("collision_radius") == 2
    back = robot_from_toml(text)
    assert back.collision_radii == (0.0, 0.08, 0.06, 0.0, 0.0, 0.0)
    geom = robot_geometry(back)
    upper = [p for p in geom.pieces if p.frame == 2 and p.size[1] > 0.2]  # the 0.4318 m stick
    assert [p.size[0] for p in upper] == [0.08]
    with pytest.raises(RobotFileError, match="link 2: field 'collision_radius'"):
        robot_from_toml(text.replace("collision_radius = 0.08", "collision_radius = -1"))


def test_capsules_against_boxes_agree_with_coal_pair_by_pair():
    import coal

    puma = rg.load_robot("puma560")
    boxes = [Obstacle(f"box {k}", "box", tuple(s), T) for k, (s, T) in enumerate([
        ((0.8, 1.2, 0.04), rg.transl(0.6, 0.0, -0.37)),
        ((0.25, 0.25, 0.1), rg.transl(0.5, 0.35, -0.3) @ rg.trotz(0.4)),
        ((0.05, 2.0, 1.5), rg.transl(-0.6, 0.0, 0.0) @ rg.troty(0.2)),
        ((0.3, 0.3, 0.3), rg.transl(0.0, 0.5, 0.5) @ rg.trotx(0.7) @ rg.trotz(0.3))])]
    world = CollisionWorld(puma, boxes)
    Q = puma.random_q(400, seed=11)
    rep = world.check(Q)
    W = world.piece_poses(Q)
    req = coal.DistanceRequest()
    for i in range(len(Q)):
        best = np.inf
        for a, p in enumerate(world.geometry.pieces):
            ta = coal.Transform3s(W[i, a, :3, :3], W[i, a, :3, 3])
            for o, ob in enumerate(boxes):
                tb = coal.Transform3s(ob.T[:3, :3], ob.T[:3, 3])
                best = min(best, coal.distance(p.geometry, ta, world._obs_shape[o], tb, req,
                                               coal.DistanceResult()))
        for a, b in world.geometry.self_pairs:
            ta = coal.Transform3s(W[i, a, :3, :3], W[i, a, :3, 3])
            tb = coal.Transform3s(W[i, b, :3, :3], W[i, b, :3, 3])
            best = min(best, coal.distance(world._coal[a], ta, world._coal[b], tb, req,
                                           coal.DistanceResult()))
        assert rep.colliding[i] == (best < 0)
        assert rep.distance[i] == pytest.approx(best, abs=1e-6)


def _pinocchio_contacts_at(urdf: Path, package_dir: Path, joint_values: dict) -> set:
    """Link pairs (sorted names) Pinocchio + coal find in contact at ``joint_values``
    {joint name: value}, every pair of links not joined by one joint checked."""
    pin = pytest.importorskip("pinocchio")
    model = pin.buildModelFromUrdf(str(urdf))
    geom = pin.buildGeomFromUrdf(model, str(urdf), pin.GeometryType.COLLISION,
                                 package_dirs=[str(package_dir)])
    objs = geom.geometryObjects
    for a in range(len(objs)):
        for b in range(a + 1, len(objs)):
            ja, jb = objs[a].parentJoint, objs[b].parentJoint
            if ja != jb and model.parents[ja] != jb and model.parents[jb] != ja:
                geom.addCollisionPair(pin.CollisionPair(a, b))
    q = pin.neutral(model)
    for name, value in joint_values.items():
        q[model.joints[model.getJointId(name)].idx_q] = value
    data, gdata = model.createData(), pin.GeometryData(geom)
    pin.computeCollisions(model, data, geom, gdata, q, False)
    found = set()
    for k, cp in enumerate(geom.collisionPairs):
        if gdata.collisionResults[k].isCollision():
            found.add(tuple(sorted(model.frames[objs[i].parentFrame].name
                                   for i in (cp.first, cp.second))))
    return found


def test_link_pairs_in_contact_in_the_start_pose_are_not_checked_without_an_srdf_list():
    """MoveIt's setup assistant's "Default" rule for a file whose SRDF lists no disabled
    pairs: the Unitree Z1 of example-robot-data opens folded at its SRDF's home (all
    zero), where its upper arm's and wrist's collision meshes overlap by 8 mm."""
    from robogui.engine.model.start_pose import start_q
    from robogui.session import Session
    from tests.urdf_files import ERD

    z1 = ERD / "z1_description" / "urdf" / "z1.urdf"
    robot = rg.load_robot(z1)
    assert robot.disabled_collisions == () and robot.collisions
    q0 = start_q(robot)
    np.testing.assert_array_equal(q0, 0.0)
    # the oracle, every pair checked: exactly that pair touches at home
    names = [L.name for L in robot.chain]
    touching = _pinocchio_contacts_at(z1, ERD.parents[1], dict(zip(names, q0, strict=True)))
    assert touching == {("link02", "link06")}
    geom = robot_geometry(robot)
    assert geom.allowed_at_start == (("link02", "link06"),)
    pairs = {tuple(sorted((geom.links[a], geom.links[b]))) for a, b in geom.self_pairs}
    assert ("link02", "link06") not in pairs and ("link02", "link04") in pairs
    s = Session(robot)
    assert not s.collisions.colliding and s.contact_frames == frozenset()
    # the other pairs are still checked (random states: the wrist folded onto the upper arm)
    rep = CollisionWorld(robot, geometry=geom).check(robot.random_q(1000, seed=1), False)
    seen = {tuple(sorted(p)) for ps in rep.pairs for p in ps}
    assert ("link02", "link04") in seen and ("link02", "link06") not in seen


def test_an_srdf_list_is_taken_as_it_is_and_a_closed_gripper_may_touch_itself():
    from tests.urdf_files import PANDA, RTB

    panda = rg.load_robot(PANDA, tip="panda_hand")  # its SRDF disables what MoveIt found
    assert panda.disabled_collisions and robot_geometry(panda).allowed_at_start == ()
    # rtb-data's Interbotix PincherX 100 (xacro, no SRDF): the fingers touch when closed
    px = rg.load_robot(RTB / "trossen_descriptions" / "urdf" / "px100.urdf.xacro")
    geom = robot_geometry(px)
    assert geom.allowed_at_start == (("/left_finger_link", "/right_finger_link"),)
    assert len(geom.self_pairs) > 10
