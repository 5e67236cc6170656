"""Geometry beyond an off-chain mimic joint (the Panda URDF's second finger) is placed
where its leader puts it: checked against Pinocchio's full model of the same file."""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest

from robogui.engine.model.visual import Visual
from robogui.io.ros.urdf import load_urdf
from robogui.session.geometry.follow import (
    follow_placements,
    joint_values_from_frames,
    motion_matrix,
)
from tests.urdf_files import PANDA


def _pinocchio_frame(q_chain, names, link, extra):
    full = pin.buildModelFromUrdf(str(PANDA))
    data = full.createData()
    q = pin.neutral(full)
    for name, v in [*zip(names, q_chain, strict=True), *extra.items()]:
        q[full.joints[full.getJointId(name)].idx_q] = v
    pin.framesForwardKinematics(full, data, q)
    return data.oMf[full.getFrameId(link)].homogeneous


def test_the_panda_right_finger_follows_the_chain_finger_like_pinocchio():
    arm = load_urdf(PANDA, tip="panda_leftfinger")  # finger_joint1 is joint 8
    followers = [v for v in arm.visuals if v.follow]
    assert {v.link for v in followers} == {"panda_rightfinger"}
    ((j, mult, off, revolute, axis, _J),) = followers[0].follow
    assert (j, mult, off, revolute, axis) == (7, 1.0, 0.0, False, (0.0, -1.0, 0.0))
    names = [L.name for L in arm.links]
    for seed in range(5):
        q = arm.random_q(seed=seed)
        F = arm.fkine_all(q)
        P = follow_placements(arm.joint_models, F, [followers[0].follow])[0]
        expected = _pinocchio_frame(q, names, "panda_rightfinger",
                                    {"panda_finger_joint2": q[7]})
        np.testing.assert_allclose(F[followers[0].frame] @ P, expected, atol=1e-12)
        # the two fingers open symmetrically about the hand
        left, right = F[8][:3, 3], (F[followers[0].frame] @ P)[:3, 3]
        hand = F[7][:3, 3]
        np.testing.assert_allclose(np.linalg.norm(left - hand), np.linalg.norm(right - hand),
                                   atol=1e-12)


def test_joint_values_come_back_from_the_frames():
    arm = load_urdf(PANDA, tip="panda_leftfinger")
    q = arm.random_q(seed=9)
    back = joint_values_from_frames(arm.joint_models, arm.fkine_all(q), range(arm.n))
    # revolute values come back within (-pi, pi]: joint 6 (up to 3.75 rad) may wrap
    diff = back - q
    diff[:7] = (diff[:7] + np.pi) % (2 * np.pi) - np.pi
    np.testing.assert_allclose(diff, 0, atol=1e-12)


def test_the_finger_mass_stays_lumped_at_rest():
    """Only the drawing follows: the dynamics keep the issue's rule (off-chain links
    lumped at joint value 0), so the hand link's mass is the same either way."""
    arm = load_urdf(PANDA, tip="panda_leftfinger")
    assert arm.links[6].m > 0 and np.isfinite(arm.inertia(arm.random_q(seed=1))).all()


def test_motion_matrix_turns_and_shifts():
    np.testing.assert_allclose(motion_matrix((0, 0, 1.0), np.pi / 2, True)[:3, :3],
                               [[0, -1, 0], [1, 0, 0], [0, 0, 1]], atol=1e-15)
    np.testing.assert_allclose(motion_matrix((0, -1.0, 0), 0.03, False)[:3, 3], [0, -0.03, 0])


@pytest.mark.parametrize("follow, message", [
    ((1, 1.0, 0.0, True), "follow must be"),
    ((-1, 1.0, 0.0, True, (0, 0, 1), np.eye(4)), "chain joint index"),
    ((0, np.nan, 0.0, True, (0, 0, 1), np.eye(4)), "finite"),
    ((0, 1.0, 0.0, True, (0, 0, 0), np.eye(4)), "non-zero"),
    ((0, 1.0, 0.0, True, (0, 0, 1), np.eye(3)), "4x4"),
])
def test_a_bad_follow_is_refused(follow, message):
    with pytest.raises(ValueError, match=message):
        Visual(1, "box", np.eye(4), size=(0.1, 0.1, 0.1), follow=follow)
