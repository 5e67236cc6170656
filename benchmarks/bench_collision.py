"""Collision checks (issue 24): states per second of robogui.check_collisions against
Pinocchio's computeCollisions on the same geometry in the same run, a D-H robot with capsules,
a 10 s program checked continuously, and what live checking adds to each frame of a handle
drag (through the session: the guard of the step, then the collisions and the links in
contact at the new state).

    python benchmarks/bench_collision.py [--states 10000] [--markdown] [--live-only]

Pinocchio is driven in a Python loop, one state per call (updateGeometryPlacements then
computeCollisions over the same pairs: every two links not joined by one joint minus the
SRDF's disabled pairs, every link against every object, the floor against all but the base
and the first link); robogui takes the batch at once. Verdicts are compared, so the two
check the same thing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import robogui as rg  # noqa: E402
from robogui.session.planning_scene.cell import Cell, CellObject  # noqa: E402
from robogui.session.planning_scene.collisions import collision_world  # noqa: E402


def _best(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def ten_object_cell() -> Cell:
    """A table, two bins' walls, posts, a ball and a shelf around the arm: 10 objects."""
    return Cell((
        CellObject("table", "box", (0.8, 1.2, 0.04), xyz=(0.6, 0.0, 0.3)),
        CellObject("bin A", "box", (0.25, 0.25, 0.1), xyz=(0.55, 0.35, 0.37)),
        CellObject("bin B", "box", (0.25, 0.25, 0.1), xyz=(0.55, -0.35, 0.37)),
        CellObject("post 1", "cylinder", (0.04, 1.0), xyz=(-0.5, 0.5, 0.5)),
        CellObject("post 2", "cylinder", (0.04, 1.0), xyz=(-0.5, -0.5, 0.5)),
        CellObject("ball", "sphere", (0.1,), xyz=(0.3, 0.5, 0.9)),
        CellObject("shelf", "box", (0.3, 0.8, 0.02), xyz=(-0.6, 0.0, 0.9)),
        CellObject("wall", "box", (0.05, 2.0, 1.5), xyz=(-0.9, 0.0, 0.75)),
        CellObject("lamp", "sphere", (0.06,), xyz=(0.0, 0.0, 1.6)),
        CellObject("rail", "capsule", (0.03, 1.0), xyz=(0.2, -0.7, 0.6), rpy=(0, 1.5708, 0)),
    ), floor_z=-0.01)


def pinocchio_panda(cell: Cell, panda_path):
    """(model, data, geom, gdata) of the Panda in ``cell``, fingers locked, same pairs."""
    import coal
    import pinocchio as pin

    model = pin.buildModelFromUrdf(str(panda_path))
    geom = pin.buildGeomFromUrdf(model, str(panda_path), pin.GeometryType.COLLISION,
                                 package_dirs=[str(panda_path.parents[4])])
    locked = [model.getJointId(n) for n in ("panda_finger_joint1", "panda_finger_joint2")]
    model, geom = pin.buildReducedModel(model, geom, locked, pin.neutral(model))
    n_robot = len(geom.geometryObjects)
    shapes = {"box": lambda s: coal.Box(*s), "sphere": lambda s: coal.Sphere(s[0]),
              "cylinder": lambda s: coal.Cylinder(*s), "capsule": lambda s: coal.Capsule(*s)}
    for o in cell.objects:
        geom.addGeometryObject(pin.GeometryObject(o.name, 0, 0, pin.SE3(o.T),
                                                  shapes[o.shape](o.size)))
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
        if ja > 1:
            geom.addCollisionPair(pin.CollisionPair(a, floor))
    pin.removeCollisionPairs(model, geom, str(panda_path.parents[1] / "srdf" / "panda.srdf"))
    return model, model.createData(), geom, pin.GeometryData(geom)


def bench_panda(m: int) -> list[tuple]:
    import pinocchio as pin

    from tests.urdf_files import PANDA

    cell = ten_object_cell()
    robot = rg.load_robot(PANDA, tip="panda_hand")
    Q = robot.random_q(m, seed=1)
    world = collision_world(robot, cell)
    world.check(Q[:10], distance=False)  # built once per robot and cell
    model, data, geom, gdata = pinocchio_panda(cell, PANDA)
    hit = np.zeros(m, bool)

    def pin_loop():
        for i, q in enumerate(Q):
            pin.updateGeometryPlacements(model, data, geom, gdata, q)
            hit[i] = pin.computeCollisions(geom, gdata, False)

    t_pin = _best(pin_loop, 2)
    t_rg = _best(lambda: world.check(Q, distance=False), 2)
    rep = world.check(Q, distance=False)
    agree = float((rep.colliding == hit).mean())
    t_rg_d = _best(lambda: world.check(Q, distance=True), 1)
    return [(f"Panda meshes + 10 objects, {m} states, verdicts ({len(geom.collisionPairs)} "
             f"pairs; verdicts equal {agree:.1%}, {hit.mean():.0%} in contact)",
             m / t_rg, m / t_pin),
            (f"Panda meshes + 10 objects, {m} states, verdicts + smallest distance",
             m / t_rg_d, None)]


def bench_dh(m: int) -> list[tuple]:
    puma = rg.load_robot("puma560")
    cell = ten_object_cell().replaced(base_xyz=(0, 0, 0.67))
    Q = puma.random_q(m, seed=2)
    rows = []
    for label, c in (("self only", None), ("in the 10-object cell", cell)):
        world = collision_world(puma, c)
        world.check(Q[:10])
        t_v = _best(lambda w=world: w.check(Q, distance=False))
        t_d = _best(lambda w=world: w.check(Q, distance=True))
        rows.append((f"Puma 560 capsules, {label}, {m} states, verdicts", m / t_v, None))
        rows.append((f"Puma 560 capsules, {label}, {m} states, verdicts + distance",
                     m / t_d, None))
    return rows


def bench_program() -> list[tuple]:
    from robogui.session.planning_scene.continuous import check_trajectory

    puma = rg.load_robot("puma560")
    cell = rg.load_cell(os.path.join(os.path.dirname(__file__), "..", "assets", "cells",
                                     "pick-and-place.cell"))
    t = np.linspace(0.0, 10.0, 501)
    q0, q1 = puma.pose("qr"), np.array([0.8, 0.69, -3.22, 0.0, -0.61, 0.8])
    traj = rg.jtraj(q0, q1, t)
    # there and back: 10 s of motion through the whole range
    q = np.vstack([traj.q[::2], traj.q[::-2][1:]])[:501]
    check_trajectory(puma, t, q, cell)
    secs = _best(lambda: check_trajectory(puma, t, q, cell))
    rep = check_trajectory(puma, t, q, cell)
    return [(f"10 s program checked continuously (Puma, demo cell, {len(rep.t)} states, "
             f"<= 2 mm apart)", secs, None)]


def bench_live(frames: int = 300) -> list[tuple]:
    """Milliseconds per frame a handle drag spends on live collisions, through the session:
    ``check_step`` (stop before contact: the step checked every 2 mm) before the move,
    ``collisions`` and ``contact_frames`` (the view's red, the pose panel's clearance) after
    it. The drag: the tool point moved 2 mm per frame along a line through the cell, by the
    handle's own IK step (follow_pose), precomputed so only the collision work is timed."""
    from robogui.session import Session
    from robogui.session.geometry.handle import follow_pose
    from tests.urdf_files import PANDA

    rows = []
    cell = ten_object_cell()
    puma, panda = rg.load_robot("puma560"), rg.load_robot(PANDA, tip="panda_hand")
    for label, robot, c, q0 in (
            ("Puma 560 capsules", puma, cell.replaced(base_xyz=(0, 0, 0.67)), puma.pose("qn")),
            ("Panda collision meshes", panda, cell, None)):
        s = Session(robot, q=q0)  # qn: the Puma's qr has its wrist singular
        s.set_cell(c)
        s.stop_before_contact = False  # the path is precomputed with the guard off
        T = np.array(s.T)
        path = [np.array(s.q)]
        for k in range(frames):
            T[1, 3] += 0.002 * (1 if (k // 100) % 2 == 0 else -1)  # to and fro, 2 mm a frame
            path.append(follow_pose(robot, path[-1], T).q_new)
        s.stop_before_contact = True
        s.set_q(path[0])
        s.collisions  # noqa: B018  (the world is built once per robot and cell)
        world = s.collision_world
        bare = []
        for q in path[1:]:  # one check of the state with its distance, as the README's above
            t0 = time.process_time()
            world.check(q, distance=True)
            bare.append(time.process_time() - t0)
        s.set_q(path[0])
        s.collisions  # noqa: B018
        times, ik = [], []
        for q in path[1:]:
            # CPU time of this process: on a shared machine the wall clock mostly measures
            # the scheduler's slices given to other users' processes
            t0 = time.process_time()
            s.check_step(q)
            s.set_q(q, changing=True)
            s.collisions  # noqa: B018
            s.contact_frames  # noqa: B018
            times.append(time.process_time() - t0)
            t0 = time.process_time()  # the drag's own IK step, for scale
            follow_pose(robot, q, T)
            ik.append(time.process_time() - t0)
        ms, ik_ms = 1e3 * np.array(times), 1e3 * np.array(ik)
        rows.append((f"live checking per handle-drag frame, {label} in the 10-object cell "
                     f"({frames} frames, 2 mm apart; CPU time, median and 90th percentile; "
                     f"the drag's IK step {np.median(ik_ms):.2f} ms, one bare check "
                     f"{1e3 * np.median(bare):.2f} ms)",
                     float(np.median(ms)), float(np.percentile(ms, 90))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=10_000)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--live-only", action="store_true", help="only the live-check figures")
    args = ap.parse_args()
    warnings.simplefilter("ignore", DeprecationWarning)
    live = bench_live()
    if args.live_only:
        for name, med, p90 in live:
            print(f"{name}: {med:.2f} ms, {p90:.2f} ms (target: at most 2 ms)")
        return
    rows = bench_panda(args.states) + bench_dh(max(args.states, 100_000))
    prog = bench_program()
    if args.markdown:
        print("| benchmark | robogui (states/s) | Pinocchio (states/s) | ratio |")
        print("|---|---|---|---|")
        for name, ours, peer in rows:
            ratio = f"{ours / peer:.1f}x" if peer else ""
            print(f"| {name} | {ours:,.0f} | {'' if peer is None else f'{peer:,.0f}'} | "
                  f"{ratio} |")
        for name, secs, _ in prog:
            print(f"| {name} | {secs * 1e3:.0f} ms | | |")
        for name, med, p90 in live:
            print(f"| {name} | {med:.2f} ms, {p90:.2f} ms | | |")
    else:
        for name, ours, peer in rows:
            extra = f"  Pinocchio {peer:,.0f}/s  ratio {ours / peer:.2f}" if peer else ""
            print(f"{name}: {ours:,.0f} states/s{extra}")
        for name, secs, _ in prog:
            print(f"{name}: {secs * 1e3:.0f} ms")
        for name, med, p90 in live:
            print(f"{name}: {med:.2f} ms, {p90:.2f} ms (target: at most 2 ms)")


if __name__ == "__main__":
    main()
