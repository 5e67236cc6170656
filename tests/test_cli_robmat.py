"""`robogui robmat` runs Rob_Mat's job from the command line, headless (no Qt)."""

import subprocess
import sys

import numpy as np

from robogui.engine.dynamics.dynamics import rne
from robogui.io.legacy.robmat import read_mot
from robogui.io.robotfile import load_robot
from tests.samples import LEGACY_SAMPLES

SAMPLES = LEGACY_SAMPLES


def test_robmat_csv_torques_equal_rne(tmp_path):
    out = tmp_path / "scara.csv"
    proc = subprocess.run(
        [sys.executable, "-m", "robogui", "robmat", str(SAMPLES / "scara.dat"),
         str(SAMPLES / "scara.mot"), "--csv", "-o", str(out)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    header, *rows = [line.split(",") for line in text.strip().splitlines()]
    col = header.index("tau")
    robot = load_robot(SAMPLES / "scara.dat")
    motion = read_mot(SAMPLES / "scara.mot", nlink=robot.n)
    tau = rne(robot, motion.q, motion.qd, motion.qdd)
    got = np.array([float(r[col]) for r in rows]).reshape(tau.shape)
    np.testing.assert_allclose(got, tau, rtol=1e-9, atol=1e-9)


def test_robmat_bad_file_names_it_and_fails(tmp_path):
    bad = tmp_path / "bad.dat"
    bad.write_text("this is not a Rob_Mat file\n")
    proc = subprocess.run(
        [sys.executable, "-m", "robogui", "robmat", str(bad), str(SAMPLES / "scara.mot")],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert "bad.dat" in proc.stderr
