"""The general joint description reproduces the D-H link transforms exactly."""

import numpy as np
import pytest

import robogui as rg
from robogui.engine.kinematics.kinematics import link_matrices
from robogui.engine.model.joint_model import joint_models, model_link_matrices


@pytest.mark.parametrize("name", ["puma560", "puma560akb", "stanford", "panda", "scara"])
def test_joint_models_equal_dh_link_matrices(name):
    robot = rg.load_robot(name)
    Q = robot.random_q(20, seed=3)
    got = model_link_matrices(joint_models(robot), Q)
    np.testing.assert_allclose(got, link_matrices(robot, Q), atol=1e-14)


def test_joint_axis_is_z_of_previous_frame_times_pre():
    robot = rg.load_robot("stanford")
    q = robot.random_q(seed=4)
    jm = joint_models(robot)
    frames = robot.fkine_all(q)
    J = robot.jacob0(q)
    for j in range(robot.n):
        z = (frames[j] @ jm.pre[j])[:3, 2]
        col = J[3:, j] if jm.revolute[j] else J[:3, j]
        np.testing.assert_allclose(col, z, atol=1e-12)
