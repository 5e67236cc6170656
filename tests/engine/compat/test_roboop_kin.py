"""ROBOOP member functions: jacobian(endlink, ref), jacob_dot(frame), kine_pd, ikine(end),
inv_kin_rhino, init-matrix constructors and immobile (locked) joints."""

from pathlib import Path

import numpy as np
import pytest

from robogui import load_robot
from robogui.engine.compat.roboop import inv_kin_rhino, jacobian, kine, kine_pd, robot_from_init
from robogui.engine.compat.robot_tools import numjac
from robogui.engine.model.immobile import expand_q
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.spatial.transforms import rotx
from robogui.io.legacy.roboop import read_roboop
from robogui.io.robotfile import robot_from_toml, robot_to_toml

LEGACY = Path(__file__).parents[2] / "data" / "legacy"
Q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])
QD = np.array([0.2, 0.1, -0.3, 0.4, 0.5, -0.1])


def test_jacobian_of_intermediate_links_by_differences():
    puma = load_robot("puma560").with_tool([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0.1],
                                            [0, 0, 0, 1]])
    F = puma.fkine_all(Q)
    for k in (2, 3, 6):
        # the velocity of link frame k's origin, by central differences of fkine_all
        # (link frame 6 is the wrist centre, without the tool)
        J = numjac(lambda q, k=k: puma.fkine_all(q)[k] @ (np.linalg.inv(puma.tool) if k == 6
                                                          else np.eye(4)),
                   Q, SE=3, central=True, dx=1e-6)
        np.testing.assert_allclose(puma.jacob0(Q, end=k), J, atol=1e-8)
        np.testing.assert_array_equal(puma.jacob0(Q, end=k)[:, k:], 0)
        R = F[k, :3, :3] if k < 6 else (F[6] @ np.linalg.inv(puma.tool))[:3, :3]
        Je = np.vstack([R.T @ J[:3], R.T @ J[3:]])
        np.testing.assert_allclose(puma.jacobe(Q, end=k), Je, atol=1e-8)
        # ROBOOP jacobian(endlink, ref): ref 0 is jacob0, ref = endlink is jacobe
        np.testing.assert_allclose(jacobian(puma, Q, k, 0), puma.jacob0(Q, end=k), atol=1e-15)
        np.testing.assert_allclose(jacobian(puma, Q, k, k), puma.jacobe(Q, end=k), atol=1e-14)
    # batched and from frames
    Qm = np.vstack([Q, -Q])
    np.testing.assert_allclose(puma.jacob0(Qm, end=3)[1], puma.jacob0(-Q, end=3), atol=1e-15)
    np.testing.assert_allclose(puma.jacob0(Qm, frames=puma.fkine_all(Qm), end=6),
                               puma.jacob0(Qm, end=6), atol=1e-14)
    with pytest.raises(ValueError, match=r"1\.\.6"):
        puma.jacob0(Q, end=7)


def test_jacob_dot_in_other_frames():
    puma = load_robot("puma560")
    Jd = puma.jacob_dot(Q, QD)
    F = puma.fkine_all(Q)
    for frame, R in (("end", F[6, :3, :3]), (3, F[3, :3, :3]), (0, F[0, :3, :3])):
        np.testing.assert_allclose(puma.jacob_dot(Q, QD, frame=frame),
                                   np.vstack([R.T @ Jd[:3], R.T @ Jd[3:]]), atol=1e-14)
    with pytest.raises(ValueError, match="frame"):
        puma.jacob_dot(Q, QD, frame="tool")


def test_kine_and_kine_pd():
    puma = load_robot("puma560")
    np.testing.assert_allclose(kine(puma, Q, 3), puma.fkine_all(Q)[3])
    k = kine_pd(puma, Q, QD)
    h = 1e-6
    pd = (puma.fkine(Q + h * QD)[:3, 3] - puma.fkine(Q - h * QD)[:3, 3]) / (2 * h)
    np.testing.assert_allclose(k.T, puma.fkine(Q))
    np.testing.assert_allclose(k.pd, pd, atol=1e-8)
    np.testing.assert_allclose(np.r_[k.pd, k.w], puma.jacob0(Q) @ QD, atol=1e-14)
    k2 = kine_pd(puma, np.vstack([Q, Q]), np.vstack([QD, 2 * QD]), j=2)
    np.testing.assert_allclose(k2.pd[1], 2 * k2.pd[0])


def test_ikine_end_link():
    puma = load_robot("puma560")
    target = puma.fkine_all(Q)[3]  # link frame 3: position reachable by joints 1-3
    res = puma.ikine(target, q0=np.r_[Q[:3] + 0.2, 1, 2, 3], mask=[1, 1, 1, 0, 0, 0], end=3)
    assert res.success
    np.testing.assert_allclose(puma.fkine_all(res.q)[3][:3, 3], target[:3, 3], atol=1e-9)
    np.testing.assert_array_equal(res.q[3:], [1, 2, 3])  # the other joints keep q0


def test_inv_kin_rhino_round_trip():
    rhino = load_robot("rhino")
    Qr = rhino.random_q(300, seed=3)
    res = inv_kin_rhino(rhino, rhino.fkine(Qr), q_now=Qr)
    assert np.all(res.converge)
    np.testing.assert_allclose(np.angle(np.exp(1j * (res.q - Qr))), 0, atol=1e-10)
    # soft home position (Schilling): one pose
    qr = rhino.pose("qr")
    one = inv_kin_rhino(rhino, rhino.fkine(qr), q_now=qr)
    assert one.converge
    np.testing.assert_allclose(one.q, qr, atol=1e-12)
    # the other elbow, chosen by the current q3 sign, reaches the same pose
    other = inv_kin_rhino(rhino, rhino.fkine(qr), q_now=-qr)
    assert other.converge and other.q[2] < 0
    np.testing.assert_allclose(rhino.fkine(other.q), rhino.fkine(qr), atol=1e-12)
    # out of reach, and an orientation a 5-axis arm cannot take
    far = rhino.fkine(qr).copy()
    far[:3, 3] *= 10
    assert not inv_kin_rhino(rhino, far).converge
    tilted = rhino.fkine(qr)  # approach turned out of the arm's vertical plane
    tilted[:3, :3] = rotx(0.3) @ tilted[:3, :3]
    assert not inv_kin_rhino(rhino, tilted, q_now=qr).converge
    with pytest.raises(ValueError, match="Rhino-like"):
        inv_kin_rhino(load_robot("puma560"), np.eye(4))


def _init_matrix(robot):
    rows = []
    for L in robot.links:
        lo, hi = L.qlim if L.qlim is not None else (0, 0)
        I = L.I  # noqa: E741
        rows.append([L.sigma, L.theta, L.d, L.a, L.alpha, lo, hi, L.offset, L.m, *L.r,
                     I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2], L.Jm, L.G, L.B,
                     L.Tc[0], 0])
    return np.array(rows)


def test_constructors_from_init_matrices():
    puma = load_robot("puma560").with_links(
        [L.replace(Tc=(L.Tc[0], -L.Tc[0])) for L in load_robot("puma560").links])
    M23 = _init_matrix(puma)
    r23 = robot_from_init(M23, base=puma.base)
    r19 = robot_from_init(M23[:, :19], M23[:, 18:22], base=puma.base)
    for r in (r23, r19):
        np.testing.assert_allclose(r.rne(Q, QD, QD), puma.rne(Q, QD, QD), rtol=1e-12)
        np.testing.assert_allclose(r.fkine(Q), puma.fkine(Q), atol=1e-15)
    bare = robot_from_init(M23[:, :19], base=puma.base)  # motor inertia only, G = 1
    assert [L.G for L in bare.links] == [1.0] * 6 and bare.links[0].Jm == puma.links[0].Jm
    M23[4, 22] = 1  # joint 5 immobile, at its initial value theta = 0.3
    M23[4, 1] = 0.3
    locked = robot_from_init(M23, base=puma.base)
    assert locked.n == 5
    np.testing.assert_allclose(locked.fkine(np.delete(Q, 4)), puma.fkine(np.r_[Q[:4], 0.3, Q[5]]),
                               atol=1e-15)
    with pytest.raises(ValueError, match="ndof x 19 or ndof x 23"):
        robot_from_init(np.zeros((2, 20)))
    with pytest.raises(ValueError, match="initmotor"):
        robot_from_init(M23[:, :19], np.zeros((6, 3)))


def test_locked_joints_exact():
    for name in ("puma560", "puma560akb", "stanford"):
        r = load_robot(name).nofriction()
        locked = {1: 0.3, 4: -0.2, 5: 0.1}
        rl = r.lock(locked)
        assert rl.n == 3 and "locked" in rl.name
        rng = np.random.default_rng(0)
        qf, qd, qdd = rng.uniform(-1, 1, (3, 4, 3))
        q = expand_q(r, locked, qf)
        zero = {k: 0.0 for k in locked}
        free = [0, 2, 3]
        np.testing.assert_allclose(rl.fkine(qf), r.fkine(q), atol=1e-15)
        np.testing.assert_allclose(rl.jacob0(qf), r.jacob0(q)[:, :, free], atol=1e-15)
        # the locked links' bodies ride on the previous free link: same torques
        np.testing.assert_allclose(rl.rne(qf, qd, qdd),
                                   r.rne(q, expand_q(r, zero, qd), expand_q(r, zero, qdd))[:, free],
                                   rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(rl.inertia(qf), r.inertia(q)[:, free][:, :, free],
                                   rtol=1e-12, atol=1e-14)
    # the first joint locked: its body joins the base
    r = load_robot("puma560")
    r0 = r.lock({0: 0.5})
    np.testing.assert_allclose(r0.fkine(Q[1:]), r.fkine(np.r_[0.5, Q[1:]]), atol=1e-15)
    assert r0.pose("qr").shape == (5,)
    with pytest.raises(ValueError, match="every joint is locked"):
        Robot([Link(a=1)]).lock({0: 0.1})
    with pytest.raises(ValueError, match="index"):
        r.lock({6: 0.1})


def test_immobile_from_conf_and_robot_file():
    text = (LEGACY / "puma560_std_dh.conf").read_text()
    # link 3 immobile at theta = 0.25
    sec = text.index("[PUMA560_STD_LINK3]")
    part = text[sec:].replace("immobile:     0", "immobile:     1", 1)
    part = part.replace("theta:        0.0", "theta:        0.25", 1)
    robot, warns = read_roboop(None, text=text[:sec] + part)
    full, _ = read_roboop(None, text=text)
    assert robot.n == 5 and any("immobile" in w for w in warns)
    np.testing.assert_allclose(robot.fkine(np.delete(Q, 2)), full.fkine(np.r_[Q[:2], 0.25, Q[3:]]),
                               atol=1e-15)
    toml = robot_to_toml(load_robot("puma560"))
    k = toml.index("[[links]]", toml.index("[[links]]") + 1)  # the second link
    assert 'units = "rad"' in toml
    edited = toml[:k] + toml[k:].replace('joint = "R"', 'joint = "R"\nlocked = 0.5', 1)
    locked = robot_from_toml(edited)
    assert locked.n == 5
    np.testing.assert_allclose(locked.fkine(np.delete(Q, 1)),
                               load_robot("puma560").fkine(np.r_[Q[0], 0.5, Q[2:]]), atol=1e-15)
    with pytest.raises(ValueError, match="locked"):
        robot_from_toml(edited.replace("locked = 0.5", 'locked = "x"'))


def test_fext_is_roboops_fext_next():
    # ROBOOP adds J_n^T [Fext; Next] (frame n): with no tool that is jacobe^T fext
    puma = load_robot("puma560")
    w = np.array([10.0, -5.0, 3.0, 0.5, -0.2, 1.0])
    tau = puma.rne(Q, np.zeros(6), np.zeros(6), gravity=[0, 0, 0], fext=w)
    np.testing.assert_allclose(tau, jacobian(puma, Q, 6, 6).T @ w, atol=1e-12)


def test_reduced_robot_is_not_written_as_robot_file():
    with pytest.raises(ValueError, match="general joint"):
        robot_to_toml(load_robot("puma560").lock({2: 0.1}))
