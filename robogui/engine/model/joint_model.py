"""Every joint as one description: a constant transform, a motion along or about z, another
constant transform.

``A_j(q_j) = pre_j @ M(sign_j * q_j + offset_j) @ post_j`` where ``M`` is ``Rz`` for a
revolute joint and ``Tz`` for a prismatic one. The joint's axis in the world is the z
axis of ``T_{j-1} @ pre_j`` (its origin is that frame's origin).

- standard D-H, revolute:  pre = I,                 post = Tz(d) Tx(a) Rx(alpha)
- standard D-H, prismatic: pre = Rz(theta),         post = Tx(a) Rx(alpha)
- modified D-H, revolute:  pre = Rx(alpha) Tx(a),   post = Tz(d)
- modified D-H, prismatic: pre = Rx(alpha) Tx(a) Rz(theta), post = I
- a general (URDF) joint: pre = origin @ R_a, post = R_a^T @ post_link, with R_a the
  rotation whose z column is the joint axis (exact for the coordinate axes)

Algorithms that walk the chain (recursive Newton-Euler, composite rigid bodies, the
Jacobian from frames) work on these arrays and need no case per joint kind; the D-H
kernels keep their own folded code for speed.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["JointModels", "joint_models", "model_link_matrices", "link_matrices", "axis_rotation",
           "general_links"]


def axis_rotation(axis) -> np.ndarray:
    """A rotation (3, 3) whose third column is the unit vector ``axis``.

    For a coordinate axis (+-x, +-y, +-z) every entry is exactly 0 or +-1, so the
    kernels that fold constants see the same zeros as for a D-H joint.
    """
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    if a[2] == 1.0:
        return np.eye(3)
    h = np.array([0.0, 0.0, 1.0]) if abs(a[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    x = np.cross(h, a)
    x /= np.linalg.norm(x)
    y = np.cross(a, x)
    return np.column_stack([x, y, a])


def _rz(t: float) -> np.ndarray:
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def _rx(t: float) -> np.ndarray:
    c, s = np.cos(t), np.sin(t)
    return np.array([[1.0, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def _tz(d: float) -> np.ndarray:
    T = np.eye(4)
    T[2, 3] = d
    return T


def _tx(a: float) -> np.ndarray:
    T = np.eye(4)
    T[0, 3] = a
    return T


@dataclass(frozen=True)
class JointModels:
    """The chain's joints as arrays: ``pre`` and ``post`` (n, 4, 4), ``revolute`` (n,)
    bool, ``offset`` and ``sign`` (n,) (``sign`` is -1 for a flipped joint axis)."""

    pre: np.ndarray
    post: np.ndarray
    revolute: np.ndarray
    offset: np.ndarray
    sign: np.ndarray

    @property
    def n(self) -> int:
        return len(self.revolute)


def _snap(T: np.ndarray) -> np.ndarray:
    """Round-off zeros and ones (cos(pi/2) = 6e-17 from an rpy of 90 degrees) made exact,
    so that the kernels fold them as they fold a D-H twist of 90 degrees."""
    T = T.copy()
    T[np.abs(T) < 1e-15] = 0.0
    for v in (1.0, -1.0):
        T[np.abs(T - v) < 1e-15] = v
    return T


def _general_parts(L) -> tuple[np.ndarray, np.ndarray]:
    Ra = np.eye(4)
    Ra[:3, :3] = axis_rotation(L.axis)
    return _snap(L.origin @ Ra), _snap(Ra.T @ L.post)


def _dh_parts(L) -> tuple[np.ndarray, np.ndarray]:
    if getattr(L, "origin", None) is not None:
        return _general_parts(L)
    if L.mdh:
        twist = _rx(L.alpha) @ _tx(L.a)
        if L.joint == "R":
            return twist, _tz(L.d)
        return twist @ _rz(L.theta), np.eye(4)
    if L.joint == "R":
        return np.eye(4), _tz(L.d) @ _tx(L.a) @ _rx(L.alpha)
    return _rz(L.theta), _tx(L.a) @ _rx(L.alpha)


def joint_models(links) -> JointModels:
    """The :class:`JointModels` of a Robot (or a sequence of Links)."""
    links = list(getattr(links, "links", links))
    pre, post = zip(*(_dh_parts(L) for L in links), strict=True)
    return JointModels(
        pre=np.array(pre),
        post=np.array(post),
        revolute=np.array([L.joint == "R" for L in links], dtype=bool),
        offset=np.array([L.offset for L in links], dtype=float),
        sign=np.array([-1.0 if getattr(L, "flip", False) else 1.0 for L in links]),
    )


def model_link_matrices(jm: JointModels, q2d: np.ndarray) -> np.ndarray:
    """Link transforms from joint models: (m, n) -> (m, n, 4, 4), batched over m."""
    q2d = np.asarray(q2d, dtype=float)
    m, n = q2d.shape
    v = q2d * jm.sign + jm.offset
    M = np.zeros((m, n, 4, 4))
    M[..., 3, 3] = 1.0
    c, s = np.cos(v), np.sin(v)
    rev = jm.revolute
    one = np.ones_like(v)
    M[..., 0, 0] = np.where(rev, c, one)
    M[..., 0, 1] = np.where(rev, -s, 0.0)
    M[..., 1, 0] = np.where(rev, s, 0.0)
    M[..., 1, 1] = np.where(rev, c, one)
    M[..., 2, 2] = 1.0
    M[..., 2, 3] = np.where(rev, 0.0, v)
    return jm.pre @ M @ jm.post


def link_matrices(links_or_robot, q2d: np.ndarray) -> np.ndarray:
    """Link transforms ``A_j(q_j)`` for every sample and link: (m, n) -> (m, n, 4, 4).

    ``q2d`` is taken as already checked. Accepts a Robot or a sequence of Links.
    """
    dh = getattr(links_or_robot, "dh_arrays", None)
    if dh is None:
        from .dh_arrays import DHArrays

        dh = DHArrays.from_links(list(links_or_robot))
    q2d = np.asarray(q2d, dtype=np.float64)
    if dh.general.any():
        jm = getattr(links_or_robot, "joint_models", None) or joint_models(links_or_robot)
        return model_link_matrices(jm, q2d)
    qo = dh.joint_values(q2d)
    theta = np.where(dh.revolute, qo, dh.theta)
    d = np.where(dh.revolute, dh.d, qo)
    ct, st = np.cos(theta), np.sin(theta)
    ca, sa, a = dh.cos_alpha, dh.sin_alpha, dh.a
    m, n = q2d.shape
    A = np.zeros((m, n, 4, 4))
    A[..., 3, 3] = 1.0
    if dh.mdh:  # one convention for every D-H link (a Robot checks it)
        A[..., 0, 0] = ct
        A[..., 0, 1] = -st
        A[..., 0, 3] = a
        A[..., 1, 0] = st * ca
        A[..., 1, 1] = ct * ca
        A[..., 1, 2] = -sa
        A[..., 1, 3] = -sa * d
        A[..., 2, 0] = st * sa
        A[..., 2, 1] = ct * sa
        A[..., 2, 2] = ca
        A[..., 2, 3] = ca * d
    else:
        A[..., 0, 0] = ct
        A[..., 0, 1] = -st * ca
        A[..., 0, 2] = st * sa
        A[..., 0, 3] = a * ct
        A[..., 1, 0] = st
        A[..., 1, 1] = ct * ca
        A[..., 1, 2] = -ct * sa
        A[..., 1, 3] = a * st
        A[..., 2, 1] = sa
        A[..., 2, 2] = ca
        A[..., 2, 3] = d
    return A


def general_links(links) -> tuple:
    """The same links as general joints (origin = pre, axis z, post), dynamics and limits
    kept: a D-H robot re-described without D-H parameters, e.g. for a URDF file."""
    links = list(getattr(links, "links", links))
    jm = joint_models(links)
    out = []
    for j, L in enumerate(links):
        if L.is_general:
            out.append(L)
            continue
        out.append(L.replace(theta=0.0, d=0.0, a=0.0, alpha=0.0, mdh=False,
                             origin=jm.pre[j], axis=(0.0, 0.0, 1.0), post=jm.post[j]))
    return tuple(out)
