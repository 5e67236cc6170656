"""ROBOOP .conf import/export (docs/formats.md section 1)."""

import warnings

import numpy as np
import pytest

from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.io.legacy.roboop import (
    LegacyFormatError,
    LegacyFormatWarning,
    load_roboop,
    parse_conf,
    read_roboop,
    robot_to_conf,
    save_roboop,
)
from robogui.io.robotfile import RobotFileError, load_robot
from tests.samples import LEGACY_SAMPLES

SAMPLES = LEGACY_SAMPLES
RAD, DEG = SAMPLES / "puma560_std_dh.conf", SAMPLES / "puma560_std_dh_deg.conf"


def test_samples_load_and_agree_with_each_other():
    a, wa = read_roboop(RAD)
    b, wb = read_roboop(DEG)
    assert wa == [] and wb == []
    assert a.name == "Unimation Puma 560" and a.n == 6 and not a.is_mdh
    for La, Lb in zip(a.links, b.links, strict=True):
        np.testing.assert_allclose([La.alpha, *La.qlim, La.offset],
                                   [Lb.alpha, *Lb.qlim, Lb.offset], atol=1e-15)
        assert (La.m, La.Jm, La.G, La.B, La.Tc) == (Lb.m, Lb.Jm, Lb.G, Lb.B, Lb.Tc)
    np.testing.assert_allclose(a.links[0].qlim, np.radians([-160, 160]), atol=1e-15)
    assert a.links[0].Jm == 200e-6 and a.links[0].G == 62.6111
    assert a.links[1].Tc == (0.0985, -0.0985)
    np.testing.assert_allclose(a.links[1].r, [-0.3638, 0.006, 0.2275])


def test_samples_check_values_and_library_puma():
    robot = load_roboop(RAD)
    T = robot.fkine(np.zeros(6))
    np.testing.assert_allclose(T[:3, 3], [0.4521, -0.1500, 0.4318], atol=1e-4)
    np.testing.assert_allclose(T[:3, :3], np.eye(3), atol=1e-12)
    T = robot.fkine([0, np.pi / 2, -np.pi / 2, 0, 0, 0])
    np.testing.assert_allclose(T[:3, 3], [0.0203, -0.1500, 0.8636], atol=1e-4)
    puma = load_robot("puma560")
    q = puma.random_q(20, seed=4)
    np.testing.assert_allclose(robot.fkine(q), puma.fkine(q), atol=1e-12)


def test_motor_zero_ignores_motor_keys_unless_asked():
    text = RAD.read_text().replace("Motor:           1", "Motor:           0")
    robot, msgs = read_roboop("x.conf", text=text)
    assert all(L.Jm == 0 and L.G == 1 and L.B == 0 for L in robot.links)
    assert any("Motor: 0" in m for m in msgs)
    robot, _ = read_roboop("x.conf", text=text, load_motor=True)
    assert robot.links[0].Jm == 200e-6


def _conf(body: str, base: str = "dof: 1\nDH: 1\n") -> str:
    return f"[R]\n{base}[R_LINK1]\n{body}"


@pytest.mark.parametrize("body, token, line", [
    ("a:0.5\n", "a:0.5", 5),
    ("a:\n", "a:", 5),
    ("a : 0.5\n", "a : 0.5", 5),
    ("a: 0.5 # metres\n", "0.5 # metres", 5),
    ("alpha: 1,57\n", "1,57", 5),
    ("joint_type: 2\n", "2", 5),
    ("  [R_LINK2]\na: 1\n", "[R_LINK2]", 5),
    ("d 0.3 # was: 0.2\n", "d 0.3 # was: 0.2", 5),
])
def test_hiding_quirks_are_rejected_with_line_and_token(body, token, line):
    with pytest.raises(LegacyFormatError) as err:
        read_roboop("bad.conf", text=_conf(body))
    assert err.value.line == line and err.value.token == token
    assert f"line {line}" in str(err.value) and "bad.conf" in str(err.value)
    if token.startswith("d 0.3"):
        assert "does not start with 'key:'" in str(err.value)
    assert isinstance(err.value, RobotFileError) and isinstance(err.value, ValueError)


def test_compat_mode_reproduces_roboop_quirks():
    # key:value inherits the previous parameter line's value (ROBOOP's reused buffer)
    robot, msgs = read_roboop("q.conf", text=_conf("d: 0.25\na:0.5\n"), strict=False)
    assert robot.links[0].a == 0.25 and any("previous" in m for m in msgs)
    # an unparseable value keeps the default; an inline comment is part of the value
    robot, msgs = read_roboop("q.conf", text=_conf("a: 0.5 # m\n"), strict=False)
    assert robot.links[0].a == 0.0 and msgs
    # joint_type 2 on a movable link behaves as prismatic
    robot, _ = read_roboop("q.conf", text=_conf("joint_type: 2\n"), strict=False)
    assert robot.links[0].joint == "P"
    # lines before the first header are ignored; CRLF is harmless; first duplicate wins
    text = "dof: 9\n" + _conf("a: 0.1\r\na: 0.2\r\n").replace("\n", "\r\n")
    robot, msgs = read_roboop("q.conf", text=text)
    assert robot.links[0].a == 0.1 and any("duplicate" in m for m in msgs)


def test_bracket_without_close_is_always_an_error():
    for strict in (True, False):
        with pytest.raises(LegacyFormatError, match="without ']'") as err:
            parse_conf("[R\ndof: 1\n", "x.conf", strict=strict)
        assert err.value.line == 1


def test_unterminated_last_line():
    text = _conf("a: 0.5")  # no newline: ROBOOP drops the line
    with pytest.raises(LegacyFormatError, match="newline") as err:
        read_roboop("u.conf", text=text)
    assert err.value.line == 5
    robot, msgs = read_roboop("u.conf", text=text, strict=False)
    assert robot.links[0].a == 0.0 and any("newline" in m for m in msgs)


def test_missing_dof_dh_and_section_messages():
    with pytest.raises(LegacyFormatError, match="dof"):
        read_roboop("m.conf", text="[R]\ndof: 6.0\nDH: 1\n")
    with pytest.raises(LegacyFormatError, match="mdh=True"):
        read_roboop("m.conf", text="[R]\ndof: 1\n")
    robot, _ = read_roboop("m.conf", text="[R]\ndof: 1\n[R_LINK1]\na: 1\n", mdh=True)
    assert robot.is_mdh
    with pytest.raises(LegacyFormatError, match=r"\[A\], \[B\]"):
        read_roboop("m.conf", text="[A]\ndof: 1\n[B]\ndof: 2\n")
    with pytest.raises(LegacyFormatError, match="no robot in the file: no section has a 'dof'"):
        read_roboop("m.conf", text="[R]\nDH: 1\n[R_LINK1]\na: 1\n")
    with pytest.raises(LegacyFormatError, match="no section"):
        read_roboop("m.conf", robot_name="C", text="[A]\ndof: 1\n")
    with pytest.raises(LegacyFormatError, match=r"line 2, token '2': section \[R_LINK2\] is "
                                                r"missing although 'dof: 2' announces link 2"):
        read_roboop("m.conf", text="[R]\ndof: 2\n[R_LINK1]\na: 1\n", mdh=True)
    _, msgs = read_roboop("m.conf", text="[R]\ndof: 2\n[R_LINK1]\na: 1\n", mdh=True,
                          strict=False)
    assert any("[R_LINK2] is missing" in m for m in msgs)
    with pytest.raises(LegacyFormatError, match="cannot read"):
        read_roboop("/nonexistent/file.conf")


def test_degrees_quirk_for_prismatic_and_fix_link_and_min_para():
    base = "dof: 1\nDH: 0\nFix: 1\nangle_in_degree: 1\nMinPara: 1\n"
    body = ("joint_type: 1\nd: 0.3\ntheta_min: -90\ntheta_max: 90\njoint_offset: 0\n"
            "m: 2\ncx: 0.2\nIxx: 0.1\nIyy: 0.18\nIzz: 0.18\n[R_LINK2]\na: 5\n")
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        robot = load_roboop("p.conf", text=_conf(body, base))
    texts = " ".join(str(w.message) for w in rec)
    assert all(issubclass(w.category, LegacyFormatWarning) for w in rec)
    assert "prismatic" in texts and "Fix: 1" in texts
    L = robot.links[0]
    assert robot.n == 1 and L.mdh and L.joint == "P"
    np.testing.assert_allclose(L.qlim, [-np.pi / 2, np.pi / 2])  # ROBOOP's deg->rad quirk
    assert robot.pose("initial")[0] == 0.3
    np.testing.assert_allclose(L.r, [0.1, 0, 0])  # m*c = 0.2 with m = 2
    # inertia about the origin -> about the COM (parallel axes)
    np.testing.assert_allclose(np.diag(L.I), [0.1, 0.16, 0.16], atol=1e-15)


def test_export_round_trip(tmp_path):
    robot = load_roboop(RAD)
    path = save_roboop(robot, tmp_path / "out.conf")
    text = path.read_text()
    assert text.endswith("\n") and "[UNIMATION_PUMA_560_LINK6]" in text
    back = load_roboop(path)
    assert back.key[0] == robot.key[0] and back.name == robot.name
    # a random modified-D-H robot with a prismatic joint, offsets and initial values
    rng = np.random.default_rng(1)
    links = [Link(joint=j, theta=rng.normal(), d=rng.normal(), a=rng.normal(),
                  alpha=rng.normal(), offset=rng.normal(), mdh=True, qlim=(-1.0, 2.0),
                  m=1.5, r=rng.normal(size=3), I=np.diag([0.1, 0.2, 0.25]), Jm=1e-4, G=-30,
                  B=1e-3, Tc=(0.2, -0.2)) for j in "RPR"]
    r = Robot(links, name="x y", poses={"initial": [0.1, 0.2, 0.3]})
    back, msgs = read_roboop("r.conf", text=robot_to_conf(r))
    q = rng.normal(size=(5, 3))
    np.testing.assert_allclose(back.fkine(q), r.fkine(q), atol=1e-12)
    np.testing.assert_allclose(back.pose("initial"), [0.1, 0.2, 0.3])
    assert [L.G for L in back.links] == [30.0] * 3 and back.links[1].Tc == (0.2, -0.2)
    tool = np.eye(4)
    tool[2, 3] = 0.1
    with pytest.raises(ValueError, match="tool"):
        robot_to_conf(r.with_tool(tool))
    assert "[X]" in robot_to_conf(r.with_tool(tool), "X", drop_base_tool=True)


def test_motor_terms_are_roboops_torque_model():
    # formats.md 1.5.6: Motor: 1 adds Im Gr^2 qdd + Gr^2 B qd + Gr Cf sign(qd) to joint i
    from robogui.engine.dynamics.dynamics import rne

    robot, _ = read_roboop(RAD)
    bare, _ = read_roboop("x.conf", text=RAD.read_text().replace("Motor:           1",
                                                                   "Motor:           0"))
    Im = np.array([L.Jm for L in robot.links])
    Gr = np.array([L.G for L in robot.links])
    B = np.array([L.B for L in robot.links])
    Cf = np.array([L.Tc[0] for L in robot.links])
    np.testing.assert_allclose(Im[:2], [200e-6, 200e-6])
    np.testing.assert_allclose(Gr[:3], [62.6111, 107.815, 53.7063])
    rng = np.random.default_rng(0)
    for q, qd, qdd in rng.normal(size=(5, 3, 6)):
        extra = rne(robot, q, qd, qdd) - rne(bare, q, qd, qdd)
        np.testing.assert_allclose(extra, Im * Gr**2 * qdd + Gr**2 * B * qd
                                   + Gr * Cf * np.sign(qd), atol=1e-10)
    # a negative gear ratio would flip ROBOOP's Coulomb term: warned about
    text = _conf("Gr: -30\nCf: 0.2\nIm: 1e-4\n", "dof: 1\nDH: 1\nMotor: 1\n")
    robot, msgs = read_roboop("g.conf", text=text)
    assert robot.links[0].G == -30 and any("Gr = -30 < 0" in m for m in msgs)
