"""SpaceLib's 4x4 matrices: gravity, action, inertia, velocity W, acceleration H, L.

Conventions (Legnani):

* position matrix ``M = [[R, t], [0 0 0 1]]``;
* velocity ``W = [[Omega, v0], [0 0 0 0]]`` with ``Omega = skew(omega)`` and ``v0`` the
  velocity of the point that coincides with the frame origin, so ``Pdot = W P``;
* acceleration ``H = Wdot + W^2`` (``Pddot = H P``); its 3x3 block is ``G``;
* L (screw axis) matrix: the W of a unit joint speed;
* pseudo-inertia ``J = integral of P P^T dm`` about the frame origin;
* action ``Phi = [[C, f], [-f^T, 0]]`` with ``C = skew(torque)``;
* change of frame: ``mami`` for M-like W, H, L; ``mamt`` for J, Gamma and Phi.

Everything accepts stacks ``(..., 4, 4)`` where it makes sense.
"""

from __future__ import annotations

import numpy as np

from ..checks import as_float_array

__all__ = [
    "X", "Y", "Z", "U", "Rev", "Pri", "OK", "NOTOK",
    "axis_index", "vtom", "mtov", "gtom", "gtomgapt", "actom", "action_vectors", "jtoj",
    "pseudo_inertia", "makel", "makel2", "wtol", "wtovel", "veactowh", "vactowh2", "vactowh3",
    "coriolis", "pse_dot", "skew", "trac_ljl", "mami", "miam", "mamt", "miamit", "invers",
    "normal", "normskew", "rotat2", "rotat24", "rotat34", "traslat", "traslat2", "traslat24",
]

X, Y, Z, U = 0, 1, 2, 3  # SpaceLib C numbering (the MATLAB version uses 1..4)
Rev, Pri = 0, 1
OK, NOTOK = 1, 0
SYMM_, SKEW_ = 1, -1


def axis_index(a, name: str = "axis", allow_u: bool = False) -> int:
    """An axis given as 0/1/2 (3 = U if allowed) or "x"/"y"/"z" -> 0, 1, 2 (or 3)."""
    if isinstance(a, str):
        key = a.strip().lower()
        table = {"x": 0, "y": 1, "z": 2, "u": 3}
        if key in table and (key != "u" or allow_u):
            return table[key]
    elif isinstance(a, int | np.integer) and 0 <= int(a) <= (3 if allow_u else 2):
        return int(a)
    allowed = "X, Y, Z (0, 1, 2) or 'x', 'y', 'z'" + (" or U (3)" if allow_u else "")
    raise ValueError(f"{name} must be one of {allowed}, got {a!r}")


def _vec3(v, name: str) -> np.ndarray:
    arr = as_float_array(v, name)
    if arr.shape[-1:] == (4,):  # homogeneous point: drop the 4th coordinate
        arr = arr[..., :3]
    if arr.shape[-1:] != (3,):
        raise ValueError(f"{name} must have shape (3,) (or a point (4,)), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains a non-finite value")
    return arr


def _mat4(A, name: str) -> np.ndarray:
    arr = as_float_array(A, name)
    if arr.shape[-2:] != (4, 4):
        raise ValueError(f"{name} must have shape (4, 4) or (m, 4, 4), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains a non-finite value")
    return arr


def _type(jtype, name: str = "jtype") -> int:
    if isinstance(jtype, str) and jtype.upper() in ("R", "P"):
        return Rev if jtype.upper() == "R" else Pri
    if jtype in (Rev, Pri) and not isinstance(jtype, bool):
        return int(jtype)
    raise ValueError(f"{name} must be Rev (0, 'R') or Pri (1, 'P'), got {jtype!r}")


def vtom(v) -> np.ndarray:
    """Skew-symmetric 3x3 matrix of a vector: (..., 3) -> (..., 3, 3) (SpaceLib ``vtom``)."""
    v = _vec3(v, "v")
    S = np.zeros(v.shape[:-1] + (3, 3))
    S[..., 0, 1], S[..., 0, 2] = -v[..., 2], v[..., 1]
    S[..., 1, 0], S[..., 1, 2] = v[..., 2], -v[..., 0]
    S[..., 2, 0], S[..., 2, 1] = -v[..., 1], v[..., 0]
    return S


def mtov(A) -> np.ndarray:
    """Vector of the skew-symmetric upper-left 3x3 block: (..., k, k) -> (..., 3) (``mtov``)."""
    A = as_float_array(A, "A")
    if A.ndim < 2 or A.shape[-1] < 3 or A.shape[-2] < 3:
        raise ValueError(f"A must be at least 3x3, got shape {A.shape}")
    return np.stack([A[..., 2, 1], A[..., 0, 2], A[..., 1, 0]], axis=-1)


def gtom(g) -> np.ndarray:
    """Gravity acceleration matrix Hg from the acceleration vector g (m/s^2): (..., 4, 4)."""
    g = _vec3(g, "g")
    H = np.zeros(g.shape[:-1] + (4, 4))
    H[..., :3, 3] = g
    return H


def gtomgapt(G) -> np.ndarray:
    """Angular acceleration from the 3x3 block G of an H matrix: ``vex((G - G^T)/2)``."""
    G = as_float_array(G, "G")
    return mtov(0.5 * (G - np.swapaxes(G, -1, -2)))


def actom(force, torque) -> np.ndarray:
    """Action matrix Phi from force (N) and torque (N m) vectors: (..., 4, 4) (``actom``)."""
    f, c = _vec3(force, "force"), _vec3(torque, "torque")
    f, c = np.broadcast_arrays(f, c)
    F = np.zeros(f.shape[:-1] + (4, 4))
    F[..., :3, :3] = vtom(c)
    F[..., :3, 3] = f
    F[..., 3, :3] = -f
    return F


def action_vectors(F) -> tuple[np.ndarray, np.ndarray]:
    """(force, torque) of an action matrix Phi (inverse of :func:`actom`)."""
    F = _mat4(F, "F")
    return F[..., :3, 3].copy(), mtov(F)


def jtoj(m, jxx, jyy, jzz, jxy, jyz, jxz, xg, yg, zg) -> np.ndarray:
    """Pseudo-inertia J about the frame origin from barycentral data (SpaceLib ``jtoj``).

    ``jxx..jzz`` are the usual moments about the centre of mass (kg m^2), ``jxy jyz jxz``
    inertia-tensor elements (``-integral xy dm``), ``xg yg zg`` the centre of mass (m),
    all on axes parallel to the frame. Returns the 4x4 ``integral [x y z 1]^T [x y z 1] dm``.
    """
    r = np.array([xg, yg, zg], dtype=float)
    I = np.array([[jxx, jxy, jxz], [jxy, jyy, jyz], [jxz, jyz, jzz]], dtype=float)
    return pseudo_inertia(m, r, I)


def pseudo_inertia(m, r, I) -> np.ndarray:
    """Pseudo-inertia J (4x4) of a body: mass m, COM r (3,), inertia tensor I (3x3) about the COM.

    Second moments: ``J[:3,:3] = trace(I)/2 * 1 - I + m r r^T``, ``J[:3,3] = m r``, ``J[3,3] = m``.
    """
    m = float(m)
    r = _vec3(r, "r")
    I = as_float_array(I, "I")
    if I.shape != (3, 3):
        raise ValueError(f"I must have shape (3, 3), got shape {I.shape}")
    J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(I) * np.eye(3) - I + m * np.outer(r, r)
    J[:3, 3] = J[3, :3] = m * r
    J[3, 3] = m
    return J


def makel(jtype, u, pitch, P) -> np.ndarray:
    """L matrix of a screw axis through point P with unit vector u (SpaceLib ``makel``).

    Revolute (or screw with ``pitch`` in m/rad): ``[[skew(u), -skew(u) P + pitch u], 0]``;
    prismatic: ``[[0, u], 0]`` (pitch ignored).
    """
    jt = _type(jtype)
    u = _vec3(u, "u")
    n = np.linalg.norm(u)
    if n == 0:
        raise ValueError("u must not be the zero vector")
    u = u / n
    L = np.zeros((4, 4))
    if jt == Pri:
        L[:3, 3] = u
        return L
    P = _vec3(P, "P")
    L[:3, :3] = vtom(u)
    L[:3, 3] = -np.cross(u, P) + float(pitch) * u
    return L


def makel2(jtype, a, pitch, P) -> np.ndarray:
    """L matrix about/along a frame axis ``a`` (X, Y or Z) through point P (``makel2``)."""
    u = np.zeros(3)
    u[axis_index(a, "a")] = 1.0
    return makel(jtype, u, pitch, P)


def wtol(W) -> np.ndarray:
    """L matrix of a velocity matrix W: W divided by |omega|, or by |v| for a translation."""
    W = _mat4(W, "W")
    w = np.linalg.norm(mtov(W), axis=-1)
    v = np.linalg.norm(W[..., :3, 3], axis=-1)
    scale = np.where(w > 1e-12, w, v)
    safe = np.where(scale > 0, scale, 1.0)
    return W / safe[..., None, None]


def wtovel(W) -> tuple[np.ndarray, float, float, np.ndarray]:
    """Screw parameters of one velocity matrix: ``(u, omega, vel, P)`` (SpaceLib ``wtovel``).

    ``u`` unit axis, ``omega`` angular speed (rad/s), ``vel`` speed along u (m/s), ``P``
    the axis point nearest the origin (homogeneous, (4,)); the origin for a translation.
    """
    W = _mat4(W, "W")
    if W.shape != (4, 4):
        raise ValueError(f"W must have shape (4, 4), got shape {W.shape}")
    w, v0 = mtov(W), W[:3, 3]
    omega = float(np.linalg.norm(w))
    P = np.array([0.0, 0.0, 0.0, 1.0])
    if omega > 1e-12:
        u = w / omega
        P[:3] = np.cross(w, v0) / omega**2
        return u, omega, float(v0 @ u), P
    vel = float(np.linalg.norm(v0))
    u = v0 / vel if vel > 0 else np.zeros(3)
    return u, 0.0, vel, P


def vactowh3(jtype, a, qp, qpp, O) -> tuple[np.ndarray, np.ndarray]:
    """Relative W and H for a joint about/along a frame axis through point O (``vactowh3``).

    ``qp`` (rad/s or m/s) and ``qpp`` may be arrays: results are (..., 4, 4).
    """
    L = makel2(jtype, a, 0.0, O)
    qp = as_float_array(qp, "qp")[..., None, None]
    qpp = as_float_array(qpp, "qpp")[..., None, None]
    W = qp * L
    H = qpp * L + W @ W
    return W, H


def vactowh2(jtype, a, qp, qpp) -> tuple[np.ndarray, np.ndarray]:
    """Relative W and H for a joint about/along frame axis ``a`` through the origin."""
    return vactowh3(jtype, a, qp, qpp, (0.0, 0.0, 0.0))


def veactowh(jtype, qp, qpp) -> tuple[np.ndarray, np.ndarray]:
    """Relative W and H for a D-H joint (axis z of the local frame) (SpaceLib ``veactowh``)."""
    return vactowh3(jtype, Z, qp, qpp, (0.0, 0.0, 0.0))


def coriolis(H0, H1, W0, W1) -> np.ndarray:
    """Coriolis' theorem for acceleration matrices: ``H0 + H1 + 2 W0 W1``."""
    return np.asarray(H0) + np.asarray(H1) + 2.0 * (np.asarray(W0) @ np.asarray(W1))


def pse_dot(L, F) -> np.ndarray:
    """Pseudo-scalar product ``L (.) Phi = omega.c + v.f`` (SpaceLib ``PseDot``).

    With W and Phi it is the power (W); with a joint's L and the transmitted action it is
    the joint torque/force along the axis. Stacks give (...,).
    """
    L, F = _mat4(L, "L"), _mat4(F, "F")
    return np.sum(mtov(L) * mtov(F), axis=-1) + np.sum(L[..., :3, 3] * F[..., :3, 3], axis=-1)


def skew(A, B) -> np.ndarray:
    """SpaceLib ``skew(A, B) = A B - B^T A^T`` (the skew part of A B, doubled).

    ``skew(H, J)`` is the action of the inertia and weight terms; not the vector cross matrix
    (that is :func:`vtom`).
    """
    AB = np.asarray(A, dtype=float) @ np.asarray(B, dtype=float)
    return AB - np.swapaxes(AB, -1, -2)


def trac_ljl(L1, J, L2) -> np.ndarray:
    """Trace of ``L1 J L2^T`` (SpaceLib ``trac_ljl``), e.g. generalised mass terms."""
    P = np.asarray(L1, dtype=float) @ np.asarray(J, dtype=float) @ np.swapaxes(
        np.asarray(L2, dtype=float), -1, -2)
    return np.trace(P, axis1=-2, axis2=-1)


def invers(M) -> np.ndarray:
    """Inverse of position matrices ``[[R^T, -R^T t], [0 0 0 1]]``: (..., 4, 4)."""
    M = _mat4(M, "M")
    Rt = np.swapaxes(M[..., :3, :3], -1, -2)
    out = np.zeros_like(M)
    out[..., :3, :3] = Rt
    out[..., :3, 3] = -np.einsum("...ij,...j->...i", Rt, M[..., :3, 3])
    out[..., 3, 3] = 1.0
    return out


def mami(A, M) -> np.ndarray:
    """``M A M^-1``: W, H, L, Q from frame s to frame r when ``M = M_{r,s}`` (``mami``)."""
    return np.asarray(M, dtype=float) @ np.asarray(A, dtype=float) @ invers(M)


def miam(A, M) -> np.ndarray:
    """``M^-1 A M`` (inverse of :func:`mami`)."""
    return invers(M) @ np.asarray(A, dtype=float) @ np.asarray(M, dtype=float)


def mamt(A, M) -> np.ndarray:
    """``M A M^T``: J, Gamma, Phi from frame s to frame r when ``M = M_{r,s}`` (``mamt``)."""
    M = np.asarray(M, dtype=float)
    return M @ np.asarray(A, dtype=float) @ np.swapaxes(M, -1, -2)


def miamit(A, M) -> np.ndarray:
    """``M^-1 A M^-T`` (inverse of :func:`mamt`)."""
    Mi = invers(M)
    return Mi @ np.asarray(A, dtype=float) @ np.swapaxes(Mi, -1, -2)


def normal(A, tol: float = 1e-14, max_iter: int = 50) -> np.ndarray:
    """Re-orthonormalise the rotation block of a position (or 3x3) matrix, eq. (3.7)."""
    A = np.array(as_float_array(A, "A"), dtype=float)
    R = A[:3, :3].copy()
    for _ in range(max_iter):
        k = np.cbrt(np.linalg.det(R))
        if k == 0:
            raise ValueError("A has a singular rotation block; cannot normalise")
        Rn = 0.5 * (R / k + k * np.linalg.inv(R.T))
        done = np.abs(Rn - R).max() < tol
        R = Rn
        if done:
            break
    A[:3, :3] = R
    return A


def normskew(A, sign: int = SYMM_) -> np.ndarray:
    """Symmetric (``sign=1``) or skew-symmetric (``sign=-1``) part of a square matrix."""
    A = as_float_array(A, "A")
    At = np.swapaxes(A, -1, -2)
    if sign == SYMM_:
        return 0.5 * (A + At)
    if sign == SKEW_:
        return 0.5 * (A - At)
    raise ValueError(f"sign must be 1 (SYMM_) or -1 (SKEW_), got {sign!r}")


def _rot3(a: int, phi: float) -> np.ndarray:
    c, s = np.cos(phi), np.sin(phi)
    R = np.eye(3)
    i, j = [(1, 2), (2, 0), (0, 1)][a]
    R[i, i], R[i, j], R[j, i], R[j, j] = c, -s, s, c
    return R


def rotat2(a, phi) -> np.ndarray:
    """3x3 rotation by ``phi`` (rad) about frame axis ``a``; U gives the identity."""
    k = axis_index(a, "a", allow_u=True)
    return np.eye(3) if k == U else _rot3(k, float(phi))


def rotat24(a, phi, O) -> np.ndarray:
    """Position matrix of a frame with origin O, rotated by ``phi`` about axis ``a``."""
    M = np.eye(4)
    M[:3, :3] = rotat2(a, phi)
    M[:3, 3] = _vec3(O, "O")
    return M


def rotat34(a, phi, O) -> np.ndarray:
    """Frame placed at O, then rotated (origin included) by ``phi`` about absolute axis a."""
    M = np.eye(4)
    R = rotat2(a, phi)
    M[:3, :3] = R
    M[:3, 3] = R @ _vec3(O, "O")
    return M


def traslat(u, h) -> np.ndarray:
    """Translation matrix by ``h`` (m) along vector u."""
    u = _vec3(u, "u")
    n = np.linalg.norm(u)
    M = np.eye(4)
    M[:3, 3] = float(h) * (u / n if n > 0 else u)
    return M


def traslat2(a, h) -> np.ndarray:
    """Translation matrix by ``h`` along frame axis ``a``."""
    u = np.zeros(3)
    u[axis_index(a, "a")] = 1.0
    return traslat(u, h)


def traslat24(a, h, P) -> np.ndarray:
    """Frame with origin P translated by ``h`` along frame axis ``a``."""
    M = traslat2(a, h)
    M[:3, 3] += _vec3(P, "P")
    return M
