"""Issue 14, item 5 and the session side of item 4: a robot, program or trajectory is
validated completely before it replaces the current one; one failing listener does not
keep the others from hearing an event; a trajectory and a program belong to a robot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from robogui.engine.dynamics.dynamics import gravload
from robogui.engine.model.robot import Robot
from robogui.engine.trajectory.trajectory import jtraj
from robogui.io.robotfile import load_robot
from robogui.session.observable import ListenerError, Signal
from robogui.session.session import Session, robot_identity
from robogui.session.teach.compile import compile_program
from robogui.session.teach.program import ProgramError
from robogui.session.teach.program_file import load_program
from robogui.session.teach.teach import TeachState

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def huge_puma():
    """The Puma with a finite but absurd link length (the issue's 1.7e308)."""
    puma = load_robot("puma560")
    links = list(puma.links)
    links[2] = links[2].replace(a=1.7e308)
    return Robot(links, name="huge")


# -- listeners -----------------------------------------------------------------------------
def test_every_listener_hears_the_event_and_the_failure_is_reported_once():
    sig, seen = Signal("q"), []

    def broken(value):
        raise IndexError("widget out of date")

    sig.connect(seen.append)
    sig.connect(broken)
    sig.connect(lambda v: seen.append(v * 10))
    sig.connect(broken)  # the same callable twice is connected once
    with pytest.raises(ListenerError) as info:
        sig.emit(2)
    assert seen == [2, 20]  # the listener after the broken one was still told
    assert len(info.value.errors) == 1 and isinstance(info.value.first, IndexError)
    assert "a listener of 'q' failed: IndexError: widget out of date" == str(info.value)


def test_a_failing_listener_in_a_batch_does_not_stop_the_later_events(puma):
    s = Session(puma)
    heard = []
    s.events.q.connect(lambda q: 1 / 0)
    s.events.frames.connect(lambda f: heard.append("frames"))
    s.events.changed.connect(lambda q: heard.append("changed"))
    with pytest.raises(ListenerError) as info:
        s.set_q(np.zeros(6))
    assert heard == ["frames", "changed"]
    assert [name for name, _ in info.value.errors] == ["q"]
    np.testing.assert_allclose(s.q, 0)


# -- robots ---------------------------------------------------------------------------------
def test_a_robot_that_overflows_is_refused_before_anything_changes(puma):
    # the engine alone cannot give this robot's torques: the session must never show it
    try:
        assert not np.all(np.isfinite(gravload(huge_puma(), np.zeros(6))))
    except ValueError as exc:
        assert "overflow" in str(exc)
    s = Session(puma)
    q0 = s.q.copy()
    heard = []
    s.events.robot.connect(heard.append)
    with pytest.raises(ValueError, match=r"link 3: field 'a': 1.7e\+308 is outside"):
        s.set_robot(huge_puma())
    assert s.robot is puma and heard == [] and np.array_equal(s.q, q0)
    s.set_q(np.full(6, 0.1))  # later joint changes still work
    np.testing.assert_allclose(s.q, 0.1)


def test_a_listener_failure_while_showing_a_robot_restores_the_previous_state(puma, twolink):
    s = Session(puma)
    traj = jtraj(puma.pose("qz"), puma.pose("qr"), np.linspace(0, 1, 11))
    s.set_trajectory(traj)
    s.set_time(0.5, changing=False)
    q_before = s.q.copy()
    shown = []

    def rebuild(robot):  # a 3D view that cannot draw a two-link arm
        shown.append(robot.name)
        if robot.n == 2:
            raise IndexError("list index out of range")

    s.events.robot.connect(rebuild)
    with pytest.raises(ValueError, match="could not be shown, the previous robot is back"):
        s.set_robot(twolink)
    assert s.robot is puma and s.trajectory is traj and np.array_equal(s.q, q_before)
    assert s.time == 0.5
    assert shown == ["Two-link planar", puma.name]  # told again: back to the Puma
    s.set_joint(0, 0.3)  # and the session still works
    assert s.q[0] == 0.3


def test_switching_robots_clears_a_trajectory_made_for_another_robot(puma):
    ur5 = load_robot("ur5")
    s = Session(puma)
    traj = jtraj(puma.pose("qz"), puma.pose("qr"), np.linspace(0, 1, 11))
    s.set_trajectory(traj)
    assert s.trajectory_robot == robot_identity(puma) == (puma.name, 6)
    heard = []
    s.events.trajectory.connect(heard.append)
    cleared = s.set_robot(ur5)  # six joints too: the Puma's angles mean nothing on a UR5
    assert cleared is traj and s.trajectory is None and heard == [None]
    assert s.trajectory_robot is None
    # an undo of the robot change gives both back
    assert s.set_robot(puma, q=puma.pose("qz"), trajectory=cleared) is None
    assert s.robot == puma and s.trajectory is traj and s.trajectory_robot == (puma.name, 6)
    np.testing.assert_allclose(s.q, puma.pose("qz"))
    # the same robot again (e.g. a tool change, or reloading the file) keeps it
    assert s.set_robot(load_robot("puma560")) is None and s.trajectory is traj
    with pytest.raises(ValueError, match=r"trajectory.q must have shape \(11, 2\)"):
        s.set_robot(load_robot("twolink"), trajectory=traj)
    assert s.robot == puma and s.trajectory is traj


def test_a_trajectory_that_does_not_fit_is_refused_and_the_old_one_stays(puma):
    s = Session(puma)
    good = jtraj(puma.pose("qz"), puma.pose("qr"), np.linspace(0, 1, 5))
    s.set_trajectory(good)
    bad = jtraj(np.zeros(2), np.ones(2), np.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="trajectory.q must have shape"):
        s.set_trajectory(bad)
    assert s.trajectory is good
    s.events.trajectory.connect(lambda t: (_ for _ in ()).throw(RuntimeError("plot broke")))
    other = jtraj(puma.pose("qr"), puma.pose("qz"), np.linspace(0, 2, 5))
    with pytest.raises(ValueError, match="previous state is back: .*plot broke"):
        s.set_trajectory(other)
    assert s.trajectory is good


# -- programs -------------------------------------------------------------------------------
def test_check_warns_when_the_program_names_another_robot_and_refuses_other_joint_counts():
    program = load_program(ASSETS / "pick-and-place.prog")
    assert program.robot == "puma560"  # the library name matches the robot's own name
    puma, ur5, twolink = load_robot("puma560"), load_robot("ur5"), load_robot("twolink")
    assert program.robot_mismatch(puma) is None
    assert "taught on 'puma560', not on 'UR5'" in program.robot_mismatch(ur5)
    compiled = compile_program(program, ur5)
    robot_warnings = [p for p in compiled.problems if p.kind == "robot"]
    assert len(robot_warnings) == 1 and robot_warnings[0].severity == "warning"
    assert not any(p.kind == "robot" for p in compile_program(program, puma).problems)
    with pytest.raises(ProgramError, match=r"6 joints but 'Two-link planar' has 2 \(it was "
                                           r"taught on 'puma560'\)"):
        compile_program(program, twolink)
    assert "6 joints" in program.robot_mismatch(twolink)


def test_the_issue_reproduction_program_then_ur5(puma):
    """Load assets/pick-and-place.prog, Check, then pick the UR5: the timeline no longer
    plays the Puma's joint angles, and Check on the UR5 warns."""
    s = Session(puma)
    teach = TeachState(s)
    teach.load(ASSETS / "pick-and-place.prog")
    teach.compile()
    assert s.trajectory is not None
    s.set_robot(load_robot("ur5"))
    assert s.trajectory is None
    teach.compile()
    assert any(p.kind == "robot" and "puma560" in p.message for p in teach.problems)
    assert s.trajectory_robot == ("UR5", 6)


def test_check_refuses_a_move_too_long_to_hold(puma):
    from robogui.session.teach.program import Program

    prog = Program(name="slow").record(puma.pose("qz"), "A").record(puma.pose("qr"), "B")
    with pytest.raises(ProgramError, match="move 2 would last .* more than the 3600 s"):
        compile_program(prog, puma, dt=0.02, max_joint_speed=1e-4)  # rad/s
    with pytest.raises(ProgramError, match="duration must be at most 3600 s"):
        prog.update_move(1, duration=1e6)


@pytest.mark.parametrize("kind", ["joint", "linear"])
def test_check_refuses_a_move_too_short_to_sample(puma, kind):
    """A move of 1e-300 s used to raise a bare ValueError (non-finite accelerations) out of
    Check; it is refused as a ProgramError naming the move, and nothing is loaded."""
    from robogui.session.teach.program import Program

    s = Session(puma)
    teach = TeachState(s)
    prog = (Program(name="flash").record(puma.pose("qz"), "A")
            .record(puma.pose("qr"), "B", move_kind=kind, duration=1e-300)
            .record(puma.pose("qs"), "C"))
    teach.program = prog
    with pytest.raises(ProgramError, match=r"move 2 would last 1e-300 s, less than the 1e-06 s"):
        teach.compile()
    assert s.trajectory is None and teach.compiled is None
    with np.errstate(all="raise"):  # no overflow on the way to the message
        with pytest.raises(ProgramError, match="move 2"):
            compile_program(prog, puma, dt=0.02)
    # at the bound it compiles to finite samples
    ok = prog.update_move(1, duration=1e-6)
    traj = compile_program(ok, puma, dt=0.02).trajectory
    assert np.all(np.isfinite(traj.qdd))
    if kind == "joint":  # blended, the blends stretch it (with a warning) to finite samples
        blended = prog.update_move(1, duration=1e-300, blend=0.1)
        out = compile_program(blended, puma, dt=0.02)
        assert np.all(np.isfinite(out.trajectory.qdd))
        assert any("stretched" in p.message and p.move_index == 1 for p in out.problems)


def test_a_program_a_listener_cannot_show_leaves_the_previous_one(puma):
    s = Session(puma)
    teach = TeachState(s)
    teach.load(ASSETS / "pick-and-place.prog")
    before = teach.program
    shown = []

    def panel(program):  # a panel that cannot list more than five waypoints
        shown.append(len(program.waypoints))
        if len(program.waypoints) > 5:
            raise IndexError("row out of range")

    teach.events.program.connect(panel)
    with pytest.raises(ProgramError, match="previous one is back: .*row out of range"):
        teach.record(name="extra")
    assert teach.program is before and shown[-1] == len(before.waypoints)
