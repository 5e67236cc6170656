"""Closed-form branches of industrial arms (spherical wrist, UR type) in any description:
the family from the axes, every branch's fkine on the target, the branch a pose came from
among them with its letters, agreement with numeric IK, ikine560_all and roboticstoolbox."""

import numpy as np
import pytest
import roboticstoolbox as rtb

from robogui.engine.kinematics.arm_family import arm_family
from robogui.engine.kinematics.ikine import ikine, ikine560_all
from robogui.engine.kinematics.ikine_branches import (
    BRANCHES,
    analytic_config,
    ikine_analytic_all,
)
from robogui.engine.model.robot import Robot
from robogui.io.robotfile import load_robot
from tests.urdf_files import ERD, IRB140, KR5, PACKAGES, PUMA

UR5 = ERD / "ur_description/urdf/ur5_robot.urdf"
UR10 = ERD / "ur_description/urdf/ur10_robot.urdf"


def _wrap(a):
    return np.mod(a + np.pi, 2 * np.pi) - np.pi


ARMS = {
    "puma560": lambda: load_robot("puma560"),
    "puma560akb": lambda: load_robot("puma560akb"),  # modified D-H
    "irb140": lambda: load_robot("irb140"),
    "kr5": lambda: load_robot("kr5"),
    "ur5": lambda: load_robot("ur5"),
    "ur10": lambda: load_robot("ur10"),
    "ur5.urdf": lambda: load_robot(UR5, tip="tool0"),
    "ur10.urdf": lambda: load_robot(UR10, tip="tool0"),
    "kr5_arc.xacro": lambda: load_robot(KR5, package_path=PACKAGES),
    "puma560.urdf": lambda: load_robot(PUMA, tip="link7"),
}
FAMILY = {"puma560": "spherical", "puma560akb": "spherical", "irb140": "spherical",
          "kr5": "spherical", "ur5": "ur", "ur10": "ur", "ur5.urdf": "ur",
          "ur10.urdf": "ur", "kr5_arc.xacro": "spherical", "puma560.urdf": "spherical"}


@pytest.mark.parametrize("name", list(ARMS))
def test_family_from_the_axes(name):
    assert arm_family(ARMS[name]()) == FAMILY[name]


def test_other_arms_have_no_family():
    for name in ("stanford", "panda", "twolink", "scara", "rhino"):
        r = load_robot(name)
        assert arm_family(r) is None, name
        assert analytic_config(r, np.zeros(r.n)) is None
    # rtb-data's IRB140 URDF places joint 6 20 mm along z from joint 5, parallel to axis 4:
    # its axes 4-6 do not meet (RTB-Py's D-H IRB140 has a spherical wrist, this file not)
    irb = load_robot(IRB140, package_path=PACKAGES)
    assert arm_family(irb) is None and not irb.isspherical()
    with pytest.raises(ValueError, match="no closed-form solution for 'Franka Panda'"):
        ikine_analytic_all(load_robot("panda"), np.eye(4))
    # a spherical wrist whose last two axes are one (alpha5 = 0) is not a wrist
    puma = load_robot("puma560")
    bad = puma.with_links(puma.links[:4] + (puma.links[4].replace(alpha=0.0), puma.links[5]))
    assert arm_family(bad) is None


@pytest.mark.parametrize("name", list(ARMS))
def test_every_branch_reaches_the_pose_and_one_is_where_it_came_from(name):
    robot = ARMS[name]()
    rng = np.random.default_rng(11)
    q = rng.uniform(-np.pi, np.pi, (60, 6))
    T = robot.fkine(q)
    res = ikine_analytic_all(robot, T)
    assert res.q.shape == (60, 8, 6) and res.config == BRANCHES
    reached = np.array([[not w.startswith("out of reach") for w in row] for row in res.reason])
    # every branch that exists puts the tool on the target (poses were reachable)
    Tb = robot.fkine(res.q[reached])
    np.testing.assert_allclose(Tb, np.repeat(T, 8, axis=0)[reached.ravel()], atol=1e-9)
    assert reached.sum() >= 60 * 4
    # the configuration the pose came from is one of the branches, under its own letters
    letters = analytic_config(robot, q)
    # near a singularity a 1e-9 pose fixes q only to ~1e-9 / sigma_min(J): compare there
    sigma = np.linalg.svd(robot.jacob0(q), compute_uv=False)[:, -1]
    for i in range(60):
        b = BRANCHES.index(letters[i])
        assert reached[i, b]
        tol = 1e-7 if sigma[i] > 1e-2 * robot.reach else 1e-4
        np.testing.assert_allclose(_wrap(res.q[i, b] - q[i]), 0, atol=tol)
    # each branch's letters are its own: the labels of the 8 branches are the 8 letters
    lab = np.array(analytic_config(robot, res.q.reshape(-1, 6))).reshape(60, 8)
    assert np.all(lab[reached] == np.broadcast_to(np.array(BRANCHES), (60, 8))[reached])
    # one pose alone gives (8, 6)
    one = ikine_analytic_all(robot, T[0])
    np.testing.assert_allclose(one.q, res.q[0], atol=1e-12)


@pytest.mark.parametrize("name", ["kr5", "irb140", "ur5", "ur10.urdf"])
def test_numeric_ik_lands_on_a_branch(name):
    robot = ARMS[name]()
    rng = np.random.default_rng(5)
    q = rng.uniform(-2.5, 2.5, (12, 6))
    T = robot.fkine(q)
    num = ikine(robot, T, q0=q + rng.normal(0, 0.15, q.shape), joint_limits=False)
    ana = ikine_analytic_all(robot, T)
    for i in np.flatnonzero(np.asarray(num.success)):
        qn = np.asarray(num.q[i])
        gap = np.abs(_wrap(ana.q[i] - qn)).max(axis=1)
        b = int(np.argmin(gap))
        assert gap[b] < 1e-6
        assert BRANCHES[b] == analytic_config(robot, qn)
    assert np.sum(num.success) >= 8


def test_puma_agrees_with_ikine560_and_the_akb_model():
    puma, akb = load_robot("puma560"), load_robot("puma560akb")
    rng = np.random.default_rng(3)
    q = rng.uniform(-np.pi, np.pi, (50, 6))
    T = puma.fkine(q)
    res, ref = ikine_analytic_all(puma, T), ikine560_all(puma, T)
    assert ref.config == res.config  # the same letters for the same branch
    both = np.asarray(ref.success) & np.asarray(res.success)
    assert both.sum() > 50
    np.testing.assert_allclose(_wrap(res.q - ref.q)[both], 0, atol=1e-9)
    # the akb model at q is the Puma 560 at q + (pi, pi, pi, 0, 0, pi): same posture, letters
    shift = np.array([np.pi, np.pi, np.pi, 0, 0, np.pi])
    assert analytic_config(akb, q) == analytic_config(puma, q + shift)


def test_rtb_python_confirms_the_ur5_branches():
    from robogui.engine.compat.rtb_compat import DHRobot, RevoluteDH

    R = rtb.models.DH.UR5()
    robot = DHRobot([RevoluteDH(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset)
                     for L in R.links], name="ur5-rtb")
    q = np.array([0.4, -1.1, 1.3, -0.7, 1.2, 0.3])
    res = ikine_analytic_all(robot, R.fkine(q).A)
    assert np.all(res.success)  # a pose well inside: all 8 branches, the UR5's limits are +-2pi
    for qb in res.q:
        np.testing.assert_allclose(R.fkine(qb).A, R.fkine(q).A, atol=1e-9)
    assert len({tuple(np.round(_wrap(qb), 6)) for qb in res.q}) == 8  # eight distinct


def test_out_of_reach_and_limits_are_said():
    kr5 = load_robot("kr5")
    far = np.eye(4)
    far[:3, 3] = [5.0, 0, 0.5]
    res = ikine_analytic_all(kr5, far)
    assert not np.any(res.success)
    assert all(r.startswith("out of reach") for r in res.reason)
    assert np.all(np.isfinite(res.q))
    # a pose reached only by branches outside the joint limits says which joints
    q = np.array([0.2, -1.0, 1.1, 0.3, 0.8, -0.4])
    r2 = ikine_analytic_all(kr5, kr5.fkine(q))
    assert r2.success[BRANCHES.index(analytic_config(kr5, q))]
    assert any("outside its limits" in w for w in r2.reason)


def test_built_arm_with_flipped_axes_and_offsets():
    # a KUKA-like D-H arm typed with flipped joints and offsets: the axes decide
    from robogui.engine.model.link import Link

    L = [Link(d=0.4, a=0.025, alpha=np.pi / 2, flip=True),
         Link(a=0.455, offset=np.pi / 2),
         Link(a=0.035, alpha=np.pi / 2),
         Link(d=0.42, alpha=-np.pi / 2, flip=True),
         Link(alpha=np.pi / 2, offset=0.3),
         Link(d=0.08)]
    r = Robot(L, name="kuka-like")
    assert arm_family(r) == "spherical"
    q = np.array([0.5, -0.4, 0.9, 1.0, -0.7, 2.0])
    res = ikine_analytic_all(r, r.fkine(q))
    b = BRANCHES.index(analytic_config(r, q))
    np.testing.assert_allclose(_wrap(res.q[b] - q), 0, atol=1e-9)


def test_abb_confdata_follows_from_the_axes():
    from robogui.engine.kinematics.arm_family import abb_confdata, arm_model

    for name in ("irb140", "kr5"):
        robot = load_robot(name)
        model = arm_model(robot)
        # the zero (calibration) pose: all quadrants 0, wrist in front, axis 5 at 0
        np.testing.assert_array_equal(abb_confdata(model, np.zeros(6)), [[0, 0, 0, 0]])
        q = np.array([np.radians(100), -0.3, 0.4, np.radians(-30), -0.5, np.radians(200)])
        cf = abb_confdata(model, q)[0]
        assert list(cf[:3]) == [1, -1, 2] and cf[3] % 2 == 1  # quadrants; q5 < 0
        # the wrist flipped (q4 + pi, -q5, q6 + pi), same pose: only the axis-5 bit flips
        q2 = q + [0, 0, 0, np.pi, 0, np.pi]
        q2[4] = -q[4]
        cf2 = abb_confdata(model, q2)[0]
        assert cf2[3] == cf[3] - 1 and cf2[1] == cf[1] + 2 and cf2[2] == cf[2] + 2
        # an arm without a shoulder offset: the eight branches have eight different cfx
        rng = np.random.default_rng(4)
        Q = rng.uniform(-2, 2, (30, 6))
        res = ikine_analytic_all(robot, robot.fkine(Q))
        for i in range(30):
            here = np.array([not w.startswith("out of reach") for w in res.reason[i]])
            cfx = abb_confdata(model, res.q[i][here])[:, 3]
            assert len(set(cfx.tolist())) == here.sum()


@pytest.mark.parametrize("toml, urdf", [("ur5", UR5), ("ur10", UR10)])
def test_dh_and_urdf_descriptions_of_one_arm_give_the_same_branches(toml, urdf):
    """robots/ur5.toml (D-H) and example-robot-data's ur5_robot.urdf (URDF joints) are the
    same arm with the same joint zeros and senses: at every configuration the eight
    solutions of their own poses are the same joint vectors under the same letters."""
    A, B = load_robot(toml), load_robot(urdf, tip="tool0")
    q = np.random.default_rng(8).uniform(-2.5, 2.5, (40, 6))
    ra, rb = ikine_analytic_all(A, A.fkine(q)), ikine_analytic_all(B, B.fkine(q))
    assert analytic_config(A, q) == analytic_config(B, q)
    for i in range(40):
        ea = np.array([not w.startswith("out of reach") for w in ra.reason[i]])
        eb = np.array([not w.startswith("out of reach") for w in rb.reason[i]])
        np.testing.assert_array_equal(ea, eb)
        np.testing.assert_allclose(_wrap(ra.q[i][ea] - rb.q[i][eb]), 0, atol=1e-6)


@pytest.mark.parametrize("name", ["kr5", "ur5"])
def test_base_and_tool_are_part_of_the_pose(name):
    from robogui.engine.spatial.transforms import rpy2tr

    base = rpy2tr([0.2, -0.1, 0.7])
    base[:3, 3] = [0.3, -0.2, 0.5]
    tool = rpy2tr([0.0, 0.4, -0.3])
    tool[:3, 3] = [0.01, 0.02, 0.15]
    robot = load_robot(name).with_base(base).with_tool(tool)
    q = np.array([0.5, -0.8, 0.9, 0.3, -0.6, 1.1])
    res = ikine_analytic_all(robot, robot.fkine(q))
    b = BRANCHES.index(analytic_config(robot, q))
    np.testing.assert_allclose(_wrap(res.q[b] - q), 0, atol=1e-9)
    # the letters do not depend on where the arm stands or what it holds
    assert analytic_config(robot, q) == analytic_config(load_robot(name), q)


def test_singular_poses_still_give_their_branches():
    from robogui.engine.model.link import Link

    # no offsets: with the wrist centre on axis 1 (shoulder singularity) q1 is free
    r = Robot([Link(d=0.4, alpha=np.pi / 2), Link(a=0.4), Link(alpha=np.pi / 2),
               Link(d=0.4, alpha=-np.pi / 2), Link(alpha=np.pi / 2), Link(d=0.1)],
              name="upright")
    q = np.array([0.3, -np.pi, -np.pi / 2, 0.4, 0.7, 0.2])
    np.testing.assert_allclose(r.fkine_all(q)[4][:2, 3], 0, atol=1e-15)  # W on axis 1
    T = r.fkine(q)
    res = ikine_analytic_all(r, T)
    assert np.all(res.success)
    np.testing.assert_allclose(r.fkine(res.q), np.broadcast_to(T, (8, 4, 4)), atol=1e-9)
    assert any("singular" in w for w in res.reason)  # left/right is not defined there
    # wrist singularity (q5 = 0) on a KUKA and a UR5: all branches still reach the pose
    for name in ("kr5", "ur5"):
        robot = load_robot(name)
        q = np.array([0.3, -0.5, 0.6, 0.4, 0.0, 0.2])
        res = ikine_analytic_all(robot, robot.fkine(q))
        here = np.array([not w.startswith("out of reach") for w in res.reason])
        assert here.sum() >= 4
        np.testing.assert_allclose(robot.fkine(res.q[here]),
                                   np.broadcast_to(robot.fkine(q), (here.sum(), 4, 4)),
                                   atol=1e-9)
