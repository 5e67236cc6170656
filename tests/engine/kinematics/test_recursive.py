"""Recursive algorithms for long chains (robogui.engine.kinematics.recursive).

A random 100-link standard-D-H chain must agree with Pinocchio (built here from the same
D-H table and inertias) to 1e-9 in fkine_all, jacob0, rne and inertia; on short robots,
forced onto the recursive path, the results must equal the generated programs'.
"""

import math

import numpy as np
import pinocchio as pin
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics import dynamics as D
from robogui.engine.dynamics.dynamics_linear import delta_torque
from robogui.engine.dynamics.fdyn import accel
from robogui.engine.kinematics import recursive
from robogui.engine.kinematics.ikine import ikine
from robogui.engine.kinematics.jacobians import jacob0, jacobe
from robogui.engine.kinematics.kinematics import fkine, fkine_all, kernel_for
from robogui.engine.model.joint_model import general_links
from tests.engine.kinematics.test_kinematics_batch import CASES, random_robot


def random_chain(n: int, seed: int) -> Robot:
    """A random standard-D-H revolute chain with random masses and inertias."""
    rng = np.random.default_rng(seed)
    links = []
    for _ in range(n):
        A = rng.normal(size=(3, 3))
        links.append(Link(a=rng.uniform(-0.3, 0.3), d=rng.uniform(-0.3, 0.3),
                          alpha=rng.uniform(-3, 3), offset=rng.uniform(-1, 1),
                          m=rng.uniform(0.5, 3), r=rng.normal(size=3) * 0.1,
                          I=A @ A.T * 0.01 + np.eye(3) * 0.01))
    c, s = math.cos(0.3), math.sin(0.3)
    base = np.array([[c, -s, 0, 0.2], [s, c, 0, -0.1], [0, 0, 1, 0.5], [0, 0, 0, 1.0]])
    tool = np.array([[1.0, 0, 0, 0.01], [0, 0, -1, 0.02], [0, 1, 0, 0.1], [0, 0, 0, 1]])
    return Robot(links, name=f"chain{n}").with_base(base).with_tool(tool)


def pinocchio_model(robot):
    """Pinocchio model of a standard-D-H revolute robot: a revolute-z joint per link,
    placed by the constant part of the previous link transform, with the link's inertia;
    returns (model, rests) where rests[j] is link j's frame in joint j's frame."""
    model = pin.Model()
    model.gravity = pin.Motion(np.asarray(robot.gravity), np.zeros(3))
    parent, placement, rests = 0, np.array(robot.base), []
    for j, L in enumerate(robot.links):
        se3 = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        parent = model.addJoint(parent, pin.JointModelRZ(), se3, f"joint{j + 1}")
        c, s = math.cos(L.offset), math.sin(L.offset)
        ca, sa = math.cos(L.alpha), math.sin(L.alpha)
        placement = np.array([[c, -s * ca, s * sa, L.a * c], [s, c * ca, -c * sa, L.a * s],
                              [0, sa, ca, L.d], [0, 0, 0, 1.0]])
        rests.append(placement)
        body = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        model.appendBodyToJoint(parent, pin.Inertia(L.m, L.r.copy(), L.I.copy()), body)
    return model, rests


@pytest.fixture(scope="module")
def chain100():
    return random_chain(100, seed=4)


def test_100_link_chain_runs_recursively(chain100):
    assert recursive.use_recursive(chain100)
    assert kernel_for(chain100, "all", batch=True).source.startswith("<recursive")


def test_100_link_chain_agrees_with_pinocchio(chain100):
    robot = chain100
    n = robot.n
    model, rests = pinocchio_model(robot)
    data = model.createData()
    rng = np.random.default_rng(5)
    Q = rng.uniform(-3, 3, (4, n))
    Qd, Qdd = rng.uniform(-1, 1, (4, n)), rng.uniform(-1, 1, (4, n))
    F, J = fkine_all(robot, Q), jacob0(robot, Q)
    tau, M = D.rne(robot, Q, Qd, Qdd), D.inertia(robot, Q)
    for k in range(len(Q)):
        pin.forwardKinematics(model, data, Q[k])
        for j in range(n):
            Tj = data.oMi[j + 1].homogeneous @ rests[j]
            if j == n - 1:
                Tj = Tj @ robot.tool
            np.testing.assert_allclose(F[k, j + 1], Tj, rtol=0, atol=1e-9)
        np.testing.assert_allclose(F[k, 0], robot.base, atol=0)
        tip = pin.Frame("tip", n, 0, pin.SE3(*_rt(rests[-1] @ robot.tool)),
                        pin.FrameType.OP_FRAME)
        if not model.existFrame("tip"):
            model.addFrame(tip)
            data = model.createData()
            pin.forwardKinematics(model, data, Q[k])
        pin.updateFramePlacements(model, data)
        Jp = pin.computeFrameJacobian(model, data, Q[k], model.getFrameId("tip"),
                                      pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J[k], Jp, rtol=0, atol=1e-9)
        np.testing.assert_allclose(tau[k], pin.rnea(model, data, Q[k], Qd[k], Qdd[k]),
                                   rtol=0, atol=1e-9)
        Mp = pin.crba(model, data, Q[k])
        np.testing.assert_allclose(M[k], np.triu(Mp) + np.triu(Mp, 1).T, rtol=0, atol=1e-9)
    # one state gives the same numbers as the batch
    np.testing.assert_allclose(D.rne(robot, Q[0], Qd[0], Qdd[0]), tau[0], rtol=1e-13, atol=1e-12)
    np.testing.assert_allclose(D.inertia(robot, Q[0]), M[0], rtol=1e-13, atol=1e-12)
    np.testing.assert_allclose(fkine_all(robot, Q[0]), F[0], rtol=0, atol=1e-12)


def _rt(T):
    return T[:3, :3].copy(), T[:3, 3].copy()


def with_dynamics(robot, seed):
    rng = np.random.default_rng(seed)
    links = []
    for L in robot.links:
        A = rng.normal(size=(3, 3))
        links.append(L.replace(m=rng.uniform(0.5, 3), r=rng.normal(size=3) * 0.2,
                               I=A @ A.T + 0.1 * np.eye(3), Jm=rng.uniform(0, 1e-3),
                               G=rng.uniform(1, 50), B=rng.uniform(0, 1e-3), Tc=(0.1, -0.2)))
    return robot.with_links(links)


def _everything(robot, q, qd, qdd, fe):
    return {
        "fkine_all": fkine_all(robot, q), "fkine": fkine(robot, q),
        "jacob0": jacob0(robot, q), "jacobe": jacobe(robot, q),
        "jacob0 one": jacob0(robot, q[0]), "fkine_all one": fkine_all(robot, q[0]),
        "rne": D.rne(robot, q, qd, qdd), "rne one": D.rne(robot, q[0], qd[0], qdd[0]),
        "rne fext": D.rne(robot, q, qd, qdd, fext=fe), "inertia": D.inertia(robot, q),
        "inertia one": D.inertia(robot, q[0]), "gravload one": D.gravload(robot, q[0]),
        "gravload": D.gravload(robot, q, gravity=[1.0, -2.0, -9.0]),
        "coriolis": D.coriolis(robot, q, qd),
        "components": D.torque_components(robot, q, qd, qdd).as_dict()["coriolis"],
        "delta_torque": delta_torque(robot, q, qd, qdd, qd, qdd, q)[1],
        "accel": accel(robot, q, qd, qdd),
    }


def _variant(robot, how):
    if how == "flip":  # Link.flip on every other joint
        return robot.with_links([L.replace(flip=j % 2 == 0) for j, L in enumerate(robot.links)])
    if how == "general":  # the same chain as general (URDF-style) joints
        return robot.with_links(general_links(robot))
    return robot


@pytest.mark.parametrize("how", ["dh", "flip", "general"])
@pytest.mark.parametrize("case", CASES[:6] + [dict(special=True, n=8)])
def test_recursive_path_equals_the_generated_programs(case, how, monkeypatch):
    robot = _variant(with_dynamics(random_robot(7, **case), 1), how)
    rng = np.random.default_rng(0)
    q, qd, qdd = (rng.uniform(-1, 1, (5, robot.n)) for _ in range(3))
    fe = rng.normal(size=6)
    ref = _everything(robot, q, qd, qdd, fe)
    monkeypatch.setattr(recursive, "RECURSIVE_MIN_LINKS", 1)
    fresh = robot.with_links(robot.links)  # a new Robot: no cached generated code
    assert kernel_for(fresh, "jac").source.startswith("<recursive")
    got = _everything(fresh, q, qd, qdd, fe)
    for key, value in ref.items():
        np.testing.assert_allclose(got[key], value, rtol=1e-12, atol=1e-11, err_msg=key)


def test_ikine_on_a_long_chain_runs_on_the_recursive_kernels():
    robot = random_chain(20, seed=5)
    assert recursive.use_recursive(robot)
    q = np.random.default_rng(2).uniform(-1, 1, 20)
    T = fkine(robot, q)
    res = ikine(robot, T)
    assert res.success and res.residual < 1e-10
    np.testing.assert_allclose(fkine(robot, res.q), T, atol=1e-9)
    both = ikine(robot, np.stack([T, T]), chain=False)  # the batched search
    assert np.all(both.success)
