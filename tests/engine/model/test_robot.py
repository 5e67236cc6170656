"""Link and Robot description, forward kinematics against the D-H equations of the r6 manual."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robogui import Link, Robot
from robogui.engine.kinematics.kinematics import fkine, fkine_all, joint_locations, link_matrices


def dh_standard(theta, d, a, alpha):
    """r6 manual eq. (1), written out element by element."""
    ct, st_, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st_ * ca, st_ * sa, a * ct],
                     [st_, ct * ca, -ct * sa, a * st_],
                     [0, sa, ca, d],
                     [0, 0, 0, 1]])


def dh_modified(theta, d, a, alpha):
    """r6 manual, link page: the modified (Craig) form with a_{i-1}, alpha_{i-1}."""
    ct, st_, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st_, 0, a],
                     [st_ * ca, ct * ca, -sa, -d * sa],
                     [st_ * sa, ct * sa, ca, d * ca],
                     [0, 0, 0, 1]])


def random_robot(rng, n, mdh=False, prismatic=()):
    links = []
    for j in range(n):
        joint = "P" if j in prismatic else "R"
        links.append(Link(joint=joint, theta=rng.uniform(-3, 3), d=rng.uniform(-1, 1),
                          a=rng.uniform(-1, 1), alpha=rng.uniform(-3, 3), mdh=mdh,
                          offset=rng.uniform(-0.5, 0.5),
                          qlim=(-1.0, 1.0) if joint == "P" else None))
    return Robot(links, name="random")


def reference_fkine(robot, q):
    form = dh_modified if robot.is_mdh else dh_standard
    T = robot.base.copy()
    for L, qj in zip(robot.links, q, strict=True):
        theta = qj + L.offset if L.joint == "R" else L.theta
        d = qj + L.offset if L.joint == "P" else L.d
        T = T @ form(theta, d, L.a, L.alpha)
    return T @ robot.tool


@pytest.mark.parametrize("mdh", [False, True])
def test_fkine_matches_the_dh_equations(mdh):
    rng = np.random.default_rng(1)
    base = np.eye(4)
    base[:3, 3] = [0.1, -0.2, 0.3]
    tool = np.array([[0, -1, 0, 0.01], [1, 0, 0, 0.02], [0, 0, 1, 0.15], [0, 0, 0, 1.0]])
    robot = random_robot(rng, 5, mdh=mdh, prismatic=(2,)).with_base(base).with_tool(tool)
    for q in rng.uniform(-1, 1, (10, 5)):
        np.testing.assert_allclose(fkine(robot, q), reference_fkine(robot, q), atol=1e-13)


def test_batched_fkine_equals_one_by_one():
    rng = np.random.default_rng(2)
    robot = random_robot(rng, 6, prismatic=(1,))
    q = rng.uniform(-1, 1, (25, 6))
    batch = fkine_all(robot, q)
    assert batch.shape == (25, 7, 4, 4)
    for i in range(25):
        np.testing.assert_array_equal(batch[i], fkine_all(robot, q[i]))
    np.testing.assert_allclose(fkine(robot, q), batch[:, -1], atol=1e-15)
    np.testing.assert_allclose(joint_locations(robot, q), batch[..., :3, 3])


def test_fkine_all_frames_start_at_base_and_end_with_tool():
    robot = Robot([Link(a=1.0), Link(a=1.0)], base=np.diag([1, 1, 1, 1.0]))
    tool = np.eye(4)
    tool[0, 3] = 0.5
    frames = robot.with_tool(tool).fkine_all([0.0, 0.0])
    np.testing.assert_allclose(frames[:, :3, 3], [[0, 0, 0], [1, 0, 0], [2.5, 0, 0]])


def test_two_link_planar_closed_form():
    # Spong & Vidyasagar two-link planar arm with unit links: x = c1 + c12, y = s1 + s12
    robot = Robot([Link(a=1.0), Link(a=1.0)])
    q = np.array([[0.3, 0.4], [1.0, -2.0], [math.pi, 0.0]])
    p = robot.fkine(q)[:, :3, 3]
    np.testing.assert_allclose(p[:, 0], np.cos(q[:, 0]) + np.cos(q.sum(1)), atol=1e-15)
    np.testing.assert_allclose(p[:, 1], np.sin(q[:, 0]) + np.sin(q.sum(1)), atol=1e-15)


def test_prismatic_joint_variable_replaces_d_and_offset_adds():
    L = Link(joint="P", theta=0.3, d=99.0, alpha=0.1, offset=0.25, qlim=(0, 1))
    T = L.A(0.5)
    np.testing.assert_allclose(T, dh_standard(0.3, 0.75, 0.0, 0.1), atol=1e-15)
    R = Link(theta=99.0, d=0.2, offset=0.1)
    np.testing.assert_allclose(R.A(0.4), dh_standard(0.5, 0.2, 0.0, 0.0), atol=1e-15)
    assert Link(a=2.0).A(np.array([0.0, 0.1])).shape == (2, 4, 4)


def test_link_matrices_shape():
    robot = Robot([Link(a=1.0), Link(a=2.0), Link(joint="P", qlim=(0, 1))])
    assert link_matrices(robot, np.zeros((4, 3))).shape == (4, 3, 4, 4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-10, 10), min_size=3, max_size=3))
def test_fkine_rotation_is_orthonormal(q):
    robot = random_robot(np.random.default_rng(5), 3)
    R = robot.fkine(q)[:3, :3]
    np.testing.assert_allclose(R @ R.T, np.eye(3), atol=1e-12)
    assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-12)


# -- validation -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"joint": "X"}, "joint must be 'R'"),
        ({"a": float("nan")}, "a must be finite"),
        ({"d": "abc"}, "d must be a number"),
        ({"m": -1.0}, "m (mass) must not be negative"),
        ({"qlim": (1.0, -1.0)}, "lower limit 1.0 is above upper limit -1.0"),
        ({"I": [1, 1, -5, 0, 0, 0]}, "positive semi-definite"),
        ({"I": [[1, 2, 0], [0, 1, 0], [0, 0, 1]]}, "symmetric"),
        ({"I": [1, 2]}, "I must be a 3x3 matrix or 6 values"),
        ({"r": [0, 0]}, "r (centre of mass) must be 3 finite values"),
        ({"Tc": [1, 2, 3]}, "Tc must be a scalar or (tau_plus, tau_minus)"),
        ({"B": -0.1}, "B (viscous friction) must not be negative"),
    ],
)
def test_link_rejects_bad_parameters(kwargs, words):
    with pytest.raises(ValueError) as info:
        Link(**kwargs)
    assert words in str(info.value)


def test_link_inertia_from_six_values_and_symmetric_coulomb():
    L = Link(I=[1, 2, 3, 0.1, 0.2, 0.3], Tc=0.5)
    np.testing.assert_array_equal(L.I, [[1, 0.1, 0.3], [0.1, 2, 0.2], [0.3, 0.2, 3]])
    assert L.Tc == (0.5, -0.5)
    assert Link(Tc=(0.4, -0.2)).Tc == (0.4, -0.2)


def test_robot_rejects_mixed_conventions_and_bad_transforms():
    with pytest.raises(ValueError,
                       match=r"standard D-H \(links \[1\]\) and modified D-H \(links \[2\]\)"):
        Robot([Link(), Link(mdh=True)])
    with pytest.raises(ValueError, match="base is not homogeneous"):
        Robot([Link()], base=np.ones((4, 4)))
    with pytest.raises(ValueError, match=r"tool must have shape \(4, 4\)"):
        Robot([Link()], tool=np.eye(3))
    with pytest.raises(ValueError, match=r"poses\['qr'\] must have shape \(2,\)"):
        Robot([Link(), Link()], poses={"qr": [0, 0, 0]})
    with pytest.raises(ValueError, match="at least one link"):
        Robot([])


@pytest.mark.parametrize(
    ("q", "words"),
    [
        ([0.0, 0.0, 0.0], r"q must have shape \(2,\) or \(m, 2\), got shape \(3,\)"),
        ([0.0, float("nan")], "q contains a non-finite value"),
        ([[0.0, 1.0, 2.0]], r"got shape \(1, 3\)"),
        (["a", "b"], "q must be numeric"),
        (np.zeros((2, 2, 2)), r"got shape \(2, 2, 2\)"),
    ],
)
def test_fkine_rejects_bad_q(q, words):
    robot = Robot([Link(a=1.0), Link(a=1.0)])
    with pytest.raises(ValueError, match=words):
        robot.fkine(q)


def test_robot_is_immutable_and_with_tool_gives_a_new_robot():
    robot = Robot([Link(a=1.0)], name="one")
    tool = np.eye(4)
    tool[2, 3] = 0.1
    other = robot.with_tool(tool)
    assert other is not robot and other != robot
    np.testing.assert_array_equal(robot.tool, np.eye(4))
    with pytest.raises(ValueError):
        robot.base[0, 3] = 1.0  # read-only array
    with pytest.raises(AttributeError):
        robot.links[0].a = 3.0
    assert robot.with_tool(np.eye(4)) == robot
    assert hash(robot.with_tool(np.eye(4))) == hash(robot)


def test_qlim_defaults_islimit_and_prismatic_without_limits():
    robot = Robot([Link(), Link(qlim=(-1, 1))])
    np.testing.assert_allclose(robot.qlim, [[-math.pi, math.pi], [-1, 1]])
    np.testing.assert_array_equal(robot.islimit([0.0, 2.0]), [0, 1])
    np.testing.assert_array_equal(robot.islimit([[4.0, -2.0], [0, 0]]), [[1, -1], [0, 0]])
    bad = Robot([Link(joint="P")], name="slide")
    with pytest.raises(ValueError, match="joint 1 of 'slide' is prismatic and has no qlim"):
        _ = bad.qlim


def test_series_connection_as_in_r6():
    a = Robot([Link(a=1.0)], name="a", tool=np.diag([1, 1, 1, 1.0]))
    tool_b = np.eye(4)
    tool_b[0, 3] = 0.2
    b = Robot([Link(a=0.5)], name="b", tool=tool_b)
    ab = a * b
    assert ab.n == 2 and ab.name == "a*b"
    np.testing.assert_allclose(ab.fkine([0, 0])[:3, 3], [1.7, 0, 0])


def test_perturb_changes_dynamics_not_kinematics():
    robot = Robot([Link(a=1.0, m=2.0, r=[0.5, 0, 0], I=[1, 1, 1, 0, 0, 0])] * 2)
    p = robot.perturb(0.1, seed=3)
    assert p.links[0].a == 1.0
    assert p.links[0].m != 2.0 and abs(p.links[0].m - 2.0) <= 0.2
    np.testing.assert_allclose(p.fkine([0.1, 0.2]), robot.fkine([0.1, 0.2]))


def test_nofriction_keeps_viscous_by_default():
    robot = Robot([Link(B=0.1, Tc=(0.3, -0.2))])
    nf = robot.nofriction()
    assert nf.links[0].Tc == (0.0, 0.0) and nf.links[0].B == 0.1
    assert robot.nofriction(viscous=True).links[0].B == 0.0


def test_str_is_a_readable_table():
    text = str(Robot([Link(a=1.0, alpha=math.pi / 2), Link(joint="P", qlim=(0, 0.5))],
                     name="RP arm", manufacturer="ACME"))
    assert text.splitlines()[0] == "RP arm (ACME): 2 axis, RP, standard D-H"
    assert "q1" in text and "q2" in text and "1.571" in text and "[0, 0.5]" in text


def test_random_q_within_limits():
    robot = Robot([Link(qlim=(-0.1, 0.2)), Link(joint="P", qlim=(0, 0.5))])
    q = robot.random_q(1000, seed=0)
    assert q.shape == (1000, 2)
    assert np.all(robot.islimit(q) == 0)


# -- published numbers for the library Puma 560 (Corke, r6 toolbox and RVC 2011) --------
def test_puma560_end_effector_at_zero_and_ready_poses(puma):
    Tz = puma.fkine(puma.pose("qz"))
    np.testing.assert_allclose(Tz[:3, 3], [0.4521, -0.15, 0.4318], atol=1e-4)
    np.testing.assert_allclose(Tz[:3, :3], np.eye(3), atol=1e-12)
    Tr = puma.fkine(puma.pose("qr"))
    np.testing.assert_allclose(Tr[:3, 3], [0.0203, -0.15, 0.8636], atol=1e-4)


def test_puma560_gravity_load_at_nominal_pose(puma):
    # RVC (Corke 2011) section 9.2.2: gravload(qn) = [0 31.6399 6.0351 0 0.0283 0] N m
    np.testing.assert_allclose(puma.gravload(puma.pose("qn")),
                               [0, 31.6399, 6.0351, 0, 0.0283, 0], atol=1e-4)


def test_robot_methods_delegate_to_the_engine_functions(puma):
    from robogui.engine.kinematics import jacobians

    q = puma.random_q(3, seed=4)
    np.testing.assert_array_equal(puma.jacob0(q), jacobians.jacob0(puma, q))
    assert puma.jacob0.__doc__.startswith("``robogui.engine.kinematics.jacobians.jacob0")


def test_puma560_frames_at_the_zero_pose(puma):
    """fkine_all(qz) from the D-H table by hand (Paul and Zhang's frames, r6 puma560 page).

    At qz the arm is an L: joint 2 rotates about -y0 with the upper arm a2 along x0, the
    shoulder offset d3 goes along -y0, a3 along x0, then d4 up along z0 to the wrist
    centre, where frames 4, 5 and 6 sit. Axes z_i alternate between +z0 and -y0.
    """
    a2, a3, d3, d4 = 0.4318, 0.0203, 0.15005, 0.4318
    F = puma.fkine_all(puma.pose("qz"))
    assert F.shape == (7, 4, 4)
    origins = [[0, 0, 0], [0, 0, 0], [a2, 0, 0], [a2 + a3, -d3, 0], [a2 + a3, -d3, d4],
               [a2 + a3, -d3, d4], [a2 + a3, -d3, d4]]
    z_axes = [[0, 0, 1], [0, -1, 0], [0, -1, 0], [0, 0, 1], [0, -1, 0], [0, 0, 1], [0, 0, 1]]
    np.testing.assert_allclose(F[:, :3, 3], origins, atol=1e-15)
    np.testing.assert_allclose(F[:, :3, 2], z_axes, atol=1e-15)
    np.testing.assert_allclose(F[:, :3, 0], np.tile([1.0, 0, 0], (7, 1)), atol=1e-15)
    np.testing.assert_allclose(puma.joint_locations(puma.pose("qz")), origins, atol=1e-15)


def test_puma560_published_poses(puma):
    # Corke, "Robotics, Vision and Control" (2011), section 7.2.2: p560.fkine(qn) with the
    # d1 = 0 model prints [0 0 1 0.5963; 0 1 0 -0.1501; -1 0 0 -0.0144] (4 decimals)
    Tn = puma.fkine(puma.pose("qn"))
    np.testing.assert_allclose(Tn[:3, :3], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-12)
    np.testing.assert_allclose(Tn[:3, 3], [0.5963, -0.1501, -0.0144], atol=5e-5)
    # qs, the arm stretched horizontally: the forearm d4 lies along x0 and a3 along -z0,
    # the tool z axis points along x0
    a2, a3, d3, d4 = 0.4318, 0.0203, 0.15005, 0.4318
    Ts = puma.fkine(puma.pose("qs"))
    np.testing.assert_allclose(Ts[:3, 3], [a2 + d4, -d3, -a3], atol=1e-15)
    np.testing.assert_allclose(Ts[:3, :3], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-15)
    # all four poses in one batched call equal the one-by-one results
    names = ("qz", "qr", "qs", "qn")
    Q = np.array([puma.pose(k) for k in names])
    np.testing.assert_array_equal(puma.fkine(Q), [puma.fkine(puma.pose(k)) for k in names])


# -- bad input: ValueError naming the argument and the expected shape ---------------------
BAD_Q = [
    ([0.0, 0.0, 0.0], r"q must have shape \(2,\) or \(m, 2\), got shape \(3,\)"),
    (np.zeros((4, 3)), r"q must have shape \(2,\) or \(m, 2\), got shape \(4, 3\)"),
    (np.zeros((2, 2, 2)), r"q must have shape \(2,\) or \(m, 2\), got shape \(2, 2, 2\)"),
    (0.5, r"q must have shape \(2,\) or \(m, 2\), got shape \(\)"),
    ([0.0, np.nan], r"q contains a non-finite value \(NaN or inf\) at index \(1,\); "
                    r"expected finite values of shape \(2,\) or \(m, 2\)"),
    ([[0.0, 1.0], [-np.inf, 0.0]], r"q contains a non-finite value .* at index \(1, 0\); "
                                   r"expected finite values of shape \(2,\) or \(m, 2\)"),
    ("ab", r"q must be numeric, got 'ab'; expected shape \(2,\) or \(m, 2\)"),
    (["1", "2"], r"q must be numeric, got \['1', '2'\]; expected shape \(2,\) or \(m, 2\)"),
    (None, r"q must be numeric, got None; expected shape \(2,\) or \(m, 2\)"),
    ([0.0, None], r"q must be numeric, got \[0.0, None\]; expected shape"),
    ([1j, 0.0], r"q must be numeric, .*expected shape \(2,\) or \(m, 2\)"),
    ([[0.0, 1.0], [2.0]], r"q must be a numeric array, .*expected shape \(2,\) or \(m, 2\)"),
]


@pytest.mark.parametrize(("q", "message"), BAD_Q)
@pytest.mark.parametrize("method", ["fkine", "fkine_all", "joint_locations", "islimit"])
def test_bad_q_messages_name_q_and_the_expected_shape(method, q, message):
    robot = Robot([Link(a=1.0), Link(a=1.0)])
    with pytest.raises(ValueError, match=message):
        getattr(robot, method)(q)


def test_numeric_objects_and_integers_are_accepted():
    from decimal import Decimal
    from fractions import Fraction

    robot = Robot([Link(a=1.0), Link(a=1.0)])
    ref = robot.fkine([0.5, 0.25])
    np.testing.assert_array_equal(robot.fkine([Decimal("0.5"), Fraction(1, 4)]), ref)
    np.testing.assert_array_equal(robot.fkine(np.array([0, 0])), robot.fkine([0.0, 0.0]))


def test_link_transform_batched_and_its_bad_input():
    puma_like = Robot([Link(d=0.3, a=0.1, alpha=0.5, offset=0.2), Link(joint="P", theta=0.4,
                                                                       qlim=(0, 1))])
    qj = np.array([-0.3, 0.0, 0.7])
    A = puma_like.link_transform(0, qj)
    assert A.shape == (3, 4, 4)
    for k in range(3):
        np.testing.assert_allclose(A[k], dh_standard(qj[k] + 0.2, 0.3, 0.1, 0.5), atol=1e-15)
    np.testing.assert_allclose(puma_like.link_transform(1, 0.25), dh_standard(0.4, 0.25, 0, 0),
                               atol=1e-15)
    # the link transforms chain up to fkine
    q = np.array([0.3, 0.6])
    np.testing.assert_allclose(
        puma_like.link_transform(0, q[0]) @ puma_like.link_transform(1, q[1]),
        puma_like.fkine(q), atol=1e-15)
    for j in (2, -1, 1.0, 0.5, "0", True, None):
        with pytest.raises(ValueError, match=r"j must be an integer link index in 0\.\.1"):
            puma_like.link_transform(j, 0.1)
    assert puma_like.link_transform(np.int64(1), 0.1).shape == (4, 4)
    for bad, words in ((np.zeros((2, 3)), r"qj must be a scalar or shape \(m,\), got shape"),
                       (np.nan, r"qj contains a non-finite value .*expected a scalar or shape"),
                       ("x", r"qj must be numeric, got 'x'; expected a scalar or shape \(m,\)")):
        with pytest.raises(ValueError, match=words):
            puma_like.link_transform(0, bad)


def test_link_and_robot_refuse_malformed_descriptions():
    with pytest.raises(ValueError, match=r"mdh must be True \(modified D-H\) or False"):
        Link(mdh="no")
    assert Link(mdh=1).mdh is True and Link(mdh=np.bool_(False)).mdh is False
    with pytest.raises(ValueError, match="d must be a number, got '0.4'"):
        Link(d="0.4")
    with pytest.raises(ValueError, match=r"poses must be a mapping .* shape \(1,\), got list"):
        Robot([Link()], poses=[0.0])
    with pytest.raises(ValueError, match=r"gravity must be numeric, got 'down'; expected "
                                         r"shape \(3,\)"):
        Robot([Link()], gravity="down")


def test_series_connection_keeps_first_base_and_last_tool():
    # r6 robot page: "Tool transforms of all but the last robot are ignored, base transform
    # of all but the first robot are ignored."
    def frame(x, y, z, yaw):
        c, s = math.cos(yaw), math.sin(yaw)
        return np.array([[c, -s, 0, x], [s, c, 0, y], [0, 0, 1, z], [0, 0, 0, 1.0]])

    a = Robot([Link(a=1.0, alpha=0.3), Link(d=0.2, a=0.5)], name="a",
              base=frame(1, 2, 3, 0.4), tool=frame(9, 9, 9, 1.0), poses={"qz": [0, 0]})
    b = Robot([Link(a=0.7, alpha=-1.0, mdh=False), Link(joint="P", qlim=(0, 1))], name="b",
              base=frame(-5, 5, 5, 2.0), tool=frame(0, 0, 0.1, -0.3))
    ab = a * b
    assert ab.n == 4 and ab.name == "a*b" and ab.structure == "RRRP"
    np.testing.assert_array_equal(ab.base, a.base)
    np.testing.assert_array_equal(ab.tool, b.tool)
    assert ab.links == a.links + b.links
    q = np.array([[0.1, -0.4, 0.9, 0.3], [1.0, 2.0, -1.0, 0.05]])
    expected = (a.base @ a.links[0].A(q[:, 0]) @ a.links[1].A(q[:, 1])
                @ b.links[0].A(q[:, 2]) @ b.links[1].A(q[:, 3]) @ b.tool)
    np.testing.assert_allclose(ab.fkine(q), expected, atol=1e-14)
    with pytest.raises(ValueError, match="standard D-H robot to a modified D-H robot"):
        _ = a * Robot([Link(mdh=True)])
    with pytest.raises(TypeError):
        _ = a * 2


def test_perturb_follows_roboop_perturb_robot(puma):
    f = 0.2
    p = puma.perturb(f, seed=11)
    assert p.name == "Puma 560 (perturbed)" and p.n == puma.n
    for L, P in zip(puma.links, p.links, strict=True):
        # kinematics, gear ratio and friction untouched
        assert (P.joint, P.theta, P.d, P.a, P.alpha, P.offset, P.qlim, P.G, P.B, P.Tc) == (
            L.joint, L.theta, L.d, L.a, L.alpha, L.offset, L.qlim, L.G, L.B, L.Tc)
        # Jm, m, r and I each scaled by one factor in [1 - f, 1 + f]
        for nominal, changed in ((L.Jm, P.Jm), (L.m, P.m)):
            if nominal:
                assert 1 - f <= changed / nominal <= 1 + f and changed != nominal
        if np.any(L.r):
            k = P.r[np.argmax(np.abs(L.r))] / L.r[np.argmax(np.abs(L.r))]
            assert 1 - f <= k <= 1 + f and k != 1
            np.testing.assert_allclose(P.r, k * L.r, rtol=1e-14)  # direction kept
        if np.any(L.I):
            k = P.I[np.unravel_index(np.argmax(np.abs(L.I)), (3, 3))] / np.abs(L.I).max()
            assert 1 - f <= abs(k) <= 1 + f
            np.testing.assert_allclose(P.I, abs(k) * L.I, rtol=1e-14)
    np.testing.assert_array_equal(p.fkine(puma.pose("qn")), puma.fkine(puma.pose("qn")))
    # a seed repeats the draw; f = 0 changes nothing
    assert puma.perturb(f, seed=11) == p and puma.perturb(f, seed=12) != p
    assert puma.perturb(0.0, seed=1).links == puma.links
    for bad in (-0.1, 1.5, float("nan"), "x"):
        with pytest.raises(ValueError, match=r"f must"):
            puma.perturb(bad)


def test_str_table_for_the_library_puma_and_panda(puma):
    lines = str(puma).splitlines()
    assert lines[0] == "Puma 560 (Unimation): 6 axis, RRRRRR, standard D-H"
    assert lines[1] == "  gravity = [0.00 0.00 -9.81] m/s^2"
    assert lines[2].split("|")[0].strip() == "j"
    assert [c.strip() for c in lines[2].split("|")] == ["j", "theta", "d", "a", "alpha",
                                                        "offset", "qlim"]
    row3 = [c.strip() for c in lines[6].split("|")]
    assert row3 == ["3", "q3", "0.15005", "0.0203", "-1.571", "0", "[-3.93, 0.785]"]
    assert lines[-1] == "  poses: qz, qr, qs, qn"
    from robogui.io.robotfile import load_robot

    panda = str(load_robot("panda")).splitlines()
    assert "a(i-1)" in panda[2] and "alpha(i-1)" in panda[2]
    assert "  tool  = xyz [0, 0, 0.107] m, rpy [0, 0, 0] deg" in panda


def test_link_signature_and_defaults_of_the_issue():
    L = Link(joint="R", theta=0, d=0, a=0, alpha=0, mdh=False, offset=0, qlim=None, m=0,
             r=(0, 0, 0), I=None, Jm=0, G=1, B=0, Tc=(0, 0))
    assert L == Link()
    np.testing.assert_array_equal(L.I, np.zeros((3, 3)))
    assert (L.joint, L.qlim, L.G, L.Tc) == ("R", None, 1.0, (0.0, 0.0))
    # I as a 3x3 matrix or as [Ixx Iyy Izz Ixy Iyz Ixz]: the same link
    M = np.array([[1.0, 0.1, 0.3], [0.1, 2.0, 0.2], [0.3, 0.2, 3.0]])
    assert Link(I=M) == Link(I=[1, 2, 3, 0.1, 0.2, 0.3])


def test_top_level_names_of_the_issue():
    import robogui

    for name in ("Link", "Robot", "fkine", "fkine_all", "joint_locations", "link_transform",
                 "load_robot", "save_robot", "list_robots", "RobotFileError",
                 "UnitQuaternion"):
        assert name in robogui.__all__ and getattr(robogui, name) is not None, name
    robot = Robot([Link(a=1.0)])
    np.testing.assert_array_equal(robogui.link_transform(robot, 0, 0.0), Link(a=1.0).A(0.0))
