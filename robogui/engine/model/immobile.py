"""Immobile (locked) joints: a robot with some joints held at fixed values, as a robot with
fewer joints (ROBOOP's ``immobile`` flag, init-matrix column 23).

A locked joint j at value v is a constant transform ``C = A_j(v)``. It is folded into the
next free joint's constant ``origin`` (that link becomes a general joint, see
:mod:`robogui.engine.model.joint_model`), or into the tool when no free joint follows, so the
reduced robot has the same frames for its free links and the same end-effector pose:
``lock_joints(r, {j: v}).fkine(q_free) == r.fkine(q_full)`` exactly, for Jacobians and
dynamics too. The locked link's body is rigidly attached to the previous free link: its
mass, centre of mass and inertia are lumped into that link (parallel-axis theorem); a
locked body before the first free joint is part of the base and drops out (it moves with
nothing). A locked joint's motor does not turn: its rotor inertia and friction drop out.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .joint_model import general_links

__all__ = ["lock_joints", "free_indices", "expand_q"]


def _checked(robot, locked: Mapping) -> dict[int, float]:
    if not isinstance(locked, Mapping):
        raise ValueError("locked must be a mapping {joint index (0-based): value}, got "
                         f"{type(locked).__name__}")
    out = {}
    for j, v in locked.items():
        if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)) \
                or not 0 <= j < robot.n:
            raise ValueError(f"locked joint index must be an integer in 0..{robot.n - 1}, "
                             f"got {j!r}")
        try:
            val = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"locked joint {j + 1}: value must be a number, got {v!r}") from None
        if not np.isfinite(val):
            raise ValueError(f"locked joint {j + 1}: value must be finite, got {val}")
        out[int(j)] = val
    if len(out) == robot.n:
        raise ValueError("every joint is locked: a robot needs at least one free joint")
    return out


def free_indices(n: int, locked) -> np.ndarray:
    """Indices (0-based) of the joints that are not in ``locked``."""
    return np.array([j for j in range(n) if j not in locked], dtype=int)


def expand_q(robot, locked: Mapping, q_free) -> np.ndarray:
    """Full joint vector(s) of ``robot`` from the free ones: (k,) -> (n,), (m, k) -> (m, n)."""
    locked = _checked(robot, locked)
    free = free_indices(robot.n, locked)
    qf = np.asarray(q_free, dtype=float)
    if qf.shape[-1:] != (len(free),) or qf.ndim > 2:
        raise ValueError(f"q_free must have shape ({len(free)},) or (m, {len(free)}), got "
                         f"shape {qf.shape}")
    q = np.empty(qf.shape[:-1] + (robot.n,))
    q[..., free] = qf
    for j, v in locked.items():
        q[..., j] = v
    return q


def _lump(L, m2: float, r2: np.ndarray, I2: np.ndarray):
    """Link L with a rigid body (mass m2, centre r2, inertia I2 about r2, L's frame) added."""
    m1, r1, I1 = L.m, L.r, L.I
    m = m1 + m2
    if m <= 0:
        return L.replace(I=I1 + I2)
    c = (m1 * r1 + m2 * r2) / m
    shift = lambda mass, d: mass * (d @ d * np.eye(3) - np.outer(d, d))  # noqa: E731
    I = I1 + shift(m1, r1 - c) + I2 + shift(m2, r2 - c)  # noqa: E741
    return L.replace(m=m, r=c, I=0.5 * (I + I.T))


def lock_joints(robot, locked: Mapping):
    """The robot with the joints in ``locked`` ({0-based index: value in rad or m}) held
    at those values and removed from q (see the module text).

    The new robot's poses keep the free joints' values; its name says which joints are
    locked. ValueError for a bad index or value, or when no joint would stay free.
    """
    locked = _checked(robot, locked)
    links = robot.links
    carry = np.eye(4)  # constant transform from the last free frame (or base) so far
    prev = None  # index in `out` of the previous free link
    out, tool = [], robot.tool
    for j, L in enumerate(links):
        if j in locked:
            C = L.A(locked[j])
            carry = carry @ C
            if prev is not None and (L.m > 0 or np.any(L.I)):
                R, t = carry[:3, :3], carry[:3, 3]
                out[prev] = _lump(out[prev], L.m, R @ L.r + t, R @ L.I @ R.T)
            continue
        if not np.array_equal(carry, np.eye(4)):
            G = general_links([L])[0]
            L = G.replace(origin=carry @ G.origin)
        out.append(L)
        prev = len(out) - 1
        carry = np.eye(4)
    if not np.array_equal(carry, np.eye(4)):
        tool = carry @ tool
    free = free_indices(robot.n, locked)
    poses = {k: v[free] for k, v in robot.poses.items()}
    names = ", ".join(str(j + 1) for j in sorted(locked))
    # the robot's own class, passed in with it (this module does not import Robot)
    return type(robot)(out, name=f"{robot.name} (joint {names} locked)",
                       manufacturer=robot.manufacturer, comment=robot.comment,
                       base=robot.base, tool=tool, gravity=robot.gravity, poses=poses,
                       source=robot.source)
