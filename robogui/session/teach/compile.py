"""Compiling a teach program into one joint-space trajectory, timed as a controller would.

Moves are grouped into runs from fine point to fine point (moves joined by blend radii);
each run's geometric path (:mod:`.move_paths`: joint lines, tool lines and arcs solved by
chained IK, blended corners) is timed time-optimally by TOPP-RA within every joint's
speed and acceleration limits (scaled by the moves' overrides), the tool-speed limit of
linear and circular moves and, when asked, the joint torque limits. Runs of joint moves
with a time ``blend`` (format version 1) stay ``mstraj`` runs. The compiled program knows
its cycle time and, per move, which limit is active. Problems found on the way
(unreachable points, configuration jumps) are returned, not raised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from robogui.engine.bounds import MAX_MOVE_TIME, MAX_SAMPLES, MIN_DT

from ..explain.readout import joint_value_text
from ..motion.analysis import mask_runs
from .gripper import carry_parts, gripper_pause
from .program import Problem, Program, ProgramError

__all__ = ["compile_program", "CompiledProgram", "Segment", "max_joint_speeds",
           "cycle_time_line"]

#: speed of the legacy mstraj runs (time blends) as a fraction of the joint speed limits
DEFAULT_JOINT_SPEED_FRACTION = 0.5
#: a joint that moves less than this (rad or m) along a run is held still
_STILL_JOINT_TOL = 1e-7
#: even TOPP-RA grid points of a straight joint move, and of other runs (their bends add more)
_GRID_STRAIGHT, _GRID_CURVED = 30, 100
#: even grid points of a run timed within torque limits
_GRID_TORQUE = 200


def max_joint_speeds(robot) -> np.ndarray:
    """Maximum speed of each joint (n,), rad/s or m/s: the link's ``qd_max`` or the
    documented default (:func:`robogui.engine.trajectory_processing.limits.velocity_limits`).
    """
    from robogui.engine.trajectory_processing.limits import velocity_limits

    return velocity_limits(robot)


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
    #: per move, the limit that sets its speed ("joint 2 speed", "TCP speed", "joint 1
    #: acceleration", "duration", ...) or "" for a move that does not move
    active_limits: tuple[str, ...] = ()
    #: the timed runs: (move indices, s (m,), y (m, k), vlim (k,), alim (k,), n) each, the
    #: exact paths TOPP-RA timed (for checks and tests)
    runs: tuple = ()
    #: the cell's state along the program (planning_scene.carried.CarriedParts) or None
    carried: object = None

    @property
    def cycle_time(self) -> float:
        """Duration of the whole program, s."""
        return float(self.trajectory.t[-1])

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


def compile_program(
    program: Program,
    robot,
    q_start=None,
    *,
    dt: float = 0.02,
    max_joint_speed=None,
    max_joint_acceleration=None,
    torque_limits: bool = False,
    ik_options: dict | None = None,
    jump_threshold: float = 0.3,
    angle_unit: str = "deg",
    length_unit: str = "mm",
    cell=None,
):
    """Compile ``program`` for ``robot`` into one trajectory, starting at ``q_start`` (n,).

    ``q_start`` defaults to the first move's target (that move then has nothing to do).
    Each run of moves from fine point to fine point is timed time-optimally by TOPP-RA
    within ``max_joint_speed`` and ``max_joint_acceleration`` ((n,) or scalar, rad/s and
    rad/s^2 or m/s, m/s^2; default the robot's limits, see
    :mod:`robogui.engine.trajectory_processing.limits`) scaled by the moves' ``speed`` /
    ``speed_percent`` and ``accel_percent`` (the lowest in a run), the tool-speed limit of
    linear and circular moves, and with ``torque_limits`` the links' ``tau_max`` (needs
    dynamics). A move's ``duration`` stretches it to that time. A run of joint moves with a
    time ``blend`` (format version 1) becomes one ``mstraj``. ``dt`` is the sample period,
    s. Problem messages give joint values in ``angle_unit`` / ``length_unit``. Grasp and
    release steps stop the arm; in the ``cell`` the parts are carried (:mod:`.gripper`).

    Returns a :class:`CompiledProgram` (trajectory, segments, problems, cycle time, active
    limits). Raises ProgramError when the program cannot be compiled at all (wrong joint
    count, nothing to start from, a circle through three points on a line).
    """
    from robogui.engine.trajectory_processing.limits import acceleration_limits

    reasons = program.check_robot(robot)
    if reasons:
        raise ProgramError(reasons[0])
    mismatch = program.robot_mismatch(robot)  # same joint count, another robot's name
    if not math.isfinite(dt) or dt < MIN_DT:
        raise ProgramError(f"dt must be a sample period of at least {MIN_DT:g} s, got {dt}")
    if q_start is None:
        motion = program.motion_moves
        if not motion:
            raise ProgramError("the program has no moves and no start configuration was given")
        q_start = program.waypoint(program.moves[motion[0]].target).q
    q_prev = np.array(q_start, dtype=float).reshape(-1)
    if q_prev.size != robot.n or not np.all(np.isfinite(q_prev)):
        raise ProgramError(f"q_start must be {robot.n} finite joint values, got {q_start!r}")
    vmax = (max_joint_speeds(robot) if max_joint_speed is None
            else np.broadcast_to(np.asarray(max_joint_speed, dtype=float), (robot.n,)))
    amax = (acceleration_limits(robot) if max_joint_acceleration is None
            else np.broadcast_to(np.asarray(max_joint_acceleration, dtype=float), (robot.n,)))
    if max_joint_acceleration is None and max_joint_speed is not None:
        amax = amax * vmax / max_joint_speeds(robot)  # keep the default's reach time

    for k, m in enumerate(program.moves):  # a nonsense time is the user's to fix, said so
        if m.duration is not None and not m.blend and m.duration < MIN_DT:
            raise ProgramError(f"move {k + 1} would last {m.duration:g} s, less than the "
                               f"{MIN_DT:g} s a move must take (give it a longer duration)")
    build = _Builder(q_prev)
    build.units = (angle_unit, length_unit)  # for the problems' messages
    segments: list[Segment] = []
    problems: list[Problem] = []
    active: dict[int, str] = {}
    runs: list = []
    moves = program.moves
    i = 0
    while i < len(moves):
        if moves[i].is_gripper:  # the arm stands still while the gripper works
            span = gripper_pause(moves, i, q_prev, dt, build, problems)
            segments.append(Segment(i, moves[i].kind, moves[i].part, *span))
            active[i], i = "duration" if moves[i].duration else "", i + 1
            continue
        # a legacy run of time-blended joint moves: moves i..k-1 blend into their successor
        k = i
        while (k + 1 < len(moves) and moves[k].kind == "joint" and moves[k].blend > 0
               and moves[k].blend_radius == 0 and moves[k + 1].kind == "joint"):
            k += 1
        if k > i:
            q_prev = _compile_blended(
                program, robot, moves, i, k, q_prev, vmax, dt, build, segments, problems)
            active.update({j: "duration" for j in range(i, k + 1)})
            i = k + 1
            continue
        # a run of moves joined by blend radii, up to the next fine point
        k = i
        while k + 1 < len(moves) and moves[k].blend_radius > 0 and not moves[k + 1].is_gripper:
            k += 1
        limits = (vmax, amax, torque_limits)
        q_prev = _compile_run(program, robot, list(range(i, k + 1)), q_prev, limits, dt, build,
                              segments, problems, active, runs, ik_options or {},
                              jump_threshold)
        i = k + 1
    # blends that cannot happen are said, not silently dropped
    ends = {seg.move_index: seg for seg in segments}
    for j, move in enumerate(moves):
        if move.blend <= 0 or move.blend_radius > 0:
            continue
        if move.kind != "joint":
            why = f"{move.kind} moves blend by a radius (blend_radius_mm), not a time"
        elif j + 1 == len(moves) or moves[j + 1].kind != "joint":
            why = "no joint move follows to blend into"
        else:
            continue
        seg = ends[j]
        problems.append(Problem(seg.t_end, seg.i_end, j, "info",
                                f"move {j + 1} ({move.kind} to {move.target}): its blend of "
                                f"{move.blend:g} s is ignored: {why}", kind="blend"))
    traj = build.build(program.name)
    carried = None  # the cell's state along the program
    if program.has_gripper_steps:
        traj, carried = carry_parts(program, robot, traj, segments, cell, problems)
    if mismatch:
        problems.append(Problem(0.0, 0, None, "warning", mismatch, kind="robot"))
    problems.sort(key=lambda p: (p.time, p.move_index if p.move_index is not None else -1))
    return CompiledProgram(traj, tuple(segments), tuple(problems), program, robot.key,
                           tuple(active.get(j, "") for j in range(len(moves))), tuple(runs),
                           carried)


def cycle_time_line(compiled: CompiledProgram) -> str:
    """One line for the command line: the program's cycle time and what limits it, e.g.
    ``cycle time 4.213 s (pick and place, 5 moves; limits: joint 2 speed x3, TCP speed)``."""
    counts: dict[str, int] = {}
    for label in compiled.active_limits:
        if label:
            counts[label] = counts.get(label, 0) + 1
    what = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in counts.items()) or "none"
    n = len(compiled.program.moves)
    return (f"cycle time {compiled.cycle_time:.3f} s ({compiled.program.name}, {n} move"
            f"{'s' if n != 1 else ''}; limits: {what})")


def _run_scales(moves, indices) -> tuple[float, float]:
    """Speed and acceleration override of a run (fractions; the lowest of its moves)."""
    v, a = 1.0, 1.0
    for j in indices:
        m = moves[j]
        frac = (m.speed_percent or 100.0) / 100.0
        if m.kind == "joint" and m.speed is not None:
            frac *= m.speed
        v = min(v, frac)
        a = min(a, (m.accel_percent or 100.0) / 100.0)
    return v, a


def _path_coordinates(robot, rp):
    """Path parameter s (m,) and samples y (m, n + 2) of a run: the joints, then the tool
    distance and rotation angle weighted by the inverse tool-speed limits; repeated
    samples dropped. Also the kept sample indices."""
    from robogui.engine.kinematics.kinematics import fkine

    q = rp.q
    if rp.w_lin.any() or rp.w_ang.any():
        T = fkine(robot, q)
        dp = np.linalg.norm(np.diff(T[:, :3, 3], axis=0), axis=1)
        R0, R1 = T[:-1, :3, :3], T[1:, :3, :3]
        c = (np.einsum("kij,kij->k", R0, R1) - 1.0) / 2.0
        dang = np.arccos(np.clip(c, -1.0, 1.0))
        lin = np.concatenate([[0.0], np.cumsum(dp * rp.w_lin[1:])])
        ang = np.concatenate([[0.0], np.cumsum(dang * rp.w_ang[1:])])
    else:  # joint moves only: no tool-speed limit, no tool path needed
        lin = ang = np.zeros(len(q))
    y = np.column_stack([q, lin, ang])
    step = np.linalg.norm(np.diff(y, axis=0), axis=1)
    keep = np.concatenate([[True], step > 1e-10])
    y = y[keep]
    s = np.concatenate([[0.0], np.cumsum(step[keep[1:]])])
    return s, y, np.nonzero(keep)[0]


def _compile_run(program, robot, indices, q_prev, limits, dt, build, segments, problems,
                 active, runs, ik_options, jump_threshold) -> np.ndarray:
    """Moves ``indices`` (a run) timed by TOPP-RA; returns the arm's end configuration."""
    from robogui.engine.trajectory_processing.toppra_timing import TimingError, time_optimal

    from .move_paths import run_path

    vmax, amax, torque = limits
    moves = program.moves
    n = robot.n
    rp = run_path(program, robot, indices, q_prev, ik_options)
    still = np.ptp(rp.q, axis=0) < _STILL_JOINT_TOL
    rp.q[:, still] = rp.q[0, still]
    s, y, kept = _path_coordinates(robot, rp)
    given = [moves[j].duration for j in indices]
    want = float(sum(given)) if all(d is not None for d in given) else None
    t0_run, i0_run = build.time, build.count - 1
    if s.size < 2:  # nothing moves: an empty segment, or a dwell for a given duration
        if want:
            _check_time(want, dt, indices[0], build)
            t = _sample_times(want, dt)
            q = np.tile(rp.q[-1], (t.size, 1))
            build.add(t, q, np.zeros_like(q), np.zeros_like(q))
        for j in indices:
            segments.append(Segment(j, moves[j].kind, moves[j].target, t0_run, build.time,
                                    i0_run, build.count - 1))
            active[j] = "duration" if want else ""
        return rp.q[-1].copy()
    vs, acs = _run_scales(moves, indices)
    labels = [f"joint {j + 1} speed" for j in range(n)] + ["TCP speed", "tool rotation speed"]
    vlim = np.concatenate([vmax * vs, [1.0, 1.0]])
    alim = np.concatenate([amax * acs, [np.inf, np.inf]])
    straight = len(indices) == 1 and moves[indices[0]].kind == "joint" and not moves[
        indices[0]].planned
    grid = _GRID_STRAIGHT if straight else _GRID_CURVED
    dyn = None
    if torque:
        from robogui.engine.dynamics.dynamics import rne
        from robogui.engine.trajectory_processing.limits import torque_limits

        tau = torque_limits(robot)
        if tau is not None and robot.has_dynamics:
            dyn = (lambda q, qd, qdd: rne(robot, q, qd, qdd), tau)
    if dyn is not None:  # torque is collocated at the grid points: a finer grid holds it
        grid = max(grid, _GRID_TORQUE)
    timed = None
    if not rp.findings:  # a path with unsolved stretches is not worth timing optimally
        try:
            timed = time_optimal(s, y, vlim, alim, labels=labels, n=n, gridpoints=grid,
                                 inverse_dynamics=dyn and dyn[0], tau_lim=dyn and dyn[1])
            if dyn is not None:
                timed = _hold_torque(timed, dyn, s, y, vlim, alim, labels, n, grid, dt)
        except TimingError as exc:
            problems.append(Problem(build.time, build.count - 1, indices[0], "error",
                                    f"move {indices[0] + 1}: {exc}", kind="timing"))
    if timed is not None:
        T_opt = timed.duration
        stretch = 1.0
        if want is not None:
            if want >= T_opt:
                stretch = want / T_opt
            else:
                problems.append(Problem(
                    build.time, build.count - 1, indices[0], "warning",
                    f"move {indices[0] + 1}: its duration {want:g} s is shorter than the "
                    f"{T_opt:.3g} s the limits allow; it takes {T_opt:.3g} s", kind="timing"))
        # TOPP-RA holds the limits at its grid points; between them a curved path can go a
        # few per cent over: a uniform slow-down of the sampled motion takes that back
        if not straight:
            probe = np.linspace(0.0, T_opt, max(200, int(T_opt / dt) + 1))
            _, pv, pa = timed.evaluate(probe)
            over = max(1.0, float(np.max(np.abs(pv) / vlim[:n])),
                       math.sqrt(float(np.max(np.abs(pa) / alim[:n]))))
            stretch = max(stretch, over * 1.001) if over > 1.0 else stretch
        _check_time(T_opt * stretch, dt, indices[0], build)
        t = _sample_times(T_opt * stretch, dt)
        q, qd, qdd = timed.evaluate(np.minimum(t / stretch, T_opt))
        qd, qdd = qd / stretch, qdd / stretch**2
        t_of_s = lambda x: timed.time_at(x) * stretch  # noqa: E731
    else:  # untimeable: a smooth profile over the given or a generous time, said above
        from robogui.engine.trajectory.trajectory import Trajectory

        T = want or max(1.0, float(np.max(np.abs(y[-1, :n] - y[0, :n]) / vmax)) * 4.0)
        _check_time(T, dt, indices[0], build)
        t = _sample_times(T, dt)
        x = t / T
        frac = x**3 * (10 - 15 * x + 6 * x * x)
        q = np.column_stack([np.interp(frac * s[-1], s, y[:, j]) for j in range(n)])
        tr_ = Trajectory(t, q).with_derivatives()
        qd, qdd = tr_.qd.copy(), tr_.qdd.copy()
        t_of_s = lambda x_: np.interp(x_, frac * s[-1], t)  # noqa: E731
    q[:, still] = rp.q[0, still]
    qd[:, still], qdd[:, still] = 0.0, 0.0
    if np.abs(q[-1] - rp.q[-1]).max() < 1e-6:
        q[-1] = rp.q[-1]
    qd[[0, -1]], qdd[[0, -1]] = 0.0, 0.0  # rest at both ends, exactly
    build.add(t, q, qd, qdd)
    runs.append((tuple(indices), s, y, vlim, alim, n))
    # each move's span: from where its samples start on the path to where the next's do
    owner = rp.owner[kept]
    for pos, j in enumerate(indices):
        first = np.nonzero(owner == j)[0]
        s_a = 0.0 if pos == 0 or not first.size else s[max(first[0] - 1, 0)]
        nxt = np.nonzero(owner == indices[pos + 1])[0] if pos + 1 < len(indices) else []
        s_b = s[-1] if pos + 1 == len(indices) or not len(nxt) else s[max(nxt[0] - 1, 0)]
        ta, tb = float(t_of_s(s_a)), float(t_of_s(s_b))
        ia = i0_run + int(np.searchsorted(t, ta - 1e-9))
        ib = i0_run + min(int(np.searchsorted(t, tb - 1e-9)), t.size - 1)
        if pos + 1 == len(indices):
            tb, ib = build.time, build.count - 1
        if pos == 0:
            ta, ia = t0_run, i0_run
        ta_abs = t0_run + ta if pos > 0 else t0_run
        tb_abs = t0_run + tb if pos + 1 < len(indices) else tb
        segments.append(Segment(j, moves[j].kind, moves[j].target, ta_abs, tb_abs, ia, ib))
        if timed is None:
            active[j] = "duration"
        elif want is not None and want > timed.duration:
            active[j] = "duration"
        else:
            sel = (timed.gridpoints >= s_a) & (timed.gridpoints <= s_b)
            hits = timed.active[sel]
            hits = hits[hits >= 0]
            active[j] = timed.labels[int(np.bincount(hits).argmax())] if hits.size else "none"
    at = lambda index: t0_run + float(t[index - i0_run])  # noqa: E731
    _tool_findings(program, robot, rp, indices, segments, at, build, problems, jump_threshold)
    return q[-1].copy()


def _hold_torque(timed, dyn, s, y, vlim, alim, labels, n, grid, dt):
    """Torque is collocated at TOPP-RA's grid points only; where the sampled motion goes
    over a limit between them, time again with the limits lowered by the overshoot (a few
    rounds; the gravity share does not scale, so it is repeated, not solved)."""
    from robogui.engine.trajectory_processing.toppra_timing import TimingError, time_optimal

    inv, tau_lim = dyn
    lim = np.asarray(tau_lim, dtype=float)
    for _ in range(4):
        t = np.linspace(0.0, timed.duration, max(200, int(timed.duration / dt) + 1))
        q, qd, qdd = timed.evaluate(t)
        ratio = float(np.max(np.abs(inv(q, qd, qdd)) / tau_lim))
        if ratio <= 1.002:
            break
        lim = lim / (ratio * 1.002)
        try:
            timed = time_optimal(s, y, vlim, alim, labels=labels, n=n, gridpoints=grid,
                                 inverse_dynamics=inv, tau_lim=lim)
        except TimingError:
            break  # the lowered limits leave no timing: keep the last one
    return timed


def _tool_findings(program, robot, rp, indices, segments, at, build, problems,
                   jump_threshold) -> None:
    """Problems of the run's tool moves: unsolved IK, joint jumps, another configuration at
    the end; located in time by their fraction of the move's span."""
    moves = program.moves
    span = {seg.move_index: seg for seg in segments[-len(indices):]}

    def where(j, frac):
        seg = span[j]
        index = seg.i_start + int(round(frac * (seg.i_end - seg.i_start)))
        return at(index), index

    for j, sentence in rp.notes:
        time, index = where(j, 1.0)
        m = moves[j]
        problems.append(Problem(time, index, j, "info",
                                f"move {j + 1} ({m.kind} to {m.target}): {sentence}",
                                kind="blend"))
    for j, _, a, b, count, reason in rp.findings:
        m = moves[j]
        fa, fb = a / max(count - 1, 1), b / max(count - 1, 1)
        time, index = where(j, fa)
        seg = span[j]
        problems.append(Problem(
            time, index, j, "error",
            f"move {j + 1} ({m.kind} to {m.target}): no IK solution from {fa * 100:.0f} % to "
            f"{fb * 100:.0f} % of the path (t = {time:.2f}..{seg.t_start + fb * seg.duration:.2f}"
            f" s): {reason}", kind="ik"))
    for j in indices:
        m = moves[j]
        if m.kind == "joint":
            continue
        q = rp.q[rp.owner == j]
        if len(q) < 2:
            continue
        step = np.abs(np.diff(q, axis=0)).max(axis=1)
        for a, _ in mask_runs(step > jump_threshold):
            k = int(np.argmax(np.abs(q[a + 1] - q[a])))
            time, index = where(j, (a + 1) / (len(q) - 1))
            problems.append(Problem(
                time, index, j, "error",
                f"move {j + 1} ({m.kind} to {m.target}): the joints jump between samples "
                f"(joint {k + 1} by {_value(robot, k, abs(q[a + 1, k] - q[a, k]), build)}), a "
                "change of arm configuration on the path", kind="jump", joint=k))
        target = program.waypoint(m.target).q
        end_diff = np.abs(q[-1] - target)
        if m.blend_radius == 0 and end_diff.max() > 1e-3:
            k = int(np.argmax(end_diff))
            time, index = where(j, 1.0)
            problems.append(Problem(
                time, index, j, "warning",
                f"move {j + 1} ({m.kind} to {m.target}) ends in another arm configuration "
                f"than the recorded waypoint (joint {k + 1} differs by "
                f"{_value(robot, k, end_diff[k], build)})", kind="configuration", joint=k))


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
