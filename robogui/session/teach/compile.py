"""Compiling a teach program into one joint-space trajectory.

Joint moves become ``jtraj`` segments (runs of blended joint moves one ``mstraj``);
linear moves become ``ctraj`` lines solved by chained ``ikine`` seeded from the previous
sample, so the arm keeps its configuration along the line. Problems found on the way
(unreachable points, configuration jumps) are returned, not raised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from robogui.engine.bounds import MAX_MOVE_TIME, MAX_SAMPLES, MIN_DT

from ..explain.readout import joint_value_text
from ..motion.analysis import mask_runs
from .program import Move, Problem, Program, ProgramError

__all__ = ["compile_program", "CompiledProgram", "Segment", "max_joint_speeds"]

#: peak speed of the quintic (jtraj) profile relative to the average speed
_QUINTIC_PEAK = 1.875
DEFAULT_JOINT_SPEED_FRACTION = 0.5
DEFAULT_LINEAR_SPEED = 0.25  # m/s
DEFAULT_LINEAR_ANGULAR_SPEED = 1.0  # rad/s, for the orientation change of linear moves
DEFAULT_MAX_JOINT_SPEED_R = math.radians(180.0)  # rad/s, when the robot gives none
DEFAULT_MAX_JOINT_SPEED_P = 0.5  # m/s
#: a joint that moves less than this (rad or m) along a linear move is held still
_STILL_JOINT_TOL = 1e-7


def max_joint_speeds(robot) -> np.ndarray:
    """Maximum speed of each joint (n,), rad/s or m/s.

    Taken from a link attribute ``qd_max`` when the robot file gives one, otherwise a
    robot-independent default: 180 deg/s for revolute joints, 0.5 m/s for prismatic.
    """
    out = np.empty(robot.n)
    for j, L in enumerate(robot.links):
        given = getattr(L, "qd_max", None)
        if given is not None and math.isfinite(float(given)) and float(given) > 0:
            out[j] = float(given)
        else:
            out[j] = DEFAULT_MAX_JOINT_SPEED_R if L.joint == "R" else DEFAULT_MAX_JOINT_SPEED_P
    return out


@dataclass(frozen=True)
class Segment:
    """Where move ``move_index`` lies in the compiled trajectory: times (s) and sample indices.

    ``t_start``/``t_end`` and ``i_start``/``i_end`` (inclusive) bound the move; a move that
    does not move (already at its target, no duration) has ``t_start == t_end``.
    """

    move_index: int
    kind: str
    target: str
    t_start: float
    t_end: float
    i_start: int
    i_end: int

    @property
    def duration(self) -> float:
        return self.t_end - self.t_start


@dataclass(frozen=True, eq=False)
class CompiledProgram:
    """A program compiled for a robot: the trajectory, each move's segment, and problems.

    ``problems`` are compilation findings (IK failures along linear moves, configuration
    jumps, stretched durations); :func:`robogui.session.teach.preflight.preflight` adds limit,
    singularity, speed and torque checks.
    """

    trajectory: object  # robogui.engine.trajectory.trajectory.Trajectory
    segments: tuple[Segment, ...]
    problems: tuple[Problem, ...]
    program: Program
    robot_key: tuple = ()

    @property
    def ok(self) -> bool:
        """True when compilation found no errors."""
        return not any(p.severity == "error" for p in self.problems)

    def move_at(self, time: float) -> int | None:
        """Index of the move running at ``time`` (s), None before the first / in no move."""
        for seg in self.segments:
            if seg.t_start <= time <= seg.t_end and seg.t_end > seg.t_start:
                return seg.move_index
        return None

    def segment(self, move_index: int) -> Segment:
        for seg in self.segments:
            if seg.move_index == move_index:
                return seg
        raise ProgramError(f"move {move_index + 1} is not in the compiled program")


def _check_time(duration: float, dt: float, index: int, build) -> None:
    """Refuse a move that would last longer than the bounds allow or make the program's
    trajectory too long to hold, before anything is allocated (``index`` 0-based)."""
    if not math.isfinite(duration) or duration > MAX_MOVE_TIME:
        raise ProgramError(f"move {index + 1} would last {duration:g} s, more than the "
                           f"{MAX_MOVE_TIME:g} s a move may take (give it a duration or a "
                           "higher speed)")
    if duration < MIN_DT:  # below it jtraj's qdd ~ dq / T^2 overflows to inf or NaN
        raise ProgramError(f"move {index + 1} would last {duration:g} s, less than the "
                           f"{MIN_DT:g} s a move must take (give it a longer duration)")
    if build.count + duration / dt > MAX_SAMPLES:
        raise ProgramError(f"move {index + 1}: the program would have more than "
                           f"{MAX_SAMPLES} samples at dt = {dt:g} s")


def _sample_times(duration: float, dt: float) -> np.ndarray:
    k = max(2, int(math.ceil(duration / dt - 1e-9)) + 1)
    return np.linspace(0.0, duration, k)


def _angle_between(R0: np.ndarray, R1: np.ndarray) -> float:
    c = (np.trace(R0.T @ R1) - 1.0) / 2.0
    return float(math.acos(min(1.0, max(-1.0, c))))


def _value(robot, j: int, value: float, build) -> str:
    """Joint ``j``'s value for a message, in the units the build was asked for."""
    units = getattr(build, "units", ("deg", "mm"))
    return joint_value_text(robot.links[j].joint == "R", value, *units)


class _Builder:
    """Accumulates trajectory pieces (local time from 0) end to end."""

    def __init__(self, q_start: np.ndarray):
        self.t = [np.zeros(1)]
        self.q = [q_start.reshape(1, -1)]
        self.qd = [np.zeros((1, q_start.size))]
        self.qdd = [np.zeros((1, q_start.size))]
        self.time = 0.0
        self.count = 1

    def add(self, t, q, qd, qdd) -> tuple[float, float, int, int]:
        """Append a piece whose first sample repeats the current end; returns its span."""
        t0, i0 = self.time, self.count - 1
        self.t.append(t[1:] + self.time)
        self.q.append(q[1:])
        self.qd.append(qd[1:])
        self.qdd.append(qdd[1:])
        self.time += float(t[-1])
        self.count += len(t) - 1
        return t0, self.time, i0, self.count - 1

    def build(self, name: str):
        from robogui.engine.trajectory.trajectory import Trajectory

        return Trajectory(
            np.concatenate(self.t),
            np.vstack(self.q),
            np.vstack(self.qd),
            np.vstack(self.qdd),
            name=name,
        )


def _joint_move_time(dq: np.ndarray, move: Move, vmax: np.ndarray) -> float:
    if move.duration is not None:
        return move.duration
    frac = DEFAULT_JOINT_SPEED_FRACTION if move.speed is None else move.speed
    return float(np.max(_QUINTIC_PEAK * np.abs(dq) / (frac * vmax)))


def compile_program(
    program: Program,
    robot,
    q_start=None,
    *,
    dt: float = 0.02,
    max_joint_speed=None,
    ik_options: dict | None = None,
    jump_threshold: float = 0.3,
    angle_unit: str = "deg",
    length_unit: str = "mm",
):
    """Compile ``program`` for ``robot`` into one trajectory, starting at ``q_start`` (n,).

    ``q_start`` defaults to the first move's target (that move then has nothing to do).
    Joint moves are quintic ``jtraj`` segments timed by their duration or speed (the
    slowest joint, at the fraction ``speed`` of ``max_joint_speed``, sets the time);
    a run of joint moves with ``blend > 0`` becomes one ``mstraj`` through the blended
    waypoints (passing near, not through them). Linear moves follow ``ctraj`` (quintic
    profile along the line, slerped orientation) solved by ``ikine`` sample by sample,
    each seeded by the previous solution. ``dt`` is the sample period, s. Problem
    messages give joint values in ``angle_unit`` / ``length_unit`` (display units).

    Returns a :class:`CompiledProgram` (trajectory, segments, problems). Raises
    ProgramError when the program cannot be compiled at all (wrong joint count,
    nothing to start from).
    """
    from robogui.engine.trajectory.trajectory import jtraj

    reasons = program.check_robot(robot)
    if reasons:
        raise ProgramError(reasons[0])
    mismatch = program.robot_mismatch(robot)  # same joint count, another robot's name
    if not math.isfinite(dt) or dt < MIN_DT:
        raise ProgramError(f"dt must be a sample period of at least {MIN_DT:g} s, got {dt}")
    if q_start is None:
        if not program.moves:
            raise ProgramError("the program has no moves and no start configuration was given")
        q_start = program.waypoint(program.moves[0].target).q
    q_prev = np.array(q_start, dtype=float).reshape(-1)
    if q_prev.size != robot.n or not np.all(np.isfinite(q_prev)):
        raise ProgramError(f"q_start must be {robot.n} finite joint values, got {q_start!r}")
    vmax = (
        max_joint_speeds(robot)
        if max_joint_speed is None
        else np.broadcast_to(np.asarray(max_joint_speed, dtype=float), (robot.n,))
    )

    build = _Builder(q_prev)
    build.units = (angle_unit, length_unit)  # for the problems' messages
    segments: list[Segment] = []
    problems: list[Problem] = []
    moves = program.moves
    i = 0
    while i < len(moves):
        move = moves[i]
        target = program.waypoint(move.target).q
        # a run of blended joint moves: moves i..k-1 blend into their successor
        k = i
        while (
            k + 1 < len(moves)
            and moves[k].kind == "joint"
            and moves[k].blend > 0
            and moves[k + 1].kind == "joint"
        ):
            k += 1
        if k > i:
            q_prev = _compile_blended(
                program, robot, moves, i, k, q_prev, vmax, dt, build, segments, problems
            )
            i = k + 1
            continue
        if move.kind == "joint":
            dq = target - q_prev
            T = _joint_move_time(dq, move, vmax)
            if T <= 0:  # already there and no time asked for: an empty segment
                segments.append(
                    Segment(
                        i,
                        move.kind,
                        move.target,
                        build.time,
                        build.time,
                        build.count - 1,
                        build.count - 1,
                    )
                )
            else:
                _check_time(T, dt, i, build)
                tr = jtraj(q_prev, target, _sample_times(T, dt))
                q = tr.q.copy()
                q[-1] = target  # exactly on the waypoint, not within rounding
                span = build.add(tr.t, q, tr.qd, tr.qdd)
                segments.append(Segment(i, move.kind, move.target, *span))
            q_prev = target.copy()
        else:
            q_prev = _compile_linear(
                robot,
                i,
                move,
                q_prev,
                target,
                dt,
                build,
                segments,
                problems,
                ik_options or {},
                jump_threshold,
            )
        i += 1
    # blends that cannot happen are said, not silently dropped
    ends = {seg.move_index: seg for seg in segments}
    for j, move in enumerate(moves):
        if move.blend <= 0:
            continue
        if move.kind == "linear":
            why = "linear moves stop at their waypoint"
        elif j + 1 == len(moves) or moves[j + 1].kind != "joint":
            why = "no joint move follows to blend into"
        else:
            continue
        seg = ends[j]
        problems.append(Problem(seg.t_end, seg.i_end, j, "info",
                                f"move {j + 1} ({move.kind} to {move.target}): its blend of "
                                f"{move.blend:g} s is ignored: {why}", kind="blend"))
    traj = build.build(program.name)
    if mismatch:
        problems.append(Problem(0.0, 0, None, "warning", mismatch, kind="robot"))
    problems.sort(key=lambda p: (p.time, p.move_index if p.move_index is not None else -1))
    return CompiledProgram(traj, tuple(segments), tuple(problems), program, robot.key)


def _compile_blended(
    program, robot, moves, i, k, q_prev, vmax, dt, build, segments, problems
) -> np.ndarray:
    """Moves i..k (all joint moves, i..k-1 blended) as one mstraj; returns the end q."""
    from robogui.engine.trajectory.trajectory import mstraj

    targets = np.array([program.waypoint(moves[j].target).q for j in range(i, k + 1)])
    points = np.vstack([q_prev, targets])
    blends = [moves[j].blend for j in range(i, k)]
    edge = max(blends)  # start and end blends: accelerate from and stop to rest smoothly
    tacc = np.array([edge, *blends, edge])
    half = np.ceil(tacc / 2 / dt - 1e-9) * dt
    tseg = []
    for s, j in enumerate(range(i, k + 1)):
        dq = points[s + 1] - points[s]
        move = moves[j]
        if move.duration is not None:
            T = move.duration
        else:
            frac = DEFAULT_JOINT_SPEED_FRACTION if move.speed is None else move.speed
            T = float(np.max(np.abs(dq) / (frac * vmax)))  # cruise at that speed
        need = half[s] + half[s + 1]
        if T < need - 1e-9:
            if move.duration is not None:
                problems.append(
                    Problem(
                        build.time,
                        build.count - 1,
                        j,
                        "warning",
                        f"move {j + 1}: its blends need {need:g} s, longer than "
                        f"its duration {T:g} s; it was stretched",
                        kind="timing",
                    )
                )
            T = need
        _check_time(T, dt, j, build)
        tseg.append(max(T, dt))
    _check_time(float(sum(tseg)), dt, i, build)  # the run as a whole
    tr = mstraj(targets, dt, tacc, tsegment=np.array(tseg), q0=q_prev)
    via_t = np.asarray(tr.info["via_times"], dtype=float)
    t0, t1, i0, i1 = build.add(tr.t, tr.q, tr.qd, tr.qdd)
    bounds = via_t.copy()
    bounds[0], bounds[-1] = 0.0, float(tr.t[-1])
    for s, j in enumerate(range(i, k + 1)):
        a, b = float(t0 + bounds[s]), float(t0 + bounds[s + 1])
        ia = i0 + int(np.searchsorted(tr.t, bounds[s] - 1e-9))
        ib = i0 + min(int(np.searchsorted(tr.t, bounds[s + 1] - 1e-9)), len(tr.t) - 1)
        segments.append(Segment(j, "joint", moves[j].target, a, b, ia, ib))
    return tr.q[-1].copy()


def _compile_linear(
    robot, index, move, q_prev, target, dt, build, segments, problems, ik_options, jump_threshold
) -> np.ndarray:
    """One linear move: ctraj + IK seeded sample by sample; returns the end q."""
    from robogui.engine.kinematics.ikine import ikine
    from robogui.engine.kinematics.kinematics import fkine
    from robogui.engine.trajectory.trajectory import Trajectory, ctraj

    T0, T1 = fkine(robot, q_prev), fkine(robot, target)
    length = float(np.linalg.norm(T1[:3, 3] - T0[:3, 3]))
    angle = _angle_between(T0[:3, :3], T1[:3, :3])
    if move.duration is not None:
        T = move.duration
    else:
        v = DEFAULT_LINEAR_SPEED if move.speed is None else move.speed
        T = _QUINTIC_PEAK * max(length / v, angle / DEFAULT_LINEAR_ANGULAR_SPEED)
    if T <= 0:
        segments.append(
            Segment(
                index,
                move.kind,
                move.target,
                build.time,
                build.time,
                build.count - 1,
                build.count - 1,
            )
        )
        return q_prev
    _check_time(T, dt, index, build)
    t = _sample_times(T, dt)
    cart = ctraj(T0, T1, t.size, t=t, profile="quintic")
    from .jog import task_mask

    # chained seeds keep one arm configuration along the line; random restarts would
    # hop to another branch mid-line, so they are off unless asked for
    opts = {"slimit": 1, "mask": task_mask(robot).astype(float), **ik_options}
    res = ikine(robot, cart.T, q0=q_prev, **opts)
    q = np.array(res.q, dtype=float).reshape(t.size, robot.n)
    ok = np.broadcast_to(np.asarray(res.success, dtype=bool), (t.size,)).copy()
    reasons = list(res.reason) if isinstance(res.reason, tuple) else [res.reason] * t.size
    q[0], ok[0] = q_prev, True  # the start is where we are
    bad = ~ok | ~np.all(np.isfinite(q), axis=1)
    # unsolved samples: hold the last good configuration so the trajectory stays finite
    if bad.any():
        for a, b in mask_runs(bad):
            q[a : b + 1] = q[a - 1]
            frac = cart.info["s"]
            problems.append(
                Problem(
                    build.time + float(t[a]),
                    build.count - 1 + a,
                    index,
                    "error",
                    f"move {index + 1} (linear to {move.target}): no IK solution from "
                    f"{frac[a] * 100:.0f} % to {frac[b] * 100:.0f} % of the line "
                    f"(t = {build.time + t[a]:.2f}..{build.time + t[b]:.2f} s): "
                    f"{reasons[a]}",
                    kind="ik",
                )
            )
    # joints the line does not move come back from IK with solver noise (1e-17 to 1e-8
    # rad near a singular wrist) about their value: hold them exactly, so their speed is
    # zero and not a sign-flipping noise (which would flip the Coulomb friction in the
    # torques sample by sample). Holding a joint within 1e-7 rad moves the TCP < 0.1 um/m.
    still = np.ptp(q, axis=0) < _STILL_JOINT_TOL
    q[:, still] = q_prev[still]
    step = np.abs(np.diff(q, axis=0)).max(axis=1)
    for a, _ in mask_runs(step > jump_threshold):
        j = int(np.argmax(np.abs(q[a + 1] - q[a])))
        problems.append(
            Problem(
                build.time + float(t[a + 1]),
                build.count + a,
                index,
                "error",
                f"move {index + 1} (linear to {move.target}): the joints jump between samples "
                f"(joint {j + 1} by {_value(robot, j, abs(q[a + 1, j] - q[a, j]), build)}), "
                "a change of "
                "arm configuration on the line",
                kind="jump",
                joint=j,
            )
        )
    end_diff = np.abs(q[-1] - target)
    if not bad[-1] and end_diff.max() > 1e-3:
        j = int(np.argmax(end_diff))
        problems.append(
            Problem(
                build.time + float(t[-1]),
                build.count - 1 + t.size - 1,
                index,
                "warning",
                f"move {index + 1} (linear to {move.target}) ends in another arm configuration "
                f"than the recorded waypoint (joint {j + 1} differs by "
                f"{_value(robot, j, end_diff[j], build)})",
                kind="configuration",
                joint=j,
            )
        )
    tr = Trajectory(t, q).with_derivatives()
    span = build.add(tr.t, tr.q, tr.qd, tr.qdd)
    segments.append(Segment(index, move.kind, move.target, *span))
    return q[-1].copy()
