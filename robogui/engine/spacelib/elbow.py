"""The SpaceLib manual's Elbow robot (section 7.6): a 6R arm and its three sample programs.

* :func:`elb_d_dh`: direct kinematics with Denavit-Hartenberg frames (ELB_D_DH);
* :func:`elb_d_pa`: the same with frames parallel in the home pose (ELB_D_PA);
* :func:`elb_i_dh`: inverse kinematics by Newton-Raphson from a first guess (ELB_I_DH),
  then joint velocities and accelerations from the Jacobian.

The link lengths ``L = (L1 ... L6)`` are ELBOW.DAT's six values. Both direct programs give
the gripper pose, its velocity and acceleration (in an auxiliary frame parallel to the base
with origin at the tool centre point) and the gripper orientation as Cardan angles
``rot X, rot Y, rot Z`` with their first and second time derivatives: the records of
GRIPPER.MOT. The programs follow the manual's listings step by step with the SpaceLib
functions of this package (``dhtom``, ``veactowh``, ``mami``, ``coriolis``, ``htocarda``...).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .angles import cardatoh, cardatom, cardatow, htocarda
from .dhtom import dhtom
from .linear import solve_l
from .matrices import X, Y, Z, coriolis, invers, makel2, mami, miam, rotat24, vactowh3, veactowh

__all__ = ["GripperMotion", "elb_d_dh", "elb_d_pa", "elb_i_dh", "elbow_robot", "ElbowInverse"]

_FI = np.array([0.0, np.pi / 2, 0.0, 0.0, 3 * np.pi / 2, np.pi / 2, 0.0])  # twists fi(1..7)


def _last(L6: float) -> np.ndarray:
    """Frame 6 -> gripper (the listing's ``Last``, with ``Last(Z, U) = L6``)."""
    return np.array([[0.0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, L6], [0, 0, 0, 1]])


def _lengths(L) -> np.ndarray:
    a = np.asarray(L, dtype=float)
    if a.shape != (6,) or not np.all(np.isfinite(a)):
        raise ValueError(f"the Elbow robot needs 6 finite link lengths, got {L!r}")
    return a


def _dh_a(L: np.ndarray) -> np.ndarray:
    """The listing's D-H ``a(2..7)`` after ``a(2) = a(7) = 0``: per joint i, a(i+1)."""
    return np.array([0.0, L[1], L[2], L[3], L[4], 0.0])


@dataclass(frozen=True)
class GripperMotion:
    """One GRIPPER.MOT record per sample: Cardan angles ``ang`` (m, 3) (rad) and their
    rates ``angp`` and accelerations ``angpp``; TCP position ``pos``, velocity ``vel``,
    acceleration ``acc`` (m, 3); the position matrix ``M`` (m, 4, 4) and the velocity and
    acceleration matrices ``W``, ``H`` (m, 4, 4) in the auxiliary frame (parallel to the
    base, origin at the TCP). ``convention`` is the Cardan axis sequence (0, 1, 2)."""

    ang: np.ndarray
    angp: np.ndarray
    angpp: np.ndarray
    pos: np.ndarray
    vel: np.ndarray
    acc: np.ndarray
    M: np.ndarray
    W: np.ndarray
    H: np.ndarray
    convention: tuple = (X, Y, Z)


def _record(gripper, Wabs, Habs, ii, jj, kk):
    Aus = np.eye(4)
    Aus[:3, 3] = gripper[:3, 3]
    Waus, Haus = miam(Wabs, Aus), miam(Habs, Aus)
    q1, _, qp1, _, qpp1, _ = htocarda(gripper, Waus, Haus, ii, jj, kk)
    return q1, qp1, qpp1, gripper[:3, 3].copy(), Waus[:3, 3].copy(), Haus[:3, 3].copy(), \
        gripper, Waus, Haus


def _collect(records, conv) -> GripperMotion:
    cols = list(zip(*records, strict=True)) if records else [[]] * 9
    arr = [np.array(c).reshape(-1, 3) for c in cols[:6]]
    mats = [np.array(c).reshape(-1, 4, 4) for c in cols[6:]]
    return GripperMotion(*arr, *mats, convention=conv)


def _joint_arrays(q, qp, qpp):
    out = []
    for name, v in (("q", q), ("qp", qp), ("qpp", qpp)):
        a = np.asarray(v, dtype=float)
        a = a.reshape(1, 6) if a.shape == (6,) else a
        if a.ndim != 2 or a.shape[1] != 6 or not np.all(np.isfinite(a)):
            raise ValueError(f"{name} must be finite with shape (6,) or (m, 6), got {a.shape}")
        out.append(a)
    if not out[0].shape == out[1].shape == out[2].shape:
        raise ValueError("q, qp and qpp must have the same shape")
    return out


def elb_d_dh(L, q, qp, qpp, convention=(X, Y, Z)) -> GripperMotion:
    """ELB_D_DH: gripper motion from joint motion, D-H frames (manual 7.6.5).

    ``q, qp, qpp`` (m, 6) (JOINT.MOT's records), ``L`` the six link lengths.
    """
    L = _lengths(L)
    Q, QP, QPP = _joint_arrays(q, qp, qpp)
    a = _dh_a(L)
    m0 = rotat24(Z, np.pi / 2, (0.0, 0.0, L[0]))  # frame 0 seen from the base
    last = _last(L[5])
    recs = []
    for q_, qp_, qpp_ in zip(Q, QP, QPP, strict=True):
        M, W, H = m0, np.zeros((4, 4)), np.zeros((4, 4))
        for i in range(6):
            A = dhtom(0, 0.0, 0.0, 0.0, a[i], _FI[i + 1], q_[i])
            Wr, Hr = veactowh(0, qp_[i], qpp_[i])
            W0, H0 = mami(Wr, M), mami(Hr, M)  # relative motion seen in the base frame
            H = coriolis(H, H0, W, W0)
            W = W + W0
            M = M @ A
        recs.append(_record(M @ last, W, H, *convention))
    return _collect(recs, tuple(convention))


# ELB_D_PA: joint i turns about axis(i+1) of a frame at O(i) (all frames parallel at home)
_PA_AXIS = (Z, X, X, X, Z, X)


def _pa_origins(L: np.ndarray) -> np.ndarray:
    return np.array([[0, 0, 0], [0, 0, L[0]], [0, L[1], 0], [0, L[2], 0], [0, L[3], 0],
                     [0, 0, 0]], dtype=float)


def elb_d_pa(L, q, qp, qpp, convention=(X, Y, Z)) -> GripperMotion:
    """ELB_D_PA: the same gripper motion with frames parallel in the home pose (7.6.6);
    gives the same output as :func:`elb_d_dh` (the manual says so; the tests check it)."""
    L = _lengths(L)
    Q, QP, QPP = _joint_arrays(q, qp, qpp)
    O = _pa_origins(L)  # noqa: E741
    tip = np.eye(4)
    tip[0, 3] = L[5]  # frame 7 = gripper, L6 along x of frame 6
    recs = []
    for q_, qp_, qpp_ in zip(Q, QP, QPP, strict=True):
        M, W, H = np.eye(4), np.zeros((4, 4)), np.zeros((4, 4))
        for i in range(6):
            A = rotat24(_PA_AXIS[i], q_[i], O[i])
            Wr, Hr = vactowh3(0, _PA_AXIS[i], qp_[i], qpp_[i], O[i])
            W0, H0 = mami(Wr, M), mami(Hr, M)
            H = coriolis(H, H0, W, W0)
            W = W + W0
            M = M @ A
        recs.append(_record(M @ tip, W, H, *convention))
    return _collect(recs, tuple(convention))


def _dh_chain(L: np.ndarray, q: np.ndarray):
    """Frames 0..6 (base coordinates) and the 6 x 6 Jacobian of the listing's columns
    ``[L(X,U) L(Y,U) L(Z,U) L(Z,Y) L(X,Z) L(Y,X)]`` of each joint's L matrix (base frame)."""
    a = _dh_a(L)
    M = [rotat24(Z, np.pi / 2, (0.0, 0.0, L[0]))]
    cols = []
    Lz = makel2(0, Z, 0.0, (0.0, 0.0, 0.0))
    for i in range(6):
        L0 = mami(Lz, M[-1])
        cols.append([L0[0, 3], L0[1, 3], L0[2, 3], L0[2, 1], L0[0, 2], L0[1, 0]])
        M.append(M[-1] @ dhtom(0, 0.0, 0.0, 0.0, a[i], _FI[i + 1], q[i]))
    return M, np.array(cols).T


def _six(S: np.ndarray) -> np.ndarray:
    return np.array([S[0, 3], S[1, 3], S[2, 3], S[2, 1], S[0, 2], S[1, 0]])


@dataclass(frozen=True)
class ElbowInverse:
    """ELB_I_DH's result: ``q``, ``qp``, ``qpp`` (m, 6) (JOINT.MOT's records),
    ``iterations`` (m,) Newton-Raphson steps per sample, ``converged`` (m,) bool. Samples
    after the first that did not converge are left at zero (the program stops there)."""

    q: np.ndarray
    qp: np.ndarray
    qpp: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray


def elb_i_dh(L, motion: GripperMotion, guess, tol: float = 0.0005,
             maxiter: int = 15) -> ElbowInverse:
    """ELB_I_DH: joint motion from gripper motion (7.6.8).

    For each GRIPPER.MOT record the target matrix is built from the Cardan angles and the
    TCP position; Newton-Raphson steps ``J dq = ds`` (``dS = (M_target - M) M^-1``, J from
    the joints' L matrices, solved by :func:`solve_l`) run until ``|M_target - M| <= tol``
    (Frobenius norm) or ``maxiter`` steps, starting from ``guess`` (GUESS.1ST) and then
    from the previous sample's solution. Joint velocities solve ``J qp = W_target`` and
    accelerations ``J qpp = H_target - H(qpp = 0)``.
    """
    L = _lengths(L)
    q = np.asarray(guess, dtype=float).copy()
    if q.shape != (6,) or not np.all(np.isfinite(q)):
        raise ValueError(f"guess must be 6 finite joint values, got {guess!r}")
    ii, jj, kk = motion.convention
    last = _last(L[5])
    m = len(motion.ang)
    out_q, out_qp, out_qpp = np.zeros((m, 6)), np.zeros((m, 6)), np.zeros((m, 6))
    iters, ok = np.zeros(m, dtype=int), np.zeros(m, dtype=bool)
    for s in range(m):
        mtar = cardatom(motion.ang[s], ii, jj, kk, motion.pos[s])
        for k in range(maxiter + 1):
            M, J = _dh_chain(L, q)
            gripper = M[-1] @ last
            dm = mtar - gripper
            if np.linalg.norm(dm) <= tol:
                break
            if k == maxiter:
                break
            dq, _ = solve_l(J, _six(dm @ invers(gripper)))
            q = q + dq
        iters[s] = k
        if np.linalg.norm(dm) > tol:
            break  # "Newton-Raphson method does not converge": the program stops
        ok[s] = True
        Aus = np.eye(4)
        Aus[:3, 3] = gripper[:3, 3]
        Waus = cardatow(motion.ang[s], motion.angp[s], ii, jj, kk)
        Waus[:3, 3] = motion.vel[s]
        Haus = cardatoh(motion.ang[s], motion.angp[s], motion.angpp[s], ii, jj, kk)
        Haus[:3, 3] = motion.acc[s]
        Wtar, Htar = mami(Waus, Aus), mami(Haus, Aus)
        qp, _ = solve_l(J, _six(Wtar))
        W, H = np.zeros((4, 4)), np.zeros((4, 4))
        for i in range(6):  # H with qpp = 0: the velocity-product terms
            Wr, Hr = veactowh(0, qp[i], 0.0)
            W0, H0 = mami(Wr, M[i]), mami(Hr, M[i])
            H = coriolis(H, H0, W, W0)
            W = W + W0
        qpp, _ = solve_l(J, _six(Htar - H))
        out_q[s], out_qp[s], out_qpp[s] = q, qp, qpp
    return ElbowInverse(out_q, out_qp, out_qpp, iters, ok)


def elbow_robot(L):
    """The Elbow robot as a robogui Robot (standard D-H, the ELB_D_DH frames): base
    ``Rot(z, 90 deg)`` at height L1, twists 90, 0, 0, 270, 90, 0 deg, lengths L2..L5 as
    ``a``, and the gripper (L6 along x6, axes permuted) as the tool."""
    from ..model.link import Link
    from ..model.robot import Robot

    L = _lengths(L)
    a = _dh_a(L)
    links = [Link(a=a[i], alpha=_FI[i + 1], name=f"joint {i + 1}") for i in range(6)]
    return Robot(links, name="SpaceLib Elbow robot", base=rotat24(Z, np.pi / 2, (0, 0, L[0])),
                 tool=_last(L[5]), source="SpaceLib manual (Legnani), section 7.6, "
                 "figure 7.20 and programs ELB_D_DH / ELB_I_DH", poses={"qz": np.zeros(6)})
