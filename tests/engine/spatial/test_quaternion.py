"""UnitQuaternion: the r6 manual's quaternion and qinterp examples, oracle and properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from spatialmath import UnitQuaternion as SmQuaternion

from robogui.engine.spatial.quaternion import UnitQuaternion, q2r, qmul, qslerp, r2q
from robogui.engine.spatial.transforms import angvec2r, rotx, roty, rotz, transl, trotx, troty

quat4 = arrays(np.float64, 4, elements=st.floats(-1, 1)).filter(lambda q: np.linalg.norm(q) > 0.1)


# -- r6 manual, quaternion page -------------------------------------------------------------
def test_r6_quaternion_page_examples():
    q1 = UnitQuaternion(trotx(0.2))  # r6: t = rotx(0.2); q1 = quaternion(t)
    assert str(q1) == "0.995 <0.099833, 0, 0>"
    np.testing.assert_allclose(
        q1.R, [[1, 0, 0], [0, 0.9801, -0.1987], [0, 0.1987, 0.9801]], atol=5e-5
    )
    q2 = UnitQuaternion(roty(0.3))
    assert str(q2) == "0.98877 <0, 0.14944, 0>"
    assert str(q1 * q2) == "0.98383 <0.098712, 0.14869, 0.014919>"
    assert str(q1 * q1) == "0.98007 <0.19867, 0, 0>"
    assert str(q1**2) == "0.98007 <0.19867, 0, 0>"
    assert str(q1 * q1.inv()) == "1 <0, 0, 0>"
    assert str(q1 / q1) == "1 <0, 0, 0>"
    assert str(q1 / q2) == "0.98383 <0.098712, -0.14869, -0.014919>"
    assert str(q1 * q2**-1) == "0.98383 <0.098712, -0.14869, -0.014919>"


def test_r6_qinterp_page_examples():
    q1 = UnitQuaternion(rotx(0.3))
    q2 = UnitQuaternion(roty(-0.5))
    assert str(q1) == "0.98877 <0.14944, 0, 0>"
    assert str(q2) == "0.96891 <0, -0.2474, 0>"
    assert str(q1.interp(q2, 0)) == "0.98877 <0.14944, 0, 0>"
    assert str(q1.interp(q2, 1)) == "0.96891 <0, -0.2474, 0>"
    assert str(q1.interp(q2, 0.3)) == "0.99159 <0.10536, -0.075182, 0>"
    many = q1.interp(q2, [0, 0.3, 1])
    assert [str(q) for q in many] == [str(q1), "0.99159 <0.10536, -0.075182, 0>", str(q2)]
    assert q1.slerp(q2, 0.3) == many[1]


def test_r6_quaternion_plot_page_misprint():
    # printed there as 0.85303 <0.52185, 0, 0>; the qinterp page has the right value
    q = UnitQuaternion(rotx(0.3))
    assert str(q) == "0.98877 <0.14944, 0, 0>"
    np.testing.assert_allclose(q.vec, [math.cos(0.15), math.sin(0.15), 0, 0], atol=1e-15)


# -- construction ---------------------------------------------------------------------------
def test_constructors_agree():
    axis = np.array([1.0, 2.0, -0.5])
    R = angvec2r(1.2, axis)
    a = UnitQuaternion(R)
    b = UnitQuaternion(transl(1, 2, 3) @ np.pad(R, ((0, 1), (0, 1))) + np.diag([0, 0, 0, 1]))
    c = UnitQuaternion.AngVec(1.2, axis)
    d = UnitQuaternion(list(c.vec * 3.0))  # components are normalised
    e = UnitQuaternion(a)
    assert a == b == c == d == e
    np.testing.assert_allclose(
        c.vec, np.r_[math.cos(0.6), math.sin(0.6) * axis / np.linalg.norm(axis)]
    )
    assert UnitQuaternion.AngVec(90, [0, 0, 1], unit="deg") == UnitQuaternion(rotz(math.pi / 2))
    assert str(UnitQuaternion()) == "1 <0, 0, 0>"
    assert UnitQuaternion.AngVec(0, [0, 0, 0]) == UnitQuaternion()


def test_canonical_sign_and_equality_up_to_sign():
    q = UnitQuaternion(rotx(3.0) @ roty(2.0))
    assert q.s >= 0
    assert UnitQuaternion(rotx(math.pi)).vec.tolist() == [pytest.approx(0, abs=1e-15), 1, 0, 0]
    assert UnitQuaternion(-q.vec) == q  # same rotation
    assert UnitQuaternion(-q.vec).s < 0  # components keep the sign given
    assert q != UnitQuaternion(rotx(0.1))
    with pytest.raises(TypeError):
        hash(q)


def test_components_matrices_and_angvec():
    q = UnitQuaternion.AngVec(0.7, [0, 1, 1])
    assert q.s == pytest.approx(math.cos(0.35))
    np.testing.assert_allclose(q.v, math.sin(0.35) * np.array([0, 1, 1]) / math.sqrt(2))
    np.testing.assert_allclose(q.R, angvec2r(0.7, [0, 1, 1]), atol=1e-15)
    np.testing.assert_allclose(q.T, np.pad(q.R, ((0, 1), (0, 1))) + np.diag([0, 0, 0, 1.0]))
    theta, v = q.angvec()
    assert theta == pytest.approx(0.7)
    np.testing.assert_allclose(v, [0, 1 / math.sqrt(2), 1 / math.sqrt(2)])
    assert q.angvec(unit="deg")[0] == pytest.approx(math.degrees(0.7))
    assert UnitQuaternion().angvec()[0] == 0.0
    assert q.norm() == pytest.approx(1.0, abs=1e-15)
    assert q.unit() == q
    np.testing.assert_array_equal(np.asarray(q), q.vec)


def test_rotating_vectors():
    q = UnitQuaternion(rotz(math.pi / 2))
    np.testing.assert_allclose(q * [1, 0, 0], [0, 1, 0], atol=1e-15)
    V = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 2]])
    np.testing.assert_allclose(q * V, V @ q.R.T, atol=1e-15)
    with pytest.raises(TypeError):
        q * 2.0


def test_against_spatialmath_oracle():
    rng = np.random.default_rng(11)

    def same(ours, theirs):  # q and -q are one rotation; spatialmath keeps s >= 0
        v, w = ours.vec, np.asarray(theirs.vec)
        np.testing.assert_allclose(v * np.sign(v @ w), w, atol=1e-12)

    for _ in range(10):
        a, b = rng.normal(size=4), rng.normal(size=4)
        a, b = a * np.sign(a[0]), b * np.sign(b[0])  # s >= 0 so slerp paths are the same
        ours_a, ours_b = UnitQuaternion(a), UnitQuaternion(b)
        sm_a, sm_b = SmQuaternion(a), SmQuaternion(b)
        same(ours_a * ours_b, sm_a * sm_b)
        same(ours_a / ours_b, sm_a / sm_b)
        same(ours_a**3, sm_a**3)
        np.testing.assert_allclose(ours_a.R, sm_a.R, atol=1e-14)
        for s in (0.0, 0.25, 0.9):
            same(ours_a.interp(ours_b, s), sm_a.interp(sm_b, s))


# -- properties -------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(quat4, quat4)
def test_composition_matches_matrix_product(a, b):
    qa, qb = UnitQuaternion(a), UnitQuaternion(b)
    R = (qa * qb).R
    np.testing.assert_allclose(R, qa.R @ qb.R, atol=1e-12)
    np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-12)
    assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-12)
    assert qa * qa.inv() == UnitQuaternion()
    assert (qa / qb) * qb == qa
    assert UnitQuaternion(qa.R) == qa  # matrix round trip
    assert UnitQuaternion(qa.R).s >= 0


@settings(max_examples=60, deadline=None)
@given(quat4, st.integers(-4, 4))
def test_integer_power(a, j):
    q = UnitQuaternion(a)
    np.testing.assert_allclose((q**j).R, np.linalg.matrix_power(q.R, j), atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(quat4, quat4, st.floats(0, 1))
def test_slerp_properties(a, b, s):
    qa, qb = UnitQuaternion(a), UnitQuaternion(b)
    assert qa.interp(qb, 0) == qa and qa.interp(qb, 1) == qb
    mid = qa.interp(qb, s, shortest=True)
    assert mid.norm() == pytest.approx(1.0, abs=1e-12)
    # constant rate: angle from qa is s times the whole (shorter) angle
    whole = (qa.inv() * qb).angvec()[0]
    part = (qa.inv() * mid).angvec()[0]
    assert part == pytest.approx(s * whole, abs=1e-9)


def test_array_helpers_vectorised():
    rng = np.random.default_rng(12)
    Q = rng.normal(size=(5, 4))
    Q /= np.linalg.norm(Q, axis=1, keepdims=True)
    Rs = q2r(Q)
    back = r2q(Rs)
    assert np.all(back[:, 0] >= 0)
    np.testing.assert_allclose(np.abs(np.sum(back * Q, axis=1)), 1.0, atol=1e-14)
    np.testing.assert_allclose(q2r(qmul(Q[:-1], Q[1:])), Rs[:-1] @ Rs[1:], atol=1e-14)
    s = np.linspace(0, 1, 7)
    path = qslerp(Q[0], Q[1], s)
    assert path.shape == (7, 4)
    np.testing.assert_allclose(path[3], qslerp(Q[0], Q[1], s[3]), atol=1e-15)
    # equal quaternions and opposite ones (the same rotation) do not divide by zero
    np.testing.assert_allclose(qslerp(Q[0], Q[0], s), np.tile(Q[0], (7, 1)), atol=1e-15)
    assert np.all(np.isfinite(qslerp(Q[0], -Q[0], s)))


def test_r2q_against_scipy_including_half_turns():
    from scipy.spatial.transform import Rotation

    axes = np.random.default_rng(13).normal(size=(50, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    angles = np.r_[np.random.default_rng(14).uniform(0, math.pi, 40), np.full(10, math.pi)]
    angles[40:45] -= 1e-9  # just short of a half turn
    Rs = np.concatenate([angvec2r(angles, axes), np.eye(3)[None], np.diag([1.0, -1, -1])[None]])
    ours = r2q(Rs)
    ref = Rotation.from_matrix(Rs).as_quat(scalar_first=True)
    np.testing.assert_allclose(np.abs(np.sum(ours * ref, axis=1)), 1.0, atol=1e-14)
    assert np.all(ours[:, 0] >= 0)
    np.testing.assert_allclose(q2r(ours), Rs, atol=1e-14)


# -- validation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda: UnitQuaternion([0, 0, 0, 0]),
        lambda: UnitQuaternion([1, 0, 0]),
        lambda: UnitQuaternion([1, np.nan, 0, 0]),
        lambda: UnitQuaternion(2 * np.eye(3)),
        lambda: UnitQuaternion(np.diag([1.0, 1, -1])),
        lambda: UnitQuaternion(np.ones((4, 4))),
        lambda: UnitQuaternion("abc"),
        lambda: UnitQuaternion.AngVec(0.5, [0, 0, 0]),
        lambda: UnitQuaternion.AngVec(0.5, [0, 0, 1], unit="grad"),
        lambda: UnitQuaternion.AngVec([0.5, 1], [0, 0, 1]),
        lambda: UnitQuaternion() ** 0.5,
        lambda: UnitQuaternion().interp(UnitQuaternion(), 1.5),
        lambda: UnitQuaternion().interp(UnitQuaternion(), [[0.5]]),
        lambda: UnitQuaternion().interp(np.eye(3), 0.5),
        lambda: UnitQuaternion() * np.ones(4),
        lambda: UnitQuaternion().angvec(unit="degree"),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_repr_and_troty_entry():
    q = UnitQuaternion(troty(0.3))
    assert repr(q) == "UnitQuaternion(0.98877 <0, 0.14944, 0>)"


def test_large_integer_powers_are_quick_and_right():
    # r6: q^j is repeated multiplication; robogui multiplies by squaring, so j = 10**6 takes
    # about 20 products, and the result is the rotation by j times the angle
    q = UnitQuaternion.AngVec(0.2, [1, 2, 2])
    for j in (7, 64, 1001, -999, 10**6):
        expected = UnitQuaternion.AngVec(0.2 * j % (4 * math.pi), [1, 2, 2])
        np.testing.assert_allclose((q**j).R, expected.R, atol=1e-9)
    assert q**0 == UnitQuaternion()
    assert (q**-3) * (q**3) == UnitQuaternion()
