"""Collision-free paths (issue 25 item 5): planning time of robogui.plan_path on the sample
cell (assets/cells/pick-and-place.cell, a Puma 560 on its pedestal) and on the demo case (the
same cell with a wall between the bins, the move from above bin A to above bin B), against
OMPL driven the usual way from Python on the same problems.

    python benchmarks/bench_planning.py [--problems 20] [--peer 5] [--markdown]

The problems: seeded random start/goal pairs, both free of contact, whose straight joint path
collides (checked continuously). robogui: RRT-Connect with a batched segment validator (every
2 mm of link motion), then OMPL's shortcutting. The peer is OMPL's SimpleSetup as its
Python demos use it: a StateValidityChecker asked one state per call (robogui's collision
world) and OMPL's own discrete motion validator at a resolution that also keeps every link
point within 2 mm between checked states (the joint step bound by the norm of the lever
arms), then OMPL's full ``simplifySolution``. Every path found is checked with
check_trajectory.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import robogui as rg  # noqa: E402
from robogui.session.motion_planning.planner import NoPathFound, plan  # noqa: E402
from robogui.session.planning_scene.cell import CellObject  # noqa: E402
from robogui.session.planning_scene.cell_file import load_cell  # noqa: E402
from robogui.session.planning_scene.collisions import collision_world  # noqa: E402
from robogui.session.planning_scene.continuous import STEP, check_trajectory, levers  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..")
ABOVE_A = np.array([0.8007, 0.8611, -3.2447, 0.0, -0.758, 0.8007])
ABOVE_B = np.array([-0.2802, 0.8611, -3.2447, 0.0, -0.758, -0.2802])
WALL = CellObject("wall", "box", size=(0.3, 0.04, 0.5), xyz=(0.5, 0.0, 0.65))
TIMEOUT = 10.0


def sample_cell():
    return load_cell(os.path.join(ROOT, "assets", "cells", "pick-and-place.cell"))


def problems(robot, cell, count: int, seed: int = 25) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` start/goal pairs, both free, whose straight joint path collides."""
    rng = np.random.default_rng(seed)
    out = []
    lim = robot.qlim
    while len(out) < count:
        Q = rng.uniform(lim[:, 0], lim[:, 1], (64, robot.n))
        Q = Q[~rg.check_collisions(robot, Q, cell, distance=False).colliding]
        for a, b in zip(Q[0::2], Q[1::2], strict=False):
            if len(out) < count and not check_trajectory(robot, [0.0, 1.0], [a, b], cell).clear:
                out.append((a, b))
    return out


def ours(robot, cell, a, b, seed):
    t0 = time.perf_counter()
    try:
        q = plan(robot, a, b, cell, timeout=TIMEOUT, seed=seed).q
    except NoPathFound:
        return time.perf_counter() - t0, None
    return time.perf_counter() - t0, q


def ompl_peer(robot, cell, a, b, seed):
    """OMPL the way its Python demos plan: one state per validity call, its own motion
    validator (resolution from the lever bound), SimpleSetup's simplifySolution."""
    from ompl import base as ob
    from ompl import geometric as og
    from ompl import util as ou

    world = collision_world(robot, cell)
    lever, revolute = levers(robot, world)
    w = np.linalg.norm(np.where(revolute, lever, 1.0))
    ou.setLogLevel(ou.LOG_NONE)
    ou.RNG.setSeed(seed + 1)
    n = robot.n
    space = ob.RealVectorStateSpace(n)
    bounds = ob.RealVectorBounds(n)
    for j in range(n):
        bounds.setLow(j, float(robot.qlim[j, 0]))
        bounds.setHigh(j, float(robot.qlim[j, 1]))
    space.setBounds(bounds)
    si = ob.SpaceInformation(space)

    class Checker(ob.StateValidityChecker):
        def isValid(self, s):  # noqa: N802
            q = np.array([s[i] for i in range(n)])
            return not bool(world.check(q[None], distance=False).colliding[0])

    checker = Checker(si)
    si.setStateValidityChecker(checker)
    si.setup()
    # |dq|_2 <= STEP / |w|_2 keeps sum |dq_k| w_k <= STEP (Cauchy-Schwarz)
    si.setStateValidityCheckingResolution(STEP / w / space.getMaximumExtent())
    si.setup()
    ss = og.SimpleSetup(si)
    s0, s1 = si.allocState(), si.allocState()
    for j in range(n):
        s0[j], s1[j] = float(a[j]), float(b[j])
    ss.setStartAndGoalStates(s0, s1)
    ss.setPlanner(og.RRTConnect(si))
    t0 = time.perf_counter()
    ss.solve(TIMEOUT)
    if not ss.haveExactSolutionPath():
        return time.perf_counter() - t0, None
    ss.simplifySolution(TIMEOUT)
    p = ss.getSolutionPath()
    q = np.array([[p.getState(i)[j] for j in range(n)] for i in range(p.getStateCount())])
    return time.perf_counter() - t0, q


def run(label, fn, robot, cell, cases) -> dict:
    times, found, clear, vias = [], 0, 0, []
    for k, (a, b) in enumerate(cases):
        secs, q = fn(robot, cell, a, b, k)
        times.append(secs)
        if q is not None:
            found += 1
            vias.append(len(q) - 2)
            clear += check_trajectory(robot, np.arange(len(q), dtype=float), q, cell).clear
    t = np.array(times)
    return {"label": label, "n": len(cases), "found": found, "clear": clear,
            "median": float(np.median(t)), "p95": float(np.percentile(t, 95)),
            "max": float(t.max()), "vias": float(np.median(vias)) if vias else float("nan")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", type=int, default=20)
    ap.add_argument("--peer", type=int, default=5, help="problems also given to the peer")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    puma = rg.load_robot("puma560")
    cell = sample_cell()
    cases = problems(puma, cell, args.problems)
    walled = cell.with_object(WALL)
    demo = [(ABOVE_A, ABOVE_B)] * 5  # five seeds
    rows = [run("robogui plan_path, sample cell", ours, puma, cell, cases),
            run("robogui plan_path, demo (wall between the bins), 5 seeds", ours, puma,
                walled, demo)]
    if args.peer:
        rows.append(run(f"robogui plan_path, the first {args.peer} problems", ours, puma,
                        cell, cases[:args.peer]))
        rows.append(run(f"OMPL from Python (one state per call), the first {args.peer}",
                        ompl_peer, puma, cell, cases[:args.peer]))
    if args.markdown:
        print("| problems | found / clear | median | 95th percentile | longest | via "
              "waypoints (median) |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['label']} ({r['n']}) | {r['found']} / {r['clear']} | "
                  f"{r['median']:.2f} s | {r['p95']:.2f} s | {r['max']:.2f} s | "
                  f"{r['vias']:g} |")
    else:
        for r in rows:
            print(f"{r['label']}: {r['found']}/{r['n']} found, {r['clear']} clear, median "
                  f"{r['median']:.2f} s, p95 {r['p95']:.2f} s, max {r['max']:.2f} s, "
                  f"{r['vias']:g} via waypoints")
    if args.peer:
        print(f"ratio (peer median / robogui median, same {args.peer} problems): "
              f"{rows[3]['median'] / rows[2]['median']:.1f}x")


if __name__ == "__main__":
    main()
