"""The robot library: every file loads, cites its source, round-trips, and holds the
published numbers; robots that roboticstoolbox-python lacks are checked independently
(SpaceLib's dhtom for SCARA and SMART, the standard Puma model for the AKB one)."""

import math
import tomllib

import numpy as np
import pytest

from robogui.io.robotfile import library_path, list_robots, load_robot, save_robot

LIBRARY = ["irb140", "kr5", "panda", "puma560", "puma560akb", "rhino", "scara", "smart",
           "stanford", "twolink", "ur10", "ur5"]

# named poses outside the joint limits, each documented in the robot's file comment
POSES_OUTSIDE_LIMITS = {("stanford", "qz"), ("panda", "qz")}


def test_list_robots_is_the_sorted_library():
    assert list_robots() == LIBRARY
    assert sorted(p.stem for p in library_path().glob("*.toml")) == LIBRARY


@pytest.mark.parametrize("name", LIBRARY)
def test_library_file_is_complete_and_round_trips(name, tmp_path):
    robot = load_robot(name)
    raw = tomllib.loads((library_path() / f"{name}.toml").read_text(encoding="utf-8"))
    assert raw["units"] in ("rad", "deg") and raw["convention"] in ("standard", "modified")
    assert len(robot.source) > 80 and robot.manufacturer and robot.comment
    assert {"qz", "qr"} <= set(robot.poses)
    for pose, q in robot.poses.items():
        inside = not np.any(robot.islimit(q))
        assert inside or (name, pose) in POSES_OUTSIDE_LIMITS, (name, pose)
    lim = robot.qlim
    assert np.all(lim[:, 0] < lim[:, 1])
    # save -> load is exact, also for the text fields
    back = load_robot(save_robot(robot, tmp_path / f"{name}.toml"))
    assert back == robot
    assert (back.source, back.comment, back.manufacturer) == (
        robot.source, robot.comment, robot.manufacturer)


def test_names_are_case_insensitive_and_equal_to_path_loads():
    assert load_robot("Puma560") is load_robot("puma560")
    assert load_robot(library_path() / "ur5.toml") == load_robot("ur5")
    assert load_robot(str(library_path() / "ur5.toml")) == load_robot("ur5")


def test_puma560_published_numbers(puma):
    L = puma.links
    assert [x.a for x in L] == [0, 0.4318, 0.0203, 0, 0, 0]
    assert [x.d for x in L] == [0, 0, 0.15005, 0.4318, 0, 0]
    assert [x.alpha for x in L] == [math.pi / 2, 0, -math.pi / 2, math.pi / 2, -math.pi / 2, 0]
    assert [x.m for x in L] == [0, 17.4, 4.8, 0.82, 0.34, 0.09]
    assert [x.G for x in L] == [-62.6111, 107.815, -53.7063, 76.0364, 71.923, 76.686]
    assert L[0].I[1, 1] == 0.35 and L[1].Tc == (0.126, -0.071) and L[2].B == 1.38e-3
    np.testing.assert_array_equal(L[1].r, [-0.3638, 0.006, 0.2275])
    assert L[5].Jm == 33e-6 and L[0].Jm == 200e-6
    np.testing.assert_allclose(puma.pose("qn"), [0, math.pi / 4, -math.pi, 0, math.pi / 4, 0],
                               atol=1e-15)
    # at qz (an L shape) the wrist centre is at [a2 + a3, -d3, d4]
    np.testing.assert_allclose(puma.fkine(puma.pose("qz"))[:3, 3], [0.4521, -0.15005, 0.4318],
                               atol=1e-15)


def test_puma560akb_matches_the_standard_model(puma, puma_akb):
    """fkine_std(q) = Rz(pi) fkine_akb(q + [0, pi, pi, 0, 0, pi]) up to AKB's measured lengths."""
    assert puma_akb.is_mdh
    offset = np.array([0, math.pi, math.pi, 0, 0, math.pi])
    Rz = np.diag([-1.0, -1.0, 1.0, 1.0])
    Q = puma.random_q(200, seed=1)
    Ts, Ta = puma.fkine(Q), Rz @ puma_akb.fkine(Q + offset)
    np.testing.assert_allclose(Ta[:, :3, :3], Ts[:, :3, :3], atol=1e-12)
    # d4 0.4331 vs 0.4318 m and d2 + d3 = 0.1501 vs 0.15005 m: at most 1.3 mm apart
    gap = np.linalg.norm(Ta[:, :3, 3] - Ts[:, :3, 3], axis=1)
    assert gap.max() < 0.00131 and gap.max() > 0.0012
    # named poses are the same arm configurations as the standard model's
    for pose in ("qr", "qs", "qn"):
        np.testing.assert_allclose(Rz @ puma_akb.fkine(puma_akb.pose(pose)),
                                   puma.fkine(puma.pose(pose)), atol=0.0014)
    assert [x.Jm for x in puma_akb.links] == [291e-6, 409e-6, 299e-6, 35e-6, 35e-6, 35e-6]


def test_stanford_prismatic_boom(stanford):
    assert stanford.structure == "RRPRRR"
    boom = stanford.links[2]
    assert boom.theta == -math.pi / 2 and boom.qlim == (0.3048, 1.27) and boom.Jm == 0.782
    q = stanford.pose("qr")
    T = stanford.fkine(q)
    np.testing.assert_allclose(T[:3, 3], [q[2], 0.154, 0.412], atol=1e-15)


def test_twolink_moves_in_the_vertical_plane(twolink):
    np.testing.assert_allclose(twolink.fkine([0, 0])[:3, 3], [2, 0, 0], atol=1e-15)
    np.testing.assert_allclose(twolink.fkine([math.pi / 2, 0])[:3, 3], [0, 0, 2], atol=1e-15)
    assert [x.m for x in twolink.links] == [1, 1]
    assert all(not np.any(x.r) and not np.any(x.I) for x in twolink.links)


def test_rhino_home_position():
    rhino = load_robot("rhino")
    assert [x.d for x in rhino.links] == [0.2604, 0, 0, 0, 0.1683]  # file in millimetres
    frames = rhino.fkine_all(rhino.pose("qr"))
    # upper arm vertical, forearm horizontal, tool pointing down
    np.testing.assert_allclose(frames[3][:3, 3], [0.2286, 0, 0.489], atol=1e-12)
    np.testing.assert_allclose(frames[5][:3, 3], [0.2381, 0, 0.489 - 0.1683], atol=1e-12)
    np.testing.assert_allclose(frames[5][:3, 2], [0, 0, -1], atol=1e-12)


# -- SpaceLib robots against an independent dhtom chain -----------------------------------
# SCARA.DAT and SMART.DAT (SpaceLib manual tables 7.2 and 7.4), one row per link:
# jtype theta s b a alfa  m  jxx jxy jxz jyy jyz jzz  xg yg zg. The printed twists
# 1.57079 and 3.1415 are replaced by exact pi/2 and pi, as in the library files.
H = math.pi / 2
SCARA_DAT = [
    [0, 0, 0, 0, 0.33, 0, 10, 0.03, 0, 0, 0.03, 0, 0.05, -0.05, 0, 0],
    [0, 0, 0, 0, 0.33, 0, 10, 0.03, 0, 0, 0.03, 0, 0.05, -0.05, 0, 0],
    [1, 0, -0.1, 0, 0, math.pi, 3, 0.0008, 0, 0, 0.0008, 0, 0.0015, 0, 0, -0.10],
]
SMART_DAT = [
    [0, 0, 0.8, 0, 0, H, 600, 100, 0, 0, 120, 0, 100, 0, -0.40, 0],
    [0, 0, 0, 0.5, 0, -H, 200, 10, 0, 0, 10, 0, 18, 0, 0, -0.2],
    [0, 0, 0, 0.15, 0, -H, 100, 3, 0, 0, 3, 0, 5, 0, 0, -0.07],
    [0, 0, 0, 0, 0.75, 0, 300, 18, 0, 0, 10, 0, 10, -0.30, 0, 0],
    [0, 0, 0.45, 0, 0, H, 100, 3, 0, 0, 5, 0, 3, 0, -0.20, 0],
    [0, 0, 0, 0, 0, 0, 200, 4, 0, 0, 4, 0, 6, 0, 0, -0.5],
]


def dhtom(jtype, theta, d, b, a, alpha, q):
    """SpaceLib eq. (3.1): Rz(theta+q) Tz(d) Tx(a) Ty(b) Rx(alpha) (q on d if prismatic)."""
    th = theta + (q if jtype == 0 else 0.0)
    dd = d + (q if jtype == 1 else 0.0)
    ct, st, ca, sa = math.cos(th), math.sin(th), math.cos(alpha), math.sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct - b * st],
                     [st, ct * ca, -ct * sa, a * st + b * ct],
                     [0, sa, ca, dd],
                     [0, 0, 0, 1.0]])


def spacelib_frames(dat, q):
    T = [np.eye(4)]
    for row, qi in zip(dat, q, strict=True):
        T.append(T[-1] @ dhtom(*row[:6], qi))
    return np.array(T)


@pytest.mark.parametrize("name, dat", [("scara", SCARA_DAT), ("smart", SMART_DAT)])
def test_spacelib_robots_match_dhtom(name, dat):
    robot = load_robot(name)
    np.testing.assert_array_equal(robot.gravity, [0, 0, -9.8])
    for q in robot.random_q(10, seed=4):
        ref = spacelib_frames(dat, q)
        ours = robot.fkine_all(q)
        np.testing.assert_allclose(ours[-1], ref[-1], atol=1e-12)
        for i, (L, row) in enumerate(zip(robot.links, dat, strict=True), 1):
            # same orientation for every frame; same origin where SpaceLib's b is 0
            np.testing.assert_allclose(ours[i][:3, :3], ref[i][:3, :3], atol=1e-12)
            if row[3] == 0:
                np.testing.assert_allclose(ours[i], ref[i], atol=1e-12)
            # the centre of mass is at the same place in the world
            com_ours = ours[i] @ np.r_[L.r, 1]
            com_ref = ref[i] @ np.r_[row[13:16], 1]
            np.testing.assert_allclose(com_ours, com_ref, atol=1e-12)
            assert L.m == row[6]
            np.testing.assert_array_equal(np.diag(L.I), [row[7], row[10], row[12]])


def test_spacelib_regression_positions():
    """End-effector positions listed with the SpaceLib sample files (formats.md 2.7)."""
    scara, smart = load_robot("scara"), load_robot("smart")
    np.testing.assert_allclose(scara.fkine([0, 0, 0])[:3, 3], [0.66, 0, -0.1], atol=1e-12)
    np.testing.assert_allclose(scara.fkine([0.1, 0.1, 0])[:3, 3], [0.651773, 0.098506, -0.1],
                               atol=1e-6)
    # the manual used truncated twists (1.57079); exact pi/2 moves the point by < 0.1 mm
    p = smart.fkine([0, 1.57, -1.57, 0, 0.26, 0])[:3, 3]
    np.testing.assert_allclose(p, [-0.499520, -0.749518, 1.401000], atol=1e-4)


def test_manufacturer_numbers():
    ur5, ur10, panda = load_robot("ur5"), load_robot("ur10"), load_robot("panda")
    assert [x.d for x in ur5.links] == [0.089159, 0, 0, 0.10915, 0.09465, 0.0823]
    assert [x.a for x in ur5.links] == [0, -0.425, -0.39225, 0, 0, 0]
    assert [x.m for x in ur5.links] == [3.7, 8.393, 2.33, 1.219, 1.219, 0.1879]
    assert [x.a for x in ur10.links] == [0, -0.612, -0.5723, 0, 0, 0]
    assert ur10.links[1].I[0, 2] == -0.0156 and ur10.links[1].I[1, 1] == 0.7707
    assert panda.is_mdh and [x.tau_max for x in panda.links] == [87] * 4 + [12] * 3
    assert panda.links[3].qlim == (-3.0718, -0.0698)
    # both UR arms: tool pointing straight down at the ready pose
    for r in (ur5, ur10, panda):
        np.testing.assert_allclose(r.fkine(r.pose("qr"))[:3, 2], [0, 0, -1], atol=1e-12)


def test_panda_identified_dynamics_gaz_2019():
    panda = load_robot("panda")
    assert panda.has_dynamics and panda.is_mdh
    # spot values of the paper's table, as the file carries them
    m = [link.m for link in panda.links]
    np.testing.assert_allclose(m, [4.970684, 0.646926, 3.228604, 3.587895, 1.225946,
                                   1.666555, 0.735522])
    np.testing.assert_allclose(panda.links[3].r, [-5.317e-2, 1.04419e-1, 2.7454e-2])
    np.testing.assert_allclose(panda.links[6].I[0, 2], -1.196e-3)  # Ixz of link 7
    q = panda.pose("qr")
    # holding the ready pose takes well under Franka's torque limits, and most at joint 4
    # (the forearm and wrist hang off it horizontally)
    tau = panda.gravload(q)
    tau_max = np.array([link.tau_max for link in panda.links])
    assert np.all(np.abs(tau) < 0.3 * tau_max)
    assert np.argmax(np.abs(tau)) == 3 and 10 < tau[3] < 30
