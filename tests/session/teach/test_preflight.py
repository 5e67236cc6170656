"""Pre-flight check: limits, reachability, singularities, speeds and torques, sorted by time."""

import math

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics.dynamics import rne
from robogui.engine.dynamics.manipulability import manipulability
from robogui.io.robotfile import load_robot
from robogui.session.motion.analysis import analyze_trajectory
from robogui.session.teach.compile import compile_program
from robogui.session.teach.preflight import preflight, worst_severity
from robogui.session.teach.program import Program


@pytest.fixture(scope="module")
def puma():
    return load_robot("puma560")


def test_clean_program_has_only_the_torque_note(puma):
    qn = puma.pose("qn")
    prog = Program().record(qn).record(qn + [0.3, -0.2, 0.1, 0.2, 0.3, 0.1], duration=2.0)
    problems = preflight(puma, compile_program(prog, puma))
    assert [p.kind for p in problems] == ["torque"] and problems[0].severity == "info"
    assert "gives no torque limits" in problems[0].message
    # the peaks are still said, at the instant of the largest
    tau = np.abs(analyze_trajectory(puma, compile_program(prog, puma).trajectory).tau)
    j, i = int(np.argmax(tau.max(axis=0))), int(np.argmax(tau.max(axis=1)))
    listed = ", ".join(f"{v:.1f}" for v in tau.max(axis=0))
    assert f"peaks per joint {listed} N m (largest: joint {j + 1}" in problems[0].message
    assert problems[0].index == i and problems[0].joint == j
    assert worst_severity(problems) == "info" and worst_severity([]) is None


def test_joint_limit_violation_located_in_time(puma):
    qn = puma.pose("qn")
    beyond = qn.copy()
    beyond[1] = puma.qlim[1, 1] + 0.2  # a hand-edited waypoint past joint 2's upper limit
    prog = Program().record(qn).record(beyond, duration=2.0).record(qn, duration=2.0)
    c = compile_program(prog, puma, dt=0.01)
    problems = preflight(puma, c)
    lim = [p for p in problems if p.kind == "joint-limit"]
    assert len(lim) == 1 and lim[0].severity == "error" and lim[0].joint == 1
    q = c.trajectory.q[:, 1]
    first = int(np.argmax(q > puma.qlim[1, 1] + 1e-9))
    assert lim[0].index == first and lim[0].time == c.trajectory.t[first]
    assert lim[0].move_index == 1
    label = f"joint 2 ({puma.links[1].name})" if puma.links[1].name else "joint 2"
    assert f"move 2: {label} goes past its upper limit (225.0°) by up to 11.5°" in lim[0].message


def test_speed_peaks_against_max_joint_speed(puma):
    qn = puma.pose("qn")
    prog = Program().record(qn).record(qn + [1.0, 0, 0, 0, 0, 0], duration=0.5)
    # compiled for a faster arm (10 rad/s, 50 rad/s^2: 0.28 s at best, stretched to the
    # 0.5 s asked for), then checked against the Puma's own 180 deg/s
    c = compile_program(prog, puma, dt=0.005, max_joint_speed=10.0)
    assert c.cycle_time == pytest.approx(0.5)
    vel = [p for p in preflight(puma, c) if p.kind == "velocity"]
    assert len(vel) == 1 and vel[0].joint == 0 and vel[0].severity == "warning"
    peak = np.abs(c.trajectory.qd[:, 0]).max()  # triangular profile: 2 x 1 rad / 0.5 s
    assert peak == pytest.approx(4.0, rel=3e-2)  # 30 TOPP-RA grid points: a flatter top
    assert f"reaches {math.degrees(peak):.1f}°/s, above its maximum speed 180.0°/s" in \
        vel[0].message
    assert vel[0].index == int(np.argmax(np.abs(c.trajectory.qd[:, 0])))
    # in the user's display units when the app runs in rad
    vel_rad = [p for p in preflight(puma, c, angle_unit="rad", length_unit="m")
               if p.kind == "velocity"]
    assert f"reaches {peak:.3f} rad/s, above its maximum speed {math.pi:.3f} rad/s" in \
        vel_rad[0].message
    # a custom speed limit for every joint
    assert not [p for p in preflight(puma, c, max_joint_speed=4.0) if p.kind == "velocity"]


def test_singularity_warning(puma):
    qa = np.array([0.2, 0.7, -1.2, 0.3, 0.6, 0.1])
    qb = qa.copy()
    qb[4] = -0.6  # the wrist passes q5 = 0
    c = compile_program(Program().record(qa).record(qb, duration=2.0), puma, dt=0.01)
    sing = [p for p in preflight(puma, c) if p.kind == "singularity"]
    assert len(sing) == 1 and sing[0].severity == "warning"
    w = analyze_trajectory(puma, c.trajectory).yoshikawa
    # the samples pass q5 = 0 (nearly) exactly: both measures are ~0 there
    assert w.min() == pytest.approx(manipulability(puma, c.trajectory.q).min(), abs=1e-10)
    crossing = np.argmin(np.abs(c.trajectory.q[:, 4]))
    assert c.trajectory.t[sing[0].index] < c.trajectory.t[crossing] < 2.0
    assert f"manipulability down to {w.min():.3g} at t = 1.00 s" in sing[0].message
    # a Puma-like arm: the warning names the kind, at the closest instant (q5 = 0)
    assert sing[0].message.startswith("move 2: near a wrist singularity (axes 4 and 6 "
                                      "nearly aligned, q5 = +0.0°), with the wrist centre "
                                      "held, the tool cannot rotate about ")
    assert " from t = " in sing[0].message


def test_singularity_warning_names_elbow_and_says_general_for_other_arms(puma):
    # arm stretched out: q3 passes the straight elbow (about -90 deg + a small offset)
    qa = np.array([0.2, 0.5, -1.3, 0.3, 0.6, 0.1])
    qb = qa.copy()
    qb[2] = -1.9
    c = compile_program(Program().record(qa).record(qb, duration=2.0), puma, dt=0.01)
    sing = [p for p in preflight(puma, c) if p.kind == "singularity"]
    assert len(sing) == 1 and "near an elbow singularity (arm stretched out" in sing[0].message
    from robogui.io.robotfile import load_robot

    two = load_robot("twolink")
    c2 = compile_program(Program().record([0.3, 0.5]).record([0.3, -0.5], duration=1.0), two)
    sing2 = [p for p in preflight(two, c2) if p.kind == "singularity"]
    assert len(sing2) == 1 and "move 2: near a singularity, cannot translate along " in (
        sing2[0].message)


def test_torque_peaks_and_robot_without_dynamics(puma):
    limited = puma.with_links([L.replace(tau_max=30.0) for L in puma.links])
    qa, qb = puma.pose("qz"), puma.pose("qr")
    c = compile_program(Program().record(qa).record(qb, duration=1.0), limited, dt=0.01)
    a = analyze_trajectory(limited, c.trajectory)
    problems = preflight(limited, c, analysis=a)
    torque = [p for p in problems if p.kind == "torque"]
    assert torque and all(p.severity == "warning" for p in torque)
    tau = rne(limited, c.trajectory.q, c.trajectory.qd, c.trajectory.qdd)
    for p in torque:
        assert abs(tau[p.index, p.joint]) > 30.0
        assert f"needs {abs(tau[p.index, p.joint]):.1f} N m, above its limit 30.0 N m" in p.message
    kin = Robot([Link(a=0.4, alpha=math.pi / 2), Link(a=0.3), Link(a=0.2)], name="kin")
    ck = compile_program(Program().record([0, 0.3, 0.2]).record([1, -0.4, 0.9], duration=1.0),
                         kin)
    notes = [p for p in preflight(kin, ck) if p.kind == "torque"]
    assert notes[0].severity == "info" and "kin has no dynamic parameters" in notes[0].message
    with pytest.raises(ValueError, match="another robot"):
        preflight(puma, ck)


def test_problems_are_sorted_and_include_compilation(puma):
    qa = np.array([-1.5, 0.6, 0.4, 0.0, 0.4, 0.0])
    qb = qa.copy()
    qb[0] = 1.5
    fast = qa + [0.0, 0.0, 0.0, 2.0, 0.0, 0.0]
    prog = (Program().record(qa).record(qb, move_kind="linear", duration=2.0)
            .record(fast, duration=0.4))
    c = compile_program(prog, puma)
    problems = preflight(puma, c)
    assert [p.time for p in problems] == sorted(p.time for p in problems)
    kinds = {p.kind for p in problems}
    # a duration shorter than the limits allow is now said at compile time ("timing"):
    # the compiled move keeps to the joint speed limits instead
    assert {"ik", "timing"} <= kinds
    assert worst_severity(problems) == "error"
    for p in problems:
        assert 0 <= p.index < len(c.trajectory)
        assert p.time == pytest.approx(c.trajectory.t[p.index])
