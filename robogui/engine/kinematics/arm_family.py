"""Which closed-form family a 6R arm belongs to, read off its joint axes, and its screw model.

Any chain of revolute joints is a product of exponentials (Brockett):
``T(q) = E1(q1) ... E6(q6) M`` with ``Ej`` the rotation by ``qj`` about joint j's axis as it
lies at q = 0 (unit direction ``w[j]`` through the point ``p[j]``, world frame, base
included) and ``M = fkine(0)`` (tool included). The axes come from ``jacob0(0)``, so every
description gives the same model: standard or modified D-H, URDF joints, flipped axes,
offsets. The model is checked against ``fkine`` before it is used.

Families (from the geometry, never from a name):

* ``"spherical"``: axes 2 and 3 parallel, axis 1 not parallel to them, axes 4, 5, 6 meet
  in one point (the wrist centre) and 4/5, 5/6 are not parallel (Puma, KUKA, ABB, FANUC,
  Yaskawa, Staubli ...);
* ``"ur"``: axes 2, 3, 4 parallel, axis 1 not parallel to them, axes 5 and 6 meet in a
  point, axis 5 not parallel to 4, axis 6 not parallel to 5 (Universal Robots and their
  copies).

:func:`config_flags` reads the shoulder / elbow / wrist flags of any configuration of such
an arm geometrically, so that the branch that a pose came from carries its letters.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["ArmModel", "arm_model", "arm_family", "rot", "motion", "config_flags", "abb_confdata"]

_PARALLEL = 1e-9  # 1 - |cos| below this: parallel axes
_MEET = 1e-9  # distance between axes, times the reach: they meet


@dataclass(frozen=True, eq=False)
class ArmModel:
    """Product-of-exponentials model of a 6R arm at q = 0 (world frame, m).

    ``w`` (6, 3) unit axis directions, ``p`` (6, 3) a point on each axis, ``M`` (4, 4)
    the tool pose at q = 0, ``family`` "spherical" or "ur", ``centre`` (3,) the point the
    shoulder solution aims at (wrist centre, or where axes 5 and 6 meet on a UR arm) and
    ``elbow_point`` (3,) the point of axis 4 that the elbow places (the wrist centre, or a
    point of axis 4 on a UR arm).
    """

    w: np.ndarray
    p: np.ndarray
    M: np.ndarray
    family: str
    centre: np.ndarray
    elbow_point: np.ndarray
    reach: float


def rot(u: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Rotation matrices (..., 3, 3) by ``theta`` (...) rad about unit axes ``u`` (..., 3)
    (Rodrigues: ``c I + s [u]x + (1 - c) u u^T``, written entry by entry)."""
    u = np.asarray(u, dtype=float)
    th = np.asarray(theta, dtype=float)
    shape = np.broadcast_shapes(u.shape[:-1], th.shape)
    c, s = np.cos(th), np.sin(th)
    v = 1.0 - c
    x, y, z = u[..., 0], u[..., 1], u[..., 2]
    R = np.empty(shape + (3, 3))
    R[..., 0, 0] = c + v * x * x
    R[..., 0, 1] = v * x * y - s * z
    R[..., 0, 2] = v * x * z + s * y
    R[..., 1, 0] = v * x * y + s * z
    R[..., 1, 1] = c + v * y * y
    R[..., 1, 2] = v * y * z - s * x
    R[..., 2, 0] = v * x * z - s * y
    R[..., 2, 1] = v * y * z + s * x
    R[..., 2, 2] = c + v * z * z
    return R


def motion(u: np.ndarray, p: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Rigid motions (..., 4, 4): rotation by ``theta`` about the line through ``p`` along ``u``."""
    R = rot(u, theta)
    E = np.zeros(R.shape[:-2] + (4, 4))
    E[..., :3, :3] = R
    p = np.asarray(p, dtype=float)
    E[..., :3, 3] = p - (R @ p[..., None])[..., 0]
    E[..., 3, 3] = 1.0
    return E


def _closest_point(p: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, float]:
    """Least-squares point nearest to the lines (p, w) (k, 3) and its largest distance."""
    P = np.eye(3) - w[:, :, None] * w[:, None, :]
    x = np.linalg.lstsq(P.sum(0), np.einsum("kij,kj->i", P, p), rcond=None)[0]
    return x, float(np.linalg.norm(np.einsum("kij,kj->ki", P, x - p), axis=1).max())


def _parallel(a: np.ndarray, b: np.ndarray) -> bool:
    return 1.0 - abs(float(np.dot(a, b))) < _PARALLEL


def forward(model: ArmModel, q: np.ndarray) -> np.ndarray:
    """Tool poses (m, 4, 4) of the screw model at joint vectors ``q`` (m, 6)."""
    E = motion(model.w, model.p, q)  # (m, 6, 4, 4)
    T = E[:, 0]
    for j in range(1, 6):
        T = T @ E[:, j]
    return T @ model.M


@lru_cache(maxsize=32)
def arm_model(robot) -> ArmModel | None:
    """The screw model and family of ``robot``, or None when it is not a 6R arm of a family
    with a closed-form solution here (or the model does not reproduce its fkine)."""
    from .jacobians import jacob0
    from .kinematics import fkine

    if robot.n != 6 or not np.all(robot.revolute):
        return None
    q0 = np.zeros(6)
    J = np.asarray(jacob0(robot, q0), dtype=float)
    M = np.asarray(fkine(robot, q0), dtype=float)
    w = J[3:].T.copy()
    if not np.allclose(np.linalg.norm(w, axis=1), 1.0, atol=1e-9):
        return None  # a coupled or geared joint: not one unit rotation per joint
    p = M[:3, 3] + np.cross(w, J[:3].T)  # v = w x (pe - p)  =>  p = pe + w x v
    reach = max(float(robot.reach), 1e-3)
    tol = _MEET * reach * 10
    family = centre = elbow = None
    if _parallel(w[1], w[2]) and not _parallel(w[0], w[1]):
        c, dist = _closest_point(p[3:], w[3:])
        if dist < tol and not _parallel(w[3], w[4]) and not _parallel(w[4], w[5]):
            family, centre, elbow = "spherical", c, c
        elif _parallel(w[1], w[3]) and not _parallel(w[3], w[4]) \
                and not _parallel(w[4], w[5]):
            c, dist = _closest_point(p[4:], w[4:])
            if dist < tol:
                family, centre, elbow = "ur", c, p[3].copy()
    if family is None:
        return None
    model = ArmModel(w, p, M, family, centre, elbow, reach)
    qs = np.random.default_rng(7).uniform(-np.pi, np.pi, (3, 6))
    err = np.abs(forward(model, qs) - np.asarray(fkine(robot, qs), dtype=float)).max()
    if err > 1e-9 * reach * 10:
        return None  # the chain is not what its axes say (should not happen)
    return model


def arm_family(robot) -> str | None:
    """"spherical", "ur" or None: the closed-form family of ``robot`` from its joint axes."""
    m = arm_model(robot)
    return None if m is None else m.family


def _axes_at(model: ArmModel, q: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
    """Axis directions (m, 6, 3), points (m, 6, 3) and the motions G_j = E1..E_{j-1} at q."""
    E = motion(model.w, model.p, q)  # (m, 6, 4, 4)
    G = [np.broadcast_to(np.eye(4), E.shape[:1] + (4, 4))]
    for j in range(5):
        G.append(G[-1] @ E[:, j])
    Gs = np.stack(G, axis=1)  # (m, 6, 4, 4)
    W = (Gs[..., :3, :3] @ model.w[:, :, None])[..., 0]
    P = (Gs[..., :3, :3] @ model.p[:, :, None])[..., 0] + Gs[..., :3, 3]
    return W, P, G


def _apply(G: np.ndarray, x: np.ndarray) -> np.ndarray:
    return G[..., :3, :3] @ x + G[..., :3, 3]


def config_flags(model: ArmModel, q) -> np.ndarray:
    """Shoulder, elbow and wrist flags (m, 3) bool of configurations ``q`` (m, 6):
    ``[right, up, flip]``, read off the joint axes at q.

    * right: the centre (wrist centre; on a UR arm where axes 5 and 6 meet) lies on the
      side of axis 1 that ``x1 = u1 x u2`` points to (r6's ``V114 >= 0``; KUKA's status
      bit 0 reads the same side of A1);
    * up: in the plane normal to axis 2, the elbow (axis 3) lies above the line from the
      shoulder (axis 2) to the elbow point of axis 4 (for a Puma: r6's elbow up; ABB: the
      wrist in front of the lower arm);
    * flip: ``u5 . (u4 x u6) > 0`` (r6: no flip has ``sin(theta5) <= 0``).
    """
    q = np.atleast_2d(np.asarray(q, dtype=float))
    W, P, G = _axes_at(model, q)
    u1, u2 = W[:, 0], W[:, 1]
    x1 = np.cross(u1, u2)
    x1 /= np.linalg.norm(x1, axis=1, keepdims=True)
    y1 = np.cross(u2, x1)
    centre = _apply(G[3] if model.family == "spherical" else G[4], model.centre)
    right = np.einsum("mi,mi->m", centre - P[:, 0], x1) >= 0.0
    target = _apply(G[3], model.elbow_point)
    d = target - P[:, 1]
    r, z = np.einsum("mi,mi->m", d, x1), np.einsum("mi,mi->m", d, y1)
    e = P[:, 2] - P[:, 1]
    ex, ey = np.einsum("mi,mi->m", e, x1), np.einsum("mi,mi->m", e, y1)
    up = np.where(r >= 0.0, 1.0, -1.0) * (r * ey - z * ex) > 0.0
    flip = np.einsum("mi,mi->m", W[:, 4], np.cross(W[:, 3], W[:, 5])) > 1e-12
    return np.stack([right, up, flip], axis=1)


def letters(flags: np.ndarray) -> list[str]:
    """r6-style letters ``"run"`` for flags (m, 3)."""
    return [("r" if a else "l") + ("u" if b else "d") + ("f" if c else "n")
            for a, b, c in np.atleast_2d(flags)]


def abb_confdata(model: ArmModel, q) -> np.ndarray:
    """ABB RAPID ``confdata`` ``[cf1, cf4, cf6, cfx]`` (m, 4) int of configurations q (m, 6)
    of a spherical-wrist arm, following from the axes as ABB defines them:

    * cf1, cf4, cf6: the quadrant of axes 1, 4, 6, ``floor(q / 90 deg)`` (0 for 0..90 deg,
      -1 for -90..0 deg);
    * cfx = 4 (wrist centre behind axis 1) + 2 (behind the lower arm) + 1 (axis 5 angle
      negative). "In front of axis 1" is the side the wrist centre is on at q = 0, turned
      with joint 1; "in front of the lower arm" is, in the plane normal to axis 2 with
      axis 1's sense as up, the wrist centre clockwise from the lower arm (axis 2 to axis
      3); the axis 5 sign is q5 as the robot description counts it.
    """
    q = np.atleast_2d(np.asarray(q, dtype=float))
    W, P, G = _axes_at(model, q)
    c = _apply(G[3], model.centre)
    u1, u2 = model.w[0], W[:, 1]
    f0 = model.centre - model.p[0]
    f0 = f0 - np.dot(f0, u1) * u1
    if np.linalg.norm(f0) < 1e-9 * model.reach:  # wrist centre on axis 1 at q = 0
        f0 = np.cross(u1, model.w[1])
    f = np.einsum("mab,b->ma", G[1][:, :3, :3], f0 / np.linalg.norm(f0))
    behind1 = np.einsum("mi,mi->m", c - P[:, 0], f) < 0.0
    fp = f - np.einsum("mi,mi->m", f, u2)[:, None] * u2
    fp /= np.linalg.norm(fp, axis=1, keepdims=True)
    up = u1 - np.einsum("i,mi->m", u1, u2)[:, None] * u2
    up -= np.einsum("mi,mi->m", up, fp)[:, None] * fp
    up /= np.linalg.norm(up, axis=1, keepdims=True)
    lower, wrist = P[:, 2] - P[:, 1], c - P[:, 1]
    lf, lz = np.einsum("mi,mi->m", lower, fp), np.einsum("mi,mi->m", lower, up)
    wf, wz = np.einsum("mi,mi->m", wrist, fp), np.einsum("mi,mi->m", wrist, up)
    behind_arm = lf * wz - lz * wf > 0.0  # counter-clockwise from the lower arm: behind
    neg5 = np.mod(q[:, 4] + np.pi, 2 * np.pi) - np.pi < 0.0
    quad = np.floor(q[:, [0, 3, 5]] / (np.pi / 2)).astype(int)
    cfx = 4 * behind1 + 2 * behind_arm + neg5
    return np.column_stack([quad, cfx.astype(int)])
