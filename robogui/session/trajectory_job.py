"""Reading a large trajectory CSV in a separate process (Qt-free).

Parsing a 1,000,000-row CSV holds Python's GIL for seconds (the text is split and
converted by numpy in long calls), so a thread would still freeze the window. A child
process (``spawn``, safe next to Qt's threads) reads the file with the same loader as
the synchronous path, reports its stage through a pipe and writes the arrays as ``.npy``
files; the GUI maps them (``mmap``) when the child is done. Killing the child cancels.

Protocol on the pipe (child -> parent), one tuple per message:
``("stage", text, fraction)``, then ``("done", {"name": str, "files": {key: path}})``
or ``("error", message)``.
"""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["CsvJob", "start_csv_job", "collect_trajectory"]


@dataclass
class _Joints:
    """What :func:`load_trajectory_csv` needs of a robot: its joint count."""

    n: int


def _child(path: str, n: int, out_dir: str, conn) -> None:
    try:
        from robogui.session.trajectories import load_trajectory_csv

        conn.send(("stage", "reading and checking the file", 0.05))
        traj = load_trajectory_csv(path, _Joints(n))
        conn.send(("stage", "handing the samples over", 0.85))
        files = {}
        for key in ("t", "q", "qd", "qdd"):
            arr = getattr(traj, key)
            if arr is not None:
                f = Path(out_dir) / f"{key}.npy"
                np.save(f, np.ascontiguousarray(arr))
                files[key] = str(f)
        conn.send(("done", {"name": traj.name, "files": files}))
    except Exception as exc:  # noqa: BLE001 - every failure goes back as a message
        conn.send(("error", str(exc) if isinstance(exc, ValueError)
                   else f"{path}: {type(exc).__name__}: {exc}"))
    finally:
        conn.close()


@dataclass
class CsvJob:
    """A running child: poll :attr:`conn` for messages, :meth:`cancel` to stop it."""

    process: mp.process.BaseProcess
    conn: object
    out_dir: str

    def messages(self) -> list[tuple]:
        """The messages that arrived (never blocks)."""
        out = []
        try:
            while self.conn.poll():
                out.append(self.conn.recv())
        except (EOFError, OSError):
            if self.process.exitcode not in (None, 0) and not any(
                    m[0] in ("done", "error") for m in out):
                out.append(("error", f"the CSV reader stopped (exit code "
                                     f"{self.process.exitcode})"))
        return out

    def cancel(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


def start_csv_job(path, n: int, out_dir) -> CsvJob:
    """Start reading ``path`` (a trajectory for ``n`` joints) in a child process."""
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(str(path), int(n), str(out_dir), child),
                       daemon=True, name="robogui-csv")
    proc.start()
    child.close()
    return CsvJob(proc, parent, str(out_dir))


def collect_trajectory(result: dict):
    """The Trajectory of a ``("done", result)`` message (arrays mapped from the files)."""
    from robogui.engine.trajectory import Trajectory

    arrays = {k: np.load(f, mmap_mode="r") for k, f in result["files"].items()}
    return Trajectory(arrays["t"], arrays.get("q"), arrays.get("qd"), arrays.get("qdd"),
                      name=result.get("name", ""))
