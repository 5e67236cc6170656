"""Dynamics speed on the Puma 560: robogui against roboticstoolbox-python and Pinocchio.

    python benchmarks/bench_dynamics.py

Times, with 10,000 random joint states: batch rne (RTB-Py's C rne takes the whole
batch in one call; Pinocchio's rnea runs in a Python loop), batch inertia (Pinocchio
crba in a loop; RTB-Py's inertia), one-state gravity torque (part of the per-slider-move
bundle), and the torque plots of a 10,000-point trajectory: gravity, inertial, Coriolis
and friction components plus Yoshikawa and Asada manipulability along it.

The peers are optional (``pip install .[bench]``); a missing one shows as "-".
Pinocchio gets the same arm built from robogui's D-H table and inertias (motors left
out on both sides) and must agree with robogui's rne and inertia before anything is
timed; RTB-Py's own Puma560 must agree with robogui's (its d1 pedestal changes no torque).

``run(rows)`` appends dicts {name, robogui_s, rtb_s, pin_s, ratio, target}; ``ratio``
is the faster peer's time over robogui's (higher is better for robogui).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_time  # noqa: E402

M_STATES = 10_000


def _pinocchio(robot):
    """(pin, model, data) for a standard-D-H revolute arm with its link inertias, or None."""
    try:
        import pinocchio as pin
    except ImportError:
        return None

    def rest(L):  # A(q) = Rz(q) [Rz(offset) Tz(d) Tx(a) Rx(alpha)]
        c, s = math.cos(L.offset), math.sin(L.offset)
        ca, sa = math.cos(L.alpha), math.sin(L.alpha)
        return np.array([[c, -s * ca, s * sa, L.a * c], [s, c * ca, -c * sa, L.a * s],
                         [0, sa, ca, L.d], [0, 0, 0, 1.0]])

    model = pin.Model()
    model.gravity = pin.Motion(np.asarray(robot.gravity), np.zeros(3))
    parent, placement = 0, np.array(robot.base)
    for j, L in enumerate(robot.links):
        se3 = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        parent = model.addJoint(parent, pin.JointModelRZ(), se3, f"joint{j + 1}")
        placement = rest(L)
        body = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        model.appendBodyToJoint(parent, pin.Inertia(L.m, L.r.copy(), L.I.copy()), body)
    return pin, model, model.createData()


def _row(name, ours, rtb_s=None, pin_s=None, target=""):
    peers = [t for t in (rtb_s, pin_s) if t is not None]
    ratio = min(peers) / ours if peers else None
    return {"name": name, "robogui_s": ours, "rtb_s": rtb_s, "pin_s": pin_s, "ratio": ratio,
            "target": target}


def run(rows: list) -> None:
    from robogui.engine.dynamics import dynamics as D
    from robogui.engine.dynamics.manipulability import manipulability
    from robogui.engine.trajectory.trajectory import jtraj
    from robogui.io.robotfile import load_robot

    puma = load_robot("puma560")
    rng = np.random.default_rng(0)
    lim = puma.qlim
    q = lim[:, 0] + (lim[:, 1] - lim[:, 0]) * rng.random((M_STATES, 6))
    qd = rng.uniform(-2, 2, (M_STATES, 6))
    qdd = rng.uniform(-5, 5, (M_STATES, 6))

    try:
        import roboticstoolbox as rtb

        theirs = rtb.models.DH.Puma560()
        err = np.abs(theirs.rne(q[:50], qd[:50], qdd[:50]) - D.rne(puma, q[:50], qd[:50],
                                                                   qdd[:50])).max()
        if err > 1e-8:
            raise RuntimeError(f"RTB-Py's Puma560 disagrees with robogui's by {err:.3g} N m")
    except ImportError:
        theirs = None

    bare = puma.with_links([L.replace(Jm=0.0, B=0.0, Tc=0.0) for L in puma.links])
    pinned = _pinocchio(bare)
    if pinned is not None:
        pin, model, data = pinned
        for k in range(20):
            e1 = np.abs(pin.rnea(model, data, q[k], qd[k], qdd[k])
                        - D.rne(bare, q[k], qd[k], qdd[k])).max()
            Mp = pin.crba(model, data, q[k])
            e2 = np.abs(np.triu(Mp) + np.triu(Mp, 1).T - D.inertia(bare, q[k])).max()
            if max(e1, e2) > 1e-9:
                raise RuntimeError(f"Pinocchio disagrees with robogui ({e1:.3g}, {e2:.3g})")

    # batch inverse dynamics
    ours = best_time(lambda: D.rne(puma, q, qd, qdd))
    rtb_s = best_time(lambda: theirs.rne(q, qd, qdd), repeat=3) if theirs is not None else None
    pin_s = None
    if pinned is not None:
        def pin_rne():
            for k in range(M_STATES):
                pin.rnea(model, data, q[k], qd[k], qdd[k])
        pin_s = best_time(pin_rne, repeat=3)
    rows.append(_row(f"rne, {M_STATES:,} states", ours, rtb_s, pin_s, ">= 3x"))

    # batch inertia matrix
    ours = best_time(lambda: D.inertia(puma, q))
    rtb_s = None
    if theirs is not None:
        few = 500  # RTB-Py's inertia is slow: time a slice and scale
        rtb_s = best_time(lambda: theirs.inertia(q[:few]), repeat=1) * (M_STATES / few)
    pin_s = None
    if pinned is not None:
        def pin_crba():
            for k in range(M_STATES):
                pin.crba(model, data, q[k])
        pin_s = best_time(pin_crba, repeat=3)
    rows.append(_row(f"inertia, {M_STATES:,} states", ours, rtb_s, pin_s, ">= 3x"))

    # one state, gravity torque (slider bundle)
    q1 = puma.pose("qn")
    ours = best_time(lambda: D.gravload(puma, q1), repeat=5, number=2000)
    rtb_s = best_time(lambda: theirs.gravload(q1), repeat=5, number=200) if theirs else None
    pin_s = None
    if pinned is not None:
        pin_s = best_time(lambda: pin.computeGeneralizedGravity(model, data, q1), repeat=5,
                      number=2000)
    rows.append(_row("gravload, one state", ours, rtb_s, pin_s, "lean"))

    # trajectory plots: torque components plus two manipulability measures
    traj = jtraj(puma.pose("qr"), puma.pose("qn"), np.linspace(0, 2, M_STATES))
    t_comp = best_time(lambda: D.torque_components(puma, traj.q, traj.qd, traj.qdd))
    rows.append(_row(f"torque components, {M_STATES:,}-point trajectory", t_comp))

    def plots():
        D.torque_components(puma, traj.q, traj.qd, traj.qdd)
        manipulability(puma, traj.q, method="yoshikawa")
        manipulability(puma, traj.q, method="asada")

    rows.append(_row(f"components + Yoshikawa + Asada, {M_STATES:,} points", best_time(plots),
                     target="< 200 ms"))

    # Coriolis matrix and forward dynamics, for information
    rows.append(_row("coriolis matrix, 1,000 states",
                     best_time(lambda: D.coriolis(puma, q[:1000], qd[:1000]), repeat=3)))
    from robogui.engine.dynamics.fdyn import fdyn

    free = puma.nofriction()
    rows.append(_row("fdyn 1 s from qn (RK45, no Coulomb friction)",
                     best_time(lambda: fdyn(free, 1.0, puma.pose("qn")), repeat=3)))


def _fmt(seconds):
    if seconds is None:
        return "-"
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


if __name__ == "__main__":
    rows: list[dict] = []
    run(rows)
    head = ["benchmark", "robogui", "RTB-Py", "Pinocchio", "ratio", "target"]
    body = [[r["name"], _fmt(r["robogui_s"]), _fmt(r["rtb_s"]), _fmt(r["pin_s"]),
             "-" if r["ratio"] is None else f"{r['ratio']:.1f}x", r["target"]] for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=True)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    print(fmt.format(*head))
    print(fmt.format(*("-" * w for w in widths)))
    for row in body:
        print(fmt.format(*row))
