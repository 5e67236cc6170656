"""URDF/xacro robots from real files, against Pinocchio's own URDF parser."""

import numpy as np
import pinocchio as pin
import pytest

from robogui.io.ros.urdf import load_urdf, urdf_tip_choices, urdf_tips
from tests.urdf_files import ARMS, ERD, IRB140, KR5, PACKAGES, PANDA, PUMA, UR5


def _pin_chain(path, tip, robot):
    """Pinocchio's model of the file, reduced to the chain (other joints locked at 0)."""
    if str(path).endswith(".xacro"):
        from lxml import etree

        from robogui.io.ros.urdf import read_urdf_xml

        root, _ = read_urdf_xml(path, PACKAGES)
        full = pin.buildModelFromXML(etree.tostring(root).decode())
    else:
        full = pin.buildModelFromUrdf(str(path))
    chain = {L.name for L in robot.links}
    lock = [i for i in range(1, full.njoints) if full.names[i] not in chain]
    model = pin.buildReducedModel(full, lock, pin.neutral(full))
    assert [model.names[i] for i in range(1, model.njoints)] == [L.name for L in robot.links]
    return model, model.getFrameId(tip, pin.FrameType.BODY)  # the link, not a joint of that name


def _pin_q(model, q):
    """robogui joint values -> Pinocchio configuration (continuous joints are cos, sin)."""
    out = []
    for i in range(1, model.njoints):
        v = q[i - 1]
        out += [np.cos(v), np.sin(v)] if model.joints[i].nq == 2 else [v]
    return np.array(out)


@pytest.mark.parametrize(("path", "tip"), ARMS, ids=lambda x: getattr(x, "stem", x))
def test_urdf_arm_agrees_with_pinocchio(path, tip):
    robot = load_urdf(path, tip=tip, package_path=PACKAGES)
    assert robot.tip == tip and robot.is_general
    model, fid = _pin_chain(path, tip, robot)
    data = model.createData()
    Q = robot.random_q(5, seed=1)
    QD, QDD = robot.random_q(5, seed=2), robot.random_q(5, seed=3)
    T, J = robot.fkine(Q), robot.jacob0(Q)
    for k in range(len(Q)):
        qp = _pin_q(model, Q[k])
        pin.framesForwardKinematics(model, data, qp)
        np.testing.assert_allclose(T[k], data.oMf[fid].homogeneous, atol=1e-9)
        Jp = pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J[k], Jp, atol=1e-9)
    if path in (PUMA, IRB140):  # these two files have no <inertial>: kinematics only
        assert not robot.has_dynamics
        return
    rigid = robot.nofriction(coulomb=True, viscous=True)
    tau, M, g = rigid.rne(Q, QD, QDD), robot.inertia(Q), robot.gravload(Q)
    for k in range(len(Q)):
        qp = _pin_q(model, Q[k])
        np.testing.assert_allclose(tau[k], pin.rnea(model, data, qp, QD[k], QDD[k]), atol=1e-9)
        np.testing.assert_allclose(g[k], pin.computeGeneralizedGravity(model, data, qp),
                                   atol=1e-9)
        Mp = pin.crba(model, data, qp)
        np.testing.assert_allclose(M[k], np.triu(Mp) + np.triu(Mp, 1).T, atol=1e-9)


@pytest.mark.parametrize(("path", "tip"), ARMS, ids=lambda x: getattr(x, "stem", x))
def test_ikine_solves_random_reachable_poses(path, tip):
    robot = load_urdf(path, tip=tip, package_path=PACKAGES)
    Q = robot.random_q(100, seed=7)
    res = robot.ikine(robot.fkine(Q), seed=1)
    assert np.mean(res.success) >= 0.99
    np.testing.assert_allclose(robot.fkine(res.q[res.success]), robot.fkine(Q)[res.success],
                               atol=1e-6)


def test_limits_and_names_come_from_the_file():
    ur5 = load_urdf(UR5, tip="tool0")
    assert ur5.base_link == "world" and ur5.tip == "tool0"
    assert [L.name for L in ur5.links][:2] == ["shoulder_pan_joint", "shoulder_lift_joint"]
    panda = load_urdf(PANDA, tip="panda_hand")
    L1 = panda.links[0]
    assert L1.qlim == pytest.approx((-2.8973, 2.8973))
    assert L1.qd_max == pytest.approx(2.175) and L1.tau_max == pytest.approx(87.0)
    assert panda.n == 7 and panda.links[3].qlim == pytest.approx((-3.0718, -0.0698))


def test_default_tip_is_the_flange_and_two_arms_are_an_ambiguity_error():
    """UR5's flange is tool0 (ee_link, the older name, is its twin); the Panda's default
    is its hand with 7 joints, the fingers are no arm joints."""
    assert urdf_tips(UR5) == ["tool0"]
    assert load_urdf(UR5).tip == "tool0"
    assert load_urdf(IRB140, package_path=PACKAGES).tip == "tool0"
    panda = load_urdf(PANDA)
    assert (panda.tip, panda.n, panda.structure) == ("panda_hand", 7, "RRRRRRR")
    choices = dict(urdf_tip_choices(UR5))
    assert list(choices)[0] == "tool0" and choices["ee_link"] == 6
    assert choices["shoulder_link"] == 1
    dual = ERD / "baxter_description/urdf/baxter.urdf"
    with pytest.raises(ValueError, match="several tip links"):
        load_urdf(dual)


def test_off_chain_links_are_lumped_into_the_chain_link():
    """The Panda hand and its two fingers ride on link 7 when the tip is panda_link8."""
    with_hand = load_urdf(PANDA, tip="panda_hand")
    flange = load_urdf(PANDA, tip="panda_link8")
    assert flange.n == 7
    # the same total mass on the last link, whatever the tip
    assert flange.links[-1].m == pytest.approx(with_hand.links[-1].m)
    q = with_hand.random_q(seed=2)
    np.testing.assert_allclose(flange.gravload(q), with_hand.gravload(q), atol=1e-10)
    np.testing.assert_allclose(flange.inertia(q), with_hand.inertia(q), atol=1e-10)
    # and its geometry is still drawn, on link 7
    assert {v.link for v in flange.visuals if v.frame == 7} >= {"panda_hand",
                                                                "panda_leftfinger"}


def test_xacro_with_meshes_and_package_paths():
    kr5 = load_urdf(KR5, package_path=PACKAGES)
    assert kr5.n == 6 and kr5.tip == "tool0"
    meshes = [v for v in kr5.visuals if v.kind == "mesh"]
    assert len(meshes) >= 7
    assert all(v.uri.startswith("package://kuka_kr5_support/") for v in meshes)
    from pathlib import Path

    assert all(Path(v.filename).is_file() for v in meshes)


def test_rtb_data_puma_urdf_agrees_with_the_dh_puma_where_frames_correspond():
    """Every joint axis and the tool orientation agree with the library's D-H Puma 560
    for q_dh = q_urdf + (0, 0, pi, pi, 0, 0), to the file's rounding of pi/2 (1.5708).
    Positions agree at the shoulder; the file's elbow and forearm are laid out
    differently (a3 at the elbow, d4 = 0.4331 m), so the wrist points differ by
    centimetres and are not compared."""
    import robogui as rg
    from robogui.engine.spatial.transforms import transl

    urdf, dh = load_urdf(PUMA), rg.load_robot("puma560")
    Q = urdf.random_q(50, seed=4)
    Qd = Q + np.array([0, 0, np.pi, np.pi, 0, 0])
    Fu, Fd = urdf.fkine_all(Q), transl(0, 0, 0.6718) @ dh.fkine_all(Qd)
    axes_u = (Fu[:, :6] @ urdf.joint_models.pre)[..., :3, 2]
    np.testing.assert_allclose(axes_u, Fd[:, :6, :3, 2], atol=1e-8)
    np.testing.assert_allclose(Fu[:, -1, :3, :3], Fd[:, -1, :3, :3], atol=1e-8)
    shoulder_u = (Fu[:, 1] @ urdf.joint_models.pre[1])[:, :3, 3]
    np.testing.assert_allclose(shoulder_u, Fd[:, 1, :3, 3], atol=1e-8)
    # the file places the elbow axis a2 = 0.4318 m along and a3 = 0.0203 m across
    elbow_u = (Fu[:, 2] @ urdf.joint_models.pre[2])[:, :3, 3]
    z2 = Fd[:, 1, :3, 2]
    d_u = elbow_u - shoulder_u
    perp = d_u - np.sum(d_u * z2, axis=1)[:, None] * z2
    np.testing.assert_allclose(np.linalg.norm(perp, axis=1), np.hypot(0.4318, 0.0203),
                               atol=1e-4)


@pytest.mark.parametrize("name", ["puma560", "stanford", "puma560akb", "panda", "ur5"])
def test_dh_robot_to_urdf_and_back_is_the_same_robot(name, tmp_path):
    import robogui as rg

    dh = rg.load_robot(name)
    if name == "puma560":
        from robogui.engine.spatial.transforms import rpy2tr, transl

        dh = dh.with_base(transl(0.1, 0.2, 0.3) @ rpy2tr(0.1, 0.2, 0.3)).with_tool(
            transl(0, 0, 0.2)).with_links([L.replace(flip=j == 1) for j, L in
                                           enumerate(dh.links)])
    path = rg.save_robot(dh, tmp_path / f"{name}.urdf")
    back = rg.load_robot(path)
    assert back.n == dh.n and back.name == dh.name and back.is_general
    Q, QD, QDD = dh.random_q(10, seed=1), dh.random_q(10, seed=2), dh.random_q(10, seed=3)
    np.testing.assert_allclose(back.fkine(Q), dh.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(back.jacob0(Q), dh.jacob0(Q), atol=1e-12)
    np.testing.assert_allclose(back.qlim, dh.qlim, atol=0)
    if dh.has_dynamics:
        np.testing.assert_allclose(back.rne(Q, QD, QDD), dh.rne(Q, QD, QDD), atol=1e-12 * max(
            1.0, np.abs(dh.rne(Q, QD, QDD)).max()))
        np.testing.assert_allclose(back.inertia(Q), dh.inertia(Q), atol=1e-12)
        np.testing.assert_allclose(back.gravload(Q), dh.gravload(Q), atol=1e-12)
    # Pinocchio reads the written file too and agrees
    model = pin.buildModelFromUrdf(str(path))
    data = model.createData()
    pin.framesForwardKinematics(model, data, Q[0])
    np.testing.assert_allclose(data.oMf[model.getFrameId(back.tip)].homogeneous, dh.fkine(Q[0]),
                               atol=1e-12)


def test_code_export_of_a_urdf_robot(tmp_path):
    """Python and C exports of the KR5 xacro's symbolic kinematics give the engine's."""
    from robogui.engine.kinematics import symbolic as S
    from tests.engine.kinematics.test_symbolic import _compile_c

    robot = load_urdf(KR5, package_path=PACKAGES)
    Q = robot.random_q(4, seed=3)
    ns = {}
    exec(compile(S.to_python(robot), "kr5_kin.py", "exec"), ns)  # noqa: S102
    T, J = ns["kinematics"](Q)
    np.testing.assert_allclose(T, robot.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(J, robot.jacob0(Q), atol=1e-12)
    lib, dp = _compile_c(S.to_c(robot, func_name="kin"), tmp_path, "kr5")
    for q in Q:
        qa = np.ascontiguousarray(q)
        Tc, Jc = np.zeros(16), np.zeros(36)
        lib.kin(qa.ctypes.data_as(dp), Tc.ctypes.data_as(dp), Jc.ctypes.data_as(dp))
        np.testing.assert_allclose(Tc.reshape(4, 4), robot.fkine(q), atol=1e-12)
        np.testing.assert_allclose(Jc.reshape(6, 6), robot.jacob0(q), atol=1e-12)
