"""Autosave: interval logic, explicit-save marker, and recovery after a real kill -9."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

from robogui.session.teach.autosave import Autosaver, marker_path, recover
from robogui.session.teach.program import Program

REPO = Path(__file__).resolve().parents[3]


def test_saves_at_most_every_interval_when_dirty(tmp_path):
    a = Autosaver(tmp_path / "auto.prog", interval_s=3.0)
    assert not a.maybe_save(0.0)  # nothing to save yet
    p = Program(name="x").record(np.zeros(2))
    a.mark_dirty(p)
    assert a.maybe_save(10.0) and a.saves == 1  # first save is immediate
    assert recover(a.path) == p
    p2 = p.record(np.ones(2))
    a.mark_dirty(p2)
    assert not a.maybe_save(11.0) and not a.maybe_save(12.9)  # within the interval
    assert recover(a.path) == p
    assert a.maybe_save(13.0) and recover(a.path) == p2
    assert not a.maybe_save(100.0)  # clean: nothing written
    assert a.saves == 2


def test_explicit_save_marker_and_clear(tmp_path):
    a = Autosaver(tmp_path / "sub" / "auto.prog", interval_s=0.0)
    p = Program(name="x").record(np.zeros(2))
    a.mark_dirty(p)
    a.maybe_save(0.0)
    assert a.recover() == p
    a.mark_saved()  # File > Save: the autosave holds nothing new
    assert marker_path(a.path).exists() and a.recover() is None
    p2 = p.record(np.ones(2))
    a.mark_dirty(p2)
    a.maybe_save(1.0)  # an edit after the save: offered back again
    assert a.recover() == p2
    a.clear()
    assert not a.path.exists() and not marker_path(a.path).exists()
    assert recover(a.path) is None
    # a damaged autosave is ignored rather than raised at start-up
    a.path.write_text("format = 'robogui-program'\n[[waypoint]]\nq = 3\n")
    assert recover(a.path) is None


CHILD = textwrap.dedent("""
    import sys, time
    import numpy as np
    from robogui.session.teach.autosave import Autosaver
    from robogui.session.teach.program import Program

    auto_path, log_path = sys.argv[1], sys.argv[2]
    saver = Autosaver(auto_path, interval_s=3.0)
    program = Program(name="crash test")
    with open(log_path, "a", buffering=1) as log:
        k = 0
        while True:  # the user edits every 50 ms until the parent kills us
            k += 1
            stamp = time.time()
            program = program.record(np.full(3, 0.001 * k), comment=repr(stamp))
            saver.mark_dirty(program)
            log.write(f"{k} {stamp!r}\\n")
            saver.maybe_save(time.monotonic())  # what the app's 1 s timer would do
            time.sleep(0.05)
""")


def test_kill_9_loses_at_most_5_seconds_of_edits(tmp_path):
    auto, log = tmp_path / "autosave.prog", tmp_path / "edits.log"
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(auto), str(log)], env=env,
                             cwd=REPO)
    try:
        deadline = time.monotonic() + 20.0
        # let it edit for ~4.5 s of its own time, past at least one autosave
        while time.monotonic() < deadline:
            lines = log.read_text().splitlines() if log.exists() else []
            if len(lines) > 2 and float(lines[-1].split()[1]) - float(lines[0].split()[1]) > 4.5:
                break
            time.sleep(0.1)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    edits = [float(line.split()[1]) for line in log.read_text().splitlines()]
    assert len(edits) > 20
    last_edit = edits[-1]

    recovered = recover(auto)
    assert recovered is not None and recovered.name == "crash test"
    last_saved_edit = float(recovered.waypoints[-1].comment)
    lost = last_edit - last_saved_edit
    assert 0.0 <= lost <= 5.0, f"lost {lost:.2f} s of edits"
    # the recovered program is exactly the program as it was after that edit
    k = len(recovered.waypoints)
    np.testing.assert_allclose(recovered.waypoints[-1].q, np.full(3, 0.001 * k))
    assert [float(w.comment) for w in recovered.waypoints] == edits[:k]
