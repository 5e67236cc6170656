"""Trajectory analysis equals the engine's values; components add up; no-dynamics notice."""

import math

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics.dynamics import coriolis_torque, friction, gravload, inertia, rne
from robogui.engine.dynamics.manipulability import manipulability
from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.trajectory.trajectory import Trajectory, jtraj
from robogui.io.robotfile import load_robot
from robogui.session.motion.analysis import (
    ManipulabilityHistory,
    TrajectoryAnalysis,
    analyze_trajectory,
    singularity_threshold,
)


@pytest.fixture(scope="module")
def puma():
    return load_robot("puma560")


@pytest.fixture(scope="module")
def traj(puma):
    q0 = puma.pose("qz") + np.array([0.1, 0.2, -0.3, 0.4, 0.5, 0.6])
    return jtraj(q0, puma.pose("qn"), np.linspace(0.0, 1.5, 301))


def test_values_equal_the_engine(puma, traj):
    a = TrajectoryAnalysis.compute(puma, traj)
    q, qd, qdd = traj.q, traj.qd, traj.qdd
    np.testing.assert_array_equal(a.t, traj.t)
    np.testing.assert_allclose(a.tau, rne(puma, q, qd, qdd), rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(a.tau_gravity, gravload(puma, q), rtol=1e-10, atol=1e-9)
    np.testing.assert_allclose(a.tau_inertial, np.einsum("kij,kj->ki", inertia(puma, q), qdd),
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(a.tau_coriolis, coriolis_torque(puma, q, qd), rtol=1e-9,
                               atol=1e-9)
    np.testing.assert_allclose(a.tau_friction, -friction(puma, qd), rtol=1e-10, atol=1e-9)
    # the parts add up to the total the panel draws
    total = sum(a.components.values())
    np.testing.assert_allclose(total, a.tau, rtol=0, atol=1e-12)
    assert np.abs(a.tau_friction).max() > 0 and np.abs(a.tau_coriolis).max() > 0
    # manipulability measures
    np.testing.assert_allclose(a.yoshikawa, manipulability(puma, q, "yoshikawa"), rtol=1e-9,
                               atol=1e-15)
    np.testing.assert_allclose(a.inv_condition, manipulability(puma, q, "condition"),
                               atol=1e-7)
    np.testing.assert_allclose(a.asada, manipulability(puma, q, "asada"), rtol=1e-7,
                               atol=1e-12)
    np.testing.assert_allclose(a.ee_path, fkine(puma, q)[:, :3, 3], atol=1e-15)
    assert a.has_dynamics and a.dynamics_message is None
    assert a.threshold == singularity_threshold(puma) > 0
    with pytest.raises(ValueError):
        a.tau[0, 0] = 1.0  # results are read-only


def test_chunks_progress_and_cancel(puma, traj):
    whole = analyze_trajectory(puma, traj)
    seen = []
    parts = analyze_trajectory(puma, traj, chunk=37, progress=seen.append)
    np.testing.assert_allclose(parts.tau, whole.tau, rtol=0, atol=1e-12)
    np.testing.assert_allclose(parts.yoshikawa, whole.yoshikawa, rtol=0, atol=1e-15)
    assert len(seen) == math.ceil(301 / 37) and seen[-1] == 1.0
    assert all(b > a for a, b in zip(seen, seen[1:], strict=False))
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 2  # stop before the third chunk

    assert analyze_trajectory(puma, traj, chunk=50, progress=seen.append, cancel=cancel) is None
    assert len(calls) == 3


def test_no_dynamics_says_so_instead_of_zeros():
    kin = Robot([Link(a=0.4, alpha=math.pi / 2), Link(a=0.3), Link(a=0.2)], name="kinematic arm")
    tr = jtraj([0, 0.3, 0.2], [1, -0.4, 0.9], 50)
    a = analyze_trajectory(kin, tr)
    assert not a.has_dynamics
    assert a.tau is None and a.components is None and a.asada is None and a.over_limit() is None
    assert "kinematic arm has no dynamic parameters" in a.dynamics_message
    assert a.yoshikawa.shape == (50,) and np.all(np.isfinite(a.yoshikawa))


def test_planar_arm_manipulability_is_sin_q2():
    # unit two-link arm in the x-z plane: Yoshikawa over its two task rows = |a1 a2 sin q2|
    arm = load_robot("twolink")
    tr = jtraj([0.2, -1.0], [0.5, 2.5], 40)
    a = analyze_trajectory(arm, tr)
    np.testing.assert_allclose(a.yoshikawa, np.abs(np.sin(tr.q[:, 1])), atol=1e-12)


def test_torque_limits_and_peaks(puma, traj):
    limits = [None, 40.0, 20.0, None, None, None]
    lim_robot = puma.with_links([L.replace(tau_max=m) for L, m in zip(puma.links, limits,
                                                                        strict=True)])
    a = analyze_trajectory(lim_robot, traj)
    assert np.isnan(a.tau_max[0]) and a.tau_max[1] == 40.0
    over = a.over_limit()
    assert over[:, [0, 3, 4, 5]].sum() == 0
    assert a.torque_peaks, "this trajectory needs more than 40 N m on joint 2"
    for p in a.torque_peaks:
        run = (a.t >= p.t_start) & (a.t <= p.t_end)
        assert np.all(np.abs(a.tau[run, p.joint]) > p.limit)
        assert abs(p.value) == pytest.approx(np.abs(a.tau[run, p.joint]).max())
        assert a.tau[p.index, p.joint] == p.value and a.t[p.index] == p.time
    # every sample over a limit is inside some reported stretch
    flagged = np.zeros_like(over)
    for p in a.torque_peaks:
        flagged[(a.t >= p.t_start) & (a.t <= p.t_end), p.joint] = True
    np.testing.assert_array_equal(flagged, over)


def test_trajectory_without_derivatives_is_differentiated(puma, traj):
    bare = Trajectory(traj.t, traj.q)
    a = analyze_trajectory(puma, bare)
    np.testing.assert_allclose(a.qd, bare.with_derivatives().qd)
    with pytest.raises(ValueError, match="joints"):
        analyze_trajectory(load_robot("twolink"), traj)


def test_10k_samples_are_analysed_in_one_batch(puma):
    # the timing lives in benchmarks/bench_plots.py; here only the result for 10,000 samples
    tr = jtraj(puma.pose("qz") + 0.1, puma.pose("qr"), np.linspace(0, 10, 10_000))
    a = analyze_trajectory(puma, tr)
    assert a.n_samples == 10_000
    idx = [0, 4321, 9999]
    np.testing.assert_allclose(a.yoshikawa[idx], manipulability(puma, tr.q[idx]), rtol=1e-9)


def test_manipulability_history_ring_buffer():
    h = ManipulabilityHistory(capacity=5)
    assert len(h) == 0 and h.latest is None
    t, w = h.arrays()
    assert t.size == 0 and w.size == 0
    for k in range(8):
        h.append(0.5 * k, 10.0 + k)
    assert len(h) == 5 and h.latest == (3.5, 17.0)
    t, w = h.arrays()
    np.testing.assert_array_equal(t, [1.5, 2.0, 2.5, 3.0, 3.5])
    np.testing.assert_array_equal(w, [13, 14, 15, 16, 17])
    t, w = h.arrays(window_s=1.0)
    np.testing.assert_array_equal(t, [2.5, 3.0, 3.5])
    h.append(4.0, float("nan"))  # shown as a gap
    assert np.isnan(h.arrays()[1][-1])
    h.clear()
    assert len(h) == 0
    with pytest.raises(ValueError):
        ManipulabilityHistory(0)


def test_asada_is_nan_where_the_inertia_matrix_is_singular():
    # the last joint has no inertia about its axis: M is singular, Asada undefined
    robot = Robot([Link(a=1.0, m=1.0, r=[-0.5, 0, 0], I=[0, 0, 0.1, 0, 0, 0]),
                   Link(a=1.0, m=1.0, r=[-0.5, 0, 0], I=[0, 0, 0.1, 0, 0, 0]),
                   Link(a=0.5, m=1.0, r=[-0.5, 0, 0])])
    tr = jtraj([0.1, 0.2, 0.3], [0.5, -0.3, 0.2], 20)
    a = analyze_trajectory(robot, tr)
    assert a.asada is None  # undefined everywhere: no curve, and no LinAlgError
    assert np.all(np.isfinite(a.yoshikawa))


def test_torque_limits_from_the_robot_file():
    """tau_max given in a robot file reaches the analysis: limits per joint, peaks over them."""
    from robogui.io.robotfile import robot_from_toml, robot_to_toml

    text = robot_to_toml(load_robot("twolink"))
    # tau_max on both links (N m): 20 for the shoulder, 15 for the elbow
    head, link1, link2 = text.split("[[links]]")
    text = head + "[[links]]" + link1.rstrip() + "\ntau_max = 20\n\n[[links]]" \
        + link2.rstrip() + "\ntau_max = 15\n"
    robot = robot_from_toml(text)
    assert [L.tau_max for L in robot.links] == [20.0, 15.0] and robot.has_dynamics
    # from horizontal (shoulder gravity torque 9.81 * (1 + 2) = 29.4 N m) to vertical
    traj = jtraj(np.zeros(2), np.array([np.pi / 2, 0.0]), np.linspace(0.0, 2.0, 201))
    a = TrajectoryAnalysis.compute(robot, traj)
    np.testing.assert_array_equal(a.tau_max, [20.0, 15.0])
    tau = rne(robot, traj.q, traj.qd, traj.qdd)
    assert abs(tau[0, 0]) == pytest.approx(9.81 * 3, rel=1e-6)
    assert np.abs(tau[:, 1]).max() < 15.0  # the elbow stays within its limit
    assert {p.joint for p in a.torque_peaks} == {0}
    (p,) = a.torque_peaks
    over = np.abs(tau[:, 0]) > 20.0
    assert p.t_start == traj.t[over][0] and p.t_end == traj.t[over][-1]
    assert abs(p.value) == pytest.approx(np.abs(tau[over, 0]).max(), rel=1e-12)
    np.testing.assert_array_equal(a.over_limit()[:, 0], over)


def test_session_keeps_one_analysis_per_trajectory_robot_and_tool(puma, traj):
    from robogui.engine.spatial.transforms import transl
    from robogui.session import Session

    s = Session(puma)
    assert s.analysis is None and s.compute_analysis() is None  # no trajectory
    s.set_trajectory(traj)
    events = []
    s.events.analysis.connect(events.append)
    a = s.compute_analysis(chunk=100)
    np.testing.assert_allclose(a.tau, rne(puma, traj.q, traj.qd, traj.qdd), atol=1e-9)
    assert s.analysis is a and s.compute_analysis() is a and events == [a]  # kept, once
    s.set_time(0.7)  # playback does not invalidate it
    assert s.analysis is a
    # a new tool makes it stale; a result for the old robot is dropped
    old_robot = s.robot
    s.set_tool(transl(0, 0, 0.1))
    assert s.analysis is None
    assert s.set_analysis(old_robot, traj, a) is False and s.analysis is None
    b = s.compute_analysis()
    np.testing.assert_allclose(b.ee_path, fkine(s.robot, traj.q)[:, :3, 3], atol=1e-12)
    # cancelled: nothing kept
    s.set_trajectory(jtraj(puma.pose("qz"), puma.pose("qr"), np.linspace(0, 1, 501)))
    assert s.compute_analysis(chunk=100, cancel=lambda: True) is None and s.analysis is None


def test_a_pan_tilt_head_controls_no_task_direction_and_measures_nothing(tmp_path):
    """Issue 23 (also found): a valid two-joint pan-tilt head, whose tip lies on both
    axes, made the threshold fail on an empty eigenvalue array."""
    from robogui.io.robotfile import load_robot
    from robogui.session.motion.analysis import manipulability_measures, singularity_threshold

    path = tmp_path / "pantilt.urdf"
    path.write_text(
        '<robot name="pantilt"><link name="base"/><link name="pan"/><link name="tilt"/>'
        '<joint name="pan_joint" type="revolute"><parent link="base"/><child link="pan"/>'
        '<origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>'
        '<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>'
        '<joint name="tilt_joint" type="revolute"><parent link="pan"/><child link="tilt"/>'
        '<origin xyz="0 0 0.05"/><axis xyz="0 1 0"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    robot = load_robot(path)
    assert singularity_threshold(robot) == 0.0
    out = manipulability_measures(robot, np.zeros((3, 2)))
    assert out["yoshikawa"].shape == (3,) and out["asada"] is None
