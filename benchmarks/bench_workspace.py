"""Workspace sampling: 100,000 random joint states of the Puma 560, tool positions and
Yoshikawa manipulability (robogui.session.explain.workspace.sample_workspace), against
roboticstoolbox-python doing the same with its own batched calls when it is installed.

    python benchmarks/bench_workspace.py [--samples 100000] [--repeat 5]

Target: under 1 s for the Puma 560 (the GUI runs it in a worker thread).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--peer-samples", type=int, default=2_000,
                    help="RTB is timed on fewer states and scaled (it loops in Python)")
    args = ap.parse_args()
    from robogui.io.robotfile import load_robot
    from robogui.session.explain.workspace import sample_workspace

    puma = load_robot("puma560")
    sample_workspace(puma, 1000)  # kernels generated once per robot
    t = best_of(lambda: sample_workspace(puma, args.samples), args.repeat)
    print(f"robogui sample_workspace, {args.samples:,} states: {t * 1000:.0f} ms median "
          f"(target < 1000 ms)")
    try:
        import roboticstoolbox as rtb
    except ImportError:
        print("roboticstoolbox-python not installed: no peer figure")
        return
    r = rtb.models.DH.Puma560()
    q = puma.random_q(args.peer_samples, seed=0)

    def peer():
        T = r.fkine(q)  # batched SE3
        _p = np.array([x.t for x in T])
        _w = r.manipulability(q)  # per-state Jacobians inside
    tp = best_of(peer, max(1, args.repeat // 2)) * args.samples / args.peer_samples
    print(f"roboticstoolbox-python fkine + manipulability, scaled to {args.samples:,} "
          f"states: {tp * 1000:.0f} ms; ratio {tp / t:.1f}x")


if __name__ == "__main__":
    main()
