"""Issue 24, items 6 and 7 without a window: the session's live collisions and clearance,
the guard that stops a jog or a drag before contact, and the clearance along a trajectory.

Values are checked against plain geometry (a straight arm and a ball: the distance from a
point to a segment) and against coal called directly in the test."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import robogui as rg
from robogui.engine.collision_detection.robot_geometry import default_radius
from robogui.session import Session
from robogui.session.planning_scene.cell import Cell, CellObject
from robogui.session.planning_scene.live import check_step, length_text

# a straight two-link arm 2 m long in the xy plane; its link sticks are capsules of radius r
ARM = rg.Robot([rg.Link(a=1.0), rg.Link(a=1.0)], name="planar")
R = default_radius(ARM)
BALL = 0.1


def ball_at(x: float, y: float = 0.0) -> Cell:
    return Cell((CellObject("ball", "sphere", (BALL,), xyz=(x, y, 0.0)),), floor=False)


def segment_point_distance(p0, p1, c) -> float:
    p0, p1, c = (np.asarray(v, float) for v in (p0, p1, c))
    d = p1 - p0
    s = np.clip((c - p0) @ d / (d @ d), 0.0, 1.0)
    return float(np.linalg.norm(p0 + s * d - c))


def test_clearance_is_the_distance_from_the_ball_to_the_outer_link():
    s = Session(ARM, q=[0.0, 0.0])
    s.set_cell(ball_at(2.5))
    pair, d = s.clearance
    # the outer link runs from (1, 0) to (2, 0): its end is 0.5 m from the ball's centre
    assert pair == ("link2", "ball")
    assert d == pytest.approx(0.5 - BALL - R, abs=1e-9)
    assert not s.collisions.colliding[0] and s.contact_frames == frozenset()
    # shaped as check_collisions gives q of shape (1, n)
    assert s.collisions.colliding.shape == (1,) and s.collisions.pairs == [[]]
    assert s.collisions.nearest[0] == pair and s.collisions.distance[0] == d


def test_clearance_follows_q_and_the_cell_and_is_computed_once_per_change():
    s = Session(ARM, q=[0.3, 0.0])
    s.set_cell(ball_at(1.5, 0.6))
    first = s.collisions
    assert s.collisions is first  # cached
    c = np.array([1.5, 0.6, 0.0])
    tip = 2.0 * np.array([math.cos(0.3), math.sin(0.3), 0.0])
    elbow = tip / 2
    want = min(segment_point_distance(elbow, tip, c), segment_point_distance([0, 0, 0], elbow, c))
    assert s.clearance[1] == pytest.approx(want - BALL - R, abs=1e-9)
    s.set_q([0.0, 0.0])
    assert s.collisions is not first
    assert s.clearance[1] == pytest.approx(0.6 - BALL - R, abs=1e-9)
    s.set_cell(ball_at(1.5, 0.8))
    assert s.clearance[1] == pytest.approx(0.8 - BALL - R, abs=1e-9)
    s.set_cell(None)  # the robot alone: the nearest of its own pairs, the base joint's
    # capsule (1.3 r about the z axis at the origin) and the outer link from (1, 0) to (2, 0)
    assert s.clearance == (("base", "link2"), pytest.approx(1.0 - 1.3 * R - R, abs=1e-9))


def test_distances_agree_with_coal_called_directly():
    import coal

    s = Session(ARM, q=[0.4, -0.7])
    s.set_cell(Cell((CellObject("crate", "box", (0.3, 0.2, 0.5), xyz=(1.2, 1.1, 0.1),
                                rpy=(0.0, 0.0, 0.4)),), floor=False))
    F = np.asarray(rg.Robot.fkine_all(ARM, s.q))
    box = coal.Box(0.3, 0.2, 0.5)
    T = s.cell.objects[0].T
    best = math.inf
    for k in (1, 2):  # the two link capsules, each along x of its frame from -a to 0
        p0 = F[k] @ np.array([-1.0, 0, 0, 1])
        p1 = F[k][:, 3]
        z = (p1 - p0)[:3] / np.linalg.norm((p1 - p0)[:3])
        x = np.cross(z, [0, 0, 1.0])
        x /= np.linalg.norm(x)
        Rm = np.column_stack([x, np.cross(z, x), z])
        cap = coal.Capsule(R, 1.0)
        res = coal.DistanceResult()
        d = coal.distance(cap, coal.Transform3s(Rm, (p0[:3] + p1[:3]) / 2), box,
                          coal.Transform3s(T[:3, :3], T[:3, 3]), coal.DistanceRequest(), res)
        best = min(best, d)
    for k in (0, 1):  # the joint capsules: 1.3 r thick, 2.2 r long, on the z axis of frame k
        res = coal.DistanceResult()
        d = coal.distance(coal.Capsule(1.3 * R, 2.2 * R),
                          coal.Transform3s(F[k][:3, :3], F[k][:3, 3]), box,
                          coal.Transform3s(T[:3, :3], T[:3, 3]), coal.DistanceRequest(), res)
        best = min(best, d)
    assert s.clearance[1] == pytest.approx(best, abs=1e-6)
    assert s.clearance[0][1] == "crate"


def test_links_in_contact_are_named_and_their_frames_given():
    s = Session(ARM, q=[0.0, 0.0])
    s.set_cell(ball_at(1.6))
    rep = s.collisions
    assert rep.colliding[0] and ("link2", "ball") in rep.pairs[0]
    assert s.clearance[1] == pytest.approx(-(BALL + R), abs=1e-9)  # the axis passes through
    assert s.contact_frames == frozenset({2})  # link 2's stick hangs on frame 2


def test_self_collision_without_a_cell():
    folded = rg.Robot([rg.Link(a=1.0), rg.Link(a=1.0), rg.Link(a=1.0)], name="three")
    s = Session(folded, q=[0.0, 0.0, 0.0])
    assert s.collisions is not None and not s.collisions.colliding[0]
    s.set_q([0.0, math.pi - 0.05, math.pi - 0.05])  # link 3 folded back onto link 1
    assert s.collisions.colliding[0]
    assert {frozenset(p) for p in s.collisions.pairs[0]} >= {frozenset(("link1", "link3"))}
    assert {1, 3} <= s.contact_frames


def contact_angle(x: float) -> float:
    """Where the straight arm, swinging about the base, first touches a ball at (x, 0)."""
    return math.asin((BALL + R) / x)


def test_a_step_through_the_ball_stops_just_before_it():
    s = Session(ARM, q=[0.5, 0.0])
    s.set_cell(ball_at(1.8))
    check = s.check_step([-0.5, 0.0])  # both ends clear; the ball lies between them
    assert check.blocked and check.pair == ("link2", "ball")
    theta = float(check.q[0])
    gap = 1.8 * math.sin(theta) - BALL - R  # ball centre to the straight arm, minus radii
    # stopped before contact, within the 2 mm step of the check (at 1.8 m of a 2 m lever)
    assert 0.0 <= gap <= 0.002
    assert theta >= contact_angle(1.8)
    clearance = 1.8 * math.sin(0.5) - BALL - R
    assert check.reason == f"link2 would hit 'ball' (clearance {clearance * 1e3:.3g} mm)"


def test_a_clear_step_passes_and_the_toggle_turns_the_guard_off():
    s = Session(ARM, q=[0.5, 0.0])
    s.set_cell(ball_at(1.8))
    ok = s.check_step([0.6, 0.0])
    assert not ok.blocked and np.allclose(ok.q, [0.6, 0.0]) and ok.reason is None
    s.stop_before_contact = False
    off = s.check_step([-0.5, 0.0])
    assert not off.blocked and np.allclose(off.q, [-0.5, 0.0])


def test_in_contact_only_moves_that_get_out_are_allowed():
    s = Session(ARM, q=[0.02, 0.0])
    s.set_cell(ball_at(1.8))
    assert s.collisions.colliding[0]
    deeper = s.check_step([0.0, 0.0])
    assert deeper.blocked and "deeper into 'ball'" in deeper.reason
    assert np.allclose(deeper.q, s.q)
    out = s.check_step([0.2, 0.0])
    assert not out.blocked


def test_the_reason_speaks_the_display_unit():
    s = Session(ARM, q=[0.5, 0.0])
    s.set_cell(ball_at(1.8))
    s.display.length_unit = "m"
    assert s.check_step([-0.5, 0.0]).reason.endswith(" m)")
    assert length_text(0.0031, "mm") == "3.1 mm" and length_text(0.0031, "m") == "0.0031 m"


def test_check_step_without_a_session_takes_the_report_it_is_given():
    from robogui.session.planning_scene.collisions import collision_world

    world = collision_world(ARM, ball_at(1.8))
    res = check_step(world, [0.5, 0.0], [-0.5, 0.0], object_names=("ball",))
    assert res.blocked and 0.0 < res.fraction < 1.0


def test_clearance_along_a_trajectory_matches_the_geometry():
    s = Session(ARM, q=[0.5, 0.0])
    s.set_cell(ball_at(1.8))
    t = np.linspace(0.0, 2.0, 41)
    theta = np.linspace(0.5, 0.1, 41)
    q = np.column_stack([theta, np.zeros_like(theta)])
    s.set_trajectory(rg.Trajectory(t, q))
    traj = s.trajectory
    curve = s.trajectory_clearance
    assert curve is s.trajectory_clearance  # kept per trajectory and cell
    th = np.asarray(traj.q)[:, 0]
    want = 1.8 * np.sin(th) - BALL - R
    assert np.allclose(curve.distance, want, atol=1e-9)
    d, tm, pair = curve.smallest
    assert d == pytest.approx(want.min()) and pair == ("link2", "ball")
    s.set_cell(ball_at(1.8, 1.0))
    assert s.trajectory_clearance is not curve


def test_no_collision_geometry_gives_none_and_a_mesh_error_is_said():
    s = Session(ARM, q=[0.0, 0.0])
    s._world_cache = (s.robot, s.cell, None, "cannot read x.stl", None)  # nothing held
    assert s.collisions is None and s.clearance is None and s.contact_frames == frozenset()
    assert s.collision_error == "cannot read x.stl"
    assert not s.check_step([0.1, 0.0]).blocked


def test_pair_distance_is_that_pair_s_even_when_another_is_nearer():
    from robogui.session.planning_scene.live import pair_distance

    s = Session(ARM, q=[0.0, 0.0])
    s.set_cell(Cell((CellObject("ball", "sphere", (BALL,), xyz=(2.5, 0.0, 0.0)),
                     CellObject("far", "sphere", (BALL,), xyz=(0.5, 1.0, 0.0))), floor=False))
    world = s.collision_world
    assert pair_distance(world, s.q, "link2", "ball") == pytest.approx(0.5 - BALL - R, abs=1e-9)
    # link 1's stick runs from (0, 0) to (1, 0): 1 m below the far ball's centre
    assert pair_distance(world, s.q, "link1", "far") == pytest.approx(1.0 - BALL - R, abs=1e-9)


def test_jogging_the_puma_down_onto_a_box_stops_before_it_with_the_reason():
    from robogui.session.teach.jog import jog_step, stop_before_contact

    puma = rg.load_robot("puma560")
    s = Session(puma)
    s.go_to_pose("qn")
    T = s.T
    top = T[2, 3] - 0.10  # the box's top 10 cm below the tool point
    cell = Cell((CellObject("box", "box", (0.3, 0.3, 0.1), xyz=(T[0, 3], T[1, 3], top - 0.05)),),
                floor=False)
    s.set_cell(cell)
    messages = []
    for _ in range(20):
        res = stop_before_contact(s, jog_step(s.robot, s.q, "z", -1, 0.01))
        if res.moved:
            s.set_q(res.q_new)
        messages.append(res.message)
        if res.message and not res.moved:
            break
    reason = messages[-1]
    assert reason is not None and " would hit 'box' (clearance " in reason
    # stopped before contact (checked by the public API, built apart from the session)
    here = rg.check_collisions(puma, s.q, cell)
    assert not here.colliding and 0.0 <= here.distance <= 0.002 + 1e-9
    # the jog's own next step (unguarded) would have touched the box
    nxt = jog_step(puma, s.q, "z", -1, 0.01).q_new
    assert rg.check_collisions(puma, nxt, cell).colliding
    # and every allowed pose stayed clear on the way down: the tool point went down by
    # whole steps until the last (shortened) one
    assert s.T[2, 3] < T[2, 3] - 0.05


def test_a_step_let_through_is_checked_once_and_its_report_is_the_new_state_s():
    s = Session(ARM, q=[0.5, 0.0])
    s.set_cell(ball_at(1.8))
    world = s.collision_world
    assert s.clearance is not None  # the shown state is checked (once)
    calls = []
    plain = world.check
    world.check = lambda *a, **k: calls.append(a) or plain(*a, **k)  # counts the checks
    try:
        check = s.check_step([0.49, 0.0])
        assert not check.blocked and check.report is not None and len(calls) == 1
        s.set_q(check.q, changing=True)
        assert s.clearance[1] == pytest.approx(1.8 * math.sin(0.49) - BALL - R, abs=1e-9)
        assert s.collisions.distance[0] == check.report.distance
        assert len(calls) == 1  # no second check of the same state
        s.set_q([0.3, 0.0])  # another state: checked afresh
        assert s.clearance[1] == pytest.approx(1.8 * math.sin(0.3) - BALL - R, abs=1e-9)
        assert len(calls) == 2
    finally:
        del world.check


def test_robots_too_big_to_check_every_frame_are_said_so_not_checked(monkeypatch):
    from robogui.session.planning_scene import live

    chain = rg.Robot([rg.Link(a=0.05, alpha=0.3)] * (live.MAX_LIVE_BODIES + 1), name="snake")
    s = Session(chain)
    assert s.collisions is None and s.clearance is None
    assert f"more than {live.MAX_LIVE_BODIES} links" in s.collision_error
    assert not s.check_step(s.q + 0.1).blocked
    # a cell of many objects: the pairs are counted (4 pieces of the arm times 30 balls, and
    # its self pairs) before anything is checked
    monkeypatch.setattr(live, "MAX_LIVE_PAIRS", 100)
    balls = Cell(tuple(CellObject(f"b{k}", "sphere", (0.01,), xyz=(5.0 + 0.1 * k, 0.0, 0.0))
                       for k in range(30)), floor=False)
    s2 = Session(ARM, q=[0.0, 0.0])
    s2.set_cell(balls)
    assert s2.collisions is None and "pairs to check" in s2.collision_error


@pytest.mark.parametrize("which", ["six primitives", "puma in the demo cell"])
def test_a_check_helped_by_the_previous_state_s_bounds_is_exactly_the_plain_check(which):
    from pathlib import Path

    from robogui.session.planning_scene.collisions import collision_world
    from robogui.session.planning_scene.live import check_near

    root = Path(__file__).resolve().parents[3]
    if which == "six primitives":
        robot = rg.load_robot(root / "tests" / "data" / "collision" / "six_primitives.urdf")
        cell = Cell((CellObject("crate", "box", (0.3, 0.3, 0.3), xyz=(0.4, 0.2, 0.3)),
                     CellObject("drum", "cylinder", (0.1, 0.5), xyz=(-0.3, 0.3, 0.25)),
                     CellObject("ball", "sphere", (0.12,), xyz=(0.2, -0.4, 0.5))))
    else:
        robot = rg.load_robot("puma560")
        cell = rg.load_cell(root / "assets" / "cells" / "pick-and-place.cell")
    world = collision_world(robot, cell)
    rng = np.random.default_rng(7)
    q = robot.random_q(40, seed=8)
    for q0 in q:
        q1 = robot.clip_q(q0 + rng.normal(0.0, 0.02, robot.n))  # a drag frame's step
        rep0 = world.check(q0)
        plain = world.check(q1)
        helped = check_near(world, q1, q0, rep0)
        assert helped.colliding == plain.colliding
        assert helped.distance == pytest.approx(plain.distance, abs=1e-9)
        assert sorted(helped.pairs) == sorted(plain.pairs)
        assert helped.nearest == plain.nearest or helped.distance == pytest.approx(
            plain.distance, abs=1e-12)


def test_a_held_part_is_in_the_live_checks_and_not_against_what_it_stood_on():
    """While the gripper holds a part (session.held), the live world carries it on the tip
    link: a box put where the part passes is a contact of the part, not of a link; the bin
    it was lifted from is not checked against it."""
    from robogui.session.planning_scene.carried import grasp_nearest
    from robogui.session.teach.program_file import load_program

    root = Path(__file__).resolve().parents[3] / "assets" / "cells"
    cell = rg.load_cell(root / "pick-and-place.cell")
    prog = load_program(root / "pick-and-place.prog")
    s = Session(rg.load_robot("puma560"))
    s.set_cell(cell)
    grasp = next(i for i, m in enumerate(prog.moves) if m.kind == "grasp")
    at = next(m.target for m in reversed(prog.moves[:grasp]) if m.kind != "release")
    s.set_q(prog.waypoint(at).q)
    held = grasp_nearest(cell, s.T)  # TCP in the robot's frame, as the Jog dock passes it
    s.set_held(held)
    assert s.collisions is not None and not s.collisions.colliding[0], s.collisions.pairs[0]
    part = s.object_poses()[held.name]
    # a block right where the held part is: the part touches it, the tip link does not
    block = CellObject("block", "sphere", (0.01,), xyz=tuple(part[:3, 3]))
    s.set_cell(cell.with_object(block))
    s.set_held(held)
    pairs = s.collisions.pairs[0]
    assert (held.name, "block") in pairs or ("block", held.name) in pairs, pairs
    s.set_held(None)  # let go: the part is back in the bin, the block hits nothing held
    assert all(held.name not in p for p in s.collisions.pairs[0])
