"""SpaceLib Rob_Mat DATA/MOTION files, the matrix-method report and the robmat command.

The joint actions of the matrix method are checked against robogui's rne and jacobians.
"""


import numpy as np
import pytest

from robogui.engine import spacelib as sl
from robogui.engine.dynamics.dynamics import rne
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.io.legacy.robmat import (
    CSV_HEADER,
    LegacyFormatError,
    LegacyFormatWarning,
    load_robmat_dat,
    read_dat,
    read_mot,
    robmat,
    robmat_main,
)
from robogui.io.robotfile import load_robot
from tests.samples import LEGACY_SAMPLES

SAMPLES = LEGACY_SAMPLES


def _sample(name):
    data = read_dat(SAMPLES / f"{name}.dat")
    return data, read_mot(SAMPLES / f"{name}.mot", data.nlink)


def test_samples_parse_with_the_documented_token_layout():
    data, mot = _sample("scara")
    assert data.nlink == 3 and list(data.links["jtype"]) == [0, 0, 1]
    assert data.links["alfa"][2] == 3.1415 and data.links["s"][2] == -0.1
    np.testing.assert_allclose(data.gravity, [0, 0, -9.8])
    assert mot.dt == 0.05 and mot.q.shape == (2, 3)
    np.testing.assert_allclose(mot.q[1], [0.1, 0.1, 0])
    np.testing.assert_allclose(mot.qdd[0], [10, 20, 0])
    smart, smot = _sample("smart")
    assert smart.nlink == 6 and smot.q.shape == (1, 6)
    np.testing.assert_allclose(smart.links["b"], [0, 0.5, 0.15, 0, 0, 0])
    np.testing.assert_allclose(smart.links["xg"][3], -0.30)
    # jtoj takes (jxx, jyy, jzz, jxy, jyz, jxz): file order jxx jxy jxz jyy jyz jzz
    J1 = smart.inertia[0]
    np.testing.assert_allclose(np.diag(J1), [(-100 + 120 + 100) / 2, (100 - 120 + 100) / 2
                                             + 600 * 0.4**2, (100 + 120 - 100) / 2, 600])


def test_regression_positions_of_formats_md():
    for name, expect in (("scara", [[0.66, 0, -0.1], [0.651773, 0.098506, -0.1]]),
                         ("smart", [[-0.499520, -0.749518, 1.401000]])):
        res = robmat(*_sample(name))
        np.testing.assert_allclose(res.motion.T[:, -1, :3, 3], expect, atol=1e-6)


def test_scara_joint_actions_equal_rne():
    data, mot = _sample("scara")
    robot = load_robmat_dat(SAMPLES / "scara.dat")
    res = robmat(data, mot)
    np.testing.assert_allclose(res.tau, rne(robot, mot.q, mot.qd, mot.qdd), atol=1e-10)
    np.testing.assert_allclose(robot.gravity, [0, 0, -9.8])
    # static: the prismatic joint carries the weight of link 3 (3 kg), z2 points up
    assert res.tau[0, 2] == pytest.approx(3 * 9.8)


def test_smart_lateral_shift_b_moves_into_the_next_d_with_the_same_dynamics():
    # b on links twisted by -90 degrees: the frames slide along z, the arm is the same
    data, mot = _sample("smart")
    with pytest.warns(LegacyFormatWarning, match="dropped"):  # 1.57079 is not quite pi/2
        robot = load_robmat_dat(SAMPLES / "smart.dat")
    res = robmat(data, mot)
    np.testing.assert_allclose(robot.fkine(mot.q)[0], res.motion.T[0, -1], atol=2e-5)
    np.testing.assert_allclose(rne(robot, mot.q, mot.qd, mot.qdd), res.tau, rtol=1e-4,
                               atol=1e-3)
    # a lateral shift on an untwisted link has no standard D-H form: refused in words
    text = (SAMPLES / "smart.dat").read_text().replace("0 0 0.15 0 -1.57079", "0 0 0.15 0 0")
    with pytest.raises(LegacyFormatError, match="b = 0.15 with twist"), \
            pytest.warns(LegacyFormatWarning, match="link 2"):
        load_robmat_dat(None, text=text)


def test_smart_matrix_method_velocities_match_finite_differences():
    data, mot = _sample("smart")
    res = robmat(data, mot)
    # velocities of the matrix method against finite differences of positions
    chain, h = data.chain, 1e-6
    P = lambda t: sl.chain_motion(chain, mot.q + t * mot.qd + 0.5 * t * t * mot.qdd,
                                  mot.qd, mot.qdd).T[:, 1:, :3, 3]
    np.testing.assert_allclose(res.v, (P(h) - P(-h)) / (2 * h), atol=1e-6)
    np.testing.assert_allclose(res.a, (P(h) - 2 * P(0) + P(-h)) / h**2, atol=1e-3)


def _random_robot(rng, n, mdh):
    links = []
    for j in range(n):
        A = rng.normal(size=(3, 3))
        links.append(Link(joint="P" if j == 1 else "R", theta=rng.normal(), d=rng.normal() * 0.3,
                          a=rng.normal() * 0.3, alpha=rng.normal(), offset=rng.normal() * 0.1,
                          mdh=mdh, m=rng.uniform(0.5, 3), r=rng.normal(size=3) * 0.1,
                          I=A @ A.T * 0.05, Jm=rng.uniform(0, 1e-3), G=rng.uniform(-50, 50),
                          B=rng.uniform(0, 1e-3), Tc=(rng.uniform(0, 0.3), -rng.uniform(0, 0.3)),
                          qlim=(-1, 1)))
    base, tool = np.eye(4), np.eye(4)
    base[:3, 3] = [0.1, -0.2, 0.3]
    tool[:3, :3] = [[0, 0, 1], [0, 1, 0], [-1, 0, 0]]
    tool[:3, 3] = [0.02, 0.0, 0.1]
    return Robot(links, name="rand", base=base, tool=tool, gravity=(0.5, -1.0, -9.81))


@pytest.mark.parametrize("mdh", [False, True])
def test_matrix_method_against_jacobian_and_rne_on_random_robots(mdh):
    rng = np.random.default_rng(21 + mdh)
    robot = _random_robot(rng, 5, mdh)
    chain = sl.chain_from_robot(robot)
    q, qd, qdd = (rng.normal(size=(4, 5)) for _ in range(3))
    mot = sl.chain_motion(chain, q, qd, qdd)
    # velocity of the tool point and angular velocity = jacob0 qd
    p = mot.T_tool[:, :, 3]
    v = np.einsum("kij,kj->ki", mot.WA[:, -1], p)[:, :3]
    w = sl.mtov(mot.WA[:, -1])
    np.testing.assert_allclose(np.hstack([v, w]), np.einsum("kij,kj->ki", jacob0(robot, q), qd),
                               atol=1e-12)
    # joint actions (with motor inertia, friction and an end-effector wrench) = rne
    F = rng.normal(size=6)  # wrench the end effector exerts on the environment (rne fext)
    _, _, ACTO = sl.chain_actions(chain, mot, ext_force=-F[:3], ext_torque=-F[3:])
    tau = sl.joint_actions(chain, mot, ACTO, qd=qd, qdd=qdd)
    np.testing.assert_allclose(tau, rne(robot, q, qd, qdd, fext=F), atol=1e-9)


def test_library_robots_matrix_method_equals_rne():
    for name in ("puma560", "puma560akb", "stanford"):
        robot = load_robot(name)
        rng = np.random.default_rng(3)
        q, qd, qdd = robot.random_q(6, seed=2), rng.normal(size=(6, robot.n)), \
            rng.normal(size=(6, robot.n))
        chain = sl.chain_from_robot(robot)
        mot = sl.chain_motion(chain, q, qd, qdd)
        _, _, ACTO = sl.chain_actions(chain, mot)
        np.testing.assert_allclose(sl.joint_actions(chain, mot, ACTO, qd, qdd),
                                   rne(robot, q, qd, qdd), atol=1e-9)


def test_malformed_dat_files_name_line_and_token():
    good = (SAMPLES / "scara.dat").read_text()
    cases = [
        (good.replace("0 0 0 0.33 0\n10", "0 0 0 0.33 0\nten", 1), 4, "ten", "m of link 1"),
        ("3.0\n" + good.split("\n", 1)[1], 1, "3.0", "integer"),
        (good.replace("1\n0 -0.1", "2\n0 -0.1"), 16, "2", "jtype of link 3"),
        ("SCARA.DAT\n" + good, 1, "SCARA.DAT", "integer"),
        ("\n".join(good.splitlines()[:-1]) + "\n", 23, None, "fx is missing"),
        (good.replace("10\n0.03 0 0", "-10\n0.03 0 0", 1), 4, "-10", "negative"),
    ]
    for text, line, token, words in cases:
        with pytest.raises(LegacyFormatError, match=words) as err:
            read_dat("bad.dat", text=text)
        assert err.value.line == line, (words, str(err.value))
        if token is not None:
            assert err.value.token == token
    data = read_dat("x.dat", text=good + "1 2 3\n")
    assert any("ignored" in m for m in data.warnings)


def test_malformed_mot_files():
    with pytest.raises(LegacyFormatError, match="incomplete") as err:
        read_mot("m.mot", 3, text="0.05\n0 1 10\n0 2 20\n0 0 0\n0.1 1.1 11\n")
    assert err.value.line == 5 and err.value.token == "0.1"
    mot = read_mot("m.mot", 3, text="0.05\n0 1 10\n0 2 20\n0 0 0\n0.1 1.1 11\n", strict=False)
    assert mot.q.shape == (1, 3) and mot.warnings
    with pytest.raises(LegacyFormatError, match="dt must be positive"):
        read_mot("m.mot", 1, text="0\n1 2 3\n")
    with pytest.raises(LegacyFormatError, match="qp.*joint 2 in step 1") as err:
        read_mot("m.mot", 2, text="0.1\n1 2 3\n4 FIRST 6\n")
    assert err.value.token == "FIRST" and err.value.line == 3
    with pytest.raises(ValueError, match="nlink"):
        read_mot("m.mot", None, text="0.1\n")
    long = "0.05\n" + "0 0 0\n" * 30
    assert any("ROB_MAT itself would stop after 21" in m for m in read_mot(
        "m.mot", 1, text=long).warnings)


def test_robmat_command_text_csv_and_errors(tmp_path, capsys):
    dat, motf = str(SAMPLES / "scara.dat"), str(SAMPLES / "scara.mot")
    assert robmat_main(["robmat", dat, motf]) == 0
    out = capsys.readouterr().out
    assert "step 1" in out and "actuator force  (N)" in out and "link 3 (Pri)" in out
    outfile = tmp_path / "scara.csv"
    assert robmat_main([dat, motf, "--csv", "-o", str(outfile)]) == 0
    lines = outfile.read_text().splitlines()
    assert lines[0] == CSV_HEADER and len(lines) == 1 + 2 * 3
    table = np.loadtxt(outfile, delimiter=",", skiprows=1)
    data, mot = _sample("scara")
    tau = rne(load_robmat_dat(dat), mot.q, mot.qd, mot.qdd)
    np.testing.assert_allclose(table[:, -1].reshape(2, 3), tau, atol=1e-10)
    np.testing.assert_allclose(table[:, 3:6].reshape(2, 3, 3)[:, -1], [[0.66, 0, -0.1],
                               [0.651773, 0.098506, -0.1]], atol=1e-6)
    assert robmat_main([dat, motf, "--matrices"]) == 0
    assert "ACTO actions on joint (i)" in capsys.readouterr().out
    bad = tmp_path / "bad.mot"
    bad.write_text("0.05\n0 1 10\n0 2\n")
    assert robmat_main([dat, str(bad)]) == 2
    err = capsys.readouterr().err
    assert "error" in err and "line 2" in err and "incomplete" in err and "bad.mot" in err
    assert robmat_main([dat]) == 2


def test_external_action_of_the_dat_file_enters_the_joint_torques():
    # fx fy fz cx cy cz act ON the end effector, in frame n, moment about o_n; rne's fext
    # is the wrench the end effector exerts, so it is the opposite
    toks = (SAMPLES / "scara.dat").read_text().split()
    F = [1.5, -2.0, 3.0, 0.4, -0.3, 0.2]
    text = " ".join(toks[:-6]) + "\n" + " ".join(map(str, F)) + "\n"
    data = read_dat("load.dat", text=text)
    np.testing.assert_allclose(data.ext_force, F[:3])
    np.testing.assert_allclose(data.ext_torque, F[3:])
    mot = read_mot(SAMPLES / "scara.mot", data.nlink)
    res = robmat(data, mot)
    robot = load_robmat_dat(None, text=text)
    np.testing.assert_allclose(res.tau, rne(robot, mot.q, mot.qd, mot.qdd, fext=-np.array(F)),
                               atol=1e-10)
    free = robmat(*_sample("scara"))
    # fz pushes the gripper along z3, i.e. down (alfa = 3.1415): the prismatic joint (axis
    # z2 up) pushes back 3 N more, as it does against the weight (z3 is tilted by 9.3e-5)
    tilt = np.pi - 3.1415
    assert res.tau[0, 2] - free.tau[0, 2] == pytest.approx(3 * np.cos(tilt) + 2 * np.sin(tilt),
                                                           abs=1e-9)
    assert np.abs(res.tau - free.tau).max() > 0.1


def test_a_short_nlink_is_pointed_out():
    # nlink 2 on the 3-link SCARA file: 16 numbers are left over, Rob_Mat ignores them
    good = (SAMPLES / "scara.dat").read_text()
    data = read_dat("short.dat", text="2\n" + good.split("\n", 1)[1])
    assert data.nlink == 2
    assert any("16 numbers: should nlink be 3?" in m for m in data.warnings)
