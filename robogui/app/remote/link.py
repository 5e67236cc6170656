"""``install_remote(window, host, port)``: the remote API and the Live menu for a main window.

Wires the window into :class:`~robogui.session.remote_api.api.RemoteApi`'s hooks (a PNG of
the 3D view or the window, programs through the teach pendant, robots through the undo
stack and the robot picker, work-cell edits as undo steps), starts the
:class:`~.server.RemoteServer`, writes the runtime file (token, 0600) and shows
"Remote: ws://..." in the status bar.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.remote_api.api import RemoteApi
from robogui.session.remote_api.live import LiveLink
from robogui.session.remote_api.protocol import new_token
from robogui.session.remote_api.runtime import runtime_path, write_runtime_file, ws_url

from .. import undo
from ..bindings import FRAME_PACER
from .live_menu import LiveMenu
from .server import RemoteServer

__all__ = ["RemoteLink", "install_remote", "png_bytes", "close_on_signals"]


def png_bytes(image: QtGui.QImage) -> bytes:
    """A QImage as PNG file bytes."""
    buffer = QtCore.QBuffer()
    buffer.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError("the screenshot could not be encoded as PNG")
    return bytes(buffer.data())


@dataclass(eq=False)
class RemoteLink:
    """What :func:`install_remote` built; :meth:`close` stops serving and removes the file."""

    server: RemoteServer
    api: RemoteApi
    live: LiveLink
    menu: LiveMenu
    token: str
    runtime_file: Path | None
    label: QtWidgets.QLabel
    closed: bool = False

    @property
    def url(self) -> str:
        return ws_url(self.server.host, self.server.port)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        FRAME_PACER.hold(self, False)
        self.server.close()
        self.menu.close()
        if self.runtime_file is not None:
            self.runtime_file.unlink(missing_ok=True)


def _screenshot(window):
    def shoot(path, what):
        if what == "window":
            image = window.grab().toImage()
            view = window.view.grab_image()  # the GL view's pixels over the widget grab
            painter = QtGui.QPainter(image)
            painter.drawImage(QtCore.QRectF(window.view.mapTo(window, QtCore.QPoint(0, 0)),
                                            QtCore.QSizeF(window.view.size())), view)
            painter.end()
        else:
            image = window.view.grab_image()
        data = png_bytes(image)
        if path is not None:
            Path(path).write_bytes(data)
        return data
    return shoot


def _program_loader(window):
    teach = getattr(window, "teach", None)
    if teach is None:
        return None

    def load(path=None, text=None):
        from robogui.session.teach.program_file import loads_program

        state = teach.state
        if path is not None:
            state.load(path)
        else:
            state.set_program(loads_program(text), modified=True)
        state.session.pause()
        return state.compile().trajectory
    return load


def _robot_opener(window):
    session = window.session

    def open_robot(robot, name, q=None):
        with undo.labelled(session, f"Remote: open {name}"):
            session.set_robot(robot, q)
        if hasattr(window, "set_origin"):
            window.set_origin(name)
    return open_robot


def _cell_setter(window):
    session = window.session

    def set_cell(cell, text):
        manager = undo.manager_for(session)
        if manager is None:
            session.set_cell(cell)
            return
        old = session.cell
        # applied here (a refusal raises before anything is pushed), outside the observers'
        # recording, so this command is the one step whoever else watches the cell
        with manager.replaying():
            session.set_cell(cell)
        manager.push_session_change(text, lambda: session.set_cell(cell),
                                    lambda: session.set_cell(old), applied=True)
    return set_cell


def install_remote(window, host: str = "127.0.0.1", port: int = 0, *, token: str | None = None,
                   token_file=None) -> RemoteLink:
    """Serve the remote API for ``window`` (a robogui MainWindow) on ``host:port``.

    ``token`` defaults to a new random one; ``token_file`` to the runtime folder's
    ``robogui-PORT.json`` (False: none). OSError when the address cannot be bound.
    """
    session = window.session
    live = LiveLink(session)
    api = RemoteApi(session, live=live, screenshot=_screenshot(window),
                    program_loader=_program_loader(window), open_robot=_robot_opener(window),
                    set_cell=_cell_setter(window))
    token = token or new_token()
    server = RemoteServer(api, host, port, token, parent=window)
    server.start()
    path = None
    if token_file is not False:
        path = write_runtime_file(token_file or runtime_path(server.port), host, server.port,
                                  token)
    menu = LiveMenu(window, live)
    label = QtWidgets.QLabel()
    window.statusBar().addPermanentWidget(label)
    link = RemoteLink(server, api, live, menu, token, path, label)

    def show(*_):
        state = "following" if live.following else "not following"
        rec = f", recording {live.sample_count}" if live.recording else ""
        label.setText(f"Remote: {link.url} ({len(server.clients)} connected, {state}{rec})")
    server.clientsChanged.connect(show)

    def last_client_gone(count: int) -> None:
        if count == 0 and live.following:
            session.finish_change()  # the stream ended: one complete change, one undo step
    server.clientsChanged.connect(last_client_gone)
    live.events.follow.connect(show)
    live.events.record.connect(show)
    # while following, readouts (joint rows, pose, live plots) update 20 times a second
    live.events.follow.connect(lambda on: FRAME_PACER.hold(link, on))

    def view_streaming(on: bool) -> None:
        scene = getattr(getattr(window, "view", None), "scene", None)
        if scene is not None:
            scene.streaming = bool(on)
    live.events.follow.connect(view_streaming)
    show()
    window.destroyed.connect(lambda *_: link.close())
    window.remote = link
    return link


def close_on_signals(window) -> QtCore.QTimer:
    """SIGTERM and SIGINT close ``window`` as File > Quit does (settings saved, the runtime
    file removed) instead of killing the process: how ``robogui.Viewer.close()`` and a
    Ctrl+C in the terminal end a listening app. Python runs signal handlers only when it
    gets control, so a timer hands it control five times a second."""
    import signal

    def close(*_):
        QtCore.QTimer.singleShot(0, window.close)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, close)
    timer = QtCore.QTimer(window)
    timer.timeout.connect(lambda: None)
    timer.start(200)
    return timer


def default_token() -> str:
    """The token to use: ``ROBOGUI_TOKEN`` from the environment (robogui.Viewer passes its
    own that way, never on the command line where ``ps`` shows it), else a new one."""
    return os.environ.get("ROBOGUI_TOKEN") or new_token()
