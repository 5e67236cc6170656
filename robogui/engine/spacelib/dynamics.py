"""Direct dynamics of free bodies with the matrix method (SpaceLib ``dyn_eq``, program TEST).

Newton-Euler in matrix form: ``Phi = skew(Wdot J)`` (and ``Gamma = skew(W J)`` for the
momentum), with J the pseudo-inertia and Phi the action matrix, all in one frame.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array
from .matrices import NOTOK, OK, Rev, Z, actom, mami, mamt, mtov, normal, skew, vactowh2
from .screws import screwtom

__all__ = ["dyn_eq", "free_two_body_step"]


def _wmat(w: np.ndarray) -> np.ndarray:
    """4x4 velocity-like matrix from ``[wx wy wz ax ay az]``."""
    M = np.zeros((4, 4))
    M[0, 1], M[0, 2], M[1, 2] = -w[2], w[1], -w[0]
    M[1, 0], M[2, 0], M[2, 1] = w[2], -w[1], w[0]
    M[:3, 3] = w[3:]
    return M


def _fvec(F: np.ndarray) -> np.ndarray:
    """``[tx ty tz fx fy fz]`` of an action matrix."""
    return np.concatenate([mtov(F), F[:3, 3]])


def dyn_eq(J, Wp, F, var) -> tuple[np.ndarray, np.ndarray, int]:
    """Solve ``F = skew(Wp J)`` for the unknown entries named by ``var`` (SpaceLib ``dyn_eq``).

    ``J`` 4x4 pseudo-inertia; ``Wp`` 4x4 matrix ``[[skew(wdot), a], 0]``; ``F`` 4x4 action
    matrix; ``var`` 2x6 of 0/1: row 0 for ``[wdot_x wdot_y wdot_z a_x a_y a_z]``, row 1 for
    ``[t_x t_y t_z f_x f_y f_z]``; 1 marks an unknown, each column has exactly one 1.
    Returns ``(Wp, F, test)`` with the unknowns filled in; ``test`` is OK (1) or NOTOK (0)
    when J is singular for the requested unknowns (then Wp and F are returned unchanged).
    The same call solves ``Gamma = skew(W J)`` for the velocity W.
    """
    J = as_float_array(J, "J")
    Wp = np.array(as_float_array(Wp, "Wp"), dtype=float)
    F = np.array(as_float_array(F, "F"), dtype=float)
    var = np.asarray(var)
    for name, M in (("J", J), ("Wp", Wp), ("F", F)):
        if M.shape != (4, 4):
            raise ValueError(f"{name} must have shape (4, 4), got shape {M.shape}")
    if var.shape != (2, 6) or not np.all((var == 0) | (var == 1)):
        raise ValueError(f"var must be a 2x6 matrix of 0 and 1, got {var!r}")
    if not np.all(var.sum(axis=0) == 1):
        raise ValueError("var must have exactly one 1 (unknown) in every column")
    # F is linear in Wp: K[:, c] = F of the c-th unit acceleration
    K = np.column_stack([_fvec(skew(_wmat(np.eye(6)[c]), J)) for c in range(6)])
    w, f = np.concatenate([mtov(Wp), Wp[:3, 3]]), _fvec(F)
    unk_w, unk_f = var[0] == 1, var[1] == 1
    known_f = ~unk_f
    if unk_w.any():
        A = K[np.ix_(known_f, unk_w)]
        rhs = f[known_f] - K[np.ix_(known_f, ~unk_w)] @ w[~unk_w]
        if abs(np.linalg.det(A)) < 1e-12 * max(1.0, np.abs(A).max()) ** A.shape[0]:
            return Wp, F, NOTOK
        w[unk_w] = np.linalg.solve(A, rhs)
    f[unk_f] = (K @ w)[unk_f]
    return _wmat(w), actom(f[3:], f[:3]), OK


def free_two_body_step(m1, W1, J1, J2, q, qp, qpp, dt: float):
    """One step of SpaceLib's TEST program: two bodies joined by a motor, free in space.

    Body 2 turns about the z axis of body 1's frame by the imposed ``q, qp, qpp`` (rad,
    rad/s, rad/s^2). ``m1``, ``W1``: position and velocity matrices of body 1 (frame 0);
    ``J1``, ``J2``: pseudo-inertias in their own frames. No gravity, no external action.
    Returns ``(m1_next, W1_next, H1, H2, m2, W2)``: the state after ``dt`` (s) and the
    absolute accelerations of both bodies and the pose/velocity of body 2 at this step.
    """
    m1, W1 = as_float_array(m1, "m1"), as_float_array(W1, "W1")
    m12 = screwtom((0.0, 0.0, 1.0), float(q), (0.0, 0.0, 0.0), 0.0)
    m2 = m1 @ m12
    H1 = W1 @ W1  # partial acceleration: the unknown Wdot is added below
    W12, H12 = vactowh2(Rev, Z, qp, qpp)
    W120, H120 = mami(W12, m1), mami(H12, m1)
    W2 = W1 + W120
    H2 = H1 + H120 + 2.0 * W1 @ W120
    J10, J20 = mamt(J1, m1), mamt(J2, m2)
    F = skew(H1, J10) + skew(H2, J20)
    var = np.array([[1] * 6, [0] * 6])
    Wp, _, test = dyn_eq(J10 + J20, np.zeros((4, 4)), F, var)
    if test != OK:
        raise ValueError("the total inertia is singular; cannot solve the free-body dynamics")
    H1, H2 = H1 - Wp, H2 - Wp  # skew(H1 J10 + H2 J20) = 0: no external action
    dm = normal(np.eye(4) + W1 * dt + 0.5 * H1 * dt**2)
    # the acceleration is Wdot = -Wp (H1 = W1^2 - Wp); the manual's listing adds +Wp dt here,
    # which contradicts its own eq. (7.12), so the physically consistent sign is used
    return dm @ m1, W1 - Wp * dt, H1, H2, m2, W2
