"""Issue 17, the best-q rule: a failed ikine gives back the best in-limit iterate of ALL
iterations of all its searches (single and batched solves), with its true residual.

The reference path is an independent Levenberg-Marquardt iteration written here from
its definition (Sugihara's damping lambda = 0.1 E + lam_bar, E = |e|^2 / 2, steps
clamped to 1 rad), on fkine / jacob0 / pose_error.
"""

import numpy as np
import pytest

from robogui.engine.kinematics.ikine import ikine, pose_error
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine

ISSUE_POSE_DEG = [0, 60, -27.34, 0, 45, 0]


def _residual(robot, T, q) -> float:
    e = pose_error(T, fkine(robot, q))
    return max(np.linalg.norm(e[:3]), np.linalg.norm(e[3:]))


def _lm_path(robot, T, q, iterations, lam_bar=1e-12):
    """Iterates (k+1, n) and their residuals (k+1,) of Sugihara's LM from q."""
    qs, rs = [], []
    q = np.array(q, dtype=float)
    for _ in range(iterations + 1):
        e = pose_error(T, fkine(robot, q))
        qs.append(q.copy())
        rs.append(max(np.linalg.norm(e[:3]), np.linalg.norm(e[3:])))
        J = jacob0(robot, q)
        A = J.T @ J + (0.1 * 0.5 * e @ e + lam_bar) * np.eye(robot.n)
        dq = np.linalg.solve(A, J.T @ e)
        q = q + dq * min(1.0, 1.0 / np.abs(dq).max())
    return np.array(qs), np.array(rs)


def _inside(robot, q) -> bool:
    """q inside the limits after shifting each angle by some multiple of 2 pi."""
    lo, hi = robot.qlim[:, 0], robot.qlim[:, 1]
    shifts = q[:, None] + 2 * np.pi * np.arange(-2, 3)[None]
    return bool(np.all(np.any((shifts >= lo[:, None]) & (shifts <= hi[:, None]), axis=1)))


@pytest.fixture
def unreachable(puma):
    """0.9 m out and 0.2 m aside at the zero pose's orientation: inside the crude reach
    bound (so it is searched) but not attainable. LM from q = 0 passes at 0.094 near
    iteration 13, then drifts off and ends oscillating near 0.188."""
    T = fkine(puma, puma.pose("qz"))
    T[:3, 3] = [0.9, 0.2, 0.3]
    return T


def test_an_intermediate_iterate_better_than_the_last_is_returned(puma, unreachable):
    T = unreachable
    qs, rs = _lm_path(puma, T, np.zeros(6), 40)
    inside = np.array([_inside(puma, q) for q in qs])
    best = int(np.argmin(np.where(inside, rs, np.inf)))
    assert 0 < best < 40 and rs[best] < 0.6 * rs[-1]  # the construction holds
    res = ikine(puma, T, slimit=1, ilimit=40)
    assert not res.success and res.iterations == 40
    assert res.residual == pytest.approx(rs[best], rel=1e-6)
    assert res.residual == pytest.approx(_residual(puma, T, res.q), abs=1e-12)  # true error
    assert np.all(puma.islimit(res.q) == 0)
    np.testing.assert_allclose(fkine(puma, res.q), fkine(puma, qs[best]), atol=1e-6)
    assert f"{res.residual:.3g}" in res.reason


def test_the_batched_solve_keeps_the_best_iterate_too(puma, unreachable):
    T2 = fkine(puma, np.radians(ISSUE_POSE_DEG))
    qs, rs = _lm_path(puma, unreachable, np.zeros(6), 40)
    res = ikine(puma, np.stack([unreachable, T2]), chain=False, slimit=1, ilimit=40)
    assert list(res.success) == [False, True]
    assert res.residual[0] == pytest.approx(rs.min(), rel=1e-6)
    assert res.residual[0] < 0.6 * rs[-1]
    assert res.residual[0] == pytest.approx(_residual(puma, unreachable, res.q[0]), abs=1e-12)
    assert np.all(puma.islimit(res.q[0]) == 0)


def test_the_issue_pose_on_a_failing_budget_returns_its_best_iterate(puma):
    # the issue: the q returned had residual 0.086 though an in-limit 3e-10 had been seen.
    # Here no search may succeed (tol below rounding); the LM path from q = 0 passes
    # 4e-12 at iteration 6 and rounding-level errors after: the answer is at least as good
    T = fkine(puma, np.radians(ISSUE_POSE_DEG))
    qs, rs = _lm_path(puma, T, np.zeros(6), 12)
    assert rs[6] < 1e-10
    res = ikine(puma, T, tol=1e-300, slimit=2, ilimit=12)
    assert not res.success
    assert res.residual <= rs[6] and res.residual < 1e-13
    assert res.residual == pytest.approx(_residual(puma, T, res.q), abs=1e-15)
    assert np.all(puma.islimit(res.q) == 0)
