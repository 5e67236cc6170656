"""Kinematics speed on the Puma 560: robogui against roboticstoolbox-python and Pinocchio.

    python benchmarks/bench_kinematics.py

Times, with 10,000 random joint states in one run: batch fkine_all, batch jacob0,
batch manipulability, the one-state bundle a slider move needs (fkine_all + jacob0 +
manipulability + gravity torque), and numeric IK on 500 reachable poses, 200 random and
100 within 1e-3 rad of each of the wrist, elbow and shoulder singularities (median time
per pose and success rate, error < 1e-8 checked with robogui's fkine), the eight
closed-form branches of 10,000 poses (against RTB-Py's ``ikine_a`` called per branch),
both numeric solvers at
the same tolerance: robogui's max(|position error|, |rotation error|) < 1e-10 and
RTB-Py's ik_LM error measure E = |e|^2 / 2 < 5e-21, i.e. |e| < 1e-10.

The peers are optional (``pip install .[bench]``); a missing one shows as "-".
Pinocchio is given the same robot, built from robogui's D-H table (a revolute-z joint
per link placed by the constant part of the previous link transform), and must agree
with robogui's fkine and jacob0 before anything is timed.

``run(rows)`` appends dicts {name, robogui_s, rtb_s, pin_s, ratio, target}; ``ratio``
is the faster peer's time over robogui's (higher is better for robogui).
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

# run from a checkout without installing: the package is one folder up
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import best_time  # noqa: E402

M_STATES = 10_000
N_POSES = 200
N_SINGULAR = 100  # poses near each of the Puma's three singularities
IK_TOL = 1e-10  # robogui: max(|position error| m, |rotation error| rad) < IK_TOL
RTB_TOL = 0.5 * IK_TOL**2  # RTB-Py ik_LM: E = |e|^2 / 2 < RTB_TOL, i.e. |e| < IK_TOL


def _singular_along(robot, q, k):
    """q with joint k moved to where det(jacob0) vanishes, others fixed (grid + refine)."""
    from scipy.optimize import minimize_scalar

    from robogui.engine.kinematics.jacobians import jacob0

    grid = np.linspace(robot.qlim[k, 0], robot.qlim[k, 1], 721)
    Q = np.repeat(q[None], len(grid), axis=0)
    Q[:, k] = grid
    i = int(np.argmin(np.abs(np.linalg.det(jacob0(robot, Q)))))

    def absdet(x):
        qq = q.copy()
        qq[k] = x
        return abs(np.linalg.det(jacob0(robot, qq)))

    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    out = q.copy()
    out[k] = minimize_scalar(absdet, bounds=(lo, hi), method="bounded",
                             options={"xatol": 1e-12}).x
    return out


def ik_poses(robot) -> np.ndarray:
    """N_POSES random joint states, then N_SINGULAR within 1e-3 rad of the wrist
    (q5 = 0), elbow (arm stretched, along q3) and shoulder (wrist centre over the first
    axis, along q2) singularities, all inside the joint limits."""
    out = [robot.random_q(N_POSES, seed=2)]
    rng = np.random.default_rng(3)
    for which, k in (("wrist", 4), ("elbow", 2), ("shoulder", 1)):
        Q = robot.random_q(N_SINGULAR, seed=10 + k)
        for q in Q:
            if which == "wrist":
                q[4] = 0.0
            else:
                q[:] = _singular_along(robot, q, k)
            q[k] += rng.uniform(-1e-3, 1e-3)
        out.append(np.clip(Q, robot.qlim[:, 0], robot.qlim[:, 1]))
    return np.concatenate(out)


def _rtb_puma():
    try:
        import roboticstoolbox as rtb
    except ImportError:
        return None
    return rtb.models.DH.Puma560()


def _pinocchio_model(robot):
    """A Pinocchio model of a standard-D-H revolute robot, or None without Pinocchio."""
    try:
        import pinocchio as pin
    except ImportError:
        return None
    if robot.is_mdh or robot.structure != "R" * robot.n:
        raise ValueError("this benchmark builds Pinocchio models of standard-D-H revolute arms")

    def fixed_part(L):  # A(q) = Rz(q) * [Rz(offset) Tz(d) Tx(a) Rx(alpha)]
        c, s = math.cos(L.offset), math.sin(L.offset)
        ca, sa = math.cos(L.alpha), math.sin(L.alpha)
        return np.array([[c, -s * ca, s * sa, L.a * c], [s, c * ca, -c * sa, L.a * s],
                         [0, sa, ca, L.d], [0, 0, 0, 1.0]])

    model = pin.Model()
    parent, placement = 0, np.array(robot.base)
    for j, L in enumerate(robot.links):
        se3 = pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy())
        parent = model.addJoint(parent, pin.JointModelRZ(), se3, f"joint{j + 1}")
        placement = fixed_part(L)
        if j + 1 < robot.n:  # robogui's frame j+1 (distal end of link j+1), for fkine_all
            model.addFrame(pin.Frame(f"link{j + 1}", parent, 0,
                                     pin.SE3(placement[:3, :3].copy(), placement[:3, 3].copy()),
                                     pin.FrameType.OP_FRAME))
    tip = placement @ robot.tool
    frame = pin.Frame("tool", parent, 0, pin.SE3(tip[:3, :3].copy(), tip[:3, 3].copy()),
                      pin.FrameType.OP_FRAME)
    fid = model.addFrame(frame)
    return pin, model, model.createData(), fid


def _check_pinocchio(robot, pm, Q):
    from robogui.engine.kinematics.jacobians import jacob0
    from robogui.engine.kinematics.kinematics import fkine

    pin, model, data, fid = pm
    for q in Q[:20]:
        pin.forwardKinematics(model, data, q)
        pin.updateFramePlacements(model, data)
        T = data.oMf[fid].homogeneous
        J = pin.computeFrameJacobian(model, data, q, fid, pin.LOCAL_WORLD_ALIGNED)
        assert np.allclose(T, fkine(robot, q), atol=1e-12), "Pinocchio fkine disagrees"
        assert np.allclose(J, jacob0(robot, q), atol=1e-12), "Pinocchio jacob0 disagrees"


def _row(rows, name, mine, rtb=None, pin=None, target=""):
    peers = [t for t in (rtb, pin) if t is not None]
    ratio = min(peers) / mine if peers else None
    rows.append(dict(name=name, robogui_s=mine, rtb_s=rtb, pin_s=pin, ratio=ratio,
                     target=target))


def run(rows: list) -> list:
    """Time every kinematics benchmark and append one row per benchmark to ``rows``."""
    from robogui.engine.dynamics.manipulability import manipulability
    from robogui.engine.kinematics.ikine import ikine
    from robogui.engine.kinematics.jacobians import jacob0
    from robogui.engine.kinematics.kinematics import fkine, fkine_all
    from robogui.io.robotfile import load_robot

    robot = load_robot("puma560")
    Q = robot.random_q(M_STATES, seed=1)
    p = _rtb_puma()
    pm = _pinocchio_model(robot)
    if pm is not None:
        _check_pinocchio(robot, pm, Q)

    # -- batch fkine_all and jacob0 --------------------------------------------------
    fkine_all(robot, Q)  # builds the kinematics kernels
    jacob0(robot, Q)
    t_fk = best_time(lambda: fkine_all(robot, Q))
    t_j0 = best_time(lambda: jacob0(robot, Q))
    rtb_fk = rtb_j0 = pin_fk = pin_j0 = None
    if p is not None:
        rtb_fk = best_time(lambda: [p.fkine_all(q) for q in Q], repeat=1)
        rtb_j0 = best_time(lambda: [p.jacob0(q) for q in Q], repeat=1)
    if pm is not None:
        pin, model, data, fid = pm
        W = pin.ReferenceFrame.LOCAL_WORLD_ALIGNED

        n = robot.n
        frames_out = np.empty((len(Q), n + 1, 4, 4))
        frames_out[:, 0] = robot.base
        link_fids = [model.getFrameId(f"link{j}") for j in range(1, n)] + [fid]

        def pin_all():  # every joint frame and the tool frame, returned as fkine_all does
            for i, q in enumerate(Q):
                pin.forwardKinematics(model, data, q)
                pin.updateFramePlacements(model, data)
                row = frames_out[i]
                for j, f in enumerate(link_fids, 1):
                    row[j] = data.oMf[f].homogeneous

        def pin_all_in_place():  # the same frames, left inside pinocchio's data
            for q in Q:
                pin.forwardKinematics(model, data, q)
                pin.updateFramePlacements(model, data)

        def pin_jac():
            for q in Q:
                pin.computeFrameJacobian(model, data, q, fid, W)

        pin_fk, pin_j0 = best_time(pin_all, repeat=3), best_time(pin_jac, repeat=3)
        pin_fk_in_place = best_time(pin_all_in_place, repeat=3)
        pin_all()
        # the peer's frames are the same numbers (checked, not just timed)
        assert np.allclose(frames_out, fkine_all(robot, Q), atol=1e-9)
    _row(rows, f"fkine_all, {M_STATES} states (frames returned)", t_fk, rtb_fk, pin_fk,
         ">= 3x")
    if pm is not None:
        _row(rows, f"fkine_all, {M_STATES} states (Pinocchio frames left in its data)",
             t_fk, None, pin_fk_in_place, ">= 3x")
    _row(rows, f"jacob0, {M_STATES} states", t_j0, rtb_j0, pin_j0, ">= 3x")

    # -- batch manipulability ---------------------------------------------------------
    t_man = best_time(lambda: manipulability(robot, Q))
    rtb_man = best_time(lambda: p.manipulability(Q), repeat=1) if p is not None else None
    _row(rows, f"manipulability, {M_STATES} states", t_man, rtb_man, None, ">= 20x (RTB)")

    # -- one state: what a slider move needs ------------------------------------------
    try:
        from robogui.engine.dynamics.dynamics import gravload
    except ImportError:
        gravload = None
    q1 = Q[0]

    def bundle():
        F = fkine_all(robot, q1)
        J = jacob0(robot, q1)
        w = manipulability(robot, q1, J=J)
        g = gravload(robot, q1) if gravload is not None else None
        return F, J, w, g

    bundle()
    t_b = best_time(bundle, repeat=7, number=200)
    rtb_b = None
    if p is not None:
        def rtb_bundle():
            p.fkine_all(q1)
            p.jacob0(q1)
            p.manipulability(q1)
            if gravload is not None:
                p.gravload(q1)

        rtb_b = best_time(rtb_bundle, repeat=5, number=50)
    what = "fkine_all+jacob0+manip" + ("+gravload" if gravload is not None else "")
    _row(rows, f"one state: {what}", t_b, rtb_b, None, ">= 10x (RTB)")

    # -- numeric IK on reachable poses, a quarter of them near each singularity --------
    Qp = ik_poses(robot)
    Tp = fkine(robot, Qp)
    ikine(robot, Tp[0])
    times, ok, ok_sing = [], 0, 0
    for i, T in enumerate(Tp):
        t0 = time.perf_counter()
        res = ikine(robot, T, tol=IK_TOL)
        times.append(time.perf_counter() - t0)
        err = np.abs(fkine(robot, res.q) - T).max()
        good = bool(res.success and err < 1e-8 and np.all(robot.islimit(res.q) == 0))
        ok += good
        ok_sing += good and i >= N_POSES
    t_ik = float(np.median(times))
    rtb_ik, rtb_ok = None, None
    if p is not None:
        rtb_times, rtb_ok = [], 0
        Tr = p.fkine(Qp)
        for T in Tr:
            t0 = time.perf_counter()
            sol = p.ik_LM(T, tol=RTB_TOL)
            rtb_times.append(time.perf_counter() - t0)
            rtb_ok += bool(sol.success)
        rtb_ik = float(np.median(rtb_times))
    total = len(Qp)
    name = (f"ikine median per pose, {total} poses ({N_POSES} random, {total - N_POSES} within "
            f"1e-3 rad of a wrist/elbow/shoulder singularity); success robogui "
            f"{100 * ok / total:.1f}% (singular {100 * ok_sing / (total - N_POSES):.1f}%)"
            + (f", RTB ik_LM {100 * rtb_ok / total:.1f}%" if rtb_ok is not None else ""))
    _row(rows, name, t_ik, rtb_ik, None, "<= RTB ik_LM, >= 99.5%")
    Tp = Tp[:N_POSES]
    t0 = time.perf_counter()
    res = ikine(robot, Tp, chain=False)
    t_batch = (time.perf_counter() - t0) / N_POSES
    _row(rows, f"ikine all {N_POSES} poses at once (chain=False), per pose, "
               f"{100 * np.mean(res.success):.1f}% success", t_batch, rtb_ik, None, "")

    # -- closed form: all 8 branches per pose, batched, against RTB-Py's ikine_a -------
    from robogui.engine.kinematics.ikine_branches import ikine_analytic_all

    Ta = fkine(robot, Q)
    ikine_analytic_all(robot, Ta[:2])
    t_ana = best_time(lambda: ikine_analytic_all(robot, Ta), repeat=3) / M_STATES
    rtb_a = None
    if p is not None and hasattr(p, "ikine_a"):
        Tr = p.fkine(Q[:N_POSES])
        configs = ("lun", "luf", "ldn", "ldf", "run", "ruf", "rdn", "rdf")
        t0 = time.perf_counter()
        for T in Tr:
            for c in configs:
                p.ikine_a(T, config=c)
        rtb_a = (time.perf_counter() - t0) / N_POSES
    _row(rows, f"closed-form IK, all 8 branches per pose, {M_STATES} poses batched "
               "(ikine_analytic_all; RTB: ikine_a once per branch), per pose",
         t_ana, rtb_a, None, "")
    return rows


def _fmt_time(seconds):
    if seconds is None:
        return "-"
    return f"{seconds * 1e6:.1f} us" if seconds < 1e-3 else f"{seconds * 1e3:.2f} ms"


def format_table(rows) -> str:
    """A plain-text table of the rows (bench_engine.py has the Markdown variant)."""
    head = ["benchmark", "robogui", "RTB-Py", "Pinocchio", "ratio", "target"]
    body = [[r["name"], _fmt_time(r["robogui_s"]), _fmt_time(r["rtb_s"]), _fmt_time(r["pin_s"]),
             "-" if r["ratio"] is None else f"{r['ratio']:.1f}x", r["target"]] for r in rows]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=True)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return "\n".join([fmt.format(*head), fmt.format(*("-" * w for w in widths))]
                     + [fmt.format(*row) for row in body])


if __name__ == "__main__":
    print(format_table(run([])))
