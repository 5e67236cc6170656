"""Cartesian jogging: exact steps checked with fkine, limits, singularities, no NaN, no jump."""

import math

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.spatial.transform import Rotation

from robogui import Link, Robot
from robogui.engine.dynamics.manipulability import manipulability
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.kinematics.kinematics import fkine
from robogui.io.robotfile import load_robot
from robogui.session.teach.jog import (
    AXES,
    JOG_STEP_PRESETS,
    JOG_STEPS_DEG,
    JOG_STEPS_MM,
    is_puma_like,
    jog_delta,
    jog_step,
    jog_twist,
    jog_velocity,
    singularity_info,
)


@pytest.fixture(scope="module")
def puma():
    return load_robot("puma560")


Q_GEN = np.array([0.3, 0.6, -1.9, 0.4, 0.7, -0.2])  # a generic, well-conditioned pose


def rot(axis: str, angle: float) -> np.ndarray:
    return Rotation.from_rotvec(angle * np.eye(3)["xyz".index(axis[-1])]).as_matrix()


def test_presets():
    assert JOG_STEPS_MM == (10.0, 1.0, 0.1) and JOG_STEPS_DEG == (5.0, 1.0, 0.1)
    np.testing.assert_allclose(JOG_STEP_PRESETS["linear"], [0.01, 0.001, 0.0001])
    np.testing.assert_allclose(JOG_STEP_PRESETS["angular"], np.radians([5, 1, 0.1]))


@pytest.mark.parametrize("frame", ["world", "tool"])
@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("direction", [1, -1])
def test_step_moves_tcp_by_exactly_the_step(puma, frame, axis, direction):
    # a tool and a base make world, base and tool frames all different
    robot = puma.with_tool(np.array([[0, -1, 0, 0.02], [1, 0, 0, 0.0], [0, 0, 1, 0.1],
                                     [0, 0, 0, 1.0]])).with_base(
        np.block([[rot("z", 0.4), np.array([[0.1], [0.2], [0.3]])], [np.zeros((1, 3)), 1]]))
    step = 0.01 if axis in "xyz" else math.radians(5)
    res = jog_step(robot, Q_GEN, axis, direction, step, frame)
    assert res.moved and res.message is None and res.limiting_joint is None
    assert res.fraction == pytest.approx(1.0, abs=1e-6)
    T0, T1 = fkine(robot, Q_GEN), fkine(robot, res.q_new)
    R0 = T0[:3, :3]
    if axis in "xyz":
        e = np.zeros(3)
        e["xyz".index(axis)] = direction * step
        expected_p = T0[:3, 3] + (e if frame == "world" else R0 @ e)
        np.testing.assert_allclose(T1[:3, 3], expected_p, atol=1e-6)
        np.testing.assert_allclose(T1[:3, :3], R0, atol=1e-6)  # orientation unchanged
    else:
        D = rot(axis, direction * step)
        np.testing.assert_allclose(T1[:3, 3], T0[:3, 3], atol=1e-6)  # rotation about the TCP
        np.testing.assert_allclose(T1[:3, :3], D @ R0 if frame == "world" else R0 @ D,
                                   atol=1e-6)
    # a jog step is small in joint space too
    assert np.abs(res.q_new - Q_GEN).max() < math.radians(10)
    # the reported manipulability is the engine's Yoshikawa measure at the new pose
    assert res.manipulability == pytest.approx(float(manipulability(robot, res.q_new)),
                                               rel=1e-9)


def test_repeated_fine_steps_follow_a_straight_line(puma):
    q = Q_GEN.copy()
    p0 = fkine(puma, q)[:3, 3]
    for _ in range(50):
        q = jog_step(puma, q, "y", -1, 0.001, "world").q_new
    p = fkine(puma, q)[:3, 3]
    np.testing.assert_allclose(p, p0 + [0, -0.05, 0], atol=1e-8)


def test_continuous_jog_uses_speed_override_and_dt(puma):
    tw = jog_twist("x", -1)
    np.testing.assert_allclose(tw, [-0.25, 0, 0, 0, 0, 0])
    res = jog_velocity(puma, Q_GEN, tw, dt=0.02, speed=50)  # 0.25 m/s * 0.02 s * 50 %
    dp = fkine(puma, res.q_new)[:3, 3] - fkine(puma, Q_GEN)[:3, 3]
    np.testing.assert_allclose(dp, [-0.0025, 0, 0], atol=1e-8)
    # a long GUI hiccup is capped at MAX_JOG_DT = 0.1 s; override clamps to 1..100 %
    res = jog_velocity(puma, Q_GEN, tw, dt=3.0, speed=250)
    capped = jog_step(puma, Q_GEN, "x", -1, 0.25 * 0.1)
    np.testing.assert_array_equal(res.q_new, capped.q_new)
    # 25 mm at once needs more than 10 deg on some joint: shortened, still on the line
    dp = fkine(puma, res.q_new)[:3, 3] - fkine(puma, Q_GEN)[:3, 3]
    assert 0.0 < res.fraction < 1.0 and np.abs(res.q_new - Q_GEN).max() <= math.radians(10)
    np.testing.assert_allclose(dp, [-0.025 * res.fraction, 0, 0], atol=1e-8)
    assert "limited to avoid a jump" in res.message
    with pytest.raises(ValueError, match="speed"):
        jog_velocity(puma, Q_GEN, tw, dt=0.02, speed=float("nan"))
    with pytest.raises(ValueError, match="dt"):
        jog_velocity(puma, Q_GEN, tw, dt=-0.02)


def test_jog_into_a_joint_limit_stops_with_the_joint_named(puma):
    # tool-frame rotation about the tool z axis is joint 6 alone on a Puma
    hi = puma.qlim[5, 1]
    q = Q_GEN.copy()
    q[5] = hi - math.radians(2)
    res = jog_step(puma, q, "rz", +1, math.radians(5), "tool")
    assert res.moved and res.limiting_joint == 5
    assert res.q_new[5] == pytest.approx(hi, abs=1e-12)
    assert res.fraction == pytest.approx(0.4, abs=1e-3)
    label = f"Joint 6 ({puma.links[5].name})" if puma.links[5].name else "Joint 6"
    assert res.message.startswith(f"{label} reached its upper limit (+266.0°)")
    assert "40 %" in res.message
    again = jog_step(puma, res.q_new, "rz", +1, math.radians(5), "tool")
    assert not again.moved and again.stalled and again.limiting_joint == 5
    assert again.message.startswith(f"{label} is at its upper limit (+266.0°)")
    np.testing.assert_array_equal(again.q_new, res.q_new)
    # the other way is free
    back = jog_step(puma, res.q_new, "rz", -1, math.radians(5), "tool")
    assert back.moved and back.message is None


def test_joint_outside_its_limits_is_not_clipped_into_a_jump(puma):
    # qn with the elbow at +180 deg: outside its range (-225..+45 deg), e.g. from a CSV
    q = np.radians([0.0, 45.0, 180.0, 0.0, 45.0, 0.0])
    assert q[2] > puma.qlim[2, 1]
    moved = 0
    for axis in "xyz":
        for direction in (1, -1):
            res = jog_step(puma, q, axis, direction, 0.001)
            assert np.all(np.isfinite(res.q_new))
            assert np.abs(res.q_new - q).max() < math.radians(2)  # never clipped to +45 deg
            assert res.q_new[2] <= q[2]  # the elbow goes no further out
            if res.moved:
                moved += 1
                dp = fkine(puma, res.q_new)[:3, 3] - fkine(puma, q)[:3, 3]
                want = np.zeros(3)
                want["xyz".index(axis)] = direction * 0.001 * res.fraction
                np.testing.assert_allclose(dp, want, atol=1e-9)
            if res.limiting_joint == 2:
                assert res.message.startswith(
                    "Joint 3 (elbow) is beyond its upper limit (+45.0°) at +180.0° and may "
                    "only move back towards its range")
                assert res.message.count("of the step") <= 1
    assert moved >= 2  # the directions that bring the elbow back are free


def test_limit_and_singularity_together_say_the_fraction_once(puma):
    q = np.radians([0.0, 45.0, -180.0, 0.0, 45.0, 0.0])
    q[4] = 1e-4  # wrist singular
    q[3] = puma.qlim[3, 1]  # joint 4 at its upper limit
    msgs = [jog_step(puma, q, ax, d, math.radians(5)).message
            for ax in ("rx", "ry", "rz") for d in (1, -1)]
    both = [m for m in msgs if m and "limit" in m and "singularity" in m]
    assert both, msgs
    for m in both:
        assert m.count("of the step") == 1 and m.endswith("of the step")


def test_named_joint_and_prismatic_limit_in_words():
    # a gantry: three prismatic joints along world z, x and y
    links = [Link(joint="P", alpha=-math.pi / 2, qlim=(0.0, 0.5), name="lift"),
             Link(joint="P", theta=-math.pi / 2, alpha=-math.pi / 2, qlim=(-0.1, 0.1),
                  name="carriage"),
             Link(joint="P", theta=math.pi / 2, qlim=(-0.3, 0.3), name="slide")]
    gantry = Robot(links, name="gantry")
    q = np.array([0.2, 0.0, 0.0])
    J = jacob0(gantry, q)[:3]
    assert np.allclose(np.abs(J).sum(axis=0), 1.0)  # each joint moves along one world axis
    axis = "xyz"[int(np.argmax(np.abs(J[:, 1])))]
    sign = int(np.sign(J["xyz".index(axis), 1]))
    for _ in range(15):
        res = jog_step(gantry, q, axis, sign, 0.01)
        assert np.all(res.q_new <= gantry.qlim[:, 1]) and np.all(res.q_new >= gantry.qlim[:, 0])
        q = res.q_new
    assert res.stalled and res.limiting_joint == 1
    assert res.message.startswith("Joint 2 (carriage) is at its upper limit (+100.0 mm)")


def test_redundant_arm_freezes_a_joint_at_its_limit_and_carries_on():
    # planar 4R: x, y and rz are 3 task rows for 4 joints
    links = [Link(a=0.3, qlim=(-0.5, 0.5)), Link(a=0.3), Link(a=0.2), Link(a=0.1)]
    arm = Robot(links, name="planar4")
    q = np.array([0.5, 0.4, 0.5, 0.3])  # joint 1 at its upper limit
    dq1 = np.linalg.pinv(jacob0(arm, q)[[0, 1, 5]])[:, 0]  # +x would want joint 1 to move...
    direction = 1 if dq1[0] > 0 else -1  # ...upwards, into its limit
    res = jog_step(arm, q, "x", direction, 0.005)
    assert res.moved and res.message is None and res.fraction == pytest.approx(1.0, abs=1e-6)
    assert res.q_new[0] == pytest.approx(0.5, abs=1e-12)
    T0, T1 = fkine(arm, q), fkine(arm, res.q_new)
    np.testing.assert_allclose(T1[:3, 3] - T0[:3, 3], [direction * 0.005, 0, 0], atol=1e-6)
    np.testing.assert_allclose(T1[:3, :3], T0[:3, :3], atol=1e-6)


def test_two_link_jogs_in_the_plane():
    arm = load_robot("twolink")
    q = np.array([0.3, 0.9])
    # its base turns it into the vertical x-z plane
    for axis, e in (("x", [0.01, 0, 0]), ("z", [0, 0, 0.01])):
        res = jog_step(arm, q, axis, 1, 0.01)
        dp = fkine(arm, res.q_new)[:3, 3] - fkine(arm, q)[:3, 3]
        np.testing.assert_allclose(dp, e, atol=1e-6)
        assert res.message is None
    out_of_plane = jog_step(arm, q, "y", 1, 0.01)
    assert not out_of_plane.moved and out_of_plane.stalled
    assert out_of_plane.message == "Moved 0 % of the step: the motion is not reachable from here"


def null_axis(robot, q):
    """The jog axis (world) most aligned with the motion the arm cannot make."""
    U, s, Vt = np.linalg.svd(jacob0(robot, q))
    return AXES[int(np.argmax(np.abs(U[:, -1])))], int(np.sign(U[np.argmax(np.abs(U[:, -1])), -1]))


@pytest.mark.parametrize("case", ["wrist", "elbow", "shoulder"])
def test_singularities_are_named_and_steps_stay_bounded(puma, case):
    q = np.array([0.2, 0.7, -1.2, 0.3, 0.8, 0.1])
    if case == "wrist":
        q[4] = 1e-4
    elif case == "elbow":  # arm stretched: find q3 where the Jacobian loses rank
        q[2] = brentq(lambda x: singular_measure(puma, q, 2, x), -1.8, -1.3)
    else:  # wrist centre in the plane of axes 1 and 2 (above the shoulder)
        q[1] = math.pi / 4
        q[2] = brentq(lambda x: singular_measure(puma, q, 2, x), -0.3, 0.3)
    assert np.linalg.svd(jacob0(puma, q), compute_uv=False)[-1] < 1e-4
    kind, text = singularity_info(puma, q)
    assert kind == case and f"{case} singularity" in text
    axis, sign = null_axis(puma, q)
    step = 0.01 if axis in "xyz" else math.radians(5)
    res = jog_step(puma, q, axis, sign, step)
    assert np.all(np.isfinite(res.q_new))
    assert np.abs(res.q_new - q).max() <= math.radians(10) + 1e-12  # never a jump
    assert res.singularity_kind == case
    assert res.message is not None and f"{case} singularity" in res.message
    assert f"manipulability {res.manipulability:.3g}" in res.message
    assert res.manipulability < 1e-3
    assert res.fraction < 0.9 and "of the step" in res.message
    # every other axis stays finite and bounded too
    for ax in AXES:
        r = jog_step(puma, q, ax, 1, 0.01 if ax in "xyz" else math.radians(5))
        assert np.all(np.isfinite(r.q_new))
        assert np.abs(r.q_new - q).max() <= math.radians(10) + 1e-12


def singular_measure(robot, q, j, x):
    """det(J) of the position part of the wrist centre, for root finding along q[j]."""
    qq = q.copy()
    qq[j] = x
    return float(np.linalg.det(jacob0(robot, qq)))


def test_puma_like_detection(puma):
    assert is_puma_like(puma)
    assert is_puma_like(load_robot("puma560akb"))  # modified D-H
    assert not is_puma_like(load_robot("stanford"))  # prismatic joint 3
    assert not is_puma_like(load_robot("twolink"))
    kind, text = singularity_info(load_robot("twolink"), [0.0, 0.0])
    assert kind == "general"


def test_bad_arguments(puma):
    with pytest.raises(ValueError, match="axis"):
        jog_step(puma, Q_GEN, "w", 1, 0.01)
    with pytest.raises(ValueError, match="direction"):
        jog_step(puma, Q_GEN, "x", 2, 0.01)
    with pytest.raises(ValueError, match="step"):
        jog_step(puma, Q_GEN, "x", 1, float("nan"))
    with pytest.raises(ValueError, match="frame"):
        jog_step(puma, Q_GEN, "x", 1, 0.01, frame="base")
    with pytest.raises(ValueError, match="q"):
        jog_step(puma, Q_GEN[:5], "x", 1, 0.01)
    with pytest.raises(ValueError, match="delta"):
        jog_delta(puma, Q_GEN, [0, 0, np.inf, 0, 0, 0])
