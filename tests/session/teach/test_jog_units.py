"""The jog's messages speak the user's display units (deg/rad, mm/m), Qt-free."""

import math

import numpy as np
import pytest

from robogui.io.robotfile import load_robot
from robogui.session.teach.jog import jog_step, singularity_info


def test_a_prismatic_limit_is_said_in_m_or_mm():
    robot = load_robot("stanford")  # joint 3 (boom) is prismatic, limits 0.3048..1.27 m
    q = robot.pose("qz")  # the boom at 0 m: below its lower limit
    res = jog_step(robot, q, "z", -1, 0.01, length_unit="m")
    assert "Joint 3 (boom) is beyond its lower limit (+0.3048 m) at +0.0000 m" in res.message
    res = jog_step(robot, q, "z", -1, 0.01)  # the default: mm
    assert "Joint 3 (boom) is beyond its lower limit (+304.8 mm) at +0.0 mm" in res.message


def test_a_revolute_limit_is_said_in_rad_or_degrees():
    robot = load_robot("puma560")
    q = robot.pose("qn")
    for _ in range(40):  # along -X until the elbow stops at its lower limit (-225 deg)
        res = jog_step(robot, q, "x", -1, 0.01, angle_unit="rad")
        q = res.q_new
        if res.limiting_joint == 2:
            break
    assert res.limiting_joint == 2
    lower = robot.qlim[2, 0]
    assert f"its lower limit ({lower:+.3f} rad)" in res.message
    assert math.isclose(lower, math.radians(-225.0))
    res = jog_step(robot, q, "x", -1, 0.01, angle_unit="deg")
    assert "its lower limit (-225.0°)" in res.message


def test_singularity_sentences_follow_the_units():
    robot = load_robot("puma560")
    for q in (robot.pose("qz"), robot.pose("qr"), np.array([0, 0.3, -0.4, 0.2, 0.0, 0.1])):
        _kind, text = singularity_info(robot, q, "rad", "m")
        assert "°" not in text and " mm " not in text and "deg" not in text, text
    _kind, text = singularity_info(robot, np.array([0, 0.3, -0.4, 0.2, 0.0, 0.1]), "rad", "m")
    assert "q5 = +0.000 rad" in text


def test_unknown_units_are_refused():
    robot = load_robot("puma560")
    with pytest.raises(ValueError, match="angle unit"):
        jog_step(robot, robot.pose("qn"), "x", 1, 0.01, angle_unit="grad")
