"""Inverse dynamics: structural properties, finite differences, conventions and bad input.

Independent derivations (sympy Lagrangian) are in test_dynamics_symbolic.py and the
roboticstoolbox-python / Pinocchio oracles in test_dynamics_oracle.py.
"""

import math

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics import dynamics as D
from robogui.engine.dynamics import dynamics_linear as DL
from robogui.engine.kinematics.jacobians import jacob0, jacobe
from robogui.engine.spatial.transforms import rpy2tr, transl


def random_inertia(rng):
    A = rng.normal(size=(3, 3)) * 0.3
    return A @ A.T + 0.01 * np.eye(3)


def random_robot(rng, n, mdh=False, prismatic=(), motors=True, tool=False, base=False):
    """A random arm; some twists are exactly 0 or +-90 deg to exercise constant folding."""
    links = []
    for j in range(n):
        joint = "P" if j in prismatic else "R"
        alpha = rng.choice([0.0, math.pi / 2, -math.pi / 2, rng.uniform(-3, 3)])
        links.append(Link(
            joint=joint, theta=rng.uniform(-3, 3), d=rng.choice([0.0, rng.uniform(-1, 1)]),
            a=rng.choice([0.0, rng.uniform(-1, 1)]), alpha=alpha, mdh=mdh,
            offset=rng.uniform(-0.5, 0.5), qlim=(-1.0, 1.0) if joint == "P" else None,
            m=rng.uniform(0.5, 5), r=rng.uniform(-0.3, 0.3, 3), I=random_inertia(rng),
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


def states(rng, n, m):
    return (rng.uniform(-1.5, 1.5, (m, n)), rng.uniform(-2, 2, (m, n)),
            rng.uniform(-3, 3, (m, n)))


ROBOTS = [
    dict(n=3, mdh=False), dict(n=4, mdh=True), dict(n=5, mdh=False, prismatic=(1, 3)),
    dict(n=4, mdh=True, prismatic=(0, 2)), dict(n=6, mdh=False, tool=True, base=True),
    dict(n=6, mdh=True, tool=True, base=True, prismatic=(2,)),
]


@pytest.fixture(params=range(len(ROBOTS)), ids=lambda i: f"robot{i}")
def robot(request):
    return random_robot(np.random.default_rng(100 + request.param), **ROBOTS[request.param])


def num_diff(f, x, h=1e-6):
    """Central differences of f (returning (k,)) at x (n,): (k, n)."""
    cols = []
    for j in range(x.size):
        e = np.zeros_like(x)
        e[j] = h
        cols.append((f(x + e) - f(x - e)) / (2 * h))
    return np.stack(cols, axis=-1)


# -- structure of the equation of motion ---------------------------------------------------
def test_inertia_symmetric_positive_definite(robot, puma):
    rng = np.random.default_rng(1)
    for r in (robot, puma):
        M = D.inertia(r, rng.uniform(-2, 2, (50, r.n)))
        assert M.shape == (50, r.n, r.n)
        np.testing.assert_allclose(M, np.swapaxes(M, 1, 2), atol=1e-12)
        assert np.linalg.eigvalsh(M).min() > 0


def test_rne_parts_add_up(robot):
    rng = np.random.default_rng(2)
    q, qd, qdd = states(rng, robot.n, 20)
    tau = D.rne(robot, q, qd, qdd)
    M = D.inertia(robot, q)
    C = D.coriolis(robot, q, qd)
    G = D.gravload(robot, q)
    F = D.friction(robot, qd)
    expect = np.einsum("mij,mj->mi", M, qdd) + np.einsum("mij,mj->mi", C, qd) + G - F
    np.testing.assert_allclose(tau, expect, atol=1e-9 * (1 + np.abs(tau).max()))
    # rne(q, 0, qdd) - gravload(q) == M qdd (friction vanishes at rest)
    np.testing.assert_allclose(D.rne(robot, q, 0 * qd, qdd) - G,
                               np.einsum("mij,mj->mi", M, qdd), atol=1e-10 * (1 + abs(M).max()))
    comp = D.torque_components(robot, q, qd, qdd)
    np.testing.assert_allclose(comp.total, tau, atol=1e-10 * (1 + np.abs(tau).max()))
    np.testing.assert_allclose(comp.coriolis, np.einsum("mij,mj->mi", C, qd), atol=1e-9)
    np.testing.assert_allclose(comp.friction, -F)
    np.testing.assert_allclose(D.coriolis_torque(robot, q, qd), comp.coriolis, atol=1e-9)
    np.testing.assert_allclose(D.itorque(robot, q, qdd), comp.inertial, atol=1e-10)
    assert set(comp.as_dict()) == {"gravity", "inertial", "coriolis", "friction"}
    one = D.torque_components(robot, q[3], qd[3], qdd[3])
    for name, part in one.as_dict().items():
        assert part.shape == (robot.n,)
        np.testing.assert_allclose(part, comp.as_dict()[name][3], atol=1e-10)


def test_mdot_minus_2c_is_skew_symmetric(robot):
    rng = np.random.default_rng(3)
    q, qd, _ = states(rng, robot.n, 5)
    h = 1e-6
    Mdot = (D.inertia(robot, q + h * qd) - D.inertia(robot, q - h * qd)) / (2 * h)
    N = Mdot - 2 * D.coriolis(robot, q, qd)
    np.testing.assert_allclose(N, -np.swapaxes(N, 1, 2), atol=1e-6 * (1 + abs(Mdot).max()))


def test_coriolis_is_quadratic_in_velocity(robot):
    rng = np.random.default_rng(4)
    q, qd, _ = states(rng, robot.n, 3)
    np.testing.assert_allclose(D.coriolis_torque(robot, q, 3 * qd),
                               9 * D.coriolis_torque(robot, q, qd), rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(D.coriolis(robot, q, 3 * qd), 3 * D.coriolis(robot, q, qd),
                               rtol=1e-9, atol=1e-9)


def test_gravload_is_gradient_of_potential_energy(robot):
    rng = np.random.default_rng(5)
    for q in rng.uniform(-1.5, 1.5, (3, robot.n)):
        grad = num_diff(lambda x: np.atleast_1d(D.potential_energy(robot, x)), q)[0]
        np.testing.assert_allclose(D.gravload(robot, q), grad, atol=1e-6)


def test_kinetic_energy_includes_armature(puma):
    rng = np.random.default_rng(6)
    q, qd, _ = states(rng, 6, 4)
    T = D.kinetic_energy(puma, q, qd)
    M = D.inertia(puma, q)
    np.testing.assert_allclose(T, 0.5 * np.einsum("mi,mij,mj->m", qd, M, qd))
    arm = D.motor_inertia(puma)
    G = np.array([L.G for L in puma.links])
    np.testing.assert_allclose(arm, [L.Jm for L in puma.links] * G ** 2)
    rigid = 0.5 * np.einsum("mi,mij,mj->m", qd, M - np.diag(arm), qd)
    np.testing.assert_allclose(T - rigid, 0.5 * (qd ** 2 * arm).sum(axis=1))
    assert isinstance(D.kinetic_energy(puma, q[0], qd[0]), float)


def test_two_link_textbook_equations(twolink):
    """Spong and Vidyasagar's two-link arm with unit point masses at the distal joints:
    M = [[3 + 2 c2, 1 + c2], [1 + c2, 1]], Coriolis h = -s2, gravity g (2 c1 + c12, c12),
    in the vertical plane (the file's base turns the D-H plane upright)."""
    g = 9.81
    rng = np.random.default_rng(13)
    for q, qd, qdd in zip(*states(rng, 2, 5), strict=True):
        c1, c2, s2, c12 = math.cos(q[0]), math.cos(q[1]), math.sin(q[1]), math.cos(q.sum())
        M = np.array([[3 + 2 * c2, 1 + c2], [1 + c2, 1.0]])
        cor = np.array([-s2 * (2 * qd[0] * qd[1] + qd[1] ** 2), s2 * qd[0] ** 2])
        grav = g * np.array([2 * c1 + c12, c12])
        np.testing.assert_allclose(D.inertia(twolink, q), M, atol=1e-12)
        np.testing.assert_allclose(D.coriolis_torque(twolink, q, qd), cor, atol=1e-12)
        np.testing.assert_allclose(D.gravload(twolink, q), grav, atol=1e-12)
        np.testing.assert_allclose(D.rne(twolink, q, qd, qdd), M @ qdd + cor + grav,
                                   atol=1e-12)
        pe = g * (2 * math.sin(q[0]) + math.sin(q.sum()))
        assert D.potential_energy(twolink, q) == pytest.approx(pe, abs=1e-12)


# -- conventions: gravity, base, external wrench, friction --------------------------------
def test_external_wrench_equals_jacobian_transpose(robot):
    rng = np.random.default_rng(7)
    q = rng.uniform(-1.5, 1.5, (4, robot.n))
    F = rng.normal(size=(4, 6))
    zero = np.zeros_like(q)
    tau = D.rne(robot, q, zero, zero, fext=F)
    expect = D.gravload(robot, q) + np.einsum("mji,mj->mi", jacobe(robot, q), F)
    np.testing.assert_allclose(tau, expect, atol=1e-9)
    # one wrench for all samples, and the single-state form
    tau1 = D.rne(robot, q, zero, zero, fext=F[0])
    np.testing.assert_allclose(tau1[2], D.gravload(robot, q[2]) + jacobe(robot, q[2]).T @ F[0],
                               atol=1e-9)
    np.testing.assert_allclose(D.rne(robot, q[2], zero[2], zero[2], fext=F[0]), tau1[2],
                               atol=1e-10)


def test_gravity_sign_and_override(puma):
    q = puma.pose("qz")  # arm horizontal along x: shoulder holds the arm up
    tau = D.gravload(puma, q)
    assert tau[1] > 10  # positive holding torque about the shoulder
    np.testing.assert_allclose(D.gravload(puma, q, gravity=[0, 0, 0]), 0, atol=1e-12)
    np.testing.assert_allclose(D.gravload(puma, q, gravity=[0, 0, 9.81]), -tau, atol=1e-12)
    np.testing.assert_allclose(D.gravload(puma, q, gravity=2 * puma.gravity), 2 * tau)
    np.testing.assert_allclose(D.rne(puma, q, 0 * q, 0 * q, gravity=[0, 0, 0]), 0, atol=1e-12)


def test_base_rotation_rotates_gravity(robot):
    rng = np.random.default_rng(8)
    q, qd, qdd = states(rng, robot.n, 3)
    T = rpy2tr([0.3, -0.7, 1.1])
    rotated = robot.with_base(T @ robot.base)
    g = T[:3, :3] @ robot.gravity  # same gravity relative to the arm
    np.testing.assert_allclose(D.rne(rotated, q, qd, qdd, gravity=g),
                               D.rne(robot, q, qd, qdd), atol=1e-9)
    # a base translation changes nothing
    np.testing.assert_allclose(D.rne(robot.with_base(transl(1, 2, 3) @ robot.base), q, qd, qdd),
                               D.rne(robot, q, qd, qdd), atol=1e-12)


def test_friction_values_puma(puma):
    L = puma.links[0]
    G, B, (tp, tm) = abs(L.G), L.B, L.Tc
    qd = np.zeros(6)
    for v, tc in ((1.5, tp), (-1.5, tm), (0.0, 0.0)):
        qd[0] = v
        f = D.friction(puma, qd)
        assert f[0] == pytest.approx(-G * (B * G * v + tc), rel=1e-14, abs=1e-15)
    assert D.friction(puma, np.ones(6))[0] < 0  # opposes the motion
    # rne subtracts it: the motor supplies the friction torque
    q = puma.pose("qn")
    qd = np.array([1.0, -1, 0.5, 0, 2, -2])
    d = D.rne(puma, q, qd, 0 * q) - D.rne(puma.nofriction(viscous=True), q, qd, 0 * q)
    np.testing.assert_allclose(d, -D.friction(puma, qd), atol=1e-10)
    assert np.all(D.friction(puma.nofriction(viscous=True), qd) == 0)
    assert D.friction(puma, np.ones((3, 6))).shape == (3, 6)


def test_armature_on_diagonal(puma):
    q = puma.pose("qn")
    no_motor = puma.with_links([L.replace(Jm=0.0) for L in puma.links])
    dM = D.inertia(puma, q) - D.inertia(no_motor, q)
    np.testing.assert_allclose(dM, np.diag(D.motor_inertia(puma)), atol=1e-12)


# -- batching and the single-state paths -----------------------------------------------------
def test_single_state_paths_match_batched(robot):
    rng = np.random.default_rng(9)
    q, qd, qdd = states(rng, robot.n, 4)
    tau = D.rne(robot, q, qd, qdd)
    M = D.inertia(robot, q)
    G = D.gravload(robot, q)
    for k in range(4):
        np.testing.assert_allclose(D.rne(robot, q[k], qd[k], qdd[k]), tau[k], atol=1e-10)
        np.testing.assert_allclose(D.rne(robot, list(q[k]), list(qd[k]), list(qdd[k])),
                                   tau[k], atol=1e-10)
        np.testing.assert_allclose(D.inertia(robot, q[k]), M[k], atol=1e-12)
        np.testing.assert_allclose(D.gravload(robot, q[k]), G[k], atol=1e-12)
        np.testing.assert_allclose(D.gravload(robot, list(q[k])), G[k], atol=1e-12)
        np.testing.assert_allclose(D.coriolis(robot, q[k], qd[k]),
                                   D.coriolis(robot, q, qd)[k], atol=1e-12)
    # a single row broadcasts against m rows
    np.testing.assert_allclose(D.rne(robot, q[0], qd, qdd[0]),
                               D.rne(robot, np.tile(q[0], (4, 1)), qd,
                                     np.tile(qdd[0], (4, 1))), atol=1e-12)
    assert D.rne(robot, q[0], qd[0], qdd[0]).shape == (robot.n,)


def test_program_cache_shared_and_not_stale(puma):
    q = puma.pose("qn")
    heavy = puma.with_links([L.replace(m=2 * L.m, I=2 * L.I) for L in puma.links])
    g1, g2 = D.gravload(puma, q), D.gravload(heavy, q)
    np.testing.assert_allclose(g2, 2 * g1, atol=1e-12)
    np.testing.assert_allclose(D.gravload(puma, q), g1)
    # same description, new object: same answer
    again = puma.with_tool(np.eye(4))
    np.testing.assert_allclose(D.gravload(again, q), g1)


# -- Cartesian inertia ---------------------------------------------------------------------
def test_cinertia(puma):
    q = np.array([puma.pose("qn"), [0.1, 0.5, -2.5, 0.3, 0.6, 0.2]])
    Mx = D.cinertia(puma, q)
    J = jacob0(puma, q)
    M = D.inertia(puma, q)
    for k in range(2):
        Ji = np.linalg.inv(J[k])
        np.testing.assert_allclose(Mx[k], Ji.T @ M[k] @ Ji, rtol=1e-9, atol=1e-9)
        # F = Mx xdd: Cartesian force for unit Cartesian acceleration (no velocity)
        xdd = np.array([0.1, -0.2, 0.3, 0.0, 0.1, 0.0])
        qdd = np.linalg.solve(J[k], xdd)
        np.testing.assert_allclose(J[k].T @ (Mx[k] @ xdd), M[k] @ qdd, atol=1e-9)
    np.testing.assert_allclose(D.cinertia(puma, q[0]), Mx[0])
    with pytest.raises(ValueError, match="singular"):
        D.cinertia(puma, puma.pose("qz"))  # wrist singularity (q5 = 0)


def test_cinertia_non_square_uses_pinv():
    r = random_robot(np.random.default_rng(10), 3)
    q = np.array([0.2, -0.4, 0.9])
    Ji = np.linalg.pinv(jacob0(r, q))
    np.testing.assert_allclose(D.cinertia(r, q), Ji.T @ D.inertia(r, q) @ Ji, atol=1e-10)


# -- ROBOOP linearised dynamics against finite differences ------------------------------------
def test_linearised_dynamics_match_finite_differences(robot):
    rng = np.random.default_rng(11)
    q, qd, qdd = (x[0] for x in states(rng, robot.n, 1))
    nf = robot.nofriction()  # Coulomb friction is not differentiable at qd = 0
    S2 = DL.dtau_dq(nf, q, qd, qdd)
    S1 = DL.dtau_dqp(nf, q, qd)
    np.testing.assert_allclose(S2, num_diff(lambda x: D.rne(nf, x, qd, qdd), q), atol=2e-5)
    np.testing.assert_allclose(S1, num_diff(lambda x: D.rne(nf, q, x, qdd), qd), atol=2e-5)
    np.testing.assert_allclose(S1, num_diff(lambda x: D.rne(nf, q, x, 0 * qdd), qd), atol=2e-5)
    M = D.inertia(nf, q)
    dq, dqd, dqdd = rng.normal(size=(3, robot.n))
    tau, dtau = DL.delta_torque(nf, q, qd, qdd, dq, dqd, dqdd)
    np.testing.assert_allclose(tau, D.rne(nf, q, qd, qdd), atol=1e-10)
    np.testing.assert_allclose(dtau, M @ dqdd + S1 @ dqd + S2 @ dq, atol=1e-8)
    tau2, d2 = DL.dq_torque(nf, q, qd, qdd, dq)
    np.testing.assert_allclose(d2, S2 @ dq, atol=1e-9)
    np.testing.assert_allclose(tau2, tau, atol=1e-10)
    tau1, d1 = DL.dqp_torque(nf, q, qd, dqd)
    np.testing.assert_allclose(d1, S1 @ dqd, atol=1e-9)
    np.testing.assert_allclose(tau1, D.rne(nf, q, qd, 0 * qd), atol=1e-10)
    np.testing.assert_allclose(DL.torque_novelocity(nf, q, qdd), M @ qdd, atol=1e-10)


def test_linearised_batched_and_viscous(puma):
    rng = np.random.default_rng(12)
    q, qd, qdd = states(rng, 6, 3)
    S2 = DL.dtau_dq(puma, q, qd, qdd)
    S1 = DL.dtau_dqp(puma, q, qd)
    assert S2.shape == S1.shape == (3, 6, 6)
    for k in range(3):
        np.testing.assert_allclose(S2[k], DL.dtau_dq(puma, q[k], qd[k], qdd[k]), atol=1e-10)
    # viscous friction adds B G^2 to the velocity Jacobian, Coulomb adds nothing
    nf = puma.nofriction(viscous=True)
    BG2 = np.array([L.B * L.G ** 2 for L in puma.links])
    np.testing.assert_allclose(S1 - DL.dtau_dqp(nf, q, qd), np.broadcast_to(np.diag(BG2), S1.shape),
                               atol=1e-10)
    F = np.array([1.0, -2, 3, 0.1, 0.2, -0.3])
    np.testing.assert_allclose(DL.torque_novelocity(puma, q[0], qdd[0], fext=F),
                               D.inertia(puma, q[0]) @ qdd[0] + jacobe(puma, q[0]).T @ F,
                               atol=1e-9)


# -- bad input -----------------------------------------------------------------------------
def test_bad_input(puma):
    q = puma.pose("qn")
    z = np.zeros(6)
    with pytest.raises(ValueError, match=r"q must have shape \(6,\)"):
        D.rne(puma, q[:5], z, z)
    with pytest.raises(ValueError, match="qd"):
        D.rne(puma, q, z[:4], z)
    with pytest.raises(ValueError, match="non-finite"):
        D.gravload(puma, [0, 0, np.nan, 0, 0, 0])
    with pytest.raises(ValueError, match="non-finite"):
        D.rne(puma, q, z, [0, 0, np.inf, 0, 0, 0])
    with pytest.raises(ValueError, match="numeric"):
        D.inertia(puma, ["a"] * 6)
    with pytest.raises(ValueError, match="same number of rows"):
        D.rne(puma, np.zeros((3, 6)), np.zeros((2, 6)), z)
    with pytest.raises(ValueError, match="fext"):
        D.rne(puma, q, z, z, fext=[1, 2, 3])
    with pytest.raises(ValueError, match="fext"):
        D.rne(puma, q, z, z, fext=[1, 2, 3, 4, 5, np.nan])
    with pytest.raises(ValueError, match="gravity"):
        D.gravload(puma, q, gravity=[0, 9.81])
    with pytest.raises(ValueError, match="gravity"):
        D.rne(puma, q, z, z, gravity=[0, 0, np.nan])


def test_robot_without_dynamics_is_refused():
    r = Robot([Link(a=1.0), Link(a=1.0)], name="bare")
    assert not r.has_dynamics
    for f, args in ((D.rne, ([0, 0], [0, 0], [0, 0])), (D.gravload, ([0, 0],)),
                    (D.inertia, ([0, 0],)), (D.coriolis, ([0, 0], [0, 0])),
                    (D.torque_components, ([0, 0], [0, 0], [0, 0])),
                    (D.itorque, ([0, 0], [0, 0])), (D.cinertia, ([0, 0],)),
                    (D.potential_energy, ([0, 0],)), (DL.dtau_dq, ([0, 0], [0, 0], [0, 0]))):
        with pytest.raises(ValueError, match="'bare' has no dynamic parameters"):
            f(r, *args)


def test_bad_link_dynamics_rejected():
    with pytest.raises(ValueError, match="mass"):
        Link(m=-1.0)
    with pytest.raises(ValueError, match="positive semi-definite"):
        Link(m=1.0, I=[1.0, 1.0, -0.5, 0, 0, 0])
    with pytest.raises(ValueError, match="symmetric"):
        Link(m=1.0, I=[[1, 0.5, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ValueError, match="Jm"):
        Link(Jm=-1e-4)


def test_empty_batch_gives_empty_results(puma):
    """m = 0 states (e.g. an empty trajectory) gives empty arrays of the right shape."""
    e = np.zeros((0, 6))
    for f, args, shape in ((D.rne, (e, e, e), (0, 6)), (D.gravload, (e,), (0, 6)),
                           (D.inertia, (e,), (0, 6, 6)), (D.coriolis, (e, e), (0, 6, 6)),
                           (D.coriolis_torque, (e, e), (0, 6)), (D.itorque, (e, e), (0, 6)),
                           (D.cinertia, (e,), (0, 6, 6)), (D.kinetic_energy, (e, e), (0,)),
                           (D.potential_energy, (e,), (0,)), (DL.dtau_dq, (e, e, e), (0, 6, 6)),
                           (DL.dtau_dqp, (e, e), (0, 6, 6))):
        assert np.shape(f(puma, *args)) == shape, f.__name__
    assert D.rne(puma, e, e, e, fext=np.ones(6), gravity=[0, 0, 1]).shape == (0, 6)
    comp = D.torque_components(puma, e, e, e)
    assert all(part.shape == (0, 6) for part in comp.as_dict().values())


def test_puma560_values_published_by_matlab_toolbox(puma):
    """Numbers printed in the Robotics Toolbox for MATLAB's own unit tests
    (TestRobotToolboxSerialLink.m, mdl_puma560: d1 = 0, friction on, 4 decimals) at
    qn = [0 pi/4 -pi 1 pi/4 0]. Its Coriolis matrix is another (non-unique) choice of
    C: only C qd is compared. Asada's measure there is the translational one."""
    from robogui.engine.dynamics.manipulability import manipulability

    qn = np.array([0, math.pi / 4, -math.pi, 1, math.pi / 4, 0])
    qn2 = np.array([0, math.pi / 2, -math.pi, 1, math.pi / 2, 0])
    qz = np.array([0, 1.0, 0, 0, 2, 0])
    ok = lambda a, b: np.testing.assert_allclose(a, b, atol=1e-4)
    ok(D.rne(puma, qn, qz, qz), [-0.9748, 59.1306, 5.9889, -0.0108, 1.8872, 0.0001])
    ok(D.gravload(puma, np.array([qn, qn2])), [[0, 31.6334, 6.0286, -0.0119, 0.0218, 0],
                                               [0, 7.7198, 8.7439, -0.0238, 0, 0]])
    ok(D.itorque(puma, qn, 0.5 * np.ones(6)), [1.6763, 2.1799, 0.6947, 0.0944, 0.0861, 0.0971])
    ok(D.inertia(puma, qn), [[3.6591, -0.4042, 0.1013, -0.0021, -0.0015, 0],
                             [-0.4042, 4.4128, 0.3504, -0.0008, 0.0017, 0],
                             [0.1013, 0.3504, 0.9377, -0.0008, 0.0008, 0],
                             [-0.0021, -0.0008, -0.0008, 0.1925, 0, 0],
                             [-0.0015, 0.0017, 0.0008, 0, 0.1713, 0],
                             [0, 0, 0, 0, 0, 0.1941]])
    ok(D.cinertia(puma, qn), [[18.0741, -2.2763, -8.8446, -0.0283, 0.7541, -0.4015],
                              [-2.2763, 11.2461, 1.7238, -0.0750, 0.2214, -0.4733],
                              [-8.8446, 1.7238, 14.1135, -0.0300, 0.7525, -0.4032],
                              [-0.0283, -0.0750, -0.0300, 0.1377, -0.0171, 0.0492],
                              [0.7541, 0.2214, 0.7525, -0.0171, 0.4612, -0.2461],
                              [-0.4015, -0.4733, -0.4032, 0.0492, -0.2461, 0.3457]])
    C_matlab = np.array([[0, -0.9116, 0.2167, 0.0016, -0.0019, 0],
                         [0.3138, 0, 0.5786, -0.0024, -0.0016, 0],
                         [-0.1805, -0.1929, 0, -0.0006, -0.0025, 0],
                         [0.0003, 0.0009, 0.0003, 0, 0.0007, 0],
                         [0.0001, 0.0001, 0.0008, -0.0006, 0, 0],
                         [0, 0, 0, 0, 0, 0]])
    qd = 0.5 * np.ones(6)
    np.testing.assert_allclose(D.coriolis(puma, qn, qd) @ qd, C_matlab @ qd, atol=3e-4)
    np.testing.assert_allclose(D.coriolis_torque(puma, qn, qd), C_matlab @ qd, atol=3e-4)
    assert manipulability(puma, qn, "asada", "trans") == pytest.approx(0.2733, abs=1e-4)
