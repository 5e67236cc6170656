"""Warming the mesh workers up several times at once (the app's start and File > Open's
dialog both do it) never blocks the jobs: robogui/engine/bounded_work.py."""

from __future__ import annotations

import threading

from robogui.engine import bounded_work


def test_many_warm_ups_at_once_leave_the_workers_to_the_jobs():
    # before: each warm-up held one of the two slots waiting for the other, forever
    for _ in range(6):
        bounded_work.warm_up()
    out = []
    job = threading.Thread(target=lambda: out.append(
        bounded_work.run_many([(abs, (-1,)), (abs, (-2,)), (abs, (-3,))])), daemon=True)
    job.start()
    job.join(120.0)  # a deadlock guard, not a speed check
    assert out == [[1, 2, 3]]
    bounded_work.warm_up(background=False)  # with idle workers: returns them at once
    assert bounded_work.run_bounded(abs, -4) == 4
