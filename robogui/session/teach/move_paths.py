"""The geometric joint path of a run of moves that the arm follows without stopping.

A run is a fine point, then moves joined by blend zones, up to the next fine point. Each
move gives joint samples along its path: a joint move a straight joint-space line (or a
polyline through its ``planned`` waypoints), a linear move the tool's straight line, a
circular move the tool's arc through its via waypoint, both solved by IK along the way
with chained seeds. A corner with a blend radius is cut where the path comes within that
radius of the waypoint and replaced by a cubic Bezier curve tangent to both sides: in
Cartesian space between two tool-path moves (so the tool stays in the corner's triangle,
within the radius and never beyond the corner), in joint space otherwise. The run's
timing is :func:`robogui.engine.trajectory_processing.toppra_timing.time_optimal`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.trajectory_processing.path_geometry import (
    GeometryError,
    arc_points,
    bezier,
    circle_through,
    line_points,
    slerp_rotations,
)

from .program import ProgramError

__all__ = ["RunPath", "run_path", "DEFAULT_TCP_SPEED", "DEFAULT_TCP_ANGULAR_SPEED"]


#: tool speed limit of linear and circular moves without a ``speed`` (m/s)
DEFAULT_TCP_SPEED = 0.25
#: tool rotation speed limit of linear and circular moves (rad/s)
DEFAULT_TCP_ANGULAR_SPEED = 1.0
_STEP_M = 0.002  # tool path sample spacing, m
_STEP_RAD = 0.02  # joint and orientation sample spacing, rad
_MAX_PIECE = 600
_STILL_JOINT_TOL = 1e-7
_BLEND_SAMPLES = 24


@dataclass
class RunPath:
    """Joint samples ``q`` (m, n) along a run, the move each sample belongs to ``owner``
    (m,), per-sample tool-speed weights ``w_lin``/``w_ang`` (1/(m/s), 1/(rad/s); 0 where no
    tool-speed limit applies), IK failures ``findings`` (move, "ik", first, last sample,
    sample count, reason) and ``notes`` (move, sentence) on blends that could not be made."""

    q: np.ndarray
    owner: np.ndarray
    w_lin: np.ndarray
    w_ang: np.ndarray
    findings: list = field(default_factory=list)
    notes: list = field(default_factory=list)


@dataclass
class _Piece:
    move: int
    kind: str
    q0: np.ndarray
    q1: np.ndarray
    gen: object = None  # u (k,) -> poses (k, 4, 4) for tool paths
    length: float = 0.0
    angle: float = 0.0
    u0: float = 0.0
    u1: float = 1.0
    q: np.ndarray | None = None
    tail: np.ndarray | None = None  # Cartesian blend poses after this piece


def _tool_piece(robot, program, move, index, q0, q1) -> _Piece:
    T0, T1 = fkine(robot, q0), fkine(robot, q1)
    p0, p1 = T0[:3, 3], T1[:3, 3]
    R0, R1 = T0[:3, :3], T1[:3, :3]
    c = (np.trace(R0.T @ R1) - 1.0) / 2.0
    angle = math.acos(min(1.0, max(-1.0, c)))
    if move.kind == "circular":
        pv = fkine(robot, program.waypoint(move.via).q)[:3, 3]
        try:
            circle = circle_through(p0, pv, p1)
        except GeometryError as exc:
            raise ProgramError(f"move {index + 1} (circular via {move.via} to "
                               f"{move.target}): {exc}") from None
        pos, length = (lambda u: arc_points(circle, u)), circle.length
    else:
        pos, length = (lambda u: line_points(p0, p1, u)), float(np.linalg.norm(p1 - p0))

    def gen(u):
        T = np.tile(np.eye(4), (len(u), 1, 1))
        T[:, :3, 3] = pos(u)
        T[:, :3, :3] = slerp_rotations(R0, R1, u)
        return T

    return _Piece(index, move.kind, q0, q1, gen, length, angle)


def _count(length: float, angle: float, lo: int = 8) -> int:
    return int(min(_MAX_PIECE, max(lo, math.ceil(max(length / _STEP_M, angle / _STEP_RAD)) + 1)))


def _cartesian_blend(a: _Piece, b: _Piece, r: float) -> None:
    """Cut tool pieces a and b within ``r`` of their common corner, join by a Bezier."""
    ra, rb = min(r, 0.5 * a.length * (a.u1 - a.u0)), min(r, 0.5 * b.length * (b.u1 - b.u0))
    if ra <= 0 or rb <= 0:
        return
    a.u1 = 1.0 - ra / a.length
    b.u0 = rb / b.length
    eps = 1e-6
    TA, TA2 = a.gen(np.array([a.u1, a.u1 + eps]))
    TB, TB2 = b.gen(np.array([b.u0, b.u0 + eps]))
    tA = (TA2[:3, 3] - TA[:3, 3]) / np.linalg.norm(TA2[:3, 3] - TA[:3, 3])
    tB = (TB2[:3, 3] - TB[:3, 3]) / np.linalg.norm(TB2[:3, 3] - TB[:3, 3])
    A, B = TA[:3, 3], TB[:3, 3]
    P = np.array([A, A + tA * (2.0 / 3.0) * ra, B - tB * (2.0 / 3.0) * rb, B])
    u = np.linspace(0.0, 1.0, _count(ra + rb, 0.0, _BLEND_SAMPLES))[1:-1]
    T = np.tile(np.eye(4), (u.size, 1, 1))
    T[:, :3, 3] = bezier(P, u)
    T[:, :3, :3] = slerp_rotations(TA[:3, :3], TB[:3, :3], u)
    a.tail = T


def _ik_chain(robot, poses, q0, ik_options):
    from robogui.engine.kinematics.ikine import ikine

    from .jog import task_mask

    opts = {"slimit": 1, "mask": task_mask(robot).astype(float), **ik_options}
    res = ikine(robot, poses, q0=q0, **opts)
    q = np.array(res.q, dtype=float).reshape(len(poses), robot.n)
    ok = np.broadcast_to(np.asarray(res.success, dtype=bool), (len(poses),)).copy()
    reasons = list(res.reason) if isinstance(res.reason, tuple) else [res.reason] * len(poses)
    return q, ok & np.all(np.isfinite(q), axis=1), reasons


def _solve_tool_piece(robot, piece: _Piece, q_seed, ik_options, findings) -> None:
    """IK along the (trimmed) tool piece and its Cartesian blend tail."""
    u = np.linspace(piece.u0, piece.u1, _count(piece.length * (piece.u1 - piece.u0),
                                               piece.angle * (piece.u1 - piece.u0)))
    poses = piece.gen(u)
    if piece.tail is not None:
        poses = np.concatenate([poses, piece.tail])
    q, ok, reasons = _ik_chain(robot, poses, q_seed, ik_options)
    if piece.u0 == 0.0:
        q[0], ok[0] = piece.q0, True  # the start is where we are
    if piece.u1 == 1.0 and piece.tail is None and ok[-1] and np.abs(q[-1] - piece.q1).max() < 1e-6:
        q[-1] = piece.q1
    bad = ~ok
    if bad.any():
        from ..motion.analysis import mask_runs

        for a, b in mask_runs(bad):
            q[a: b + 1] = q[a - 1] if a > 0 else q_seed
            findings.append((piece.move, "ik", a, b, len(q), reasons[a]))
    still = np.ptp(q, axis=0) < _STILL_JOINT_TOL
    q[:, still] = q[0, still]
    piece.q = q


def _joint_piece(program, move, q0, q1) -> np.ndarray:
    points = [q0] + [program.waypoint(name).q for name in move.planned] + [q1]
    out = [q0[None]]
    for a, b in zip(points[:-1], points[1:], strict=True):
        k = int(min(_MAX_PIECE, max(2, math.ceil(np.abs(b - a).max() / _STEP_RAD) + 1)))
        leg = a + np.linspace(0.0, 1.0, k)[1:, None] * (b - a)
        leg[-1] = b  # exactly on the waypoint, not within rounding
        out.append(leg)
    return np.concatenate(out)


def _joint_blend(robot, qa_arr, qb_arr, q_corner, r):
    """Trim two joint sample arrays at TCP distance ``r`` from the corner and join them by
    a joint-space Bezier; returns (trimmed a, blend samples, trimmed b) or None."""
    pc = fkine(robot, q_corner)[:3, 3]
    da = np.linalg.norm(fkine(robot, qa_arr)[:, :3, 3] - pc, axis=1)
    db = np.linalg.norm(fkine(robot, qb_arr)[:, :3, 3] - pc, axis=1)
    for shrink in (1.0, 0.8, 0.6, 0.4, 0.25):
        rr = r * shrink
        ia_lo, ib_hi = len(qa_arr) // 2, (len(qb_arr) - 1) // 2
        far_a = np.nonzero(da[ia_lo:] >= rr)[0]
        ia = ia_lo + (far_a[-1] if far_a.size else 0)
        near_b = np.nonzero(db[: ib_hi + 1] >= rr)[0]
        ib = near_b[0] if near_b.size else ib_hi
        if ia >= len(qa_arr) - 1 or ib <= 0:
            return None
        qA, qB = qa_arr[ia], qb_arr[ib]
        tA = qa_arr[ia] - qa_arr[ia - 1] if ia > 0 else qa_arr[1] - qa_arr[0]
        tB = qb_arr[ib + 1] - qb_arr[ib] if ib + 1 < len(qb_arr) else qb_arr[ib] - qb_arr[ib - 1]
        tA = tA / max(np.linalg.norm(tA), 1e-300)
        tB = tB / max(np.linalg.norm(tB), 1e-300)
        P = np.array([qA, qA + tA * (2.0 / 3.0) * np.linalg.norm(q_corner - qA),
                      qB - tB * (2.0 / 3.0) * np.linalg.norm(qB - q_corner), qB])
        u = np.linspace(0.0, 1.0, _BLEND_SAMPLES)[1:-1]
        qs = bezier(P, u)
        if np.linalg.norm(fkine(robot, qs)[:, :3, 3] - pc, axis=1).max() <= r:
            return qa_arr[: ia + 1], qs, qb_arr[ib:]
    return None


def run_path(program, robot, indices, q_start, ik_options=None) -> RunPath:
    """The path of the moves ``indices`` (consecutive, each but the last blended into its
    successor) from ``q_start`` (n,). Raises ProgramError for a path without geometry."""
    ik_options = ik_options or {}
    moves = program.moves
    pieces: list[_Piece] = []
    q0 = np.asarray(q_start, dtype=float)
    for i in indices:
        move = moves[i]
        q1 = program.waypoint(move.target).q
        if move.kind == "joint":
            pieces.append(_Piece(i, "joint", q0, q1, q=_joint_piece(program, move, q0, q1)))
        else:
            pieces.append(_tool_piece(robot, program, move, i, q0, q1))
        q0 = q1
    # tool-tool corners blend in Cartesian space before IK
    for a, b in zip(pieces[:-1], pieces[1:], strict=True):
        r = moves[a.move].blend_radius
        if r > 0 and a.kind != "joint" and b.kind != "joint" and a.length > 0 and b.length > 0:
            _cartesian_blend(a, b, r)
    findings: list = []
    for k, p in enumerate(pieces):
        if p.kind != "joint":
            seed = p.q0 if p.u0 == 0.0 else pieces[k - 1].q[-1]
            _solve_tool_piece(robot, p, seed, ik_options, findings)
    # the other corners blend in joint space
    arrays = [p.q for p in pieces]
    notes: list = []
    blends: list = [None] * len(pieces)
    for k in range(len(pieces) - 1):
        a, b = pieces[k], pieces[k + 1]
        r = moves[a.move].blend_radius
        if r > 0 and (a.kind == "joint" or b.kind == "joint"):
            got = _joint_blend(robot, arrays[k], arrays[k + 1], a.q1, r)
            if got is not None:
                arrays[k], blends[k], arrays[k + 1] = got
            else:
                notes.append((a.move, f"its blend radius of {r * 1000:g} mm cannot round "
                                      "this corner (the moves are too short, or the tool "
                                      "hardly moves near it): the path turns at the waypoint"))
    qs, owner, w_lin, w_ang = [], [], [], []
    for k, p in enumerate(pieces):
        move = moves[p.move]
        v = DEFAULT_TCP_SPEED if (move.speed is None or p.kind == "joint") else move.speed
        part = arrays[k] if k == 0 else arrays[k][1:]  # the first sample repeats the last
        parts = [(part, p.move)]
        if blends[k] is not None:
            half = len(blends[k]) // 2
            parts += [(blends[k][:half], p.move), (blends[k][half:], pieces[k + 1].move)]
        for arr, who in parts:
            qs.append(arr)
            owner.append(np.full(len(arr), who))
            tool = p.kind != "joint" and who == p.move
            w_lin.append(np.full(len(arr), 1.0 / v if tool else 0.0))
            w_ang.append(np.full(len(arr), 1.0 / DEFAULT_TCP_ANGULAR_SPEED if tool else 0.0))
    return RunPath(np.concatenate(qs), np.concatenate(owner), np.concatenate(w_lin),
                   np.concatenate(w_ang), findings, notes)
