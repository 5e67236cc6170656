"""Where a robot's joint axes are and which task directions it can move in: the geometry
that jogging, singularity naming and arm configurations all start from (Qt-free).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from robogui.engine.kinematics.kinematics import link_matrices

__all__ = ["task_mask", "is_puma_like", "has_spherical_wrist"]


def _jacob0(robot, q: np.ndarray) -> np.ndarray:
    from robogui.engine.kinematics.jacobians import jacob0

    return np.asarray(jacob0(robot, q), dtype=float)


@lru_cache(maxsize=32)
def _structural_rows(robot) -> tuple[bool, ...]:
    """Jacobian rows that are not zero in every configuration (checked at 3 random ones)."""
    qs = np.vstack([robot.random_q(3, seed=12345), np.zeros(robot.n)])
    live = np.zeros(6, dtype=bool)
    for q in qs:
        J = _jacob0(robot, q)
        live |= np.abs(J).max(axis=1) > 1e-9 * max(1.0, robot.reach)
    return tuple(bool(x) for x in live)


def task_mask(robot, rotation: bool = False) -> np.ndarray:
    """Task directions [x y z rx ry rz] (6,) bool that ``robot`` can control by itself.

    Rows of the Jacobian that are zero in every configuration are dropped; if more rows
    remain than joints, orientation (or, with ``rotation``, position) is dropped too.
    Used by the jog and as the IK mask of linear moves.
    """
    return _task_rows(robot, rotation)


def _task_rows(robot, rotation_jog: bool) -> np.ndarray:
    rows = np.array(_structural_rows(robot))
    if rows.sum() > robot.n:
        # under-actuated for the full pose: keep the kind of motion being jogged
        keep = np.array([False] * 3 + [True] * 3) if rotation_jog else np.array(
            [True] * 3 + [False] * 3)
        rows &= keep
    return rows


def _joint_axes(robot, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points (n, 3) and unit directions (n, 3) of the joint axes in the world frame.

    Standard D-H: joint j turns about z of frame j-1; modified D-H: about z of frame j.
    The tool transform does not matter here. With mimic joints: the independent joints'
    own axes, on the full chain at ``E q + c``.
    """
    cp = getattr(robot, "coupling", None)
    if cp is not None:
        P, D = _joint_axes(robot.full, cp.E @ q + cp.c)
        return P[cp.independent], D[cp.independent]
    A = link_matrices(robot, q.reshape(1, -1))[0]
    frames = [np.asarray(robot.base)]
    for j in range(robot.n):
        frames.append(frames[-1] @ A[j])
    sel = frames[1:] if robot.is_mdh else frames[:-1]
    F = np.array(sel)
    if robot.is_general:  # general joints: z of frame j-1 times the joint's constant pre
        F = np.array(frames[:-1]) @ robot.joint_models.pre
    return F[:, :3, 3], F[:, :3, 2]


def _closest_point(points: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, float]:
    """Least-squares point nearest to several lines, and its largest distance to them."""
    P = np.zeros((3, 3))
    b = np.zeros(3)
    for p, d in zip(points, dirs, strict=True):
        M = np.eye(3) - np.outer(d, d)
        P += M
        b += M @ p
    x = np.linalg.lstsq(P, b, rcond=None)[0]
    dist = max(float(np.linalg.norm((np.eye(3) - np.outer(d, d)) @ (x - p)))
               for p, d in zip(points, dirs, strict=True))
    return x, dist


@lru_cache(maxsize=32)
def is_puma_like(robot) -> bool:
    """6 revolute joints, a spherical wrist (axes 4-6 meet in a point) and axes 2, 3 parallel."""
    if robot.n != 6 or robot.structure != "RRRRRR":
        return False
    tol = 1e-9 * max(1.0, robot.reach)
    for q in robot.random_q(2, seed=4321):
        pts, dirs = _joint_axes(robot, q)
        if abs(float(np.dot(dirs[1], dirs[2]))) < 1 - 1e-9:
            return False
        if np.linalg.matrix_rank(dirs[3:], tol=1e-6) < 2:
            return False
        _, dist = _closest_point(pts[3:], dirs[3:])
        if dist > tol:
            return False
    return True


@lru_cache(maxsize=32)
def has_spherical_wrist(robot) -> bool:
    """6 joints, the last three revolute with axes meeting in one point (2 random states)."""
    if robot.n != 6 or robot.structure[3:] != "RRR":
        return False
    tol = 1e-9 * max(1.0, robot.reach)
    for q in robot.random_q(2, seed=4321):
        pts, dirs = _joint_axes(robot, q)
        if np.linalg.matrix_rank(dirs[3:], tol=1e-6) < 2:
            return False
        if _closest_point(pts[3:], dirs[3:])[1] > tol:
            return False
    return True
