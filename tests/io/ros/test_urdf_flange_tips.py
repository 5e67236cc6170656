"""Every arm that example-robot-data and rtb-data ship opens, without a tip given, at its
tool flange with its arm joints only (a gripper's joints are not arm joints), and its
kinematics agree with Pinocchio's model of the same file at that frame."""

from __future__ import annotations

import warnings

import numpy as np
import pinocchio as pin
import pytest

from robogui.io.ros.urdf import load_urdf, urdf_tip_choices
from tests.io.ros.test_urdf import _pin_chain, _pin_q
from tests.urdf_files import ERD, KR5, PACKAGES, RTB

QUT = RTB / "qut_frankie_description/robots"
TROSSEN = RTB / "trossen_descriptions/urdf"
# (file, the flange the rule must pick, number of arm joints)
FLANGES = [
    (ERD / "ur_description/urdf/ur3_robot.urdf", "tool0", 6),
    (ERD / "ur_description/urdf/ur5_robot.urdf", "tool0", 6),
    (ERD / "ur_description/urdf/ur10_robot.urdf", "tool0", 6),
    (ERD / "ur_description/urdf/ur5_gripper.urdf", "tool0", 6),
    (ERD / "panda_description/urdf/panda.urdf", "panda_hand", 7),
    (ERD / "kinova_description/robots/kinova.urdf", "j2s6s200_end_effector", 6),
    (ERD / "xarm_description/urdf/xarm7.urdf", "link_eef", 7),
    (ERD / "z1_description/urdf/z1.urdf", "gripperStator", 6),
    (ERD / "so_arm_description/urdf/so101.urdf", "gripper_frame_link", 5),
    (ERD / "talos_data/robots/talos_left_arm.urdf", "wrist_left_ft_tool_link", 6),
    (ERD / "tiago_description/robots/tiago_no_hand.urdf", "wrist_ft_tool_link", 8),
    (RTB / "abb_irb140_description/urdf/irb140.urdf", "tool0", 6),
    (RTB / "kuka_description/kuka_kr16/urdf/kr16_2.urdf", "tool0", 6),
    (RTB / "kuka_description/kuka_lbr_iiwa/urdf/lbr_iiwa_14_r820.urdf", "tool0", 7),
    (RTB / "unimation_puma560_description/urdf/puma560_robot.urdf", "link7", 6),
    (KR5, "tool0", 6),
    (QUT / "panda_arm_hand.urdf.xacro", "panda_hand", 7),
    (TROSSEN / "wx250s.urdf.xacro", "/ee_arm_link", 6),
]


@pytest.mark.parametrize(("path", "tip", "n"), FLANGES, ids=lambda x: getattr(x, "stem", x))
def test_opens_at_its_flange_and_agrees_with_pinocchio(path, tip, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few files name meshes that are not shipped
        robot = load_urdf(path, package_path=PACKAGES)
    assert (robot.tip, robot.n) == (tip, n)
    assert urdf_tip_choices(path, PACKAGES)[0] == (tip, n)
    model, fid = _pin_chain(path, tip, robot)
    data = model.createData()
    Q = robot.random_q(3, seed=4)
    T, J = robot.fkine(Q), robot.jacob0(Q)
    for k in range(len(Q)):
        qp = _pin_q(model, Q[k])
        pin.framesForwardKinematics(model, data, qp)
        np.testing.assert_allclose(T[k], data.oMf[fid].homogeneous, atol=1e-9)
        Jp = pin.computeFrameJacobian(model, data, qp, fid, pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(J[k], Jp, atol=1e-9)


def test_the_panda_gripper_is_no_arm_joint():
    """The Panda opens as 7 joints (was "8 axis RRRRRRRP" with a finger as tip); its
    fingers ride on the hand and both follow the finger joint only when it is asked for."""
    panda = load_urdf(ERD / "panda_description/urdf/panda.urdf")
    assert panda.structure == "RRRRRRR"
    assert {v.link for v in panda.visuals} >= {"panda_leftfinger", "panda_rightfinger"}
    choices = dict(urdf_tip_choices(ERD / "panda_description/urdf/panda.urdf"))
    assert choices["panda_link8"] == 7 and choices["panda_link3"] == 3
