"""Issue 24, items 4-5, against an oracle: robogui's check_collisions agrees with Pinocchio
+ coal built independently here (buildGeomFromUrdf, the same pair rule: every two bodies
not joined by one joint, every robot shape against every object, the floor against all
but the base and the first link; computeDistances / computeCollisions).

* a 6-joint URDF with box, cylinder and sphere collision shapes in a cell of boxes, spheres
  and cylinders and the floor: 2,000 random states, verdicts equal, smallest distances
  within 1e-6 m;
* the Panda (example-robot-data) with its collision meshes in the same cell: verdicts of
  2,000 states at least 99 % equal (the same coal calls on the same meshes: all equal).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import robogui as rg
from robogui.session.planning_scene.cell import Cell, CellObject

pin = pytest.importorskip("pinocchio")
coal = pytest.importorskip("coal")

N_PANDA = 2000
SIX = Path(__file__).resolve().parents[2] / "data" / "collision" / "six_primitives.urdf"

CELL = Cell((
    CellObject("table", "box", (0.8, 0.6, 0.05), xyz=(0.55, 0.0, 0.3), rpy=(0.0, 0.0, 0.3)),
    CellObject("wall", "box", (0.05, 1.2, 0.9), xyz=(-0.45, 0.1, 0.45), rpy=(0.0, 0.1, 0.0)),
    CellObject("ball", "sphere", (0.12,), xyz=(0.25, 0.45, 0.55)),
    CellObject("post", "cylinder", (0.06, 0.7), xyz=(0.1, -0.45, 0.35), rpy=(0.2, 0.0, 0.0)),
    CellObject("lamp", "sphere", (0.05,), xyz=(0.0, 0.0, 1.05), collides=False),
), floor_z=-0.02)


def _oracle(urdf: Path, cell: Cell, Q: np.ndarray, package_dirs=(), reduce=(), srdf=None,
            distances=True):
    """(colliding (m,), smallest distance (m,) or None) from Pinocchio + coal, built here."""
    model = pin.buildModelFromUrdf(str(urdf))
    geom = pin.buildGeomFromUrdf(model, str(urdf), pin.GeometryType.COLLISION,
                                 package_dirs=[str(p) for p in package_dirs])
    if reduce:  # joints off the chain held at 0 (the Panda's fingers)
        locked = [model.getJointId(name) for name in reduce]
        model, geom = pin.buildReducedModel(model, geom, locked, pin.neutral(model))
    n_robot = len(geom.geometryObjects)
    for o in cell.objects:
        if not o.collides:
            continue
        shape = {"box": lambda s: coal.Box(*s), "sphere": lambda s: coal.Sphere(s[0]),
                 "cylinder": lambda s: coal.Cylinder(*s)}[o.shape](o.size)
        geom.addGeometryObject(pin.GeometryObject(o.name, 0, 0, pin.SE3(o.T), shape))
    floor = geom.addGeometryObject(pin.GeometryObject(
        "floor", 0, 0, pin.SE3.Identity(), coal.Halfspace(np.array([0, 0, 1.0]), cell.floor_z)))
    objs = geom.geometryObjects
    for a in range(n_robot):
        ja = objs[a].parentJoint
        for b in range(a + 1, n_robot):
            jb = objs[b].parentJoint
            if ja != jb and model.parents[ja] != jb and model.parents[jb] != ja:
                geom.addCollisionPair(pin.CollisionPair(a, b))
        for b in range(n_robot, floor):
            geom.addCollisionPair(pin.CollisionPair(a, b))
        if ja > 1:  # the base (joint 0) and the first link stand on the floor
            geom.addCollisionPair(pin.CollisionPair(a, floor))
    if srdf is not None:  # MoveIt's disabled pairs, read by Pinocchio
        pin.removeCollisionPairs(model, geom, str(srdf))
    data, gdata = model.createData(), pin.GeometryData(geom)
    for req in gdata.distanceRequests:
        # Pinocchio warm-starts GJK from the previous state; coal's EPA stops within its
        # tolerance at a point that depends on the start, so deep penetrations of cylinders
        # would differ by up to 1e-4 m between two correct answers: start fresh, as coal does
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            req.enable_cached_gjk_guess = False
    hit, dist = np.zeros(len(Q), bool), np.zeros(len(Q))
    for i, q in enumerate(Q):
        pin.updateGeometryPlacements(model, data, geom, gdata, q)
        hit[i] = pin.computeCollisions(geom, gdata, False)
        if distances:
            pin.computeDistances(geom, gdata)
            dist[i] = min(r.min_distance for r in gdata.distanceResults)
    return hit, dist if distances else None


def test_six_joint_primitives_in_a_cell_agree_with_pinocchio_and_coal():
    robot = rg.load_robot(SIX)
    Q = robot.random_q(2000, seed=24)
    rep = rg.check_collisions(robot, Q, CELL)
    hit, dist = _oracle(SIX, CELL, Q)
    # a real mix: free states, contacts with the cell, self-contacts
    assert 0.2 < hit.mean() < 0.9, hit.mean()
    np.testing.assert_array_equal(rep.colliding, hit)
    np.testing.assert_allclose(rep.distance, dist, atol=1e-6, rtol=0)
    pairs = {p for ps in rep.pairs for p in ps}
    assert {("upper_arm", "table"), ("flange", "floor")} <= pairs
    assert any(b in {L for L in ("base", "shoulder", "upper_arm", "forearm")} for _, b in pairs)
    assert not any("lamp" in p for p in pairs)  # collides = false
    # every contact reported has a depth, and the deepest matches the distance
    for i in np.flatnonzero(rep.colliding)[:200]:
        assert max(rep.depths[i]) == pytest.approx(-rep.distance[i], abs=1e-6)


def test_the_verdict_only_mode_gives_the_same_verdicts_and_pairs():
    robot = rg.load_robot(SIX)
    Q = robot.random_q(500, seed=5)
    full = rg.check_collisions(robot, Q, CELL)
    fast = rg.check_collisions(robot, Q, CELL, distance=False)
    np.testing.assert_array_equal(fast.colliding, full.colliding)
    assert [sorted(p) for p in fast.pairs] == [sorted(p) for p in full.pairs]
    assert np.isnan(fast.distance).all()


def test_a_single_state_gives_plain_values_and_the_cell_base_moves_the_robot():
    robot = rg.load_robot(SIX)
    q = np.zeros(6)
    rep = rg.check_collisions(robot, q, CELL)
    assert isinstance(rep.colliding, bool) and isinstance(rep.distance, float)
    # lifted 5 m above everything, only self-collisions could remain: none at q = 0
    high = CELL.replaced(base_xyz=(0, 0, 5.0))
    far = rg.check_collisions(robot, q, high)
    assert far.colliding is False and far.pairs == []
    # lowered 0.5 m into the floor: the links above the first one touch it
    low = rg.check_collisions(robot, q, CELL.replaced(base_xyz=(0, 0, -0.5), objects=()))
    assert low.colliding and {b for _, b in low.pairs} == {"floor"}


def test_panda_meshes_verdicts_agree_with_pinocchio():
    from tests.urdf_files import PANDA

    robot = rg.load_robot(PANDA, tip="panda_hand")
    assert robot.collisions and "mesh" in {c.kind for c in robot.collisions}
    cell = CELL.replaced(objects=tuple(o.moved(xyz=np.multiply(o.xyz, 1.3)) for o in CELL.objects))
    Q = robot.random_q(N_PANDA, seed=7)
    rep = rg.check_collisions(robot, Q, cell, distance=False)
    srdf = PANDA.parents[1] / "srdf" / "panda.srdf"
    assert robot.disabled_collisions  # read from that SRDF
    hit, _ = _oracle(PANDA, cell, Q, package_dirs=[PANDA.parents[4]],
                     reduce=("panda_finger_joint1", "panda_finger_joint2"), srdf=srdf,
                     distances=False)
    agree = (rep.colliding == hit).mean()
    # the issue allows 1 % of differing verdicts; the same coal calls on the same BVH
    # meshes in the same placements give none
    assert agree >= 0.99, agree
    print(f"Panda verdicts equal in {agree:.2%} of {N_PANDA} states")
    assert 0.1 < hit.mean() < 0.95, hit.mean()
