"""Two real processes: ``python -m robogui --listen`` under Xvfb, and a client.

The client streams 2,000 joint vectors at 500 Hz and the app's q ends equal to the last;
malformed requests are answered over the wire with their error and change nothing; the
app bound to loopback cannot be reached through the machine's other address, and one
started with that address can; ``robogui.Viewer()`` starts its own app and drives it.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import struct
import subprocess
import sys
import time

import numpy as np
import pytest
from websockets.sync.client import connect

import robogui
from robogui.engine.kinematics.kinematics import fkine
from robogui.io.robotfile import load_robot

SRC = os.path.dirname(os.path.dirname(robogui.__file__))  # the tree under test


def _env(tmp_path, **extra):
    path = os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_RUNTIME_DIR": str(tmp_path / "run"), "PYTHONPATH": path, **extra}


class App:
    """``python -m robogui --listen ADDRESS:0`` in a child process; its runtime file read."""

    def __init__(self, tmp_path, address="127.0.0.1"):
        self.runtime = tmp_path / f"runtime-{address}.json"
        self.log = open(tmp_path / f"app-{address}.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "robogui", "--listen", f"{address}:0", "--token-file",
             str(self.runtime), "--no-restore", "--size", "800x600"],
            env=_env(tmp_path), cwd=tmp_path, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while not self.runtime.exists():
            assert self.proc.poll() is None, (tmp_path / f"app-{address}.log").read_text()
            assert time.monotonic() < deadline, "the app did not start listening"
            time.sleep(0.1)
        self.info = json.loads(self.runtime.read_text())

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    a = App(tmp_path_factory.mktemp("remote"))
    yield a
    a.close()


def hello(ws, token):
    ws.send(json.dumps({"op": "hello", "token": token, "id": 0}))
    return json.loads(ws.recv(30))


def call(ws, **message):
    ws.send(json.dumps(message))
    return json.loads(ws.recv(30))


def test_runtime_file_is_readable_by_the_user_only(app):
    assert app.runtime.stat().st_mode & 0o777 == 0o600
    assert app.info["host"] == "127.0.0.1" and len(app.info["token"]) >= 32
    assert app.info["pid"] == app.proc.pid


def test_streaming_2000_vectors_at_500_hz_the_app_follows_to_the_last(app):
    robot = load_robot("puma560")
    rng = np.random.default_rng(26)
    qs = robot.clip_q(rng.uniform(-2, 2, size=(2000, 6)))
    with connect(app.info["url"]) as ws:
        assert hello(ws, app.info["token"])["ok"]
        assert call(ws, op="follow", on=True, id=1)["result"]["following"]
        start = time.perf_counter()
        for k, q in enumerate(qs):
            ws.send(json.dumps({"op": "stream_q", "q": q.tolist()}))
            # pace at 500 Hz against the clock (sleeping the remainder of each 2 ms slot)
            wait = start + (k + 1) / 500 - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
        answer = call(ws, op="get_q", id=2)
        assert answer["result"]["q"] == qs[-1].tolist()  # exact: JSON keeps every digit
        pose = call(ws, op="get_pose", id=3)["result"]
        np.testing.assert_allclose(pose["T"], fkine(robot, qs[-1]), atol=1e-12)
        assert call(ws, op="follow", on=False, id=4)["result"]["q"] == qs[-1].tolist()


def test_malformed_requests_over_the_wire_leave_the_app_as_it_was(app):
    with connect(app.info["url"], max_size=None) as ws:
        answer = call(ws, op="set_q", q=[0.0] * 6, id=1)
        assert answer["error"]["code"] == "unauthorized"
        answer = call(ws, op="hello", token="not-the-token", id=2)
        assert answer["error"]["code"] == "unauthorized"
        assert hello(ws, app.info["token"])["ok"]
        before = call(ws, op="get_state", id=3)["result"]
        cell_before = call(ws, op="get_cell", id=3)["result"]
        for text, code in [
            ("{not json", "bad_json"),
            ('{"op": "set_q", "q": [0, 0, NaN, 0, 0, 0], "id": 4}', "not_finite"),
            ('{"op": "set_q", "q": [0, 0, 0], "id": 5}', "bad_size"),
            ('{"op": "launch", "id": 6}', "unknown_op"),
            ('{"op": "add_object", "name": "t", "shape": "box", "id": 7}', "bad_size"),
            ('{"op": "add_object", "name": "t", "shape": "cone", "size": [1], "id": 7}',
             "bad_request"),
            ('{"op": "move_object", "name": "t", "xyz": [0, 0, 1], "id": 7}', "unknown_object"),
            (json.dumps({"op": "set_q", "q": [0.0] * 6, "pad": "x" * (1 << 20)}), "too_large"),
        ]:
            ws.send(text)
            answer = json.loads(ws.recv(30))
            assert answer["ok"] is False and answer["error"]["code"] == code, (text[:60], answer)
            assert answer["error"]["message"]
        assert call(ws, op="get_state", id=8)["result"] == before
        assert call(ws, op="get_cell", id=9)["result"] == cell_before


def test_screenshot_of_the_view_is_a_png(app):
    import base64

    with connect(app.info["url"], max_size=None) as ws:
        assert hello(ws, app.info["token"])["ok"]
        png = base64.b64decode(call(ws, op="screenshot", id=1)["result"]["png"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width > 100 and height > 100


def non_loopback_address() -> str | None:
    """The first IPv4 address of a non-loopback interface (Linux SIOCGIFADDR), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # an interface without an IPv4 address
            address = socket.inet_ntoa(raw[20:24])
            if not address.startswith("127."):
                return address
    return None


def test_the_loopback_server_refuses_a_non_loopback_address_unless_started_with_it(
        app, tmp_path):
    address = non_loopback_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to connect from")
    # connecting to the machine's own eth0 address makes the peer that address (not 127.x)
    with pytest.raises(OSError):
        with connect(f"ws://{address}:{app.info['port']}", open_timeout=10):
            pass
    other = App(tmp_path, address)  # started with that address: reachable through it
    try:
        assert other.info["host"] == address
        with connect(other.info["url"], open_timeout=10) as ws:
            assert hello(ws, other.info["token"])["ok"]
            assert call(ws, op="get_q", id=1)["ok"]
    finally:
        other.close()
    assert other.proc.returncode == 0  # SIGTERM closed the window as File > Quit does
    assert not other.runtime.exists()  # and removed the token's runtime file


def test_viewer_starts_its_app_and_drives_it(tmp_path, monkeypatch):
    for key, value in _env(tmp_path).items():
        monkeypatch.setenv(key, value)
    from robogui import Viewer, jtraj

    with Viewer("stanford", app_args=("--no-restore", "--size", "800x600")) as viewer:
        assert viewer.robot == "Stanford arm"
        viewer.q = [0.1, 0.2, 0.3, 0.0, 0.5, 0.6]
        assert viewer.q.tolist() == [0.1, 0.2, 0.3, 0.0, 0.5, 0.6]
        np.testing.assert_allclose(viewer.pose, fkine(load_robot("stanford"), viewer.q),
                                   atol=1e-12)
        with pytest.raises(robogui.viewer.ViewerError, match="bad_size"):
            viewer.q = [0.0] * 5
        traj = jtraj(viewer.q, np.zeros(6), 30)
        assert viewer.play(traj)["playing"] is True
        viewer.set_time(0.5)
        np.testing.assert_allclose(viewer.q, traj.q[np.searchsorted(traj.t, 0.5)], atol=0.05)
        shot = viewer.screenshot(tmp_path / "shot.png")
        assert (tmp_path / "shot.png").read_bytes()[:4] == b"\x89PNG" and shot.size[0] > 100
        viewer.robot = "puma560"
        assert viewer.state["n"] == 6 and viewer.robot == "Puma 560"
        T = np.eye(4)
        T[:3, 3] = [0.5, 0.1, 0.3]
        viewer.add_object("ball", "sphere", [0.05], pose=T, color="#ff0000")
        viewer.move_object("ball", xyz=[0.5, -0.1, 0.3])
        with pytest.raises(robogui.viewer.ViewerError, match="unknown_object"):
            viewer.move_object("cube", xyz=[0, 0, 0])
        (ball,) = viewer.cell["objects"]
        assert (ball["name"], ball["xyz"], ball["color"]) == ("ball", [0.5, -0.1, 0.3],
                                                              "#ff0000")
        assert viewer.remove_object("ball")["objects"] == []
        process = viewer.process
    assert process.poll() is not None  # closing the Viewer closed the app it started


def test_a_message_beyond_4_mib_closes_that_connection_only(app):
    from websockets.exceptions import ConnectionClosed

    with connect(app.info["url"], max_size=None) as ws:
        assert hello(ws, app.info["token"])["ok"]
        before = call(ws, op="get_state", id=1)["result"]
        ws.send(json.dumps({"op": "set_q", "q": [0.0] * 6, "pad": "x" * (5 << 20)}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(30)
    assert closed.value.rcvd.code == 1009  # "message too big", said by the close frame
    with connect(app.info["url"]) as ws:  # the app goes on serving, as it was
        assert hello(ws, app.info["token"])["ok"]
        assert call(ws, op="get_state", id=2)["result"] == before
