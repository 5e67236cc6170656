"""Work-cell requests over a real WebSocket connection to the window's server: a client on
its own thread opens a cell file, adds, moves and removes objects; subscribers get a cell
event per change; each change is one undo step; refused requests change nothing."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest
from websockets.sync.client import connect

DEMO_CELL = Path(__file__).parents[3] / "assets" / "cells" / "pick-and-place.cell"


@pytest.fixture
def remote(window, tmp_path):
    from robogui.app.remote.link import install_remote

    link = install_remote(window, "127.0.0.1", 0, token="tok", token_file=False)
    yield link
    link.close()


def converse(qtbot, url, messages, events=("cell",)):
    """Send ``messages`` (each with an id) from a client thread; (replies, cell events)."""
    replies, seen = [], []

    def work():
        with connect(url) as ws:
            ws.send(json.dumps({"op": "hello", "token": "tok", "events": list(events),
                                "id": 0}))
            assert json.loads(ws.recv(30))["ok"]
            for message in messages:
                ws.send(json.dumps(message))
                while True:  # events may come before the reply
                    answer = json.loads(ws.recv(30))
                    if "event" in answer:
                        seen.append(answer)
                        continue
                    replies.append(answer)
                    break
    thread = threading.Thread(target=work)
    thread.start()
    qtbot.waitUntil(lambda: not thread.is_alive(), timeout=30000)
    return replies, seen


def test_open_add_move_remove_over_the_wire_each_one_undo_step(qtbot, window, remote):
    session = window.session
    assert session.cell is None
    T = np.eye(4)
    T[:3, 3] = [0.3, -0.4, 0.5]
    replies, seen = converse(qtbot, remote.url, [
        {"op": "open_cell", "path": str(DEMO_CELL), "id": 1},
        {"op": "add_object", "name": "fixture", "shape": "cylinder", "size": [0.05, 0.2],
         "xyz": [0.7, 0.0, 0.5], "color": "#aa00ff", "id": 2},
        {"op": "move_object", "name": "fixture", "pose": T.tolist(), "id": 3},
        {"op": "remove_object", "name": "part", "id": 4},
        {"op": "get_cell", "id": 5},
    ])
    assert all(r["ok"] for r in replies), replies
    cell = session.cell
    assert cell.name == "pick and place" and "part" not in cell.names
    np.testing.assert_allclose(cell.object("fixture").T, T, atol=1e-15)
    assert cell.object("fixture").color == "#aa00ff"
    assert [o["name"] for o in replies[-1]["result"]["objects"]] == list(cell.names)
    # one cell event per change, each carrying the whole cell
    assert [len(e["objects"]) for e in seen] == [12, 13, 13, 12]
    assert seen[2]["objects"][-1]["xyz"] == [0.3, -0.4, 0.5]
    # each request is one undo step, named after it
    stack = window.undo.stack
    assert stack.text(stack.index() - 1) == "Remote: remove part"
    stack.undo()
    assert "part" in session.cell.names
    stack.undo()
    assert session.cell.object("fixture").xyz == (0.7, 0.0, 0.5)
    stack.undo()
    assert "fixture" not in session.cell.names
    stack.undo()
    assert session.cell is None
    stack.redo()
    assert session.cell.name == "pick and place"


def test_refused_cell_requests_over_the_wire_change_nothing(qtbot, window, remote):
    session = window.session
    replies, _ = converse(qtbot, remote.url, [
        {"op": "add_object", "name": "box", "shape": "box", "size": [0.2] * 3, "id": 1}])
    assert replies[0]["ok"]
    before, steps = session.cell, window.undo.stack.count()
    replies, seen = converse(qtbot, remote.url, [
        {"op": "add_object", "name": "b", "shape": "pyramid", "size": [1], "id": 2},
        {"op": "add_object", "name": "b", "shape": "box", "size": [1, 2], "id": 3},
        {"op": "move_object", "name": "nothing", "xyz": [0, 0, 0], "id": 4},
        {"op": "remove_object", "name": "nothing", "id": 5},
        {"op": "open_cell", "path": str(DEMO_CELL.with_name("missing.cell")), "id": 6},
    ])
    assert [r["error"]["code"] for r in replies] == ["bad_request", "bad_size",
                                                     "unknown_object", "unknown_object",
                                                     "failed"]
    assert session.cell is before and window.undo.stack.count() == steps and seen == []
