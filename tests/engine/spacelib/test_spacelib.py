"""SpaceLib matrix method: the manual's worked examples (seed 002) and cross-checks.

Where the manual's listing and its printed result disagree the listing is right
(conventions.md); each such case is commented.
"""

import numpy as np
import pytest

from robogui.engine import spacelib as sl
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot

X, Y, Z = sl.X, sl.Y, sl.Z
SEQS = [(i, j, k) for i in range(3) for j in range(3) for k in range(3) if j != i and j != k]


def close(a, b, tol=1e-3):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), atol=tol, rtol=0)


# --- 3.1 dhtom --------------------------------------------------------------------------
def test_dhtom_b0_equals_dhtomstd_stanford():
    # example 3.1: Stanford arm, dhtom with b = 0 equals dhtomstd
    jt = [0, 0, 1, 0, 0, 0]
    d = [0, 0.2, 0, 0, 0, 0]
    alpha = [-np.pi / 2, np.pi / 2, 0, -np.pi / 2, np.pi / 2, 0]
    Q = np.random.default_rng(0).random(6)
    Ma, Mb = np.eye(4), np.eye(4)
    for i in range(6):
        th, dd = (Q[i], d[i]) if jt[i] == 0 else (0.0, Q[i])
        Ma = Ma @ sl.dhtomstd(th, dd, 0.0, alpha[i])
        Mb = Mb @ sl.dhtom(jt[i], 0.0, d[i], 0.0, 0.0, alpha[i], Q[i])
    np.testing.assert_allclose(Ma - Mb, 0, atol=1e-15)


def test_dhtom_eq_3_1_with_b():
    th, d, b, a, al, q = 0.3, 0.2, 0.15, 0.5, -0.7, 0.4
    M = sl.dhtom(sl.Rev, th, d, b, a, al, q)
    t = th + q
    close(M[:3, 3], [a * np.cos(t) - b * np.sin(t), a * np.sin(t) + b * np.cos(t), d], 1e-15)
    # = ROT(z) TRAS(z) TRAS(x) TRAS(y) ROT(x)
    ref = sl.rotat24(Z, t, (0, 0, 0)) @ sl.traslat2(Z, d) @ sl.traslat2(X, a) @ \
        sl.traslat2(Y, b) @ sl.rotat24(X, al, (0, 0, 0))
    close(M, ref, 1e-15)
    Mp = sl.dhtom("P", th, d, b, a, al, np.array([0.1, 0.2]))
    assert Mp.shape == (2, 4, 4)
    close(Mp[:, 2, 3], [d + 0.1, d + 0.2], 1e-15)


# --- 3.1 screws (examples 3.2-3.5) and 7.3 rototranslation ------------------------------
Q_EX = np.array([[0, 1, 0, 2], [-1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def test_extract_screwtom_rotat_examples():
    M10 = np.array([[1, 0, 0, 0], [0, 1, 0, -1], [0, 0, 1, -2], [0, 0, 0, 1.0]])
    M02 = np.array([[0, 1, 0, 3], [-1, 0, 0, 0], [0, 0, 1, 2], [0, 0, 0, 1.0]])
    close(M02 @ M10, Q_EX, 0)
    u, phi = sl.extract(Q_EX)
    close(u, [0, 0, -1], 1e-15)
    assert phi == pytest.approx(np.pi / 2)
    u, phi, P, h = sl.mtoscrew(Q_EX)  # example 3.3
    close(P, [1, -1, 0, 1], 1e-12)
    assert h == pytest.approx(0) and phi == pytest.approx(1.57079, abs=1e-5)
    close(sl.screwtom([0, 0, -1], np.pi / 2, [1, -1, 0, 1], 0), Q_EX, 1e-15)  # example 3.4
    close(sl.rotat([0, 0, -1], np.pi / 2), Q_EX[:3, :3], 1e-15)  # example 3.5


def test_rototranslation_program_7_3():
    P = [[0, 1, 2, 1], [0, 6, 2, 1], [0, 1, 6, 1], [3, 0, 2, 1], [8, 0, 2, 1], [3, 0, 6, 1]]
    m01 = sl.frame4p(P[0], P[1], P[2], Y, Z)
    m02 = sl.frame4p(P[3], P[4], P[5], Y, Z)
    Q = m02 @ sl.invers(m01)
    close(Q, Q_EX, 1e-12)
    u, fi, Pt, h = sl.mtoscrew(Q)
    close(u, [0, 0, -1], 1e-12)
    assert fi == pytest.approx(1.57079, abs=1e-5) and h == pytest.approx(0, abs=1e-12)
    close(Pt, [1, -1, 0, 1], 1e-12)


def test_screw_roundtrip_random():
    rng = np.random.default_rng(3)
    for _ in range(20):
        u = rng.normal(size=3)
        u /= np.linalg.norm(u)
        phi, h = rng.uniform(0.1, 3.0), rng.normal()
        P = rng.normal(size=3)
        Q = sl.screwtom(u, phi, P, h)
        u2, phi2, P2, h2 = sl.mtoscrew(Q)
        close(sl.screwtom(u2, phi2, P2, h2), Q, 1e-9)
        assert abs(P2[:3] @ u2) < 1e-9  # nearest point to the origin


# --- 3.2 speed and acceleration ---------------------------------------------------------
def test_gtom_makel_wtol_wtovel():
    close(sl.gtom([0, 0, -9.81])[:, 3], [0, 0, -9.81, 0], 0)
    close(sl.makel(sl.Rev, [0, 0, 1], 0, [0, 0, 0, 1])[:3, :3],
          [[0, -1, 0], [1, 0, 0], [0, 0, 0]], 0)  # example 3.7, L(0)
    Lk = sl.makel(sl.Rev, [-1, 0, 0], 0.0, [0, 1.2, 1.2, 1])  # example 3.7, L(k)
    close(Lk, [[0, 0, 0, 0], [0, 0, 1, -1.2], [0, -1, 0, 1.2], [0, 0, 0, 0]], 1e-15)
    close(sl.makel(sl.Pri, [1, 0, 0], 0, [0, 0, 0])[0, 3], 1, 0)  # example 3.8
    W = np.zeros((4, 4))
    W[1, 3] = W[2, 3] = 1.4142
    close(sl.wtol(W)[1:3, 3], [0.7071, 0.7071], 1e-4)  # example 3.9
    W = np.array([[0, 0, 0, 0], [0, 0, -2, 0], [0, 2, 0, 0], [0, 0, 0, 0.0]])
    close(sl.wtol(W), W / 2, 0)  # example 3.10
    W = np.array([[0, -2, 2.5, 2.5], [2, 0, -4.5, 1.7], [-2.5, 4.5, 0, 3.2], [0, 0, 0, 0.0]])
    u, om, vel, P = sl.wtovel(W)  # example 3.11
    close(u, [0.815, 0.453, 0.362])
    assert om == pytest.approx(5.52, abs=5e-3) and vel == pytest.approx(3.965, abs=1e-3)
    close(P, [0.151, -0.308, 0.046, 1])
    Wt = np.zeros((4, 4))
    Wt[:3, 3] = [2.5, 1.7, 3.2]
    u, om, vel, P = sl.wtovel(Wt)
    close(u, [0.568, 0.386, 0.727])
    close(P, [0, 0, 0, 1], 0)
    assert om == 0 and vel == pytest.approx(4.40227, abs=1e-5)


def test_vactowh2_and_change_of_frame_examples_3_12_3_14():
    W1, H1 = sl.vactowh2(sl.Rev, Z, 1.5, 0.9)
    close(W1[:2, :2], [[0, -1.5], [1.5, 0]], 0)
    close(H1[:2, :2], [[-2.25, -0.9], [0.9, -2.25]], 1e-15)
    M01 = sl.traslat24(X, 0.0, [0.4, 0.1, 0])
    W0, H0 = sl.mami(W1, M01), sl.mami(H1, M01)
    close(W0[:2, 3], [0.150, -0.600], 1e-12)
    # printed H(0)(1,4) is 0.900: a misprint for 0.990 = 2.25*0.4 + 0.9*0.1
    close(H0[:2, 3], [0.990, -0.135], 1e-12)
    W0b, H0b = sl.vactowh3(sl.Rev, Z, 1.5, 0.9, [0.4, 0.1, 0])
    close(W0b, W0, 1e-15)
    close(H0b, H0, 1e-15)
    close(sl.miam(W0, M01), W1, 1e-15)
    close(sl.coriolis(H1, H1, W1, W1), 2 * H1 + 2 * W1 @ W1, 0)
    close(sl.gtomgapt(H1[:3, :3]), [0, 0, 0.9], 1e-15)


# --- 3.3 inertia and actions ------------------------------------------------------------
def test_jtoj_cylinder_example_3_13():
    J0 = sl.jtoj(15.71, 36.633, 36.633, 7.85, 0, 0, 0, 0, 0, 0)
    close(np.diag(J0), [3.925, 3.925, 32.708, 15.71], 1e-3)
    J1 = sl.jtoj(15.71, 36.633, 36.633, 7.85, 0, 0, 0, 0, 3, 4)
    close(J1, [[3.925, 0, 0, 0], [0, 145.315, 188.52, 47.13],
               [0, 188.52, 284.068, 62.84], [0, 47.13, 62.84, 15.71]], 1e-3)
    M10 = sl.traslat24(X, 0, [0, 3, 4])  # the same by mamt
    close(sl.mamt(J0, M10), J1, 1e-12)
    close(sl.miamit(J1, M10), J0, 1e-12)


def test_actom_psedot_and_angular_momentum_example_3_15():
    F = sl.actom([1, 2, 3], [4, 5, 6])
    close(F, [[0, -6, 5, 1], [6, 0, -4, 2], [-5, 4, 0, 3], [-1, -2, -3, 0]], 0)
    W = np.array([[0, -3, 2, 7], [3, 0, -1, 8], [-2, 1, 0, 9], [0, 0, 0, 0.0]])
    assert sl.pse_dot(W, F) == pytest.approx(1 * 4 + 2 * 5 + 3 * 6 + 7 * 1 + 8 * 2 + 9 * 3)
    P = np.array([[2, 3, 4, 1], [0, 1, 0, 1], [1, 3, 0, 1.0]])
    Pd = np.array([[1, 0, 2, 0], [4, 0.5, 1, 0], [0, 0, 1, 0.0]])
    m = [5, 1, 2.5]
    G1 = sum(mi * (np.outer(pd, p) - np.outer(p, pd)) for p, pd, mi in zip(P, Pd, m, strict=True))
    # the printed Gamma(1) has (3,2) = 19: a misprint for 38.5 (the listing has 38.5)
    close(G1, [[0, 19, -2.5, 9], [-19, 0, -38.5, 0.5], [2.5, 38.5, 0, 13.5],
               [-9, -0.5, -13.5, 0]], 1e-12)
    # the listing's m has translation (1.2, -0.5, 4); the printed M01 (-1.2, 0.5, 4) differs
    m01 = np.array([[0, 1, 0, 1.2], [-1, 0, 0, -0.5], [0, 0, 1, 4], [0, 0, 0, 1.0]])
    G0 = sl.mamt(G1, m01)
    close(G0[:3, :3], [[0, 29.55, -52.7], [-29.55, 0, -26.75], [52.7, 26.75, 0]], 1e-12)
    # the printed momentum column (9, 0.5, 13.5) is Gamma(1)'s; rotated it is R p
    close(G0[:3, 3], m01[:3, :3] @ [9, 0.5, 13.5], 1e-12)
    close(sl.miamit(G0, m01), G1, 1e-12)


def test_skew_is_newton_euler_for_a_body():
    rng = np.random.default_rng(5)
    mass, r = 2.0, rng.normal(size=3)
    I = np.diag([0.3, 0.4, 0.5])
    J = sl.pseudo_inertia(mass, r, I)
    w, wd, a0 = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
    W = np.zeros((4, 4))
    W[:3, :3] = sl.vtom(w)
    Wd = np.zeros((4, 4))
    Wd[:3, :3], Wd[:3, 3] = sl.vtom(wd), a0
    F = sl.skew(Wd + W @ W, J)
    force, torque = sl.action_vectors(F)
    acc_c = a0 + np.cross(wd, r) + np.cross(w, np.cross(w, r))  # COM acceleration
    close(force, mass * acc_c, 1e-12)
    Ic = I  # Euler about the COM, moved to the origin
    close(torque, Ic @ wd + np.cross(w, Ic @ w) + np.cross(r, mass * acc_c), 1e-12)


def test_dyn_eq_round_trip_and_mixed_unknowns():
    rng = np.random.default_rng(2)
    J = sl.pseudo_inertia(3.0, [0.1, -0.2, 0.3], np.diag([0.2, 0.3, 0.25]))
    Wp = np.zeros((4, 4))
    Wp[:3, :3], Wp[:3, 3] = sl.vtom(rng.normal(size=3)), rng.normal(size=3)
    F = sl.skew(Wp, J)
    Ws, Fs, ok = sl.dyn_eq(J, np.zeros((4, 4)), F, [[1] * 6, [0] * 6])
    assert ok == sl.OK
    close(Ws, Wp, 1e-12)
    _, Fs, ok = sl.dyn_eq(J, Wp, np.zeros((4, 4)), [[0] * 6, [1] * 6])
    close(Fs, F, 1e-12)
    var = [[1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1]]  # half known on each side
    Wk = Wp.copy()
    Wk[2, 1] = Wk[1, 2] = Wk[1, 0] = Wk[0, 1] = Wk[1, 3] = 0  # unknown entries blanked
    Fk = F.copy()
    Ws, Fs, ok = sl.dyn_eq(J, Wk, Fk, var)
    close(Ws, Wp, 1e-10)
    close(Fs, F, 1e-10)
    _, _, ok = sl.dyn_eq(np.zeros((4, 4)), Wk, Fk, [[1] * 6, [0] * 6])
    assert ok == sl.NOTOK
    with pytest.raises(ValueError, match="var"):
        sl.dyn_eq(J, Wp, F, [[1] * 6, [1] * 6])


def _momentum_drift(dt, t_end=0.2):
    J1 = sl.jtoj(10, 1, 1, 1, 0, 0, 0, 1, 0, 0)  # TEST.DAT: both links alike
    J2 = J1
    m1, W1 = np.eye(4), np.zeros((4, 4))
    W1[0, 3] = 1.0
    q = qp = 0.0
    G0 = None
    for k in range(int(round(t_end / dt))):
        qpp = 100.0 * np.sin(25.0 * k * dt)
        m1n, W1n, H1, H2, m2, W2 = sl.free_two_body_step(m1, W1, J1, J2, q, qp, qpp, dt)
        J10, J20 = sl.mamt(J1, m1), sl.mamt(J2, m2)
        # no external action: the total inertia action vanishes at every step
        close(sl.skew(H1, J10) + sl.skew(H2, J20), 0, 1e-9)
        G = sl.skew(W1, J10) + sl.skew(W2, J20)
        G0 = G if G0 is None else G0
        q, qp = q + qp * dt + 0.5 * qpp * dt**2, qp + qpp * dt
        m1, W1 = m1n, W1n
    return np.abs(G - G0).max()


def test_free_two_body_keeps_momentum():
    # momentum is conserved up to the first-order integration error: it shrinks with dt
    coarse, fine = _momentum_drift(0.002), _momentum_drift(0.0005)
    assert fine < 0.05 and coarse / fine > 3.0


# --- 3.4 normalisation -----------------------------------------------------------------
def test_normal_and_normskew():
    R = sl.rotat([1, 2, 3], 0.7) + 1e-4
    M = np.eye(4)
    M[:3, :3] = R
    Rn = sl.normal(M)[:3, :3]
    close(Rn.T @ Rn, np.eye(3), 1e-12)
    close(Rn, sl.rotat([1, 2, 3], 0.7), 2e-4)
    A = np.arange(9.0).reshape(3, 3)
    close(sl.normskew(A, 1) + sl.normskew(A, -1), A, 0)


# --- 3.5 Cardan / Euler angles ----------------------------------------------------------
def test_rtocarda_example_3_16():
    R = [[0.840, -0.395, -0.371], [-0.415, -0.029, -0.909], [0.348, 0.918, -0.189]]
    q1, q2 = sl.rtocarda(R, Y, X, Z)
    close(q1, [-2.042, 1.141, -1.641])
    close(q2, [1.100, 2.001, 1.501])


def test_cardan_examples_3_17_to_3_23():
    m = sl.cardatom([1, 2, 1.5], X, Z, Y, [100, 200, 300])
    close(m, [[-0.029, -0.909, -0.415, 100], [0.874, -0.225, 0.431, 200],
              [-0.485, -0.350, 0.801, 300], [0, 0, 0, 1]])
    # example 3.18: the text says q = (1, 2.5, 0.9), qp = (0.2, 4, 1); the listing is right
    q, qp, qpp = [0.1, 0.5, 0.9], [0.2, 0.4, 0.1], [0.5, 1.2, 0.3]
    W = sl.cardatow(q, qp, X, Z, Y, [50, 10, 100])
    close(W, [[0, -0.407, 0.047, -0.671], [0.407, 0, -0.152, -5.132],
              [-0.047, 0.152, 0, 0.849], [0, 0, 0, 0]])
    close(sl.cardtoom([10, 5, 12], [0, 2, 1], Z, Y, X), [0.850, -1.832, 0.959])  # 3.19
    close(sl.cardtome([10, 5, 12], [0, 2, 1], Z, Y, X),
          [[0, -0.959, -1.832], [0.959, 0, -0.850], [1.832, 0.850, 0]])  # 3.20
    H = sl.cardatoh(q, qp, qpp, X, Z, Y, [50, 10, 100])  # 3.21
    close(H, [[-0.168, -1.221, 0.104, 10.234], [1.235, -0.189, -0.302, -29.688],
              [0.020, 0.340, -0.025, -1.873], [0, 0, 0, 0]])
    close(sl.cardatog(q, qp, qpp, Y, X, Z),
          [[-0.025, 0.020, 0.340], [0.104, -0.168, -1.221], [-0.302, 1.235, -0.189]])  # 3.22
    close(sl.cardompt([1, 1.2, 3], [0, 1, 0], [3, 2.5, 4.01], Y, X, Z),
          [2.573, -0.737, -1.319])  # 3.23


@pytest.mark.parametrize("seq", SEQS)
def test_cardan_roundtrip_every_sequence(seq):
    rng = np.random.default_rng(sum(seq))
    q = rng.uniform(-1.2, 1.2, 3) + np.array([0, 0.2 if seq[0] == seq[2] else 0, 0])
    R = sl.cardator(q, *seq)
    q1, q2 = sl.rtocarda(R, *seq)
    close(sl.cardator(q1, *seq), R, 1e-12)
    close(sl.cardator(q2, *seq), R, 1e-12)
    assert not np.allclose(q1, q2)
    # velocity and acceleration forms against finite differences and htocarda
    qp, qpp = rng.normal(size=3), rng.normal(size=3)
    h = 1e-6
    Rd = (sl.cardator(q + h * qp, *seq) - sl.cardator(q - h * qp, *seq)) / (2 * h)
    close(sl.cardtome(q, qp, *seq), Rd @ R.T, 1e-8)
    w = lambda t: sl.cardtoom(q + t * qp + 0.5 * t * t * qpp, qp + t * qpp, *seq)
    close(sl.cardompt(q, qp, qpp, *seq), (w(h) - w(-h)) / (2 * h), 1e-6)
    M = sl.cardatom(q, *seq)
    W = sl.cardatow(q, qp, *seq)
    H = sl.cardatoh(q, qp, qpp, *seq)
    r = sl.htocarda(M, W, H, *seq)
    sol = 0 if np.allclose(r[0], q) else 1
    close(r[sol], q, 1e-9)
    close(r[2 + sol], qp, 1e-9)
    close(r[4 + sol], qpp, 1e-8)


def test_cardan_gimbal_lock_and_bad_sequence():
    for seq in [(X, Y, Z), (Z, Y, Z)]:
        q = [0.3, np.pi / 2 if seq[0] != seq[2] else 0.0, 0.4]
        R = sl.cardator(q, *seq)
        q1, _ = sl.rtocarda(R, *seq)
        close(sl.cardator(q1, *seq), R, 1e-9)
    # every sequence at both singular middle angles (Cardan +-pi/2, Euler 0 and pi):
    # both returned solutions give the rotation back
    for seq in SEQS:
        for mid in ((np.pi / 2, -np.pi / 2) if seq[0] != seq[2] else (0.0, np.pi)):
            R = sl.cardator([0.3, mid, 0.4], *seq)
            for q in sl.rtocarda(R, *seq):
                close(sl.cardator(q, *seq), R, 1e-12)
    with pytest.raises(ValueError, match="axis j"):
        sl.cardator([0, 0, 0], X, X, Z)


# --- 3.6 / 3.7 frames, points, lines, planes ---------------------------------------------
def test_frames_examples_3_24_to_3_27():
    P1, P2, P3 = [5, 4, 3, 1], [5, 6, 4, 1], [5, 5, 5, 1]
    # the printed R01 of 3.24 has a 1 in (3,3): a misprint (3.25 and 3.26 print 0)
    R = [[0, 0, 1], [0.894, -0.447, 0], [0.447, 0.894, 0]]
    close(sl.framep(P1, P2, P3, X, Y), R)
    m01 = sl.frame4p(P1, P2, P3, X, Y)
    close(m01[:3, :3], R)
    close(m01[:3, 3], [5, 4, 3], 0)
    close(sl.framev([0, 2, 1], [0, 1, 2], X, Y), R)
    close(sl.frame4v(P1, [0, 2, 1], [0, 1, 2], X, Y), m01, 1e-15)
    for a1, a2 in [(X, Y), (Y, X), (Z, X), (Y, Z), (X, Z), (Z, Y)]:
        Rf = sl.framev([1, 2, 3], [0, 1, -1], a1, a2)
        assert np.linalg.det(Rf) == pytest.approx(1.0)
        close(Rf[:, a1], np.array([1, 2, 3]) / np.sqrt(14), 1e-12)
    close(sl.aaxis(Y), [0, 1, 0], 0)


def test_points_lines_planes_examples_3_28_3_29():
    l_ = [[3, 0.7], [7.2, 4], [2.05, 9], [1, 0]]
    P = [5, 1, 3, 1]
    P1, dist = sl.projponl(l_, P)  # the manual passes (l, P)
    l2 = sl.line2p(P, P1)
    close(l2[:, 0], [5, 1, 3, 1], 0)
    close(l2[:3, 1], [-0.3287, 0.8723, -0.3621], 1e-4)
    assert dist == pytest.approx(sl.distp(P, P1))
    pl = [0, 0, 1, -5]
    line = np.zeros((4, 2))
    line[:, 0], line[:, 1] = [0, 6, 10, 1], [0, 0, 1, 0]
    Pi, kind = sl.interlpl(line, pl)
    assert kind == 0
    d = sl.distp([0, 6, 10, 1], Pi)
    Ps = Pi[:3] - d * np.array([0, 0, 1.0])
    close(Ps, [0, 6, 0], 1e-12)
    # further operations
    assert sl.angle([1, 0, 0], [0, 0, 0], [0, 1, 0]) == pytest.approx(np.pi / 2)
    close(sl.middle([0, 0, 0], [2, 4, 6]), [1, 2, 3, 1], 0)
    close(sl.intermed([0, 0, 0], 1, [3, 0, 0], 2), [2, 0, 0, 1], 0)
    close(sl.vect([1, 2, 3], [1, 1, 1]), [0, 1, 2], 0)
    plx = sl.plane([0, 0, 1], [1, 0, 1], [0, 1, 1])
    close(plx, [0, 0, 1, -1], 1e-15)
    assert sl.distpp(plx, [3, 4, 5]) == pytest.approx(4.0)
    I, dd = sl.project([3, 4, 5], plx)
    close(I, [3, 4, 1, 1], 1e-15)
    close(sl.plane2([0, 0, 2], [0, 0, 3]), [0, 0, 1, -2], 1e-15)
    ln, ok = sl.inter2pl([1, 0, 0, -1], [0, 1, 0, -2])
    assert ok == 1
    close(ln[:3, 0], [1, 2, 0], 1e-12)
    close(abs(ln[2, 1]), 1, 1e-12)
    assert sl.interlpl(sl.linpvect([0, 0, 0], [1, 0, 0]), [0, 0, 1, 0])[1] == 1
    assert sl.interlpl(sl.linpvect([0, 0, 1], [1, 0, 0]), [0, 0, 1, 0])[1] == -1


def test_intersec_kinds():
    la = sl.linpvect([0, 0, 0], [1, 0, 0])
    lm, dist, pl, I, kind = sl.intersec(la, sl.linpvect([0, 0, 1], [0, 1, 0]))
    assert kind == 1 and dist == pytest.approx(1.0)
    close(I, [0, 0, 0.5, 1], 1e-12)
    assert sl.intersec(la, sl.linpvect([2, -1, 0], [0, 1, 0]))[4] == 0
    assert sl.intersec(la, sl.linpvect([5, 0, 0], [-1, 0, 0]))[4] == -1
    lm, dist, pl, I, kind = sl.intersec(la, sl.linpvect([0, 3, 0], [1, 0, 0]))
    assert kind == 2 and dist == pytest.approx(3.0) and I is None


# --- 7.4 Scara robot (ROBSCARA.M) -----------------------------------------------------
def test_scara_program_7_4():
    q, qp = [np.pi / 4, np.pi / 6, 0.5], [np.pi * 5 / 4, np.pi * 5 / 4, -0.5]
    m01 = sl.rotat34(Z, 0, [0, 0, 1.5])
    m12 = sl.rotat34(Z, q[0], [0.33, 0, 0])
    m23 = sl.rotat34(Z, q[1], [0.33, 0, 0])
    m34 = sl.rotat34(Z, 0, [0, 0, -0.5])
    m02 = m01 @ m12
    m03 = m02 @ m23
    m04 = m03 @ m34
    m0a = np.eye(4)
    m0a[:, 3] = m04[:, 3]
    close(m0a, [[1, 0, 0, 0.319], [0, 1, 0, 0.552], [0, 0, 1, 1], [0, 0, 0, 1]])
    L = [sl.mami(sl.makel2(jt, Z, 0, [0, 0, 0]), m) for jt, m in
         [(sl.Rev, m01), (sl.Rev, m02), (sl.Pri, m03)]]
    W04 = sum(Li * qi for Li, qi in zip(L, qp, strict=True))
    close(W04, [[0, -7.854, 0, 0.916], [7.854, 0, 0, -0.916], [0, 0, 0, -0.5], [0, 0, 0, 0]])
    close(sl.miam(W04, m0a), [[0, -7.854, 0, -3.420], [7.854, 0, 0, 1.587],
                              [0, 0, 0, -0.5], [0, 0, 0, 0]])


# --- 7.5 satellite (SAT.M) ------------------------------------------------------------
def test_satellite_program_7_5():
    P1, P2 = np.array([0.875, 2.1, 1.5]), np.array([1.75, 2.1, 3.2])
    mi = np.array([[1, 0, 0, 0.875], [0, 0, 1, 2.1], [0, -1, 0, 1.5], [0, 0, 0, 1.0]])
    alpha = np.arctan2(P2[2] - P1[2], P2[0] / 2)
    beta = np.arctan2(P2[1], P2[0])
    d = sl.distp(P1, P2)
    sba, cba = np.sin(beta - alpha), np.cos(beta - alpha)
    m4 = np.array([[-cba, -sba, 0, P2[0] + d * np.cos(beta)],
                   [-sba, cba, 0, P2[1] + d * np.sin(beta)], [0, 0, -1, P2[2]], [0, 0, 0, 1]])
    close(m4[:3, :3], [[-0.976, 0.218, 0], [0.218, 0.976, 0], [0, 0, -1]])
    Q5 = sl.screwtom([np.sin(beta), -np.cos(beta), 0], np.radians(26), P2, 0)
    close(Q5[:3, :3], [[0.959, -0.050, -0.281], [-0.050, 0.940, -0.337],
                       [0.281, 0.337, 0.899]])
    Qtot = Q5 @ m4 @ sl.invers(mi)
    u, fi, P, h = sl.mtoscrew(Qtot)
    close(u, [0.1633, 0.8175, -0.5523], 1e-4)
    assert np.degrees(fi) == pytest.approx(178.58, abs=0.01) and h == pytest.approx(0, abs=1e-9)


# --- cross-checks of the chain matrix method ---------------------------------------------
def _random_robot(rng, n, mdh=False):
    links = []
    for j in range(n):
        A = rng.normal(size=(3, 3))
        links.append(Link(joint="P" if (j == 2 and n > 3) else "R", theta=rng.normal(),
                          d=rng.normal() * 0.3, a=rng.normal() * 0.3, alpha=rng.normal(),
                          offset=rng.normal() * 0.1, mdh=mdh, m=rng.uniform(0.5, 3),
                          r=rng.normal(size=3) * 0.1, I=A @ A.T * 0.05, qlim=(-1, 1)))
    tool = np.eye(4)
    tool[:3, 3] = [0.05, -0.02, 0.1]
    return Robot(links, name="rand", tool=tool)


@pytest.mark.parametrize("mdh", [False, True])
def test_chain_positions_and_velocities_match_fkine_and_finite_differences(mdh):
    rng = np.random.default_rng(11 + mdh)
    robot = _random_robot(rng, 5, mdh)
    ch = sl.chain_from_robot(robot)
    q, qd, qdd = rng.normal(size=(3, 5)), rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
    mot = sl.chain_motion(ch, q, qd, qdd)
    close(mot.T_tool, robot.fkine(q), 1e-12)
    close(mot.T[:, 1:], robot.fkine_all(q)[:, 1:] if robot.tool_is_identity else
          np.concatenate([robot.fkine_all(q)[:, 1:-1], mot.T[:, -1:]], axis=1), 1e-12)
    # W T = dT/dt and H T = d2T/dt2 (finite differences of fkine along the trajectory)
    h = 1e-5
    Tt = lambda t: robot.fkine(q + t * qd + 0.5 * t * t * qdd)
    Td = (Tt(h) - Tt(-h)) / (2 * h)
    Tdd = (Tt(h) - 2 * Tt(0) + Tt(-h)) / h**2
    close(mot.WA[:, -1] @ mot.T_tool, Td, 1e-7)
    close(mot.HA[:, -1] @ mot.T_tool, Tdd, 1e-3)


def test_coriolis_theorem_composes_absolute_accelerations():
    # frame 1 moves in frame 0 (M01(t)); frame 2 moves relative to frame 1 (M12(t)).
    # W and H of M02 = M01 M12 follow from W0 + W1(0) and coriolis(H0, H1(0), W0, W1(0))
    rng = np.random.default_rng(17)
    u1, u2 = rng.normal(size=3), rng.normal(size=3)
    P1, P2 = rng.normal(size=3), rng.normal(size=3)
    M01 = lambda t: sl.screwtom(u1, 0.3 + 1.1 * t + 0.7 * t * t, P1, 0.2 * t - 0.4 * t * t)
    M12 = lambda t: sl.screwtom(u2, -0.5 + 0.9 * t - 1.3 * t * t, P2, 0.6 * t * t)

    def wh(M, t=0.0, h=1e-4):
        Md = (M(t + h) - M(t - h)) / (2 * h)
        Mdd = (M(t + h) - 2 * M(t) + M(t - h)) / h**2
        Mi = sl.invers(M(t))
        return Md @ Mi, Mdd @ Mi  # W = Mdot M^-1, H = Mddot M^-1

    W0, H0 = wh(M01)
    W1, H1 = wh(M12)  # relative motion, in frame 1
    W1o, H1o = sl.mami(W1, M01(0.0)), sl.mami(H1, M01(0.0))  # the same in frame 0
    W2, H2 = wh(lambda t: M01(t) @ M12(t))
    close(W0 + W1o, W2, 1e-7)
    close(sl.coriolis(H0, H1o, W0, W1o), H2, 1e-5)
    # without the Coriolis term the composition is wrong
    assert np.abs(H0 + H1o - H2).max() > 0.1


@pytest.mark.parametrize("mdh", [False, True])
def test_chain_accelerations_equal_jacobian_and_its_derivative(mdh):
    # tool-point acceleration and angular acceleration of the matrix method (H matrices)
    # = J qdd + Jdot qd of robogui's jacob0/jacob_dot, on random robots with a base
    from robogui.engine.kinematics.jacobians import jacob0, jacob_dot

    rng = np.random.default_rng(31 + mdh)
    robot = _random_robot(rng, 5, mdh)
    base = np.eye(4)
    base[:3, :3] = sl.rotat([1, -2, 0.5], 0.8)
    base[:3, 3] = [0.2, -0.1, 0.4]
    robot = robot.with_base(base)
    ch = sl.chain_from_robot(robot)
    q, qd, qdd = rng.normal(size=(4, 5)), rng.normal(size=(4, 5)), rng.normal(size=(4, 5))
    mot = sl.chain_motion(ch, q, qd, qdd)
    p = mot.T_tool[:, :, 3]
    v = np.einsum("kij,kj->ki", mot.WA[:, -1], p)[:, :3]
    a = np.einsum("kij,kj->ki", mot.HA[:, -1], p)[:, :3]
    Om = mot.WA[:, -1, :3, :3]
    w, wd = sl.mtov(Om), sl.mtov(mot.HA[:, -1, :3, :3] - Om @ Om)
    J, Jd = jacob0(robot, q), jacob_dot(robot, q, qd)
    np.testing.assert_allclose(np.hstack([v, w]), np.einsum("kij,kj->ki", J, qd), atol=1e-12)
    np.testing.assert_allclose(np.hstack([a, wd]), np.einsum("kij,kj->ki", J, qdd)
                               + np.einsum("kij,kj->ki", Jd, qd), atol=1e-11)
    # the per-link origins too (point_kinematics), against each frame's position derivative
    P, vl, al, wl, wdl = mot.point_kinematics()
    h = 1e-5
    F = lambda t: robot.fkine_all(q + t * qd + 0.5 * t * t * qdd)
    Fp, F0, Fm = F(h), F(0.0), F(-h)
    n_frames = F0.shape[1]
    inner = slice(1, n_frames - (0 if robot.tool_is_identity else 1))
    close(P[:, : inner.stop - 1], F0[:, inner, :3, 3], 1e-12)
    close(vl[:, : inner.stop - 1], (Fp - Fm)[:, inner, :3, 3] / (2 * h), 1e-7)
    close(al[:, : inner.stop - 1], (Fp - 2 * F0 + Fm)[:, inner, :3, 3] / h**2, 1e-3)
