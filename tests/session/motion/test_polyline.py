"""Polyline decimation for the trail and points along it (no Qt)."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.io.robotfile import load_robot
from robogui.session.motion.polyline import decimate_polyline, point_at, tool_path


def test_a_straight_dense_line_keeps_its_ends_and_spacing():
    p = np.column_stack([np.linspace(0, 1, 100_001), np.zeros(100_001), np.zeros(100_001)])
    kept, idx = decimate_polyline(p, tol=0.01)
    np.testing.assert_array_equal(kept[[0, -1]], p[[0, -1]])
    np.testing.assert_array_equal(kept, p[idx])
    gaps = np.diff(kept[:, 0])
    assert len(kept) == 101  # one per 0.01 of arc length: 0, 0.01, ..., 1
    assert gaps.min() >= 0.01 - 1e-5 and gaps.max() <= 0.01 + 1e-5


def test_a_circle_stays_within_the_tolerance_and_the_point_budget():
    s = np.linspace(0, 40 * np.pi, 1_000_000)  # 20 turns over the same circle
    p = np.column_stack([np.cos(s), np.sin(s), np.zeros_like(s)])
    kept, idx = decimate_polyline(p, max_points=5000)
    assert len(kept) <= 5000
    # chord error of a circle of radius 1 cut into pieces of arc length L: L^2 / 8
    L = np.max(np.diff(s[idx]))
    assert L ** 2 / 8 < 1e-3
    np.testing.assert_allclose(np.linalg.norm(kept[:, :2], axis=1), 1.0)


def test_short_and_degenerate_inputs():
    one = np.zeros((1, 3))
    assert decimate_polyline(one)[0].shape == (1, 3)
    still = np.zeros((50, 3))
    kept, idx = decimate_polyline(still)
    assert list(idx) == [0, 49]
    with pytest.raises(ValueError, match="shape"):
        decimate_polyline(np.zeros(5))


def test_point_at_interpolates_and_clamps():
    t = np.array([0.0, 1.0, 3.0])
    p = np.array([[0, 0, 0], [1, 0, 0], [1, 2, 0]], float)
    np.testing.assert_allclose(point_at(t, p, 2.0), [1, 1, 0])
    np.testing.assert_allclose(point_at(t, p, -5), p[0])
    np.testing.assert_allclose(point_at(t, p, 9), p[-1])


def test_tool_path_in_chunks_equals_one_fkine_and_cancels():
    robot = load_robot("puma560")
    q = robot.random_q(1234, seed=3)
    np.testing.assert_allclose(tool_path(robot, q, chunk=100), robot.fkine(q)[:, :3, 3],
                               atol=1e-12)
    assert tool_path(robot, q, chunk=100, cancel=lambda: True) is None


def test_session_q_at_matches_numpy_interp():
    from robogui.engine.trajectory.trajectory import Trajectory
    from robogui.session import Session

    robot = load_robot("puma560")
    s = Session(robot)
    t = np.cumsum(np.random.default_rng(0).uniform(0.01, 0.1, 500))
    q = np.random.default_rng(1).normal(size=(500, 6))
    s.set_trajectory(Trajectory(t, q))
    ts = np.concatenate([[t[0] - 1, t[-1] + 1], np.random.default_rng(2).uniform(t[0], t[-1], 50),
                         t[[0, 10, -1]]])
    want = np.stack([np.interp(ts, t, q[:, j]) for j in range(6)], axis=-1)
    np.testing.assert_allclose(s.q_at(ts), want, atol=1e-12)
    np.testing.assert_allclose(s.q_at(float(ts[5])), want[5], atol=1e-12)


def test_screen_segments_draw_a_repeated_cycle_once_as_finely_as_one_pass():
    from robogui.session.motion.polyline import screen_segments

    s = np.linspace(0, 2 * np.pi, 20_001)
    one = np.column_stack([np.cos(s), np.sin(s), np.zeros_like(s)])
    many = np.concatenate([one] * 50)  # 50 passes over the same circle, 1,000,050 points
    seg1 = screen_segments(one, tol=0.005)
    seg50 = screen_segments(many, tol=0.005)
    assert len(seg50) <= 1.1 * len(seg1)
    ends = seg50.reshape(-1, 2, 3)
    # every segment is a short chord of the circle (no jumps across it)
    assert np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1).max() < 0.02
    np.testing.assert_allclose(seg50[0], many[0])
    # and the circle is covered: every point of it is near a drawn vertex
    d = np.linalg.norm(one[::50, None, :] - seg50[None, ::1, :], axis=2).min(axis=1)
    assert d.max() < 0.01
