"""Reading a large trajectory CSV in a separate process (Qt-free).

Parsing a 1,000,000-row CSV holds Python's GIL for seconds (the text is split and
converted by numpy in long calls), so a thread would still freeze the window. A child
process reads the file with the same loader as the synchronous path, reports its stage
on stdout and writes the arrays as ``.npy`` files; the GUI maps them (``mmap``) when the
child is done. Killing the child cancels.

The child is ``python -m robogui.session.motion.trajectory_job PATH N OUT_DIR`` (a fresh
interpreter: nothing of the parent, not its main module, is imported). It prints one
JSON object per line: ``{"stage": text, "fraction": f}``, then ``{"done": {"name": str,
"files": {key: path}}}`` or ``{"error": message}``.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["child_command", "parse_message", "collect_trajectory", "main"]


@dataclass
class _Joints:
    """What :func:`load_trajectory_csv` needs of a robot: its joint count."""

    n: int


def _say(**message) -> None:
    print(json.dumps(message), flush=True)


def main(argv=None) -> int:
    """The child: read ``PATH`` for ``N`` joints, write the arrays into ``OUT_DIR``."""
    path, n, out_dir = (argv if argv is not None else sys.argv[1:])[:3]
    try:
        from robogui.session.motion.trajectories import load_trajectory_csv

        _say(stage="reading and checking the file", fraction=0.05)
        traj = load_trajectory_csv(path, _Joints(int(n)))
        _say(stage="handing the samples over", fraction=0.85)
        files = {}
        for key in ("t", "q", "qd", "qdd"):
            arr = getattr(traj, key)
            if arr is not None:
                f = Path(out_dir) / f"{key}.npy"
                np.save(f, np.ascontiguousarray(arr))
                files[key] = str(f)
        _say(done={"name": traj.name, "files": files})
    except Exception as exc:  # noqa: BLE001 - every failure goes back as a message
        _say(error=str(exc) if isinstance(exc, ValueError)
             else f"{path}: {type(exc).__name__}: {exc}")
        return 1
    return 0


def child_command(path, n: int, out_dir) -> tuple[str, list[str], dict[str, str]]:
    """(program, arguments, extra environment) to start the child for ``path``: the
    same interpreter, and this copy of robogui first on its path."""
    import robogui

    root = str(Path(robogui.__file__).resolve().parents[1])
    return (sys.executable, ["-m", "robogui.session.motion.trajectory_job", str(path), str(int(n)),
                             str(out_dir)], {"PYTHONPATH": root})


def parse_message(line: str) -> tuple | None:
    """A child's output line as ``("stage", text, fraction)``, ``("done", result)`` or
    ``("error", message)``; None for anything else."""
    try:
        msg = json.loads(line)
    except ValueError:
        return None
    if not isinstance(msg, dict):
        return None
    if "stage" in msg:
        return ("stage", str(msg["stage"]), float(msg.get("fraction", 0.0)))
    if "done" in msg:
        return ("done", msg["done"])
    if "error" in msg:
        return ("error", str(msg["error"]))
    return None


def collect_trajectory(result: dict):
    """The Trajectory of a ``("done", result)`` message (arrays mapped from the files)."""
    from robogui.engine.trajectory.trajectory import Trajectory

    arrays = {k: np.load(f, mmap_mode="r") for k, f in result["files"].items()}
    return Trajectory(arrays["t"], arrays.get("q"), arrays.get("qd"), arrays.get("qdd"),
                      name=result.get("name", ""))


if __name__ == "__main__":
    sys.exit(main())
