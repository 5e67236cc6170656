"""Lagrangian equations of motion derived with sympy, against rne, inertia and coriolis.

For each small arm the kinetic energy is built from symbolic forward kinematics written
out here from the D-H definitions (not taken from the engine):

    M(q) = sum_i m_i Jv_i^T Jv_i + Jw_i^T I_i Jw_i + diag(Jm G^2)
    P(q) = -sum_i m_i g . p_ci

with Jv_i the Jacobian of the centre of mass and Jw_i the body angular-velocity Jacobian
(``vex(R^T dR/dq_k)``). Lagrange's equations give

    tau_i = sum_j M_ij qdd_j + sum_jk Gamma_ijk qd_j qd_k + dP/dq_i,
    Gamma_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i) / 2,

and the Christoffel Coriolis matrix C_ij = sum_k Gamma_ijk qd_k.

To stay fast, the algebra is done in sympy's sparse polynomial ring: a revolute joint
contributes the generators c_j = cos q_j and s_j = sin q_j (d/dq_j: c -> -s, s -> c),
a prismatic joint the generator q_j itself.
"""

import math

import numpy as np
import pytest
from sympy import RR
from sympy.polys.rings import ring

from robogui import Link, Robot
from robogui.engine.dynamics import dynamics as D
from robogui.engine.spatial.transforms import rpy2tr


def matmul(A, B):
    return [[sum((A[i][k] * B[k][j] for k in range(len(B))), A[i][0] * 0)
             for j in range(len(B[0]))] for i in range(len(A))]


def transpose(A):
    return [list(r) for r in zip(*A, strict=True)]


def lagrangian(robot):
    """Numeric functions M(q), tau(q, qd, qdd), C(q, qd), G(q) from Lagrange's equations."""
    n = robot.n
    names = []
    for j, L in enumerate(robot.links):
        names += [f"c{j}", f"s{j}"] if L.joint == "R" else [f"q{j}"]
    R_, *gens = ring(",".join(names), RR)
    gen = dict(zip(names, gens, strict=True))
    one = R_.one

    def ddq(f, k):
        """d f / d q_k by the chain rule through the generators."""
        if robot.links[k].joint == "R":
            c, s = gen[f"c{k}"], gen[f"s{k}"]
            return f.diff(s) * c - f.diff(c) * s
        return f.diff(gen[f"q{k}"])

    T = [[one * float(x) for x in row] for row in robot.base]
    M = [[R_.zero] * n for _ in range(n)]
    P = R_.zero
    for j, L in enumerate(robot.links):
        ca, sa, a = math.cos(L.alpha), math.sin(L.alpha), L.a
        if L.joint == "R":  # theta = q + offset
            co, so = math.cos(L.offset), math.sin(L.offset)
            ct = gen[f"c{j}"] * co - gen[f"s{j}"] * so
            st = gen[f"s{j}"] * co + gen[f"c{j}"] * so
            d = one * L.d
        else:
            ct, st = one * math.cos(L.theta), one * math.sin(L.theta)
            d = gen[f"q{j}"] + L.offset
        if L.mdh:
            A = [[ct, -st, 0 * one, one * a], [st * ca, ct * ca, -sa * one, -d * sa],
                 [st * sa, ct * sa, ca * one, d * ca], [0 * one, 0 * one, 0 * one, one]]
        else:
            A = [[ct, -st * ca, st * sa, ct * a], [st, ct * ca, -ct * sa, st * a],
                 [0 * one, sa * one, ca * one, d], [0 * one, 0 * one, 0 * one, one]]
        T = matmul(T, A)
        R = [row[:3] for row in T[:3]]
        pc = [T[i][3] + sum(R[i][k] * float(L.r[k]) for k in range(3)) for i in range(3)]
        Jv = [[ddq(pc[i], k) for k in range(n)] for i in range(3)]
        Jw = [[R_.zero] * n for _ in range(3)]
        Rt = transpose(R)
        for k in range(j + 1):
            W = matmul(Rt, [[ddq(x, k) for x in row] for row in R])  # skew
            Jw[0][k], Jw[1][k], Jw[2][k] = W[2][1], W[0][2], W[1][0]
        I = [[one * float(x) for x in row] for row in L.I]
        JwT_I_Jw = matmul(transpose(Jw), matmul(I, Jw))
        JvT_Jv = matmul(transpose(Jv), Jv)
        for r_ in range(n):
            for c_ in range(n):
                M[r_][c_] += JvT_Jv[r_][c_] * L.m + JwT_I_Jw[r_][c_]
        M[j][j] += one * (L.Jm * L.G ** 2)
        P -= sum(pc[i] * (L.m * float(robot.gravity[i])) for i in range(3))
    dM = [[[ddq(M[i][j], k) for k in range(n)] for j in range(n)] for i in range(n)]
    G = [ddq(P, i) for i in range(n)]

    def values(q):
        v = []
        for j, L in enumerate(robot.links):
            v += [math.cos(q[j]), math.sin(q[j])] if L.joint == "R" else [q[j]]
        return v

    ev = lambda p, v: float(p(*v)) if len(v) > 1 else float(p(v[0]))

    def M_f(q):
        v = values(q)
        return np.array([[ev(M[i][j], v) for j in range(n)] for i in range(n)])

    def C_f(q, qd):
        v = values(q)
        dMv = np.array([[[ev(dM[i][j][k], v) for k in range(n)] for j in range(n)]
                        for i in range(n)])  # dMv[i, j, k] = dM_ij / dq_k
        gamma = 0.5 * (dMv + np.transpose(dMv, (0, 2, 1)) - np.transpose(dMv, (2, 1, 0)))
        return gamma @ qd

    def G_f(q):
        v = values(q)
        return np.array([ev(g_, v) for g_ in G])

    def tau_f(q, qd, qdd):
        return M_f(q) @ qdd + C_f(q, qd) @ qd + G_f(q)

    return M_f, tau_f, C_f, G_f


def arm(spec, mdh, base=None):
    """Links from (joint, theta, d, a, alpha, offset) rows with fixed dynamic parameters."""
    rng = np.random.default_rng(len(spec) * 10 + mdh)
    links = []
    for joint, theta, d, a, alpha, offset in spec:
        A = rng.normal(size=(3, 3)) * 0.2
        links.append(Link(joint=joint, theta=theta, d=d, a=a, alpha=alpha, offset=offset,
                          mdh=mdh, qlim=(-1, 1) if joint == "P" else None,
                          m=rng.uniform(1, 4), r=rng.uniform(-0.3, 0.3, 3),
                          I=A @ A.T + 0.02 * np.eye(3), Jm=2e-4, G=rng.uniform(-50, 50)))
    return Robot(links, name="sym", base=base)


ARMS = {
    "RR standard": arm([("R", 0, 0.1, 0.5, 0.4, 0.2), ("R", 0, -0.2, 0.4, -1.1, 0)], False),
    "RP modified": arm([("R", 0, 0.3, 0.2, 0.7, 0), ("P", 0.4, 0, 0.3, -math.pi / 2, 0.1)],
                       True),
    "PR standard": arm([("P", 0.3, 0, 0.2, math.pi / 2, 0.5), ("R", 0, 0.1, 0.4, 0.3, 0)],
                       False),
    "RPR standard, tilted base": arm(
        [("R", 0, 0.3, 0.1, -math.pi / 2, 0), ("P", -0.5, 0, 0.2, 0.6, 0.2),
         ("R", 0, 0.1, 0.35, 0.0, -0.3)], False, base=rpy2tr([0.3, -0.2, 0.5])),
    "RRR modified": arm([("R", 0, 0.2, 0.0, 0.0, 0), ("R", 0, 0.1, 0.3, math.pi / 2, 0.4),
                         ("R", 0, -0.15, 0.45, 0.8, 0)], True),
    "RRP modified": arm([("R", 0, 0.0, 0.1, 0.3, 0), ("R", 0, 0.2, 0.4, -math.pi / 2, 0),
                         ("P", 0.2, 0, 0.25, 1.2, 0.3)], True),
    "PRR modified, tilted base": arm(
        [("P", 0.1, 0, 0.2, 0.5, 0.4), ("R", 0, 0.1, 0.3, -0.7, 0),
         ("R", 0, 0.05, 0.3, math.pi / 2, 0.1)], True, base=rpy2tr([-0.4, 0.6, 0.1])),
}


@pytest.mark.parametrize("name", list(ARMS))
def test_rne_and_inertia_equal_lagrangian(name):
    robot = ARMS[name]
    M_f, tau_f, C_f, G_f = lagrangian(robot)
    rng = np.random.default_rng(7)
    n = robot.n
    q = rng.uniform(-1, 1, (4, n))
    qd = rng.uniform(-2, 2, (4, n))
    qdd = rng.uniform(-2, 2, (4, n))
    tau = D.rne(robot, q, qd, qdd)  # no friction parameters in these arms
    M = D.inertia(robot, q)
    C = D.coriolis(robot, q, qd)
    G = D.gravload(robot, q)
    for k in range(4):
        scale = 1 + np.abs(np.asarray(tau_f(q[k], qd[k], qdd[k]), float)).max()
        np.testing.assert_allclose(tau[k], np.ravel(tau_f(q[k], qd[k], qdd[k])),
                                   atol=1e-10 * scale)
        np.testing.assert_allclose(M[k], np.asarray(M_f(q[k]), float), atol=1e-11 * scale)
        np.testing.assert_allclose(C[k], np.asarray(C_f(q[k], qd[k]), float),
                                   atol=1e-10 * scale)
        np.testing.assert_allclose(G[k], np.ravel(G_f(q[k])), atol=1e-10 * scale)
        # the single-state (float) programs agree too
        np.testing.assert_allclose(D.rne(robot, q[k], qd[k], qdd[k]), tau[k], atol=1e-11)
