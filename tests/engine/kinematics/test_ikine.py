"""Inverse kinematics: numeric solver targets, limits, masks, stacks, failures; ikine560."""

import math
import re

import numpy as np
import pytest

from robogui import Link, Robot
from robogui.engine.kinematics.ikine import IKResult, ikine, ikine560, ikine560_all, pose_error
from robogui.engine.kinematics.kinematics import fkine
from robogui.engine.spatial.transforms import rotz, trotz
from tests.engine.kinematics.test_kinematics_batch import CASES, random_robot

CONFIGS = ("lun", "luf", "ldn", "ldf", "run", "ruf", "rdn", "rdf")


def pose_errors(robot, q, T):
    e = pose_error(T, fkine(robot, q))
    return np.linalg.norm(e[..., :3], axis=-1), np.linalg.norm(e[..., 3:], axis=-1)


def test_200_random_reachable_puma_poses(puma):
    Q = puma.random_q(200, seed=11)
    T = fkine(puma, Q)
    ok = 0
    for i in range(200):
        res = ikine(puma, T[i])
        assert isinstance(res, IKResult) and np.all(np.isfinite(res.q))
        ep, er = pose_errors(puma, res.q, T[i])
        inside = np.all(puma.islimit(res.q) == 0)
        ok += bool(res.success and ep < 1e-8 and er < 1e-8 and inside)
        if res.success:
            assert res.reason == "converged" and res.residual < 1e-8 and inside
    assert ok >= 199  # >= 99.5 %


def test_stack_vectorised_and_chained(puma):
    Q = puma.random_q(30, seed=12)
    T = fkine(puma, Q)
    res = ikine(puma, T, chain=False)
    assert res.q.shape == (30, 6) and res.success.shape == (30,) and len(res.reason) == 30
    assert res.success.all()
    ep, er = pose_errors(puma, res.q, T)
    assert ep.max() < 1e-8 and er.max() < 1e-8
    # a trajectory: each solve starts from the previous one, so the path stays on one branch
    q0 = np.array([0.1, 0.6, -2.2, 0.2, 0.8, 0.1])
    path = q0 + np.linspace(0, 1, 25)[:, None] * np.array([0.5, 0.3, 0.4, -0.4, 0.3, 0.6])
    sol = ikine(puma, fkine(puma, path), q0=q0)
    assert sol.success.all()
    np.testing.assert_allclose(sol.q, path, atol=1e-7)


def test_per_pose_starts_are_used_not_chained(puma):
    # two branches of one pose: each pose of the stack converges to the branch its own q0
    # row is next to (chaining from the first solution would give the first branch twice)
    T = fkine(puma, np.array([0.3, 0.5, -2.0, 0.4, 0.6, 0.2]))
    br = ikine560_all(puma, T)
    q_a, q_b = br.q[br.success][:2]
    assert np.abs(q_a - q_b).max() > 0.5
    starts = np.stack([q_a + 0.02, q_b - 0.02])
    res = ikine(puma, np.stack([T, T]), q0=starts)
    assert res.success.all()
    np.testing.assert_allclose(res.q, [q_a, q_b], atol=1e-7)
    # a single q0 seeds the first pose; the second starts from the first solution
    res = ikine(puma, np.stack([T, T]), q0=q_b - 0.02)
    np.testing.assert_allclose(res.q, [q_b, q_b], atol=1e-7)


@pytest.mark.parametrize("case", CASES)
def test_any_chain_mdh_prismatic_base_and_tool(case):
    robot = random_robot(31, **case)
    mask = None if robot.n >= 6 else [1, 1, 1, 0, 0, 0][:3] + [0, 0, 0]
    if robot.n < 3:
        mask = [1, 0, 0, 0, 0, 0]
    Q = robot.random_q(20, seed=5)
    T = fkine(robot, Q)
    w = np.ones(6) if mask is None else np.array(mask, dtype=float)
    for i in range(20):
        res = ikine(robot, T[i], mask=mask)
        assert res.success, res.reason
        e = pose_error(T[i], fkine(robot, res.q)) * w
        assert np.abs(e).max() < 1e-9
        assert np.all(robot.islimit(res.q) == 0)


def test_modified_dh_puma(puma_akb):
    Q = puma_akb.random_q(20, seed=6)
    T = fkine(puma_akb, Q)
    res = ikine(puma_akb, T, chain=False)
    assert res.success.all()
    ep, er = pose_errors(puma_akb, res.q, T)
    assert ep.max() < 1e-8 and er.max() < 1e-8


def test_joint_limits_respected_with_restarts(puma):
    # tight limits around a known solution: other branches are rejected, restarts find it
    q_true = np.array([0.3, 0.9, -2.0, 0.5, 0.6, -0.4])
    links = [L.replace(qlim=(q - 0.25, q + 0.25)) for L, q in zip(puma.links, q_true,
                                                                   strict=True)]
    tight = puma.with_links(links)
    res = ikine(tight, fkine(tight, q_true), q0=np.zeros(6))
    assert res.success
    assert np.all(tight.islimit(res.q) == 0)
    np.testing.assert_allclose(res.q, q_true, atol=1e-7)
    # without restarts the search from zeros lands on a solution outside the limits
    once = ikine(tight, fkine(tight, q_true), q0=np.zeros(6), slimit=1)
    assert not once.success and "outside the joint limits" in once.reason
    assert res.iterations > once.iterations
    assert np.all(tight.islimit(once.q) == 0) and np.all(np.isfinite(once.q))


def test_mask_for_a_robot_with_fewer_joints(twolink):
    target = fkine(twolink, [0.4, 1.1])
    target[:3, :3] = np.eye(3)  # an orientation the planar arm cannot take
    res = ikine(twolink, target, mask=[1, 1, 0, 0, 0, 0], q0=[0.2, 0.5])
    assert res.success
    np.testing.assert_allclose(fkine(twolink, res.q)[:2, 3], target[:2, 3], atol=1e-9)
    with pytest.raises(ValueError, match="mask"):
        ikine(twolink, target)  # 2 joints and a full pose: the mask is required


def test_r6_five_axis_mask_frees_rotation_about_z(puma):
    """The r6 manual's example: a 5-axis arm cannot turn about its tool z axis; with
    M = [1 1 1 1 1 0] it reaches the pose up to that rotation. mask_frame="end" weighs the
    error in tool axes (the r6 text), "base" in world axes (RTB-Py and the r6 code)."""
    arm5 = Robot(puma.links[:5], name="puma5")  # frame 5's z is the missing joint 6 axis
    Q = arm5.random_q(30, seed=3)
    M = [1, 1, 1, 1, 1, 0]
    # tool frame: turned about the tool's own z axis, out of the arm's reach
    T = fkine(arm5, Q) @ trotz(0.7)
    res = ikine(arm5, T, mask=M, mask_frame="end", chain=False)
    assert res.success.all() and np.all(res.residual < 1e-10)
    F = fkine(arm5, res.q)
    np.testing.assert_allclose(F[:, :3, 3], T[:, :3, 3], atol=1e-9)  # position
    np.testing.assert_allclose(F[:, :3, 2], T[:, :3, 2], atol=1e-9)  # approach vector
    # the angle left over is the rotation about the tool z axis
    e_tool = np.einsum("mji,mj->mi", F[:, :3, :3], pose_error(T, F)[:, 3:])
    np.testing.assert_allclose(e_tool[:, :2], 0, atol=1e-9)
    assert np.abs(e_tool[:, 2]).max() > 0.1
    one = ikine(arm5, T[0], mask=M, mask_frame="end")  # the single-pose path
    assert one.success and np.abs(fkine(arm5, one.q)[:3, 2] - T[0, :3, 2]).max() < 1e-9
    roboop = ikine(arm5, T[:5], mask=M, mask_frame="end", method="roboop", chain=False)
    assert roboop.success.all()
    # the same mask in world axes asks for something else, here mostly out of reach
    base = ikine(arm5, T[:10], mask=M, chain=False, slimit=3)
    assert base.success.sum() < 10
    # world frame: turned about the world z axis through the tool point
    Tw = fkine(arm5, Q)
    Tw[:, :3, :3] = rotz(0.7) @ Tw[:, :3, :3]
    res = ikine(arm5, Tw, mask=M, chain=False)
    assert res.success.all()
    e = pose_error(Tw, fkine(arm5, res.q))
    assert np.abs(e[:, :5]).max() < 1e-9 and np.abs(e[:, 5]).max() > 0.1


def test_masks_with_every_method(twolink):
    target = fkine(twolink, [0.4, 1.1])
    target[:3, :3] = np.eye(3)  # an orientation the planar arm cannot take
    for method in ("lm", "r6", "roboop"):
        for frame in ("base", "end"):
            res = ikine(twolink, target, mask=[1, 1, 0, 0, 0, 0], q0=[0.2, 0.5],
                        method=method, mask_frame=frame)
            assert res.success, (method, frame, res.reason)
            F = fkine(twolink, res.q)
            err = target[:3, 3] - F[:3, 3]
            if frame == "end":
                err = F[:3, :3].T @ err  # in tool axes
            assert np.abs(err[:2]).max() < 1e-9
    with pytest.raises(ValueError, match="takes no mask"):
        ikine(twolink, target, mask=[1, 1, 0, 0, 0, 0], method="roboop_taylor")
    with pytest.raises(ValueError, match="mask_frame"):
        ikine(twolink, target, mask=[1, 1, 0, 0, 0, 0], mask_frame="tool")


def test_unreachable_poses_fail_in_words_without_nan(puma):
    far = np.eye(4)
    far[:3, 3] = [3.0, 0.0, 0.5]
    res = ikine(puma, far)
    assert not res.success and "out of reach" in res.reason
    assert np.all(np.isfinite(res.q)) and np.isfinite(res.residual)
    # inside the reach sphere but not reachable: a 3-joint arm asked for a full pose
    arm = Robot(puma.links[:3], name="arm")
    T = fkine(arm, [0.2, 0.4, -1.0])
    T[:3, :3] = np.diag([1.0, -1.0, -1.0]) @ T[:3, :3]
    res = ikine(arm, T, mask=np.ones(6), slimit=3, ilimit=30)
    assert not res.success and "no solution" in res.reason
    assert np.all(np.isfinite(res.q)) and np.all(arm.islimit(res.q) == 0)
    stack = ikine(puma, np.stack([far, fkine(puma, puma.pose("qn"))]), chain=False)
    assert list(stack.success) == [False, True]


def test_singular_targets_do_not_produce_nan(puma):
    wrist = np.array([0.2, 0.5, -1.0, 0.3, 0.0, 0.1])
    stretched = np.array([0.2, 0.5, -math.atan2(puma.links[3].d, puma.links[2].a), 0, 0.7, 0])
    for q in (wrist, stretched):
        res = ikine(puma, fkine(puma, q), q0=q + 0.05)
        assert np.all(np.isfinite(res.q))
        assert res.success and res.residual < 1e-8


@pytest.mark.parametrize("method", ["lm", "r6", "roboop", "roboop_taylor"])
def test_methods_converge_near_the_seed(puma, method):
    q = np.array([0.1, 0.7, -2.0, 0.4, 1.0, 0.2])
    res = ikine(puma, fkine(puma, q), q0=q + 0.1, method=method, slimit=1)
    assert res.success
    np.testing.assert_allclose(res.q, q, atol=1e-7)


def test_bad_input(puma):
    T = fkine(puma, np.zeros(6))
    with pytest.raises(ValueError, match="T must have shape"):
        ikine(puma, np.eye(3))
    bad = T.copy()
    bad[0, 0] = 2.0
    with pytest.raises(ValueError, match="not a rotation"):
        ikine(puma, bad)
    bad = T.copy()
    bad[:3, 0] *= -1  # orthonormal, but a reflection
    with pytest.raises(ValueError, match="determinant"):
        ikine(puma, bad)
    with pytest.raises(ValueError, match="determinant"):
        ikine560(puma, bad)
    bad = T.copy()
    bad[:3, :3] += 1e-5  # beyond the 1e-6 tolerance
    with pytest.raises(ValueError, match=r"^T\[1\] \(rotation part\) is not a rotation: "
                       r"R\^T R differs from I by 2e-05"):
        ikine(puma, np.stack([T, bad]))
    bad = T.copy()
    bad[3, 0] = 1.0
    with pytest.raises(ValueError, match=r"^T is not homogeneous: its bottom row"):
        ikine(puma, bad)
    with pytest.raises(ValueError, match=r"^T\[2\] is not homogeneous"):
        ikine(puma, np.stack([T, T, bad, bad]))  # a stack names its first bad pose
    reflected = T.copy()
    reflected[:3, 0] *= -1
    with pytest.raises(ValueError, match=r"^T\[3\] \(rotation part\) is not a rotation: "
                       r"determinant is -1"):
        ikine(puma, np.stack([T, T, T, reflected]))
    with pytest.raises(ValueError, match="non-finite"):
        ikine(puma, np.full((4, 4), np.nan))
    with pytest.raises(ValueError, match="q0 must have shape"):
        ikine(puma, T, q0=np.zeros(5))
    with pytest.raises(ValueError, match="q0 contains a non-finite"):
        ikine(puma, T, q0=[0, 0, np.nan, 0, 0, 0])
    with pytest.raises(ValueError, match="mask"):
        ikine(puma, T, mask=[1, 1, 1])
    with pytest.raises(ValueError, match="method"):
        ikine(puma, T, method="newton")
    with pytest.raises(ValueError, match="tol"):
        ikine(puma, T, tol=-1)
    # a prismatic joint without travel limits: say how to go on
    rpr = Robot([Link(a=0.5), Link(joint="P", alpha=math.pi / 2), Link(a=0.3)], name="rpr")
    target = fkine(rpr, [0.2, 0.4, 0.1])
    with pytest.raises(ValueError, match="no qlim.*joint_limits=False"):
        ikine(rpr, target, mask=[1, 1, 1, 0, 0, 0])
    res = ikine(rpr, target, mask=[1, 1, 1, 0, 0, 0], joint_limits=False)
    assert res.success
    np.testing.assert_allclose(fkine(rpr, res.q)[:3, 3], target[:3, 3], atol=1e-10)


# -- analytic -----------------------------------------------------------------------------

def puma_variant(puma):
    """The Puma with a base, a tool, a wrist offset d6 and joint offsets."""
    c, s = math.cos(0.3), math.sin(0.3)
    base = np.array([[c, -s, 0, 0.2], [s, c, 0, -0.1], [0, 0, 1, 0.5], [0, 0, 0, 1.0]])
    tool = np.array([[1, 0, 0, 0.02], [0, 0, -1, 0.0], [0, 1, 0, 0.1], [0, 0, 0, 1.0]])
    offs = [0.1, -0.2, 0.3, 0.0, 0.2, -0.5]
    links = [L.replace(offset=o) for L, o in zip(puma.links, offs, strict=True)]
    links[5] = links[5].replace(d=0.056)
    return puma.with_links(links).with_base(base).with_tool(tool)


@pytest.mark.parametrize("variant", [False, True])
def test_all_eight_branches_round_trip(puma, variant):
    robot = puma_variant(puma) if variant else puma
    Q = np.random.default_rng(13).uniform(-math.pi, math.pi, (40, 6))
    T = fkine(robot, Q)
    res = ikine560_all(robot, T)
    assert res.q.shape == (40, 8, 6) and res.config == CONFIGS
    F = fkine(robot, res.q.reshape(-1, 6)).reshape(40, 8, 4, 4)
    assert np.abs(F - T[:, None]).max() < 1e-10
    # the 8 branches are 8 different joint vectors, one of them the original
    d = np.abs(np.angle(np.exp(1j * (res.q - Q[:, None]))))
    assert np.all(np.min(d.max(axis=2), axis=1) < 1e-9)
    one = ikine560_all(robot, T[0])
    assert one.q.shape == (8, 6) and len(one.reason) == 8


def test_branches_match_roboticstoolbox():
    import roboticstoolbox as rtb

    p = rtb.models.DH.Puma560()
    robot = Robot([Link(d=L.d, a=L.a, alpha=L.alpha, qlim=tuple(L.qlim)) for L in p.links])
    Q = np.random.default_rng(14).uniform(-2, 2, (8, 6))
    T = fkine(robot, Q)
    for cfg in CONFIGS:
        mine = ikine560(robot, T, cfg)
        for i in range(8):
            ref = p.ikine_a(T[i], config=cfg).q
            diff = np.angle(np.exp(1j * (mine.q[i] - ref)))
            assert np.abs(diff).max() < 1e-9, cfg


def test_config_letters_and_geometry(puma):
    q = np.array([0.3, 0.5, -2.0, 0.4, 0.6, 0.2])
    T = fkine(puma, q)
    res = ikine560(puma, T, "rdn")
    assert res.config == "rdn" and res.iterations == 0
    assert ikine560(puma, T, "dnr").config == "rdn"
    assert ikine560(puma, T, "r").config == "run"
    # flip: q4 + pi, -q5, q6 + pi
    n, f = ikine560(puma, T, "run").q, ikine560(puma, T, "ruf").q
    assert np.angle(np.exp(1j * (f[3] - n[3] - math.pi))) == pytest.approx(0, abs=1e-9)
    assert f[4] == pytest.approx(-n[4])
    with pytest.raises(ValueError, match="config"):
        ikine560(puma, T, "lx")
    with pytest.raises(ValueError, match="config"):
        ikine560(puma, T, "lr")


def test_wrist_singularity_round_trips(puma):
    q = np.array([0.3, 0.5, -2.0, 0.4, 0.0, 0.2])
    T = fkine(puma, q)
    res = ikine560_all(puma, T)
    assert np.all(np.isfinite(res.q))
    assert np.abs(fkine(puma, res.q) - T).max() < 1e-10


def test_analytic_unreachable_and_limits(puma):
    far = np.eye(4)
    far[:3, 3] = [2.0, 0.3, 0.4]
    res = ikine560(puma, far)
    assert not res.success and "out of reach" in res.reason and np.all(np.isfinite(res.q))
    near = np.eye(4)
    near[:3, 3] = [0.01, 0.0, 0.4]  # wrist centre inside the shoulder offset cylinder
    res = ikine560_all(puma, near)
    assert not res.success.any() and all("out of reach" in r for r in res.reason)
    # a branch outside the joint limits is reported as such
    T = fkine(puma, [0.3, 0.5, -2.0, 0.4, 0.6, 0.2])
    res = ikine560_all(puma, T)
    assert 0 < res.success.sum() < 8
    for ok, why, q in zip(res.success, res.reason, res.q, strict=True):
        assert ok == (why == "analytic")
        assert ok == bool(np.all(puma.islimit(q) == 0))
        assert ok or "outside its limits" in why


def test_nearly_orthonormal_targets_are_solved(puma):
    # the input check accepts R^T R - I up to 1e-6; both solvers reach the nearest rotation
    q = np.array([0.3, 0.5, -2.0, 0.4, 0.6, 0.2])
    T = fkine(puma, q)
    T[:3, :3] += 3e-7 * np.random.default_rng(15).standard_normal((3, 3))
    U, _, Vt = np.linalg.svd(T[:3, :3])
    nearest = T.copy()
    nearest[:3, :3] = U @ Vt
    branches = ikine560_all(puma, T)
    assert branches.success.sum() >= 2
    assert np.all(branches.residual[branches.success] < 1e-10)
    cfg = branches.config[int(np.argmax(branches.success))]
    for res in (ikine560(puma, T, cfg), ikine(puma, T, q0=q)):
        assert res.success and res.residual < 1e-10, res.reason
        assert np.abs(fkine(puma, res.q) - nearest).max() < 1e-10


def test_unreachable_reason_gives_the_reach_interval(puma):
    far = np.eye(4)
    far[:3, 3] = [2.0, 0.3, 0.4]
    why = ikine560(puma, far).reason
    lo, hi = map(float, re.search(r"reaches (\S+) to (\S+) m", why).groups())
    a2, a3, d4 = puma.links[1].a, puma.links[2].a, puma.links[3].d
    assert lo == pytest.approx(abs(a2 - np.hypot(a3, d4)), rel=1e-3)
    assert hi == pytest.approx(a2 + np.hypot(a3, d4), rel=1e-3)


def test_not_a_puma(stanford, puma_akb):
    for robot in (stanford, puma_akb):
        with pytest.raises(ValueError, match="Puma-560-like"):
            ikine560(robot, np.eye(4))
