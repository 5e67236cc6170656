"""The sample program and trajectory shipped in assets/ load and make sense."""

from pathlib import Path

import numpy as np

from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.robotfile import load_robot
from robogui.session.teach.compile import compile_program
from robogui.session.teach.program_file import load_program

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def test_sample_program_compiles_without_problems_on_the_puma():
    program = load_program(ASSETS / "pick-and-place.prog")
    puma = load_robot(program.robot)
    compiled = compile_program(program, puma, q_start=puma.pose("qr"))
    assert not compiled.problems
    # the program ends where it started: the ready pose
    np.testing.assert_allclose(compiled.trajectory.q[-1], puma.pose("qr"), atol=1e-9)


def test_demo_trajectory_runs_qz_to_qr_to_qn():
    tr = Trajectory.from_csv(ASSETS / "puma560-demo.csv", n=6)
    puma = load_robot("puma560")
    assert tr.duration == 6.0
    np.testing.assert_allclose(tr.q[0], puma.pose("qz"), atol=1e-12)
    np.testing.assert_allclose(tr.sample(3.0), puma.pose("qr"), atol=1e-12)
    np.testing.assert_allclose(tr.q[-1], puma.pose("qn"), atol=1e-12)
