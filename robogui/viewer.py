"""``robogui.Viewer()``: show and drive robogui from a script or a notebook.

    v = robogui.Viewer("puma560")          # starts the app in its own process
    v.q = [0, 0.5, -0.5, 0, 0, 0]          # radians / metres
    v.play(robogui.jtraj(v.q, [0.3] * 6, 50))
    v.screenshot()                         # a PNG; shown inline in Jupyter

The app runs in its own process (or is already running: ``Viewer(port=..., token=...)``
or ``Viewer(runtime_file=...)``), so the caller's interpreter never waits on a window or
an event loop: requests wait only for their reply (milliseconds), ``stream`` and
``play`` return at once, and events arrive on a background thread (:meth:`Viewer.on`).
The messages are those of docs/remote-api.md; this module needs no Qt.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

__all__ = ["Viewer", "ViewerError", "Screenshot"]

CLIENT_MAX_BYTES = 64 << 20  # a window screenshot of a large screen fits


class ViewerError(RuntimeError):
    """The app refused or failed a request; ``code`` as in docs/remote-api.md."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code


class Screenshot:
    """PNG bytes from the app; Jupyter shows it inline (``_repr_png_``)."""

    def __init__(self, png: bytes):
        self.png = png

    def _repr_png_(self) -> bytes:
        return self.png

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels, from the PNG header."""
        return (int.from_bytes(self.png[16:20], "big"), int.from_bytes(self.png[20:24], "big"))

    def save(self, path) -> Path:
        path = Path(path)
        path.write_bytes(self.png)
        return path


class _Pending:
    __slots__ = ("done", "answer")

    def __init__(self):
        self.done = threading.Event()
        self.answer = None


class Viewer:
    """A robogui window driven from Python. See the module docstring.

    ``robot``: library name or robot file to start with (a new app only). ``port`` and
    ``token`` (or ``runtime_file``, the JSON file the app wrote) connect to a running app
    instead of starting one. ``timeout`` (s) bounds the start and each reply.
    """

    def __init__(self, robot: str | None = None, *, port: int | None = None,
                 token: str | None = None, host: str = "127.0.0.1", runtime_file=None,
                 timeout: float = 60.0, app_args: tuple[str, ...] = ()):
        from robogui.session.remote_api.protocol import new_token
        from robogui.session.remote_api.runtime import read_runtime_file, ws_url

        self.timeout = float(timeout)
        self.process: subprocess.Popen | None = None
        self._tmp: tempfile.TemporaryDirectory | None = None
        if runtime_file is not None:
            info = read_runtime_file(runtime_file)
            host, port, token = info["host"], info["port"], info["token"]
        elif port is None:
            token = new_token()
            host, port = self._start_app(robot, token, app_args)
        if token is None:
            raise ValueError("give the token the app printed (or its runtime_file)")
        self.url = ws_url(host, int(port))
        self._ids = itertools.count(1)
        self._pending: dict[int, _Pending] = {}
        self._lock = threading.Lock()
        self._handlers: dict[str, list] = {}
        self.last_error: dict | None = None  # the newest error a streamed message caused
        from websockets.sync.client import connect

        try:
            # entered as a context manager (closed by close()): what websockets >= 16 asks
            self._ws = connect(self.url, max_size=CLIENT_MAX_BYTES, compression=None,
                               open_timeout=self.timeout).__enter__()
        except BaseException:
            self._stop_app()
            raise
        self._reader = threading.Thread(target=self._read, name="robogui-viewer", daemon=True)
        self._reader.start()
        self.request("hello", token=token)

    # -- process ---------------------------------------------------------------------------
    def _start_app(self, robot, token: str, app_args) -> tuple[str, int]:
        from robogui.session.remote_api.runtime import read_runtime_file

        self._tmp = tempfile.TemporaryDirectory(prefix="robogui-viewer-")  # mode 0700
        folder = Path(self._tmp.name)
        runtime = folder / "runtime.json"
        src = str(Path(__file__).resolve().parents[1])  # this robogui, in the child too
        env = {**os.environ, "ROBOGUI_TOKEN": token,
               "PYTHONPATH": os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH"))
                                             if p)}
        args = [sys.executable, "-m", "robogui", "--listen", "0", "--token-file", str(runtime),
                *(["--robot", robot] if robot else []), *app_args]
        self._log = open(folder / "app.log", "wb")  # noqa: SIM115 - closed in close()
        self.process = subprocess.Popen(args, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + self.timeout
        while not runtime.exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (folder / "app.log").read_text(errors="replace")[-2000:]
                self._stop_app()
                raise RuntimeError(f"robogui did not start: {log.strip() or 'no output'}")
            time.sleep(0.05)
        info = read_runtime_file(runtime)
        return info["host"], info["port"]

    def _stop_app(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(5)
            self._log.close()
            self.process = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def close(self) -> None:
        """Disconnect; an app this Viewer started is closed too."""
        try:
            self._ws.close()
        except Exception:  # noqa: BLE001 - closing anyway
            pass
        self._stop_app()

    def __enter__(self) -> Viewer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- messages --------------------------------------------------------------------------
    def _read(self) -> None:
        try:
            while True:
                message = json.loads(self._ws.recv())
                if "event" in message:
                    for fn in list(self._handlers.get(message["event"], ())):
                        try:
                            fn(message)
                        except Exception:  # noqa: BLE001 - a callback must not end the reader
                            pass
                    continue
                with self._lock:
                    waiter = self._pending.pop(message.get("id"), None)
                if waiter is not None:
                    waiter.answer = message
                    waiter.done.set()
                elif not message.get("ok", True):
                    self.last_error = message["error"]
        except Exception:  # noqa: BLE001 - connection closed
            pass
        finally:
            with self._lock:
                for waiter in self._pending.values():
                    waiter.done.set()
                self._pending.clear()

    def request(self, op: str, **fields):
        """Send a request and wait for its result (a dict); ViewerError when refused."""
        rid = next(self._ids)
        waiter = _Pending()
        with self._lock:
            self._pending[rid] = waiter
        self._ws.send(json.dumps({"op": op, "id": rid, **fields}, allow_nan=True))
        if not waiter.done.wait(self.timeout) or waiter.answer is None:
            with self._lock:
                self._pending.pop(rid, None)
            raise ViewerError("failed", f"no reply to {op} within {self.timeout:g} s "
                                        "(is the app still running?)")
        if not waiter.answer["ok"]:
            raise ViewerError(waiter.answer["error"]["code"], waiter.answer["error"]["message"])
        return waiter.answer["result"]

    def send(self, op: str, **fields) -> None:
        """Send a request without waiting (no reply on success; an error lands in
        :attr:`last_error`)."""
        self._ws.send(json.dumps({"op": op, **fields}, allow_nan=True))

    def on(self, event: str, callback) -> None:
        """Call ``callback(message)`` on the reader thread for each ``q``, ``robot``,
        ``time`` or ``cell`` event (see docs/remote-api.md)."""
        self._handlers.setdefault(event, []).append(callback)
        self.request("subscribe", events=sorted(self._handlers))

    # -- what a script uses ----------------------------------------------------------------
    @property
    def state(self) -> dict:
        return self.request("get_state")

    @property
    def robot(self) -> str:
        """The robot's name; assign a library name, a robot file or a Robot."""
        return self.state["robot"]

    @robot.setter
    def robot(self, robot) -> None:
        if isinstance(robot, (str, os.PathLike)):
            text = str(robot)
            if os.sep in text or Path(text).suffix:
                text = str(Path(text).resolve())  # the app's working folder is not ours
            self.request("open_robot", robot=text)
            return
        from robogui.io.robotfile import save_robot  # a Robot object: via a TOML file

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "robot.toml"
            save_robot(robot, path)
            self.request("open_robot", robot=str(path))

    @property
    def q(self) -> np.ndarray:
        """The joint vector (n,) shown, rad / m; assigning waits for the app's check."""
        return np.array(self.request("get_q")["q"])

    @q.setter
    def q(self, q) -> None:
        self.request("set_q", q=_list(q))

    @property
    def pose(self) -> np.ndarray:
        """The TCP pose (4, 4), base frame, metres."""
        return np.array(self.request("get_pose")["T"])

    def stream(self, q, t: float | None = None) -> None:
        """Send one live joint vector (Follow mode is switched on by the first call);
        returns at once. ``t``: the sample's time stamp (s), for recordings."""
        if not getattr(self, "_following", False):
            self.request("follow", on=True)
            self._following = True
        fields = {"q": _list(q)}
        if t is not None:
            fields["t"] = float(t)
        self.send("stream_q", **fields)

    def play(self, trajectory, *, speed: float = 1.0, loop: bool = False) -> dict:
        """Load a trajectory (a Trajectory, ``(t, q)``, or a CSV path) and start playing;
        returns once it plays, not when it ends."""
        if isinstance(trajectory, (str, os.PathLike)):
            self.request("load_trajectory", path=str(Path(trajectory).resolve()))
        else:
            t, q = (trajectory.t, trajectory.q) if hasattr(trajectory, "t") else trajectory
            self.request("load_trajectory", t=_list(t), q=np.asarray(q, float).tolist())
        return self.request("play", speed=float(speed), loop=bool(loop))

    def set_time(self, t: float) -> None:
        """Put the playhead at ``t`` seconds (playback pauses)."""
        self.request("set_time", t=float(t))

    def screenshot(self, path=None, *, what: str = "view") -> Screenshot:
        """A PNG of the 3D view (``what="window"``: the whole window); saved to ``path``
        on this side when given."""
        png = base64.b64decode(self.request("screenshot", what=what)["png"])
        shot = Screenshot(png)
        if path is not None:
            shot.save(path)
        return shot

    # -- the work cell ---------------------------------------------------------------------
    @property
    def cell(self) -> dict:
        """The work cell shown: ``name``, ``robot``, ``objects`` (each ``name``, ``shape``,
        ``size``, ``xyz`` m, ``rpy`` rad, ``color``, ``collides``); docs/remote-api.md."""
        return self.request("get_cell")

    def open_cell(self, path) -> dict:
        """Show the ``.cell`` file ``path`` (docs/cell-file-format.md) around the robot."""
        return self.request("open_cell", path=str(Path(path).resolve()))

    def add_object(self, name: str, shape: str, size=None, *, pose=None, xyz=None, rpy=None,
                   color: str | None = None, collides: bool | None = None, file=None,
                   scale=None) -> dict:
        """Add a ``box`` (size ``[x, y, z]`` full extents), ``cylinder`` or ``capsule``
        (``[radius, length]``), ``sphere`` (``[radius]``) or ``mesh`` (``file``, ``scale``)
        to the cell, m; placed by ``pose`` (4, 4) or ``xyz`` (3,) m and ``rpy`` (3,) rad;
        ``color`` ``"#rrggbb"``. Returns the cell; ViewerError names a bad value."""
        fields = _placement(pose, xyz, rpy)
        if size is not None:
            fields["size"] = _list(size)
        if color is not None:
            fields["color"] = str(color)
        if collides is not None:
            fields["collides"] = bool(collides)
        if file is not None:
            fields["file"] = str(Path(file).resolve())
        if scale is not None:
            fields["scale"] = _list(scale)
        return self.request("add_object", name=name, shape=shape, **fields)

    def move_object(self, name: str, pose=None, *, xyz=None, rpy=None) -> dict:
        """Move object ``name`` to ``pose`` (4, 4), or to ``xyz`` and/or ``rpy`` (the part
        not given is kept). Returns the cell."""
        return self.request("move_object", name=name, **_placement(pose, xyz, rpy))

    def remove_object(self, name: str) -> dict:
        """Remove object ``name`` from the cell. Returns the cell."""
        return self.request("remove_object", name=name)


def _placement(pose, xyz, rpy) -> dict:
    fields = {}
    if pose is not None:
        fields["pose"] = np.asarray(pose, dtype=float).tolist()
    if xyz is not None:
        fields["xyz"] = _list(xyz)
    if rpy is not None:
        fields["rpy"] = _list(rpy)
    return fields


def _list(values) -> list[float]:
    return np.asarray(values, dtype=float).reshape(-1).tolist()
