"""The remote API inside the window: a real WebSocket client on another thread, the server
on its thread, requests applied on the GUI thread; the Live menu's Follow and Record, and
the Program dock's Record taking the live pose."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets
from websockets.sync.client import connect

from robogui.cli import parse_listen


@pytest.fixture
def remote(window, tmp_path):
    from robogui.app.remote.link import install_remote

    link = install_remote(window, "127.0.0.1", 0, token="tok", token_file=tmp_path / "rt.json")
    yield link
    link.close()


def run_client(url, messages, replies):
    """Send ``messages`` from a thread of its own and collect the replies to those with id."""
    def work():
        with connect(url) as ws:
            for message in messages:
                ws.send(json.dumps(message))
                if "id" in message:
                    replies.append(json.loads(ws.recv(30)))
    thread = threading.Thread(target=work)
    thread.start()
    return thread


def finish(qtbot, thread):
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=30000)


def test_follow_from_the_menu_record_waypoint_takes_the_live_pose(qtbot, window, remote):
    session = window.session
    q_before = session.q.copy()
    follow = remote.menu.follow_action
    assert not follow.isChecked()
    follow.trigger()  # Live > Follow live joint states
    assert remote.live.following
    stream = [np.linspace(-0.5, 0.5, 6) * k / 50 for k in range(1, 51)]
    replies: list = []
    thread = run_client(remote.url, [{"op": "hello", "token": "tok", "id": 0},
                                     *({"op": "stream_q", "q": q.tolist()} for q in stream),
                                     {"op": "get_q", "id": 1}], replies)
    finish(qtbot, thread)
    assert replies[0]["ok"] and replies[1]["result"]["q"] == stream[-1].tolist()
    np.testing.assert_array_equal(session.q, stream[-1])
    # the server sees the client leave a moment after the client's thread ended: wait for
    # the GUI thread to hear it, so the stream's end (one complete change, made when the
    # last client left) comes before the waypoint below
    qtbot.waitUntil(lambda: "0 connected" in remote.label.text(), timeout=10000)
    # the teach pendant's Record button: the waypoint is the live pose
    program_panel = window.teach.program
    waypoints_before = len(program_panel.state.program.waypoints)
    program_panel.record_button.click()
    waypoint = program_panel.state.program.waypoints[-1]
    np.testing.assert_array_equal(waypoint.q, stream[-1])
    follow.trigger()  # Follow off: the stream was one change already, no further step
    assert not remote.live.following
    window.undo.stack.undo()  # the recorded waypoint
    assert len(program_panel.state.program.waypoints) == waypoints_before
    np.testing.assert_array_equal(session.q, stream[-1])
    window.undo.stack.undo()  # the whole stream, one step
    np.testing.assert_array_equal(session.q, q_before)


def test_a_remote_follow_request_ticks_the_menu_and_record_saves_a_csv(qtbot, window, remote,
                                                                       tmp_path, monkeypatch):
    from robogui.engine.trajectory.trajectory import Trajectory

    replies: list = []
    samples = [(0.01 * k, [0.02 * k] * 6) for k in range(20)]
    thread = run_client(remote.url, [{"op": "hello", "token": "tok", "id": 0},
                                     {"op": "follow", "on": True, "id": 1},
                                     {"op": "record", "on": True, "id": 2},
                                     *({"op": "stream_q", "q": q, "t": t} for t, q in samples),
                                     {"op": "get_state", "id": 3}], replies)
    finish(qtbot, thread)
    assert replies[-1]["result"]["recording"] and replies[-1]["result"]["following"]
    menu = remote.menu
    assert menu.follow_action.isChecked() and menu.record_action.isChecked()
    menu.record_action.trigger()  # Live > Record off
    assert not remote.live.recording and remote.live.following
    path = tmp_path / "live.csv"
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(path), ""))
    menu.save_action.trigger()  # Live > Save recording as CSV...
    back = Trajectory.from_csv(path, n=6)
    np.testing.assert_allclose(back.t, [t for t, _ in samples], atol=1e-12)
    np.testing.assert_allclose(back.q, [q for _, q in samples], atol=1e-12)
    assert "live" in remote.label.text() or "Remote:" in remote.label.text()


def test_remote_set_q_is_one_undo_step_and_open_robot_shows_its_origin(qtbot, window, remote):
    session = window.session
    q0 = session.q.copy()
    replies: list = []
    thread = run_client(remote.url, [{"op": "hello", "token": "tok", "id": 0},
                                     {"op": "set_q", "q": [0.3] * 6, "id": 1},
                                     {"op": "open_robot", "robot": "stanford", "id": 2}],
                        replies)
    finish(qtbot, thread)
    assert all(r["ok"] for r in replies), replies
    assert session.robot.name == "Stanford arm" and window.library_name == "stanford"
    window.undo.stack.undo()  # the robot change
    assert session.robot.name == "Puma 560"
    np.testing.assert_allclose(session.q, 0.3)
    window.undo.stack.undo()  # the remote set_q
    np.testing.assert_allclose(session.q, q0)


def test_the_runtime_file_and_events(qtbot, window, remote, tmp_path):
    assert (tmp_path / "rt.json").stat().st_mode & 0o777 == 0o600
    events: list = []

    def work():
        with connect(remote.url) as ws:
            ws.send(json.dumps({"op": "hello", "token": "tok", "events": ["q", "time"],
                                "id": 0}))
            json.loads(ws.recv(30))
            ws.send(json.dumps({"op": "set_q", "q": [0.1] * 6}))
            while len(events) < 1:
                events.append(json.loads(ws.recv(30)))
    thread = threading.Thread(target=work)
    thread.start()
    finish(qtbot, thread)
    assert events[0] == {"event": "q", "q": [0.1] * 6}


def test_peer_check_and_listen_argument():
    from robogui.app.remote.server import is_loopback, peer_allowed

    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("192.0.2.2")
    assert not peer_allowed("127.0.0.1", "192.0.2.2")
    assert peer_allowed("192.0.2.2", "192.0.2.7") and peer_allowed("127.0.0.1", "127.0.0.1")
    assert parse_listen("9000") == ("127.0.0.1", 9000)
    assert parse_listen("192.0.2.2:0") == ("192.0.2.2", 0)
    assert parse_listen("[::1]:80") == ("::1", 80)
    with pytest.raises(Exception, match="PORT"):
        parse_listen("99999")


def test_a_bad_address_is_reported(window):
    from robogui.app.remote.link import install_remote

    with pytest.raises(OSError, match="cannot listen"):
        install_remote(window, "203.0.113.77", 0, token_file=False)  # not this machine's
    QtCore.QCoreApplication.processEvents()


def test_remote_program_goes_through_the_teach_pendant(qtbot, window, remote, tmp_path):
    from robogui.io.samples import demo_files
    from robogui.session.teach.program_file import load_program

    program_path, _ = demo_files()
    replies: list = []
    shot = tmp_path / "window.png"
    thread = run_client(remote.url, [{"op": "hello", "token": "tok", "id": 0},
                                     {"op": "load_program", "path": str(program_path), "id": 1},
                                     {"op": "set_time", "t": 1.0, "id": 2},
                                     {"op": "screenshot", "what": "window", "path": str(shot),
                                      "id": 3}], replies)
    finish(qtbot, thread)
    assert all(r["ok"] for r in replies), replies
    state = window.teach.state
    assert state.program == load_program(program_path) and state.path == program_path
    session = window.session
    assert session.trajectory is state.compiled.trajectory and session.time == 1.0
    np.testing.assert_allclose(session.q, session.q_at(1.0))
    from PySide6 import QtGui

    image = QtGui.QImage(str(shot))
    assert (image.width(), image.height()) == (window.width(), window.height())


def test_viewer_connects_to_a_running_app_by_port_and_token(qtbot, window, remote):
    from robogui.viewer import Viewer

    seen: list = []
    out: dict = {}
    stream = [[0.01 * k] * 6 for k in range(1, 31)]

    def script():  # a notebook's thread: the window's thread keeps running meanwhile
        with Viewer(port=remote.server.port, token="tok") as viewer:
            viewer.on("q", seen.append)
            for q in stream:
                viewer.stream(q)
            out["q"] = viewer.q.tolist()
            out["error"] = viewer.last_error
            assert viewer.process is None  # it started no app
    thread = threading.Thread(target=script)
    thread.start()
    finish(qtbot, thread)
    assert out["q"] == stream[-1] and out["error"] is None
    assert remote.live.following
    qtbot.waitUntil(lambda: seen and seen[-1]["q"] == stream[-1], timeout=10000)


def test_samples_waiting_for_a_busy_gui_thread_are_bounded(qtbot, window, remote, monkeypatch):
    from robogui.app.remote import server

    monkeypatch.setattr(server, "MAX_WAITING_SAMPLES", 5)
    remote.live.set_follow(True)
    stream = [[0.05 * k] * 6 for k in range(1, 11)]
    errors: list = []

    def work():
        with connect(remote.url) as ws:
            ws.send(json.dumps({"op": "hello", "token": "tok", "id": 0}))
            json.loads(ws.recv(30))
            for q in stream:
                ws.send(json.dumps({"op": "stream_q", "q": q}))
            while len(errors) < 5:
                errors.append(json.loads(ws.recv(30)))
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)  # the GUI thread is busy (here: waiting), the samples pile up
    assert not thread.is_alive()
    assert {e["error"]["code"] for e in errors} == {"failed"}
    assert "the app is behind" in errors[0]["error"]["message"]
    qtbot.waitUntil(lambda: window.session.q.tolist() == stream[4], timeout=10000)


def test_the_q_event_leaves_before_the_panels_update(qtbot, window, monkeypatch, request):
    import types

    order = []
    # a listener connected before the server, as the window's panels are
    window.session.events.q.connect(lambda q: order.append("panel"))
    remote = request.getfixturevalue("remote")
    client = types.SimpleNamespace(connection=types.SimpleNamespace(events={"q"},
                                                                    authenticated=True))
    monkeypatch.setattr(remote.server, "clients", [client])  # a subscriber to tell
    monkeypatch.setattr(remote.server, "_send",
                        lambda client, message, **k: order.append(message["event"]))
    window.session.set_q([0.2] * 6)
    assert order == ["q", "panel"]


def test_while_following_the_readouts_update_once_per_frame_and_end_on_the_last_sample(
        qtbot, window, remote):
    from robogui.app.bindings import FRAME_PACER
    from robogui.engine.kinematics.kinematics import fkine

    panel = window.pose_panel
    calls = []
    original = panel.update_pose
    panel.update_pose = lambda: (calls.append(1), original())[1]
    remote.menu.follow_action.trigger()  # Live > Follow live joint states
    assert FRAME_PACER.active
    stream = [np.full(6, 0.004 * k) for k in range(1, 201)]
    replies: list = []
    thread = run_client(remote.url, [{"op": "hello", "token": "tok", "id": 0},
                                     *({"op": "stream_q", "q": q.tolist()} for q in stream),
                                     {"op": "get_q", "id": 1}], replies)
    finish(qtbot, thread)
    assert replies[1]["result"]["q"] == stream[-1].tolist()
    # the joint rows and the pose panel show the last sample within a frame or two
    T = fkine(window.session.robot, stream[-1])
    from robogui.session.explain import readout

    assert window.session.display.length_unit == "mm"
    x_mm = readout.fmt(T[0, 3] * 1000, readout.decimals("mm"))
    qtbot.waitUntil(lambda: panel.pos_labels[0].text() == x_mm, timeout=5000)
    spin = window.findChildren(QtWidgets.QDoubleSpinBox)
    assert any(abs(s.value() - np.degrees(0.8)) < 1e-3 for s in spin)
    assert 0 < len(calls) < len(stream)  # paced: fewer readout updates than samples
    remote.menu.follow_action.trigger()  # Follow off: no more pacing
    assert not FRAME_PACER.active
    calls.clear()
    window.session.set_q(np.zeros(6))
    assert calls == [1]  # at once again


def test_the_frame_pacer_runs_the_newest_value_once_and_flushes_on_release(qtbot):
    from robogui.app.bindings import FramePacer

    pacer, seen = FramePacer(), []
    pacer.call(seen.append, 1)
    assert seen == [1]  # not held: at once
    pacer.hold("a", True)
    pacer.hold("b", True)
    for v in (2, 3, 4):
        pacer.call(seen.append, v)
    assert seen == [1]
    qtbot.waitUntil(lambda: seen == [1, 4], timeout=2000)  # one call, the newest value
    pacer.call(seen.append, 5)
    pacer.hold("a", False)
    assert seen == [1, 4]  # still held by b
    pacer.hold("b", False)
    assert seen == [1, 4, 5]  # the last hold released: what waited runs at once


def test_followed_frames_are_single_sampled_however_far_apart_then_one_settled_frame(
        qtbot, window, remote):
    scene = window.view.scene
    qtbot.waitUntil(lambda: bool(scene.renderer), timeout=10_000)  # known at its first paint
    if not scene.software:
        pytest.skip("hardware GL multisamples every frame")

    def frame_long_after_the_last(q):
        # as if the previous frame were long ago (a slow or loaded stream), without
        # waiting: the settle timer must not slip a frame in between
        scene._settle.stop()
        scene._last_paint = -1e9
        with qtbot.waitSignal(window.view.frameSwapped, timeout=5000):
            remote.live.feed(q) if remote.live.following else window.session.set_q(q)
        return scene.last_frame_multisampled

    remote.menu.follow_action.trigger()  # Live > Follow live joint states
    assert scene.streaming
    assert not frame_long_after_the_last(np.full(6, 0.1))
    assert not frame_long_after_the_last(np.full(6, 0.2))
    # once the stream rests, one multisampled frame replaces the last
    qtbot.waitUntil(lambda: scene.last_frame_multisampled, timeout=5000)
    remote.menu.follow_action.trigger()
    assert not scene.streaming
    assert frame_long_after_the_last(np.full(6, 0.3))  # an isolated change: multisampled
