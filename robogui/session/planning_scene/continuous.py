"""Continuous collision checking along a trajectory: no point of any link moves more than
``step`` (2 mm by default) between two checked states, so a contact cannot slip between
samples.

The bound: a point x of the body moved last by joint k moves, for a revolute step dq_k, at
most ``|dq_k| * |x - A_k|`` with A_k a point on joint k's axis. ``|x - A_k|`` is bounded
without knowing q by a chain of lengths that are fixed in the bodies: the distances between
consecutive axis points (each pair lies in one body) and from the last axis point to the
piece's bounding sphere (:func:`levers`). A prismatic step moves every point beyond it by
``|dq_k|`` and lengthens the chain by at most its travel. Between two samples of the
trajectory the states are interpolated linearly in joint space (the compiled trajectory's
samples are dense: this is how it is played), each gap cut into as many pieces as the bound
asks for; then every state is checked in one batched call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.kinematics.kinematics import fkine_all

from .cell import Cell
from .collisions import collision_world

__all__ = ["Contact", "ContinuousReport", "check_trajectory", "levers", "STEP"]

#: largest motion of any link point between two checked states (m)
STEP = 0.002
#: most states one trajectory may need (a runaway bound would otherwise exhaust memory)
MAX_STATES = 2_000_000


@dataclass(frozen=True)
class Contact:
    """One stretch of contact between two things along a trajectory.

    pair : (name_a, name_b) (robot link names, cell object names, "floor").
    t_start, t_end : first and last checked instant in contact (s).
    t_deepest, depth : when the penetration is deepest and how deep (m, >= 0).
    index : the trajectory sample at or just before ``t_start`` (for seeking).
    """

    pair: tuple
    t_start: float
    t_end: float
    t_deepest: float
    depth: float
    index: int


@dataclass
class ContinuousReport:
    """What :func:`check_trajectory` found.

    contacts : list of :class:`Contact`, by start time.
    t : (k,) the checked instants (s); q : (k, n) the states checked; colliding : (k,) bool
        at each.
    max_step : the bound on any link point's motion between two checked states (m).
    clearance : (k,) smallest signed distance at each checked instant (m) when asked for
        (``distances=True``), else None.
    """

    contacts: list
    t: np.ndarray
    q: np.ndarray
    colliding: np.ndarray
    max_step: float
    clearance: np.ndarray | None = None
    counts: dict = field(default_factory=dict)

    @property
    def clear(self) -> bool:
        return not self.contacts


def levers(robot, world) -> tuple[np.ndarray, np.ndarray]:
    """(lever (N,) m, revolute (N,) bool) per joint of the whole chain (mimic followers
    included): the largest distance from joint k's axis to any collision piece it moves,
    bounded for every q (see the module docstring)."""
    full = robot.full
    jm = full.joint_models
    N = full.n
    q0 = np.zeros(N)
    F = np.asarray(fkine_all(full, q0))
    A = np.array([(F[k + 1] @ np.linalg.inv(jm.post[k]))[:3, 3] for k in range(N)])
    revolute = np.asarray(jm.revolute, bool)
    travel = np.zeros(N)
    if (~revolute).any():
        lim = full.qlim
        travel[~revolute] = np.abs(lim[~revolute]).max(axis=1)
    # chain lengths between consecutive axis points (fixed in one body; prismatic: + travel)
    link = np.linalg.norm(np.diff(A, axis=0), axis=1) + travel[1:] if N > 1 else np.zeros(0)
    cum = np.concatenate([[0.0], np.cumsum(link)])  # cum[b] - cum[k] = chain from A_k to A_b
    lever = np.zeros(N)
    geom = world.geometry
    for p in geom.pieces:
        if p.frame == 0:
            continue
        last = p.frame - 1  # the joint that moves this piece's frame
        c = F[p.frame, :3, :3] @ p.centre + F[p.frame, :3, 3]
        own = np.linalg.norm(c - A[last]) + p.radius
        for k in range(last + 1):
            lever[k] = max(lever[k], cum[last] - cum[k] + own)
        # a part that also moves by its own mimic joints: each stage turns it about (or
        # shifts it along) that stage's axis, at most its distance from the stage's origin
        # (placement at rest) plus its radius per unit of the leader's motion
        tail = np.asarray(p.T)
        for st in reversed(p.follow or ()):
            j, mult, _off, rev, _axis, J = st
            tail = np.asarray(J) @ tail
            if isinstance(j, str):
                continue  # a gripper joint: it stays at rest during a trajectory
            extra = abs(mult) * ((np.linalg.norm(tail[:3, 3] - np.asarray(J)[:3, 3])
                                  + p.radius) if rev else 1.0)
            lever[j] += extra
    return lever, revolute


def _steps(robot, lever, revolute, q) -> np.ndarray:
    """Bound (k-1,) on any link point's motion between consecutive states q (k, n)."""
    cp = robot.coupling
    Q = q if cp is None else q @ cp.E.T + cp.c
    dQ = np.abs(np.diff(Q, axis=0))
    return dQ @ np.where(revolute, lever, 1.0)


def check_trajectory(robot, t, q, cell: Cell | None = None, step: float = STEP,
                     distances: bool = False, world=None) -> ContinuousReport:
    """Check the motion through samples ``q`` (k, n) at times ``t`` (k,) continuously.

    Returns a :class:`ContinuousReport`: the contacts (pair, from when to when, deepest
    penetration and when), the checked instants and verdicts, the step bound used. With
    ``distances`` the smallest signed distance at every checked instant too (slower).
    ``world`` a prebuilt CollisionWorld of ``robot`` used instead of the cell's (a part in
    the gripper: :mod:`.carrying`).
    """
    t = np.asarray(t, float).reshape(-1)
    q = np.asarray(q, float).reshape(len(t), robot.n)
    if not (step > 0 and math.isfinite(step)):
        raise ValueError(f"step must be a positive length in metres, got {step!r}")
    world = collision_world(robot, cell) if world is None else world
    lever, revolute = levers(robot, world)
    if len(t) > 1:
        moves = _steps(robot, lever, revolute, q)
        cuts = np.maximum(1, np.ceil(moves / step).astype(np.int64))
        total = int(cuts.sum()) + 1
        if total > MAX_STATES:
            raise ValueError(f"checking this trajectory every {step * 1e3:g} mm needs "
                             f"{total} states, more than {MAX_STATES}; use a larger step")
        seg = np.repeat(np.arange(len(t) - 1), cuts)
        frac = (np.arange(total - 1) - np.repeat(np.cumsum(cuts) - cuts, cuts)) \
            / np.repeat(cuts, cuts)
        qs = np.vstack([q[seg] + frac[:, None] * (q[seg + 1] - q[seg]), q[-1:]])
        ts = np.concatenate([t[seg] + frac * (t[seg + 1] - t[seg]), t[-1:]])
        max_step = float(np.max(moves / cuts))
    else:
        qs, ts, max_step = q, t, 0.0
    fast = world.check(qs, distance=distances)
    hit = np.asarray(fast.colliding)
    clearance = np.asarray(fast.distance) if distances else None
    # depths only where something touches
    idx = np.flatnonzero(hit)
    deep = world.check(qs[idx], distance=True) if len(idx) and not distances else fast
    depth_of = {}  # (state, pair) -> depth
    for row, i in enumerate(idx):
        r = row if not distances else i
        for pair, d in zip(deep.pairs[r], deep.depths[r], strict=True):
            depth_of[(int(i), pair)] = d
    contacts = _runs(depth_of, ts, t)
    counts = {"samples": len(t), "checked": len(ts)}
    return ContinuousReport(contacts, ts, qs, hit, max_step, clearance, counts)


def _runs(depth_of: dict, ts: np.ndarray, t: np.ndarray) -> list[Contact]:
    """Stretches of consecutive checked states in contact, per pair."""
    by_pair: dict[tuple, list[int]] = {}
    for (i, pair) in sorted(depth_of):
        by_pair.setdefault(pair, []).append(i)
    out = []
    for pair, idx in by_pair.items():
        idx = np.array(idx)
        breaks = np.flatnonzero(np.diff(idx) > 1)
        for run in np.split(idx, breaks + 1):
            depths = [depth_of[(int(i), pair)] for i in run]
            k = int(np.argmax(depths))
            first = float(ts[run[0]])
            out.append(Contact(pair, first, float(ts[run[-1]]), float(ts[run[k]]),
                               float(depths[k]),
                               int(max(0, np.searchsorted(t, first, side="right") - 1))))
    out.sort(key=lambda c: (c.t_start, c.pair))
    return out
