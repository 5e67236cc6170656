"""Link(flip=True): a reversed joint axis, in kinematics, Jacobians, dynamics, symbolic."""

import numpy as np
import pytest
import roboticstoolbox as rtb

from robogui import load_robot
from robogui.engine.compat.robot_tools import numjac
from robogui.engine.kinematics.symbolic import evaluate
from robogui.io.robotfile import robot_from_toml, robot_to_toml

FLIPS = [False, True, False, False, True, False]
Q = np.array([0.1, -0.5, 0.3, 0.2, 0.4, -0.7])
QD = np.array([0.3, -0.2, 0.5, 0.1, -0.4, 0.2])
QDD = np.array([1, 0.5, -0.3, 0.2, 0.1, -1.0])


def _flipped(name="puma560", flips=FLIPS, **kw):
    r = load_robot(name)
    return r.with_links([L.replace(flip=f, **kw) for L, f in zip(r.links, flips, strict=True)])


def _rtb_puma(flips):
    R0 = rtb.models.DH.Puma560()
    return rtb.DHRobot([rtb.RevoluteDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset, flip=f)
                        for L, f in zip(R0.links, flips, strict=True)])


def test_kinematics_match_rtb_flip():
    # roboticstoolbox-python's Puma has the 0.6718 m pedestal in d1, robogui's d1 is 0
    puma = load_robot("puma560")
    rf = puma.with_links([L.replace(flip=f, d=0.67183 if j == 0 else L.d)
                          for j, (L, f) in enumerate(zip(puma.links, FLIPS, strict=True))])
    R = _rtb_puma(FLIPS)
    np.testing.assert_allclose(rf.fkine(Q), R.fkine(Q).A, atol=1e-12)
    np.testing.assert_allclose(rf.fkine(np.vstack([Q, -Q]))[1], R.fkine(-Q).A, atol=1e-12)
    np.testing.assert_allclose(rf.jacob0(Q), R.jacob0(Q), atol=1e-12)
    np.testing.assert_allclose(rf.jacob0(np.vstack([Q, Q]))[1], R.jacob0(Q), atol=1e-12)
    np.testing.assert_allclose(rf.jacobe(Q), R.jacobe(Q), atol=1e-12)
    np.testing.assert_allclose(rf.jacob0(Q, frames=rf.fkine_all(Q)), R.jacob0(Q), atol=1e-12)
    # the flipped joint's q turns the other way: flipping joint 2 and negating q2 is neutral
    plain = load_robot("puma560")
    np.testing.assert_allclose(rf.links[1].A(0.3), plain.links[1].A(-0.3), atol=1e-15)


def test_jacob_dot_and_dTdqi_by_differences():
    rf = _flipped()
    h = 1e-6
    num = (rf.jacob0(Q + h * QD) - rf.jacob0(Q - h * QD)) / (2 * h)
    np.testing.assert_allclose(rf.jacob_dot(Q, QD), num, atol=1e-7)
    e = np.zeros(6)
    e[1] = h
    np.testing.assert_allclose(rf.dTdqi(Q, 1), (rf.fkine(Q + e) - rf.fkine(Q - e)) / (2 * h),
                               atol=1e-8)


def test_ikine_with_flipped_joints():
    rf = _flipped()
    sol = rf.ikine(rf.fkine(Q), q0=Q + 0.1)
    np.testing.assert_allclose(rf.fkine(sol.q), rf.fkine(Q), atol=1e-9)


def test_dynamics_consistent_with_energy():
    # roboticstoolbox-python's rne ignores flip, so the oracle is energy: G = dPE/dq,
    # M from the kinetic energy, and rne(q) = S rne_unflipped(S q) without friction
    rf = _flipped().nofriction()
    G = numjac(lambda x: np.atleast_1d(rf.potential_energy(x)), Q, central=True, dx=1e-6)
    np.testing.assert_allclose(rf.gravload(Q), G.ravel(), atol=1e-6)
    np.testing.assert_allclose(rf.gravload(np.vstack([Q, Q]))[1], G.ravel(), atol=1e-6)
    S = np.where(FLIPS, -1.0, 1.0)
    plain = load_robot("puma560").nofriction()
    np.testing.assert_allclose(rf.rne(Q, QD, QDD), S * plain.rne(S * Q, S * QD, S * QDD),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rf.rne(np.vstack([Q, Q]), QD, QDD)[0], rf.rne(Q, QD, QDD),
                               rtol=1e-12)
    M = rf.inertia(Q)
    np.testing.assert_allclose(M, S[:, None] * plain.inertia(S * Q) * S, rtol=1e-12)
    assert rf.kinetic_energy(Q, QD) == pytest.approx(0.5 * QD @ M @ QD, rel=1e-12)
    np.testing.assert_allclose(rf.accel(Q, QD, rf.rne(Q, QD, QDD)), QDD, atol=1e-9)


def test_symbolic_and_robot_file():
    rf = _flipped()
    T, J = evaluate(rf, Q)[:2]
    np.testing.assert_allclose(T, rf.fkine(Q), atol=1e-12)
    np.testing.assert_allclose(J, rf.jacob0(Q), atol=1e-12)
    text = robot_to_toml(rf)
    assert "flip = true" in text
    again = robot_from_toml(text)
    assert [L.flip for L in again.links] == FLIPS
    with pytest.raises(ValueError, match="flip"):
        robot_from_toml(text.replace("flip = true", "flip = 1", 1))
