"""Pre-flight check of a compiled teach program, before it runs.

:func:`preflight` returns a list of :class:`~robogui.session.teach.program.Problem` sorted by
time; the GUI lists them and a click seeks playback to ``problem.time``. It reports:

* everything compilation found (IK failures along linear moves, configuration jumps);
* joint limits exceeded along the path (error), one problem per joint and stretch;
* closeness to singularities: Yoshikawa manipulability below the robot's threshold
  (warning; :func:`robogui.session.motion.analysis.singularity_threshold`), naming the kind
  (wrist, elbow, shoulder) for Puma-like arms;
* joint speed peaks above the maximum joint speeds (warning);
* torque peaks above ``link.tau_max`` when the robot has dynamics (warning); without
  limits a note (info) with each joint's peak, at the instant of the largest;
* with a work cell, every contact along the path (error), checked continuously (no link point
  moves more than 2 mm between checks; :mod:`robogui.session.planning_scene.continuous`):
  the pair, from when to when, and the deepest penetration; parts the program grasps are
  carried by the tool and checked with it (:mod:`robogui.session.planning_scene.carrying`);
* what compiling the grasp and release steps found (kind "gripper": a part not in the cell
  or out of reach, a grasp while holding, a release with nothing held; :mod:`.gripper`).

Everything is computed over all samples at once (the analysis is batched); pass an
existing :class:`~robogui.session.motion.analysis.TrajectoryAnalysis` to reuse its torques.
"""

from __future__ import annotations

import numpy as np

from ..explain.readout import joint_value_text
from ..motion.analysis import TrajectoryAnalysis, analyze_trajectory, mask_runs
from ..planning_scene.carrying import check_carrying
from ..planning_scene.continuous import ContinuousReport, check_trajectory
from .compile import CompiledProgram, max_joint_speeds
from .jog import joint_label, singularity_info
from .program import Problem

__all__ = ["preflight", "collision_problems", "program_contacts", "Problem", "worst_severity"]

_RANK = {"error": 0, "warning": 1, "info": 2}


def _unit(robot, j: int, value: float, rate: str = "", units: tuple[str, str] = ("deg", "mm")
          ) -> str:
    """A joint value (rad, m; ``rate`` "/s" for a speed) in the display ``units``
    (angle unit, length unit) for a problem's message."""
    return joint_value_text(robot.links[j].joint == "R", value, *units, rate=rate)


def worst_severity(problems) -> str | None:
    """"error", "warning" or "info" for the worst problem in the list, None when empty."""
    if not problems:
        return None
    return min((p.severity for p in problems), key=_RANK.__getitem__)


def preflight(robot, compiled: CompiledProgram, *, analysis: TrajectoryAnalysis | None = None,
              max_joint_speed=None, singularity_threshold: float | None = None,
              check_torque: bool = True, angle_unit: str = "deg",
              length_unit: str = "mm", cell=None) -> list[Problem]:
    """Check ``compiled`` (from :func:`~robogui.session.teach.compile.compile_program`) for
    ``robot``.

    ``max_joint_speed`` (n,) or scalar rad/s (m/s for prismatic joints), default
    :func:`~robogui.session.teach.program.max_joint_speeds`; ``singularity_threshold`` a
    Yoshikawa value, default the analysis' threshold. ``cell`` a
    :class:`~robogui.session.planning_scene.cell.Cell`: contacts with it and of the robot with
    itself are errors (kind "collision"); None checks no collisions. Returns problems sorted
    by time; their messages give joint values in ``angle_unit`` / ``length_unit`` (display
    units).
    """
    units = (angle_unit, length_unit)
    if not isinstance(compiled, CompiledProgram):
        raise ValueError(f"compiled must be a CompiledProgram, got {type(compiled).__name__}")
    if compiled.robot_key and compiled.robot_key != robot.key:
        raise ValueError("the program was compiled for another robot (or another tool); "
                         "compile it again")
    traj = compiled.trajectory
    if analysis is None:
        analysis = analyze_trajectory(robot, traj)
    elif analysis.n_samples != len(traj):
        raise ValueError("analysis does not belong to this trajectory (sample counts differ)")
    t, q, qd = analysis.t, analysis.q, analysis.qd
    problems = list(compiled.problems)
    move_of = _move_index_per_sample(compiled, t.size)

    def add(i, severity, message, kind, joint=None):
        problems.append(Problem(float(t[i]), int(i), move_of[i], severity, message, kind, joint))

    def where(i) -> str:
        m = move_of[i]
        return f"move {m + 1}" if m is not None else "start"

    # joint limits along the path
    lim = robot.qlim
    for j in range(robot.n):
        for side, mask, bound in (("upper", q[:, j] > lim[j, 1] + 1e-9, lim[j, 1]),
                                  ("lower", q[:, j] < lim[j, 0] - 1e-9, lim[j, 0])):
            for a, b in mask_runs(mask):
                seg = q[a:b + 1, j]
                i = a + int(np.argmax(np.abs(seg - bound)))
                add(a, "error",
                    f"{where(a)}: {joint_label(robot, j)} goes past its {side} limit "
                    f"({_unit(robot, j, bound, '', units)}) by up to "
                    f"{_unit(robot, j, abs(q[i, j] - bound), '', units)} "
                    f"from t = {t[a]:.2f} s to {t[b]:.2f} s", "joint-limit", j)

    # closeness to singularities
    thr = analysis.threshold if singularity_threshold is None else float(singularity_threshold)
    for a, b in mask_runs(analysis.yoshikawa < thr):
        i = a + int(np.argmin(analysis.yoshikawa[a:b + 1]))
        # which one, for Puma-like arms: "near a wrist singularity (axes 4 and 6 ...)"
        _kind, near = singularity_info(robot, q[i], angle_unit, length_unit)
        add(a, "warning",
            f"{where(a)}: {near} from t = {t[a]:.2f} s to {t[b]:.2f} s "
            f"(manipulability down to {analysis.yoshikawa[i]:.3g} at t = {t[i]:.2f} s, "
            f"threshold {thr:.3g})", "singularity")

    # joint speed peaks
    vmax = max_joint_speeds(robot) if max_joint_speed is None else np.broadcast_to(
        np.asarray(max_joint_speed, dtype=float), (robot.n,))
    for j in range(robot.n):
        for a, b in mask_runs(np.abs(qd[:, j]) > vmax[j] * (1 + 1e-9)):
            i = a + int(np.argmax(np.abs(qd[a:b + 1, j])))
            add(i, "warning",
                f"{where(i)}: {joint_label(robot, j)} reaches "
                f"{_unit(robot, j, abs(qd[i, j]), '/s', units)}, above its maximum speed "
                f"{_unit(robot, j, vmax[j], '/s', units)} (t = {t[a]:.2f}..{t[b]:.2f} s)",
                "velocity", j)

    # torque peaks
    if check_torque:
        if not analysis.has_dynamics:
            add(0, "info", f"torques not checked: {robot.name} has no dynamic parameters",
                "torque")
        elif np.all(np.isnan(analysis.tau_max)):
            # no limits to check against: still say the peaks, located at the largest
            tau = np.abs(analysis.tau)
            peak = tau.max(axis=0)
            units = ["N m" if L.joint == "R" else "N" for L in robot.links]
            same = len(set(units)) == 1
            listed = ", ".join(f"{v:.1f}" + ("" if same else f" {u}")
                               for v, u in zip(peak, units, strict=True))
            j = int(np.argmax(peak))
            i = int(np.argmax(tau[:, j]))
            add(i, "info",
                f"torques not checked: {robot.name}'s file gives no torque limits; peaks per "
                f"joint {listed}{' ' + units[0] if same else ''} (largest: "
                f"{joint_label(robot, j)} at t = {t[i]:.2f} s)", "torque", j)
        else:
            for p in analysis.torque_peaks:
                unit = "N m" if robot.links[p.joint].joint == "R" else "N"
                add(p.index, "warning",
                    f"{where(p.index)}: {joint_label(robot, p.joint)} needs "
                    f"{abs(p.value):.1f} {unit}, above its limit {p.limit:.1f} {unit} "
                    f"(t = {p.t_start:.2f}..{p.t_end:.2f} s)", "torque", p.joint)

    if cell is not None:
        problems += collision_problems(robot, compiled, cell, length_unit)

    problems.sort(key=lambda p: (p.time, _RANK[p.severity],
                                 -1 if p.move_index is None else p.move_index))
    return problems


def collision_problems(robot, compiled: CompiledProgram, cell, length_unit: str = "mm"
                       ) -> list[Problem]:
    """Every contact along ``compiled`` in ``cell``, checked continuously, as errors: e.g.
    ``move 2: 'forearm' hits 'table' from t = 1.20 s to 1.34 s (up to 12 mm deep at
    t = 1.27 s)``; ``time`` is the contact's start (a click seeks there)."""
    traj = compiled.trajectory
    report = program_contacts(robot, compiled, cell)
    move_of = _move_index_per_sample(compiled, len(traj.t))
    scale, unit = {"mm": (1e3, "mm"), "cm": (1e2, "cm"), "m": (1.0, "m"),
                   "in": (1 / 0.0254, "in")}.get(length_unit, (1e3, "mm"))
    out = []
    for c in report.contacts:
        m = move_of[c.index] if c.index < len(move_of) else None
        where = f"move {m + 1}" if m is not None else "start"
        when = (f"at t = {c.t_start:.2f} s" if c.t_end - c.t_start < 5e-3
                else f"from t = {c.t_start:.2f} s to {c.t_end:.2f} s")
        out.append(Problem(c.t_start, c.index, m, "error",
                           f"{where}: {c.pair[0]!r} hits {c.pair[1]!r} {when} (up to "
                           f"{c.depth * scale:.3g} {unit} deep at t = {c.t_deepest:.2f} s)",
                           "collision"))
    return out


def program_contacts(robot, compiled: CompiledProgram, cell, distances: bool = False
                     ) -> ContinuousReport:
    """The continuous collision check of ``compiled``'s trajectory in ``cell``: with the parts
    its grasp and release steps carry (``compiled.carried``, from compiling in a cell) when
    it has them, else the robot alone in ``cell`` (None: self-collisions only)."""
    traj = compiled.trajectory
    carried = getattr(compiled, "carried", None)
    if carried is not None and cell is not None:
        if cell != carried.cell:
            raise ValueError("the program was compiled in another cell; compile it again")
        return check_carrying(robot, traj.t, traj.q, carried, distances=distances)
    return check_trajectory(robot, traj.t, traj.q, cell, distances=distances)


def _move_index_per_sample(compiled: CompiledProgram, k: int) -> list[int | None]:
    """The move each sample belongs to (the later move at a shared boundary sample)."""
    idx = np.full(k, -1, dtype=int)
    nonempty = [s for s in compiled.segments if s.i_end > s.i_start]
    for seg in nonempty:  # a loop over moves; samples are filled by slices
        idx[seg.i_start + 1:seg.i_end + 1] = seg.move_index
    if k and nonempty:
        idx[0] = nonempty[0].move_index
    return [None if i < 0 else i for i in idx.tolist()]
