"""Linearised inverse dynamics (ROBOOP section 2.3.4, after Murray and Neuman).

Around a state (q, qd, qdd) a small change of the motion changes the torque by::

    dtau = D(q) dqdd + S1(q, qd) dqd + S2(q, qd, qdd) dq

with ``D`` the inertia matrix, ``S1 = dtau/dqd`` and ``S2 = dtau/dq``. ROBOOP computes
these with a recursive linearised Newton-Euler pass; here the same derivatives come from
the complex-step method applied to the generated RNE program: evaluating it at
``q + i h dq`` (h = 1e-30) gives ``dtau = Im(tau) / h`` to machine precision, with no
subtraction and no step-size trade-off. The torque is the full :func:`rne` torque
(gravity, armature, friction); the Coulomb term is piecewise constant, so it contributes
nothing to the derivatives away from ``qd = 0`` (viscous friction adds ``B G^2`` to S1).
"""

from __future__ import annotations

import numpy as np

from ..model.mimic import coupled
from .dynamics import base_accel, itorque, joint_args, require_dynamics, rne

__all__ = ["torque_novelocity", "delta_torque", "dq_torque", "dqp_torque", "dtau_dq",
           "dtau_dqp"]

_H = 1e-30  # complex step; any tiny value works, there is no cancellation


def torque_novelocity(robot, q, qdd, fext=None) -> np.ndarray:
    """Torque with zero velocity and zero gravity, ``D(q) qdd`` (armature included), plus
    ``jacobe^T fext`` when a tool wrench is given (ROBOOP ``torque_novelocity``).

    (n,) or (m, n), N m / N.
    """
    if fext is None:
        return itorque(robot, q, qdd)
    return rne(robot, q, np.zeros_like(np.asarray(qdd, dtype=float)), qdd,
               gravity=(0.0, 0.0, 0.0), fext=fext)


def _complex_step(robot, what, q2d, qd2d, qdd2d, dq, dqd, dqdd, gravity):
    """Torque and its directional derivative, both (rows, n)."""
    dyn = require_dynamics(robot, what)
    qc = q2d + (1j * _H) * dq if dq is not None else q2d.astype(complex)
    qdc = qd2d + (1j * _H) * dqd if dqd is not None else qd2d.astype(complex)
    qddc = qdd2d + (1j * _H) * dqdd if dqdd is not None else qdd2d.astype(complex)
    tau = dyn.run("full", qc, qdc, qddc, base_accel(dyn, gravity), motor=True)
    return tau.real.copy(), tau.imag / _H


@coupled("pair", "q", "qd", "qdd", "dq", "dqd", "dqdd")
def delta_torque(robot, q, qd, qdd, dq, dqd, dqdd, gravity=None):
    """ROBOOP ``delta_torque``: ``(tau, dtau)`` with ``tau = rne(q, qd, qdd)`` and
    ``dtau = D dqdd + S1 dqd + S2 dq``. All inputs (n,) or (m, n); outputs alike."""
    arrs, single = joint_args(robot, (q, "q"), (qd, "qd"), (qdd, "qdd"), (dq, "dq"),
                              (dqd, "dqd"), (dqdd, "dqdd"))
    tau, dtau = _complex_step(robot, "delta_torque", *arrs, gravity)
    return (tau[0], dtau[0]) if single else (tau, dtau)


@coupled("pair", "q", "qd", "qdd", "dq")
def dq_torque(robot, q, qd, qdd, dq, gravity=None):
    """ROBOOP ``dq_torque``: ``(tau, S2(q, qd, qdd) dq)``; inputs (n,) or (m, n)."""
    (q2d, qd2d, qdd2d, dq2d), single = joint_args(robot, (q, "q"), (qd, "qd"), (qdd, "qdd"),
                                                  (dq, "dq"))
    tau, dtau = _complex_step(robot, "dq_torque", q2d, qd2d, qdd2d, dq2d, None, None, gravity)
    return (tau[0], dtau[0]) if single else (tau, dtau)


@coupled("pair", "q", "qd", "dqd")
def dqp_torque(robot, q, qd, dqd, gravity=None):
    """ROBOOP ``dqp_torque``: ``(tau, S1(q, qd) dqd)`` with ``tau = rne(q, qd, 0)``."""
    (q2d, qd2d, dqd2d), single = joint_args(robot, (q, "q"), (qd, "qd"), (dqd, "dqd"))
    tau, dtau = _complex_step(robot, "dqp_torque", q2d, qd2d, np.zeros_like(q2d), None, dqd2d,
                              None, gravity)
    return (tau[0], dtau[0]) if single else (tau, dtau)


def _jacobian(robot, what, q2d, qd2d, qdd2d, wrt: str, gravity) -> np.ndarray:
    """d rne / d(wrt) for every sample: (m, n, n), columns by joint, one batched call."""
    m, n = q2d.shape
    rep = lambda a: np.broadcast_to(a, (n, m, n)).reshape(n * m, n)  # rows (j, sample)
    dirs = np.repeat(np.eye(n), m, axis=0)
    d = {"q": None, "qd": None}
    d[wrt] = dirs
    _, dtau = _complex_step(robot, what, rep(q2d), rep(qd2d), rep(qdd2d), d["q"], d["qd"],
                            None, gravity)
    return np.transpose(dtau.reshape(n, m, n), (1, 2, 0))


@coupled("both", "q", "qd", "qdd")
def dtau_dq(robot, q, qd, qdd, gravity=None) -> np.ndarray:
    """ROBOOP ``dtau_dq``: ``S2 = d tau / d q`` of :func:`rne`, (n, n) or (m, n, n);
    entry (i, j) is the change of torque i per unit change of q_j."""
    (q2d, qd2d, qdd2d), single = joint_args(robot, (q, "q"), (qd, "qd"), (qdd, "qdd"))
    S2 = _jacobian(robot, "dtau_dq", q2d, qd2d, qdd2d, "q", gravity)
    return S2[0] if single else S2


@coupled("both", "q", "qd")
def dtau_dqp(robot, q, qd, gravity=None) -> np.ndarray:
    """ROBOOP ``dtau_dqp``: ``S1 = d tau / d qd`` of :func:`rne` (independent of qdd),
    (n, n) or (m, n, n). Includes viscous friction ``B G^2`` on the diagonal."""
    (q2d, qd2d), single = joint_args(robot, (q, "q"), (qd, "qd"))
    S1 = _jacobian(robot, "dtau_dqp", q2d, qd2d, np.zeros_like(q2d), "qd", gravity)
    return S1[0] if single else S1
