"""Singularities explained from the SVD of J: lost directions, null space, kind, config.

The lost direction must be the left singular vector of the Jacobian for the zero singular
value; the reference Jacobian comes from roboticstoolbox-python's own models (its
``jacob0``), so the check is independent of robogui's kinematics.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import roboticstoolbox as rtb
from spatialmath import SE3

from robogui.engine.kinematics.jacobians import jacob0
from robogui.io.robotfile import load_robot
from robogui.session.explain.armconfig import arm_config, config_of
from robogui.session.explain.singularity import (
    direction_words,
    explain_singularity,
    has_spherical_wrist,
    singularity_kind,
)
from robogui.session.teach.jog import singularity_info


def _rtb(name):
    if name == "puma560":
        return rtb.models.DH.Puma560()
    if name == "ur5":
        return rtb.models.DH.UR5()
    r = rtb.models.DH.Panda()
    r.tool = SE3()  # robogui's Panda has the flange as tool (rtb: the flange is in d7)
    return r


# known singular poses: Puma wrist (q5 = 0), UR5 wrist (q5 = 0) and elbow (q3 = 0),
# Panda stretched straight up (axes 1, 3, 5 in one line, q4 = 0)
CASES = [
    ("puma560", [0.2, 0.5, -1.0, 0.3, 0.0, 0.1]),
    ("ur5", [0.2, -0.5, 1.0, 0.3, 0.0, 0.1]),
    ("ur5", [0.2, -0.5, 0.0, 0.3, 0.6, 0.1]),
    ("panda", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
]


@pytest.mark.parametrize(("name", "q"), CASES)
def test_singular_direction_is_left_singular_vector_of_rtb_jacobian(name, q):
    robot = load_robot(name)
    ref = _rtb(name)
    # same tool point as the reference model (a base translation does not change J)
    J_ref = np.asarray(ref.jacob0(np.array(q)))
    assert np.allclose(jacob0(robot, q), J_ref, atol=2e-3)
    U, s, Vt = np.linalg.svd(J_ref)
    assert s[-1] < 1e-6 * s[0]  # really singular, by the reference
    e = explain_singularity(robot, q)
    assert e.near and len(e.lost) == 1
    u = e.lost[0].twist
    assert abs(abs(u @ U[:, -1]) - 1.0) < 1e-5
    assert np.abs(u @ J_ref).max() < 1e-6 * s[0]  # no joint motion produces it
    # words name the dominant part of that vector
    part = u[:3] if e.lost[0].motion == "translate" else u[3:]
    assert np.allclose(e.lost[0].axis, part / np.linalg.norm(part))
    verb = "translate along" if e.lost[0].motion == "translate" else "rotate about"
    assert f"cannot {verb} {direction_words(e.lost[0].axis)}" in e.lost[0].text
    # joint motions that do not move the tool: J v = 0
    assert e.null_space.shape[0] == robot.n - 6 + (6 - np.sum(s > 1e-6 * s[0]))
    assert np.abs(J_ref @ e.null_space.T).max() < 1e-6


def test_singular_direction_puma_wrist_in_words():
    puma = load_robot("puma560")
    q = [0.2, 0.5, -1.0, 0.3, 0.0, 0.1]
    e = explain_singularity(puma, q)
    assert e.kind == "wrist" and "wrist singularity" in e.kind_text
    # joints 4 and 6 turning against each other move nothing (their axes coincide)
    v = e.null_space[0]
    assert np.allclose(np.abs(v), [0, 0, 0, math.sqrt(0.5), 0, math.sqrt(0.5)], atol=1e-9)
    assert "joints 4 and 6 can move together (q4 +0.71, q6 -0.71)" in e.null_text[0]
    # with W held, the lost rotation is about z4 x z5 (normal to the wrist axes' plane)
    F = puma.fkine_all(q)
    n = np.cross(F[3, :3, 2], F[4, :3, 2])
    assert f"cannot rotate about {direction_words(n / np.linalg.norm(n))}" in e.kind_text or \
        f"cannot rotate about {direction_words(-n / np.linalg.norm(n))}" in e.kind_text


def test_singular_direction_planar_arm_stretched_cannot_translate_along_the_arm():
    two = load_robot("twolink")
    e = explain_singularity(two, [0.3, 0.0])
    assert e.near and e.kind == "general"
    # stretched out: the tip cannot move along the arm (the direction of link 1)
    F = two.fkine_all([0.3, 0.0])
    along = F[1, :3, 0]
    assert abs(abs(e.lost[0].axis @ along) - 1.0) < 1e-9
    assert e.lost[0].motion == "translate"
    assert not explain_singularity(two, [0.3, 1.0]).near


def test_singular_direction_kind_named_for_spherical_wrist_arms_not_puma_like():
    # Stanford arm: spherical wrist, prismatic joint 3 (not Puma-like)
    stan = load_robot("stanford")
    assert has_spherical_wrist(stan)
    q = np.array([0.2, 0.7, 0.4, 0.3, 0.0, 0.1])
    kind, text = singularity_kind(stan, q)
    assert kind == "wrist" and "wrist singularity" in text
    # shoulder: joint 2 at zero puts the wrist centre... not on axis 1 (d2 offset); the
    # arm singularity of the Stanford arm is at d3 = 0 with q2 = 0: W on axis 1
    e = explain_singularity(stan, [0.2, 0.7, 0.4, 0.3, 0.8, 0.1])
    assert not e.near
    assert not has_spherical_wrist(load_robot("ur5"))
    kind, text = singularity_info(load_robot("ur5"), [0.2, -0.5, 1.0, 0.3, 0.0, 0.1])
    assert kind == "general" and "cannot" in text  # UR5: the SVD words, live in the jog


def test_singular_direction_arm_config_generalises_puma_letters():
    puma = load_robot("puma560")
    for q in puma.random_q(200, seed=7):
        F = puma.fkine_all(q)
        assert config_of(puma, q, F) == arm_config(F)
    # KUKA KR5: the wrist flip is the sign of sin(q5); the same pose with the wrist
    # flipped (q4 + pi, -q5, q6 + pi) changes only that letter
    kr5 = load_robot("kr5")
    q = np.array([0.3, -1.2, 0.5, 0.4, -0.7, 0.2])
    q2 = q + [0, 0, 0, math.pi, 0, math.pi]
    q2[4] = -q[4]
    assert np.allclose(kr5.fkine(q), kr5.fkine(q2), atol=1e-12)
    a, b = config_of(kr5, q), config_of(kr5, q2)
    assert a[:2] == b[:2] and {a[2], b[2]} == {"n", "f"}
    # a UR5 has no spherical wrist but its closed-form family gives it letters too
    ur5 = load_robot("ur5")
    from robogui.engine.kinematics.ikine_branches import analytic_config
    assert config_of(ur5, np.zeros(6) + 0.3) == analytic_config(ur5, np.zeros(6) + 0.3)
    assert config_of(load_robot("panda"), np.zeros(7)) is None


def test_singular_direction_arm_config_of_stanford_arm_flips_with_wrist():
    stan = load_robot("stanford")
    q = np.array([0.3, 0.9, 0.5, 0.4, 0.7, 0.2])
    q2 = q + [0, 0, 0, math.pi, 0, math.pi]
    q2[4] = -q[4]
    assert np.allclose(stan.fkine(q), stan.fkine(q2), atol=1e-12)
    a, b = config_of(stan, q), config_of(stan, q2)
    assert a[:2] == b[:2] and {a[2], b[2]} == {"n", "f"}


def test_singular_direction_said_while_jogging_a_ur5_near_its_wrist_singularity():
    from robogui.session.teach.jog import jog_step

    ur5 = load_robot("ur5")
    q = np.array([0.2, -0.5, 1.0, 0.3, 1e-4, 0.1])
    e = explain_singularity(ur5, q)
    assert e.near
    lost = e.lost[0]
    # jog straight into the lost direction: the pendant says which one, in words
    axis = "xyz"[int(np.argmax(np.abs(lost.axis)))] if lost.motion == "translate" else (
        "r" + "xyz"[int(np.argmax(np.abs(lost.axis)))])
    res = jog_step(ur5, q, axis, 1, 0.01 if lost.motion == "translate" else math.radians(5))
    assert res.message is not None and "Near a singularity, cannot" in res.message
