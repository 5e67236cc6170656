"""Teach program model: recording, naming, editing; compilation into a trajectory."""

import numpy as np
import pytest

from robogui.session.teach.program import Move, Program, ProgramError, Waypoint

Q1 = np.zeros(6)
Q2 = np.array([0.1, 0.2, -0.3, 0.0, 0.4, 0.0])
Q3 = np.array([-0.2, 0.5, -0.9, 0.3, 0.6, -0.1])


def three_points() -> Program:
    return Program(name="demo").record(Q1).record(Q2).record(Q3, move_kind="linear")


# -- model -----------------------------------------------------------------------------
def test_record_auto_names_and_moves():
    p = three_points()
    assert p.names == ["P1", "P2", "P3"]
    assert [m.target for m in p.moves] == ["P1", "P2", "P3"]
    assert [m.kind for m in p.moves] == ["joint", "joint", "linear"]
    np.testing.assert_array_equal(p.waypoint("P2").q, Q2)
    # the next automatic name is one above the highest, even after a deletion
    p2 = p.delete_waypoint("P2", cascade=True)
    assert p2.next_name() == "P4"
    assert p2.record(Q2).names == ["P1", "P3", "P4"]
    # record without a move
    p3 = p.record(Q1, name="home", move_kind=None)
    assert p3.names[-1] == "home" and len(p3.moves) == 3


def test_program_is_immutable_and_edits_return_new_programs():
    p = three_points()
    p2 = p.touch_up("P2", Q3)
    assert p2 is not p
    np.testing.assert_array_equal(p.waypoint("P2").q, Q2)  # the old one is unchanged
    np.testing.assert_array_equal(p2.waypoint("P2").q, Q3)
    with pytest.raises(ValueError):
        p.waypoint("P1").q[0] = 1.0  # read-only array
    assert p == three_points() and p != p2
    assert hash(p) == hash(three_points())


def test_rename_follows_moves_and_refuses_clash():
    p = three_points().rename_waypoint("P2", "approach")
    assert p.names == ["P1", "approach", "P3"]
    assert p.moves[1].target == "approach"
    with pytest.raises(ProgramError, match="'P3' already exists"):
        p.rename_waypoint("approach", "P3")
    with pytest.raises(ProgramError, match="no waypoint 'nope'"):
        p.rename_waypoint("nope", "x")
    with pytest.raises(ProgramError, match="empty"):
        p.rename_waypoint("P1", "  ")


def test_delete_waypoint_refuses_while_used_unless_cascade():
    p = three_points().insert_move(Move("joint", "P2"))  # moves 2 and 4 go to P2
    with pytest.raises(ProgramError, match="used by moves 2, 4"):
        p.delete_waypoint("P2")
    p2 = p.delete_waypoint("P2", cascade=True)
    assert p2.names == ["P1", "P3"] and [m.target for m in p2.moves] == ["P1", "P3"]
    unused = p.record(Q1, move_kind=None)
    assert unused.delete_waypoint("P4").names == p.names


def test_reorder_move_comment_and_update():
    p = three_points()
    r = p.reorder_moves([2, 0, 1])
    assert [m.target for m in r.moves] == ["P3", "P1", "P2"]
    with pytest.raises(ProgramError, match="not a reordering"):
        p.reorder_moves([0, 0, 1])
    assert [m.target for m in p.move_move(0, 2).moves] == ["P2", "P3", "P1"]
    c = p.set_move_comment(1, "slow here").set_waypoint_comment("P1", "home")
    assert c.moves[1].comment == "slow here" and c.waypoint("P1").comment == "home"
    u = p.update_move(2, kind="joint", duration=1.5)
    assert u.moves[2] == Move("joint", "P3", duration=1.5)
    assert len(p.delete_move(-1).moves) == 2
    with pytest.raises(ProgramError, match="no move 5"):
        p.delete_move(5)


def test_invalid_moves_and_programs():
    with pytest.raises(ProgramError, match="'joint', 'linear' or 'circular'"):
        Move("spline", "P1")
    with pytest.raises(ProgramError, match="needs a via waypoint"):
        Move("circular", "P1")
    with pytest.raises(ProgramError, match="not both"):
        Move("joint", "P1", duration=1.0, speed=0.5)
    with pytest.raises(ProgramError, match="fraction"):
        Move("joint", "P1", speed=2.0)
    with pytest.raises(ProgramError, match="positive"):
        Move("linear", "P1", duration=-1)
    with pytest.raises(ProgramError, match="blend"):
        Move("joint", "P1", blend=float("nan"))
    with pytest.raises(ProgramError, match="not a waypoint"):
        Program((Waypoint("A", Q1),), (Move("joint", "B"),))
    with pytest.raises(ProgramError, match="unique"):
        Program((Waypoint("A", Q1), Waypoint("A", Q2)))
    with pytest.raises(ProgramError, match="different numbers of joints"):
        Program((Waypoint("A", Q1), Waypoint("B", [0.0, 1.0])))
    with pytest.raises(ProgramError, match="finite"):
        Waypoint("A", [0.0, float("nan")])
    assert Move("linear", "P2", speed=0.25, blend=0.1).describe() == \
        "linear -> P2 (0.25 m/s), blend 0.1 s"


# -- compilation -----------------------------------------------------------------------
from robogui.engine.kinematics.kinematics import fkine  # noqa: E402
from robogui.io.robotfile import load_robot  # noqa: E402
from robogui.session.teach.compile import compile_program, max_joint_speeds  # noqa: E402


@pytest.fixture(scope="module")
def puma():
    return load_robot("puma560")


def near_qn(puma, *deltas):
    return [puma.pose("qn") + np.asarray(d, dtype=float) for d in deltas]


def test_joint_moves_hit_waypoints_with_durations_and_speeds(puma):
    qa, qb, qc = near_qn(puma, [0] * 6, [0.6, -0.3, 0.2, 0.5, 0.2, 0.4],
                         [-0.2, 0.2, -0.1, 0.0, -0.3, -0.5])
    prog = (Program(name="j").record(qa).record(qb, duration=2.0).record(qc, speed=0.25)
            .record(qc, move_kind="joint", name="dwell", duration=0.5))
    c = compile_program(prog, puma, dt=0.01)
    tr = c.trajectory
    assert c.ok and c.problems == ()
    assert np.all(np.diff(tr.t) > 0)
    segs = c.segments
    assert [s.move_index for s in segs] == [0, 1, 2, 3]
    assert segs[0].duration == 0.0  # already at P1
    assert segs[1].duration == pytest.approx(2.0)
    for s in segs:  # contiguous, and each ends exactly at its waypoint
        np.testing.assert_array_equal(tr.q[s.i_end], prog.waypoint(s.target).q)
        assert tr.t[s.i_start] == pytest.approx(s.t_start) and tr.t[s.i_end] == pytest.approx(
            s.t_end)
    assert segs[2].t_start == segs[1].t_end and segs[3].t_start == segs[2].t_end
    # speed 0.25: the slowest joint peaks at 25 % of its maximum speed
    seg = segs[2]
    qd = tr.qd[seg.i_start:seg.i_end + 1]
    ratio = np.abs(qd).max(axis=0) / max_joint_speeds(puma)
    assert ratio.max() == pytest.approx(0.25, rel=1e-3)
    # the dwell holds still for its duration
    assert segs[3].duration == pytest.approx(0.5)
    np.testing.assert_allclose(tr.q[segs[3].i_start:], np.tile(qc, (51, 1)), atol=1e-15)
    # starts and ends at rest
    np.testing.assert_allclose(tr.qd[[0, -1]], 0, atol=1e-12)
    assert c.move_at(1.0) == 1 and c.move_at(segs[2].t_start + 0.1) == 2
    assert c.segment(2) == seg


def test_linear_move_follows_a_straight_line(puma):
    qa, qb = near_qn(puma, [0] * 6, [0.3, -0.2, 0.3, 0.1, 0.2, -0.2])
    prog = Program(name="l").record(qa).record(qb, move_kind="linear", speed=0.1)
    c = compile_program(prog, puma)
    assert c.ok, c.problems
    seg = c.segments[1]
    T = fkine(puma, c.trajectory.q[seg.i_start:seg.i_end + 1])
    p0, p1 = fkine(puma, qa)[:3, 3], fkine(puma, qb)[:3, 3]
    u = (p1 - p0) / np.linalg.norm(p1 - p0)
    rel = T[:, :3, 3] - p0
    off_line = np.linalg.norm(rel - np.outer(rel @ u, u), axis=1)
    assert off_line.max() < 1e-8
    along = rel @ u
    assert np.all(np.diff(along) >= -1e-12)  # monotone along the line
    np.testing.assert_allclose(T[-1], fkine(puma, qb), atol=1e-8)
    # peak tool speed is the move's speed (0.1 m/s), or less when orientation sets the time
    v = np.linalg.norm(np.gradient(T[:, :3, 3], c.trajectory.t[seg.i_start:seg.i_end + 1],
                                   axis=0), axis=1)
    assert v.max() <= 0.1 * 1.01


def test_joints_a_linear_move_does_not_turn_stay_exactly_still(puma):
    # qs -> qr straight up: only the shoulder, elbow and wrist pitch turn; waist and the
    # wrist roll joints must not jitter by IK round-off (their Coulomb friction would
    # flip sign sample by sample in the torques)
    prog = Program(name="up").record(puma.pose("qs")).record(puma.pose("qr"), move_kind="linear")
    c = compile_program(prog, puma)
    seg = c.segments[1]
    tr = c.trajectory
    sl = slice(seg.i_start, seg.i_end + 1)
    for j in (0, 3, 5):
        assert np.all(tr.q[sl, j] == puma.pose("qs")[j])
        assert np.all(tr.qd[sl, j] == 0.0) and np.all(tr.qdd[sl, j] == 0.0)
    assert np.abs(tr.qd[sl, 1]).max() > 0.1  # the shoulder does move
    from robogui.engine.dynamics.dynamics import friction

    coulomb = friction(puma, tr.qd[sl])[:, 0]
    assert np.all(coulomb == 0.0)  # no friction flip on the still waist
    # and the TCP still runs on the straight line (held joints moved it < 0.1 um)
    P = fkine(puma, tr.q[sl])[:, :3, 3]
    p0, p1 = P[0], fkine(puma, puma.pose("qr"))[:3, 3]
    u = (p1 - p0) / np.linalg.norm(p1 - p0)
    rel = P - p0
    # (the timed path is a spline through IK solutions 2 mm apart: chord error < 0.5 um)
    assert np.linalg.norm(rel - np.outer(rel @ u, u), axis=1).max() < 5e-7


def test_blended_moves_use_mstraj(puma):
    qa, qb, qc = near_qn(puma, [0] * 6, [0.5, -0.2, 0.2, 0.3, 0.2, 0.3], [1.0, 0, 0, 0, 0, 0])
    prog = Program(name="b").record(qa).record(qb, blend=0.4).record(qc)
    c = compile_program(prog, puma, dt=0.01)
    tr = c.trajectory
    seg1, seg2 = c.segments[1], c.segments[2]
    assert seg1.t_end == seg2.t_start
    # the blend passes near qb without stopping there
    i = seg1.i_end
    assert np.abs(tr.qd[i]).max() > 0.05
    assert 0 < np.abs(tr.q[i] - qb).max() < 0.1
    np.testing.assert_allclose(tr.q[-1], qc, atol=1e-12)
    np.testing.assert_allclose(tr.qd[[0, -1]], 0, atol=1e-9)


def test_blends_that_cannot_happen_are_said(puma):
    qa, qb, qc = near_qn(puma, [0] * 6, [0.3, -0.2, 0.2, 0.1, 0.2, 0.1], [0.5, 0, 0, 0, 0, 0])
    prog = (Program(name="b").record(qa).record(qb, move_kind="linear", blend=0.2)
            .record(qc, blend=0.3))
    c = compile_program(prog, puma)
    infos = [p for p in c.problems if p.kind == "blend"]
    assert [(p.move_index, p.severity) for p in infos] == [(1, "info"), (2, "info")]
    assert "move 2 (linear to P2): its blend of 0.2 s is ignored: linear moves blend by a " \
           "radius (blend_radius_mm), not a time" == infos[0].message
    assert infos[1].message.endswith("ignored: no joint move follows to blend into")
    assert infos[0].time == pytest.approx(c.segment(1).t_end)
    assert c.ok  # information, not an error


def test_unreachable_line_is_reported(puma):
    # two poses either side of the base: the straight line between them passes the axis of
    # joint 1, where the Puma's wrist centre cannot go (shoulder offset 0.15 m)
    qa = np.array([-1.5, 0.6, 0.4, 0.0, 0.4, 0.0])
    qb = qa.copy()
    qb[0] = 1.5
    pa, pb = fkine(puma, qa)[:3, 3], fkine(puma, qb)[:3, 3]
    mid = 0.5 * (pa + pb)
    assert np.hypot(mid[0], mid[1]) < 0.02
    prog = Program(name="u").record(qa).record(qb, move_kind="linear", duration=2.0)
    c = compile_program(prog, puma)
    assert not c.ok
    ik = [p for p in c.problems if p.kind == "ik"]
    assert ik and all(p.severity == "error" and p.move_index == 1 for p in ik)
    assert "move 2 (linear to P2): no IK solution" in ik[0].message
    assert 0 < ik[0].time < 2.0
    assert np.all(np.isfinite(c.trajectory.q))


def test_linear_move_to_a_flipped_wrist_warns(puma):
    qa = puma.pose("qn") + np.array([0, 0, 0, 0.3, 0.2, 0])
    qb = qa + np.array([0.2, 0.1, -0.1, 0, 0, 0])
    flipped = qb + np.array([0, 0, 0, np.pi, 0, np.pi])
    flipped[4] = -qb[4]
    np.testing.assert_allclose(fkine(puma, flipped), fkine(puma, qb), atol=1e-12)
    prog = Program(name="f").record(qa).record(flipped, move_kind="linear", duration=1.0)
    c = compile_program(prog, puma)
    warn = [p for p in c.problems if p.kind == "configuration"]
    assert len(warn) == 1 and "joint 4 differs by 180.0°" in warn[0].message
    # in the user's display units when the app runs in rad
    c = compile_program(prog, puma, angle_unit="rad", length_unit="m")
    warn = [p for p in c.problems if p.kind == "configuration"]
    assert f"joint 4 differs by {np.pi:.3f} rad" in warn[0].message


def test_compile_errors(puma):
    with pytest.raises(ProgramError, match="have 2 joints but 'Puma 560' has 6"):
        compile_program(Program().record([0.0, 1.0]), puma)
    with pytest.raises(ProgramError, match="no moves"):
        compile_program(Program(), puma)
    c = compile_program(Program(), puma, q_start=puma.pose("qn"))
    assert len(c.trajectory) == 1 and c.segments == ()
