"""The WebSocket server of ``robogui --listen``: network on a thread, state on the GUI thread.

The ``websockets`` server runs an asyncio loop on a daemon thread. There each message is
read (at most :data:`~robogui.session.remote_api.protocol.MAX_MESSAGE_BYTES`, larger ones
answered ``too_large``; beyond :data:`HARD_LIMIT_BYTES` websockets closes the connection
with code 1009 without reading on), parsed and checked, and the hello/token exchange
answered (:class:`~robogui.session.remote_api.api.Connection`). Requests that touch the
session cross to the GUI thread by a queued Qt signal and are applied there by
:class:`~robogui.session.remote_api.api.RemoteApi`; the reply goes back with
``asyncio.run_coroutine_threadsafe``. Nothing on the GUI thread ever waits for the network.

``stream_q`` samples are collected in a list the GUI thread drains at once: every sample
is recorded, the robot shows the newest, so a 500 Hz stream never queues up behind the
drawing.

Binding: the loopback address unless the user gave another one; connections from a
non-loopback peer are refused (HTTP 403) when the server was bound to loopback, as a
second fence behind the bind itself.
"""

from __future__ import annotations

import asyncio
import ipaddress
import sys
import threading
import time
from dataclasses import dataclass

from PySide6 import QtCore

from robogui.session.remote_api.api import Connection, RemoteApi, event_for
from robogui.session.remote_api.protocol import (
    EVENTS,
    MAX_MESSAGE_BYTES,
    RemoteError,
    Request,
    dumps,
    error_reply,
)

__all__ = ["RemoteServer", "HARD_LIMIT_BYTES", "peer_allowed", "is_loopback"]

HARD_LIMIT_BYTES = 4 * MAX_MESSAGE_BYTES  # read and refused up to here; closed beyond
MAX_PENDING_EVENTS = 256  # per client: events beyond this are dropped (replies never are)
# stream samples waiting for the GUI thread (20 s at 500 Hz); beyond, a sample is refused
# with an error instead of letting a flood grow the app's memory
MAX_WAITING_SAMPLES = 10_000
# How long a Python thread may hold the interpreter before another that waits gets it
# (Python's default is 5 ms). The network thread and the GUI thread hand every sample and
# every event to each other; with the default, a sample that arrives while the GUI thread
# runs Python code (drawing the robot) waits up to 5 ms before it is even read.
SWITCH_INTERVAL_S = 0.001


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and "localhost"."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def peer_allowed(bound_host: str, peer_host: str) -> bool:
    """A server bound to loopback takes loopback peers only; one bound to an address the
    user gave takes the peers that reach that address."""
    return is_loopback(peer_host) or not is_loopback(bound_host)


@dataclass(eq=False)
class _Client:
    ws: object
    connection: Connection
    pending_events: int = 0


class RemoteServer(QtCore.QObject):
    """Serve ``api`` (a :class:`RemoteApi` on this, the GUI, thread) on ``host:port``.

    ``port=0`` takes a free port; :attr:`port` is the one bound after :meth:`start`.
    Signals: ``requestReceived(client, Request)`` and ``streamReady()`` cross from the
    network thread (queued); ``clientsChanged(int)`` says, on the GUI thread, how many are
    connected.
    """

    requestReceived = QtCore.Signal(object, object)
    streamReady = QtCore.Signal()
    clientsChanged = QtCore.Signal(int)
    # from the network thread, queued to this object's (the GUI) thread: a listener of
    # clientsChanged (the status label, the stream's end as one undo step) touches widgets
    # and the session, which only the GUI thread may
    _clientCountChanged = QtCore.Signal()

    def __init__(self, api: RemoteApi, host: str, port: int, token: str, parent=None):
        super().__init__(parent)
        self.api = api
        self.host = host
        self.port = int(port)
        self.token = token
        self.clients: set[_Client] = set()
        self.applied_stream = 0  # stream samples the GUI thread took (all recorded)
        self.shown_stream = 0    # of those, the ones the robot was drawn at
        self._stream: list[tuple[_Client, Request]] = []
        self._stream_lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        Queued = QtCore.Qt.ConnectionType.QueuedConnection
        self.requestReceived.connect(self._apply, Queued)
        self.streamReady.connect(self._apply_stream, Queued)
        self._clientCountChanged.connect(self._announce_clients, Queued)
        self._listeners = []
        for name in EVENTS:
            fn = (lambda value, name=name: self._broadcast(name, value))
            # first: a client hears of the change before the panels and plots redraw
            api.session.events[name].connect(fn, first=True)
            self._listeners.append((name, fn))

    # -- life ------------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> int:
        """Bind and serve on a thread; returns the port. OSError when the bind fails."""
        ready = threading.Event()
        failure: list[BaseException] = []
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self._thread = threading.Thread(target=self._run, args=(ready, failure),
                                        name="robogui-remote", daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            raise OSError(f"the remote API did not start within {timeout:g} s")
        if failure:
            raise OSError(f"cannot listen on {self.host}:{self.port}: {failure[0]}")
        return self.port

    def close(self) -> None:
        """Stop serving (connections closed) and disconnect from the session."""
        for name, fn in self._listeners:
            self.api.session.events[name].disconnect(fn)
        self._listeners = []
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(5.0)
        self._loop = None

    def _run(self, ready: threading.Event, failure: list) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve(ready))
        except BaseException as exc:  # noqa: BLE001 - reported to start()
            failure.append(exc)
            ready.set()
        finally:
            loop.close()

    async def _serve(self, ready: threading.Event) -> None:
        from websockets.asyncio.server import serve

        self._stop = asyncio.Event()
        async with serve(self._handler, self.host, self.port, max_size=HARD_LIMIT_BYTES,
                         process_request=self._check_peer, compression=None) as server:
            self.port = int(next(iter(server.sockets)).getsockname()[1])
            ready.set()
            await self._stop.wait()

    def _check_peer(self, connection, request):
        peer = connection.remote_address[0] if connection.remote_address else ""
        if not peer_allowed(self.host, str(peer)):
            return connection.respond(403, f"robogui listens on {self.host} only\n")
        return None

    # -- network thread --------------------------------------------------------------------
    async def _handler(self, ws) -> None:
        client = _Client(ws, Connection(self.token))
        self.clients.add(client)
        self._clientCountChanged.emit()
        try:
            async for message in ws:
                request, answer = client.connection.receive(message)
                if answer is not None:
                    await ws.send(dumps(answer))
                if request is None:
                    continue
                if request.op == "stream_q" and not request.wants_reply:
                    request.fields.setdefault("t", time.monotonic())  # arrival time
                    with self._stream_lock:
                        first = not self._stream
                        full = len(self._stream) >= MAX_WAITING_SAMPLES
                        if not full:
                            self._stream.append((client, request))
                    if full:
                        await ws.send(dumps(error_reply(None, RemoteError(
                            "failed", f"the app is behind: {MAX_WAITING_SAMPLES} samples "
                                      "wait to be shown; this one was dropped"))))
                    elif first:
                        self.streamReady.emit()
                else:
                    self.requestReceived.emit(client, request)
        except Exception:  # noqa: BLE001 - a broken connection ends that client only
            pass
        finally:
            self.clients.discard(client)
            self._clientCountChanged.emit()

    def _send(self, client: _Client, message: dict, *, is_event: bool = False) -> None:
        """From the GUI thread: queue ``message`` for ``client`` on the network loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if is_event:
            if client.pending_events >= MAX_PENDING_EVENTS:
                return  # a client that does not read its events loses some, not the app
            client.pending_events += 1
        text = dumps(message)

        async def send():
            try:
                await client.ws.send(text)
            except Exception:  # noqa: BLE001 - the client went away
                pass
            finally:
                if is_event:
                    client.pending_events -= 1

        try:
            asyncio.run_coroutine_threadsafe(send(), loop)
        except RuntimeError:  # the loop is closing
            pass

    # -- GUI thread ------------------------------------------------------------------------
    def _announce_clients(self) -> None:
        self.clientsChanged.emit(len(self.clients))

    def _apply(self, client: _Client, request: Request) -> None:
        try:
            answer = self.api.handle(request)
        except Exception as exc:  # noqa: BLE001 - the GUI must outlive any request
            answer = error_reply(request.id, RemoteError("failed", f"internal error: {exc}"))
        if answer is not None:
            self._send(client, answer)

    def _apply_stream(self) -> None:
        with self._stream_lock:
            batch, self._stream = self._stream, []
        if not batch:
            return
        self.applied_stream += len(batch)
        # every sample is checked (and recorded); the robot is drawn at the newest only
        for k, (client, request) in enumerate(batch):
            show = k == len(batch) - 1
            try:
                answer = self.api.handle(request, show=show)
            except Exception as exc:  # noqa: BLE001 - the GUI must outlive any request
                answer = error_reply(None, RemoteError("failed", f"internal error: {exc}"))
            self.shown_stream += int(show)
            if answer is not None:
                self._send(client, answer)

    def _broadcast(self, name: str, value) -> None:
        if not self.clients:
            return
        message = None
        for client in list(self.clients):
            if name in client.connection.events and client.connection.authenticated:
                if message is None:
                    message = event_for(name, value, self.api.session)
                self._send(client, message, is_event=True)
