"""The remote API without a window: every malformed request is answered with an error that
names the problem, and the session is exactly as before; valid requests do what they say."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import load_robot
from robogui.session import Session
from robogui.session.planning_scene.cell import Cell, CellObject
from robogui.session.remote_api.api import Connection, RemoteApi, handle_message
from robogui.session.remote_api.protocol import (
    ERROR_CODES,
    MAX_MESSAGE_BYTES,
    OPS,
    parse_request,
    token_matches,
)

TOKEN = "s3cret-token"


@pytest.fixture
def link():
    session = Session(load_robot("puma560"))
    api = RemoteApi(session)
    conn = Connection(TOKEN)
    answer = handle_message(conn, api, json.dumps({"op": "hello", "token": TOKEN, "id": 0}))
    assert answer["ok"], answer
    traj = Trajectory(np.array([0.0, 1.0]), np.array([np.zeros(6), np.full(6, 0.5)]))
    session.set_trajectory(traj)
    session.set_time(0.25, changing=False)
    session.set_cell(Cell(objects=(CellObject("table", "box", (1.0, 0.6, 0.02),
                                              xyz=(0.6, 0, 0.4)),)))
    return session, api, conn


def send(link, message):
    session, api, conn = link
    text = message if isinstance(message, (str, bytes)) else json.dumps(message)
    return handle_message(conn, api, text)


def state(session):
    return (session.robot, session.q.tolist(), session.trajectory, session.time,
            session.playing, session.cell)


Q7 = [0.1] * 7
MALFORMED = [
    ("not json", "{op: set_q", "bad_json", "not JSON"),
    ("empty", "", "bad_json", "not JSON"),
    ("truncated", '{"op": "set_q", "q": [1, 2', "bad_json", "not JSON"),
    ("a list", "[1, 2, 3]", "bad_request", "JSON object"),
    ("nested too deeply", "[" * 200_000 + "]" * 200_000, "bad_json", "deeply"),
    ("not UTF-8", b'{"op": "get_q", "id": "\xff"}', "bad_json", "not JSON"),
    ("no op", {"id": 1, "q": [0] * 6}, "bad_request", "op"),
    ("unknown op", {"op": "explode", "id": 1}, "unknown_op", "explode"),
    ("unknown field", {"op": "set_q", "q": [0] * 6, "speed": 3, "id": 1}, "bad_request",
     "speed"),
    ("missing field", {"op": "set_q", "id": 1}, "bad_request", "needs q"),
    ("q not a list", {"op": "set_q", "q": "0,0,0,0,0,0", "id": 1}, "bad_request", "set_q.q"),
    ("q of strings", {"op": "set_q", "q": [0, 0, "x", 0, 0, 0], "id": 1}, "bad_request",
     "set_q.q[2]"),
    ("q of bools", {"op": "set_q", "q": [True] * 6, "id": 1}, "bad_request", "set_q.q[0]"),
    ("short q", {"op": "set_q", "q": [0.1] * 5, "id": 1}, "bad_size", "6 values"),
    ("long q", {"op": "set_q", "q": Q7, "id": 1}, "bad_size", "got 7"),
    ("NaN", '{"op": "set_q", "q": [0, 0, NaN, 0, 0, 0], "id": 1}', "not_finite", "NaN"),
    ("Infinity", '{"op": "set_q", "q": [0, 0, Infinity, 0, 0, 0]}', "not_finite", "Infinity"),
    ("huge", '{"op": "set_q", "q": [0, 0, 1e300, 0, 0, 0], "id": 1}', "not_finite",
     "set_q.q[2]"),
    ("overflow", '{"op": "set_q", "q": [0, 0, 1e999, 0, 0, 0], "id": 1}', "not_finite",
     "set_q.q[2]"),
    ("stream when not following", {"op": "stream_q", "q": [0.2] * 6}, "not_following",
     "Follow"),
    ("stream wrong size", {"op": "stream_q", "q": [0.2] * 5}, "bad_size", "6 values"),
    ("bad id", {"op": "get_q", "id": [1]}, "bad_request", "id"),
    ("trajectory rows", {"op": "load_trajectory", "t": [0, 1], "q": [[0] * 6, [0] * 5],
                         "id": 1}, "bad_size", "6 values"),
    ("trajectory time", {"op": "load_trajectory", "t": [0, 1, 2], "q": [[0] * 6] * 2, "id": 1},
     "bad_size", "3 rows"),
    ("trajectory backwards", {"op": "load_trajectory", "t": [1, 0], "q": [[0] * 6] * 2, "id": 1},
     "failed", "increasing"),
    ("trajectory file missing", {"op": "load_trajectory", "path": "/nonexistent/x.csv", "id": 1},
     "failed", "x.csv"),
    ("set_time NaN", '{"op": "set_time", "t": NaN, "id": 1}', "not_finite", "NaN"),
    ("play too fast", {"op": "play", "speed": 50, "id": 1}, "bad_request", "between 0.1 and 10"),
    ("unknown robot", {"op": "open_robot", "robot": "no_such_arm", "id": 1}, "failed",
     "no_such_arm"),
    ("robot q size", {"op": "open_robot", "robot": "stanford", "q": [0] * 5, "id": 1},
     "bad_size", "6 values"),
    ("screenshot without window", {"op": "screenshot", "id": 1}, "unsupported", "screenshot"),
    ("add object: bad shape", {"op": "add_object", "name": "b", "shape": "cube",
                               "size": [1, 1, 1], "id": 1}, "bad_request", "box, cylinder"),
    ("add object: size count", {"op": "add_object", "name": "b", "shape": "cylinder",
                                "size": [0.1, 0.2, 0.3], "id": 1}, "bad_size", "[radius, length]"),
    ("add object: no size", {"op": "add_object", "name": "b", "shape": "sphere", "id": 1},
     "bad_size", "got none"),
    ("add object: negative size", {"op": "add_object", "name": "b", "shape": "sphere",
                                   "size": [-0.1], "id": 1}, "bad_request", "positive"),
    ("add object: NaN size", '{"op": "add_object", "name": "b", "shape": "sphere", '
                             '"size": [NaN], "id": 1}', "not_finite", "NaN"),
    ("add object: NaN pose", '{"op": "add_object", "name": "b", "shape": "sphere", '
                             '"size": [0.1], "xyz": [0, NaN, 0], "id": 1}', "not_finite", "NaN"),
    ("add object: taken name", {"op": "add_object", "name": "table", "shape": "sphere",
                                "size": [0.1], "id": 1}, "bad_request", "already called"),
    ("add object: bad colour", {"op": "add_object", "name": "b", "shape": "sphere",
                                "size": [0.1], "color": "red", "id": 1}, "bad_request",
     "#rrggbb"),
    ("add object: pose 3x4", {"op": "add_object", "name": "b", "shape": "sphere", "size": [0.1],
                              "pose": np.eye(4)[:3].tolist(), "id": 1}, "bad_size", "4x4"),
    ("add object: pose not rigid", {"op": "add_object", "name": "b", "shape": "sphere",
                                    "size": [0.1], "pose": (2 * np.eye(4)).tolist(), "id": 1},
     "bad_request", "rigid"),
    ("add object: pose and xyz", {"op": "add_object", "name": "b", "shape": "sphere",
                                  "size": [0.1], "pose": np.eye(4).tolist(), "xyz": [0, 0, 0],
                                  "id": 1}, "bad_request", "not both"),
    ("add object: mesh file missing", {"op": "add_object", "name": "m", "shape": "mesh",
                                       "file": "/nonexistent/part.stl", "id": 1}, "failed",
     "part.stl"),
    ("add object: file for a box", {"op": "add_object", "name": "b", "shape": "box",
                                    "size": [1, 1, 1], "file": "/tmp/x.stl", "id": 1},
     "bad_request", "only a mesh"),
    ("move object: unknown name", {"op": "move_object", "name": "chair", "xyz": [0, 0, 1],
                                   "id": 1}, "unknown_object", "objects: table"),
    ("move object: no pose", {"op": "move_object", "name": "table", "id": 1}, "bad_request",
     "needs pose"),
    ("move object: xyz of 2", {"op": "move_object", "name": "table", "xyz": [0, 1], "id": 1},
     "bad_size", "3 numbers"),
    ("move object: beyond bounds", {"op": "move_object", "name": "table", "xyz": [0, 0, 1e8],
                                    "id": 1}, "bad_request", "xyz"),
    ("move object: pose rows", {"op": "move_object", "name": "table", "pose": [[1, 0, 0]],
                                "id": 1}, "bad_size", "4x4"),
    ("remove object: unknown", {"op": "remove_object", "name": "chair", "id": 1},
     "unknown_object", "chair"),
    ("open cell: missing file", {"op": "open_cell", "path": "/nonexistent/a.cell", "id": 1},
     "failed", "a.cell"),
    ("record without follow", {"op": "record", "on": True, "id": 1}, "not_following", "follow"),
    ("nothing recorded", {"op": "save_recording", "path": "/tmp/never.csv", "id": 1}, "failed",
     "nothing was recorded"),
    ("subscribe unknown", {"op": "subscribe", "events": ["frames"], "id": 1}, "bad_request",
     "frames"),
    ("program text", {"op": "load_program", "text": "this is [not a program", "id": 1}, "failed",
     ""),
]


@pytest.mark.parametrize("message, code, words", [m[1:] for m in MALFORMED],
                         ids=[m[0] for m in MALFORMED])
def test_malformed_request_answers_with_its_error_and_changes_nothing(link, message, code,
                                                                      words):
    session = link[0]
    before = state(session)
    answer = send(link, message)
    assert answer is not None and answer["ok"] is False, answer
    assert answer["error"]["code"] == code, answer
    assert words in answer["error"]["message"]
    assert code in ERROR_CODES
    assert state(session) == before


def test_an_oversized_message_is_refused_unread(link):
    session = link[0]
    before = state(session)
    big = json.dumps({"op": "set_q", "q": [0.0] * 6, "id": 1, "pad": "x" * MAX_MESSAGE_BYTES})
    answer = send(link, big)
    assert answer["error"]["code"] == "too_large"
    assert f"{len(big)} bytes" in answer["error"]["message"]
    assert state(session) == before


def test_the_error_reply_names_the_request_id(link):
    assert send(link, {"op": "set_q", "q": [1] * 3, "id": "abc"})["id"] == "abc"
    assert send(link, {"op": "nope", "id": 9})["id"] == 9


def test_a_wrong_token_is_refused_and_nothing_else_is_accepted_before_hello():
    session = Session(load_robot("puma560"))
    api, conn = RemoteApi(session), Connection(TOKEN)
    before = state(session)
    answer = handle_message(conn, api, json.dumps({"op": "set_q", "q": [0.3] * 6, "id": 1}))
    assert answer["error"]["code"] == "unauthorized" and "hello" in answer["error"]["message"]
    answer = handle_message(conn, api, json.dumps({"op": "hello", "token": "guess", "id": 2}))
    assert answer["error"]["code"] == "unauthorized" and "wrong token" in \
        answer["error"]["message"]
    answer = handle_message(conn, api, json.dumps({"op": "set_q", "q": [0.3] * 6, "id": 3}))
    assert answer["error"]["code"] == "unauthorized"
    assert state(session) == before
    assert not token_matches("s3cret-tokeN", TOKEN) and token_matches(TOKEN, TOKEN)


def test_every_op_is_documented():
    from pathlib import Path

    doc = (Path(__file__).parents[3] / "docs" / "remote-api.md").read_text()
    for op in OPS:
        assert f"`{op}`" in doc, op
    for code in ERROR_CODES:
        assert f"`{code}`" in doc, code


def test_set_q_and_get_pose_agree_with_forward_kinematics(link):
    session = link[0]
    q = [0.1, -0.4, 0.3, 0.2, -0.5, 0.6]
    answer = send(link, {"op": "set_q", "q": q, "id": 1})
    assert answer["ok"] and answer["result"]["q"] == q
    assert send(link, {"op": "get_q", "id": 2})["result"]["q"] == q
    pose = send(link, {"op": "get_pose", "id": 3})["result"]
    T = fkine(session.robot, np.array(q))
    np.testing.assert_allclose(pose["T"], T, atol=1e-12)
    np.testing.assert_allclose(pose["position"], T[:3, 3], atol=1e-12)
    # scalar-first unit quaternion of the same rotation
    s, v = pose["quaternion"][0], np.array(pose["quaternion"][1:])
    R = (s * s - v @ v) * np.eye(3) + 2 * np.outer(v, v) + 2 * s * np.array(
        [[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    np.testing.assert_allclose(R, T[:3, :3], atol=1e-12)


def test_a_request_without_id_is_not_answered_when_it_succeeds(link):
    assert send(link, {"op": "set_q", "q": [0.2] * 6}) is None
    assert link[0].q.tolist() == [0.2] * 6


def test_trajectory_play_and_playhead(link):
    session = link[0]
    t = [0.0, 0.5, 1.0, 2.0]
    q = [[0.0] * 6, [0.1] * 6, [0.2] * 6, [0.4] * 6]
    answer = send(link, {"op": "load_trajectory", "t": t, "q": q, "id": 1})
    assert answer["result"] == {"samples": 4, "start": 0.0, "end": 2.0}
    answer = send(link, {"op": "set_time", "t": 1.5, "id": 2})
    assert answer["result"]["t"] == 1.5
    np.testing.assert_allclose(session.q, 0.3, atol=1e-12)  # halfway between 0.2 and 0.4
    answer = send(link, {"op": "play", "speed": 2.0, "id": 3})
    assert answer["result"]["playing"] is True and session.playback.speed == 2.0
    session.advance(0.1)  # the app's timer: 0.1 s of wall clock at speed 2
    assert session.time == pytest.approx(1.7)
    assert send(link, {"op": "pause", "id": 4})["result"]["playing"] is False
    assert send(link, {"op": "stop", "id": 5})["result"]["time"] == 0.0


def test_load_trajectory_and_program_from_files(link, tmp_path):
    session = link[0]
    path = tmp_path / "move.csv"
    Trajectory(np.array([0.0, 1.0]), np.array([[0.0] * 6, [0.3] * 6])).to_csv(path)
    answer = send(link, {"op": "load_trajectory", "path": str(path), "id": 1})
    assert answer["ok"] and answer["result"]["samples"] == 2
    from robogui.io.samples import demo_files

    program, _ = demo_files()
    answer = send(link, {"op": "load_program", "path": str(program), "id": 2})
    assert answer["ok"], answer
    assert session.time_range == (answer["result"]["start"], answer["result"]["end"])


def test_open_robot_by_library_name(link):
    session = link[0]
    answer = send(link, {"op": "open_robot", "robot": "stanford", "q": [0.1] * 6, "id": 1})
    assert answer["ok"], answer
    assert session.robot == load_robot("stanford") and session.q.tolist() == [0.1] * 6


def test_events_are_what_the_connection_subscribed(link):
    from robogui.session.remote_api.api import event_for

    session, api, conn = link
    assert send(link, {"op": "subscribe", "events": ["q", "time"], "id": 1})["ok"]
    assert conn.events == {"q", "time"}
    assert event_for("q", np.array([1.0, 2.0]), session) == {"event": "q", "q": [1.0, 2.0]}
    assert event_for("time", 0.5, session) == {"event": "time", "t": 0.5}
    robot_event = event_for("robot", session.robot, session)
    assert robot_event["name"] == "Puma 560" and robot_event["n"] == 6


def test_screenshot_through_the_hook(link, tmp_path):
    session, _, conn = link
    calls = []
    api = RemoteApi(session, screenshot=lambda path, what: calls.append((path, what)) or b"PNG")
    answer = handle_message(conn, api, json.dumps({"op": "screenshot", "id": 1}))
    assert base64.b64decode(answer["result"]["png"]) == b"PNG" and calls == [(None, "view")]


def test_parse_request_keeps_the_fields_as_floats():
    request = parse_request('{"op": "stream_q", "q": [1, 2.5], "t": 3}')
    assert request.op == "stream_q" and request.id is None
    assert request.fields == {"q": [1.0, 2.5], "t": 3.0}
