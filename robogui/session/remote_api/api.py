"""Applying checked requests to a Session: the part of the remote API that changes state.

:class:`Connection` is one client's side of the conversation (hello with the token, its
event subscriptions); it runs where the network is and needs no session.
:class:`RemoteApi` applies the remaining requests to the session; in the app it runs on
the GUI thread. :func:`handle_message` chains the two for one message (tests, and any
single-threaded server). Every request is checked completely before it changes anything:
a refused request leaves the robot, q, trajectory and playhead as they were.

Hooks the app fills in (each None without a window):

* ``screenshot(path, what) -> bytes`` - a PNG of the 3D view (``what="view"``) or the
  window; written to ``path`` when given;
* ``set_cell(cell, text)`` - show a new work cell (the app: through its undo stack, one
  step called ``text``); default ``session.set_cell``. The cell requests
  (``open_cell``, ``add_object``, ``move_object``, ``remove_object``) build the whole new
  cell in :mod:`.cell_requests` before they call it.
* ``program_loader(path=None, text=None) -> trajectory`` - load a teach program and
  compile it (the app uses its teach pendant so the Program dock shows it).
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from robogui.engine.spatial.quaternion import r2q
from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import load_robot

from .cell_requests import (
    cell_summary,
    cell_with_moved_object,
    cell_with_new_object,
    cell_without_object,
    opened_cell,
)
from .live import LiveLink
from .protocol import (
    EVENTS,
    PROTOCOL_VERSION,
    RemoteError,
    Request,
    error_reply,
    event,
    parse_request,
    reply,
    token_matches,
)

__all__ = ["Connection", "RemoteApi", "handle_message", "event_for"]

_CONNECTION_OPS = ("hello", "subscribe")


class Connection:
    """One client: authenticated after ``hello`` with the token; which events it wants."""

    def __init__(self, token: str):
        self._token = token
        self.authenticated = False
        self.events: set[str] = set()

    def receive(self, message: str | bytes) -> tuple[Request | None, dict | None]:
        """Check one message. Returns (request for :class:`RemoteApi`, None) or (None,
        reply to send now, None when nothing is to be sent)."""
        try:
            request = parse_request(message)
        except RemoteError as exc:
            return None, error_reply(getattr(exc, "request_id", None), exc)
        try:
            if request.op == "hello":
                if not token_matches(request.fields["token"], self._token):
                    self.authenticated = False
                    raise RemoteError("unauthorized", "wrong token: use the token robogui "
                                                      "printed or wrote to its runtime file")
                self.authenticated = True
                self._subscribe(request.fields.get("events", []))
                return None, reply(request.id, {"protocol": PROTOCOL_VERSION,
                                                "events": sorted(self.events)})
            if not self.authenticated:
                raise RemoteError("unauthorized", "say hello with the token first: "
                                                  '{"op": "hello", "token": "..."}')
            if request.op == "subscribe":
                self._subscribe(request.fields["events"])
                return None, (reply(request.id, {"events": sorted(self.events)})
                              if request.wants_reply else None)
        except RemoteError as exc:
            return None, error_reply(request.id, exc)
        return request, None

    def _subscribe(self, names) -> None:
        unknown = [n for n in names if n not in EVENTS]
        if unknown:
            raise RemoteError("bad_request", f"unknown event {unknown[0]!r}; events: "
                                             f"{', '.join(EVENTS)}")
        self.events = set(names)


def _as_q(session, values: list[float], what: str = "q") -> np.ndarray:
    n = session.robot.n
    if len(values) != n:
        raise RemoteError("bad_size", f"{what} needs {n} values for {session.robot.name!r}, "
                                      f"got {len(values)}")
    return np.asarray(values, dtype=float)


def event_for(name: str, value, session) -> dict:
    """The event message for a session event (``q``, ``robot``, ``time`` or ``cell``)."""
    if name == "q":
        return event("q", q=np.asarray(value, dtype=float).tolist())
    if name == "robot":
        return event("robot", name=str(value.name), n=int(value.n), q=session.q.tolist())
    if name == "cell":
        return event("cell", **cell_summary(value))
    return event("time", t=float(value))


class RemoteApi:
    """Applies checked requests to ``session``; see the module docstring for the hooks."""

    def __init__(self, session, *, live: LiveLink | None = None,
                 screenshot: Callable[[str | None, str], bytes] | None = None,
                 program_loader: Callable[..., Any] | None = None,
                 robot_loader: Callable[..., Any] = load_robot,
                 open_robot: Callable[[Any, str], None] | None = None,
                 set_cell: Callable[[Any, str], None] | None = None):
        self.session = session
        self.live = live if live is not None else LiveLink(session)
        self.screenshot = screenshot
        self.program_loader = program_loader
        self.robot_loader = robot_loader
        # shows a loaded robot (the app: through its undo stack and robot picker)
        self.open_robot = open_robot or (lambda robot, name, q=None: session.set_robot(robot, q))
        # shows a new work cell (the app: one undo step called text)
        self.set_cell = set_cell or (lambda cell, text: session.set_cell(cell))

    def handle(self, request: Request, *, show: bool = True) -> dict | None:
        """Apply ``request``; the reply (None for a successful request without an id).

        ``show=False`` (``stream_q`` only): check and record the sample without drawing
        it, for a sample a newer one in the same batch replaces on screen."""
        try:
            fields = request.fields if show else {**request.fields, "show": False}
            result = getattr(self, f"_op_{request.op}")(**fields)
        except RemoteError as exc:
            return error_reply(request.id, exc)
        except (ValueError, OSError) as exc:  # the project's errors say what was wrong
            return error_reply(request.id, RemoteError("failed", str(exc)))
        return reply(request.id, result) if request.wants_reply else None

    # -- state -----------------------------------------------------------------------------
    def _state(self) -> dict:
        s = self.session
        return {"robot": s.robot.name, "n": int(s.robot.n), "q": s.q.tolist(),
                "time": float(s.time), "playing": bool(s.playing),
                "trajectory": s.time_range is not None, "following": self.live.following,
                "recording": self.live.recording}

    def _op_get_state(self) -> dict:
        return self._state()

    def _op_get_q(self) -> dict:
        return {"q": self.session.q.tolist()}

    def _op_get_pose(self) -> dict:
        T = np.asarray(self.session.T, dtype=float)
        return {"T": T.tolist(), "position": T[:3, 3].tolist(),
                "quaternion": np.asarray(r2q(T[:3, :3]), dtype=float).tolist()}

    # -- robot and q -----------------------------------------------------------------------
    def _op_open_robot(self, robot: str, q=None, tip=None) -> dict:
        new = self.robot_loader(robot, tip=tip) if tip else self.robot_loader(robot)
        q_new = None
        if q is not None:
            if len(q) != new.n:
                raise RemoteError("bad_size", f"q needs {new.n} values for {new.name!r}, "
                                              f"got {len(q)}")
            q_new = np.asarray(q, dtype=float)
        self.open_robot(new, robot, q_new)
        return self._state()

    def _op_set_q(self, q) -> dict:
        self.session.set_q(_as_q(self.session, q))
        return {"q": self.session.q.tolist()}

    def _op_stream_q(self, q, t=None, show=True) -> dict:
        values = _as_q(self.session, q)
        try:
            self.live.feed(values, t, show=show)
        except RuntimeError as exc:
            raise RemoteError("not_following", str(exc)) from None
        return {"q": self.session.q.tolist()}

    # -- trajectories and programs ---------------------------------------------------------
    def _op_load_trajectory(self, t=None, q=None, path=None) -> dict:
        s = self.session
        if path is not None:
            if t is not None or q is not None:
                raise RemoteError("bad_request", "load_trajectory takes either path or t and q")
            traj = Trajectory.from_csv(path, n=s.robot.n)
        else:
            if t is None or q is None:
                raise RemoteError("bad_request", "load_trajectory needs path, or t and q")
            if len(q) != len(t) or any(len(row) != s.robot.n for row in q):
                raise RemoteError("bad_size", f"load_trajectory: q must have {len(t)} rows (one "
                                              f"per time) of {s.robot.n} values for "
                                              f"{s.robot.name!r}")
            traj = Trajectory(np.asarray(t, dtype=float), np.asarray(q, dtype=float),
                              name="remote")
        s.pause()
        s.set_trajectory(traj)
        s.finish_change()
        return {"samples": len(traj.t), "start": float(traj.t[0]), "end": float(traj.t[-1])}

    def _op_load_program(self, path=None, text=None) -> dict:
        if (path is None) == (text is None):
            raise RemoteError("bad_request", "load_program takes path or text (one of them)")
        if self.program_loader is not None:
            traj = self.program_loader(path=path, text=text)
        else:
            from robogui.session.teach.compile import compile_program
            from robogui.session.teach.program_file import load_program, loads_program

            program = load_program(path) if path is not None else loads_program(text)
            traj = compile_program(program, self.session.robot,  # parts ride the tool
                                   cell=self.session.cell).trajectory
            self.session.pause()
            self.session.set_trajectory(traj)
            self.session.finish_change()
        return {"samples": len(traj.t), "start": float(traj.t[0]), "end": float(traj.t[-1])}

    # -- playback --------------------------------------------------------------------------
    def _op_play(self, speed=None, loop=None) -> dict:
        s = self.session
        if s.time_range is None:
            raise RemoteError("failed", "there is no trajectory to play: load_trajectory or "
                                        "load_program first")
        if speed is not None and not 0.1 <= speed <= 10:
            raise RemoteError("bad_request", f"play.speed must lie between 0.1 and 10, got "
                                             f"{speed:g}")
        if speed is not None:
            s.set_speed(speed)
        if loop is not None:
            s.set_loop(loop)
        s.play()
        return self._state()

    def _op_pause(self) -> dict:
        self.session.pause()
        return self._state()

    def _op_stop(self) -> dict:
        self.session.stop()
        return self._state()

    def _op_set_time(self, t) -> dict:
        s = self.session
        if s.time_range is None:
            raise RemoteError("failed", "there is no trajectory: the playhead has nowhere to go")
        s.pause()
        s.set_time(t, changing=False)
        s.finish_change()
        return {"t": float(s.time), "q": s.q.tolist()}

    # -- live link -------------------------------------------------------------------------
    def _op_follow(self, on) -> dict:
        self.live.set_follow(on)
        return self._state()

    def _op_record(self, on) -> dict:
        if on and not self.live.following:
            raise RemoteError("not_following", "Record keeps followed samples: follow first")
        self.live.set_record(on)
        return self._state()

    def _op_save_recording(self, path) -> dict:
        written = self.live.save_csv(path)
        return {"path": str(written), "samples": self.live.sample_count}

    # -- screenshot ------------------------------------------------------------------------
    def _op_screenshot(self, path=None, what="view") -> dict:
        if what not in ("view", "window"):
            raise RemoteError("bad_request", f"screenshot.what must be view or window, got "
                                             f"{what[:40]!r}")
        if self.screenshot is None:
            raise RemoteError("unsupported", "no screenshot support: the app has no window")
        png = self.screenshot(path, what)
        if path is not None:
            return {"path": path, "bytes": len(png)}
        return {"png": base64.b64encode(png).decode("ascii")}

    # -- the work cell ---------------------------------------------------------------------
    def _show_cell(self, cell, text: str) -> dict:
        self.set_cell(cell, text)
        return cell_summary(self.session.cell)

    def _op_get_cell(self) -> dict:
        return cell_summary(self.session.cell)

    def _op_open_cell(self, path) -> dict:
        cell = opened_cell(path)
        return self._show_cell(cell, f"Remote: open cell {Path(path).name}")

    def _op_add_object(self, name, shape, **fields) -> dict:
        cell = cell_with_new_object(self.session.cell, name, shape, **fields)
        return self._show_cell(cell, f"Remote: add {name}")

    def _op_move_object(self, name, **fields) -> dict:
        cell = cell_with_moved_object(self.session.cell, name, **fields)
        return self._show_cell(cell, f"Remote: move {name}")

    def _op_remove_object(self, name) -> dict:
        cell = cell_without_object(self.session.cell, name)
        return self._show_cell(cell, f"Remote: remove {name}")


def handle_message(connection: Connection, api: RemoteApi, message: str | bytes) -> dict | None:
    """One message in, the reply out (None when there is none): :class:`Connection` then
    :meth:`RemoteApi.handle`, on one thread."""
    request, answer = connection.receive(message)
    if request is None:
        return answer
    return api.handle(request)
