"""Issue 25 item 5: collision-free joint paths with OMPL (robogui.plan_path).

The demo case: the Puma 560 in the sample pick-and-place cell with a wall put up between
bin A and bin B, so the straight joint move from above bin A to above bin B runs the
forearm through the wall (check_trajectory says so). The planned path must:

* start and end exactly at the start and goal, keep every joint within its limits;
* pass check_trajectory (every link point moves at most 2 mm between checked states);
* pass independent checks: Pinocchio + coal built in tests/.../test_oracle_pinocchio.py
  from a URDF, on a six-joint arm in a cell of boxes, spheres and cylinders, sampled densely;
  and on the sample cell, three seeded problems, coal.collide asked pair by pair;
* be the same path for the same seed.

A goal cut off from the start (joints 2-6 locked by their limits, a wall in joint 1's
sweep, joint 1's limit on the other side) raises NoPathFound within its budget; a start or
goal in collision is refused naming the pair.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import robogui as rg
from robogui.session.motion_planning.planner import (
    NoPathFound,
    PlanningCancelled,
    PlanningError,
    plan,
)
from robogui.session.planning_scene.cell import CellObject
from robogui.session.planning_scene.cell_file import load_cell
from robogui.session.planning_scene.continuous import check_trajectory

ROOT = Path(__file__).resolve().parents[3]
#: the flange 15 cm above bin A and above bin B (assets/cells/pick-and-place.prog)
ABOVE_A = np.array([0.8007, 0.8611, -3.2447, 0.0, -0.758, 0.8007])
ABOVE_B = np.array([-0.2802, 0.8611, -3.2447, 0.0, -0.758, -0.2802])
WALL = CellObject("wall", "box", size=(0.3, 0.04, 0.5), xyz=(0.5, 0.0, 0.65))


@pytest.fixture(scope="module")
def puma():
    return rg.load_robot("puma560")


@pytest.fixture(scope="module")
def walled():
    return load_cell(ROOT / "assets" / "cells" / "pick-and-place.cell").with_object(WALL)


def _clear(robot, q, cell) -> bool:
    return check_trajectory(robot, np.arange(len(q), dtype=float), q, cell).clear


def test_the_straight_move_runs_through_the_wall(puma, walled):
    report = check_trajectory(puma, [0.0, 1.0], [ABOVE_A, ABOVE_B], walled)
    assert not report.clear
    assert {b for _, b in (c.pair for c in report.contacts)} == {"wall"}
    # and without the wall it would be clear: the wall is what the planner goes around
    assert _clear(puma, np.array([ABOVE_A, ABOVE_B]), walled.without("wall"))


def test_plan_path_goes_around_the_wall(puma, walled):
    q = rg.plan_path(puma, ABOVE_A, ABOVE_B, walled, timeout=10.0, seed=3)
    assert q.ndim == 2 and q.shape[1] == 6 and len(q) >= 3
    np.testing.assert_array_equal(q[0], ABOVE_A)
    np.testing.assert_array_equal(q[-1], ABOVE_B)
    lim = puma.qlim
    assert np.all(q >= lim[:, 0]) and np.all(q <= lim[:, 1])
    report = check_trajectory(puma, np.arange(len(q), dtype=float), q, walled)
    assert report.clear, report.contacts
    assert report.max_step <= 0.002 + 1e-12
    # simplified: a handful of via waypoints, not the planner's raw tree path
    assert len(q) <= 8


def test_the_same_seed_gives_the_same_path(puma, walled):
    # (a simplifier cut short by its time budget on a busy machine would differ: a long one)
    a = plan(puma, ABOVE_A, ABOVE_B, walled, timeout=10.0, seed=11, simplify_timeout=60.0)
    b = plan(puma, ABOVE_A, ABOVE_B, walled, timeout=10.0, seed=11, simplify_timeout=60.0)
    assert a.planned and b.planned
    np.testing.assert_array_equal(a.q, b.q)
    assert a.raw_count >= 3 and len(a.q) <= a.raw_count + 2


def test_a_clear_straight_path_is_returned_as_its_two_ends(puma, walled):
    q = rg.plan_path(puma, ABOVE_A, ABOVE_B, walled.without("wall"), timeout=1.0)
    np.testing.assert_array_equal(q, [ABOVE_A, ABOVE_B])
    # no cell: the robot alone, self-collisions only
    assert rg.plan_path(puma, puma.pose("qz"), puma.pose("qr")).shape == (2, 6)


def test_start_or_goal_in_collision_is_refused_naming_the_pair(puma, walled):
    inside = walled.with_object(CellObject("crate", "box", size=(0.3, 0.3, 0.3),
                                           xyz=(0.5, -0.3, 0.6)))
    with pytest.raises(PlanningError, match=r"the goal is in collision \(.*touches crate"):
        rg.plan_path(puma, ABOVE_A, ABOVE_B, inside, timeout=1.0)
    with pytest.raises(PlanningError, match=r"the start is in collision \(.*touches crate"):
        rg.plan_path(puma, ABOVE_B, ABOVE_A, inside, timeout=1.0)


def test_bad_requests_are_refused_with_the_reason(puma, walled):
    with pytest.raises(PlanningError, match="joint 2 is 5, outside its limits"):
        rg.plan_path(puma, [0, 5, 0, 0, 0, 0], ABOVE_B, walled)
    with pytest.raises(PlanningError, match="6 finite joint values"):
        rg.plan_path(puma, [0, np.nan, 0, 0, 0, 0], ABOVE_B, walled)
    with pytest.raises(PlanningError, match="6 finite joint values"):
        rg.plan_path(puma, [0, 0, 0], ABOVE_B, walled)
    with pytest.raises(PlanningError, match="timeout must be in"):
        rg.plan_path(puma, ABOVE_A, ABOVE_B, walled, timeout=0)
    with pytest.raises(PlanningError, match="seed must be a non-negative integer"):
        rg.plan_path(puma, ABOVE_A, ABOVE_B, walled, seed=-1)
    assert issubclass(rg.NoPathFound, rg.PlanningError)
    assert issubclass(rg.PlanningError, ValueError)


def _cut_off(puma):
    """Joints 2-6 held (limits 0.01 rad wide) at the bin pose: the arm can only swing about
    joint 1, and the wall stands in its sweep; the other way round is past joint 1's limit."""
    links = [L if j == 0 else L.replace(qlim=(ABOVE_A[j] - 0.005, ABOVE_A[j] + 0.005))
             for j, L in enumerate(puma.links)]
    return puma.with_links(links)


def test_a_goal_cut_off_by_the_wall_raises_no_path_found_within_its_budget(puma, walled):
    held = _cut_off(puma)
    goal = np.r_[ABOVE_B[0], ABOVE_A[1:]]  # bin B by joint 1 alone
    assert not _clear(held, np.array([ABOVE_A, goal]), walled)
    with pytest.raises(NoPathFound, match=r"no collision-free path found within 0.5 s") as exc:
        plan(held, ABOVE_A, goal, walled, timeout=0.5, seed=1)
    assert exc.value.timeout == 0.5


def test_cancel_stops_the_planner(puma, walled):
    with pytest.raises(PlanningCancelled, match="cancelled"):
        plan(_cut_off(puma), ABOVE_A, np.r_[ABOVE_B[0], ABOVE_A[1:]], walled, timeout=30.0,
             cancel=lambda: True)


def test_a_planned_path_is_clear_for_pinocchio_and_coal():
    """Independent check: the six-joint URDF arm of the collision oracle test in its cell;
    the planned path sampled every 0.002 rad of the largest joint step and checked by
    Pinocchio + coal (built from the URDF in that test, not by robogui)."""
    from tests.session.planning_scene.test_oracle_pinocchio import CELL, SIX, _oracle

    robot = rg.load_robot(SIX)
    qa = np.array([0.3, 0.6, -0.9, 0.0, 0.5, 0.0])
    qb = np.array([-1.9, 0.7, -0.9, 0.0, 0.5, 0.0])
    straight = np.linspace(qa, qb, 400)
    hit, _ = _oracle(SIX, CELL, straight, distances=False)
    assert hit.any() and not hit[0] and not hit[-1]  # the straight path collides
    q = rg.plan_path(robot, qa, qb, CELL, timeout=20.0, seed=1)
    dense = [q[:1]]
    for a, b in zip(q[:-1], q[1:], strict=True):
        k = int(np.ceil(np.abs(b - a).max() / 0.002))
        dense.append(a + np.linspace(0.0, 1.0, k + 1)[1:, None] * (b - a))
    dense = np.vstack(dense)
    hit, _ = _oracle(SIX, CELL, dense, distances=False)
    assert not hit.any(), f"{hit.sum()} of {len(dense)} states collide"


def test_the_segment_validator_agrees_with_check_trajectory(puma, walled):
    """The planner's validator clears states far from everything by their clearance instead
    of checking each; it must still say exactly what check_trajectory says, segment by
    segment (the same 2 mm grid), on free-to-free segments of every length."""
    from robogui.session.motion_planning.planner import _Segments

    seg = _Segments(puma, walled, 0.002)
    rng = np.random.default_rng(8)
    Q = puma.random_q(400, seed=8)
    Q = Q[~rg.check_collisions(puma, Q, walled, distance=False).colliding][:100]
    verdicts = []
    for a, b in zip(Q[0::2], Q[1::2], strict=False):
        b = a + rng.choice([0.1, 0.5, 1.0]) * (b - a)  # short and long segments
        expect = check_trajectory(puma, [0.0, 1.0], [a, b], walled).clear
        assert seg.clear(a, b) == expect, (a, b)
        verdicts.append(expect)
    verdicts = np.array(verdicts)
    assert verdicts.sum() >= 20 and (~verdicts).sum() >= 3  # both kinds were seen


#: sample-cell problems (start, goal), both free, whose straight joint path collides: the
#: first three of benchmarks/bench_planning.py's kind (seeded random pairs), rounded
SAMPLE_PROBLEMS = (
    ([2.128, 2.027, -2.671, 2.951, -0.641, 3.0],
     [-1.263, -0.109, -3.604, 1.974, 0.791, -4.164]),
    ([-2.275, -0.672, -3.673, -1.763, -0.123, 1.169],
     [0.193, 1.339, -3.004, -1.313, 1.715, 0.898]),
    ([2.622, -0.659, -3.486, 0.334, 0.987, -3.485],
     [-1.782, -0.259, -3.29, 2.711, -1.44, -2.215]),
)


def _coal_oracle(robot, cell, Q) -> np.ndarray:
    """Contact verdicts (m,) by coal.collide, pair by pair: the Puma's capsules (robogui's
    stick geometry, coal shapes made here from their sizes) placed by fkine_all, the cell's
    boxes and cylinders, the floor for all but the base and link 1. Only pairs whose
    bounding spheres (made here) overlap go to coal."""
    import coal

    from robogui.engine.collision_detection.robot_geometry import robot_geometry
    from robogui.engine.kinematics.kinematics import fkine_all

    geom = robot_geometry(robot)
    assert {p.kind for p in geom.pieces} == {"capsule"}
    caps = [coal.Capsule(p.size[0], p.size[1]) for p in geom.pieces]
    reach = np.array([p.size[0] + p.size[1] / 2 for p in geom.pieces])
    objs = [(coal.Box(*o.size) if o.shape == "box" else coal.Cylinder(*o.size), o.T, o.radius)
            for o in cell.objects if o.collides]
    floor = coal.Halfspace(np.array([0.0, 0.0, 1.0]), cell.floor_z)
    tf = lambda T: coal.Transform3s(T[:3, :3].copy(), T[:3, 3].copy())  # noqa: E731
    req = coal.CollisionRequest()
    hit = np.zeros(len(Q), bool)
    F = np.asarray(fkine_all(robot, Q))
    for i in range(len(Q)):
        P = [cell.base @ F[i, p.frame] @ p.T for p in geom.pieces]
        c = np.array([T[:3, 3] for T in P])  # capsule centres (the shape's own origin)
        pairs = [(a, b) for a, b in geom.self_pairs
                 if np.linalg.norm(c[a] - c[b]) <= reach[a] + reach[b]]
        tests = [(caps[a], P[a], caps[b], P[b]) for a, b in pairs]
        tests += [(caps[a], P[a], s, T) for a in range(len(caps)) for s, T, r in objs
                  if np.linalg.norm(c[a] - T[:3, 3]) <= reach[a] + r]
        tests += [(caps[a], P[a], floor, np.eye(4)) for a, p in enumerate(geom.pieces)
                  if p.frame not in (0, 1) and c[a, 2] - reach[a] <= cell.floor_z]
        hit[i] = any(coal.collide(s1, tf(t1), s2, tf(t2), req, coal.CollisionResult())
                     for s1, t1, s2, t2 in tests)
    return hit


def test_sample_cell_plans_are_clear_for_coal_pair_by_pair():
    """Issue 25's test on the sample cell, in small: seeded start/goal pairs whose straight
    joint path collides; each is planned, and its path sampled every 0.01 rad of the
    largest joint step is clear for coal asked pair by pair (no clearance shortcuts, no
    numpy capsule distances), and the straight path is not."""
    puma = rg.load_robot("puma560")
    cell = load_cell(ROOT / "assets" / "cells" / "pick-and-place.cell")
    for k, (a, b) in enumerate(SAMPLE_PROBLEMS):
        a, b = np.array(a), np.array(b)
        assert not _coal_oracle(puma, cell, np.array([a, b])).any()
        assert _coal_oracle(puma, cell, np.linspace(a, b, 200)).any()
        q = rg.plan_path(puma, a, b, cell, timeout=10.0, seed=k)
        dense = [q[:1]]
        for x, y in zip(q[:-1], q[1:], strict=True):
            n = int(np.ceil(np.abs(y - x).max() / 0.01))
            dense.append(x + np.linspace(0.0, 1.0, n + 1)[1:, None] * (y - x))
        hit = _coal_oracle(puma, cell, np.vstack(dense))
        assert not hit.any(), f"problem {k}: {hit.sum()} states collide"


def test_twenty_sample_cell_problems_are_planned_and_clear_for_coal():
    """Issue 25's count: 20 seeded start/goal pairs on the sample cell, both free (for coal)
    and joined by a straight joint path that collides (for coal); a plan is found for
    each, and each plan, sampled every 0.02 rad of the largest joint step, is clear for coal
    asked pair by pair (the oracle above, built in this file)."""
    puma = rg.load_robot("puma560")
    cell = load_cell(ROOT / "assets" / "cells" / "pick-and-place.cell")
    rng = np.random.default_rng(2025)
    lim = puma.qlim
    found = 0
    while found < 20:
        a, b = rng.uniform(lim[:, 0], lim[:, 1], (2, puma.n))
        if _coal_oracle(puma, cell, np.array([a, b])).any():
            continue
        if not _coal_oracle(puma, cell, np.linspace(a, b, 60)).any():
            continue  # straight is clear: not a planning problem
        # a generous budget: a loaded machine must not make this a timing test
        q = rg.plan_path(puma, a, b, cell, timeout=60.0, seed=found)
        np.testing.assert_array_equal(q[0], a)
        np.testing.assert_array_equal(q[-1], b)
        dense = [q[:1]]
        for x, y in zip(q[:-1], q[1:], strict=True):
            n = int(np.ceil(np.abs(y - x).max() / 0.02))
            dense.append(x + np.linspace(0.0, 1.0, n + 1)[1:, None] * (y - x))
        hit = _coal_oracle(puma, cell, np.vstack(dense))
        assert not hit.any(), f"problem {found}: {hit.sum()} states collide"
        found += 1
