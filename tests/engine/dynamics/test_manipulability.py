"""Manipulability measures and ellipsoids: definitions, roboticstoolbox-python, singularities."""

import math

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics.manipulability import fellipse, manipulability, vellipse
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine
from tests.engine.kinematics.test_kinematics_batch import random_robot

ROWS = {"all": slice(0, 6), "trans": slice(0, 3), "rot": slice(3, 6)}


def rtb_puma():
    import roboticstoolbox as rtb

    p = rtb.models.DH.Puma560()
    return p, Robot([Link(d=L.d, a=L.a, alpha=L.alpha) for L in p.links])


@pytest.mark.parametrize("axes", ["all", "trans", "rot"])
def test_yoshikawa_agrees_with_roboticstoolbox(axes):
    p, robot = rtb_puma()
    Q = np.random.default_rng(1).uniform(-2, 2, (6, 6))
    w = manipulability(robot, Q, axes=axes)
    assert w.shape == (6,)
    for i, q in enumerate(Q):
        ref = p.manipulability(q, axes=axes)
        assert w[i] == pytest.approx(ref, rel=1e-9, abs=1e-14)
        assert manipulability(robot, q, axes=axes) == pytest.approx(w[i], rel=1e-14)
        assert isinstance(manipulability(robot, q, axes=axes), float)


@pytest.mark.parametrize("axes", ["all", "trans", "rot"])
def test_condition_and_minsingular_from_the_singular_values(axes):
    robot = random_robot(21)
    Q = np.random.default_rng(2).uniform(-1, 1, (4, 6))
    for q in Q:
        s = np.linalg.svd(jacob0(robot, q)[ROWS[axes]], compute_uv=False)
        assert manipulability(robot, q, "minsingular", axes) == pytest.approx(s[-1], rel=1e-12)
        assert manipulability(robot, q, "condition", axes) == pytest.approx(s[-1] / s[0],
                                                                            rel=1e-12)
        J = jacob0(robot, q)[ROWS[axes]]
        assert manipulability(robot, q, "yoshikawa", axes) == pytest.approx(
            math.sqrt(np.linalg.det(J @ J.T)), rel=1e-9)
    np.testing.assert_allclose(manipulability(robot, Q, "condition"),
                               [manipulability(robot, q, "condition") for q in Q], rtol=1e-14)


def test_planar_two_link_has_the_textbook_measure():
    # Yoshikawa: w = a1 a2 |sin q2| for the planar 2R arm (x, y rows)
    robot = Robot([Link(a=0.7), Link(a=0.4)])
    for q2 in (0.3, 1.2, -2.0):
        J = jacob0(robot, [0.5, q2])
        # rows vx, vy are the planar Jacobian; check it first, then the measure on them
        assert abs(np.linalg.det(J[:2])) == pytest.approx(0.7 * 0.4 * abs(math.sin(q2)))
    # 2 joints cannot span 3 translational directions: 0, not NaN
    assert manipulability(robot, [0.5, 1.0], axes="trans") == 0.0
    assert manipulability(robot, [0.5, 1.0], "minsingular", axes="all") == 0.0


@pytest.mark.parametrize("method", ["yoshikawa", "condition", "minsingular"])
def test_singular_poses_give_zero_not_nan(puma, method):
    wrist = np.array([0.2, 0.5, -1.0, 0.3, 0.0, 0.1])
    stretched = np.array([0.2, 0.5, -math.atan2(puma.links[3].d, puma.links[2].a), 0, 0.7, 0])
    w = manipulability(puma, np.stack([wrist, stretched, puma.pose("qn")]), method)
    assert np.all(np.isfinite(w))
    assert w[0] < 1e-12 and w[1] < 1e-12 and w[2] > 1e-3


def test_asada_is_the_inertia_ellipsoid_ratio(puma):
    from robogui.engine.dynamics.dynamics import inertia

    q = puma.pose("qn")
    J = jacob0(puma, q)
    Ji = np.linalg.inv(J)
    Mx = Ji.T @ inertia(puma, q) @ Ji
    for axes in ("all", "trans", "rot"):
        e = np.linalg.eigvalsh(Mx[ROWS[axes], ROWS[axes]])
        assert manipulability(puma, q, "asada", axes) == pytest.approx(e[0] / e[-1], rel=1e-9)
    assert manipulability(puma, np.stack([q, q]), "asada").shape == (2,)
    with pytest.raises(ValueError, match="dynamic parameters"):
        manipulability(random_robot(22), np.zeros(6), "asada")


def test_ellipsoids_reconstruct_j_jt(puma):
    Q = np.stack([puma.pose("qn"), [0.1, 0.7, -2.0, 0.4, 1.0, 0.2]])
    for axes in ("trans", "rot"):
        v, f = vellipse(puma, Q, axes), fellipse(puma, Q, axes)
        assert v.radii.shape == (2, 3) and v.rotation.shape == (2, 3, 3)
        for i in range(2):
            J = jacob0(puma, Q[i])[ROWS[axes]]
            R = v.rotation[i]
            np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-12)
            assert np.linalg.det(R) == pytest.approx(1.0)
            np.testing.assert_allclose(R @ np.diag(v.radii[i] ** 2) @ R.T, J @ J.T, atol=1e-12)
            assert np.all(np.diff(v.radii[i]) <= 0)  # largest first
            Rf = f.rotation[i]
            np.testing.assert_allclose(Rf @ np.diag(f.radii[i] ** -2.0) @ Rf.T, J @ J.T,
                                       atol=1e-10)
            np.testing.assert_allclose(np.sort(f.radii[i]), np.sort(1 / v.radii[i]), rtol=1e-9)
            np.testing.assert_allclose(v.centre[i], fkine(puma, Q[i])[:3, 3])
    one = vellipse(puma, Q[0])
    assert one.centre.shape == (3,) and one.radii.shape == (3,)


def test_ellipsoids_at_a_singularity_stay_finite_or_infinite():
    robot = Robot([Link(a=0.7), Link(a=0.4)])  # planar: never moves along z
    v = vellipse(robot, [0.3, 0.8])
    f = fellipse(robot, [0.3, 0.8])
    assert not np.any(np.isnan(v.radii)) and not np.any(np.isnan(f.radii))
    assert v.radii[-1] == pytest.approx(0.0, abs=1e-12)
    assert np.isinf(f.radii).sum() == 1
    assert abs(v.rotation[:, -1] @ [0, 0, 1]) == pytest.approx(1.0)  # the null direction is z


def test_bad_input(puma):
    with pytest.raises(ValueError, match="method"):
        manipulability(puma, np.zeros(6), "asad")
    with pytest.raises(ValueError, match="axes"):
        manipulability(puma, np.zeros(6), axes="xyz")
    with pytest.raises(ValueError, match="J must have shape"):
        manipulability(puma, np.zeros(6), J=np.zeros((6, 5)))
    with pytest.raises(ValueError, match="axes"):
        vellipse(puma, np.zeros(6), axes="all")
    with pytest.raises(ValueError, match="q"):
        fellipse(puma, np.zeros(4))
    with pytest.raises(ValueError, match="non-finite"):
        manipulability(puma, np.stack([np.zeros(6), np.full(6, np.nan)]))
    with pytest.raises(ValueError, match="non-finite"):
        vellipse(puma, [0, 0, np.inf, 0, 0, 0])
