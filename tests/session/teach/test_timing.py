"""Programs timed as a controller would: within every joint's limits, time-optimal against
an independent TOPP-RA run, blend zones that round corners, circular moves on their circle."""

import math
from pathlib import Path

import numpy as np
import pytest
import toppra
import toppra.algorithm as algo
import toppra.constraint as constraint

from robogui.engine.kinematics.kinematics import fkine
from robogui.io.robotfile import load_robot
from robogui.session.teach.compile import compile_program, cycle_time_line
from robogui.session.teach.program import Move, Program
from robogui.session.teach.program_file import load_program

ASSETS = Path(__file__).resolve().parents[3] / "assets"
DT = 0.002


@pytest.fixture(scope="module")
def puma():
    return load_robot("puma560")


def _limits(robot):
    """The documented defaults, derived here: 180 deg/s and 5 x that per second."""
    v = np.array([L.qd_max if L.qd_max else math.pi for L in robot.links])
    a = np.array([L.qdd_max if L.qdd_max else 5 * v[j] for j, L in enumerate(robot.links)])
    return v, a


def _within_limits(c, robot):
    v, a = _limits(robot)
    q, t = c.trajectory.q, c.trajectory.t
    h = np.diff(t)
    vel = np.diff(q, axis=0) / h[:, None]
    acc = np.diff(vel, axis=0) / (0.5 * (h[1:] + h[:-1]))[:, None]
    assert np.all(np.abs(vel) <= v * 1.005), (np.abs(vel) / v).max(axis=0)
    assert np.all(np.abs(acc) <= a * 1.005), (np.abs(acc) / a).max(axis=0)


def _toppra_optimum(run):
    """TOPP-RA's own optimum on the run's path: toppra's default grid and parametrizer."""
    _, s, y, vlim, alim, _n = run
    alim = np.where(np.isfinite(alim), alim, 1e9)
    path = toppra.SplineInterpolator(s, y)
    inst = algo.TOPPRA([constraint.JointVelocityConstraint(np.column_stack([-vlim, vlim])),
                        constraint.JointAccelerationConstraint(np.column_stack([-alim, alim]))],
                       path)
    return inst.compute_trajectory(0, 0).duration


@pytest.mark.parametrize("name", sorted(p.name for p in ASSETS.glob("*.prog")))
def test_sample_programs_within_limits_and_time_optimal(puma, name):
    prog = load_program(ASSETS / name)
    c = compile_program(prog, puma, dt=DT)
    assert c.ok, c.problems
    _within_limits(c, puma)
    # same path, independent TOPP-RA: the compiled duration is its optimum within 2 %
    optimum = sum(_toppra_optimum(run) for run in c.runs)
    assert c.cycle_time == pytest.approx(optimum, rel=0.02)
    assert all(label for label in c.active_limits[1:])  # every move that moves says why
    assert cycle_time_line(c).startswith(f"cycle time {c.cycle_time:.3f} s")


def test_speed_and_accel_overrides_slow_a_move_down(puma):
    qa = puma.pose("qn")
    qb = qa + np.array([1.0, -0.3, 0.2, 0.5, 0.2, 0.4])
    fast = Program().record(qa).record(qb)
    slow = Program().record(qa).record(qb, speed_percent=50.0, accel_percent=25.0)
    cf, cs = compile_program(fast, puma, dt=DT), compile_program(slow, puma, dt=DT)
    _within_limits(cs, puma)
    v, a = _limits(puma)
    assert np.abs(cs.trajectory.qd).max(axis=0).max() <= 0.5 * v[0] * 1.005
    # long joint 1 move: at 50 % speed and 25 % acceleration it takes longer than twice
    assert cs.cycle_time > 2 * cf.cycle_time
    assert cf.active_limits[1].startswith("joint 1")


def _corner(puma):
    q0 = puma.pose("qn") + np.array([0.0, 0.0, 0.0, 0.0, 0.3, 0.0])
    T0 = fkine(puma, q0)
    from robogui.engine.kinematics.ikine import ikine

    def at(dx, dz):
        T = T0.copy()
        T[0, 3] += dx
        T[2, 3] += dz
        return np.asarray(ikine(puma, T, q0=q0).q, dtype=float)

    return q0, at(0.0, 0.2), at(0.2, 0.2)


def test_linear_corner_with_50_mm_blend(puma):
    qa, qc, qb = _corner(puma)  # up 200 mm, then along x 200 mm: a right angle at qc
    prog = (Program(name="corner").record(qa).record(qc, move_kind="linear", blend_radius=0.05)
            .record(qb, move_kind="linear"))
    c = compile_program(prog, puma, dt=DT)
    assert c.ok, c.problems
    _within_limits(c, puma)
    P = fkine(puma, c.trajectory.q)[:, :3, 3]
    C = fkine(puma, qc)[:3, 3]
    A, B = fkine(puma, qa)[:3, 3], fkine(puma, qb)[:3, 3]
    d = np.linalg.norm(P - C, axis=1)
    assert d.min() <= 0.05 and d.min() > 0.005  # rounds the corner within the radius
    # the path leaves the first line within 50 mm of the corner and joins the second within
    # 50 mm: off both lines only inside the zone (to 10 um: the timed path is a spline
    # through IK solutions, which rings by ~1 um where the curvature jumps at the zone's edge)
    ua, ub = (C - A) / np.linalg.norm(C - A), (B - C) / np.linalg.norm(B - C)
    off_a = np.linalg.norm(np.cross(P - A, ua), axis=1)
    off_b = np.linalg.norm(np.cross(P - C, ub), axis=1)
    assert np.all((np.minimum(off_a, off_b) < 1e-5) | (d <= 0.05 + 1e-9))
    # never through the far side: nothing past the corner along either line
    assert np.all((P - C) @ ua <= 1e-5) and np.all((P - C) @ -ub <= 1e-5)
    # no stop at the corner: the tool keeps above the documented floor through the zone,
    # 0.05 m/s (a fifth of the 0.25 m/s tool-speed limit)
    t = c.trajectory.t
    v = np.linalg.norm(np.gradient(P, t, axis=0), axis=1)
    zone = d <= 0.05
    assert v[zone].min() > 0.05
    # against a fine point the blend saves time
    fine = prog.update_move(1, blend_radius=0.0)
    assert compile_program(fine, puma, dt=DT).cycle_time > c.cycle_time


def test_joint_moves_blend_within_the_radius(puma):
    qa = puma.pose("qn")
    qb = qa + np.array([0.5, -0.2, 0.2, 0.0, 0.2, 0.0])
    qc = qb + np.array([0.4, 0.3, -0.1, 0.0, 0.0, 0.0])
    prog = Program().record(qa).record(qb, blend_radius=0.03).record(qc)
    c = compile_program(prog, puma, dt=DT)
    _within_limits(c, puma)
    P = fkine(puma, c.trajectory.q)[:, :3, 3]
    d = np.linalg.norm(P - fkine(puma, qb)[:3, 3], axis=1)
    assert 0 < d.min() <= 0.03
    i = int(np.argmin(d))
    assert np.abs(c.trajectory.qd[i]).max() > 0.1  # passing, not stopping
    np.testing.assert_array_equal(c.trajectory.q[-1], qc)


def test_movec_lies_on_its_circle(puma):
    q0 = puma.pose("qn") + np.array([0.0, 0.0, 0.0, 0.0, 0.3, 0.0])
    from robogui.engine.kinematics.ikine import ikine

    T0 = fkine(puma, q0)

    def at(dx, dy):
        T = T0.copy()
        T[0, 3] += dx
        T[1, 3] += dy
        return np.asarray(ikine(puma, T, q0=q0).q, dtype=float)

    qv, q1 = at(0.1, 0.1), at(0.2, 0.0)  # a half circle of radius 0.1 m about x + 0.1
    prog = (Program(name="arc").add_waypoint(q0, "start").add_waypoint(qv, "via")
            .add_waypoint(q1, "end").insert_move(Move("joint", "start"))
            .insert_move(Move("circular", "end", via="via")))
    c = compile_program(prog, puma, dt=DT)
    assert c.ok, c.problems
    _within_limits(c, puma)
    seg = c.segment(1)
    P = fkine(puma, c.trajectory.q[seg.i_start:seg.i_end + 1])[:, :3, 3]
    # the circle through the three points, derived here: centre in their plane,
    # equidistant from them
    p0, pv, p1 = (fkine(puma, q)[:3, 3] for q in (q0, qv, q1))
    n = np.cross(pv - p0, p1 - p0)
    M = np.array([pv - p0, p1 - p0, n])
    rhs = np.array([(pv @ pv - p0 @ p0) / 2, (p1 @ p1 - p0 @ p0) / 2, n @ p0])
    centre = np.linalg.solve(M, rhs)
    radius = np.linalg.norm(p0 - centre)
    assert radius == pytest.approx(0.1, abs=1e-6)
    np.testing.assert_allclose(np.linalg.norm(P - centre, axis=1), radius, atol=1e-6)
    np.testing.assert_allclose((P - centre) @ (n / np.linalg.norm(n)), 0.0, atol=1e-6)
    # through the via point's side: the arc reaches y = +0.1 about the start
    assert (P[:, 1] - p0[1]).max() == pytest.approx(0.1, abs=1e-4)
    # orientation kept (start and end orientations equal here: slerp holds it)
    R = fkine(puma, c.trajectory.q[seg.i_start:seg.i_end + 1])[:, :3, :3]
    assert np.abs(R - T0[:3, :3]).max() < 1e-6


def test_joint_linear_and_circular_moves_blend_with_each_other(puma):
    qa, qc, qb = _corner(puma)
    q0 = puma.pose("qn") + np.array([0.3, -0.1, 0.1, 0.0, 0.2, 0.0])
    prog = (Program(name="mixed").add_waypoint(q0, "start").add_waypoint(qa, "a")
            .add_waypoint(qc, "c").add_waypoint(qb, "b")
            .insert_move(Move("joint", "start"))
            .insert_move(Move("joint", "a", blend_radius=0.03))   # joint into linear
            .insert_move(Move("linear", "c", blend_radius=0.04))  # linear into circular
            .insert_move(Move("circular", "start", via="b")))
    c = compile_program(prog, puma, dt=DT)
    assert c.ok, c.problems
    _within_limits(c, puma)
    P = fkine(puma, c.trajectory.q)[:, :3, 3]
    t = c.trajectory.t
    v = np.linalg.norm(np.gradient(P, t, axis=0), axis=1)
    for name, r in (("a", 0.03), ("c", 0.04)):
        d = np.linalg.norm(P - fkine(puma, prog.waypoint(name).q)[:3, 3], axis=1)
        assert 0 < d.min() <= r + 1e-9  # cuts the corner within its radius
        assert v[d <= r].min() > 0.02  # and does not stop in it
    # one run from the first fine point to the last: the arm stops only at the ends
    assert len(c.runs) == 1 and c.runs[0][0] == (1, 2, 3)


def test_a_blend_that_cannot_be_made_is_said(puma):
    qa = puma.pose("qn")
    qb = qa + np.array([0.0, 0.01, 0.0, 0.0, 0.0, 0.0])  # a move of a few mm: no room
    qc = qb + np.array([0.5, 0.0, 0.0, 0.0, 0.0, 0.0])   # to round its corner at 20 mm
    prog = Program().record(qa).record(qb, blend_radius=0.02).record(qc)
    c = compile_program(prog, puma, dt=DT)
    notes = [p for p in c.problems if p.kind == "blend"]
    assert len(notes) == 1 and notes[0].severity == "info" and notes[0].move_index == 1
    assert "cannot round this corner" in notes[0].message
    _within_limits(c, puma)
    np.testing.assert_array_equal(c.trajectory.q[-1], qc)


def test_a_corner_where_the_tool_stays_put_blends_in_joint_space(puma):
    qa = puma.pose("qn")
    qb = qa + np.array([0.0, 0.0, 0.0, 0.4, 0.0, 0.0])  # wrist roll only: the Puma's tool
    qc = qb + np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.5])  # point (wrist centre) stays put
    c = compile_program(Program().record(qa).record(qb, blend_radius=0.02).record(qc), puma,
                        dt=DT)
    assert not [p for p in c.problems if p.kind == "blend"]
    _within_limits(c, puma)
    i = int(np.argmin(np.abs(c.trajectory.q - qb).max(axis=1)))
    assert np.abs(c.trajectory.qd[i]).max() > 0.05  # no stop at the corner
