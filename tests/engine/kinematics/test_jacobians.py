"""Jacobians against numerical differentiation of fkine and against roboticstoolbox-python."""

import math

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.kinematics.jacobians import (
    dTdqi,
    jacob0,
    jacob_dot,
    jacobe,
    jacobian_dls_inv,
    jacobn,
)
from robogui.engine.kinematics.kinematics import fkine, fkine_all
from tests.engine.kinematics.test_kinematics_batch import CASES, random_robot

H = 1e-6


def vex(S):
    return np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]]) / 2


def numeric_jacob0(robot, q):
    """Central differences of fkine: dp/dq_j and omega_j = vex(dR/dq_j R^T)."""
    T = fkine(robot, q)
    J = np.zeros((6, robot.n))
    for j in range(robot.n):
        dq = np.zeros(robot.n)
        dq[j] = H
        D = (fkine(robot, q + dq) - fkine(robot, q - dq)) / (2 * H)
        J[:3, j] = D[:3, 3]
        J[3:, j] = vex(D[:3, :3] @ T[:3, :3].T)
    return J


def numeric_jacobe(robot, q):
    T = fkine(robot, q)
    J = numeric_jacob0(robot, q)
    R = T[:3, :3]
    return np.vstack([R.T @ J[:3], R.T @ J[3:]])


@pytest.mark.parametrize("case", CASES)
def test_jacobians_match_numerical_differentiation(case):
    robot = random_robot(11, **case)
    q = np.random.default_rng(1).uniform(-1, 1, (4, robot.n))
    J0, Je = jacob0(robot, q), jacobe(robot, q)
    assert J0.shape == Je.shape == (4, 6, robot.n)
    for i in range(4):
        np.testing.assert_allclose(J0[i], numeric_jacob0(robot, q[i]), atol=1e-8)
        np.testing.assert_allclose(Je[i], numeric_jacobe(robot, q[i]), atol=1e-8)
        np.testing.assert_allclose(jacob0(robot, q[i]), J0[i], atol=1e-14)
        np.testing.assert_allclose(jacobe(robot, q[i]), Je[i], atol=1e-14)
        # the same Jacobians from frames given by the caller
        F = fkine_all(robot, q[i])
        np.testing.assert_allclose(jacob0(robot, q[i], frames=F), J0[i], atol=1e-13)
        np.testing.assert_allclose(jacobe(robot, q[i], frames=F), Je[i], atol=1e-13)
    F = fkine_all(robot, q)
    np.testing.assert_allclose(jacob0(robot, q, frames=F), J0, atol=1e-13)
    assert jacobn is jacobe


def rtb_robot(robot):
    import roboticstoolbox as rtb

    links = []
    for L in robot.links:
        kw = dict(a=L.a, alpha=L.alpha, offset=L.offset)
        if L.joint == "R":
            cls = rtb.RevoluteMDH if L.mdh else rtb.RevoluteDH
            links.append(cls(d=L.d, **kw))
        else:
            cls = rtb.PrismaticMDH if L.mdh else rtb.PrismaticDH
            links.append(cls(theta=L.theta, qlim=[-1, 1], **kw))
    return rtb.DHRobot(links, base=robot.base, tool=robot.tool)


@pytest.mark.parametrize("case", [CASES[0], CASES[1], CASES[2], CASES[3]])
def test_jacobians_agree_with_roboticstoolbox(case):
    robot = random_robot(12, **case)
    p = rtb_robot(robot)
    for q in np.random.default_rng(2).uniform(-1, 1, (5, robot.n)):
        np.testing.assert_allclose(fkine(robot, q), p.fkine(q).A, atol=1e-12)
        np.testing.assert_allclose(jacob0(robot, q), p.jacob0(q), atol=1e-12)
        np.testing.assert_allclose(jacobe(robot, q), p.jacobe(q), atol=1e-12)


def test_puma560_jacobians_agree_with_roboticstoolbox():
    import roboticstoolbox as rtb

    p = rtb.models.DH.Puma560()
    robot = Robot([Link(d=L.d, a=L.a, alpha=L.alpha) for L in p.links])
    for q in [p.qr, p.qn, p.qz, *np.random.default_rng(3).uniform(-3, 3, (5, 6))]:
        np.testing.assert_allclose(jacob0(robot, q), p.jacob0(q), atol=1e-13)
        np.testing.assert_allclose(jacobe(robot, q), p.jacobe(q), atol=1e-13)


@pytest.mark.parametrize("case", [CASES[0], CASES[1], CASES[3], CASES[5]])
def test_jacob_dot_is_the_derivative_of_jacob0_along_qd(case):
    robot = random_robot(13, **case)
    rng = np.random.default_rng(4)
    q, qd = rng.uniform(-1, 1, (3, robot.n)), rng.uniform(-1, 1, (3, robot.n))
    Jd = jacob_dot(robot, q, qd)
    assert Jd.shape == (3, 6, robot.n)
    for i in range(3):
        num = (jacob0(robot, q[i] + H * qd[i]) - jacob0(robot, q[i] - H * qd[i])) / (2 * H)
        np.testing.assert_allclose(Jd[i], num, atol=1e-8)
        np.testing.assert_allclose(jacob_dot(robot, q[i], qd[i]), Jd[i], atol=1e-14)


@pytest.mark.parametrize("case", [CASES[0], CASES[3], CASES[5]])
def test_jacob_dot_bias_is_the_second_derivative_of_fkine(case):
    """Along q(t) = q + t qd (qdd = 0): d2p/dt2 and dw/dt are jacob_dot(q, qd) @ qd."""
    robot = random_robot(17, **case)
    rng = np.random.default_rng(7)
    q, qd = rng.uniform(-1, 1, robot.n), rng.uniform(-1, 1, robot.n)
    h = 1e-4

    def pose(t):
        return fkine(robot, q + t * qd)

    acc = (pose(h)[:3, 3] - 2 * pose(0)[:3, 3] + pose(-h)[:3, 3]) / h**2

    def omega(t, d=1e-5):  # vex(dR/dt R^T), by central differences of fkine
        dR = (pose(t + d)[:3, :3] - pose(t - d)[:3, :3]) / (2 * d)
        return vex(dR @ pose(t)[:3, :3].T)

    alpha = (omega(h) - omega(-h)) / (2 * h)
    bias = jacob_dot(robot, q, qd) @ qd
    np.testing.assert_allclose(bias[:3], acc, atol=1e-6)
    np.testing.assert_allclose(bias[3:], alpha, atol=1e-6)
    # and the velocity itself: jacob0 @ qd is the first derivative of fkine
    vel = (pose(H)[:3, 3] - pose(-H)[:3, 3]) / (2 * H)
    np.testing.assert_allclose(jacob0(robot, q)[:3] @ qd, vel, atol=1e-8)
    np.testing.assert_allclose(jacob0(robot, q)[3:] @ qd, omega(0.0), atol=1e-8)


def test_jacob_dot_bias_agrees_with_roboticstoolbox():
    robot = random_robot(14)
    p = rtb_robot(robot)
    rng = np.random.default_rng(5)
    q, qd = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
    np.testing.assert_allclose(jacob_dot(robot, q, qd) @ qd, p.jacob0_dot(q, qd) @ qd,
                               atol=1e-10)


@pytest.mark.parametrize("case", [CASES[0], CASES[1], CASES[3]])
def test_dTdqi_matches_finite_differences(case):
    robot = random_robot(15, **case)
    q = np.random.default_rng(6).uniform(-1, 1, (2, robot.n))
    for i in range(robot.n):
        D = dTdqi(robot, q, i)
        for k in range(2):
            dq = np.zeros(robot.n)
            dq[i] = H
            num = (fkine(robot, q[k] + dq) - fkine(robot, q[k] - dq)) / (2 * H)
            np.testing.assert_allclose(D[k], num, atol=1e-8)
        np.testing.assert_allclose(dTdqi(robot, q[0], i), D[0], atol=1e-14)
    with pytest.raises(ValueError, match="joint index"):
        dTdqi(robot, q[0], robot.n)


def test_dls_inverse_is_the_inverse_away_from_singularities(puma):
    q = np.array([0.1, 0.7, -2.0, 0.4, 1.0, 0.2])
    J = jacob0(puma, q)
    Ji = jacobian_dls_inv(puma, q, eps=1e-4, lambda_max=0.1)
    np.testing.assert_allclose(Ji, np.linalg.inv(J), atol=1e-10)
    # ROBOOP's damping schedule, checked against the SVD written out
    eps, lmax = 0.5, 0.2
    U, S, Vt = np.linalg.svd(J)
    lam2 = 0.0 if S[-1] >= eps else (1 - (S[-1] / eps) ** 2) * lmax**2
    ref = sum(S[i] / (S[i] ** 2 + lam2) * np.outer(Vt[i], U[:, i]) for i in range(6))
    np.testing.assert_allclose(jacobian_dls_inv(puma, q, eps, lmax), ref, atol=1e-12)
    assert jacobian_dls_inv(puma, np.stack([q, q]), eps, lmax).shape == (2, 6, 6)
    # frame="end" (ROBOOP ref = n): the inverse of jacobe
    np.testing.assert_allclose(jacobian_dls_inv(puma, q, 1e-4, 0.1, frame="end"),
                               np.linalg.inv(jacobe(puma, q)), atol=1e-10)


@pytest.mark.parametrize("where", ["wrist", "stretched"])
def test_dls_keeps_joint_steps_bounded_at_singularities(puma, where):
    if where == "wrist":  # q5 = 0: axes 4 and 6 align
        q = np.array([0.2, 0.5, -1.0, 0.3, 0.0, 0.1])
    else:  # full stretch: a3 cos q3 - d4 sin q3 at its maximum
        q = np.array([0.2, 0.5, -math.atan2(puma.links[3].d, puma.links[2].a), 0.3, 0.7, 0.1])
    J = jacob0(puma, q)
    assert np.linalg.svd(J, compute_uv=False)[-1] < 1e-3  # really (nearly) singular
    eps, lmax = 0.05, 0.1
    Ji = jacobian_dls_inv(puma, q, eps, lmax)
    assert np.all(np.isfinite(Ji))
    # each singular value sigma maps to sigma / (sigma^2 + lambda^2) <= 1 / (2 lambda) or 1/eps
    sigma = np.linspace(0, 2, 200001)
    lam2 = np.where(sigma >= eps, 0.0, (1 - (sigma / eps) ** 2) * lmax**2)
    bound = np.max(np.divide(sigma, sigma**2 + lam2, out=np.zeros_like(sigma),
                             where=sigma**2 + lam2 > 0))
    assert np.linalg.norm(Ji, 2) <= bound * (1 + 1e-6)
    dq = Ji @ np.array([0.01, 0.02, -0.01, 0.05, 0.0, 0.03])
    assert np.linalg.norm(dq) < 1.0
    assert np.all(np.isfinite(jacob0(puma, q))) and np.all(np.isfinite(jacobe(puma, q)))


def test_bad_input():
    robot = random_robot(16)
    with pytest.raises(ValueError, match="q must have shape"):
        jacob0(robot, np.zeros(5))
    with pytest.raises(ValueError, match="non-finite"):
        jacobe(robot, [0, 0, np.nan, 0, 0, 0])
    with pytest.raises(ValueError, match="frames must have shape"):
        jacob0(robot, np.zeros(6), frames=np.zeros((6, 4, 4)))
    with pytest.raises(ValueError, match="frames must have shape"):
        jacob0(robot, np.zeros((2, 6)), frames=fkine_all(robot, np.zeros(6)))
    with pytest.raises(ValueError, match="qd must have the same shape"):
        jacob_dot(robot, np.zeros(6), np.zeros((2, 6)))
    with pytest.raises(ValueError, match="eps"):
        jacobian_dls_inv(robot, np.zeros(6), eps=0)
    with pytest.raises(ValueError, match="frame"):
        jacobian_dls_inv(robot, np.zeros(6), frame="tool")
