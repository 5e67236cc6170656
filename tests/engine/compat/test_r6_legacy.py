"""r6 legacy rows (robot(DH), robot(DYN), link(row), .dh/.dyn) and the r6 aliases."""

import numpy as np
import pytest
import roboticstoolbox as rtb

from robogui import load_robot
from robogui.engine.compat import r6
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.spatial.quaternion import UnitQuaternion
from robogui.engine.spatial.quaternion_algebra import Quaternion
from robogui.engine.spatial.transforms import delta2tr, rotx, roty, tr2delta, transl, trotx, troty


def test_link_from_row_manual_example_and_show():
    # r6 manual, link page: L = link([-pi/2, 0.02, 0, 0.15]); L.G = 100; L.Tc = 5; show(L)
    L = Link.from_row([-np.pi / 2, 0.02, 0, 0.15]).replace(G=100, Tc=5)
    assert (L.alpha, L.a, L.theta, L.d, L.joint) == (-np.pi / 2, 0.02, 0.0, 0.15, "R")
    assert r6.show(L) == ("alpha = -1.5708\nA = 0.02\ntheta = 0\nD = 0.15\nsigma = 0\n"
                          "mdh = 0\nG = 100\nTc = 5 -5")
    # the one-line display: -1.570796 0.020000 0.000000 0.150000 R
    assert r6.display(L).split() == ["-1.570796", "0.020000", "0.000000", "0.150000", "R"]
    np.testing.assert_array_equal(L.dh, [-np.pi / 2, 0.02, 0, 0.15, 0])


def test_link_row_forms_and_errors():
    P = Link.from_row([0.1, 0.2, 0.3, 0.4, 1])
    assert P.joint == "P" and P.theta == 0.3
    dyn = [0, 0.5, 0, 0.1, 0, 2.0, 0.1, 0, 0.2, 1, 2, 3, 0.1, 0.2, 0.3, 1e-4, 50, 1e-3, 0.4, -0.3]
    L = Link.from_row(dyn, mdh=True)
    assert L.mdh and L.m == 2.0 and L.G == 50 and L.Tc == (0.4, -0.3)
    np.testing.assert_array_equal(L.I, [[1, 0.1, 0.3], [0.1, 2, 0.2], [0.3, 0.2, 3]])
    np.testing.assert_array_equal(L.dyn, dyn)
    with pytest.raises(ValueError, match="row must be a row of 4 or 5 or 20"):
        Link.from_row([1, 2, 3])
    with pytest.raises(ValueError, match="non-finite"):
        Link.from_row([0, np.nan, 0, 0])


def test_robot_from_dh_matches_rtb_and_round_trips():
    R = rtb.models.DH.Puma560()
    dh = np.array([[L.alpha, L.a, 0.0, L.d, 0] for L in R.links])
    robot = Robot.from_dh(dh, "puma", "Unimation", "from r6 dh")
    assert (robot.name, robot.manufacturer, robot.comment) == ("puma", "Unimation", "from r6 dh")
    q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])
    np.testing.assert_allclose(robot.fkine(q), R.fkine(q).A, atol=1e-12)
    np.testing.assert_array_equal(robot.dh, dh)
    np.testing.assert_array_equal(Robot.from_dh(dh[:, :4]).dh, dh)  # sigma column optional
    with pytest.raises(ValueError, match="dh row 2"):
        Robot.from_dh([[0, 1, 0, 0], [0, np.inf, 0, 0]])


def test_robot_from_dyn_round_trip_keeps_dynamics():
    puma = load_robot("puma560")
    again = Robot.from_dyn(puma.dyn, puma.name, base=puma.base, gravity=puma.gravity)
    q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])
    qd = np.array([0.2, 0.1, -0.3, 0.4, 0.5, -0.1])
    np.testing.assert_allclose(again.rne(q, qd, qd), puma.rne(q, qd, qd), rtol=1e-12)
    assert puma.dyn.shape == (6, 20)
    with pytest.raises(ValueError, match="n x 20"):
        Robot.from_dyn(np.zeros((2, 5)))


def test_tr2diff_diff2tr_r6_meanings():
    T1, T2 = transl(0.1, 0.2, 0.3) @ trotx(0.01), transl(0.11, 0.2, 0.29) @ troty(0.02)
    np.testing.assert_array_equal(r6.tr2diff(T1, T2), tr2delta(T1, T2))
    d = np.array([0.1, 0.2, 0.3, 0.01, -0.02, 0.03])
    D = r6.diff2tr(d)
    # r6 returns Delta itself: [0 -dz dy dx; dz 0 -dx dy; -dy dx 0 dz; 0 0 0 0]
    np.testing.assert_array_equal(D, [[0, -0.03, -0.02, 0.1], [0.03, 0, -0.01, 0.2],
                                      [0.02, 0.01, 0, 0.3], [0, 0, 0, 0]])
    np.testing.assert_array_equal(D, delta2tr(d) - np.eye(4))
    np.testing.assert_array_equal(r6.tr2diff(D), d)


def test_rotvec_and_maniplty():
    np.testing.assert_allclose(r6.rotvec([1, 0, 0], 0.3)[:3, :3], rotx(0.3), atol=1e-15)
    puma = load_robot("puma560")
    R = rtb.models.DH.Puma560()
    q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])
    assert r6.maniplty(puma, q) == pytest.approx(R.manipulability(q), rel=1e-10)
    assert r6.maniplty(puma, np.vstack([q, q])).shape == (2,)
    assert 0 < r6.maniplty(puma, q, "asada") <= 1
    with pytest.raises(ValueError, match="yoshikawa"):
        r6.maniplty(puma, q, "condition")


def test_quaternion_constructor_manual_numbers():
    # r6 manual, quaternion page
    q1 = r6.quaternion(trotx(0.2))
    assert str(q1) == "0.995 <0.099833, 0, 0>"
    q2 = r6.quaternion(roty(0.3))
    assert str(q2) == "0.98877 <0, 0.14944, 0>"
    assert str(q1 * q2) == "0.98383 <0.098712, 0.14869, 0.014919>"
    assert str(q1 / q2) == "0.98383 <0.098712, -0.14869, -0.014919>"
    assert str(q1 ** 2) == "0.98007 <0.19867, 0, 0>"
    assert isinstance(r6.quaternion(0.2, [1, 0, 0]), UnitQuaternion)
    assert r6.quaternion(0.2, [1, 0, 0]) == q1
    raw = r6.quaternion([1, 2, 3, 4])  # r6 kept the components as given
    assert isinstance(raw, Quaternion) and raw.norm() == pytest.approx(np.sqrt(30))
    assert isinstance(r6.quaternion([1, 0, 0, 0]), UnitQuaternion)


def test_r6_meanings_where_names_differ():
    from robogui.engine.spatial.transforms import rpy2tr, tr2jac, tr2rpy

    puma = load_robot("puma560")
    q = np.array([0.1, -0.4, 0.3, 0.5, -0.2, 0.7])
    qd = np.array([0.2, 0.1, -0.3, 0.4, 0.5, -0.1])
    np.testing.assert_allclose(r6.coriolis(puma, q, qd), puma.coriolis(q, qd) @ qd, atol=1e-12)
    assert r6.nofriction(puma).links[0].Tc == (0.0, 0.0)
    # r6 rpy2tr(r, p, y) = rotz(r) roty(p) rotx(y)
    from robogui.engine.spatial.transforms import trotz
    np.testing.assert_allclose(r6.rpy2tr(0.1, 0.2, 0.3), trotz(0.1) @ troty(0.2) @ trotx(0.3),
                               atol=1e-15)
    np.testing.assert_allclose(r6.rpy2tr([0.1, 0.2, 0.3]), rpy2tr([0.3, 0.2, 0.1]), atol=1e-15)
    np.testing.assert_allclose(r6.tr2rpy(r6.rpy2tr(0.1, 0.2, 0.3)), [0.1, 0.2, 0.3])
    T = transl(0.1, 0.2, 0.3) @ trotx(0.4)
    np.testing.assert_array_equal(r6.tr2jac(T), tr2jac(T, samebody=True))
    np.testing.assert_allclose(r6.tr2rpy(T), tr2rpy(T)[::-1])
