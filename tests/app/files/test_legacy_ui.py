"""Legacy robot files from the app: ROBOOP .conf and Rob_Mat .DAT/.MOT import, .conf export,
and the menu entries (with the symbolic kinematics dialog)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtWidgets
from shiboken6 import isValid

from robogui.app.files.legacy_import import (
    CONVENTION_CHOICES,
    export_roboop,
    load_robmat_motion,
    open_legacy_robot,
)
from robogui.app.shell.menu_extras import find_menu, install_symbolic_and_legacy_actions
from robogui.app.symbolic.symbolic_dialog import SymbolicDialog, wait_for_derivations
from robogui.engine.dynamics.dynamics import rne
from robogui.engine.spatial.transforms import transl
from robogui.engine.trajectory.trajectory import Trajectory
from robogui.io.legacy.robmat import read_mot
from robogui.io.legacy.roboop import LegacyFormatError, read_roboop
from robogui.io.robotfile import load_robot
from robogui.session import Session
from tests.samples import LEGACY_SAMPLES

SAMPLES = LEGACY_SAMPLES
PUMA_CONF = SAMPLES / "puma560_std_dh.conf"


class Chooser:
    """Injectable chooser: answers from a queue (None = cancel) and records the questions."""

    def __init__(self, *answers):
        self.answers, self.asked = list(answers), []

    def __call__(self, parent, title, label, items):
        self.asked.append((label, list(items)))
        answer = self.answers.pop(0)
        return answer if answer is None or isinstance(answer, str) else items[answer]


class Log(list):
    def __call__(self, *args):
        self.append(args if len(args) > 1 else args[0])


@pytest.fixture
def stub_window(qtbot):
    """A bare main window with the File and Robot menus the real one has."""
    win = QtWidgets.QMainWindow()
    f = win.menuBar().addMenu("&File")
    f.addAction("&Open robot file\u2026")
    f.addMenu("Open &recent")
    f.addSeparator()
    f.addAction("Save &screenshot\u2026")
    f.addSeparator()
    f.addAction("&Quit")
    win.menuBar().addMenu("&Robot").addAction("Show &D-H table")
    win.menuBar().addMenu("&View")
    qtbot.addWidget(win)
    return win


def install(win, session, **kw):
    logs = {"errors": Log(), "infos": Log()}
    extras = install_symbolic_and_legacy_actions(
        win, session, present_error=logs["errors"], present_info=logs["infos"], **kw)
    return extras, logs


def texts(menu) -> list[str]:
    return [a.text() for a in menu.actions()]


def test_menu_entries_are_added_to_file_and_robot(stub_window, session):
    extras, _ = install(stub_window, session)
    file_texts = texts(find_menu(stub_window, "File"))
    assert file_texts[:5] == ["&Open robot file\u2026", "Open &recent",
                              "Import ROBOOP / Rob_Mat robot\u2026",
                              "Load Rob_Mat motion (.MOT)\u2026", "Export as ROBOOP .conf\u2026"]
    assert file_texts[-1] == "&Quit"
    robot_texts = texts(find_menu(stub_window, "Robot"))
    assert robot_texts[-1] == "Symbolic kinematics (T and J)\u2026"
    assert extras.parent() is stub_window


def test_import_conf_from_the_menu_sets_the_session_robot(stub_window, session):
    opened = Log()
    extras, logs = install(stub_window, session,
                           open_file=lambda *a: (opened(a[1]), str(PUMA_CONF))[1])
    stub_window.statusBar()
    extras.act_import.trigger()  # the file dialog is the injected one
    expected, msgs = read_roboop(PUMA_CONF)
    assert session.robot == expected and session.robot.name == "Unimation Puma 560"
    assert session.robot.n == 6 and not session.robot.is_mdh
    assert opened == ["Import ROBOOP / Rob_Mat robot"]
    assert logs["errors"] == [] and msgs == [] and logs["infos"] == []
    assert "Unimation Puma 560" in stub_window.statusBar().currentMessage()
    # the imported kinematics are the library Puma's (same D-H table, d1 = 0)
    q = load_robot("puma560").random_q(4, seed=1)
    np.testing.assert_allclose(session.robot.fkine(q), load_robot("puma560").fkine(q),
                               atol=1e-12)


def test_conf_without_dh_key_asks_for_the_convention(stub_window, session, tmp_path):
    text = PUMA_CONF.read_text().replace("DH:              1\n", "")
    assert "DH:" not in text
    path = tmp_path / "nodh.conf"
    path.write_text(text)
    robot = session.robot
    extras, logs = install(stub_window, session, choose=Chooser(None))
    assert extras.import_robot_file(path) is False  # cancelled: nothing changes
    assert session.robot is robot and logs["errors"] == []
    chooser = Chooser(1)
    extras.choose = chooser
    assert extras.import_robot_file(path) is True
    assert session.robot.is_mdh and chooser.asked[0][1] == list(CONVENTION_CHOICES)
    assert "'DH'" in chooser.asked[0][0]
    assert open_legacy_robot(None, path, choose=Chooser(0), present_error=Log()).is_mdh is False


def test_conf_with_two_robots_asks_which(tmp_path):
    second = PUMA_CONF.read_text().replace("PUMA560_STD", "OTHER").replace(
        "Unimation Puma 560", "Other arm")
    path = tmp_path / "two.conf"
    path.write_text(PUMA_CONF.read_text() + "\n" + second)
    chooser = Chooser(1)
    robot = open_legacy_robot(None, path, choose=chooser, present_error=Log())
    assert robot.name == "Other arm"
    assert chooser.asked[0][1] == ["PUMA560_STD  (Unimation Puma 560)", "OTHER  (Other arm)"]


def test_malformed_conf_shows_the_error_and_keeps_the_robot(stub_window, session, tmp_path):
    bad = tmp_path / "bad.conf"
    bad.write_text(PUMA_CONF.read_text().replace("a:            0.4318", "a:0.4318"))
    with pytest.raises(LegacyFormatError) as info:
        read_roboop(bad)
    robot, q = session.robot, session.q.copy()
    extras, logs = install(stub_window, session)
    assert extras.import_robot_file(bad) is False
    assert session.robot is robot
    np.testing.assert_array_equal(session.q, q)
    assert logs["errors"] == [("Cannot import robot", str(info.value))]
    assert "a:0.4318" in logs["errors"][0][1] and "line" in logs["errors"][0][1]
    assert extras.import_robot_file(tmp_path / "missing.conf") is False
    assert "missing.conf" in logs["errors"][1][1]


def test_lenient_quirks_are_reported_as_warnings(tmp_path):
    # a duplicate key: ROBOOP takes the first; robogui reads it and warns (non-blocking)
    text = PUMA_CONF.read_text().replace("dof:             6\n",
                                         "dof:             6\ndof:             5\n")
    path = tmp_path / "dup.conf"
    path.write_text(text)
    infos = Log()
    robot = open_legacy_robot(None, path, present_error=Log(), present_info=infos)
    assert robot.n == 6
    assert len(infos) == 1 and infos[0][0] == "Imported with warnings"
    assert "duplicate key 'dof'" in infos[0][1]


def test_robmat_dat_and_mot_load_as_robot_and_trajectory(stub_window, tmp_path):
    session = Session(load_robot("twolink"))
    extras, logs = install(stub_window, session)
    stub_window.statusBar()
    assert extras.import_robot_file(SAMPLES / "scara.dat") is True
    robot = session.robot
    assert robot.n == 3 and robot.name == "scara"
    # Rob_Mat files have no limits: the prismatic joint gets the arm's reach, and says so
    assert robot.links[2].joint == "P"
    reach = load_robot(SAMPLES / "scara.dat").reach  # 0.66 m: a1 + a2
    np.testing.assert_allclose(robot.links[2].qlim, (-reach, reach))
    assert len(logs["infos"]) == 1 and "prismatic joint 3" in logs["infos"][0][1]
    note = stub_window.statusBar().currentMessage()
    assert "motions (.MOT) load as a trajectory" in note and "scara.mot" in note
    assert extras.load_motion_file(SAMPLES / "scara.mot") is True
    traj = session.trajectory
    mot = read_mot(SAMPLES / "scara.mot", nlink=3)
    assert isinstance(traj, Trajectory) and traj.info["dt"] == mot.dt == 0.05
    np.testing.assert_allclose(traj.t, mot.dt * np.arange(mot.q.shape[0]))
    np.testing.assert_array_equal(traj.q, mot.q)
    np.testing.assert_array_equal(traj.qdd, mot.qdd)
    np.testing.assert_allclose(session.q, mot.q[0])
    assert logs["errors"] == []
    # the joint variables carry over: rne over the motion is finite and uses q as given
    tau = rne(session.robot, traj.q, traj.qd, traj.qdd)
    assert tau.shape == (mot.q.shape[0], 3) and np.all(np.isfinite(tau))


def test_bad_motion_shows_the_error_and_keeps_the_trajectory(stub_window, tmp_path):
    session = Session(load_robot("twolink"))
    extras, logs = install(stub_window, session)
    bad = tmp_path / "bad.mot"
    bad.write_text("0.05\n0 1 10\n0 2\n")  # the last step is incomplete
    with pytest.raises(LegacyFormatError) as info:
        load_robmat_motion(bad, session.robot)
    assert extras.load_motion_file(bad) is False
    assert session.trajectory is None
    assert logs["errors"] == [("Cannot load motion", str(info.value))]
    assert "incomplete" in logs["errors"][0][1]
    # SMART's lateral offsets b sit on +-90 degree twists: it imports, and so does its motion
    assert extras.import_robot_file(SAMPLES / "smart.dat") is not False
    assert session.robot.name == "smart" and len(logs["errors"]) == 1
    good = load_robmat_motion(SAMPLES / "smart.mot", session.robot)
    assert good.q.shape[1] == 6 and good.info["dt"] > 0


def test_export_conf_round_trips(stub_window, session, tmp_path):
    extras, logs = install(stub_window, session)
    imported, _ = read_roboop(PUMA_CONF)
    session.set_robot(imported)
    out = tmp_path / "puma.conf"
    extras.save_file = lambda *a: str(out)
    extras.act_export_conf.trigger()
    assert out.is_file() and not list(tmp_path.glob(".*.tmp"))
    back, msgs = read_roboop(out)
    assert back == imported and msgs == []
    # the library Puma: kinematics and dynamics survive (ROBOOP keeps |G| and one Coulomb)
    lib = load_robot("puma560")
    session.set_robot(lib)
    assert extras.export_conf_file(tmp_path / "lib.conf") == tmp_path / "lib.conf"
    back, _ = read_roboop(tmp_path / "lib.conf")
    rng = np.random.default_rng(4)
    q = rng.uniform(-1, 1, (5, 6))
    np.testing.assert_allclose(back.fkine(q), lib.fkine(q), atol=1e-12)
    qd, qdd = rng.normal(size=(2, 5, 6))
    np.testing.assert_allclose(rne(back.nofriction(), q, qd, qdd),
                               rne(lib.nofriction(), q, qd, qdd), atol=1e-9)
    assert logs["errors"] == []


def test_export_conf_with_a_tool_asks_first(session, tmp_path):
    robot = session.robot.with_tool(transl(0, 0, 0.2))
    asked = Log()
    out = tmp_path / "t.conf"
    no = lambda parent, title, text: (asked(text), False)[1]
    assert export_roboop(None, robot, out, confirm=no, present_error=Log()) is None
    assert not out.exists() and "tool" in asked[0]
    assert export_roboop(None, robot, out, confirm=lambda *a: True) == out
    back, _ = read_roboop(out)
    assert back.tool_is_identity and back.n == 6
    errs = Log()
    assert export_roboop(None, session.robot, tmp_path / "nodir" / "x.conf",
                         present_error=errs) is None
    assert errs[0][0] == "Cannot export robot" and "nodir" in errs[0][1]


def test_symbolic_action_opens_one_dialog(qtbot, stub_window, session):
    extras, _ = install(stub_window, session)
    extras.act_symbolic.trigger()
    dlg = extras.symbolic_dialog
    assert isinstance(dlg, SymbolicDialog) and dlg.isVisible() and not dlg.isModal()
    assert extras.show_symbolic() is dlg  # already open: raised, not duplicated
    qtbot.waitUntil(lambda: dlg.view is not None, timeout=20000)
    assert dlg.view.key == session.robot.key
    dlg.close()
    assert wait_for_derivations()
    again = extras.show_symbolic()
    assert again is not dlg and again.isVisible()
    again.close()
    # closed (and deleted) while the worker thread derives: the late result goes nowhere
    from robogui.engine.kinematics.symbolic import clear_cache

    clear_cache()
    third = extras.show_symbolic()
    assert third.is_busy
    third.close()
    qtbot.waitUntil(lambda: not isValid(third))  # WA_DeleteOnClose
    assert wait_for_derivations()
    qtbot.wait(20)  # the thread's queued signals arrive after the dialog is gone


def test_install_into_the_real_main_window(window, session):
    extras = install_symbolic_and_legacy_actions(window, session)
    assert extras.present_error is window.error_presenter
    file_texts = texts(find_menu(window, "File"))
    assert "Import ROBOOP / Rob_Mat robot\u2026" in file_texts
    assert file_texts.index("Import ROBOOP / Rob_Mat robot\u2026") < \
        file_texts.index(next(t for t in file_texts if "screenshot" in t))
    assert extras.import_robot_file(PUMA_CONF) is True
    assert session.robot.name == "Unimation Puma 560"
    assert "Unimation Puma 560" in window.windowTitle()


def test_open_robot_file_routes_legacy_files_and_keeps_the_robot_on_error(qtbot, tmp_path):
    from robogui.app.files.library import load_into_session

    session = Session(load_robot("puma560"))
    errors = []
    present = lambda title, text: errors.append(text)  # noqa: E731
    # a Rob_Mat robot: its prismatic joint gets a travel, so the session can pose it
    assert load_into_session(session, SAMPLES / "scara.dat", present)
    assert session.robot.structure == "RRP" and not errors
    bad = tmp_path / "bad.conf"
    bad.write_text("[ROBOT\ndof: 2\n")
    assert not load_into_session(session, bad, present)
    assert session.robot.structure == "RRP"
    assert errors and "bad.conf" in errors[-1]
