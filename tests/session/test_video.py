"""Frames of a video of a trajectory: times, poses, torques, the program route (Qt-free)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from robogui.engine.dynamics.dynamics import rne
from robogui.engine.kinematics.kinematics import fkine_all
from robogui.io.robotfile import load_robot
from robogui.session.motion.trajectories import load_trajectory_csv
from robogui.session.video import frame_times, load_motion, plan_video

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def test_six_seconds_at_25_fps_is_150_frames_plus_the_last_pose():
    t = frame_times(0.0, 6.0, fps=25, speed=1)
    assert abs(len(t) - 150) <= 1
    assert t[0] == 0.0 and t[-1] == pytest.approx(6.0)
    np.testing.assert_allclose(np.diff(t), 1 / 25)


def test_speed_is_trajectory_seconds_per_video_second():
    assert len(frame_times(0.0, 6.0, fps=25, speed=2)) == 76  # 3 s of video
    assert len(frame_times(0.0, 6.0, fps=25, speed=0.5)) == 301  # 12 s of video
    t = frame_times(1.0, 2.0, fps=10, speed=1)
    np.testing.assert_allclose(t, np.linspace(1.0, 2.0, 11))


@pytest.mark.parametrize("fps,speed,word", [(0, 1, "fps"), (30, -1, "speed"),
                                            (float("nan"), 1, "fps"), (30, float("inf"), "speed")])
def test_bad_rates_are_named(fps, speed, word):
    with pytest.raises(ValueError, match=word):
        frame_times(0.0, 1.0, fps=fps, speed=speed)


def test_too_many_frames_are_refused():
    with pytest.raises(ValueError, match="too many"):
        frame_times(0.0, 3600.0, fps=1000, speed=1)


def test_plan_of_the_demo_poses_and_torques_match_the_engine():
    robot = load_robot("puma560")
    traj = load_trajectory_csv(ASSETS / "puma560-demo.csv", robot)
    plan = plan_video(robot, traj, fps=25, speed=1, torque=True)
    assert len(plan) == 151 and plan.frames.shape == (151, 7, 4, 4)
    # frame 75 is at t = 3 s, a sample of the file: q, frames and torque exactly there
    k = int(np.argmin(np.abs(traj.t - 3.0)))
    assert traj.t[k] == pytest.approx(3.0)
    np.testing.assert_allclose(plan.q[75], traj.q[k], atol=1e-12)
    np.testing.assert_allclose(plan.frames[75], fkine_all(robot, traj.q[k]), atol=1e-12)
    np.testing.assert_allclose(plan.tau[75], rne(robot, traj.q[k], traj.qd[k], traj.qdd[k]),
                               atol=1e-9)
    assert plan.tau_limit.shape == (6,)
    # the end pose is the file's last row (qr -> qn)
    np.testing.assert_allclose(plan.q[-1], traj.q[-1], atol=1e-12)
    assert plan.points.shape == (151 * 7, 3)


def test_plan_without_torque_and_limit_state():
    robot = load_robot("puma560")
    traj = load_trajectory_csv(ASSETS / "puma560-demo.csv", robot)
    plan = plan_video(robot, traj, fps=10)
    assert plan.tau is None and plan.limit_state.shape == (61, 6)
    assert set(np.unique(plan.limit_state)) <= {0, 1, 2}


def test_program_is_compiled_into_the_motion():
    robot = load_robot("puma560")
    traj = load_motion(robot, program=ASSETS / "pick-and-place.prog")
    assert traj.q.shape[1] == 6 and traj.t[-1] > 1.0
    plan = plan_video(robot, traj, fps=20)
    assert len(plan) == int(np.floor(traj.t[-1] * 20 + 1e-9)) + 1


def test_motion_errors_name_the_file(tmp_path):
    robot = load_robot("puma560")
    bad = tmp_path / "bad.csv"
    bad.write_text("t,q1,q2\n0,1,2\n")
    with pytest.raises(ValueError, match="bad.csv"):
        load_motion(robot, trajectory=bad)
    prog = tmp_path / "broken.prog"
    prog.write_text("this is = not [toml\n")
    with pytest.raises(ValueError, match="broken.prog"):
        load_motion(robot, program=prog)
    with pytest.raises(ValueError, match="either"):
        load_motion(robot)
