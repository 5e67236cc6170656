"""Arm configuration letters against r6's definition: the ``ikine560_all`` branch whose
solution is q carries config_of(q)'s letters, on the Puma 560 and on the same arm
described in modified D-H (puma560akb)."""

from __future__ import annotations

import numpy as np

from robogui.engine.kinematics.ikine import ikine560_all
from robogui.io.robotfile import load_robot
from robogui.session.explain.arm_axes import _joint_axes
from robogui.session.explain.armconfig import config_of

#: puma560akb at q is the Puma 560 at q + AKB_TO_PUMA (checked below, axis by axis)
AKB_TO_PUMA = np.pi * np.array([1.0, 1.0, 1.0, 0.0, 0.0, 1.0])


def _branch_letters(robot, q) -> str:
    """The r6 letters of the analytic branch that reproduces q (angles mod 2 pi)."""
    sol = ikine560_all(robot, robot.fkine(q))
    gap = np.abs(np.angle(np.exp(1j * (sol.q - q)))).max(axis=1)
    b = int(np.argmin(gap))
    assert gap[b] < 1e-6, "no analytic branch reproduces q"
    return sol.config[b]


def test_singular_direction_arm_config_matches_ikine560_branch_on_puma560():
    puma = load_robot("puma560")
    Q = puma.random_q(300, seed=11)
    letters = [_branch_letters(puma, q) for q in Q]
    assert [config_of(puma, q) for q in Q] == letters
    assert len(set(letters)) == 8  # every branch was met


def test_singular_direction_arm_config_on_modified_dh_puma_is_the_pumas():
    puma, akb = load_robot("puma560"), load_robot("puma560akb")
    assert akb.is_mdh and not puma.is_mdh
    Q = akb.random_q(300, seed=12)
    for q in Q[:20]:
        # the same posture: every joint axis the same line with the same sense (to the
        # millimetre the two published parameter sets differ by)
        P1, D1 = _joint_axes(akb, q)
        P2, D2 = _joint_axes(puma, q + AKB_TO_PUMA)
        assert np.allclose(np.einsum("ij,ij->i", D1, D2), 1.0, atol=1e-9)
        assert np.linalg.norm(np.cross(P2 - P1, D1), axis=1).max() < 3e-3
    mine = [config_of(akb, q) for q in Q]
    r6 = [_branch_letters(puma, q + AKB_TO_PUMA) for q in Q]
    assert mine == r6
    # the wrist flip is the sign of sin(theta5) with the Puma's rule (no flip: <= 0),
    # and the shoulder and elbow letters take every value
    assert [c[2] == "f" for c in mine] == list(np.sin(Q[:, 4]) > 0)
    assert {c[0] for c in mine} == {"l", "r"} and {c[1] for c in mine} == {"u", "d"}
