"""The live link: Follow takes streamed joint vectors, Record keeps them as a trajectory CSV
that reads back equal, and Follow's end is one complete change."""

from __future__ import annotations

import json

import numpy as np
import pytest

from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import load_robot
from robogui.session import Session
from robogui.session.remote_api.api import Connection, RemoteApi, handle_message
from robogui.session.remote_api.live import LiveLink


def test_follow_record_and_save_a_stream(tmp_path):
    session = Session(load_robot("puma560"))
    live = LiveLink(session)
    changed = []
    session.events.changed.connect(changed.append)
    with pytest.raises(RuntimeError, match="Follow"):
        live.feed(np.zeros(6))
    live.set_follow(True)
    live.set_record(True)
    t = np.arange(50) * 0.004  # 250 Hz
    q = np.column_stack([np.sin(t * k) for k in range(1, 7)])
    for ti, qi in zip(t, q, strict=True):
        live.feed(qi, 10.0 + ti)  # the sender's clock: only differences count
    live.feed(q[-1], 10.0 + t[-1])  # a repeated time stamp is not a new sample
    np.testing.assert_array_equal(session.q, q[-1])
    assert changed == [] and session.is_changing  # a stream is one change in progress
    with pytest.raises(ValueError):
        live.feed(np.zeros(5))
    path = live.save_csv(tmp_path / "rec.csv")
    back = Trajectory.from_csv(path, n=6)
    np.testing.assert_allclose(back.t, t, atol=1e-12)
    np.testing.assert_array_equal(back.q, q)
    live.set_follow(False)
    assert len(changed) == 1 and not live.recording


def test_stream_q_over_the_protocol_follows_and_records(tmp_path):
    session = Session(load_robot("puma560"))
    api, conn = RemoteApi(session), Connection("t")
    send = lambda m: handle_message(conn, api, json.dumps(m))  # noqa: E731
    assert send({"op": "hello", "token": "t", "id": 0})["ok"]
    assert send({"op": "follow", "on": True, "id": 1})["result"]["following"]
    assert send({"op": "record", "on": True, "id": 2})["result"]["recording"]
    for k in range(10):
        assert send({"op": "stream_q", "q": [0.01 * k] * 6, "t": 0.1 * k}) is None
    answer = send({"op": "save_recording", "path": str(tmp_path / "r.csv"), "id": 3})
    assert answer["result"]["samples"] == 10
    back = Trajectory.from_csv(tmp_path / "r.csv", n=6)
    np.testing.assert_allclose(back.q[:, 0], 0.01 * np.arange(10))
