"""Main window: robot library and files, bad files, menus, settings, screenshots, errors."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.app.files import library
from robogui.app.panels.dh_table import dh_rows
from robogui.app.shell.errors import install_excepthook
from robogui.app.shell.main_window import MainWindow
from robogui.io.robotfile import RobotFileError, load_robot, save_robot

BAD = """format = "robogui-robot 1"
name = "broken"
convention = "standard"
units = "rad"

[[links]]
joint = "R"
d = 0.0
a = 1.0
alpha = "ninety"
"""


def test_loading_a_bad_file_keeps_the_robot_and_shows_the_error(window, session, errors,
                                                                 tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text(BAD)
    robot, q = session.robot, session.q.copy()
    with pytest.raises(RobotFileError) as info:
        load_robot(bad)
    assert window.open_robot(bad) is False
    assert session.robot is robot
    np.testing.assert_array_equal(session.q, q)
    assert errors == [("Cannot open robot", str(info.value))]
    assert "broken.toml" in errors[0][1] and "alpha" in errors[0][1]
    assert window.open_robot(tmp_path / "missing.toml") is False
    assert "missing.toml" in errors[1][1]
    assert len(window.joint_panel.rows) == 6


def test_default_error_presenter_is_a_non_modal_box(qtbot, session, settings, tmp_path):
    win = MainWindow(session, settings=settings, restore=False)
    qtbot.addWidget(win)
    win.show()
    bad = tmp_path / "broken.toml"
    bad.write_text(BAD)
    assert not win.open_robot(bad)  # returns at once: nothing blocks
    boxes = [b for b in win.findChildren(QtWidgets.QMessageBox) if b.objectName() == "errorBox"]
    assert len(boxes) == 1 and boxes[0].isVisible()
    assert "broken.toml" in boxes[0].text() and not boxes[0].isModal()
    boxes[0].close()
    assert session.robot.name == "Puma 560"


def test_library_picker_and_files(window, session, settings, tmp_path):
    picker = window.picker
    assert "stanford" in picker.names and len(picker.names) >= 12
    picker.activated.emit(picker.names.index("stanford"))
    assert session.robot.name == "Stanford arm" and session.robot.structure == "RRPRRR"
    assert picker.currentText() == "stanford" and len(window.joint_panel.rows) == 6
    assert "Stanford arm" in window.windowTitle()
    # a robot saved to a file opens from it and goes into the recent files
    r = load_robot("twolink").replace(name="my arm")
    path = save_robot(r, tmp_path / "my_arm.toml")
    assert window.open_robot(str(path))
    assert session.robot.name == "my arm" and picker.currentIndex() == -1
    # the box names the file robot instead of going blank
    assert picker.placeholderText() == "my arm (my_arm.toml)"
    assert "my arm (my_arm.toml)" in picker.toolTip()
    window.undo.stack.undo()  # back to the library robot: its entry again
    assert picker.currentText() == "stanford" and picker.placeholderText() == ""
    window.undo.stack.redo()
    assert settings.recent_files()[0] == str(path.resolve())
    window._fill_recent()
    assert [a.text() for a in window.recent_menu.actions()] == ["my_arm.toml"]


def test_menus_and_view_toggles(window, session):
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles == ["File", "Edit", "Robot", "View", "Settings", "Help"]
    act = window.toggle_actions["show_shadow"]
    assert act.isChecked()
    act.trigger()
    assert session.display.show_shadow is False
    session.display.show_shadow = True
    assert act.isChecked()
    window.act_ortho.trigger()
    assert session.display.projection == "orthographic"
    assert window.view._projection == "orthographic"
    window.camera_actions["top"].trigger()
    assert window.view.opts["elevation"] == 90
    window.act_noa.setChecked(True)
    assert session.display.wrist_labels == "noa"
    box = window.show_shortcuts()
    assert "Ctrl+O" in box.text()
    box.close()


def test_no_stray_tab_bar_over_the_docks(qtbot, session, settings):
    # guard: tabbing the plot docks in a hidden window once left a visible "Torques |
    # Manipulability" bar over the Program dock (seen with create_app at 1600x1000; not
    # reproduced under pytest-qt), and restoring a task's layout left the previous tab
    # bars on screen; each visible bar must be one tab group of docks in sight
    win = MainWindow(session, settings=settings, restore=False)
    qtbot.addWidget(win)
    win.resize(1600, 1000)
    win.show()
    qtbot.waitExposed(win)
    win.ensure_plots()
    qtbot.wait(50)
    expected = {"drive": set(), "teach": {"Jog", "Go to", "Program"},
                "analyse": {"Torques", "Manipulability", "Joint state", "Clearance"}}
    for task in ("teach", "analyse", "drive", "analyse", "teach", "drive"):
        win.tasks.actions[task].trigger()
        qtbot.wait(30)
        bars = [b for b in win.findChildren(QtWidgets.QTabBar) if b.isVisible()]
        titles = [b.tabText(i) for b in bars for i in range(b.count())]
        assert sorted(titles) == sorted(set(titles))
        assert set(titles) == expected[task], task
    win.close()


def test_dh_table_shows_the_robot(qtbot, window, session):
    assert window.dh_dock.isHidden()
    plots = window.ensure_plots()
    window.dh_dock.toggleViewAction().trigger()
    assert window.dh_dock.isVisible()
    # full width under the view, not a sliver squeezed beside the plots
    assert plots.docks  # built, in the Analyse task
    qtbot.waitUntil(lambda: window.dh_dock.width() > window.width() // 2)
    m = window.dh_table.model
    assert m.rowCount() == 6
    head, rows = dh_rows(session.robot, "deg")
    shown = [m.headerData(k, QtCore.Qt.Orientation.Horizontal) for k in range(m.columnCount())]
    assert [h.split(" [")[0] for h in shown] == [h.split(" [")[0] for h in head]
    # lengths in the app's length unit (mm by default), angles in its angle unit
    assert m.index(1, 4).data() == "431.8" and m.index(0, 5).data() == "90"
    assert m.index(1, 10).data() == "17.4"  # Puma link 2 mass
    assert m.index(0, 0).flags() & QtCore.Qt.ItemFlag.ItemIsEditable  # the D-H editor
    window.open_robot("puma560akb")
    assert m.headerData(4, QtCore.Qt.Orientation.Horizontal) == "a(i-1) [mm]"


def test_settings_persist_layout_units_and_recent(qtbot, session, settings, tmp_path):
    win = MainWindow(session, settings=settings, restore=False)
    qtbot.addWidget(win)
    win.resize(1234, 777)
    win.show()
    qtbot.waitExposed(win)
    win.dh_dock.show()
    session.display.update(angle_unit="rad", orientation="quaternion", show_shadow=False)
    win.close()
    from robogui.session import Session

    s2 = Session(session.robot)
    win2 = MainWindow(s2, settings=settings)
    qtbot.addWidget(win2)
    win2.show()
    qtbot.waitExposed(win2)
    assert (win2.width(), win2.height()) == (1234, 777)
    assert win2.dh_dock.isVisible()
    assert s2.display.angle_unit == "rad" and s2.display.orientation == "quaternion"
    assert s2.display.show_shadow is False
    assert win2.joint_panel.rows[0].unit.text() == "rad"
    win2.close()


def test_plot_docks_show_in_analyse_and_keep_their_visibility(qtbot, settings):
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    def start():  # as run_app does: restore the layout, plots after the first frame
        win = MainWindow(Session(load_robot("puma560")), settings=settings, restore=True,
                         defer_plots=True)
        qtbot.addWidget(win)
        win.show()
        qtbot.waitExposed(win)
        docks = win.ensure_plots().docks
        qtbot.wait(20)
        return win, docks

    win, docks = start()  # a fresh configuration: nothing saved yet
    assert win.tasks.current == "drive" and docks["torques"].isHidden()
    win.tasks.actions["analyse"].trigger()  # View > Analyse (Ctrl+3)
    qtbot.waitUntil(docks["torques"].isVisible)
    docks["manipulability"].hide()
    win.close()
    for _ in range(2):  # and the same again after a restart with the saved layout
        win, docks = start()
        assert win.tasks.current == "analyse"
        assert docks["torques"].isVisible() and docks["joint_state"].isVisible()
        assert docks["manipulability"].isHidden()
        win.close()


def test_plot_docks_exist_from_the_first_frame_and_a_quick_close_keeps_them(qtbot, settings):
    """First start under load: the window closes before the plot panels were built. The
    plot docks existed from the start, so the saved layout has them, shown."""
    from robogui.io.robotfile import load_robot
    from robogui.session import Session

    def make():
        win = MainWindow(Session(load_robot("puma560")), settings=settings, restore=True,
                         defer_plots=True)
        qtbot.addWidget(win)
        return win

    win = make()
    names = {d.objectName() for d in win.findChildren(QtWidgets.QDockWidget)}
    assert {"dock_torques", "dock_manipulability", "dock_joint_state"} <= names
    win.show()
    qtbot.waitExposed(win)
    assert win.plot_docks is None  # the panels come after the first frame
    torques = win.findChild(QtWidgets.QDockWidget, "dock_torques")
    assert win.tasks.current == "drive" and torques.isHidden()  # the Analyse task's
    win.tasks.actions["analyse"].trigger()
    assert torques.isVisible() and win.plot_docks is None
    win.close()  # before the panels were built
    win = make()
    win.show()
    qtbot.waitExposed(win)
    assert win.tasks.current == "analyse"
    docks = win.ensure_plots().docks
    qtbot.wait(20)
    assert docks["torques"].isVisible() and docks["joint_state"].isVisible()
    assert docks["torques"] is win.findChild(QtWidgets.QDockWidget, "dock_torques")
    assert not isinstance(docks["torques"].widget(), QtWidgets.QLabel)  # the real panel
    win.close()


def test_screenshot_of_the_window(window, tmp_path):
    path = window.save_screenshot(tmp_path / "shot.png")
    img = QtGui.QImage(str(path))
    assert (img.width(), img.height()) == (window.width(), window.height())
    # the 3D view is in it (not a black hole): its centre has the view's content
    c = window.view.mapTo(window, window.view.rect().center())
    view_img = window.view.grab_image()
    p1 = QtGui.QColor(img.pixel(c)).getRgb()[:3]
    p2 = QtGui.QColor(view_img.pixel(window.view.rect().center())).getRgb()[:3]
    assert np.abs(np.subtract(p1, p2)).max() <= 3
    with pytest.raises(OSError):
        window.save_screenshot(tmp_path / "no_such_dir" / "x.png")


def test_uncaught_slot_errors_are_shown_not_fatal(errors):
    old = install_excepthook(errors)
    try:
        try:
            raise ValueError("q must have shape (6,)")
        except ValueError:
            sys.excepthook(*sys.exc_info())
    finally:
        sys.excepthook = old
    assert errors[0][0] == "Unexpected error" and "q must have shape (6,)" in errors[0][1]


def test_load_into_session_reports_and_keeps(session, errors, tmp_path):
    assert not library.load_into_session(session, "no_such_robot_name", errors)
    assert session.robot.name == "Puma 560" and len(errors) == 1
    assert library.load_into_session(session, "ur5", errors)
    assert session.robot.name == "UR5"


def test_startup_files_and_playhead_time(window, session, errors):
    from robogui.session.motion.trajectories import load_trajectory_csv

    assets = Path(__file__).resolve().parents[3] / "assets"
    window.open_startup_files(program=assets / "pick-and-place.prog",
                              trajectory=assets / "puma560-demo.csv", time_s=4.5)
    traj = load_trajectory_csv(assets / "puma560-demo.csv", session.robot)
    assert errors == [] and window.teach.state.program.name == "pick and place demo"
    assert session.time == 4.5 and not session.is_changing
    np.testing.assert_allclose(session.q, session.q_at(4.5), atol=1e-12)
    assert not np.allclose(session.q, traj.q[0])
    window.open_startup_files(time_s=99.0)  # clamped to the trajectory's end
    assert session.time == pytest.approx(float(traj.t[-1]))
    window.open_startup_files(trajectory=assets / "no-such.csv")
    assert errors and session.trajectory is not None  # reported, the trajectory kept


def test_autosave_can_be_switched_off(qtbot, session, settings):
    win = MainWindow(session, settings=settings, restore=False, autosave_path=False)
    qtbot.addWidget(win)
    assert win.teach.state.autosaver is None


def test_the_last_robot_is_reopened_at_the_next_start(qtbot, session, settings, errors,
                                                      tmp_path, monkeypatch):
    """Issue 28 item 5: the robot open when robogui closed (a library robot or a file) is
    the one the next start opens, as the user guide says; the start is not an undo step;
    a file that went away leaves the default robot and a note."""
    from robogui import cli
    from robogui.app.shell.main_window import MainWindow
    from robogui.io.robotfile import load_robot, save_robot
    from robogui.session import Session

    def start():
        win = MainWindow(Session(load_robot("puma560")), settings=settings,
                         error_presenter=errors, autosave_path=False)
        qtbot.addWidget(win)
        win.show()
        return win

    win = start()
    win.picker.activated.emit(win.picker.names.index("stanford"))  # the robot box
    assert win.session.robot.name.lower().startswith("stanford")
    win.close()
    win2 = start()
    assert win2.reopen_last_robot()
    assert win2.session.robot.name == load_robot("stanford").name
    assert win2.picker.currentText() == "stanford"
    assert not win2.undo.stack.canUndo()  # the start is not something to undo
    # a robot file, reopened from its file
    path = save_robot(load_robot("twolink"), tmp_path / "two.toml")
    assert win2.open_robot(str(path))
    win2.close()
    win3 = start()
    assert win3.reopen_last_robot() and win3.robot_path == str(path.resolve())
    win3.close()
    path.unlink()
    win4 = start()
    assert not win4.reopen_last_robot()
    assert win4.session.robot.name == load_robot("puma560").name
    assert "not there any more" in win4.statusBar().currentMessage()
    win4.close()
    # the command line asks for it only when no robot (nor a pose) was named
    seen = {}
    monkeypatch.setattr("robogui.app.shell.main_window.run_app",
                        lambda session, **kw: seen.update(kw) or 0)
    assert cli.main([]) == 0 and seen["reopen_last"] is True
    assert cli.main(["--robot", "ur5"]) == 0 and seen["reopen_last"] is False
    assert cli.main(["--demo"]) == 0 and seen["reopen_last"] is False
