"""The robot-language writers and readers on programs built here (no session): conventions
checked against scipy computed independently, circular moves and blends, refusals."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from robogui.engine.spatial.quaternion import UnitQuaternion
from robogui.io.robot_languages import krl, rapid, urscript
from robogui.io.robot_languages.targets import (
    ExportProgram,
    Motion,
    RobotLanguageError,
    Target,
    identifiers,
    parse_brackets,
)

RNG = np.random.default_rng(26)


def _pose(rot: Rotation, p) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = rot.as_matrix()
    T[:3, 3] = p
    return T


def _program(types="RRRRRR", motions=None, tool=None) -> ExportProgram:
    n = len(types)
    rots = Rotation.random(4, random_state=7)
    t = [Target(f"P{i + 1}", RNG.uniform(-3, 3, n), _pose(rots[i], RNG.uniform(-1, 1, 3)),
                (True, False) if i % 2 else (False, True)) for i in range(4)]
    if motions is None:
        motions = (Motion("joint", t[0], speed_fraction=0.3, accel_fraction=0.5),
                   Motion("linear", t[1], tcp_speed=0.12, blend_radius=0.015),
                   Motion("circular", t[3], via=t[2], tcp_speed=0.2, blend_radius=0.0),
                   Motion("joint", t[0], duration=2.5, blend_radius=0.02))
    tool = _pose(Rotation.from_euler("xyz", [0.1, -0.2, 0.3]), [0.01, -0.02, 0.15]) \
        if tool is None else tool
    return ExportProgram("demo prog", "test arm", types, tool, np.full(n, 2.0),
                         np.full(n, 4.0), 1.2, tuple(motions))


# -- conventions, each against an independent computation ----------------------------------
def test_ur_pose_is_position_and_scipy_rotation_vector():
    for rot in Rotation.random(50, random_state=1):
        T = _pose(rot, [0.1, 0.2, 0.3])
        p = urscript.ur_pose(T)
        np.testing.assert_allclose(p[:3], [0.1, 0.2, 0.3])
        rv = rot.as_rotvec()
        # the same rotation (rotation vectors agree up to the 2 pi wrap at angle pi)
        np.testing.assert_allclose(Rotation.from_rotvec(p[3:]).as_matrix(), rot.as_matrix(),
                                   atol=1e-12)
        if np.linalg.norm(rv) < math.pi - 1e-6:
            np.testing.assert_allclose(p[3:], rv, atol=1e-12)
        np.testing.assert_allclose(urscript.pose_from_ur(p), T, atol=1e-12)


def test_rapid_quaternion_is_scalar_first_scipy_quaternion():
    rots = Rotation.random(20, random_state=2)
    prog = _program(motions=[Motion("linear", Target(f"L{i}", np.zeros(6),
                                                     _pose(r, [0.5, 0, 0.4])))
                             for i, r in enumerate(rots)])
    text = rapid.write_rapid(prog)
    rows = [ln for ln in text.splitlines() if "CONST robtarget" in ln]
    assert len(rows) == 20
    for row, rot in zip(rows, rots, strict=True):
        value = parse_brackets(row.split(":=")[1].rstrip(";"), "t", "t")
        q = np.array(value[0][1])
        x, y, z, w = rot.as_quat()  # scipy: scalar last
        expect = np.array([w, x, y, z]) * (1 if w >= 0 else -1)
        np.testing.assert_allclose(q, expect, atol=1e-9)
        # and the engine's UnitQuaternion of the same matrix (scalar first, s >= 0)
        np.testing.assert_allclose(q, UnitQuaternion(rot.as_matrix()).vec, atol=1e-9)
        assert value[0][0] == pytest.approx([500.0, 0.0, 400.0])


def test_kuka_abc_are_scipy_intrinsic_zyx_angles_in_degrees():
    for rot in Rotation.random(50, random_state=3):
        T = _pose(rot, [0.0, 0.0, 0.0])
        a, b, c = krl.kuka_abc(T)
        # R = Rz(A) Ry(B) Rx(C): intrinsic Z-Y'-X'' in scipy's upper-case axes
        np.testing.assert_allclose(Rotation.from_euler("ZYX", [a, b, c], degrees=True)
                                   .as_matrix(), rot.as_matrix(), atol=1e-12)
        np.testing.assert_allclose([a, b, c], rot.as_euler("ZYX", degrees=True), atol=1e-9)
        assert -90 <= b <= 90
    # KUKA's own example: A 90 turns x onto y
    T = np.eye(4)
    T[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    np.testing.assert_allclose(krl.kuka_abc(T), [90, 0, 0], atol=1e-12)


@pytest.mark.parametrize(("deg", "quadrant"), [(0, 0), (45, 0), (90.0001, 1), (179, 1),
                                               (-0.001, -1), (-90.001, -2), (-179, -2),
                                               (200, 2), (-200, -3)])
def test_confdata_quadrants_follow_abb(deg, quadrant):
    q = np.radians([deg, 10, 10, deg, 10, deg])
    cf1, cf4, cf6, _ = rapid.confdata(q, (False, False))
    assert (cf1, cf4, cf6) == (quadrant, quadrant, quadrant)


_F, _B = False, True


@pytest.mark.parametrize(("sides", "q5", "cfx"), [((_F, _F), 0.3, 0), ((_F, _F), -0.3, 1),
                                                   ((_F, _B), 0.3, 2), ((_F, _B), -0.3, 3),
                                                   ((_B, _F), 0.3, 4), ((_B, _F), -0.3, 5),
                                                   ((_B, _B), 0.3, 6), ((_B, _B), -0.3, 7),
                                                   (None, -0.3, 1), (None, 0.3, 0)])
def test_confdata_cfx_is_abbs_table(sides, q5, cfx):
    """ABB's table: cfx 0..7 = wrist behind axis 1 (4), behind the lower arm (2), q5 < 0."""
    assert rapid.confdata([0, 0, 0, 0, q5, 0], sides)[3] == cfx


# -- round trips --------------------------------------------------------------------------
def _check_round_trip(prog, tool, moves, pos_tol, rot_tol, joint_tol):
    np.testing.assert_allclose(tool[:3, 3], prog.tool[:3, 3], atol=pos_tol)
    np.testing.assert_allclose(tool[:3, :3], prog.tool[:3, :3], atol=rot_tol)
    assert len(moves) == len(prog.motions)
    for m, r in zip(prog.motions, moves, strict=True):
        assert r.kind == m.kind
        assert r.name == m.target.name
        if m.kind == "joint" and r.q is not None:
            np.testing.assert_allclose(r.q[:m.target.q.size], m.target.q, atol=joint_tol)
            continue
        np.testing.assert_allclose(r.pose[:3, 3], m.target.pose[:3, 3], atol=pos_tol)
        np.testing.assert_allclose(r.pose[:3, :3], m.target.pose[:3, :3], atol=rot_tol)
        if m.kind == "circular":
            np.testing.assert_allclose(r.via_pose[:3, 3], m.via.pose[:3, 3], atol=pos_tol)
            np.testing.assert_allclose(r.via_pose[:3, :3], m.via.pose[:3, :3], atol=rot_tol)


def test_urscript_round_trip_with_circle_and_blends():
    prog = _program()
    text = urscript.write_urscript(prog)
    assert "movec(p[" in text and ", mode=0)" in text
    tool, moves = urscript.read_urscript(text)
    half = 0.5e-6 + 1e-12
    _check_round_trip(prog, tool, moves, half, 2e-6, half)
    # a, v, r, t from the program: joint v = fraction x slowest joint's max speed
    assert moves[0].params == {"a": 0.5 * 4.0, "v": 0.3 * 2.0, "r": 0.0}
    assert moves[1].params == {"a": 1.2, "v": 0.12, "r": 0.015}
    assert moves[2].params["v"] == 0.2
    assert moves[3].params["t"] == 2.5 and moves[3].params["r"] == 0.02


def test_rapid_round_trip_with_circle_and_zones():
    prog = _program()
    text = rapid.write_rapid(prog)
    assert "MoveC p_P3, p_P4," in text and "MoveAbsJ jt_P1, vmax, fine" in text
    tool, moves = rapid.read_rapid(text)
    _check_round_trip(prog, tool, moves, 0.5e-6 + 1e-12, 2e-8, math.radians(0.5e-6) + 1e-12)
    assert moves[0].params["velset"] == 30.0 and moves[0].params["accset"] == 50.0
    assert moves[1].params["v_tcp"] == pytest.approx(0.12)
    assert moves[1].params["radius"] == pytest.approx(0.015)
    assert moves[1].params["conf"] == rapid.confdata(prog.motions[1].target.q, (True, False))
    assert moves[3].params["T"] == 2.5 and moves[3].params["radius"] == pytest.approx(0.02)
    text_j = rapid.write_rapid(prog, joint_instruction="MoveJ")
    assert "MoveJ p_P1," in text_j and "jointtarget" not in text_j
    _, moves_j = rapid.read_rapid(text_j)
    np.testing.assert_allclose(moves_j[0].pose[:3, 3], prog.motions[0].target.pose[:3, 3],
                               atol=1e-6)


def test_krl_round_trip_with_circle_and_cdis():
    prog = _program()
    src, dat = krl.write_krl(prog, "demo")
    assert "CIRC XP_P3, XP_P4" in src and "LIN XP_P2 C_DIS" in src
    assert src.count("DEF demo( )") == 1 and "DEFDAT demo" in dat
    tool, moves = krl.read_krl(src, dat)
    # 1e-6 deg on A, B, C moves the matrix by at most ~3e-8
    _check_round_trip(prog, tool, moves, 0.5e-6 + 1e-12, 5e-8, math.radians(0.5e-6) + 1e-12)
    assert moves[0].params["VEL_PTP"] == 30.0 and moves[0].params["ACC_PTP"] == 50.0
    assert moves[1].params["radius"] == pytest.approx(0.015)
    assert moves[1].params["$VEL.CP"] == 0.12
    assert moves[2].params["radius"] == 0.0
    assert moves[3].params["radius"] == pytest.approx(0.02)


def test_smaller_arm_fills_missing_axes_with_zero():
    prog = _program("RRRR")
    src, dat = krl.write_krl(prog, "four")
    _, moves = krl.read_krl(src, dat)
    np.testing.assert_allclose(moves[0].q[4:], 0.0)
    _, moves = rapid.read_rapid(rapid.write_rapid(prog))
    np.testing.assert_allclose(moves[0].q[4:], 0.0)


# -- refusals -----------------------------------------------------------------------------
@pytest.mark.parametrize("write", [urscript.write_urscript, rapid.write_rapid,
                                   lambda p: krl.write_krl(p, "x")])
def test_seven_joints_are_refused(write):
    with pytest.raises(RobotLanguageError, match="7 joints"):
        write(_program("RRRRRRR"))


@pytest.mark.parametrize("write", [urscript.write_urscript, rapid.write_rapid,
                                   lambda p: krl.write_krl(p, "x")])
def test_prismatic_joint_is_refused(write):
    with pytest.raises(RobotLanguageError, match="joint 3 .* is prismatic"):
        write(_program("RRPRRR"))


def test_urscript_needs_exactly_six_joints():
    with pytest.raises(RobotLanguageError, match="exactly 6"):
        urscript.write_urscript(_program("RRRRR"))


def test_krl_module_name_must_be_a_name():
    with pytest.raises(RobotLanguageError, match="cannot name a KRL module"):
        krl.write_krl(_program(), "pick-and-place")
    assert krl.module_name("pick-and-place") == "pick_and_place"


def test_circular_motion_needs_a_via():
    t = _program().motions[0].target
    with pytest.raises(RobotLanguageError, match="via"):
        Motion("circular", t)


def test_identifiers_are_valid_unique_and_short():
    ids = identifiers(["a b", "a_b", "9lives", "x" * 40, "x" * 41], 24, "XP_")
    assert ids["a b"] == "XP_a_b" and ids["a_b"] == "XP_a_b_2"
    assert all(len(v) <= 24 for v in ids.values())
    assert len({v.lower() for v in ids.values()}) == 5


# -- readers refuse what they do not write ------------------------------------------------
def test_readers_name_the_bad_line_and_value():
    prog = _program()
    text = urscript.write_urscript(prog)
    with pytest.raises(RobotLanguageError, match="line 6: not a statement"):
        urscript.read_urscript(text.replace("  # move 1", "  popup('hi')\n  # move 1", 1))
    with pytest.raises(RobotLanguageError, match="not a number|not a statement"):
        urscript.read_urscript(text.replace("a=2.0000", "a=nan", 1))
    mod = rapid.write_rapid(prog)
    with pytest.raises(RobotLanguageError, match="unbalanced"):
        rapid.read_rapid(mod.replace("[9E9, 9E9, 9E9, 9E9, 9E9, 9E9]];", "[9E9];", 1))
    with pytest.raises(RobotLanguageError, match="is not a declared robtarget"):
        rapid.read_rapid(mod.replace("MoveL p_P2", "MoveL p_nowhere", 1))
    bad_quat = "\n".join(ln.replace("[[10.000, -20.000, 150.000], [", "[[10.000, -20.000, "
                                     "150.000], [2")
                          if "tooldata" in ln else ln for ln in mod.splitlines())
    with pytest.raises(RobotLanguageError, match="quaternion norm"):
        rapid.read_rapid(bad_quat)
    src, dat = krl.write_krl(prog, "demo")
    with pytest.raises(RobotLanguageError, match=r"\.dat line .*missing|missing"):
        krl.read_krl(src, dat.replace("A6 ", "Q6 ", 1))
    with pytest.raises(RobotLanguageError, match="is not an E6POS"):
        krl.read_krl(src.replace("LIN XP_P2", "LIN XJ_P1", 1), dat)
    with pytest.raises(RobotLanguageError, match="expected text"):
        krl.read_krl(b"DEF", dat)


def test_bracket_parser_never_evaluates_and_bounds_depth():
    with pytest.raises(RobotLanguageError, match="cannot read"):
        parse_brackets("[__import__('os')]", "RAPID", "x")
    with pytest.raises(RobotLanguageError, match="too deep"):
        parse_brackets("[" * 50 + "]" * 50, "RAPID", "x")
    assert parse_brackets("[[1, 2.5], TRUE, [-3e2]]", "RAPID", "x") == [[1.0, 2.5], True,
                                                                         [-300.0]]


def test_mangled_exports_read_or_fail_with_the_languages_error():
    """Random edits of exported text: every reader either reads it or raises
    RobotLanguageError (never another exception), so the app can say what is wrong."""
    import random

    prog = _program()
    src, dat = krl.write_krl(prog, "demo")
    texts = {"ur": urscript.write_urscript(prog), "rapid": rapid.write_rapid(prog),
             "src": src, "dat": dat}
    readers = {"ur": urscript.read_urscript, "rapid": rapid.read_rapid,
               "src": lambda t: krl.read_krl(t, dat), "dat": lambda t: krl.read_krl(src, t)}
    rng = random.Random(26)
    alphabet = "[]{},;:=.-0123456789eE TRUEFALSE\nabcXYZ_#$\\"
    for _ in range(1500):
        which = rng.choice(list(texts))
        chars = list(texts[which])
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(chars))
            op = rng.random()
            if op < 0.4:
                chars[i] = rng.choice(alphabet)
            elif op < 0.7:
                del chars[i]
            else:
                chars.insert(i, rng.choice(alphabet))
        try:
            readers[which]("".join(chars))
        except RobotLanguageError:
            pass


def test_a_comment_with_line_breaks_stays_one_comment_line():
    prog = _program()
    t = prog.motions[0].target
    evil = Motion("joint", t, comment="first\nmovej([9, 9, 9, 9, 9, 9])\r\nend")
    prog = ExportProgram(prog.name, prog.robot_name, prog.joint_types, prog.tool,
                         prog.max_joint_speed, prog.max_joint_accel, 1.2, (evil,))
    text = urscript.write_urscript(prog)
    assert "# move 1: joint -> P1  (first movej([9, 9, 9, 9, 9, 9]) end)" in text
    _, moves = urscript.read_urscript(text)
    assert len(moves) == 1 and moves[0].name == "P1"
    _, moves = rapid.read_rapid(rapid.write_rapid(prog))
    assert len(moves) == 1 and moves[0].name == "P1"
    _, moves = krl.read_krl(*krl.write_krl(prog, "c"))
    assert len(moves) == 1 and moves[0].name == "P1"
