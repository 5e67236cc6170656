"""Long chains: robogui against roboticstoolbox-python and Pinocchio on random D-H chains.

    python benchmarks/bench_scale.py

A random 100-link standard-D-H revolute chain with random masses and inertias is built
in all three libraries from the same D-H table (Pinocchio: a revolute-z joint per link,
placed by the constant part of the previous link transform). Before anything is timed,
robogui's fkine_all, jacob0, rne and inertia must agree with Pinocchio's to 1e-9.

Rows: the first call of fkine_all + jacob0 + inertia + rne on one state, in a fresh
robot object (robogui's set-up of its algorithms included; Pinocchio's model built
beforehand, its first call timed), then batched inertia + rne on 100 states (Pinocchio's
crba and rnea in a Python loop; RTB-Py's C rne on the batch and its inertia), and the
same first call on a 200-link chain.

``run(rows)`` appends dicts {name, robogui_s, rtb_s, pin_s, ratio, target}.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best_time  # noqa: E402

N_LINKS = 100
M_STATES = 100


def random_chain(n: int, seed: int):
    """A random standard-D-H revolute chain with masses and inertias (robogui Robot)."""
    from robogui import Link, Robot

    rng = np.random.default_rng(seed)
    links = []
    for _ in range(n):
        A = rng.normal(size=(3, 3))
        links.append(Link(a=rng.uniform(-0.3, 0.3), d=rng.uniform(-0.3, 0.3),
                          alpha=rng.uniform(-3, 3), offset=rng.uniform(-1, 1),
                          m=rng.uniform(0.5, 3), r=rng.normal(size=3) * 0.1,
                          I=A @ A.T * 0.01 + np.eye(3) * 0.01, qlim=(-math.pi, math.pi)))
    return Robot(links, name=f"random {n}-link chain")


def _rest(L):
    """The constant part of a standard-D-H link transform: Rz(offset) Tz(d) Tx(a) Rx(alpha)."""
    c, s = math.cos(L.offset), math.sin(L.offset)
    ca, sa = math.cos(L.alpha), math.sin(L.alpha)
    return np.array([[c, -s * ca, s * sa, L.a * c], [s, c * ca, -c * sa, L.a * s],
                     [0, sa, ca, L.d], [0, 0, 0, 1.0]])


def pinocchio_chain(robot):
    """(pin, model, data, tip frame id, rests) or None without Pinocchio."""
    try:
        import pinocchio as pin
    except ImportError:
        return None
    model = pin.Model()
    model.gravity = pin.Motion(np.asarray(robot.gravity), np.zeros(3))
    parent, placement, rests = 0, np.array(robot.base), []
    for j, L in enumerate(robot.links):
        se3 = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        parent = model.addJoint(parent, pin.JointModelRZ(), se3, f"joint{j + 1}")
        placement = _rest(L)
        rests.append(placement)
        body = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        model.appendBodyToJoint(parent, pin.Inertia(L.m, L.r.copy(), L.I.copy()), body)
    tip = placement @ robot.tool
    fid = model.addFrame(pin.Frame("tip", parent, 0, pin.SE3(tip[:3, :3].copy(),
                                                              tip[:3, 3].copy()),
                                   pin.FrameType.OP_FRAME))
    return pin, model, model.createData(), fid, rests


def rtb_chain(robot):
    try:
        import roboticstoolbox as rtb
    except ImportError:
        return None
    links = [rtb.RevoluteDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset, m=L.m,
                            r=L.r.copy(), I=L.I.copy(), qlim=[-math.pi, math.pi])
             for L in robot.links]
    return rtb.DHRobot(links, gravity=-np.asarray(robot.gravity), name="chain")


def check_against_pinocchio(robot, pm, Q, Qd, Qdd) -> float:
    """Largest difference of fkine_all, jacob0, rne and inertia from Pinocchio's."""
    from robogui.engine.dynamics import dynamics as D
    from robogui.engine.kinematics.jacobians import jacob0
    from robogui.engine.kinematics.kinematics import fkine_all

    pin, model, data, fid, rests = pm
    n = robot.n
    F, J = fkine_all(robot, Q), jacob0(robot, Q)
    tau, M = D.rne(robot, Q, Qd, Qdd), D.inertia(robot, Q)
    worst = 0.0
    for k in range(len(Q)):
        pin.forwardKinematics(model, data, Q[k])
        pin.updateFramePlacements(model, data)
        for j in range(n - 1):
            worst = max(worst, np.abs(F[k, j + 1] - data.oMi[j + 1].homogeneous @ rests[j]).max())
        worst = max(worst, np.abs(F[k, n] - data.oMf[fid].homogeneous).max())
        Jp = pin.computeFrameJacobian(model, data, Q[k], fid, pin.LOCAL_WORLD_ALIGNED)
        worst = max(worst, np.abs(J[k] - Jp).max())
        worst = max(worst, np.abs(tau[k] - pin.rnea(model, data, Q[k], Qd[k], Qdd[k])).max())
        Mp = pin.crba(model, data, Q[k])
        worst = max(worst, np.abs(M[k] - (np.triu(Mp) + np.triu(Mp, 1).T)).max())
    return float(worst)


def _row(rows, name, mine, rtb_s=None, pin_s=None, target=""):
    peers = [t for t in (rtb_s, pin_s) if t is not None]
    rows.append(dict(name=name, robogui_s=mine, rtb_s=rtb_s, pin_s=pin_s,
                     ratio=min(peers) / mine if peers else None, target=target))


def _first_call(robot, q):
    """fkine_all + jacob0 + inertia + rne on one state, on a fresh copy of ``robot`` (no
    cached set-up), seconds."""
    from robogui.engine.dynamics import dynamics as D
    from robogui.engine.kinematics.jacobians import jacob0
    from robogui.engine.kinematics.kinematics import fkine_all

    fresh = robot.with_links(list(robot.links))
    t0 = time.perf_counter()
    fkine_all(fresh, q)
    jacob0(fresh, q)
    D.inertia(fresh, q)
    D.rne(fresh, q, q, q)
    return time.perf_counter() - t0


def run(rows: list) -> list:
    from robogui.engine.dynamics import dynamics as D

    robot = random_chain(N_LINKS, seed=100)
    rng = np.random.default_rng(7)
    Q = rng.uniform(-3, 3, (M_STATES, N_LINKS))
    Qd, Qdd = rng.uniform(-1, 1, Q.shape), rng.uniform(-1, 1, Q.shape)
    pm = pinocchio_chain(robot)
    if pm is not None:
        err = check_against_pinocchio(robot, pm, Q[:5], Qd[:5], Qdd[:5])
        if err > 1e-9:
            raise RuntimeError(f"robogui disagrees with Pinocchio on the {N_LINKS}-link chain "
                               f"by {err:.3g}")
    p = rtb_chain(robot)
    q1 = Q[0]

    # first call, set-up included (best of a few fresh robot copies)
    mine = min(_first_call(robot, q1) for _ in range(3))
    rtb_s = pin_s = None
    if p is not None:
        t0 = time.perf_counter()
        p.fkine_all(q1)
        p.jacob0(q1)
        p.inertia(q1)
        p.rne(q1, q1, q1)
        rtb_s = time.perf_counter() - t0
    if pm is not None:
        pin, model, _, fid, _ = pm
        t0 = time.perf_counter()
        data = model.createData()
        pin.forwardKinematics(model, data, q1)
        pin.updateFramePlacements(model, data)
        pin.computeFrameJacobian(model, data, q1, fid, pin.LOCAL_WORLD_ALIGNED)
        pin.crba(model, data, q1)
        pin.rnea(model, data, q1, q1, q1)
        pin_s = time.perf_counter() - t0
    _row(rows, f"{N_LINKS}-link chain: first fkine_all+jacob0+inertia+rne (set-up included)",
         mine, rtb_s, pin_s, "<= 1 s")

    # batched inertia + rne on 100 states
    D.inertia(robot, Q)
    mine = best_time(lambda: (D.inertia(robot, Q), D.rne(robot, Q, Qd, Qdd)))
    rtb_s = pin_s = None
    if p is not None:
        rtb_s = best_time(lambda: (p.inertia(Q), p.rne(Q, Qd, Qdd)), repeat=1)
    if pm is not None:
        def pin_loop():
            for k in range(M_STATES):
                pin.crba(model, data, Q[k])
                pin.rnea(model, data, Q[k], Qd[k], Qdd[k])
        pin_s = best_time(pin_loop, repeat=3)
    _row(rows, f"{N_LINKS}-link chain: inertia + rne, {M_STATES} states", mine, rtb_s, pin_s,
         "<= 0.2 s")

    # a 200-link robot: what opening it in the app costs the engine at first
    big = random_chain(200, seed=200)
    qb = np.zeros(200)
    mine = min(_first_call(big, qb) for _ in range(3))
    _row(rows, "200-link chain: first fkine_all+jacob0+inertia+rne (set-up included)", mine,
         target="no freeze")
    return rows


if __name__ == "__main__":
    from bench_kinematics import format_table

    print(format_table(run([])))
