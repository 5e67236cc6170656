"""The remote API's work-cell requests without a window: open a cell file, add, move and
remove objects; each change fires the session's cell event once and reaches subscribers as
a ``cell`` event; poses given as 4x4 transforms land where they say."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from robogui.io.robotfile import load_robot
from robogui.session import Session
from robogui.session.remote_api.api import Connection, RemoteApi, event_for, handle_message

ROOT = Path(__file__).parents[3]
DEMO_CELL = ROOT / "assets" / "cells" / "pick-and-place.cell"


@pytest.fixture
def link():
    session = Session(load_robot("puma560"))
    api = RemoteApi(session)
    conn = Connection("t")
    assert handle_message(conn, api, json.dumps({"op": "hello", "token": "t", "id": 0}))["ok"]
    return session, api, conn


def send(link, **message):
    _, api, conn = link
    return handle_message(conn, api, json.dumps({"id": 1, **message}))


def test_add_object_from_a_4x4_pose_lands_at_that_pose(link):
    session, _, _ = link
    assert session.cell is None
    seen = []
    session.events.cell.connect(seen.append)
    T = np.eye(4)
    # an independent rotation (scipy, intrinsic z-y-x = roll-pitch-yaw about fixed axes)
    T[:3, :3] = Rotation.from_euler("ZYX", [0.7, -0.3, 0.2]).as_matrix()
    T[:3, 3] = [0.4, -0.2, 0.9]
    answer = send(link, op="add_object", name="crate", shape="box", size=[0.3, 0.2, 0.1],
                  pose=T.tolist(), color="#ff8800", collides=False)
    assert answer["ok"], answer
    obj = session.cell.object("crate")
    np.testing.assert_allclose(obj.T, T, atol=1e-12)
    np.testing.assert_allclose(obj.rpy, [0.2, -0.3, 0.7], atol=1e-12)  # roll, pitch, yaw
    assert (obj.size, obj.color, obj.collides) == ((0.3, 0.2, 0.1), "#ff8800", False)
    assert len(seen) == 1 and seen[0] is session.cell
    assert answer["result"]["objects"] == [
        {"name": "crate", "shape": "box", "size": [0.3, 0.2, 0.1], "xyz": [0.4, -0.2, 0.9],
         "rpy": list(obj.rpy), "color": "#ff8800", "collides": False}]


def test_move_then_remove_an_object_of_an_opened_cell_file(link):
    session, _, _ = link
    answer = send(link, op="open_cell", path=str(DEMO_CELL))
    assert answer["ok"], answer
    assert answer["result"]["name"] == "pick and place" and answer["result"]["robot"] == "puma560"
    assert len(session.cell.objects) == 12
    part = session.cell.object("part")
    assert part.size == (0.025, 0.07) and part.xyz == pytest.approx((0.5, 0.3, 0.445))
    # xyz only: the orientation is kept
    assert send(link, op="move_object", name="part", xyz=[0.5, -0.3, 0.445])["ok"]
    assert session.cell.object("part").xyz == (0.5, -0.3, 0.445)
    assert session.cell.object("part").rpy == (0.0, 0.0, 0.0)
    # rpy only: the position is kept
    assert send(link, op="move_object", name="part", rpy=[0, 0, np.pi / 2])["ok"]
    assert session.cell.object("part").xyz == (0.5, -0.3, 0.445)
    np.testing.assert_allclose(session.cell.object("part").T[:3, 0], [0, 1, 0], atol=1e-15)
    other = session.cell.object("table")
    assert send(link, op="remove_object", name="part")["ok"]
    assert "part" not in session.cell.names and len(session.cell.objects) == 11
    assert session.cell.object("table") == other  # the others untouched
    assert send(link, op="get_cell")["result"]["objects"][0]["name"] == "table"


def test_a_mesh_object_from_a_file_on_the_app_machine(link):
    session, _, _ = link
    cube = ROOT / "tests" / "data" / "bad" / "hostile" / "meshes" / "cube.stl"
    answer = send(link, op="add_object", name="bracket", shape="mesh", file=str(cube),
                  scale=[0.001], xyz=[0.2, 0, 0.5])
    assert answer["ok"], answer
    obj = session.cell.object("bracket")
    assert obj.file == str(cube.resolve()) and obj.scale == (0.001, 0.001, 0.001)
    vertices = obj.mesh[0]
    import trimesh

    raw = trimesh.load(cube, force="mesh")
    np.testing.assert_allclose(np.ptp(vertices, axis=0), np.ptp(raw.vertices, axis=0) * 1e-3,
                               rtol=1e-9)


def test_the_cell_event_carries_the_objects_and_a_subscriber_asks_for_it(link):
    session, _, conn = link
    assert send(link, op="subscribe", events=["cell", "q"])["result"]["events"] == ["cell", "q"]
    send(link, op="add_object", name="ball", shape="sphere", size=[0.05], xyz=[0.3, 0.3, 0.3])
    message = event_for("cell", session.cell, session)
    assert message["event"] == "cell" and message["objects"][0]["name"] == "ball"
    assert message["objects"][0]["size"] == [0.05]
    assert event_for("cell", None, session) == {"event": "cell", "name": "", "robot": "",
                                                "objects": []}


def test_a_refused_cell_change_in_a_listener_puts_the_previous_cell_back(link):
    session, _, _ = link
    send(link, op="add_object", name="ball", shape="sphere", size=[0.05])
    before = session.cell

    def broken(cell):
        if cell is not None and "bad" in cell.names:
            raise RuntimeError("the view could not draw it")
    session.events.cell.connect(broken)
    answer = send(link, op="add_object", name="bad", shape="sphere", size=[0.05])
    assert answer["ok"] is False and answer["error"]["code"] == "failed"
    assert "previous one is back" in answer["error"]["message"]
    assert session.cell is before
