"""Rotations and transforms: r6 manual examples, spatialmath oracle, derivations, properties."""

import math

import numpy as np
import pytest
import spatialmath.base as smb
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from robogui.engine.spatial.quaternion import q2r
from robogui.engine.spatial.transforms import (
    angvec2r,
    angvec2tr,
    delta2tr,
    eul2r,
    eul2tr,
    ftrans,
    ishom,
    isrot,
    oa2r,
    oa2tr,
    r2t,
    rotx,
    roty,
    rotz,
    rpy2r,
    rpy2tr,
    rt2tr,
    skew,
    t2r,
    tr2angvec,
    tr2delta,
    tr2eul,
    tr2jac,
    tr2rpy,
    transl,
    trinterp,
    trinv,
    trnorm,
    trotx,
    troty,
    trotz,
    vex,
    wrench_transform,
)

ORDERS = ["zyx", "xyz", "yxz"]
unit_quat = arrays(np.float64, 4, elements=st.floats(-1, 1)).filter(
    lambda q: np.linalg.norm(q) > 0.1
)


def random_T(rng, k=None):
    shape = () if k is None else (k,)
    q = rng.normal(size=shape + (4,))
    q /= np.linalg.norm(q, axis=-1, keepdims=True)
    return rt_stack(q2r(q), rng.uniform(-2, 2, size=shape + (3,)))


def rt_stack(R, p):
    T = np.zeros(R.shape[:-2] + (4, 4))
    T[..., :3, :3], T[..., :3, 3], T[..., 3, 3] = R, p, 1
    return T


def assert_rotation(R, tol=1e-12):
    R = np.asarray(R)
    np.testing.assert_allclose(
        np.swapaxes(R, -1, -2) @ R, np.broadcast_to(np.eye(3), R.shape), atol=tol
    )
    np.testing.assert_allclose(np.linalg.det(R), 1.0, atol=tol)


# -- r6 manual worked examples -------------------------------------------------------------
def test_r6_rotx_printed():
    # quaternion page: t = rotx(0.2) (a 4x4 in r6, robogui trotx)
    printed = [[1, 0, 0, 0], [0, 0.9801, -0.1987, 0], [0, 0.1987, 0.9801, 0], [0, 0, 0, 1]]
    np.testing.assert_allclose(trotx(0.2), printed, atol=5e-5)
    np.testing.assert_allclose(rotx(0.2), np.asarray(printed)[:3, :3], atol=5e-5)


def test_r6_trinterp_example():
    t1 = trotx(0.2)
    t2 = transl(1, 4, 5) @ troty(0.3)
    np.testing.assert_allclose(
        t2, [[0.9553, 0, 0.2955, 1], [0, 1, 0, 4], [-0.2955, 0, 0.9553, 5], [0, 0, 0, 1]], atol=5e-5
    )
    np.testing.assert_allclose(trinterp(t1, t2, 0), t1, atol=1e-14)
    np.testing.assert_allclose(trinterp(t1, t2, 1), t2, atol=1e-14)
    half = [
        [0.9887, 0.0075, 0.1494, 0.5],
        [0.0075, 0.9950, -0.0998, 2.0],
        [-0.1494, 0.0998, 0.9837, 2.5],
        [0, 0, 0, 1],
    ]
    np.testing.assert_allclose(trinterp(t1, t2, 0.5), half, atol=5e-5)


def test_r6_rpy_and_eul_conventions():
    r, p, y = 0.1, 0.2, 0.3
    # r6 rpy2tr(r, p, y) = rotz(r) roty(p) rotx(y)  ==  robogui rpy2tr([y, p, r])
    np.testing.assert_allclose(rpy2tr([y, p, r]), trotz(r) @ troty(p) @ trotx(y), atol=1e-15)
    # r6 eul2tr(phi, theta, psi) = rotz(phi) roty(theta) rotz(psi)
    np.testing.assert_allclose(eul2tr(r, p, y), trotz(r) @ troty(p) @ trotz(y), atol=1e-15)


def test_r6_oa2tr_algorithm():
    o, a = np.array([0.0, 2.0, 0.3]), np.array([0.1, 0.0, 3.0])
    T = oa2tr(o, a)
    an, n = a / np.linalg.norm(a), np.cross(o, a)
    np.testing.assert_allclose(T[:3, 2], an, atol=1e-15)
    np.testing.assert_allclose(T[:3, 0], n / np.linalg.norm(n), atol=1e-15)
    assert_rotation(T[:3, :3])
    np.testing.assert_allclose(oa2r([0, 1, 0], [0, 0, 1]), np.eye(3), atol=0)


# -- elementary rotations and transl --------------------------------------------------------
def test_elementary_rotations_match_spatialmath_and_units():
    for ours, theirs in ((rotx, smb.rotx), (roty, smb.roty), (rotz, smb.rotz)):
        np.testing.assert_allclose(ours(0.7), theirs(0.7), atol=1e-15)
        np.testing.assert_allclose(ours(30, unit="deg"), theirs(30, unit="deg"), atol=1e-15)
    for ours, theirs in ((trotx, smb.trotx), (troty, smb.troty), (trotz, smb.trotz)):
        np.testing.assert_allclose(ours(-1.1), theirs(-1.1), atol=1e-15)
    np.testing.assert_allclose(rotz(90, unit="deg") @ [1, 0, 0], [0, 1, 0], atol=1e-15)


def test_elementary_rotations_batched():
    th = np.linspace(-3, 3, 7)
    Rs = rotx(th)
    assert Rs.shape == (7, 3, 3)
    for t, R in zip(th, Rs, strict=True):
        np.testing.assert_array_equal(R, rotx(t))
    assert trotz(th).shape == (7, 4, 4)


def test_transl_make_and_extract():
    T = transl(1, 2, 3)
    np.testing.assert_array_equal(T, transl([1, 2, 3]))
    np.testing.assert_array_equal(T[:3, 3], [1, 2, 3])
    np.testing.assert_array_equal(transl(T), [1, 2, 3])
    P = np.arange(12.0).reshape(4, 3)
    Ts = transl(P)
    assert Ts.shape == (4, 4, 4)
    np.testing.assert_array_equal(transl(Ts), P)
    np.testing.assert_array_equal(transl(P[:, 0], P[:, 1], P[:, 2]), Ts)
    np.testing.assert_array_equal(transl(T @ trotx(0.3)), [1, 2, 3])
    np.testing.assert_array_equal(t2r(rt2tr(rotx(0.4), [1, 2, 3])), rotx(0.4))
    np.testing.assert_array_equal(r2t(rotx(0.4))[:3, :3], rotx(0.4))


# -- three-angle representations ------------------------------------------------------------
@pytest.mark.parametrize("order", ORDERS)
def test_rpy_matches_spatialmath(order):
    rng = np.random.default_rng(1)
    for rpy in rng.uniform(-1.5, 1.5, size=(20, 3)):
        np.testing.assert_allclose(rpy2r(rpy, order=order), smb.rpy2r(rpy, order=order), atol=1e-14)
        R = smb.rpy2r(rpy, order=order)
        np.testing.assert_allclose(tr2rpy(R, order=order), smb.tr2rpy(R, order=order), atol=1e-12)
    np.testing.assert_allclose(
        rpy2r(10, 20, 30, unit="deg", order=order),
        smb.rpy2r([10, 20, 30], unit="deg", order=order),
        atol=1e-14,
    )


def test_eul_matches_spatialmath():
    rng = np.random.default_rng(2)
    for eul in rng.uniform([-3, 0.05, -3], [3, 3.1, 3], size=(20, 3)):
        np.testing.assert_allclose(eul2r(eul), smb.eul2r(eul), atol=1e-14)
        np.testing.assert_allclose(tr2eul(smb.eul2tr(eul)), smb.tr2eul(smb.eul2tr(eul)), atol=1e-12)
    np.testing.assert_allclose(tr2eul(eul2tr(10, 20, 30, unit="deg"), unit="deg"), [10, 20, 30])


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("offset", [0.0, 1e-9, 1e-15, -1e-12])
def test_tr2rpy_at_and_near_pitch_singularity(order, sign, offset):
    pitch = sign * (math.pi / 2 - offset)
    R = rpy2r([0.4, pitch, 0.7], order=order)
    rpy = tr2rpy(R, order=order)
    assert np.all(np.isfinite(rpy))
    np.testing.assert_allclose(rpy2r(rpy, order=order), R, atol=1e-12)
    if offset == 0.0:
        assert rpy[0] == 0.0  # spatialmath convention: roll set to zero
        np.testing.assert_allclose(rpy, smb.tr2rpy(R, order=order), atol=1e-12)


@pytest.mark.parametrize("theta", [0.0, 1e-15, 1e-10, math.pi, math.pi - 1e-13])
def test_tr2eul_at_and_near_singularity(theta):
    R = eul2r([0.3, theta, 0.5])
    eul = tr2eul(R)
    assert np.all(np.isfinite(eul))
    assert 0.0 <= eul[1] <= math.pi
    np.testing.assert_allclose(eul2r(eul), R, atol=1e-12)
    if theta in (0.0, math.pi):
        assert eul[0] == 0.0
        np.testing.assert_allclose(eul, smb.tr2eul(R), atol=1e-12)


def test_three_angle_stacks():
    rng = np.random.default_rng(3)
    rpy = rng.uniform(-1.5, 1.5, size=(6, 3))
    Ts = rpy2tr(rpy)
    assert Ts.shape == (6, 4, 4)
    np.testing.assert_allclose(tr2rpy(Ts), rpy, atol=1e-12)
    np.testing.assert_allclose(rpy2r(rpy[:, 0], rpy[:, 1], rpy[:, 2]), Ts[:, :3, :3], atol=0)
    eul = rng.uniform([-3, 0.1, -3], [3, 3.0, 3], size=(6, 3))
    np.testing.assert_allclose(tr2eul(eul2tr(eul)), eul, atol=1e-12)
    for i in range(6):
        np.testing.assert_allclose(tr2rpy(Ts[i]), tr2rpy(Ts)[i], atol=0)


@settings(max_examples=80, deadline=None)
@given(
    st.floats(-math.pi, math.pi),
    st.floats(-1.55, 1.55),
    st.floats(-math.pi, math.pi),
    st.sampled_from(ORDERS),
)
def test_rpy_round_trip_property(roll, pitch, yaw, order):
    R = rpy2r(roll, pitch, yaw, order=order)
    assert_rotation(R)
    got = tr2rpy(R, order=order)
    np.testing.assert_allclose(rpy2r(got, order=order), R, atol=1e-12)
    # away from the singularity and from +-pi wrap, the angles themselves come back
    if max(abs(roll), abs(yaw)) < math.pi - 1e-6:
        np.testing.assert_allclose(got, [roll, pitch, yaw], atol=1e-9)


@settings(max_examples=80, deadline=None)
@given(
    st.floats(-math.pi + 1e-3, math.pi - 1e-3),
    st.floats(0.01, math.pi - 0.01),
    st.floats(-math.pi + 1e-3, math.pi - 1e-3),
)
def test_eul_round_trip_property(phi, theta, psi):
    R = eul2r(phi, theta, psi)
    assert_rotation(R)
    np.testing.assert_allclose(tr2eul(R), [phi, theta, psi], atol=1e-9)


# -- angle-axis --------------------------------------------------------------------------------
def test_angvec_against_spatialmath_and_r6_rotvec():
    v = np.array([1.0, -2.0, 0.5])
    np.testing.assert_allclose(angvec2r(0.8, v), smb.angvec2r(0.8, v), atol=1e-15)
    np.testing.assert_allclose(angvec2tr(0.8, [1, 0, 0]), trotx(0.8), atol=1e-15)
    np.testing.assert_allclose(angvec2r(45, [0, 0, 3], unit="deg"), rotz(math.pi / 4), atol=1e-15)
    theta, axis = tr2angvec(angvec2tr(0.8, v))
    assert isinstance(theta, float)
    np.testing.assert_allclose(theta, 0.8, atol=1e-14)
    np.testing.assert_allclose(axis, v / np.linalg.norm(v), atol=1e-14)
    assert tr2angvec(np.eye(3)) == (0.0, pytest.approx(np.zeros(3)))
    theta, axis = tr2angvec(rotx(math.pi))
    np.testing.assert_allclose([theta, *np.abs(axis)], [math.pi, 1, 0, 0], atol=1e-12)
    assert tr2angvec(rotz(0.5), unit="deg")[0] == pytest.approx(math.degrees(0.5))


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, math.pi - 0.01), arrays(np.float64, 3, elements=st.floats(-1, 1)))
def test_angvec_round_trip_property(theta, v):
    if np.linalg.norm(v) < 0.1:
        v = np.array([0.0, 0.0, 1.0])
    R = angvec2r(theta, v)
    assert_rotation(R)
    th, axis = tr2angvec(R)
    np.testing.assert_allclose(th, theta, atol=1e-9)
    np.testing.assert_allclose(axis, v / np.linalg.norm(v), atol=1e-8)


def test_angvec_batched():
    th = np.array([0.1, 0.5, 2.0])
    V = np.array([[1.0, 0, 0], [0, 2, 0], [1, 1, 1]])
    Rs = angvec2r(th, V)
    for i in range(3):
        np.testing.assert_allclose(Rs[i], angvec2r(th[i], V[i]), atol=0)
    th2, V2 = tr2angvec(Rs)
    np.testing.assert_allclose(th2, th, atol=1e-14)
    np.testing.assert_allclose(V2, V / np.linalg.norm(V, axis=1, keepdims=True), atol=1e-14)
    assert angvec2r(th, [0, 0, 1]).shape == (3, 3, 3)


# -- normalisation, inverse ----------------------------------------------------------------
def test_trnorm():
    rng = np.random.default_rng(4)
    T = random_T(rng)
    noisy = T + np.pad(rng.normal(scale=1e-4, size=(3, 4)), ((0, 1), (0, 0)))
    N = trnorm(noisy)
    assert_rotation(N[:3, :3], tol=1e-14)
    np.testing.assert_allclose(N[:3, 2], noisy[:3, 2] / np.linalg.norm(noisy[:3, 2]), atol=1e-15)
    np.testing.assert_array_equal(N[:3, 3], noisy[:3, 3])
    np.testing.assert_allclose(N, smb.trnorm(noisy), atol=1e-14)
    np.testing.assert_allclose(trnorm(T), T, atol=1e-14)
    Ns = trnorm(np.stack([noisy, noisy[:, :]]))
    np.testing.assert_allclose(Ns[1], N, atol=0)
    np.testing.assert_allclose(trnorm(noisy[:3, :3]), N[:3, :3], atol=0)


@settings(max_examples=60, deadline=None)
@given(unit_quat, arrays(np.float64, 3, elements=st.floats(-10, 10)))
def test_trinv_inverts_property(q, p):
    T = rt_stack(q2r(q / np.linalg.norm(q)), p)
    np.testing.assert_allclose(trinv(T) @ T, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(T @ trinv(T), np.eye(4), atol=1e-12)


def test_trinv_stack_and_oracle():
    Ts = random_T(np.random.default_rng(5), 5)
    inv = trinv(Ts)
    np.testing.assert_allclose(inv, np.linalg.inv(Ts), atol=1e-13)
    np.testing.assert_allclose(inv[2], smb.trinv(Ts[2]), atol=1e-14)


# -- differential motion, jacobian, wrench ----------------------------------------------------
def test_tr2delta_single_and_delta2tr():
    d = np.array([0.1, -0.2, 0.3, 0.01, 0.02, -0.03])
    T = delta2tr(d)
    np.testing.assert_allclose(T, smb.delta2tr(d), atol=0)
    np.testing.assert_allclose(tr2delta(T), d, atol=1e-16)
    # r6 diff2tr returned Delta = delta2tr(d) - I; r6 tr2diff(Delta) gives d back too
    np.testing.assert_allclose(tr2delta(T - np.eye(4)), d, atol=1e-16)
    np.testing.assert_allclose(tr2delta(delta2tr(np.stack([d, 2 * d]))), [d, 2 * d], atol=1e-16)


def test_tr2delta_two_frames_r6_semantics():
    rng = np.random.default_rng(6)
    T1 = random_T(rng)
    d = np.array([1.0, -2.0, 0.5, 0.3, -0.1, 0.2]) * 1e-5
    # an exact small base-frame motion: T2 = exp(skew(d)) T1
    T2 = transl(d[:3]) @ angvec2tr(np.linalg.norm(d[3:]), d[3:]) @ T1
    T2[:3, 3] = T1[:3, 3] + d[:3]
    np.testing.assert_allclose(tr2delta(T1, T2), d, atol=1e-10)
    # spatialmath expresses the same motion in T1's frame
    R1 = T1[:3, :3]
    T2 = random_T(rng)
    ours = tr2delta(T1, T2)
    theirs = smb.tr2delta(T1, T2)
    np.testing.assert_allclose(ours, np.r_[R1 @ theirs[:3], R1 @ theirs[3:]], atol=1e-13)
    np.testing.assert_allclose(tr2delta(T1, T1), np.zeros(6), atol=1e-15)


def _delta_matrix(d):
    D = np.zeros((4, 4))
    D[:3, :3] = skew(d[3:])
    D[:3, 3] = d[:3]
    return D


def test_tr2jac_samebody_is_paul_differential_transform():
    rng = np.random.default_rng(7)
    X = random_T(rng)  # aTb
    J = tr2jac(X, samebody=True)
    for d in rng.normal(size=(5, 6)):
        # body motion D_a in frame a seen from frame b: D_b = X^-1 D_a X (Paul, exact)
        Db = np.linalg.inv(X) @ _delta_matrix(d) @ X
        np.testing.assert_allclose(J @ d, tr2delta(Db), atol=1e-13)
    # without samebody: rotation only, a -> b; spatialmath-python's tr2jac maps b -> a
    np.testing.assert_allclose(tr2jac(X), np.kron(np.eye(2), X[:3, :3].T), atol=0)
    np.testing.assert_allclose(tr2jac(X), smb.tr2jac(trinv(X)), atol=1e-15)
    assert np.all(tr2jac(X)[:3, 3:] == 0)
    assert tr2jac(np.stack([X, X]), samebody=True).shape == (2, 6, 6)


def test_wrench_transform_preserves_power_and_statics():
    rng = np.random.default_rng(8)
    X = random_T(rng)
    J = tr2jac(X, samebody=True)
    for _ in range(5):
        W, V = rng.normal(size=6), rng.normal(size=6)
        np.testing.assert_allclose(wrench_transform(X, W) @ (J @ V), W @ V, atol=1e-12)
    # a pure force f at a's origin seen from b = transl(p): moment f x p about b's origin
    f, p = np.array([0.0, 0.0, -10.0]), np.array([1.0, 0.0, 0.0])
    np.testing.assert_allclose(
        wrench_transform(transl(p), np.r_[f, 0, 0, 0]), np.r_[f, np.cross(f, p)], atol=0
    )
    W = rng.normal(size=6)
    np.testing.assert_array_equal(ftrans(W, X), wrench_transform(X, W))
    np.testing.assert_allclose(wrench_transform(np.stack([X, X]), W)[1], wrench_transform(X, W))


# -- skew, vex, predicates ---------------------------------------------------------------------
def test_skew_vex():
    v, u = np.array([1.0, 2.0, 3.0]), np.array([-0.5, 0.4, 2.0])
    np.testing.assert_allclose(skew(v) @ u, np.cross(v, u), atol=1e-15)
    np.testing.assert_array_equal(skew(v), smb.skew(v))
    np.testing.assert_array_equal(vex(skew(v)), v)
    np.testing.assert_array_equal(skew(2.0), [[0, -2], [2, 0]])
    np.testing.assert_array_equal(vex(skew(2.0)), [2.0])
    V = np.arange(9.0).reshape(3, 3)
    np.testing.assert_array_equal(vex(skew(V)), V)


def test_isrot_ishom():
    assert isrot(rotx(0.3)) and isrot(rotx(0.3), check=True)
    assert isrot(np.zeros((3, 3))) and not isrot(np.zeros((3, 3)), check=True)
    assert not isrot(np.eye(4)) and not isrot("abc") and not isrot(np.diag([1, 1, -1]), check=True)
    T = transl(1, 2, 3) @ trotx(0.2)
    assert ishom(T) and ishom(T, check=True)
    bad = T.copy()
    bad[3, 0] = 1
    assert ishom(bad) and not ishom(bad, check=True)
    assert not ishom(np.eye(3)) and not ishom(None)


# -- interpolation ------------------------------------------------------------------------------
def test_trinterp_vectorised_and_oracle():
    rng = np.random.default_rng(9)
    T0, T1 = random_T(rng), random_T(rng)
    s = np.linspace(0, 1, 11)
    Ts = trinterp(T0, T1, s)
    assert Ts.shape == (11, 4, 4)
    for si, T in zip(s, Ts, strict=True):
        np.testing.assert_allclose(T, trinterp(T0, T1, si), atol=1e-15)
        np.testing.assert_allclose(T, smb.trinterp(T0, T1, si), atol=1e-12)
    assert_rotation(Ts[:, :3, :3])
    np.testing.assert_allclose(transl(Ts), np.outer(1 - s, T0[:3, 3]) + np.outer(s, T1[:3, 3]))
    # one transform: from the identity to it
    np.testing.assert_allclose(trinterp(T1, None, 0.5), smb.trinterp(None, T1, 0.5), atol=1e-12)
    np.testing.assert_allclose(trinterp(T1, None, [0.0, 1.0]), [np.eye(4), T1], atol=1e-14)
    # spatialmath's spelling, None first, means the same
    np.testing.assert_allclose(trinterp(None, T1, 0.3), smb.trinterp(None, T1, 0.3), atol=1e-12)
    np.testing.assert_array_equal(trinterp(None, T1, s), trinterp(T1, None, s))
    # rotations only
    np.testing.assert_allclose(trinterp(rotx(0.2), rotx(1.0), 0.25), rotx(0.4), atol=1e-14)


def test_trinterp_constant_angular_rate():
    # slerp: equal steps of s give equal rotation steps about a fixed axis
    R0, R1 = rotz(0.3), rotz(0.3) @ angvec2r(2.5, [1, 1, 0])
    Rs = trinterp(R0, R1, np.linspace(0, 1, 6))
    steps = [tr2angvec(Rs[i].T @ Rs[i + 1]) for i in range(5)]
    np.testing.assert_allclose([th for th, _ in steps], 0.5, atol=1e-12)
    np.testing.assert_allclose(
        [v for _, v in steps], np.tile([1, 1, 0], (5, 1)) / math.sqrt(2), atol=1e-12
    )


# -- validation at the door ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda: rotx(0.1, unit="grad"),
        lambda: rpy2r([0.1, 0.2, 0.3], unit="degrees"),
        lambda: tr2rpy(np.eye(3), unit="Deg"),
        lambda: rotx("a"),
        lambda: rotx(float("nan")),
        lambda: rotx(np.zeros((2, 2))),
        lambda: rpy2r([0.1, 0.2]),
        lambda: rpy2r([0.1, 0.2, 0.3], order="zxz"),
        lambda: rpy2r(0.1, 0.2),
        lambda: tr2rpy(2 * np.eye(3)),
        lambda: tr2rpy(np.eye(5)),
        lambda: tr2eul(np.diag([1.0, 1, -1])),
        lambda: transl(1, 2),
        lambda: transl([1, 2]),
        lambda: transl(np.ones((4, 4))),
        lambda: transl([1, np.inf, 2]),
        lambda: trinv(np.eye(3)),
        lambda: trinv(2 * np.eye(4)),
        lambda: angvec2r(0.3, [0, 0, 0]),
        lambda: oa2r([0, 0, 1], [0, 0, 2]),
        lambda: trnorm(np.zeros((4, 4))),
        lambda: trinterp(np.eye(4), np.eye(4), 1.5),
        lambda: trinterp(np.eye(4), np.eye(3), 0.5),
        lambda: trinterp(None, None, 0.5),
        lambda: tr2delta(np.eye(4), 2 * np.eye(4)),
        lambda: delta2tr([1, 2, 3]),
        lambda: wrench_transform(np.eye(4), [1, 2, 3]),
        lambda: vex(np.ones(3)),
    ],
)
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_error_names_argument():
    with pytest.raises(ValueError, match="unit"):
        rotx(1, unit="grad")
    with pytest.raises(ValueError, match=r"theta.*non-finite"):
        roty([0.1, float("nan")])
    with pytest.raises(ValueError, match=r"T.*\(4, 4\)"):
        trinv(np.eye(3))


# -- unit="deg" everywhere angles appear -----------------------------------------------------
def test_every_angle_function_takes_degrees():
    deg = np.array([10.0, -20.0, 30.0])
    rad = np.radians(deg)
    for fn in (rotx, roty, rotz, trotx, troty, trotz):
        np.testing.assert_allclose(fn(deg[2], unit="deg"), fn(rad[2]), atol=1e-15)
        np.testing.assert_allclose(fn(deg, unit="deg"), fn(rad), atol=1e-15)  # batched
    for order in ORDERS:
        for fn in (rpy2r, rpy2tr):
            np.testing.assert_allclose(fn(deg, unit="deg", order=order),
                                       fn(rad, order=order), atol=1e-15)
            np.testing.assert_allclose(fn(*deg, unit="deg", order=order),
                                       fn(rad, order=order), atol=1e-15)
        T = rpy2tr(rad, order=order)
        np.testing.assert_allclose(tr2rpy(T, unit="deg", order=order), deg, atol=1e-12)
    for fn in (eul2r, eul2tr):
        np.testing.assert_allclose(fn(deg, unit="deg"), fn(rad), atol=1e-15)
        np.testing.assert_allclose(fn(*deg, unit="deg"), fn(rad), atol=1e-15)
    np.testing.assert_allclose(tr2eul(eul2tr(rad), unit="deg"),
                               np.degrees(tr2eul(eul2tr(rad))), atol=1e-12)
    np.testing.assert_allclose(tr2eul(eul2tr([10, 20, 30], unit="deg"), unit="deg"),
                               [10, 20, 30], atol=1e-12)
    for fn in (angvec2r, angvec2tr):
        np.testing.assert_allclose(fn(30, [1, 2, 3], unit="deg"), fn(math.pi / 6, [1, 2, 3]),
                                   atol=1e-15)
    theta, v = tr2angvec(angvec2tr(30, [0, 3, 4], unit="deg"), unit="deg")
    assert theta == pytest.approx(30, abs=1e-12)
    np.testing.assert_allclose(v, [0, 0.6, 0.8], atol=1e-15)
    from robogui.transforms import UnitQuaternion

    q = UnitQuaternion.AngVec(30, [0, 3, 4], unit="deg")
    assert q == UnitQuaternion(angvec2r(math.pi / 6, [0, 3, 4]))
    assert q.angvec(unit="deg")[0] == pytest.approx(30, abs=1e-12)


# -- docs/transforms.md maps every r6 transform and quaternion name ---------------------------
# The r6 manual's function list, "Homogeneous Transforms" and "Quaternions" groups, plus the
# transform functions listed elsewhere (Kinematics: diff2tr, tr2diff, tr2jac; Dynamics:
# ftrans; Trajectory: trinterp, ctraj; Other: unit) and the reference pages ishomog, rotvec.
R6_TRANSFORM_NAMES = [
    "eul2tr", "oa2tr", "rot2tr", "rotx", "roty", "rotz", "rpy2tr", "tr2eul", "tr2rot",
    "tr2rpy", "transl", "trnorm", "q2tr", "qinterp", "inv", "norm", "unit", "plot",
    "quaternion", "double", "diff2tr", "tr2diff", "tr2jac", "ftrans", "trinterp", "ctraj",
    "ishomog", "rotvec",
]


def _doc_name_map():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "transforms.md").read_text()
    table = doc.split("## Name map", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]


def test_docs_map_every_r6_transform_name():
    import builtins
    import re

    import robogui.transforms as rt

    rows = _doc_name_map()
    r6_names = set()
    for r6, _, _ in rows:
        r6_names |= set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\(", r6))
    missing = [name for name in R6_TRANSFORM_NAMES if name not in r6_names]
    assert not missing, missing
    # every robogui function named in the second column exists
    for _, ours, _ in rows:
        for name in re.findall(r"`([a-z][a-z0-9_]*)\(", ours):
            if not hasattr(builtins, name):  # e.g. str(q)
                assert hasattr(rt, name), name


@settings(max_examples=60, deadline=None)
@given(st.floats(-100, 100), arrays(np.float64, 3, elements=st.floats(-5, 5)),
       arrays(np.float64, 3, elements=st.floats(-5, 5)))
@example(0.0, np.array([0.0, 1.0, 1.0]), np.full(3, 1.18e-150))  # o x a once underflowed
def test_constructed_rotations_are_orthonormal_property(theta, o, a):
    for R in (rotx(theta), roty(theta), rotz(theta), t2r(trotx(theta) @ troty(theta))):
        assert_rotation(R)
    n = np.cross(o, a)
    if np.linalg.norm(n) > 1e-3 * np.linalg.norm(o) * np.linalg.norm(a) > 0:
        R = oa2r(o, a)
        assert_rotation(R)
        np.testing.assert_allclose(R[:, 2], a / np.linalg.norm(a), atol=1e-12)
        # trnorm of a drifted rotation is a rotation again
        assert_rotation(trnorm(R + 1e-6 * np.outer(o, a)), tol=1e-12)


def test_public_modules_export_the_same_names():
    import robogui.engine.spatial.transforms as et
    import robogui.transforms as rt
    from robogui.engine.spatial.quaternion import UnitQuaternion

    assert rt.__all__ == et.__all__ and len(set(rt.__all__)) == len(rt.__all__)
    assert rt.UnitQuaternion is et.UnitQuaternion is UnitQuaternion
    for name in et.__all__:
        assert getattr(rt, name) is getattr(et, name), name
    # the list of functions, all present
    for name in ("rotx", "roty", "rotz", "trotx", "troty", "trotz", "transl", "rpy2r",
                 "rpy2tr", "tr2rpy", "eul2r", "eul2tr", "tr2eul", "oa2r", "oa2tr", "angvec2r",
                 "angvec2tr", "tr2angvec", "trnorm", "trinv", "tr2delta", "delta2tr", "tr2jac",
                 "wrench_transform", "ftrans", "skew", "vex", "isrot", "ishom", "trinterp"):
        assert callable(getattr(rt, name)), name


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rotx("a"), r"theta must be numeric, got 'a'; expected shape \(\) \(a scalar\) "
                            r"or \(k,\)"),
        (lambda: trotz([0.1, float("nan")]), r"theta contains a non-finite value .*expected "
                                             r"finite values of shape \(\) \(a scalar\) or \(k,\)"),
        (lambda: rotx(None), r"theta must be numeric, got None"),
        (lambda: rpy2r([0.1, np.inf, 0.2]), r"\[roll, pitch, yaw\] contains a non-finite .*"
                                            r"shape \(3,\) or \(k, 3\)"),
        (lambda: eul2tr(["a", 1, 2]), r"\[phi, theta, psi\] must be numeric.*shape \(3,\)"),
        (lambda: tr2rpy(None), r"T must be numeric, got None; expected shape \(3, 3\), \(4, 4\)"),
        (lambda: tr2eul(np.full((3, 3), np.nan)), r"T contains a non-finite .*\(3, 3\), \(4, 4\)"),
        (lambda: trinv("x"), r"T must be numeric, got 'x'; expected shape \(4, 4\) or \(m, 4, 4\)"),
        (lambda: angvec2r(0.1, [1, "a", 2]), r"v must be numeric.*shape \(3,\) or \(k, 3\)"),
        (lambda: transl([1, np.nan, 3]), r"x contains a non-finite .*shape \(3,\) or \(k, 3\)"),
        (lambda: oa2r([1, 0], [0, 0, 1]), r"o must have shape \(3,\) or \(k, 3\), got \(2,\)"),
    ],
)
def test_bad_input_messages_name_argument_and_expected_shape(call, message):
    with pytest.raises(ValueError, match=message):
        call()
