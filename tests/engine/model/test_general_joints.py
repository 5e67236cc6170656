"""General (URDF-style) joints: origin, axis, post. Checked against Pinocchio models built
joint by joint, and against the D-H kernels for D-H robots re-described as general joints."""

import numpy as np
import pinocchio as pin
import pytest

import robogui as rg
from robogui.engine.kinematics.symbolic import evaluate, fkine_sym, jacobian_sym
from robogui.engine.model.joint_model import general_links
from robogui.engine.model.link import Link
from robogui.engine.spatial.transforms import rpy2tr, transl


def _random_robot(seed=0, tool=True):
    rng = np.random.default_rng(seed)
    links = []
    for j in range(6):
        T = transl(*(rng.normal(size=3) * 0.3)) @ rpy2tr(*rng.normal(size=3))
        axis = rng.normal(size=3) if j % 2 else (0, 0, -1) if j == 4 else (0, 1, 0)
        A = rng.normal(size=(3, 3))
        post = transl(0.1, 0, 0.05) @ rpy2tr(0.3, 0.2, 0.1) if j == 5 else None
        links.append(Link(joint="P" if j == 2 else "R", origin=T, axis=axis, post=post,
                          m=1.0 + j, r=rng.normal(size=3) * 0.1, I=A @ A.T + np.eye(3) * 0.01,
                          qlim=(-1, 1), offset=0.1 * j))
    return rg.Robot(links, name="random general",
                    tool=transl(0, 0, 0.1) @ rpy2tr(0.1, 0, 0) if tool else None,
                    base=transl(0.2, 0, 0.3) @ rpy2tr(0, 0, 0.5))


def _pin_model(robot):
    """The same chain as a Pinocchio model (unaligned joints, inertia in joint frames)."""
    model = pin.Model()
    parent, prev = 0, pin.SE3(robot.base[:3, :3].copy(), robot.base[:3, 3].copy())
    for j, L in enumerate(robot.links):
        place = prev * pin.SE3(L.origin[:3, :3].copy(), L.origin[:3, 3].copy())
        jt = (pin.JointModelRevoluteUnaligned if L.joint == "R"
              else pin.JointModelPrismaticUnaligned)(*L.axis)
        parent = model.addJoint(parent, jt, place, f"j{j}")
        R, p = L.post[:3, :3], L.post[:3, 3]
        model.appendBodyToJoint(parent, pin.Inertia(L.m, R @ L.r + p, R @ L.I @ R.T),
                                pin.SE3.Identity())
        prev = pin.SE3(L.post[:3, :3].copy(), L.post[:3, 3].copy())
    tool = prev * pin.SE3(robot.tool[:3, :3].copy(), robot.tool[:3, 3].copy())
    model.addFrame(pin.Frame("tool", parent, 0, tool, pin.FrameType.OP_FRAME))
    model.gravity.linear = np.array(robot.gravity)
    return model


def test_general_robot_agrees_with_pinocchio():
    robot = _random_robot()
    model = _pin_model(robot)
    data = model.createData()
    fid = model.getFrameId("tool")
    Q = robot.random_q(6, seed=1)
    QD, QDD = robot.random_q(6, seed=2), robot.random_q(6, seed=3)
    off = np.array([L.offset for L in robot.links])
    T, J = robot.fkine(Q), robot.jacob0(Q)
    tau, M, g = robot.rne(Q, QD, QDD), robot.inertia(Q), robot.gravload(Q)
    for k in range(len(Q)):
        qp = Q[k] + off
        pin.framesForwardKinematics(model, data, qp)
        np.testing.assert_allclose(T[k], data.oMf[fid].homogeneous, atol=1e-12)
        Jp = pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J[k], Jp, atol=1e-12)
        np.testing.assert_allclose(tau[k], pin.rnea(model, data, qp, QD[k], QDD[k]), atol=1e-10)
        np.testing.assert_allclose(g[k], pin.computeGeneralizedGravity(model, data, qp),
                                   atol=1e-10)
        Mp = pin.crba(model, data, qp)
        np.testing.assert_allclose(M[k], np.triu(Mp) + np.triu(Mp, 1).T, atol=1e-10)
    # single-state paths give the batch numbers
    np.testing.assert_allclose(robot.fkine(Q[0]), T[0], atol=1e-15)
    np.testing.assert_allclose(robot.rne(Q[0], QD[0], QDD[0]), tau[0], atol=1e-12)


def test_jacob_dot_and_jacobe_by_finite_differences():
    robot = _random_robot(seed=5)
    q, qd = robot.random_q(seed=6), robot.random_q(seed=7)
    h = 1e-6
    Jd = (robot.jacob0(q + h * qd) - robot.jacob0(q - h * qd)) / (2 * h)
    np.testing.assert_allclose(robot.jacob_dot(q, qd), Jd, atol=1e-7)
    R = robot.fkine(q)[:3, :3]
    Je = robot.jacobe(q)
    np.testing.assert_allclose(np.vstack([R @ Je[:3], R @ Je[3:]]), robot.jacob0(q), atol=1e-12)
    np.testing.assert_allclose(robot.jacobe(q, frames=robot.fkine_all(q)), Je, atol=1e-12)


@pytest.mark.parametrize("name", ["puma560", "puma560akb", "stanford", "panda"])
def test_dh_robot_as_general_joints_gives_the_same_answers(name):
    dh = rg.load_robot(name)
    gen = dh.with_links(general_links(dh))
    assert gen.is_general and not dh.is_general
    Q, QD, QDD = dh.random_q(8, seed=1), dh.random_q(8, seed=2), dh.random_q(8, seed=3)
    np.testing.assert_allclose(gen.fkine_all(Q), dh.fkine_all(Q), atol=1e-12)
    np.testing.assert_allclose(gen.jacob0(Q), dh.jacob0(Q), atol=1e-12)
    np.testing.assert_allclose(gen.jacob_dot(Q, QD), dh.jacob_dot(Q, QD), atol=1e-11)
    np.testing.assert_allclose(gen.manipulability(Q), dh.manipulability(Q), atol=1e-12)
    if dh.has_dynamics:
        np.testing.assert_allclose(gen.rne(Q, QD, QDD), dh.rne(Q, QD, QDD), atol=1e-10)
        np.testing.assert_allclose(gen.inertia(Q), dh.inertia(Q), atol=1e-11)
        np.testing.assert_allclose(gen.coriolis(Q, QD), dh.coriolis(Q, QD), atol=1e-11)
        np.testing.assert_allclose(gen.gravload(Q), dh.gravload(Q), atol=1e-10)
        a, b = gen.torque_components(Q, QD, QDD), dh.torque_components(Q, QD, QDD)
        for part in ("gravity", "inertial", "coriolis", "friction"):
            np.testing.assert_allclose(getattr(a, part), getattr(b, part), atol=1e-10)
        np.testing.assert_allclose(gen.accel(Q[0], QD[0], np.zeros(dh.n)),
                                   dh.accel(Q[0], QD[0], np.zeros(dh.n)), atol=1e-8)


def test_fdyn_runs_on_general_joints():
    robot = _random_robot(seed=2)
    traj = robot.fdyn(0.05, q0=np.zeros(6), dt=0.01)
    assert np.all(np.isfinite(traj.q)) and traj.q.shape[1] == 6
    assert traj.t[-1] == pytest.approx(0.05)
    # from rest, the first acceleration is M^-1 (-gravity torque)
    np.testing.assert_allclose(traj.qdd[0], np.linalg.solve(robot.inertia(np.zeros(6)),
                                                             -robot.gravload(np.zeros(6))),
                               rtol=1e-6)


def test_symbolic_kinematics_evaluate_to_the_numeric_ones():
    full = _random_robot(seed=3)
    dh = rg.load_robot("puma560")
    for robot in (full.with_links(full.links[:3]), dh.with_links(general_links(dh))):
        q = robot.random_q(seed=4)
        T, J = evaluate(robot, q)
        np.testing.assert_allclose(T, robot.fkine(q), atol=1e-12)
        np.testing.assert_allclose(J, robot.jacob0(q), atol=1e-12)
    assert "sin(q1" in str(fkine_sym(robot)) and jacobian_sym(robot).shape == (6, 6)


def test_ikine_solves_general_joint_poses():
    robot = _random_robot(seed=4, tool=False).with_links(
        [L.replace(joint="R") for L in _random_robot(seed=4).links])
    Q = robot.random_q(40, seed=9)
    res = robot.ikine(robot.fkine(Q), q0=np.clip(Q + 0.3, -1, 1))
    assert np.mean(res.success) >= 0.95
    np.testing.assert_allclose(robot.fkine(res.q[res.success]),
                               robot.fkine(Q)[res.success], atol=1e-8)


def test_general_link_checks_its_input():
    with pytest.raises(ValueError, match="axis must not be zero"):
        Link(origin=np.eye(4), axis=(0, 0, 0))
    with pytest.raises(ValueError, match="origin"):
        Link(origin=np.full((4, 4), np.nan))
    with pytest.raises(ValueError, match="no D-H parameters"):
        Link(origin=np.eye(4), a=1.0)
    L = Link(origin=transl(1, 0, 0), axis=(0, 2, 0))
    np.testing.assert_allclose(L.axis, [0, 1, 0])
    np.testing.assert_allclose(L.A(np.pi / 2), transl(1, 0, 0) @ rpy2tr(0, np.pi / 2, 0),
                               atol=1e-15)
    assert "general joints" in str(rg.Robot([L]))


def test_flipped_general_joint_is_the_reversed_axis():
    base = _random_robot(seed=8)
    flipped = base.with_links([L.replace(flip=True) for L in base.links])
    reversed_ = base.with_links([L.replace(axis=-L.axis, offset=-L.offset)
                                 for L in base.links])
    Q = base.random_q(5, seed=2)
    np.testing.assert_allclose(flipped.fkine(Q), reversed_.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(flipped.jacob0(Q), reversed_.jacob0(Q), atol=1e-12)
    QD, QDD = base.random_q(5, seed=3), base.random_q(5, seed=4)
    np.testing.assert_allclose(flipped.jacob_dot(Q, QD), reversed_.jacob_dot(Q, QD), atol=1e-12)
    np.testing.assert_allclose(flipped.rne(Q, QD, QDD), reversed_.rne(Q, QD, QDD), atol=1e-10)
    np.testing.assert_allclose(flipped.inertia(Q), reversed_.inertia(Q), atol=1e-10)
