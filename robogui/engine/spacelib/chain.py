"""The 4x4 matrix method on a serial chain: what SpaceLib's Rob_Mat computes.

Each link matrix is ``A_i(q) = P_i . M_z(q_i) . C_i``: a fixed pre-transform P_i, the joint
motion ``M_z`` (rotation about or translation along the local z axis) and a fixed
post-transform C_i. Extended D-H (``dhtom``, with b) has ``P_i = I``; modified D-H has
``P_i = Rx(alpha_{i-1}) Tx(a_{i-1})``. Kinematics runs from base to tip with the Coriolis
theorem on W and H matrices in frame 0; dynamics runs back from the tip accumulating the
actions ``FI_i = skew(Hg - HA_i, J_i(0))``. Batched over samples: q of shape (m, n).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..checks import as_joint_array, as_transform, as_vector
from .matrices import Pri, actom, gtom, invers, mamt, mtov, pse_dot, pseudo_inertia, skew

__all__ = ["Chain", "ChainMotion", "chain_from_robot", "chain_from_dh", "chain_motion",
           "chain_actions", "joint_actions"]


def _rz(t: float) -> np.ndarray:
    c, s = np.cos(t), np.sin(t)
    M = np.eye(4)
    M[0, 0], M[0, 1], M[1, 0], M[1, 1] = c, -s, s, c
    return M


def _rx(t: float) -> np.ndarray:
    c, s = np.cos(t), np.sin(t)
    M = np.eye(4)
    M[1, 1], M[1, 2], M[2, 1], M[2, 2] = c, -s, s, c
    return M


def _tr(x: float, y: float, z: float) -> np.ndarray:
    M = np.eye(4)
    M[:3, 3] = x, y, z
    return M


@dataclass(frozen=True, eq=False)
class Chain:
    """A serial chain for the matrix method (immutable arrays, SI units).

    ``jtype`` (n,) 0 revolute / 1 prismatic; ``pre``, ``post`` (n, 4, 4); ``inertia`` (n, 4, 4)
    pseudo-inertia of link i about the origin of frame i, in frame i; ``base``, ``tool`` (4, 4);
    ``gravity`` (3,) acceleration in frame 0 (m/s^2). Optional motor data per joint
    (``Jm``, ``G``, ``B``, ``Tc`` (n, 2)) add ``G^2 Jm qdd`` and friction like robogui's rne.
    """

    jtype: np.ndarray
    pre: np.ndarray
    post: np.ndarray
    inertia: np.ndarray
    base: np.ndarray
    tool: np.ndarray
    gravity: np.ndarray
    Jm: np.ndarray
    G: np.ndarray
    B: np.ndarray
    Tc: np.ndarray

    @property
    def n(self) -> int:
        return int(self.jtype.shape[0])


def chain_from_dh(jtype, theta, d, b, a, alpha, inertia=None, gravity=(0.0, 0.0, -9.81),
                  base=None, tool=None) -> Chain:
    """A chain from extended D-H arrays (Rob_Mat's DAT data): joint i about/along z_{i-1}.

    ``theta`` and ``d`` are constants to which q is added; ``inertia`` (n, 4, 4) pseudo-inertias.
    """
    jt = np.asarray(jtype, dtype=int)
    n = jt.shape[0]
    post = np.stack([_rz(theta[i]) @ _tr(a[i], b[i], d[i]) @ _rx(alpha[i]) for i in range(n)])
    return _make(jt, np.broadcast_to(np.eye(4), (n, 4, 4)).copy(), post, inertia, gravity,
                 base, tool)


def _make(jt, pre, post, inertia, gravity, base, tool, Jm=None, G=None, B=None, Tc=None):
    n = jt.shape[0]
    zeros = np.zeros(n)
    return Chain(
        jtype=jt, pre=pre, post=post,
        inertia=np.zeros((n, 4, 4)) if inertia is None else np.asarray(inertia, dtype=float),
        base=np.eye(4) if base is None else as_transform(base, "base", stack=False),
        tool=np.eye(4) if tool is None else as_transform(tool, "tool", stack=False),
        gravity=as_vector(gravity, 3, "gravity"),
        Jm=zeros if Jm is None else np.asarray(Jm, float),
        G=np.ones(n) if G is None else np.asarray(G, float),
        B=zeros if B is None else np.asarray(B, float),
        Tc=np.zeros((n, 2)) if Tc is None else np.asarray(Tc, float),
    )


def chain_from_robot(robot) -> Chain:
    """The matrix-method chain of a robogui Robot (standard or modified D-H, base, tool)."""
    pre, post, jt = [], [], []
    for L in robot.links:
        th = L.offset if L.joint == "R" else L.theta
        d = L.d if L.joint == "R" else L.offset
        jt.append(0 if L.joint == "R" else 1)
        if L.mdh:
            pre.append(_rx(L.alpha) @ _tr(L.a, 0.0, 0.0))
            post.append(_rz(th) @ _tr(0.0, 0.0, d))
        else:
            pre.append(np.eye(4))
            post.append(_rz(th) @ _tr(L.a, 0.0, d) @ _rx(L.alpha))
    inertia = np.stack([pseudo_inertia(L.m, L.r, L.I) for L in robot.links])
    return _make(np.array(jt), np.stack(pre), np.stack(post), inertia, robot.gravity,
                 robot.base, robot.tool,
                 Jm=[L.Jm for L in robot.links], G=[L.G for L in robot.links],
                 B=[L.B for L in robot.links], Tc=[L.Tc for L in robot.links])


@dataclass(frozen=True, eq=False)
class ChainMotion:
    """Kinematics of every link (leading axis m samples; frame 0 unless said otherwise).

    ``A`` (m, n, 4, 4) relative position matrices; ``T`` (m, n+1, 4, 4) absolute frames,
    ``T[:, 0]`` the base, ``T[:, n]`` link n (without tool); ``T_tool`` (m, 4, 4);
    ``W``, ``H`` (m, n, 4, 4) relative velocity/acceleration in the joint's local frame;
    ``WO``, ``HO`` the same in frame 0; ``WA``, ``HA`` (m, n+1, 4, 4) absolute velocity and
    acceleration of each link (index 0 the base, at rest); ``L`` (m, n, 4, 4) joint screw axes.
    """

    A: np.ndarray
    T: np.ndarray
    T_tool: np.ndarray
    W: np.ndarray
    H: np.ndarray
    WO: np.ndarray
    HO: np.ndarray
    WA: np.ndarray
    HA: np.ndarray
    L: np.ndarray

    def point_kinematics(self):
        """Origin of every link frame: positions, velocities, accelerations, (m, n, 3) each,
        and angular velocity and acceleration of every link, (m, n, 3) each."""
        P = self.T[:, 1:, :, 3]
        v = np.einsum("...ij,...j->...i", self.WA[:, 1:], P)[..., :3]
        a = np.einsum("...ij,...j->...i", self.HA[:, 1:], P)[..., :3]
        w = mtov(self.WA[:, 1:])
        Om = self.WA[:, 1:, :3, :3]
        wd = mtov(self.HA[:, 1:, :3, :3] - Om @ Om)
        return P[..., :3], v, a, w, wd


def _local_L(jtype: np.ndarray) -> np.ndarray:
    Lz = np.zeros((jtype.shape[0], 4, 4))
    rev = jtype != Pri
    Lz[rev, 0, 1], Lz[rev, 1, 0] = -1.0, 1.0
    Lz[~rev, 2, 3] = 1.0
    return Lz


def chain_motion(chain: Chain, q, qd, qdd) -> ChainMotion:
    """Position, velocity and acceleration matrices of every link (Rob_Mat steps 3-9).

    q, qd, qdd: (n,) or (m, n) joint values (rad or m), rates and accelerations.
    """
    n = chain.n
    q2, single = as_joint_array(q, n, "q")
    qd2, _ = as_joint_array(qd, n, "qd")
    qdd2, _ = as_joint_array(qdd, n, "qdd")
    m = max(q2.shape[0], qd2.shape[0], qdd2.shape[0])
    q2, qd2, qdd2 = (np.broadcast_to(x, (m, n)) for x in (q2, qd2, qdd2))
    Lz = _local_L(chain.jtype)
    A = np.empty((m, n, 4, 4))
    T = np.empty((m, n + 1, 4, 4))
    W, H, WO, HO, L = (np.empty((m, n, 4, 4)) for _ in range(5))
    WA, HA = np.zeros((m, n + 1, 4, 4)), np.zeros((m, n + 1, 4, 4))
    T[:, 0] = chain.base
    for i in range(n):
        # joint motion M_z(q): rotation about z (Rev) or translation along z (Pri)
        Mz = np.broadcast_to(np.eye(4), (m, 4, 4)).copy()
        if chain.jtype[i] == Pri:
            Mz[:, 2, 3] = q2[:, i]
        else:
            c, s = np.cos(q2[:, i]), np.sin(q2[:, i])
            Mz[:, 0, 0], Mz[:, 0, 1], Mz[:, 1, 0], Mz[:, 1, 1] = c, -s, s, c
        A[:, i] = chain.pre[i] @ Mz @ chain.post[i]
        F = T[:, i] @ chain.pre[i]  # the joint's frame: motion about its z axis
        Fi = invers(F)
        W[:, i] = qd2[:, i, None, None] * Lz[i]
        H[:, i] = qdd2[:, i, None, None] * Lz[i] + W[:, i] @ W[:, i]
        L[:, i] = F @ Lz[i] @ Fi
        WO[:, i] = F @ W[:, i] @ Fi
        HO[:, i] = F @ H[:, i] @ Fi
        T[:, i + 1] = T[:, i] @ A[:, i]
        WA[:, i + 1] = WA[:, i] + WO[:, i]
        HA[:, i + 1] = HA[:, i] + HO[:, i] + 2.0 * WA[:, i] @ WO[:, i]  # Coriolis' theorem
    mot = ChainMotion(A=A, T=T, T_tool=T[:, n] @ chain.tool, W=W, H=H, WO=WO, HO=HO, WA=WA,
                      HA=HA, L=L)
    return mot


def chain_actions(chain: Chain, motion: ChainMotion, ext_force=(0, 0, 0), ext_torque=(0, 0, 0)):
    """Inverse dynamics by the matrix method (Rob_Mat steps 10-13).

    ``ext_force`` (N) and ``ext_torque`` (N m): action **applied on** the end effector by the
    environment, in the end-effector (tool) frame, moment about its origin.
    Returns ``(J0, FI, ACTO)``: pseudo-inertias in frame 0 (m, n, 4, 4), inertia + weight
    actions on each link (m, n, 4, 4), and the actions on links i..n plus the external one,
    ``ACTO`` (m, n+1, 4, 4), all in frame 0 (``ACTO[:, n]`` is the external action alone).
    """
    m, n = motion.A.shape[0], chain.n
    Hg = gtom(chain.gravity)
    J0 = mamt(chain.inertia[None], motion.T[:, 1:])
    FI = skew(Hg - motion.HA[:, 1:], J0)
    ACTO = np.empty((m, n + 1, 4, 4))
    ACTO[:, n] = mamt(actom(ext_force, ext_torque), motion.T_tool)
    for i in range(n - 1, -1, -1):
        ACTO[:, i] = FI[:, i] + ACTO[:, i + 1]
    return J0, FI, ACTO


def joint_actions(chain: Chain, motion: ChainMotion, ACTO: np.ndarray, qd=None, qdd=None):
    """Joint torques/forces (m, n) that drive the motion: ``tau_i = -L_i (.) ACTO_i``.

    ACTO_i is what links i..n receive from gravity, inertia and the environment, so the
    joint must supply its opposite along the joint axis. With ``qd`` and ``qdd`` the motor
    armature (``G^2 Jm qdd``) and friction terms of the chain are added, as robogui's rne does.
    """
    tau = -pse_dot(motion.L, ACTO[:, : chain.n])
    if qdd is not None:
        qdd2, _ = as_joint_array(qdd, chain.n, "qdd")
        tau = tau + chain.G**2 * chain.Jm * qdd2
    if qd is not None:
        qd2, _ = as_joint_array(qd, chain.n, "qd")
        coul = np.where(qd2 > 0, chain.Tc[:, 0], np.where(qd2 < 0, chain.Tc[:, 1], 0.0))
        tau = tau + np.abs(chain.G) * (chain.B * np.abs(chain.G) * qd2 + coul)
    return tau
