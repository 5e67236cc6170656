"""IK near the Puma's singularities, and the best-q rule when a solve fails.

The singular configurations are found independently of the solver: along one joint,
with the others fixed, the minimum of |det jacob0| is located on a grid and refined
with scipy's bounded scalar minimiser (wrist: q5 = 0; elbow: the arm stretched along
q3; shoulder: the wrist centre over the first axis along q2).
"""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from robogui.engine.kinematics.ikine import ikine, pose_error
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine

ISSUE_POSE_DEG = [0, 60, -27.34, 0, 45, 0]  # issue 17: failed from every start before


def _singular_along(robot, q, k):
    """q with joint k moved to where det(jacob0) vanishes (nearest the grid minimum)."""
    grid = np.linspace(robot.qlim[k, 0], robot.qlim[k, 1], 721)
    Q = np.repeat(q[None], len(grid), axis=0)
    Q[:, k] = grid
    i = int(np.argmin(np.abs(np.linalg.det(jacob0(robot, Q)))))

    def absdet(x):
        qq = q.copy()
        qq[k] = x
        return abs(np.linalg.det(jacob0(robot, qq)))

    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    x = minimize_scalar(absdet, bounds=(lo, hi), method="bounded",
                        options={"xatol": 1e-12}).x
    out = q.copy()
    out[k] = x
    return out


def _near_singular(robot, which, count, seed):
    rng = np.random.default_rng(seed)
    Q = robot.random_q(count, seed=seed)
    out = []
    for q in Q:
        if which == "wrist":
            q = q.copy()
            q[4] = 0.0
        else:
            q = _singular_along(robot, q, 2 if which == "elbow" else 1)
        k = {"wrist": 4, "elbow": 2, "shoulder": 1}[which]
        q[k] += rng.uniform(-1e-3, 1e-3)  # within 1e-3 rad of the singularity
        out.append(np.clip(q, robot.qlim[:, 0], robot.qlim[:, 1]))
    return np.array(out)


@pytest.mark.parametrize("which", ["wrist", "elbow", "shoulder"])
def test_poses_within_1e3_rad_of_a_singularity_are_solved(puma, which):
    Q = _near_singular(puma, which, 25, seed={"wrist": 1, "elbow": 2, "shoulder": 3}[which])
    smin = np.linalg.svd(jacob0(puma, Q), compute_uv=False)[:, -1]
    assert smin.max() < 2e-3  # really near the singularity
    T = fkine(puma, Q)
    for Ti in T:
        res = ikine(puma, Ti)
        assert res.success, res.reason
        assert np.all(puma.islimit(res.q) == 0)
        assert np.abs(pose_error(Ti, fkine(puma, res.q))).max() < 1e-9


def test_the_issue_pose_near_the_shoulder_singularity_succeeds(puma):
    T = fkine(puma, np.radians(ISSUE_POSE_DEG))
    res = ikine(puma, T)
    assert res.success and res.reason == "converged"
    assert np.abs(pose_error(T, fkine(puma, res.q))).max() < 1e-10
    assert np.all(puma.islimit(res.q) == 0)


def test_a_failed_solve_returns_the_best_in_limit_q_it_found(puma):
    # a tolerance below rounding: no search can succeed, yet each one gets within ~1e-15
    T = fkine(puma, np.radians(ISSUE_POSE_DEG))
    res = ikine(puma, T, tol=1e-300, slimit=3, ilimit=30)
    assert not res.success
    assert np.all(puma.islimit(res.q) == 0)
    true_err = np.abs(pose_error(T, fkine(puma, res.q)))
    assert res.residual == pytest.approx(max(np.linalg.norm(true_err[:3]),
                                             np.linalg.norm(true_err[3:])), abs=1e-15)
    assert res.residual < 1e-9  # the in-limit near-solution, not a clipped or last q
    assert "reach" not in res.reason and "best q inside the limits" in res.reason


def test_a_solution_only_outside_the_limits_is_reported_as_such(puma):
    # joint 2 limited to 55 degrees: the solver's solutions lie outside the limits
    lim = puma.qlim.copy()
    lim[1] = [np.radians(-45), np.radians(55)]
    tight = puma.with_links([L.replace(qlim=tuple(lo_hi)) for L, lo_hi in
                             zip(puma.links, lim, strict=True)])
    T = fkine(puma, np.radians(ISSUE_POSE_DEG))
    res = ikine(tight, T, slimit=5)
    assert not res.success
    assert "outside the joint limits" in res.reason and "out of reach" not in res.reason
    assert np.all(tight.islimit(res.q) == 0)
    err = np.abs(pose_error(T, fkine(tight, res.q)))
    assert res.residual == pytest.approx(max(np.linalg.norm(err[:3]),
                                             np.linalg.norm(err[3:])), abs=1e-12)
    # the best in-limit q lies at (or, an iterate on the way, just inside) the limit the
    # solutions cross, not at the clipped start
    start = ikine(tight, T, slimit=1, ilimit=1, tol=1e-300)
    assert res.residual < 0.5 * start.residual
    assert res.q[1] == pytest.approx(np.radians(55), abs=2e-3)


def test_out_of_reach_is_named_only_when_beyond_the_arm(puma):
    T = fkine(puma, puma.pose("qz"))
    T[:3, 3] = [5.0, 0.0, 0.0]  # 5 m: the Puma reaches under 1 m
    res = ikine(puma, T)
    assert not res.success and res.reason.startswith("out of reach")
    assert np.all(puma.islimit(res.q) == 0) and np.all(np.isfinite(res.q))
