"""SpaceLib's Elbow robot (manual 7.6): file readers, the three programs and `robogui elbow`."""

from pathlib import Path

import numpy as np
import pytest

from robogui.cli import main
from robogui.engine.spacelib.elbow import elb_d_dh, elb_d_pa, elb_i_dh, elbow_robot
from robogui.io.legacy.elbow import (
    format_gripper_mot,
    read_elbow_dat,
    read_gripper_mot,
    read_guess,
    read_joint_mot,
)
from robogui.io.legacy.roboop import LegacyFormatError

DATA = Path(__file__).parents[2] / "data" / "legacy" / "elbow"
L = [1.5, 0.8, 0.8, 0.2, 0.0, 0.2]
# joint accelerations of JOINT.MOT (table 7.9); the law is 1/3-1/3-1/3 at constant
# acceleration (7.6.3), so in its first third q = a t^2 / 2, qp = a t: the two printed
# samples are t = 0.009 s and t = 0.019 s (0.00114 = 28.2744 * 0.009^2 / 2, ...)
ACC = np.array([28.27440, 26.17990, 37.69910, -37.69910, 88.35730, 706.85828])


def test_readers_match_the_manual_tables():
    np.testing.assert_array_equal(read_elbow_dat(DATA / "ELBOW.DAT"), L)
    np.testing.assert_array_equal(read_guess(DATA / "GUESS.1ST"), [0, 0.1, 0.2, 0, 0.1, 0])
    jm = read_joint_mot(DATA / "JOINT.MOT")
    assert jm.dt == 0.01 and jm.q.shape == (1, 6)
    np.testing.assert_array_equal(jm.qpp[0], ACC)
    dt, g = read_gripper_mot(DATA / "GRIPPER.MOT")
    assert dt == 0.01 and g.convention == (0, 1, 2)
    np.testing.assert_array_equal(g.pos[0], [0.197946, 1.800940, 1.503133])


def test_direct_kinematics_reproduces_gripper_mot():
    jm = read_joint_mot(DATA / "JOINT.MOT")
    _, ref = read_gripper_mot(DATA / "GRIPPER.MOT")
    for fn in (elb_d_dh, elb_d_pa):
        g = fn(L, jm.q, jm.qp, jm.qpp)
        # JOINT.MOT has 5 decimals, GRIPPER.MOT 6: the angles, rates, position and velocity
        # agree to the printed digits, the accelerations to the input's rounding
        np.testing.assert_allclose(g.ang, ref.ang, atol=2e-6)
        np.testing.assert_allclose(g.angp, ref.angp, atol=2e-6)
        np.testing.assert_allclose(g.pos, ref.pos, atol=1e-6)
        np.testing.assert_allclose(g.vel, ref.vel, atol=1e-6)
        np.testing.assert_allclose(g.angpp, ref.angpp, rtol=2e-6)
        np.testing.assert_allclose(g.acc, ref.acc, rtol=2e-6)


def test_second_sample_from_the_motion_law():
    t = 0.019
    q, qp = 0.5 * ACC * t * t, ACC * t
    np.testing.assert_allclose(q[:2], [0.00510, 0.00473], atol=5e-6)  # table 7.9, sample 2
    np.testing.assert_allclose(qp[:2], [0.53720, 0.49740], atol=2e-5)
    g = elb_d_dh(L, q, qp, ACC)
    np.testing.assert_allclose(g.ang[0], [0.132292, 0.002702, 0.020876], atol=1e-5)  # 7.11
    np.testing.assert_allclose(g.angp[0], [13.918917, 0.567294, 2.161054], rtol=5e-5)


def test_dh_and_parallel_frames_agree_and_the_robot_model():
    rng = np.random.default_rng(2)
    q, qp, qpp = rng.uniform(-1, 1, (3, 5, 6))
    a, b = elb_d_dh(L, q, qp, qpp), elb_d_pa(L, q, qp, qpp)
    for k in ("M", "W", "H"):
        np.testing.assert_allclose(getattr(a, k), getattr(b, k), atol=1e-12)
    robot = elbow_robot(L)
    np.testing.assert_allclose(robot.fkine(q), a.M, atol=1e-14)
    # the TCP velocity is the robot's Jacobian times qp
    v = np.einsum("mij,mj->mi", robot.jacob0(q), qp)
    np.testing.assert_allclose(a.vel, v[:, :3], atol=1e-12)


def test_inverse_kinematics_round_trip():
    jm = read_joint_mot(DATA / "JOINT.MOT")
    g = elb_d_dh(L, jm.q, jm.qp, jm.qpp)
    inv = elb_i_dh(L, g, read_guess(DATA / "GUESS.1ST"))
    assert inv.converged.all() and 0 < inv.iterations[0] <= 15
    # "the program evaluates just one of the solutions": the joints may differ from
    # JOINT.MOT, the gripper motion may not (within the program's toll = 0.0005)
    back = elb_d_dh(L, inv.q, inv.qp, inv.qpp)
    np.testing.assert_allclose(back.M, g.M, atol=5e-4)
    np.testing.assert_allclose(back.vel, g.vel, atol=5e-3)
    np.testing.assert_allclose(back.acc, g.acc, rtol=1e-2, atol=1e-2)
    # on a sequence each sample starts from the previous solution
    t = np.array([0.009, 0.019, 0.029])[:, None]
    g3 = elb_d_dh(L, 0.5 * ACC * t * t, ACC * t, np.tile(ACC, (3, 1)))
    inv3 = elb_i_dh(L, g3, read_guess(DATA / "GUESS.1ST"))
    assert inv3.converged.all()
    np.testing.assert_allclose(elb_d_dh(L, inv3.q, inv3.qp, inv3.qpp).pos, g3.pos, atol=5e-4)


def test_cli_runs_the_programs(tmp_path, capsys):
    out = tmp_path / "GRIPPER.MOT"
    assert main(["elbow", "direct", str(DATA / "ELBOW.DAT"), str(DATA / "JOINT.MOT"),
                 "-o", str(out)]) == 0
    dt, g = read_gripper_mot(out)
    np.testing.assert_allclose(g.pos[0], [0.197946, 1.800940, 1.503133], atol=1e-6)
    assert main(["elbow", "direct-pa", str(DATA / "ELBOW.DAT"), str(DATA / "JOINT.MOT")]) == 0
    assert "0.197946   1.800940   1.503133" in capsys.readouterr().out
    jo = tmp_path / "JOINT.MOT"
    assert main(["elbow", "inverse", str(DATA / "ELBOW.DAT"), str(out),
                 str(DATA / "GUESS.1ST"), "-o", str(jo)]) == 0
    jm = read_joint_mot(jo)
    back = elb_d_dh(L, jm.q, jm.qp, jm.qpp)
    np.testing.assert_allclose(back.pos, g.pos, atol=5e-4)
    assert format_gripper_mot(dt, g).count("\n") > 6


def test_bad_files(tmp_path, capsys):
    with pytest.raises(LegacyFormatError, match="line 2.*incomplete"):
        read_joint_mot(text="0.01\n1 2 3\n")
    with pytest.raises(LegacyFormatError, match="must be a number"):
        read_elbow_dat(text="1.5\nx\n0.8\n0.2\n0\n0.2\n")
    with pytest.raises(LegacyFormatError, match="Cardan convention"):
        read_gripper_mot(text="0.01\n0 0 2\n")
    bad = tmp_path / "bad.dat"
    bad.write_text("1 2 3\n")
    assert main(["elbow", "direct", str(bad), str(DATA / "JOINT.MOT")]) == 2
    assert "ELBOW.DAT file ends early" in capsys.readouterr().err
