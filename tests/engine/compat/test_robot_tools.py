"""numjac, todegrees/toradians, isspherical, jointdynamics and Link input forms."""

import numpy as np
import pytest
import roboticstoolbox as rtb
import spatialmath.base as smb

from robogui import load_robot
from robogui.engine.compat.robot_tools import numjac
from robogui.engine.compat.rtb_compat import (
    DHRobot,
    PrismaticDH,
    PrismaticMDH,
    RevoluteDH,
    RevoluteMDH,
)
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.spatial.transforms import rotx

Q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])


def test_numjac_matches_spatialmath_and_analytic():
    f1 = lambda x: rotx(x[0])
    np.testing.assert_allclose(numjac(f1, [0.3], SO=3), smb.numjac(f1, [0.3], SO=3),
                               atol=1e-7)
    np.testing.assert_allclose(numjac(rotx, [0.3], SO=3), [[1], [0], [0]], atol=1e-7)
    f = lambda x: np.array([x[0] * x[1], np.sin(x[1]), x[0] ** 2])
    np.testing.assert_allclose(numjac(f, [2.0, 0.5], central=True, dx=1e-6),
                               [[0.5, 2.0], [0, np.cos(0.5)], [4.0, 0]], atol=1e-8)
    puma = load_robot("puma560")
    np.testing.assert_allclose(numjac(puma.fkine, Q, SE=3, central=True, dx=1e-6),
                               puma.jacob0(Q), atol=1e-8)
    with pytest.raises(ValueError, match="dx"):
        numjac(f, [1, 2], dx=0)


def test_todegrees_toradians_revolute_only():
    stan = load_robot("stanford")  # RRPRRR
    q = np.array([np.pi, np.pi / 2, 0.5, 0, -np.pi, np.pi / 4])
    np.testing.assert_allclose(stan.todegrees(q), [180, 90, 0.5, 0, -180, 45])
    np.testing.assert_allclose(stan.toradians(stan.todegrees(q)), q)
    assert stan.todegrees(np.vstack([q, q])).shape == (2, 6)
    R = rtb.models.DH.Stanford()
    np.testing.assert_allclose(stan.todegrees(q), R.todegrees(q))


def test_isspherical():
    assert load_robot("puma560").isspherical()
    assert load_robot("puma560akb").isspherical()  # modified D-H, same arm
    assert load_robot("stanford").isspherical() == rtb.models.DH.Stanford().isspherical()
    assert not load_robot("twolink").isspherical()
    assert not load_robot("scara").isspherical()
    # three parallel axes never meet
    planar = Robot([Link(a=1), Link(a=1), Link(a=1)])
    assert not planar.isspherical()
    # a wrist offset (a != 0 on link 5) breaks it
    puma = load_robot("puma560")
    bent = puma.with_links(puma.links[:4] + (puma.links[4].replace(a=0.05), puma.links[5]))
    assert not bent.isspherical()


def _port(R):
    """An RTB-Py DH model's kinematics as a robogui Robot, link by link."""
    mk = {(False, False): RevoluteDH, (False, True): RevoluteMDH,
          (True, False): PrismaticDH, (True, True): PrismaticMDH}
    links = []
    for L in R.links:
        kw = dict(a=L.a, alpha=L.alpha, offset=L.offset)
        kw.update(theta=L.theta) if L.isprismatic else kw.update(d=L.d)
        links.append(mk[bool(L.isprismatic), bool(R.mdh)](**kw))
    return DHRobot(links)


def test_isspherical_rtb_reference_cases():
    # roboticstoolbox-python's test_isspherical, case by case
    l0, l3 = RevoluteDH(), RevoluteDH()
    l1, l2 = RevoluteDH(alpha=-np.pi / 2), RevoluteDH(alpha=np.pi / 2)
    assert DHRobot([l0, l1, l2, l3]).isspherical()
    assert not DHRobot([l0, l1]).isspherical()
    # last two joints turn about one axis (alpha = 0, a = d = 0): they meet everywhere on it
    # but span two directions only
    assert not DHRobot([l1, l2, l3, l0]).isspherical()
    assert not DHRobot([l1, l0, l0]).isspherical()
    # and agreement with RTB-Py's own isspherical on every one of its D-H models
    seen = 0
    for name in ("Puma560", "Stanford", "IRB140", "KR5", "LWR4", "P8", "UR5", "UR10",
                 "UR3", "Panda", "Jaco", "Mico", "Baxter", "Sawyer", "Cobra600", "AL5D",
                 "Orion5", "Planar3", "TwoLink"):
        R = getattr(rtb.models.DH, name)()
        assert _port(R).isspherical() == R.isspherical(), name
        seen += R.isspherical()
    assert seen == 6  # Puma560, Stanford, IRB140, KR5, LWR4, P8


def test_isspherical_is_geometric_where_rtb_reads_alphas():
    # RTB-Py only accepts the alpha pattern (-pi/2, +pi/2) or (+pi/2, -pi/2); a wrist with
    # alphas (-pi/2, -pi/2) is a spherical wrist too: its axes meet at the origin and span
    # three directions except where q2 = 0 (z2 = -z0), like a Puma at q5 = 0
    r = DHRobot([RevoluteDH(alpha=-np.pi / 2)] * 3)
    R = rtb.DHRobot([rtb.RevoluteDH(alpha=-np.pi / 2) for _ in range(3)])
    assert r.isspherical() and not R.isspherical()
    q = np.array([0.3, 0.7, -0.2])
    F = r.fkine_all(q)
    z = np.array([np.asarray(F[i])[:3, 2] for i in range(3)])
    o = np.array([np.asarray(F[i])[:3, 3] for i in range(3)])
    np.testing.assert_allclose(o, 0, atol=1e-15)
    assert abs(np.linalg.det(z)) == pytest.approx(abs(np.sin(0.7)), rel=1e-12)


def test_jointdynamics():
    puma = load_robot("puma560")
    tfs = puma.jointdynamics(Q)
    assert len(tfs) == 6
    M = puma.inertia(Q)  # includes the armature Jm G^2 on its diagonal
    for j, (tf, L) in enumerate(zip(tfs, puma.links, strict=True)):
        J = L.Jm + M[j, j] / L.G ** 2  # the toolboxes' J: the rotor inertia Jm counted twice
        # scipy normalises 1 / (J s + B) to (1/J) / (s + B/J)
        np.testing.assert_allclose(tf.den, [1.0, L.B / J], rtol=1e-12)
        np.testing.assert_allclose(tf.num, [1.0 / J], rtol=1e-12)
    # roboticstoolbox-python gives the same J and B
    R = rtb.models.DH.Puma560()
    ref = R.jointdynamics(Q)
    for j in range(puma.n):
        assert 1 / tfs[j].num[-1] == pytest.approx(ref[j][1][0], rel=1e-9)
        assert tfs[j].den[1] / tfs[j].num[-1] == pytest.approx(ref[j][1][1], rel=1e-12)
    # the physical motor-side inertia, rotor plus link reflected through the gear, is J - Jm:
    # the link inertia alone from an armature-free robot
    bare = puma.with_links([L.replace(Jm=0.0) for L in puma.links])
    Mb = bare.inertia(Q)
    for j, L in enumerate(puma.links):
        J = 1 / tfs[j].num[-1]
        assert J - L.Jm == pytest.approx(L.Jm + Mb[j, j] / L.G ** 2, rel=1e-12)
    # Coulomb friction linearised at the operating velocity: B + Tc/qd
    qd = np.array([0.5, -0.25, 1, 1, 1, 1])
    tf2 = puma.jointdynamics(Q, qd)
    B = [tf.den[1] / tf.num[-1] for tf in tf2]  # (B/J) / (1/J)
    assert B[0] == pytest.approx(puma.links[0].B + puma.links[0].Tc[0] / 0.5)
    assert B[1] == pytest.approx(puma.links[1].B + puma.links[1].Tc[1] / -0.25)


def test_link_accepts_rtb_python_forms():
    assert Link(Tc=0.4).Tc == (0.4, -0.4)
    assert Link(Tc=[0.4]).Tc == (0.4, -0.4)
    assert Link(Tc=(0.4, -0.2)).Tc == (0.4, -0.2)
    np.testing.assert_array_equal(Link(I=[1, 2, 3]).I, np.diag([1, 2, 3]))
    np.testing.assert_array_equal(Link(I=[1, 2, 3, 0.1, 0.2, 0.3]).I,
                                  [[1, 0.1, 0.3], [0.1, 2, 0.2], [0.3, 0.2, 3]])
    np.testing.assert_array_equal(Link(I=np.eye(3)).I, np.eye(3))
    # the RTB-python Puma 560 ported link by link gives the same dynamics
    R = rtb.models.DH.Puma560()
    links = [Link(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset, m=L.m, r=L.r, I=L.I, Jm=L.Jm,
                  G=L.G, B=L.B, Tc=L.Tc, qlim=L.qlim) for L in R.links]
    robot = Robot(links, gravity=R.gravity)
    np.testing.assert_allclose(robot.rne(Q, Q, Q), R.rne(Q, Q, Q), rtol=1e-9)
    with pytest.raises(ValueError, match="Tc"):
        Link(Tc=[1, 2, 3])


def test_rtb_model_code_ports_without_edits():
    from spatialmath import SE3

    from robogui.engine.compat.rtb_compat import DHRobot, PrismaticDH, RevoluteDH, RevoluteMDH

    # the body of an RTB model file, as written for roboticstoolbox-python
    L = [RevoluteDH(d=0.5, a=0, alpha=np.pi / 2, I=[0, 0.35, 0, 0, 0, 0], r=[0, 0, 0], m=0,
                    Jm=200e-6, G=-62.6111, B=1.48e-3, Tc=[0.395, -0.435],
                    qlim=[-2.8, 2.8]),
         RevoluteDH(a=0.4318, I=[0.13, 0.524, 0.539, 0, 0, 0], r=[-0.3638, 0.006, 0.2275],
                    m=17.4, Jm=200e-6, G=107.815, B=0.817e-3, Tc=0.126, qlim=[-0.8, 3.9]),
         PrismaticDH(theta=0.1, a=0.05, alpha=0, m=2.0, r=[0, 0, -0.1], I=[0.01, 0.01, 0.02],
                     qlim=[0, 0.5])]
    ours = DHRobot(L, name="ported", manufacturer="x", base=SE3(0.1, 0, 0.2),
                   tool=SE3.Rx(0.3), keywords=("dynamics",), symbolic=False)
    import roboticstoolbox as rtb

    R = rtb.DHRobot([
        rtb.RevoluteDH(d=0.5, a=0, alpha=np.pi / 2, I=[0, 0.35, 0, 0, 0, 0], r=[0, 0, 0], m=0,
                       Jm=200e-6, G=-62.6111, B=1.48e-3, Tc=[0.395, -0.435],
                       qlim=[-2.8, 2.8]),
        rtb.RevoluteDH(a=0.4318, I=[0.13, 0.524, 0.539, 0, 0, 0], r=[-0.3638, 0.006, 0.2275],
                       m=17.4, Jm=200e-6, G=107.815, B=0.817e-3, Tc=0.126, qlim=[-0.8, 3.9]),
        rtb.PrismaticDH(theta=0.1, a=0.05, alpha=0, m=2.0, r=[0, 0, -0.1],
                        I=[0.01, 0.01, 0.02], qlim=[0, 0.5])],
        name="ported", base=SE3(0.1, 0, 0.2), tool=SE3.Rx(0.3))
    q, qd, qdd = np.array([0.3, 0.5, 0.2]), np.array([0.1, -0.2, 0.3]), np.array([1, 2, 3.0])
    np.testing.assert_allclose(ours.fkine(q), R.fkine(q).A, atol=1e-12)
    np.testing.assert_allclose(ours.rne(q, qd, qdd), R.rne(q, qd, qdd), rtol=1e-9)
    assert RevoluteMDH(a=1).mdh
    with pytest.raises(ValueError, match="unknown keyword"):
        DHRobot(L, colour="red")
