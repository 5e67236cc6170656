"""MJCF arms that PyPI packages ship open with their flange as tip and agree with mujoco's
own kinematics (mj_kinematics), Jacobians (mj_jacSite / mj_jacBody) and inverse dynamics
(mj_rne) to 1e-9."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.engine.dynamics.dynamics import rne
from robogui.engine.kinematics.jacobians import jacob0
from robogui.io.file_error import RobotFileError
from robogui.io.mjcf.mjcf import load_mjcf, mjcf_tips
from robogui.io.robotfile import load_robot
from tests.mjcf_files import ARMS

mujoco = pytest.importorskip("mujoco")
pytestmark = pytest.mark.skipif(not ARMS, reason="robosuite / dm_control assets not installed")
IDS = [a[0] for a in ARMS]


def _mujoco_at(path, q, qd=None, qdd=None):
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    d.qpos[:] = q
    if qd is not None:
        d.qvel[:] = qd
    mujoco.mj_forward(m, d)
    if qdd is not None:
        d.qacc[:] = qdd
    return m, d


def _tip_of(m, d, tip):
    """(position, rotation, 6 x nv Jacobian [v; w]) of a site or body, as mujoco has it."""
    jp, jr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    if mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, tip) >= 0:
        i = m.site(tip).id
        mujoco.mj_jacSite(m, d, jp, jr, i)
        return d.site_xpos[i], d.site_xmat[i].reshape(3, 3), np.vstack([jp, jr])
    i = m.body(tip).id
    mujoco.mj_jacBody(m, d, jp, jr, i)
    return d.xpos[i], d.xmat[i].reshape(3, 3), np.vstack([jp, jr])


def test_the_arms_are_there():
    assert len(ARMS) == 7


@pytest.mark.parametrize(("name", "path", "tip"), ARMS, ids=IDS)
def test_opens_with_its_flange_as_tip(name, path, tip):
    robot = load_robot(path)
    m = mujoco.MjModel.from_xml_path(str(path))
    assert robot.tip == tip
    assert robot.n == m.nv  # every joint of these arm-only files is an arm joint
    assert mjcf_tips(path)[0] == (tip, robot.n)
    assert robot.visuals and any(v.kind == "mesh" for v in robot.visuals)


@pytest.mark.parametrize(("name", "path", "tip"), ARMS, ids=IDS)
def test_kinematics_and_jacobian_agree_with_mujoco(name, path, tip):
    robot = load_mjcf(path)
    for q in robot.random_q(5, seed=7):
        m, d = _mujoco_at(path, q)
        p, R, J = _tip_of(m, d, tip)
        T = robot.fkine(q)
        np.testing.assert_allclose(T[:3, 3], p, atol=1e-9)
        np.testing.assert_allclose(T[:3, :3], R, atol=1e-9)
        np.testing.assert_allclose(jacob0(robot, q), J, atol=1e-9)
    # every link frame is its MuJoCo body frame
    q = robot.random_q(seed=3)
    m, d = _mujoco_at(path, q)
    frames = robot.fkine_all(q)
    for k, link in enumerate(robot.links[:-1], start=1):
        b = m.jnt_bodyid[m.joint(link.name).id]
        np.testing.assert_allclose(frames[k][:3, 3], d.xpos[b], atol=1e-9)


@pytest.mark.parametrize(("name", "path", "tip"), ARMS, ids=IDS)
def test_inverse_dynamics_agrees_with_mj_rne(name, path, tip):
    """mj_rne is M qdd + bias forces, without the joints' damping, friction loss and
    armature; robogui's rne without friction, less armature x qdd, is the same."""
    robot = load_mjcf(path).nofriction(coulomb=True, viscous=True)
    rng = np.random.default_rng(11)
    for q in robot.random_q(3, seed=5):
        qd, qdd = rng.uniform(-1, 1, (2, robot.n))
        m, d = _mujoco_at(path, q, qd, qdd)
        want = np.zeros(m.nv)
        mujoco.mj_rne(m, d, 1, want)
        got = rne(robot, q, qd, qdd) - m.dof_armature * qdd
        np.testing.assert_allclose(got, want, atol=1e-9 * max(1.0, np.abs(want).max()))


def test_meshes_are_placed_as_their_files_say():
    """MuJoCo moves mesh vertices into the mesh's inertial frame; the visual placement
    undoes that: the file's vertices placed by the visual land on mujoco's own."""
    import trimesh

    name, path, _ = next(a for a in ARMS if a[0] == "panda")
    robot = load_mjcf(path)
    q = robot.random_q(seed=2)
    m, d = _mujoco_at(path, q)
    frames = robot.fkine_all(q)
    vis = next(v for v in robot.visuals if v.kind == "mesh" and v.link == "link3")
    mesh = trimesh.load(vis.filename, force="mesh", process=False)
    world = frames[vis.frame] @ vis.matrix
    pts = mesh.vertices * vis.scale @ world[:3, :3].T + world[:3, 3]
    g = next(g for g in range(m.ngeom) if m.geom_type[g] == 7 and m.geom_contype[g] == 0
             and m.geom_bodyid[g] == m.body("link3").id
             and vis.filename.endswith(m.mesh(m.geom_dataid[g]).name + ".obj"))
    i = m.geom_dataid[g]
    local = m.mesh_vert[m.mesh_vertadr[i]:m.mesh_vertadr[i] + m.mesh_vertnum[i]]
    theirs = local @ d.geom_xmat[g].reshape(3, 3).T + d.geom_xpos[g]
    from scipy.spatial import cKDTree

    assert cKDTree(pts).query(theirs)[0].max() < 1e-6


def test_bad_and_floating_models_say_why(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco><worldbody><body><joint type="hinge" axis="0 0 0"/>'
                   '<geom size="0.1"/></body></worldbody></mujoco>')
    with pytest.raises(RobotFileError, match="MuJoCo cannot compile the model"):
        load_robot(bad)
    floating = tmp_path / "floating.xml"
    floating.write_text('<mujoco><worldbody><body><freejoint/><geom size="0.1"/>'
                        '<body pos="0 0 1"><joint type="hinge"/><geom size="0.1"/></body>'
                        '</body></worldbody></mujoco>')
    with pytest.raises(RobotFileError, match="floating base"):
        load_robot(floating)
    empty = tmp_path / "empty.xml"
    empty.write_text("")
    with pytest.raises(RobotFileError, match="empty"):
        load_robot(empty)
    with pytest.raises(RobotFileError, match="no body or site named 'nowhere'"):
        load_robot(ARMS[0][1], tip="nowhere")


def test_gripper_fingers_never_end_the_arm(tmp_path):
    """A two-link arm with a hand whose finger slides: 2 arm joints, the hand as tip."""
    f = tmp_path / "arm.xml"
    f.write_text("""<mujoco model="two"><worldbody><body name="l1">
      <joint name="j1" axis="0 0 1"/><geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <body name="l2" pos="0.5 0 0"><joint name="j2" axis="0 0 1"/>
        <geom type="box" size="0.2 0.02 0.02" pos="0.2 0 0"/>
        <body name="hand" pos="0.4 0 0"><geom type="sphere" size="0.03"/>
          <body name="left_finger"><joint name="finger_joint1" type="slide" axis="0 1 0"
              range="0 0.04"/><geom type="box" size="0.01 0.01 0.03" mass="0.1"/></body>
        </body></body></body></worldbody></mujoco>""")
    robot = load_robot(f)
    assert (robot.n, robot.tip) == (2, "hand")
    np.testing.assert_allclose(robot.fkine([0, 0])[:3, 3], [0.9, 0, 0], atol=1e-12)
