"""Inverse dynamics against roboticstoolbox-python (C rne) and Pinocchio (RNEA, CRBA).

Both are test-only oracles: the robots are rebuilt in each library from robogui's D-H
parameters here. Documented differences from the libraries' own models are mapped:
RTB-Py's Puma560 puts the 0.6718 m pedestal into d1 (a translation along the joint-1
axis, which leaves all torques unchanged), and its Stanford arm has a3 = 0.0203 m.
"""

import math

import numpy as np
import pinocchio as pin
import pytest
import roboticstoolbox as rtb
from spatialmath import SE3

from robogui import Link, Robot
from robogui.engine.dynamics import dynamics as D
from robogui.engine.spatial.transforms import rpy2tr, transl, trotx


def to_rtb(robot):
    """An RTB-Py DHRobot with the same kinematics, dynamics, motors and friction."""
    links = []
    for L in robot.links:
        links.append(rtb.DHLink(
            d=L.d if L.joint == "R" else 0.0, a=L.a, alpha=L.alpha,
            theta=L.theta if L.joint == "P" else 0.0, offset=L.offset,
            sigma=L.sigma, mdh=L.mdh, qlim=L.qlim if L.qlim is not None else [-math.pi, math.pi],
            m=L.m, r=L.r, I=L.I, Jm=L.Jm, G=L.G, B=L.B, Tc=list(L.Tc)))
    return rtb.DHRobot(links, name=robot.name, base=SE3(robot.base, check=False),
                       gravity=robot.gravity)


def to_pinocchio(robot):
    """A Pinocchio model of a standard-D-H robot without motors.

    Joint i rotates (slides) about z of D-H frame i-1; the constant rest of its link
    transform, Rz(theta0) Tz(d0) Tx(a) Rx(alpha), places the next joint and the link body.
    """
    assert not robot.is_mdh
    model = pin.Model()
    model.gravity = pin.Motion(np.asarray(robot.gravity), np.zeros(3))
    parent, placement = 0, pin.SE3(robot.base[:3, :3].copy(), robot.base[:3, 3].copy())
    for j, L in enumerate(robot.links):
        joint = pin.JointModelRZ() if L.joint == "R" else pin.JointModelPZ()
        jid = model.addJoint(parent, joint, placement, f"j{j}")
        th0 = L.offset if L.joint == "R" else L.theta
        d0 = L.d if L.joint == "R" else L.offset
        rest = (np.array([[math.cos(th0), -math.sin(th0), 0, 0],
                          [math.sin(th0), math.cos(th0), 0, 0], [0, 0, 1, d0], [0, 0, 0, 1]])
                @ transl(L.a, 0, 0) @ trotx(L.alpha))
        rest_se3 = pin.SE3(rest[:3, :3].copy(), rest[:3, 3].copy())
        model.appendBodyToJoint(jid, pin.Inertia(L.m, L.r.copy(), L.I.copy()), rest_se3)
        parent, placement = jid, rest_se3
    tool = pin.SE3(robot.tool[:3, :3].copy(), robot.tool[:3, 3].copy())
    return model, placement * tool  # the last link's rest part, then the tool


def random_robot(rng, n, mdh=False, prismatic=(), motors=True, tool=False, base=False):
    links = []
    for j in range(n):
        joint = "P" if j in prismatic else "R"
        A = rng.normal(size=(3, 3)) * 0.3
        links.append(Link(
            joint=joint, theta=rng.uniform(-3, 3), d=rng.choice([0.0, rng.uniform(-1, 1)]),
            a=rng.choice([0.0, rng.uniform(-1, 1)]),
            alpha=rng.choice([0.0, math.pi / 2, -math.pi / 2, rng.uniform(-3, 3)]),
            mdh=mdh, offset=rng.uniform(-0.5, 0.5), qlim=(-1.0, 1.0) if joint == "P" else None,
            m=rng.uniform(0.5, 5), r=rng.uniform(-0.3, 0.3, 3), I=A @ A.T + 0.01 * np.eye(3),
            Jm=rng.uniform(0, 1e-3) if motors else 0.0,
            G=rng.choice([-1, 1]) * rng.uniform(1, 100) if motors else 1.0,
            B=rng.uniform(0, 1e-3) if motors else 0.0,
            Tc=(rng.uniform(0, 0.5), -rng.uniform(0, 0.5)) if motors else 0.0))
    kw = {}
    if tool:
        kw["tool"] = transl(rng.uniform(-0.2, 0.2, 3)) @ rpy2tr(rng.uniform(-1, 1, 3))
    if base:
        kw["base"] = transl(rng.uniform(-1, 1, 3)) @ rpy2tr(rng.uniform(-1, 1, 3))
    return Robot(links, name="random", **kw)


def states(rng, n, m=6):
    return (rng.uniform(-1.5, 1.5, (m, n)), rng.uniform(-2, 2, (m, n)),
            rng.uniform(-3, 3, (m, n)))


def close(a, b, rel=1e-10):
    np.testing.assert_allclose(a, b, atol=rel * (1 + np.abs(b).max()))


# -- roboticstoolbox-python ----------------------------------------------------------------
def test_puma560_against_rtb_model(puma):
    """RTB-Py's own Puma560 (motor inertia and friction included)."""
    theirs = rtb.models.DH.Puma560()
    assert theirs.links[0].d == pytest.approx(0.6718, abs=1e-4) and puma.links[0].d == 0
    rng = np.random.default_rng(1)
    q, qd, qdd = states(rng, 6, 8)
    qd[0, :] = 0.0  # Coulomb friction is zero at rest; both must agree there too
    close(D.rne(puma, q, qd, qdd), theirs.rne(q, qd, qdd))
    close(D.gravload(puma, q), theirs.gravload(q))
    close(D.inertia(puma, q), theirs.inertia(q))
    close(D.friction(puma, qd), np.array([[L.friction(v) for L, v in zip(theirs.links, row,
                                                                          strict=True)]
                                          for row in qd]))
    for k in range(3):
        close(D.coriolis(puma, q[k], qd[k]), theirs.coriolis(q[k], qd[k]))
        close(D.rne(puma, q[k], qd[k], qdd[k]), theirs.rne(q[k], qd[k], qdd[k]))
    # moving the pedestal into d1, as RTB-Py does, changes no torque
    pedestal = puma.with_links([puma.links[0].replace(d=theirs.links[0].d), *puma.links[1:]])
    close(D.rne(pedestal, q, qd, qdd), D.rne(puma, q, qd, qdd), rel=1e-12)


def test_stanford_against_rtb_model(stanford):
    theirs = rtb.models.DH.Stanford()
    assert theirs.links[2].a == pytest.approx(0.0203) and stanford.links[2].a == 0
    mapped = stanford.with_links([*stanford.links[:2], stanford.links[2].replace(a=0.0203),
                                  *stanford.links[3:]])
    rng = np.random.default_rng(2)
    q, qd, qdd = states(rng, 6)
    q[:, 2] = rng.uniform(0.3, 1.2, 6)  # boom travel
    close(D.rne(mapped, q, qd, qdd), theirs.rne(q, qd, qdd))
    close(D.inertia(mapped, q), theirs.inertia(q))
    close(D.gravload(mapped, q), theirs.gravload(q))
    # and the library model itself against RTB-Py rebuilt from it
    close(D.rne(stanford, q, qd, qdd), to_rtb(stanford).rne(q, qd, qdd))


def test_puma560akb_modified_against_rtb(puma_akb):
    assert puma_akb.is_mdh
    theirs = to_rtb(puma_akb)
    rng = np.random.default_rng(3)
    q, qd, qdd = states(rng, 6)
    close(D.rne(puma_akb, q, qd, qdd), theirs.rne(q, qd, qdd))
    close(D.inertia(puma_akb, q), theirs.inertia(q))
    close(D.gravload(puma_akb, q), theirs.gravload(q))
    close(D.coriolis(puma_akb, q[0], qd[0]), theirs.coriolis(q[0], qd[0]))


@pytest.mark.parametrize("spec", [
    dict(n=6, mdh=False, base=True), dict(n=6, mdh=True, base=True),
    dict(n=5, mdh=False, prismatic=(0, 2)), dict(n=5, mdh=True, prismatic=(1, 4)),
    dict(n=7, mdh=False, prismatic=(3,)), dict(n=7, mdh=True),
])
def test_random_robots_against_rtb(spec):
    robot = random_robot(np.random.default_rng(sum(spec["prismatic"]) if "prismatic" in spec
                                                else spec["n"] + spec["mdh"]), **spec)
    theirs = to_rtb(robot)
    rng = np.random.default_rng(4)
    q, qd, qdd = states(rng, robot.n)
    close(D.rne(robot, q, qd, qdd), theirs.rne(q, qd, qdd))
    close(D.inertia(robot, q), theirs.inertia(q))
    close(D.gravload(robot, q), theirs.gravload(q))
    # a tilted gravity: RTB-Py's pure-Python rne (its C rne mishandles x/y gravity
    # components on some models: for a prismatic first joint along z and g along x it
    # reports a force on that joint, where its rne_python and robogui give zero)
    g = np.array([1.0, -2.0, -9.0])
    tau_g = D.rne(robot, q, qd, qdd, gravity=g)
    for k in range(2):
        close(tau_g[k], theirs.rne_python(q[k], qd[k], qdd[k], gravity=g))
    # an end-effector wrench (these robots have no tool: RTB-Py applies fext in the last
    # link frame and ignores the tool, robogui at the tool point, see jacobe)
    F = rng.normal(size=(2, 6))
    tau_f = D.rne(robot, q[:2], qd[:2], qdd[:2], fext=F)
    for k in range(2):
        close(tau_f[k], theirs.rne(q[k], qd[k], qdd[k], fext=F[k]))


# -- Pinocchio -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed,spec", [
    (10, dict(n=6)), (11, dict(n=6, base=True, tool=True)), (12, dict(n=4, prismatic=(1,))),
    (13, dict(n=7, prismatic=(0, 5), base=True, tool=True)),
])
def test_random_robots_against_pinocchio(seed, spec):
    robot = random_robot(np.random.default_rng(seed), motors=False, **spec)
    model, tool_in_last = to_pinocchio(robot)
    data = model.createData()
    rng = np.random.default_rng(seed + 100)
    q, qd, qdd = states(rng, robot.n, 5)
    tau = D.rne(robot, q, qd, qdd)
    M = D.inertia(robot, q)
    G = D.gravload(robot, q)
    Cqd = D.coriolis_torque(robot, q, qd)
    F = rng.normal(size=(5, 6))
    tau_f = D.rne(robot, q, qd, qdd, fext=F)
    for k in range(5):
        close(tau[k], pin.rnea(model, data, q[k], qd[k], qdd[k]))
        Mp = pin.crba(model, data, q[k])
        Mp = np.triu(Mp) + np.triu(Mp, 1).T
        close(M[k], Mp)
        close(G[k], pin.computeGeneralizedGravity(model, data, q[k]))
        close(Cqd[k], pin.nonLinearEffects(model, data, q[k], qd[k]) - G[k])
        Cp = pin.computeCoriolisMatrix(model, data, q[k], qd[k])
        close(D.coriolis(robot, q[k], qd[k]) @ qd[k], Cp @ qd[k])
        # the arm pushes on the environment with F: the environment pushes back with -F
        ext = [pin.Force.Zero() for _ in range(model.njoints)]
        ext[-1] = tool_in_last.act(pin.Force(-F[k, :3], -F[k, 3:]))
        close(tau_f[k], pin.rnea(model, data, q[k], qd[k], qdd[k], ext))


def test_asada_and_cinertia_against_rtb(puma):
    """Asada's dynamic manipulability and the Cartesian inertia on RTB-Py's own Puma560."""
    from robogui.engine.dynamics.manipulability import manipulability

    theirs = rtb.models.DH.Puma560()
    q = np.random.default_rng(5).uniform(-1, 1, (5, 6))
    for axes in ("all", "trans", "rot"):
        close(manipulability(puma, q, method="asada", axes=axes),
              np.array([theirs.manipulability(x, method="asada", axes=axes) for x in q]))
    # RTB-Py's inertia_x (its cinertia; geometric Jacobian with representation=None) sees
    # its 0.6718 m pedestal through jacob0: compare on robogui's Puma with the same d1
    pedestal = puma.with_links([puma.links[0].replace(d=theirs.links[0].d), *puma.links[1:]])
    Mx = np.array([theirs.inertia_x(x, representation=None) for x in q])
    close(D.cinertia(pedestal, q), Mx, rel=1e-9)
