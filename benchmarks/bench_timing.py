"""Timing a taught program: robogui's TOPP-RA compile against roboticstoolbox's mstraj.

    python benchmarks/bench_timing.py

A Puma 560 program of 20 joint moves through seeded random waypoints near ``qn`` (each
joint within +-0.6 rad), compiled by :func:`robogui.session.teach.compile.compile_program`
(time-optimal within the default limits: 180 deg/s and 900 deg/s^2 per joint) with fine
points, and with a 20 mm blend radius at every waypoint; roboticstoolbox-python's
``mstraj`` through the same via points with the same speed limit (``qdmax``) and an
acceleration time of speed / acceleration limit (0.2 s). Reported: wall time (best of 5)
and the cycle time of the result.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.timing import best_time  # noqa: E402
from robogui.engine.trajectory_processing.limits import (  # noqa: E402
    acceleration_limits,
    velocity_limits,
)
from robogui.io.robotfile import load_robot  # noqa: E402
from robogui.session.teach.compile import compile_program  # noqa: E402
from robogui.session.teach.program import Program  # noqa: E402

N_WAYPOINTS = 20
DT = 0.01


def main() -> None:
    robot = load_robot("puma560")
    rng = np.random.default_rng(25)
    qs = robot.pose("qn") + rng.uniform(-0.6, 0.6, (N_WAYPOINTS, robot.n))
    fine = Program.from_configurations(qs, name="bench")
    blended = Program.from_configurations(qs, name="bench", blend_radius=0.02)
    blended = blended.update_move(N_WAYPOINTS - 1, blend_radius=0.0)
    vmax, amax = velocity_limits(robot), acceleration_limits(robot)
    rows = []
    for label, prog in (("fine points", fine), ("20 mm blends", blended)):
        compile_program(prog, robot, dt=DT)  # warm up (imports, generated kinematics)
        t = best_time(lambda p=prog: compile_program(p, robot, dt=DT))
        c = compile_program(prog, robot, dt=DT)
        rows.append((f"robogui compile_program (TOPP-RA), {label}", t, c.cycle_time, c.ok))
    try:
        from roboticstoolbox.tools.trajectory import mstraj
    except ImportError:
        mstraj = None
    if mstraj is not None:
        tacc = float(np.max(vmax / amax))
        run = lambda: mstraj(qs[1:], DT, tacc, qdmax=vmax, q0=qs[0])  # noqa: E731
        run()
        t = best_time(run)
        tr = run()
        q = np.asarray(tr.q)
        acc = np.abs(np.diff(q, 2, axis=0)) / DT**2
        rows.append(("roboticstoolbox mstraj (qdmax, tacc 0.2 s)", t, float(len(q) * DT),
                     bool(np.all(acc <= amax * 1.005))))
    print(f"{N_WAYPOINTS}-waypoint Puma 560 program, dt = {DT} s")
    print("| method | wall time | cycle time | within acceleration limits |")
    print("|---|---|---|---|")
    for label, t, cycle, ok in rows:
        print(f"| {label} | {t * 1e3:.0f} ms | {cycle:.2f} s | {'yes' if ok else 'no'} |")


if __name__ == "__main__":
    main()
