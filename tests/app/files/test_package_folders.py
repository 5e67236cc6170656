"""Issue 27 item 2: Settings > Package folders (a list, a field to type a folder, Add,
Remove, OK; remembered in QSettings and applied to every later load), and an error about
a missing package offering "Locate package NAME...", which asks for the folder,
remembers it and opens the robot again. Acted as a person: menu action, typing into the
dialog's field, clicking its buttons and the error box's button."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from robogui.io.ros.urdf import package_path, set_package_path
from tests.urdf_files import IRB140, KR5, RTB


@pytest.fixture(autouse=True)
def _keep_package_path():
    old = package_path()
    yield
    set_package_path(old)


def _menu_action(window, menu_title: str, text: str):
    for a in window.menuBar().actions():
        if a.menu() is not None and a.menu().title().replace("&", "") == menu_title:
            for b in a.menu().actions():
                if b.text().replace("&", "") == text:
                    return b
    raise AssertionError(f"no {menu_title} > {text}")


def _click(qtbot, button) -> None:
    qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)


def _mesh_parts(window):
    return [p for p in window.view._parts if p.kind == "mesh"]


def test_settings_package_folders_dialog_adds_removes_and_applies(qtbot, window, session,
                                                                  settings):
    # without its package the IRB 140 opens as sticks: its meshes are package:// names
    assert window.open_robot(IRB140) is True
    assert not _mesh_parts(window)
    box = window.package_folders.box  # the warning offers to locate the package
    assert box is not None and "abb_irb140_support" in box.findChild(
        QtWidgets.QPushButton, "locatePackage").text()
    box.close()

    _menu_action(window, "Settings", "Package folders...").trigger()
    dlg = window.package_folders.dialog
    assert dlg is not None and dlg.isVisible()
    edit = dlg.findChild(QtWidgets.QLineEdit, "packageFolderEdit")
    folders = dlg.findChild(QtWidgets.QListWidget, "packageFolderList")
    add = dlg.findChild(QtWidgets.QPushButton, "packageFolderAdd")
    remove = dlg.findChild(QtWidgets.QPushButton, "packageFolderRemove")
    # a folder that is not there is refused with a note, nothing added
    qtbot.keyClicks(edit, "/no/such/folder")
    _click(qtbot, add)
    assert folders.count() == 0 and "Not a folder" in dlg.note.text()
    edit.clear()
    entry = f"abb_irb140_support={RTB / 'abb_irb140_description'}"
    qtbot.keyClicks(edit, entry)
    _click(qtbot, add)
    qtbot.keyClicks(edit, str(RTB / "kuka_description"))
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)  # Enter adds too
    assert [folders.item(i).text() for i in range(folders.count())] == [
        entry, str(RTB / "kuka_description")]
    folders.item(1).setSelected(True)
    _click(qtbot, remove)
    assert folders.count() == 1
    _click(qtbot, dlg.buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok))
    assert settings.package_folders() == [entry]  # remembered
    assert entry in package_path()  # and applied
    # the IRB 140 now opens with its meshes
    assert window.open_robot(IRB140) is True
    assert len(_mesh_parts(window)) >= 6
    assert not window.view.mesh_warnings


def test_a_missing_package_is_located_remembered_and_the_robot_opens(qtbot, window, session,
                                                                     settings, errors):
    asked = []

    def choose(parent, caption, start):  # the folder dialog, answered as a person would
        asked.append(caption)
        return str(RTB / "kuka_description/kuka_kr5")

    window.package_folders.ask_folder = choose
    before = session.robot
    assert window.open_robot(KR5) is False
    assert session.robot is before  # the robot stays
    box = window.package_folders.box
    assert box.objectName() == "missingPackageBox" and box.isVisible()
    assert "$(find kuka_kr5_support): no package 'kuka_kr5_support'" in box.text()
    button = box.findChild(QtWidgets.QPushButton, "locatePackage")
    assert button.text().replace("&", "") == "Locate package kuka_kr5_support..."
    _click(qtbot, button)  # asks for the folder, remembers it, opens the file again
    assert asked == ["Where is the package kuka_kr5_support?"]
    assert session.robot is not before
    assert session.robot.n == 6 and session.robot.tip == "tool0"
    assert window.robot_path == str(KR5.resolve())
    # the folder is not named for the package: remembered as NAME=DIR
    assert settings.package_folders() == [
        f"kuka_kr5_support={RTB / 'kuka_description/kuka_kr5'}"]
    assert errors == []  # the package errors went to the box, not the plain presenter


def test_remembered_package_folders_apply_in_a_new_window(qtbot, session, settings, errors):
    from robogui.app.shell.main_window import MainWindow

    entry = f"abb_irb140_support={RTB / 'abb_irb140_description'}"
    settings.set_package_folders([entry, entry])
    assert settings.package_folders() == [entry]
    set_package_path(["/given/on/the/command/line"])
    win = MainWindow(session, settings=settings, error_presenter=errors, restore=False)
    qtbot.addWidget(win)
    assert package_path() == ["/given/on/the/command/line", entry]
    # a plain error still goes to the window's presenter
    win.error_presenter("Cannot open robot", "x.urdf: not XML")
    assert errors == [("Cannot open robot", "x.urdf: not XML")]
    win.close()
