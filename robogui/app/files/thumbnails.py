"""Robot gallery thumbnails: rendered once by the app's own off-screen renderer in a
worker process, cached on disk.

Why a process and not a thread: OpenGL contexts and QImage rendering want the thread that
owns them, a malformed mesh must never take the window down, and a process can be
stopped at any time. The worker (``python -m robogui.app.files.thumbnails``) reads jobs
as JSON from stdin (``[{"key", "target", "package_path", "png"}]``), loads each robot
through :func:`robogui.io.robot_catalogue.describe`, renders it with
:func:`robogui.app.view.render.render_robot` and prints one JSON line per job as it
finishes (``{"key", "name", "maker", "joints", "error", "png"}``, ``png`` None when there
is no picture). :class:`ProcessThumbnailer` runs it with :class:`QtCore.QProcess` and
emits each line as a signal, so the gallery fills in while the user already searches.

Cache: ``<QStandardPaths cache>/gallery/<file_key>.png``, where the key is the robot file's
path, modification time, size, robogui's version and the thumbnail size.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from PySide6 import QtCore  # QtCore only: the worker picks its GL platform before QtGui

__all__ = ["THUMB_SIZE", "cache_folder", "ProcessThumbnailer", "thumbnail_job", "run_jobs",
           "render_thumbnail"]

#: thumbnail size in pixels (width, height)
THUMB_SIZE = (192, 144)


def cache_folder() -> Path:
    """``<the platform's cache folder>/gallery`` (e.g. ~/.cache/robogui/robogui/gallery)."""
    base = QtCore.QStandardPaths.writableLocation(
        QtCore.QStandardPaths.StandardLocation.CacheLocation)
    if not base:
        base = str(Path.home() / ".cache" / "robogui")
    return Path(base) / "gallery"


def thumbnail_job(entry, key: str, folder: Path) -> dict:
    """The worker's job for a catalogue entry (``key``: its :func:`file_key`)."""
    return {"key": key, "target": entry.target, "package_path": list(entry.package_path),
            "name": entry.name, "maker": entry.maker, "png": str(folder / f"{key}.png")}


def render_thumbnail(robot, png: str, size=THUMB_SIZE) -> None:
    """Render ``robot`` in its ready pose to the file ``png``: no name, floor grid or tool
    axes (they do not read at this size), 4x multisampled."""
    from robogui.app.view.render import render_robot
    from robogui.session.session import DisplayOptions

    display = DisplayOptions(show_name=False, show_wrist=False, show_floor=False,
                             show_link_frames=False)
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(png).with_suffix(".part.png")
    render_robot(robot, None, view="iso", size=tuple(size), path=tmp, display=display,
                 samples=4)
    os.replace(tmp, png)  # a reader never sees half a picture


def run_jobs(jobs, out=sys.stdout, render=render_thumbnail) -> None:
    """Describe and render each job, printing its result line to ``out`` as it is done."""
    from robogui.io.robot_catalogue import CatalogueEntry, describe

    for job in jobs:
        entry = CatalogueEntry(str(job["name"]), "", str(job["target"]), Path(job["target"]),
                               str(job.get("maker", "")), tuple(job.get("package_path", ())))
        desc, robot = describe(entry)
        png = None
        if robot is not None and job.get("png"):
            try:
                render(robot, job["png"])
                png = job["png"]
            except Exception as exc:  # noqa: BLE001  (a picture that fails: no picture)
                desc = type(desc)(desc.name, desc.maker, desc.joints,
                                  f"no picture: {type(exc).__name__}: {exc}")
        out.write(json.dumps({"key": job["key"], "name": desc.name, "maker": desc.maker,
                              "joints": desc.joints, "error": desc.error, "png": png}) + "\n")
        out.flush()


def _main() -> int:
    from robogui.app.view.headless import configure_headless_gl

    configure_headless_gl()  # no display: EGL; under X: off-screen buffers on xcb
    from robogui.app.application import create_app
    from robogui.app.view.headless import quiet_qt_messages

    quiet_qt_messages()
    out = os.fdopen(os.dup(1), "w")  # the results channel: what libraries print goes
    os.dup2(2, 1)  # to stderr instead, so it never mixes into a result line
    sys.stdout = sys.stderr
    create_app([])
    run_jobs(json.loads(sys.stdin.read() or "[]"), out)
    return 0


class ProcessThumbnailer(QtCore.QObject):
    """Runs the worker process over jobs; ``result(dict)`` per finished job,
    ``finished()`` at the end (or when the process fails). :meth:`stop` ends it."""

    result = QtCore.Signal(dict)
    finished = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.process: QtCore.QProcess | None = None
        self._buffer = b""

    def start(self, jobs: list[dict]) -> None:
        self.stop()
        if not jobs:
            self.finished.emit()
            return
        proc = QtCore.QProcess(self)
        env = QtCore.QProcessEnvironment.systemEnvironment()
        here = str(Path(__file__).resolve().parents[3])  # this robogui, not another
        env.insert("PYTHONPATH", os.pathsep.join(
            p for p in (here, env.value("PYTHONPATH")) if p))
        proc.setProcessEnvironment(env)
        proc.setStandardErrorFile(QtCore.QProcess.nullDevice())  # mesh warnings and such
        proc.readyReadStandardOutput.connect(self._read)
        proc.finished.connect(self._done)
        self.process, self._buffer = proc, b""
        proc.start(sys.executable, ["-m", "robogui.app.files.thumbnails"])
        proc.write(json.dumps(jobs).encode())
        proc.closeWriteChannel()

    def _read(self) -> None:
        if self.process is None:
            return
        self._buffer += bytes(self.process.readAllStandardOutput())
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            try:
                self.result.emit(json.loads(line))
            except ValueError:
                continue  # a stray print of a library: not ours

    def _done(self, *_):
        self._read()
        self.process = None
        self.finished.emit()

    def stop(self) -> None:
        proc, self.process = self.process, None
        if proc is not None and proc.state() != QtCore.QProcess.ProcessState.NotRunning:
            proc.finished.disconnect(self._done)
            proc.kill()
            proc.waitForFinished(2000)


if __name__ == "__main__":
    sys.exit(_main())
