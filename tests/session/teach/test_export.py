"""Exporting teach programs to URScript, RAPID and KRL: the sample program's golden files,
every waypoint read back to the written precision, poses against roboticstoolbox-python,
the move-options adapter, ABB's arm sides, refusals that write nothing."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from robogui.engine.kinematics.kinematics import fkine
from robogui.io.robot_languages import krl, rapid, urscript
from robogui.io.robot_languages.targets import RobotLanguageError
from robogui.io.robotfile import load_robot
from robogui.session.teach.export import (
    arm_sides,
    export_data,
    export_program,
    export_texts,
    move_options,
)
from robogui.session.teach.program import Move, Program, ProgramError
from robogui.session.teach.program_file import load_program

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "data" / "robot_languages"
SAMPLE = ROOT / "assets" / "pick-and-place.prog"


@pytest.fixture(scope="module")
def puma():
    return load_robot("puma560")


@pytest.fixture(scope="module")
def sample():
    return load_program(SAMPLE)


@pytest.mark.parametrize("dialect", ["urscript", "rapid", "krl"])
def test_sample_program_matches_golden_files(tmp_path, puma, sample, dialect):
    written = export_program(sample, puma, dialect, tmp_path / "pick_and_place.out")
    assert written
    for path in written:
        assert path.read_text() == (GOLDEN / path.name).read_text(), path.name


def _check_sample(sample, puma, moves, joint_tol, pos_tol, rot_tol):
    assert [m.kind for m in moves] == [m.kind for m in sample.moves]
    for move, read in zip(sample.moves, moves, strict=True):
        w = sample.waypoint(move.target)
        assert read.name == w.name
        if move.kind == "joint":
            np.testing.assert_allclose(read.q, w.q, atol=joint_tol, rtol=0)
        else:
            T = fkine(puma, w.q)
            np.testing.assert_allclose(read.pose[:3, 3], T[:3, 3], atol=pos_tol, rtol=0)
            np.testing.assert_allclose(read.pose[:3, :3], T[:3, :3], atol=rot_tol, rtol=0)


def test_urscript_golden_reads_back_every_waypoint(puma, sample):
    tool, moves = urscript.read_urscript((GOLDEN / "pick_and_place.script").read_text())
    np.testing.assert_allclose(tool, np.eye(4))
    # 6 decimals: half a micro-radian / micrometre; a rotation vector rounded by 0.5e-6
    # per component moves the matrix by less than 1e-6
    _check_sample(sample, puma, moves, 0.5e-6 + 1e-12, 0.5e-6 + 1e-12, 1e-6)
    # v of a joint move: the compiler's default 50 % of the slowest joint (180 deg/s)
    # 100 % of the Puma's joint speed limit (180 deg/s), as the compiler times the move
    assert moves[0].params["v"] == pytest.approx(round(math.pi, 4))
    assert moves[2].params == {"a": 1.2, "v": 0.25, "r": 0.0}


def test_rapid_golden_reads_back_every_waypoint(puma, sample):
    tool, moves = rapid.read_rapid((GOLDEN / "pick_and_place.mod").read_text())
    np.testing.assert_allclose(tool, np.eye(4))
    _check_sample(sample, puma, moves, math.radians(0.5e-6) + 1e-12, 0.5e-6 + 1e-12, 4e-9)
    assert moves[0].params["velset"] == 100.0
    assert moves[2].params["v_tcp"] == pytest.approx(0.25)


def test_krl_golden_reads_back_every_waypoint(puma, sample):
    tool, moves = krl.read_krl((GOLDEN / "pick_and_place.src").read_text(),
                               (GOLDEN / "pick_and_place.dat").read_text())
    np.testing.assert_allclose(tool, np.eye(4), atol=1e-15)
    _check_sample(sample, puma, moves, math.radians(0.5e-6) + 1e-12, 0.5e-6 + 1e-12, 3e-8)
    assert moves[0].params["VEL_PTP"] == 100.0 and moves[2].params["$VEL.CP"] == 0.25


def test_pick_pose_agrees_with_roboticstoolbox(sample):
    """The written pick pose is RTB's Puma560 pose (RTB puts the pedestal, ~0.672 m, in
    d1, robogui's puma560 has d1 = 0: conventions.md)."""
    rtb = pytest.importorskip("roboticstoolbox")
    model = rtb.models.DH.Puma560()
    T = model.fkine(sample.waypoint("pick").q).A
    T[2, 3] -= model.links[0].d
    _, moves = urscript.read_urscript((GOLDEN / "pick_and_place.script").read_text())
    np.testing.assert_allclose(moves[2].pose, T, atol=1e-6)


def test_irb140_robtargets_agree_with_roboticstoolbox_and_scipy():
    rtb = pytest.importorskip("roboticstoolbox")
    robot = load_robot("irb140")
    qs = [[0.1, -0.4, 0.3, 0.5, 0.6, -0.2], [-2.0, 0.2, -2.6, -2.0, -0.7, 2.5]]
    prog = Program.from_configurations(qs, name="irb", kind="linear")
    tool, moves = rapid.read_rapid(export_texts(prog, robot, "rapid")[".mod"])
    for q, m in zip(qs, moves, strict=True):
        T = rtb.models.DH.IRB140().fkine(q).A
        np.testing.assert_allclose(m.pose[:3, 3], T[:3, 3], atol=0.5e-6)
        x, y, z, w = Rotation.from_matrix(T[:3, :3]).as_quat()
        text_q = Rotation.from_matrix(m.pose[:3, :3]).as_quat()
        assert abs(abs(np.dot(text_q, [x, y, z, w])) - 1) < 1e-9
    # confdata: quadrants of axes 1, 4, 6 and the sign of q5
    assert moves[0].params["conf"][:3] == (0, 0, -1) and moves[0].params["conf"][3] % 2 == 0
    assert moves[1].params["conf"][:3] == (-2, -2, 1) and moves[1].params["conf"][3] % 2 == 1


def test_kr5_e6pos_agree_with_roboticstoolbox_zyx_angles():
    rtb = pytest.importorskip("roboticstoolbox")
    robot = load_robot("kr5")
    q = [0.4, -0.3, 0.5, 1.0, -0.8, 0.3]
    prog = Program.from_configurations([np.zeros(6), q], name="kr", kind="linear")
    texts = export_texts(prog, robot, "krl", stem="kr")
    dat = texts[".dat"]
    T = rtb.models.DH.KR5().fkine(q).A
    abc = Rotation.from_matrix(T[:3, :3]).as_euler("ZYX", degrees=True)
    row = next(ln for ln in dat.splitlines() if "XP_P2=" in ln)
    fields = dict(item.split() for item in row.split("{")[1].rstrip("}").split(","))
    np.testing.assert_allclose([float(fields[k]) for k in "XYZ"], T[:3, 3] * 1000, atol=5e-4)
    np.testing.assert_allclose([float(fields[k]) for k in "ABC"], abc, atol=5e-7)


def test_arm_sides_follow_the_posture_not_the_frames():
    robot = load_robot("irb140")
    # lower arm ahead, wrist hanging below the elbow: in front of both
    assert arm_sides(robot, np.zeros(6)) == (False, False)
    # elbow bent the other way (wrist above the lower arm's far end): behind the lower arm
    assert arm_sides(robot, np.array([0, 0, -2.5, 0, 0.5, 0])) == (False, True)
    # the arm thrown over backwards: the wrist behind axis 1
    q = np.array([0, 2.0, 0, 0, 0.5, 0])
    assert arm_sides(robot, q) == (True, False)
    W = fkine(robot.with_tool(np.eye(4)), q)[:3, 3]
    assert W[0] < 0  # behind the base along the arm's forward direction (+x at q1 = 0)
    # a UR-type arm (three parallel axes) has a closed-form configuration too
    sides = arm_sides(load_robot("ur5"), np.zeros(6))
    assert sides is not None and all(isinstance(s, bool) for s in sides)


# -- the adapter for fields the program model may add --------------------------------------
def test_move_options_defaults_for_todays_move():
    opt = move_options(Move("linear", "P1", speed=0.1))
    assert (opt.kind, opt.blend_radius, opt.speed_percent, opt.accel_percent, opt.via) == (
        "linear", 0.0, None, 100.0, None)


@dataclass(frozen=True)
class _FutureMove(Move):
    """A Move with the fields another change adds (blend radius, %, circular via)."""

    blend_radius: float = 0.0
    speed_percent: float | None = None
    accel_percent: float = 100.0
    via: str | None = None

    def __post_init__(self):
        if self.kind != "circular":
            super().__post_init__()


def test_future_fields_reach_every_dialect():
    robot = load_robot("irb140")
    qs = [[0.0, 0.0, 0.0, 0.0, 0.5, 0.0], [0.3, 0.1, 0.0, 0.0, 0.5, 0.0],
          [0.5, 0.0, 0.1, 0.0, 0.5, 0.0]]
    prog = Program.from_configurations(qs, name="arc")
    prog = prog._with(moves=(
        _FutureMove("joint", "P1", speed_percent=40.0, accel_percent=25.0),
        _FutureMove("circular", "P3", via="P2", blend_radius=0.01, accel_percent=50.0),
        _FutureMove("linear", "P1", speed_percent=80.0, blend_radius=0.005)))
    data = export_data(prog, robot)
    assert [m.kind for m in data.motions] == ["joint", "circular", "linear"]
    assert data.motions[0].speed_fraction == 0.4 and data.motions[0].accel_fraction == 0.25
    assert data.motions[1].via.name == "P2" and data.motions[1].blend_radius == 0.01
    assert data.motions[2].tcp_speed == pytest.approx(0.2)  # 80 % of 0.25 m/s
    ur = export_texts(prog, robot, "urscript")[".script"]
    assert "movec(p[" in ur and "r=0.0100, mode=0)" in ur and "a=0.6000" in ur
    mod = export_texts(prog, robot, "rapid")[".mod"]
    assert "MoveC p_P2, p_P3, v_250_0, z_10_0, t_robogui;" in mod
    assert "VelSet 40.0, 5000;" in mod and "AccSet 25.0, 100;" in mod
    src = export_texts(prog, robot, "krl", stem="arc")[".src"]
    assert "$APO.CDIS = 10.0" in src and "CIRC XP_P2, XP_P3 C_DIS" in src
    assert "BAS(#VEL_PTP, 40.0)" in src and "$VEL.CP = 0.2000" in src
    _, moves = krl.read_krl(src, export_texts(prog, robot, "krl", stem="arc")[".dat"])
    T3 = fkine(robot, qs[2])
    np.testing.assert_allclose(moves[1].pose[:3, 3], T3[:3, 3], atol=0.5e-6)


def test_duration_is_written_as_time_or_equivalent_speed():
    robot = load_robot("irb140")
    prog = Program.from_configurations([np.zeros(6), [0.9, 0, 0, 0, 0, 0]], name="t")
    prog = prog.update_move(1, duration=2.0)
    m = export_data(prog, robot).motions[1]
    # the compiler's quintic: peak speed 1.875 x mean; 0.9 rad in 2 s of max 180 deg/s
    assert m.speed_fraction == pytest.approx(1.875 * 0.9 / 2.0 / math.pi)
    assert "t=2.0000" in export_texts(prog, robot, "urscript")[".script"]
    assert "\\T:=2.000" in export_texts(prog, robot, "rapid")[".mod"]


# -- refusals -------------------------------------------------------------------------------
@pytest.mark.parametrize(("robot_name", "why"), [("panda", "7 joints"),
                                                 ("stanford", "is prismatic")])
@pytest.mark.parametrize("dialect", ["urscript", "rapid", "krl"])
def test_inexpressible_programs_are_refused_and_nothing_written(tmp_path, robot_name, why,
                                                                dialect):
    robot = load_robot(robot_name)
    prog = Program.from_configurations([robot.qz if hasattr(robot, "qz") else
                                        np.zeros(robot.n)], name="x")
    with pytest.raises(RobotLanguageError, match=why):
        export_program(prog, robot, dialect, tmp_path / "x.out")
    assert list(tmp_path.iterdir()) == []


def test_program_for_another_robot_is_refused(puma, sample):
    with pytest.raises(ProgramError, match="7 joints|6 joints"):
        export_texts(sample, load_robot("panda"), "rapid")
    with pytest.raises(ValueError, match="choose urscript, rapid or krl"):
        export_texts(sample, puma, "gcode")


def test_krl_file_names_are_krl_names(tmp_path, puma, sample):
    written = export_program(sample, puma, "krl", tmp_path / "pick-and-place.src")
    assert [p.name for p in written] == ["pick_and_place.src", "pick_and_place.dat"]
    assert "DEF pick_and_place( )" in written[0].read_text()


DEMO_CELL_PROG = ROOT / "assets" / "cells" / "pick-and-place.prog"


@pytest.mark.parametrize("dialect", ["urscript", "rapid", "krl"])
def test_grasp_and_release_become_the_gripper_output_and_read_back(puma, dialect):
    """Issue 24: the cell demo's grasp and release steps are the dialect's gripper output,
    the move before each stops exactly, and the reader gives the steps back in order."""
    prog = load_program(DEMO_CELL_PROG)
    prog = prog.update_move(2, blend_radius=0.02)  # a blend into the grasp is dropped
    texts = export_texts(prog, puma, dialect, stem="pick_and_place")
    if dialect == "urscript":
        tool, moves = urscript.read_urscript(texts[".script"])
        on, off = {"output": 0}, {"output": 0}
        assert "  set_tool_digital_out(0, True)\n  sleep(0.250)\n" in texts[".script"]
    elif dialect == "rapid":
        tool, moves = rapid.read_rapid(texts[".mod"])
        on = off = {"signal": "doGripper"}
        assert "    SetDO doGripper, 1;\n    WaitTime 0.250;\n" in texts[".mod"]
    else:
        tool, moves = krl.read_krl(texts[".src"], texts[".dat"])
        on = off = {"output": 1}
        assert "  $OUT[1]=TRUE\n  WAIT SEC 0.250\n" in texts[".src"]
    kinds = [m.kind for m in moves]
    assert kinds == [m.kind for m in prog.moves]
    grasp, release = moves[3], moves[7]
    assert (grasp.kind, grasp.name, release.kind) == ("grasp", "part", "release")
    assert grasp.params == dict(on, duration=0.25)
    assert release.params == dict(off, duration=0.25)
    # the linear move down to the part stops exactly (its 20 mm blend is not written)
    radius = moves[2].params.get("radius", moves[2].params.get("r"))
    assert radius == 0.0
    # every waypoint still reads back: the pick pose where fkine has it
    T = fkine(puma, prog.waypoint("pick").q)
    np.testing.assert_allclose(moves[2].pose[:3, 3], T[:3, 3], atol=1e-6)


def test_a_gripper_output_out_of_place_is_refused():
    with pytest.raises(RobotLanguageError, match="line 2: a sleep"):
        urscript.read_urscript("set_tcp(p[0, 0, 0, 0, 0, 0])\nsleep(0.5)\n")
