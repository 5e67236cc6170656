"""Package folders in the app (issue 27 item 2): Settings > Package folders, and
"Locate package NAME..." when a robot needs a ``package://NAME`` or ``$(find NAME)`` that
robogui cannot find.

The folders are remembered in QSettings (``Settings.package_folders``) and applied to every
later load with :func:`robogui.io.ros.urdf.set_package_path`, after the command line's
``--package-path`` folders (which are not remembered). A folder may also be a
``NAME=DIR`` mapping. Locating a package asks for its folder, remembers it, and opens the
robot again. The folder chooser is injectable so tests fill the dialog as a person does.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.io.ros.urdf import package_path, set_package_path

__all__ = ["PackageFoldersDialog", "PackageFolders", "install_package_folders",
           "missing_package"]

#: ``ask_folder(parent, caption, start_dir) -> folder or None``
FolderChooser = Callable[[QtWidgets.QWidget, str, str], "str | None"]

_MISSING = (re.compile(r"\$\(find ([\w.\-]+)\): no package"),
            re.compile(r"package://([\w.\-]+)/[^\s()]*\s*\(no such package"))


def missing_package(text: str) -> str | None:
    """The package NAME an error or warning says robogui cannot find, else None."""
    for pattern in _MISSING:
        m = pattern.search(text)
        if m:
            return m.group(1)
    return None


def _ask_folder(parent, caption: str, start: str) -> str | None:
    return QtWidgets.QFileDialog.getExistingDirectory(parent, caption, start) or None


class PackageFoldersDialog(QtWidgets.QDialog):
    """The folders robogui searches for packages: a list (``packageFolderList``), a field to
    type a folder (``packageFolderEdit``), Add (the typed folder, or a chooser when the
    field is empty), Remove (the selected rows), OK and Cancel."""

    def __init__(self, parent, folders: list[str], ask_folder: FolderChooser):
        super().__init__(parent)
        self.setObjectName("packageFolders")
        self.setWindowTitle("Package folders")
        self.ask_folder = ask_folder
        lay = QtWidgets.QVBoxLayout(self)
        lay.addWidget(QtWidgets.QLabel(
            "Folders searched for package://NAME and $(find NAME), each a folder holding "
            "packages, a package folder, or NAME=DIR:"))
        self.list = QtWidgets.QListWidget(self)
        self.list.setObjectName("packageFolderList")
        self.list.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.addItems(folders)
        lay.addWidget(self.list)
        row = QtWidgets.QHBoxLayout()
        self.edit = QtWidgets.QLineEdit(self)
        self.edit.setObjectName("packageFolderEdit")
        self.edit.setPlaceholderText("a folder, or NAME=DIR (empty: choose one)")
        self.edit.returnPressed.connect(self.add)
        self.add_button = QtWidgets.QPushButton("&Add", self)
        self.add_button.setObjectName("packageFolderAdd")
        self.add_button.setAutoDefault(False)
        self.add_button.clicked.connect(self.add)
        self.remove_button = QtWidgets.QPushButton("&Remove", self)
        self.remove_button.setObjectName("packageFolderRemove")
        self.remove_button.setAutoDefault(False)
        self.remove_button.clicked.connect(self.remove)
        row.addWidget(self.edit, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        lay.addLayout(row)
        self.note = QtWidgets.QLabel("", self)
        self.note.setObjectName("packageFolderNote")
        lay.addWidget(self.note)
        self.buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel, parent=self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.resize(560, 320)

    def folders(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def add(self) -> None:
        text = self.edit.text().strip()
        if not text:
            text = self.ask_folder(self, "Add a package folder", "") or ""
        if not text:
            return
        name, eq, folder = text.partition("=")
        target = folder if eq and name and "/" not in name and os.sep not in name else text
        if not Path(target).expanduser().is_dir():
            self.note.setText(f"Not a folder: {target[:200]}")
            return
        if text not in self.folders():
            self.list.addItem(text)
        self.edit.clear()
        self.note.setText("")

    def remove(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))


class PackageFolders(QtCore.QObject):
    """The Settings > Package folders action and "Locate package NAME..." for a window with
    ``settings``, ``error_presenter``, ``open_robot`` and ``robot_path``."""

    def __init__(self, window, ask_folder: FolderChooser | None = None):
        super().__init__(window)
        self.window = window
        self.ask_folder = ask_folder or _ask_folder
        self.given = list(package_path())  # the command line's: applied, not remembered
        self.dialog: PackageFoldersDialog | None = None
        self.box: QtWidgets.QMessageBox | None = None
        self._offered: set[tuple[str, str]] = set()
        self.apply()
        self.action = QtGui.QAction("&Package folders...", window)
        self.action.setObjectName("actionPackageFolders")
        self.action.setStatusTip("folders searched for package://NAME and $(find NAME)")
        self.action.triggered.connect(self.show_dialog)
        self._present = window.error_presenter
        window.error_presenter = self.present
        view = getattr(window, "view", None)
        if view is not None and hasattr(view, "meshWarning"):
            view.meshWarning.connect(self._mesh_warning)

    def folders(self) -> list[str]:
        return self.window.settings.package_folders()

    def apply(self) -> None:
        """Every later load searches the command line's folders, then the remembered ones."""
        saved = [f for f in self.folders() if f not in self.given]
        set_package_path(self.given + saved)

    def set_folders(self, folders: list[str]) -> None:
        self.window.settings.set_package_folders(folders)
        self.apply()

    def show_dialog(self) -> PackageFoldersDialog:
        """Settings > Package folders: the dialog (window-modal); OK keeps its list."""
        dlg = PackageFoldersDialog(self.window, self.folders(), self.ask_folder)
        dlg.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.accepted.connect(lambda: self.set_folders(dlg.folders()))
        self.dialog = dlg
        dlg.open()
        return dlg

    # -- a package robogui cannot find -------------------------------------------------------
    def present(self, title: str, text: str) -> None:
        """The window's error presenter: an error naming a missing package offers to
        locate it; any other goes to the presenter it had."""
        name = missing_package(text)
        if name is None:
            self._present(title, text)
            return
        self.offer(name, title, text, getattr(self.window, "opening", None))

    def _mesh_warning(self, text: str) -> None:
        name = missing_package(text)
        # the view warns while the robot is being opened, before robot_path is set
        path = getattr(self.window, "opening", None) or getattr(self.window, "robot_path", None)
        path = None if path is None else str(path)
        if name is None or path is None or (name, path) in self._offered:
            return
        self._offered.add((name, path))  # once per package and robot file
        self.offer(name, "Missing package", f"{path}: meshes of the package {name!r} cannot "
                   f"be found ({text[:300]})", path)

    def offer(self, name: str, title: str, text: str, retry) -> QtWidgets.QMessageBox:
        """A non-modal box (``missingPackageBox``) with the error and "Locate package
        NAME...": the folder asked for is remembered and ``retry`` (a robot) opened again."""
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Icon.Warning, title, text,
                                    QtWidgets.QMessageBox.StandardButton.Close, self.window)
        box.setObjectName("missingPackageBox")
        box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setWindowModality(QtCore.Qt.WindowModality.NonModal)
        locate = box.addButton(f"&Locate package {name}...",
                               QtWidgets.QMessageBox.ButtonRole.ActionRole)
        locate.setObjectName("locatePackage")
        locate.clicked.connect(lambda: self.locate(name, retry))
        self.box = box
        box.show()
        return box

    def locate(self, name: str, retry=None) -> bool:
        """Ask for the folder of package ``name`` (the package folder itself, or one that
        holds it), remember it, and open ``retry`` again. True when it opened."""
        folder = self.ask_folder(self.window, f"Where is the package {name}?", "")
        if not folder:
            return False
        entry = f"{name}={folder}" if Path(folder).name != name and not (
            Path(folder) / name).is_dir() else folder
        folders = self.folders()
        if entry not in folders:
            self.set_folders(folders + [entry])
        self._offered = {o for o in self._offered if o[0] != name}
        if retry:
            return bool(self.window.open_robot(retry))
        return False


def install_package_folders(window, ask_folder: FolderChooser | None = None) -> PackageFolders:
    """Add Settings > Package folders to ``window`` (before Help) and route its
    missing-package errors to "Locate package NAME..."."""
    pf = PackageFolders(window, ask_folder)
    bar = window.menuBar()
    menu = next((a.menu() for a in bar.actions() if a.menu() is not None
                 and a.menu().title().replace("&", "") == "Settings"), None)
    if menu is None:
        menu = QtWidgets.QMenu("&Settings", bar)
        help_action = next((a for a in bar.actions() if a.menu() is not None
                            and a.menu().title().replace("&", "") == "Help"), None)
        if help_action is not None:
            bar.insertMenu(help_action, menu)
        else:
            bar.addMenu(menu)
    menu.addAction(pf.action)
    return pf
