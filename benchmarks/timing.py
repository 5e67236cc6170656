"""Timing helper shared by the benchmark scripts."""

from __future__ import annotations

import math
import time


def best_time(fn, repeat: int = 5, number: int = 1) -> float:
    """Best wall time of ``fn`` over ``repeat`` runs of ``number`` calls, per call (s).

    The minimum is the least disturbed run on a shared machine.
    """
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best
