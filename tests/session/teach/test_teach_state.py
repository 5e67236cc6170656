"""TeachState ghosts: their frames are computed in the session layer, once per change."""

import numpy as np
import pytest

from robogui.engine.kinematics import kinematics
from robogui.engine.spatial.transforms import transl
from robogui.io.robotfile import load_robot
from robogui.session import Session
from robogui.session.teach.teach import Ghost, TeachState


@pytest.fixture
def state():
    return TeachState(Session(load_robot("puma560")))


def test_ghost_frames_are_fkine_all_of_each_ghost_once_per_change(state, monkeypatch):
    robot = state.session.robot
    qs = [robot.pose("qz"), robot.pose("qn")]
    state.set_ghosts([Ghost(qs[0], "candidate"), Ghost(qs[1], "selected")])
    calls = []
    real = kinematics.fkine_all
    import robogui.session.teach.teach as teach

    monkeypatch.setattr(teach, "fkine_all", lambda r, q: calls.append(1) or real(r, q))
    F = state.ghost_frames
    assert F.shape == (2, 7, 4, 4) and state.ghost_frames is F and len(calls) == 1
    np.testing.assert_allclose(F, real(robot, np.stack(qs)), atol=1e-15)
    # a new tool moves the last frame of every ghost
    state.session.set_tool(transl(0, 0, 0.2))
    F2 = state.ghost_frames
    assert len(calls) == 2
    np.testing.assert_allclose(F2[:, -1, :3, 3] - F[:, -1, :3, 3], 0.2 * F[:, -1, :3, 2],
                               atol=1e-12)
    state.set_ghosts([])
    assert state.ghost_frames.shape == (0, 7, 4, 4)
