"""Finite inputs that would give non-finite outputs, and boolean or complex joint values,
raise ValueError naming the argument (issue 17)."""

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.dynamics import dynamics as D
from robogui.engine.kinematics.ikine import ikine
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine, fkine_all

# the engine computes, then checks finiteness and raises: the ValueError is the whole
# message, so any warning on the way (numpy's overflow/invalid) fails these tests
pytestmark = pytest.mark.filterwarnings("error")


@pytest.mark.parametrize("m", [None, 3])
def test_rne_with_huge_velocities_names_qd(puma, m):
    q, qd, qdd = np.zeros(6), np.full(6, 1e308), np.zeros(6)
    if m:
        q, qd, qdd = (np.tile(x, (m, 1)) for x in (q, qd, qdd))
    with pytest.raises(ValueError, match=r"rne would overflow .*qd holds values as large "
                                         r"as 1e\+308"):
        D.rne(puma, q, qd, qdd)


def test_rne_with_huge_accelerations_names_qdd(puma):
    with pytest.raises(ValueError, match=r"qdd holds values as large as 1e\+308"):
        D.rne(puma, np.zeros(6), np.zeros(6), np.full(6, 1e308))


def test_other_torques_name_the_overflowing_argument(puma):
    big = np.full(6, 1e200)
    with pytest.raises(ValueError, match=r"coriolis_torque would overflow .*qd"):
        D.coriolis_torque(puma, np.zeros(6), big)
    with pytest.raises(ValueError, match=r"torque_components would overflow .*qd"):
        D.torque_components(puma, np.zeros(6), big, np.zeros(6))
    with pytest.raises(ValueError, match=r"itorque would overflow .*qdd"):
        D.itorque(puma, np.zeros(6), np.full(6, 1e308))


def test_ordinary_large_but_safe_values_still_work(puma):
    tau = D.rne(puma, np.zeros(6), np.full(6, 1e100), np.zeros(6))
    assert np.all(np.isfinite(tau))


def test_ikine_target_1e308_m_away_names_T(puma):
    T = np.eye(4)
    T[:3, 3] = 1e308
    with pytest.raises(ValueError, match=r"^T has its position .* too far from the base"):
        ikine(puma, T)
    Ts = np.stack([np.eye(4), T])
    with pytest.raises(ValueError, match=r"^T\[1\] has its position"):
        ikine(puma, Ts)


def test_ikine_target_far_but_computable_is_out_of_reach(puma):
    T = np.eye(4)
    T[:3, 3] = [1e100, 0, 0]
    res = ikine(puma, T)
    assert not res.success and res.reason.startswith("out of reach")


def test_prismatic_joint_values_that_overflow_name_q():
    two_slides = Robot([Link(joint="P"), Link(joint="P")])  # both along z: d1 + d2
    q = np.array([1.5e308, 1.5e308])
    for f, name in ((fkine, "fkine"), (fkine_all, "fkine_all")):
        with pytest.raises(ValueError, match=rf"{name} would overflow .*q holds values"):
            f(two_slides, np.stack([q, q]))
        with pytest.raises(ValueError, match=rf"{name} would overflow"):
            f(two_slides, q)
    assert fkine(two_slides, [1e307, 1e307])[2, 3] == 2e307  # large but finite: fine
    assert np.all(np.isfinite(jacob0(two_slides, q)))  # the axes do not depend on d


@pytest.mark.parametrize("func", [fkine, fkine_all, jacob0, D.inertia, D.gravload])
def test_boolean_q_is_refused(puma, func):
    with pytest.raises(ValueError, match=r"^q must be numeric, not boolean"):
        func(puma, np.ones(6, dtype=bool))
    with pytest.raises(ValueError, match=r"^q must be numeric, not boolean"):
        func(puma, [True] * 6)


def test_boolean_qd_and_complex_q_are_refused(puma):
    with pytest.raises(ValueError, match=r"^qd must be numeric, not boolean"):
        D.rne(puma, np.zeros(6), np.zeros(6, dtype=bool), np.zeros(6))
    with pytest.raises(ValueError, match=r"^q must be numeric, not complex"):
        fkine(puma, np.zeros(6, dtype=complex))
    with pytest.raises(ValueError, match=r"^q must be numeric, not complex"):
        D.rne(puma, np.zeros(6) + 1j, np.zeros(6), np.zeros(6))
