"""The generated forward-kinematics kernels: batch = one by one = the plain D-H product."""

import math

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.kinematics import kinematics
from robogui.engine.kinematics.kinematics import fkine, fkine_all, joint_locations, kernel_for


def dh_matrix(theta, d, a, alpha, mdh):
    """The r6 manual's link transforms, written out element by element."""
    ct, st, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    if mdh:
        return np.array([[ct, -st, 0, a], [st * ca, ct * ca, -sa, -d * sa],
                         [st * sa, ct * sa, ca, d * ca], [0, 0, 0, 1]])
    return np.array([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                     [0, sa, ca, d], [0, 0, 0, 1]])


def reference_frames(robot, q):
    F = [robot.base.copy()]
    for L, qj in zip(robot.links, q, strict=True):
        theta = qj + L.offset if L.joint == "R" else L.theta
        d = qj + L.offset if L.joint == "P" else L.d
        F.append(F[-1] @ dh_matrix(theta, d, L.a, L.alpha, L.mdh))
    F[-1] = F[-1] @ robot.tool
    return np.array(F)


def random_robot(seed, n=6, mdh=False, prismatic=(), special=False, base_tool=True):
    rng = np.random.default_rng(seed)
    links = []
    for j in range(n):
        joint = "P" if j in prismatic else "R"
        # "special" uses the common twists 0, +-pi/2 and zero lengths that the kernel folds
        alpha = rng.choice([0, math.pi / 2, -math.pi / 2]) if special else rng.uniform(-3, 3)
        a = rng.choice([0.0, 0.3]) if special else rng.uniform(-1, 1)
        links.append(Link(joint=joint, theta=rng.uniform(-3, 3), d=rng.uniform(-1, 1), a=a,
                          alpha=alpha, mdh=mdh, offset=rng.uniform(-0.5, 0.5),
                          qlim=(-1.0, 1.0) if joint == "P" else None))
    robot = Robot(links, name=f"random{seed}")
    if base_tool:
        c, s = math.cos(0.4), math.sin(0.4)
        base = np.array([[c, -s, 0, 0.1], [s, c, 0, -0.2], [0, 0, 1, 0.3], [0, 0, 0, 1.0]])
        tool = np.array([[0, -1, 0, 0.01], [1, 0, 0, 0.02], [0, 0, 1, 0.15], [0, 0, 0, 1.0]])
        robot = robot.with_base(base).with_tool(tool)
    return robot


CASES = [dict(mdh=False), dict(mdh=True), dict(mdh=False, prismatic=(2,)),
         dict(mdh=True, prismatic=(0, 4)), dict(special=True),
         dict(special=True, mdh=True, prismatic=(1,)), dict(base_tool=False, n=1),
         dict(base_tool=False, special=True, n=3)]


@pytest.mark.parametrize("case", CASES)
def test_kernels_match_the_dh_product_and_batch_equals_single(case):
    robot = random_robot(7, **case)
    q = np.random.default_rng(3).uniform(-2, 2, (40, robot.n))
    F = fkine_all(robot, q)
    assert F.shape == (40, robot.n + 1, 4, 4)
    assert F.strides[0] == F.itemsize  # documented layout: samples last in memory
    for i in range(0, 40, 7):
        np.testing.assert_allclose(F[i], reference_frames(robot, q[i]), atol=1e-13)
        # the same kernel runs on floats (one state) and on arrays: identical numbers
        np.testing.assert_array_equal(fkine_all(robot, q[i]), F[i])
        np.testing.assert_array_equal(fkine(robot, q[i]), F[i, -1])
    np.testing.assert_array_equal(fkine(robot, q), F[:, -1])
    np.testing.assert_array_equal(joint_locations(robot, q), F[..., :3, 3])


def test_many_states_cross_the_block_boundary(monkeypatch):
    robot = random_robot(2, prismatic=(3,))
    # passes of 1000 states through the scratch rows (16 (n+1) = 112 outputs each)
    monkeypatch.setattr(kinematics, "_SCRATCH_SIZE", 112 * 1000)
    block = 1000
    m = block * 2 + 17
    q = np.random.default_rng(4).uniform(-3, 3, (m, robot.n))
    F = fkine_all(robot, q)
    assert F.strides[0] == F.itemsize
    for i in (0, block - 1, block, m - 1):
        np.testing.assert_array_equal(F[i], fkine_all(robot, q[i]))
    np.testing.assert_array_equal(fkine(robot, q)[-5:], F[-5:, -1])


def test_half_angle_cos_sin_is_accurate_everywhere():
    x = np.concatenate([np.linspace(-10, 10, 20001), [math.pi, -math.pi, 0.0, math.pi / 2,
                                                      3 * math.pi, 1e-300, -4.64, 4.64]])
    c, s = kinematics.cos_sin(x)
    np.testing.assert_allclose(c, np.cos(x), rtol=0, atol=4e-16)
    np.testing.assert_allclose(s, np.sin(x), rtol=0, atol=4e-16)
    assert np.all(np.isfinite(c)) and np.all(np.isfinite(s))


def test_puma_against_roboticstoolbox():
    import roboticstoolbox as rtb

    p = rtb.models.DH.Puma560()
    robot = Robot([Link(d=L.d, a=L.a, alpha=L.alpha, offset=L.offset) for L in p.links])
    q = np.random.default_rng(5).uniform(-3, 3, (20, 6))
    F = fkine_all(robot, q)
    for i in range(20):
        np.testing.assert_allclose(F[i, -1], p.fkine(q[i]).A, atol=1e-14)
        ref = np.array([T.A for T in p.fkine_all(q[i])])
        np.testing.assert_allclose(F[i], ref, atol=1e-14)


def test_kernel_follows_a_new_tool_or_base():
    robot = random_robot(8)
    q = np.full(6, 0.3)
    T1 = fkine(robot, q)
    tool = np.eye(4)
    tool[2, 3] = 0.5
    r2 = robot.with_tool(tool)
    np.testing.assert_allclose(fkine(r2, q), reference_frames(r2, q)[-1], atol=1e-13)
    np.testing.assert_array_equal(fkine(robot, q), T1)
    # identity base and tool fold into the kernel: no operations are emitted for them
    plain = random_robot(8, base_tool=False, special=True)
    src = kernel_for(plain, "all").source
    assert " * 1.0" not in src and " * 0.0" not in src and "+ 0.0" not in src


def test_bad_joint_input_is_rejected():
    robot = random_robot(9)
    for bad in ([0.0] * 5, np.zeros((3, 5)), [np.nan] * 6, "abc", np.zeros((2, 2, 6))):
        with pytest.raises(ValueError, match="q"):
            fkine_all(robot, bad)
