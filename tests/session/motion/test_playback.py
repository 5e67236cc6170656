"""Playback cursor: wall-clock advance at any speed, loop, step, seek, stop; no sleeping."""

import math

import numpy as np
import pytest

from robogui.engine.trajectory.trajectory import jtraj
from robogui.session.motion.playback import MAX_SPEED, MIN_SPEED, Playback

Q0 = np.array([0.0, 0.5, -1.0])
Q1 = np.array([1.0, -0.5, 0.5])


@pytest.fixture
def traj():
    return jtraj(Q0, Q1, np.linspace(0.0, 4.0, 201))  # 4 s, 20 ms samples


def run_until_end(pb: Playback, frame_s: float, jitter_seed=None) -> float:
    """Simulated Qt timer: returns the wall-clock time until playback stopped."""
    rng = np.random.default_rng(jitter_seed)
    wall = 0.0
    while pb.playing:
        dt = frame_s if jitter_seed is None else frame_s * rng.uniform(0.5, 1.5)
        wall += dt
        pb.advance(dt)
        assert wall < 1e3
    return wall


@pytest.mark.parametrize("frame_s", [1 / 60, 1 / 24, 0.1])
def test_speed_2x_reaches_the_end_in_half_the_time(traj, frame_s):
    pb = Playback(traj, speed=2.0)
    assert pb.play()
    wall = run_until_end(pb, frame_s, jitter_seed=1)
    assert pb.time == traj.end and pb.at_end and not pb.playing
    # whatever the frame rate, 4 s of trajectory take 2 s of wall clock (within one frame)
    assert wall == pytest.approx(traj.duration / 2, abs=1.5 * frame_s)
    np.testing.assert_allclose(pb.q_at_cursor(), Q1)


@pytest.mark.parametrize("speed", [0.1, 0.5, 1.0, 10.0])
def test_any_speed_scales_wall_time(traj, speed):
    pb = Playback(traj, speed=speed)
    pb.play()
    assert run_until_end(pb, 0.01) == pytest.approx(traj.duration / speed, abs=0.011)


def test_cursor_values_follow_the_trajectory(traj):
    pb = Playback(traj)
    pb.play()
    pb.advance(1.234)
    assert pb.time == pytest.approx(1.234)
    np.testing.assert_allclose(pb.q_at_cursor(), traj.sample(1.234))
    assert pb.index == 61  # 1.234 s / 20 ms
    assert pb.fraction == pytest.approx(1.234 / 4.0)


def test_loop_wraps_and_keeps_playing(traj):
    pb = Playback(traj, speed=1.0, loop=True)
    pb.play()
    pb.advance(3.5)
    pb.advance(1.0)  # 4.5 s -> wraps to 0.5 s
    assert pb.playing and pb.time == pytest.approx(0.5)
    pb.advance(10.0)  # several laps at once
    assert pb.time == pytest.approx(math.fmod(10.5, 4.0))


def test_transport_controls(traj):
    pb = Playback(traj)
    assert not pb.advance(1.0)  # paused: nothing moves
    assert pb.toggle() and pb.playing
    pb.advance(1.0)
    assert pb.toggle() and not pb.playing
    assert pb.time == pytest.approx(1.0)
    assert pb.step(+1) and pb.time == pytest.approx(1.02)
    assert pb.step(+1) and pb.time == pytest.approx(1.04)
    assert pb.step(-1) and pb.time == pytest.approx(1.02)
    # between samples (after a scrub): a step moves by at least one sample interval, to a
    # sample (issue 28 item 8: it used to move to the next sample, 0.009 s here)
    pb.seek(1.011)
    pb.step(-1)
    assert pb.time == pytest.approx(0.98)
    pb.seek(1.011)
    pb.step(+1)
    assert pb.time == pytest.approx(1.04)
    pb.seek(1.02 - 1e-14)  # a sample, as a scrub rounds it: one sample on
    pb.step(+1)
    assert pb.time == pytest.approx(1.04)
    pb.seek(-5)
    assert pb.time == 0.0 and not pb.step(-1)  # clamped at the start
    pb.seek(99)
    assert pb.time == traj.end and not pb.step(+1)
    pb.play()  # at the end: play restarts from the start
    assert pb.time == 0.0 and pb.playing
    pb.advance(2.0)
    assert pb.stop() and pb.time == 0.0 and not pb.playing
    pb.play()
    pb.step(1)  # stepping pauses
    assert not pb.playing
    pb.seek_fraction(0.25)
    assert pb.time == pytest.approx(1.0)


def test_speed_is_clamped_and_checked(traj):
    pb = Playback(traj)
    pb.speed = 100
    assert pb.speed == MAX_SPEED
    pb.speed = 0.001
    assert pb.speed == MIN_SPEED
    for bad in (float("nan"), float("inf"), "fast", None):
        with pytest.raises(ValueError, match="speed"):
            pb.speed = bad
    with pytest.raises(ValueError, match="wall_dt"):
        pb.advance(float("nan"))
    with pytest.raises(ValueError, match="wall_dt"):
        pb.advance(-0.1)
    with pytest.raises(ValueError, match="time"):
        pb.seek(float("nan"))
    with pytest.raises(ValueError, match="direction"):
        pb.step(2)


def test_empty_and_new_trajectories(traj):
    pb = Playback()
    assert not pb.has_trajectory and pb.q_at_cursor() is None
    assert not pb.play() and not pb.advance(0.1) and not pb.step(1)
    pb.set_trajectory(traj)
    pb.play()
    pb.advance(1.0)
    other = jtraj(Q1, Q0, np.linspace(2.0, 3.0, 11))  # starts at t = 2 s
    pb.set_trajectory(other)  # a new trajectory: back to its start, stopped
    assert pb.time == 2.0 and not pb.playing and pb.duration == pytest.approx(1.0)
    pb.play()
    pb.advance(5.0)
    assert pb.time == 3.0
    np.testing.assert_allclose(pb.q_at_cursor(), Q0)
