"""Trajectories: boundary conditions, continuity, numerical differentiation, closed forms,
the r6 manual's published numbers, roboticstoolbox-python as an oracle, and CSV files."""

import os

import numpy as np
import pytest

from robogui.engine.spatial.quaternion import UnitQuaternion
from robogui.engine.spatial.transforms import rotx, roty, transl, trinterp, trotx, troty, trotz
from robogui.engine.trajectory.trajectory import (
    Trajectory,
    TrajectoryFileError,
    ctraj,
    jtraj,
    lspb,
    mstraj,
    qinterp,
    trapezoidal,
)

Q0 = np.array([0.1, -0.4, 1.2, 0.0, 0.5, -2.0])
Q1 = np.array([1.0, 0.3, -0.6, 0.0, 1.5, 2.5])


@pytest.fixture(scope="module")
def rtb():
    import roboticstoolbox  # test-only oracle

    return roboticstoolbox


def rot_angle(R):
    """Rotation angle of R (.., 3, 3), accurate near 0."""
    return np.arccos(np.clip((np.trace(R, axis1=-2, axis2=-1) - 1) / 2, -1, 1))


# ---------------------------------------------------------------------------- jtraj


@pytest.mark.parametrize("order", [5, 7])
def test_jtraj_boundary_conditions_with_velocities(order):
    t = np.linspace(2.0, 5.0, 301)  # a time vector that does not start at 0
    qd0 = np.array([0.2, 0, -1, 0.5, 0, 0])
    qd1 = np.array([0, 0.3, 0, -0.5, 1, 0])
    tr = jtraj(Q0, Q1, t, qd0, qd1, order=order)
    assert tr.q.shape == tr.qd.shape == tr.qdd.shape == (301, 6)
    np.testing.assert_array_equal(tr.t, t)
    np.testing.assert_allclose(tr.q[0], Q0, atol=1e-14)
    np.testing.assert_allclose(tr.q[-1], Q1, atol=1e-13)
    np.testing.assert_allclose(tr.qd[0], qd0, atol=1e-13)
    np.testing.assert_allclose(tr.qd[-1], qd1, atol=1e-13)
    np.testing.assert_allclose(tr.qdd[[0, -1]], 0, atol=1e-12)


@pytest.mark.parametrize("order", [5, 7])
def test_jtraj_derivatives_match_numerical_differentiation(order):
    t = np.linspace(0.0, 2.0, 4001)
    tr = jtraj(Q0, Q1, t, qd0=np.full(6, 0.3), order=order)
    h = t[1] - t[0]
    # central differences are O(h^2); compare on the interior
    np.testing.assert_allclose(np.gradient(tr.q, t, axis=0)[1:-1], tr.qd[1:-1], atol=5e-6)
    np.testing.assert_allclose(np.gradient(tr.qd, t, axis=0)[1:-1], tr.qdd[1:-1], atol=5e-5)
    # continuity: every step is bounded by the peak speed times the step
    assert np.all(np.abs(np.diff(tr.q, axis=0)) <= np.abs(tr.qd).max(axis=0) * h * (1 + 1e-6))


def test_jtraj_closed_forms_rest_to_rest():
    """Quintic 10s^3 - 15s^4 + 6s^5; r6 7th order 35s^4 - 84s^5 + 70s^6 - 20s^7."""
    s = np.linspace(0, 1, 11)
    q5 = jtraj(0.0, 1.0, 11).q[:, 0]
    q7 = jtraj(0.0, 1.0, 11, order=7).q[:, 0]
    np.testing.assert_allclose(q5, 10 * s**3 - 15 * s**4 + 6 * s**5, atol=1e-15)
    np.testing.assert_allclose(q7, 35 * s**4 - 84 * s**5 + 70 * s**6 - 20 * s**7, atol=1e-14)


def test_jtraj7_has_zero_boundary_jerk():
    t = np.linspace(0, 1, 20001)
    tr = jtraj(Q0, Q1, t, np.ones(6), -np.ones(6), order=7)
    jerk = np.gradient(tr.qdd, t, axis=0, edge_order=2)
    np.testing.assert_allclose(jerk[[0, -1]], 0, atol=1e-4)
    # the quintic has a non-zero boundary jerk (60 (q1 - q0) for rest-to-rest)
    quintic = jtraj(0.0, 1.0, t)
    j5 = np.gradient(quintic.qdd[:, 0], t, edge_order=2)
    assert abs(j5[0] - 60) < 1e-3


def test_jtraj_int_means_unit_time_and_scalar_axes():
    tr = jtraj(0.0, 2.0, 5)
    np.testing.assert_allclose(tr.t, [0, 0.25, 0.5, 0.75, 1.0])
    assert tr.n == 1 and len(tr) == 5 and tr.duration == 1.0
    # average speed over unit time is 2, the quintic peak is 15/8 of the average
    assert abs(tr.qd.max() - 2 * 15 / 8) < 1e-12


def test_jtraj_agrees_with_roboticstoolbox(rtb):
    ours = jtraj(Q0, Q1, 50)
    ref = rtb.jtraj(Q0, Q1, 50)
    for a, b in ((ours.q, ref.q), (ours.qd, ref.qd), (ours.qdd, ref.qdd)):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-10)
    t = np.linspace(0, 3.5, 71)
    qd0, qd1 = np.linspace(-1, 1, 6), np.linspace(0.5, -0.2, 6)
    ours = jtraj(Q0, Q1, t, qd0, qd1)
    ref = rtb.jtraj(Q0, Q1, t, qd0, qd1)
    for a, b in ((ours.q, ref.q), (ours.qd, ref.qd), (ours.qdd, ref.qdd)):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(ours.t, ref.t)


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        ((Q0, Q1[:5], 10), {}, "q1"),
        ((Q0, Q1, 1), {}, "t_or_n"),
        ((Q0, Q1, [0.0]), {}, "t_or_n"),
        ((Q0, Q1, [0.0, 1.0, 1.0]), {}, "t_or_n"),
        ((Q0, Q1, [0.0, 2.0, 1.0]), {}, "strictly increasing"),
        ((Q0, Q1, [0.0, np.nan, 1.0]), {}, "t_or_n"),
        ((np.where(Q0 > 1, np.nan, Q0), Q1, 10), {}, "q0"),
        ((Q0, Q1, 10, np.zeros(5)), {}, "qd0"),
        ((Q0, Q1, 10, None, [1, 2, 3, 4, 5, "x"]), {}, "qd1"),
        ((Q0, Q1, 10), {"order": 6}, "order"),
        ((Q0, Q1, 2.5), {}, "t_or_n"),
        ((Q0, Q1, True), {}, "t_or_n"),
        ((np.zeros((2, 6)), Q1, 10), {}, "q0"),
    ],
)
def test_jtraj_bad_input_names_the_argument(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        jtraj(*args, **kwargs)


# ---------------------------------------------------------------------------- lspb


def test_lspb_agrees_with_roboticstoolbox_trapezoidal(rtb):
    # int: step units, t = 0..n-1, as RTB
    for q0, q1, V in ((1.0, 2.0, None), (3.0, -1.0, None), (0.0, 1.0, 0.15), (2.0, 0.0, -0.3)):
        ours = lspb(q0, q1, 11, V)
        ref = rtb.trapezoidal(q0, q1, 11, V)
        np.testing.assert_array_equal(ours.t, ref.t)
        np.testing.assert_allclose(ours.q[:, 0], ref.q, atol=1e-10)
        np.testing.assert_allclose(ours.qd[:, 0], ref.qd, atol=1e-10)
        np.testing.assert_allclose(ours.qdd[:, 0], ref.qdd, atol=1e-10)
        assert abs(ours.info["tblend"][0] - ref.tblend) < 1e-12
    # multi-axis against mtraj(trapezoidal, ...) with a time vector
    t = np.linspace(0, 2, 41)
    ours = trapezoidal(Q0, Q1, t)
    ref = rtb.mtraj(rtb.trapezoidal, Q0, Q1, t)
    for a, b in ((ours.q, ref.q), (ours.qd, ref.qd), (ours.qdd, ref.qdd)):
        np.testing.assert_allclose(a, b, atol=1e-10)


def test_lspb_boundaries_cruise_speed_and_differentiation():
    t = np.linspace(0, 4, 4001)
    V = np.array([0.3, 0.25, 0.5, 1.0, 0.4, 2.0])  # within [avg, 2 avg] for each moving axis
    tr = lspb(Q0, Q1, t, V)
    np.testing.assert_allclose(tr.q[[0, -1]], [Q0, Q1], atol=1e-12)
    np.testing.assert_allclose(tr.qd[[0, -1]], 0, atol=1e-12)
    moving = Q1 != Q0
    np.testing.assert_allclose(np.abs(tr.qd).max(axis=0)[moving], V[moving], rtol=1e-12)
    np.testing.assert_array_equal(tr.q[:, ~moving], Q0[~moving] * np.ones((len(t), 1)))
    # tb = T - |D| / V and the blend acceleration is V / tb
    D, T = np.abs(Q1 - Q0), 4.0
    tb = T - D[moving] / V[moving]
    np.testing.assert_allclose(tr.info["tblend"][moving], tb, rtol=1e-12)
    np.testing.assert_allclose(np.abs(tr.qdd).max(axis=0)[moving], V[moving] / tb, rtol=1e-12)
    np.testing.assert_allclose(np.gradient(tr.q, t, axis=0)[1:-1], tr.qd[1:-1], atol=2e-3)
    # continuity: position steps bounded by the speed, velocity steps by the acceleration
    dt = t[1] - t[0]
    assert np.all(np.abs(np.diff(tr.q, axis=0)) <= V * dt * (1 + 1e-9))
    assert np.all(np.abs(np.diff(tr.qd, axis=0)) <= np.abs(tr.qdd).max(axis=0) * dt * (1 + 1e-9))


def test_lspb_default_speed_and_triangular_limit():
    tr = lspb(0.0, 3.0, np.linspace(0, 2, 201))
    assert abs(tr.qd.max() - 1.5 * 3.0 / 2) < 1e-12
    tri = lspb(0.0, 3.0, np.linspace(0, 2, 201), V=3.0)  # 2 x average: no cruise
    assert abs(tri.info["tblend"][0] - 1.0) < 1e-12
    assert abs(tri.q[100, 0] - 1.5) < 1e-12


def test_lspb_speed_out_of_range_is_explained():
    with pytest.raises(ValueError, match="too small.*average speed"):
        lspb(0.0, 1.0, np.linspace(0, 1, 10), V=0.9)
    with pytest.raises(ValueError, match="too small"):
        lspb(0.0, 1.0, np.linspace(0, 1, 10), V=1.0)  # would need infinite acceleration
    with pytest.raises(ValueError, match="too big.*twice"):
        lspb(0.0, 1.0, np.linspace(0, 1, 10), V=2.5)
    with pytest.raises(ValueError, match="axis 2"):
        lspb([0, 0], [1, 4], np.linspace(0, 1, 10), V=[1.5, 1.5])
    with pytest.raises(ValueError, match="V"):
        lspb([0, 0], [1, 4], 10, V=[1.5, 1.5, 1.5])
    with pytest.raises(ValueError, match="t_or_n"):
        lspb(0.0, 1.0, [1.0, 1.0])
    with pytest.raises(ValueError, match="V contains a non-finite"):
        lspb(0.0, 1.0, 10, V=np.nan)
    with pytest.raises(ValueError, match="q1"):
        lspb([0.0, 1.0], [np.inf, 1.0], 10)


# ---------------------------------------------------------------------------- mstraj

VIA = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, -1.0], [2.0, 0.5, 0.0], [0.0, 0.0, 1.0]])


def test_mstraj_without_blends_passes_every_via_point():
    qdmax = np.array([1.0, 2.0, 0.5])
    tr = mstraj(VIA, dt=0.05, tacc=0.0, qdmax=qdmax)
    via_t = tr.info["via_times"]
    assert via_t[0] == 0
    for point, time in zip(VIA, via_t, strict=True):
        i = int(np.argmin(np.abs(tr.t - time)))
        assert abs(tr.t[i] - time) < 1e-9  # via times are sample times
        np.testing.assert_allclose(tr.q[i], point, atol=1e-12)
    # each segment takes as long as its slowest axis needs at full speed
    need = np.abs(np.diff(VIA, axis=0)) / qdmax
    np.testing.assert_allclose(np.diff(via_t), np.ceil(need.max(axis=1) / 0.05 - 1e-9) * 0.05)
    assert np.all(np.abs(tr.qd) <= qdmax * (1 + 1e-12))


def test_mstraj_blends_smooth_bounded_and_close_to_via_points():
    qdmax = np.array([1.0, 2.0, 0.5])
    tacc, dt = 0.4, 0.01
    tr = mstraj(VIA, dt=dt, tacc=tacc, qdmax=qdmax)
    np.testing.assert_allclose(tr.q[0], VIA[0], atol=1e-15)
    np.testing.assert_allclose(tr.q[-1], VIA[-1], atol=1e-12)
    np.testing.assert_allclose(tr.qd[[0, -1]], 0, atol=1e-12)
    # speed limits hold everywhere, also in the first and last blends
    assert np.all(np.abs(tr.qd) <= qdmax * (1 + 1e-12))
    assert np.all(np.abs(np.diff(tr.q, axis=0)) / dt <= qdmax * (1 + 1e-9))
    # velocity is continuous (blends) and consistent with the positions
    assert np.all(np.abs(np.diff(tr.qd, axis=0)) <= np.abs(tr.qdd).max(axis=0) * dt * (1 + 1e-9))
    # central differences err by jerk * dt^2 / 6 inside the blends (jerk up to ~40 here)
    np.testing.assert_allclose(np.gradient(tr.q, tr.t, axis=0)[1:-1], tr.qd[1:-1], atol=2e-3)
    np.testing.assert_allclose(np.gradient(tr.qd, tr.t, axis=0)[2:-2], tr.qdd[2:-2], atol=0.2)
    # at an interior via time the path is offset by 3/32 tacc (v_out - v_in) (blend integral)
    via_t = tr.info["via_times"]
    vel = np.diff(VIA, axis=0) / np.diff(via_t)[:, None]
    for i in (1, 2):
        k = int(round(via_t[i] / dt))
        expected = VIA[i] + 3 / 32 * tacc * (vel[i] - vel[i - 1])
        np.testing.assert_allclose(tr.q[k], expected, atol=1e-12)
    assert abs(tr.duration - (via_t[-1] + tacc / 2)) < 1e-9


def test_mstraj_roboticstoolbox_overshoots_its_first_blend(rtb):
    """Why robogui centres the first blend: RTB's exceeds qdmax (documented difference)."""
    via = np.array([[0.0], [5.0]])
    ref = rtb.mstraj(via[1:], dt=0.01, tacc=1.0, qdmax=1.0, q0=via[0])
    assert np.abs(ref.qd).max() > 1.3  # measured 1.37 with roboticstoolbox-python 1.5
    ours = mstraj(via, dt=0.01, tacc=1.0, qdmax=1.0)
    assert np.abs(ours.qd).max() <= 1.0 + 1e-12
    assert np.isclose(ours.qd, 1.0).any()  # it does cruise at the limit


def test_mstraj_tsegment_q0_and_errors():
    tr = mstraj(VIA[1:], dt=0.1, tacc=0.2, tsegment=[2.0, 1.0, 1.5], q0=VIA[0])
    np.testing.assert_allclose(np.diff(tr.info["via_times"]), [2.0, 1.0, 1.5], atol=1e-12)
    np.testing.assert_allclose(tr.q[0], VIA[0])
    np.testing.assert_allclose(tr.q[-1], VIA[-1], atol=1e-12)
    with pytest.raises(ValueError, match="exactly one of qdmax"):
        mstraj(VIA, 0.1, 0.2)
    with pytest.raises(ValueError, match="exactly one of qdmax"):
        mstraj(VIA, 0.1, 0.2, qdmax=1.0, tsegment=[1, 1, 1])
    with pytest.raises(ValueError, match="tsegment"):
        mstraj(VIA, 0.1, 0.2, tsegment=[1, 1])
    with pytest.raises(ValueError, match=r"tsegment\[1\].*shorter"):
        mstraj(VIA, 0.1, 1.0, tsegment=[2, 0.5, 2])
    with pytest.raises(ValueError, match="qdmax"):
        mstraj(VIA, 0.1, 0.2, qdmax=[1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="qdmax"):
        mstraj(VIA, 0.1, 0.2, qdmax=[1.0, 1.0])
    with pytest.raises(ValueError, match="dt"):
        mstraj(VIA, -0.1, 0.2, qdmax=1.0)
    with pytest.raises(ValueError, match="tacc"):
        mstraj(VIA, 0.1, -0.2, qdmax=1.0)
    with pytest.raises(ValueError, match="viapoints"):
        mstraj(np.where(VIA > 1.5, np.nan, VIA), 0.1, 0.2, qdmax=1.0)
    with pytest.raises(ValueError, match="q0"):
        mstraj(VIA, 0.1, 0.2, qdmax=1.0, q0=[0, 0])


# ---------------------------------------------------------------------------- ctraj

TA = transl(0.2, -0.1, 0.5) @ trotz(0.3) @ troty(-0.2)
TB = transl(-0.4, 0.6, 0.9) @ trotx(1.1) @ trotz(-0.7)


def test_ctraj_is_a_straight_line_with_slerp_rotation():
    tr = ctraj(TA, TB, 40)
    s = tr.info["s"]
    p = tr.T[:, :3, 3]
    d = TB[:3, 3] - TA[:3, 3]
    # collinear: no component of p - p0 across the line, and the fraction along it is s
    np.testing.assert_allclose(np.cross(p - TA[:3, 3], d), 0, atol=1e-15)
    np.testing.assert_allclose((p - TA[:3, 3]) @ d / (d @ d), s, atol=1e-14)
    # rotation: R0^T R(s) turns about one fixed axis by s times the whole angle
    rel = np.einsum("ji,kjl->kil", TA[:3, :3], tr.T[:, :3, :3])
    total = rot_angle(TA[:3, :3].T @ TB[:3, :3])
    np.testing.assert_allclose(rot_angle(rel), s * total, atol=1e-12)
    axis = np.stack([rel[:, 2, 1] - rel[:, 1, 2], rel[:, 0, 2] - rel[:, 2, 0],
                     rel[:, 1, 0] - rel[:, 0, 1]], axis=1)[1:]
    axis /= np.linalg.norm(axis, axis=1, keepdims=True)
    np.testing.assert_allclose(axis, np.broadcast_to(axis[0], axis.shape), atol=1e-12)
    np.testing.assert_allclose(tr.T[[0, -1]], [TA, TB], atol=1e-14)
    np.testing.assert_allclose(tr.t, np.linspace(0, 1, 40))


def test_ctraj_agrees_with_roboticstoolbox(rtb):
    from spatialmath import SE3

    ref = rtb.ctraj(SE3(TA, check=False), SE3(TB, check=False), 25)
    np.testing.assert_allclose(ctraj(TA, TB, 25).T, np.array(ref.A), atol=1e-10)
    s = np.linspace(0, 1, 17) ** 2
    ref = rtb.ctraj(SE3(TA, check=False), SE3(TB, check=False), s=s)
    np.testing.assert_allclose(ctraj(TA, TB, s).T, np.array(ref.A), atol=1e-10)
    t = np.linspace(0, 2, 13) ** 1.5  # non-uniform times: the profile is sampled at them
    ref = rtb.ctraj(SE3(TA, check=False), SE3(TB, check=False), t)
    ours = ctraj(TA, TB, 13, t=t)
    np.testing.assert_allclose(ours.T, np.array(ref.A), atol=1e-10)
    np.testing.assert_array_equal(ours.t, t)


def test_ctraj_r6_examples():
    # trinterp page: t1 = rotx(.2), t2 = transl(1,4,5)*roty(0.3), half way printed to 4 places
    t1, t2 = trotx(0.2), transl(1, 4, 5) @ troty(0.3)
    half = ctraj(t1, t2, [0.5]).T[0]
    printed = np.array([[0.9887, 0.0075, 0.1494, 0.5], [0.0075, 0.9950, -0.0998, 2.0],
                        [-0.1494, 0.0998, 0.9837, 2.5], [0, 0, 0, 1]])
    np.testing.assert_allclose(half, printed, atol=6e-5)
    # ctraj page: a smooth path vector from jtraj gives positions transl(T1) * r
    t = np.arange(0, 10, 0.056)
    r = jtraj(0, 1, t).q[:, 0]
    tc = ctraj(transl(0, 0, 0), transl(-1, 2, 1), r, t=t)
    np.testing.assert_allclose(tc.T[:, :3, 3], np.outer(r, [-1, 2, 1]), atol=1e-14)
    np.testing.assert_array_equal(tc.t, t)


def test_ctraj_profiles_and_sample_T():
    lin = ctraj(TA, TB, 5, profile="linear")
    np.testing.assert_allclose(lin.info["s"], np.linspace(0, 1, 5))
    qu = ctraj(TA, TB, 5, profile="quintic")
    np.testing.assert_allclose(qu.info["s"], jtraj(0.0, 1.0, 5).q[:, 0])
    np.testing.assert_allclose(lin.sample_T(0.25), lin.T[1], atol=1e-14)
    # between samples, sample_T is trinterp of the neighbours
    mid = lin.sample_T(np.array([0.125, 0.9]))
    np.testing.assert_allclose(mid[0], trinterp(lin.T[0], lin.T[1], 0.5), atol=1e-12)
    np.testing.assert_allclose(mid[1], trinterp(lin.T[3], lin.T[4], 0.6), atol=1e-12)
    with pytest.raises(ValueError, match="profile"):
        ctraj(TA, TB, 5, profile="cubic")
    with pytest.raises(ValueError, match="t_or_s"):
        ctraj(TA, TB, [0, 0.5, 1.2])
    with pytest.raises(ValueError, match="t_or_s"):
        ctraj(TA, TB, 1)
    with pytest.raises(ValueError, match="t_or_s contains a non-finite"):
        ctraj(TA, TB, [0.0, np.nan, 1.0])
    with pytest.raises(ValueError, match="T0"):
        ctraj(np.full((4, 4), np.nan), TB, 5)
    with pytest.raises(ValueError, match="T1"):
        ctraj(TA, TB[:3], 5)
    bad = TB.copy()
    bad[0, 0] = 2
    with pytest.raises(ValueError, match="T1"):
        ctraj(TA, bad, 5)
    with pytest.raises(ValueError, match="t must have 5"):
        ctraj(TA, TB, 5, t=np.arange(4.0))
    with pytest.raises(ValueError, match="sample_T|no poses"):
        jtraj(0, 1, 3).sample_T(0.5)


# ---------------------------------------------------------------------------- qinterp


def test_qinterp_r6_manual_numbers():
    q1, q2 = UnitQuaternion(rotx(0.3)), UnitQuaternion(roty(-0.5))
    assert str(qinterp(q1, q2, 0)) == "0.98877 <0.14944, 0, 0>"
    assert str(qinterp(q1, q2, 1)) == "0.96891 <0, -0.2474, 0>"
    np.testing.assert_allclose(qinterp(q1, q2, 0.3).vec, [0.99159, 0.10536, -0.075182, 0],
                               atol=6e-6)
    many = qinterp(rotx(0.3), roty(-0.5), [0, 0.3, 1])  # rotations accepted directly
    assert len(many) == 3 and many[1] == qinterp(q1, q2, 0.3)
    with pytest.raises(ValueError):
        qinterp(q1, q2, 1.5)
    with pytest.raises(ValueError, match="finite"):
        qinterp(q1, q2, np.nan)


# ---------------------------------------------------------------------------- Trajectory


def test_sample_index_and_clamping():
    tr = Trajectory([0.0, 1.0, 3.0], [[0.0, 10.0], [1.0, 20.0], [5.0, 0.0]])
    np.testing.assert_allclose(tr.sample(0.5), [0.5, 15.0])
    np.testing.assert_allclose(tr.sample(np.array([-1.0, 2.0, 3.0, 9.0])),
                               [[0, 10], [3, 10], [5, 0], [5, 0]])
    assert tr.index_at(0.99) == 0 and tr.index_at(1.0) == 1 and tr.index_at(7) == 2
    np.testing.assert_array_equal(tr.index_at(np.array([0.0, 2.0, 3.0])), [0, 1, 2])
    assert tr.n == 2 and len(tr) == 3 and tr.duration == 3.0
    one = Trajectory([2.0], [1.0, 2.0])
    np.testing.assert_allclose(one.sample(5.0), [1.0, 2.0])


def test_trajectory_is_read_only_and_copies_its_input():
    q = np.zeros((3, 2))
    tr = Trajectory([0, 1, 2], q)
    q[0, 0] = 9
    assert tr.q[0, 0] == 0
    with pytest.raises(ValueError):
        tr.q[0, 0] = 1.0
    with pytest.raises(AttributeError):
        tr.t = np.zeros(3)


def test_with_derivatives_resample_concatenate():
    exact = jtraj(Q0, Q1, np.linspace(0, 2, 801))
    est = Trajectory(exact.t, exact.q).with_derivatives()
    np.testing.assert_allclose(est.qd, exact.qd, atol=2e-4)
    # interior: second differences; near the ends one-sided ones, less accurate
    np.testing.assert_allclose(est.qdd[2:-2], exact.qdd[2:-2], atol=1e-3)
    np.testing.assert_allclose(est.qdd[[0, 1, -2, -1]], exact.qdd[[0, 1, -2, -1]], atol=0.1)
    assert exact.with_derivatives() is exact

    r = exact.resample(0.3)
    np.testing.assert_allclose(r.t, [0, 0.3, 0.6, 0.9, 1.2, 1.5, 1.8, 2.0], atol=1e-12)
    np.testing.assert_allclose(r.q, exact.sample(r.t))
    np.testing.assert_allclose(r.q[-1], Q1, atol=1e-12)

    back = jtraj(Q1, Q0, np.linspace(0, 1, 11))
    both = exact.concatenate(back)
    assert len(both) == len(exact) + 10 and both.end == 3.0
    np.testing.assert_allclose(both.sample(3.0), Q0, atol=1e-12)
    with pytest.raises(ValueError, match="gap"):
        exact.concatenate(jtraj(Q0, Q1, 5))
    gapped = exact.concatenate(jtraj(Q0, Q1, 5), gap=0.5)
    assert len(gapped) == len(exact) + 5 and gapped.t[len(exact)] == 2.5
    with pytest.raises(ValueError, match="axes"):
        exact.concatenate(jtraj(0, 1, 5), gap=1)
    with pytest.raises(ValueError, match="Cartesian"):
        exact.concatenate(ctraj(TA, TB, 5), gap=1)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"t": [0, 1, 1], "q": np.zeros((3, 2))}, "strictly increasing"),
        ({"t": [0, 1, 2], "q": np.zeros((2, 2))}, "q must have shape"),
        ({"t": [0, 1], "q": [[0, np.nan], [0, 0]]}, "q contains a non-finite"),
        ({"t": [0, 1], "q": np.zeros((2, 2)), "qd": np.zeros((2, 3))}, "qd must have shape"),
        ({"t": [0, 1], "qd": np.zeros((2, 3))}, "needs"),
        ({"t": [0, 1]}, "needs joint coordinates q"),
        ({"t": [[0, 1]], "q": np.zeros((2, 1))}, "t must be a 1-D"),
        ({"t": [0, 1], "T": np.stack([np.eye(4), 2 * np.eye(4)])}, "T"),
    ],
)
def test_trajectory_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Trajectory(**kwargs)


# ---------------------------------------------------------------------------- CSV


def test_csv_round_trip_is_exact(tmp_path):
    tr = jtraj(Q0, Q1, np.linspace(0, 1.7, 33), qd0=np.full(6, 1 / 3))
    path = tmp_path / "move.csv"
    tr.to_csv(path)
    back = Trajectory.from_csv(path, n=6)
    for name in ("t", "q", "qd", "qdd"):
        np.testing.assert_array_equal(getattr(back, name), getattr(tr, name))
    assert back.name == "jtraj" and back.T is None
    assert path.read_text().splitlines()[1] == (
        "t," + ",".join(f"q{i}" for i in range(1, 7)) + ","
        + ",".join(f"qd{i}" for i in range(1, 7)) + "," + ",".join(f"qdd{i}" for i in range(1, 7)))
    assert os.listdir(tmp_path) == ["move.csv"]  # the temporary file is gone

    cart = ctraj(TA, TB, 9)
    cart.to_csv(path)  # overwrites atomically
    back = Trajectory.from_csv(path)
    np.testing.assert_array_equal(back.T, cart.T)
    np.testing.assert_array_equal(back.t, cart.t)
    assert back.q is None and os.listdir(tmp_path) == ["move.csv"]


def test_csv_import_of_t_and_q_only(tmp_path):
    path = tmp_path / "hand.csv"
    path.write_text("# made by hand\n\nt, q2 ,q1\r\n0, 1, 0\r\n0.5,1.5,0.25\n\n1.0,2,1\n")
    tr = Trajectory.from_csv(path)
    np.testing.assert_array_equal(tr.q, [[0, 1], [0.25, 1.5], [1, 2]])
    assert tr.qd is None and tr.name == ""
    full = tr.with_derivatives()
    np.testing.assert_allclose(full.qd[:, 1], [1, 1, 1])


def _fails(tmp_path, text, n=None):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(TrajectoryFileError) as info:
        Trajectory.from_csv(path, n=n)
    msg = str(info.value)
    assert str(path) in msg
    assert isinstance(info.value, ValueError)
    return msg


@pytest.mark.parametrize(
    "text, n, where",
    [
        ("0,1,2\n1,2,3\n", None, "line 1, column 1"),  # header missing
        ("t,q1,q2\n0,1,2\n1,x,3\n", None, "line 3, column 2 ('q1')"),  # non-numeric
        ("t,q1,q2\n0,1,2\n1,2,\n", None, "line 3, column 3 ('q2')"),  # empty cell
        ("t,q1,q2\n0,1,2\n1,nan,3\n", None, "line 3, column 2 ('q1')"),  # NaN
        ("t,q1,q2\n0,1,2\n1,2,inf\n", None, "line 3, column 3 ('q2')"),  # infinite
        ("t,q1,q2\n0,1,2\n1,2,3\n0.5,2,3\n", None, "line 4, column 1 ('t')"),  # decreasing t
        ("t,q1,q2\n0,1,2\n1,2,3\n1,2,3\n", None, "line 4, column 1 ('t')"),  # repeated t
        ("# c\nt,q1,q2\n0,1,2\n\n1,2\n", None, "line 5, column 3 ('q2')"),  # ragged (short)
        ("t,q1,q2\n0,1,2,7\n", None, "line 2, column 4"),  # ragged (long)
        ("t,q1,q2\n0,1,2\n", 3, "line 1, column 'q3'"),  # wrong n (fewer)
        ("t,q1,q2,q3\n0,1,2,3\n", 2, "line 1, column 4 ('q3')"),  # wrong n (more)
        ("t,q1,speed\n0,1,2\n", None, "line 1, column 3 ('speed')"),  # unknown name
        ("t,q1,q1\n0,1,2\n", None, "line 1, column 3 ('q1')"),  # duplicate
        ("t,q1,q3\n0,1,2\n", None, "line 1, column 'q2'"),  # gap in numbering
        ("t,q1,qd1,qd2\n0,1,2,3\n", None, "line 1, column 4 ('qd2')"),  # qd without q2
        ("q1,q2\n0,1\n", None, "line 1"),  # no t column
        ("t,q1\n", None, "line 2"),  # no data
        ("t,q1\n0,1 # note\n", None, "line 2, column 2 ('q1')"),  # no comments in rows
    ],
)
def test_csv_errors_name_file_line_and_column(tmp_path, text, n, where):
    msg = _fails(tmp_path, text, n)
    assert where in msg, msg


def test_csv_error_messages_say_what_is_wrong(tmp_path):
    assert "header row is missing" in _fails(tmp_path, "0,1,2\n")
    assert "'x'" in _fails(tmp_path, "t,q1\n0,1\n1,x\n")
    assert "not finite" in _fails(tmp_path, "t,q1\n0,nan\n")
    assert "strictly increasing" in _fails(tmp_path, "t,q1\n1,0\n0,1\n")
    assert "expected 6 joints" in _fails(tmp_path, "t,q1\n0,1\n", n=6)
    assert "empty" in _fails(tmp_path, "")
    rot = ",".join(["T11", "T12", "T13", "T14", "T21", "T22", "T23", "T24",
                    "T31", "T32", "T33", "T34"])
    msg = _fails(tmp_path, f"t,{rot}\n0,1,0,0,0,0,1,0,0,0,0,1,0\n1,2,0,0,0,0,1,0,0,0,0,1,0\n")
    assert "line 3" in msg and "rotation" in msg
    assert "T34" in _fails(tmp_path, f"t,{rot[:-4]}\n0," + ",".join("0" * 11) + "\n")
    with pytest.raises(TrajectoryFileError, match="missing.csv: cannot read the file"):
        Trajectory.from_csv(tmp_path / "missing.csv")


def test_csv_write_failure_leaves_old_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.csv"
    jtraj(0, 1, 3).to_csv(path)
    before = path.read_text()

    def broken(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        jtraj(0, 2, 5).to_csv(path)
    assert path.read_text() == before
    assert os.listdir(tmp_path) == ["keep.csv"]


def test_sample_matches_np_interp_on_a_large_trajectory():
    t = np.linspace(0, 10, 20_001)
    tr = jtraj(Q0, Q1, t)
    times = np.random.default_rng(1).uniform(-1, 11, 10_000)
    out = tr.sample(times)
    assert out.shape == (10_000, 6)
    for j in range(6):
        np.testing.assert_allclose(out[:, j], np.interp(times, t, tr.q[:, j]), atol=1e-13)
