"""File and Robot menu entries for legacy robot files and the symbolic kinematics dialog.

:func:`install_symbolic_and_legacy_actions` adds to the main window's menus:

* File: "Import ROBOOP / Rob_Mat robot...", "Load Rob_Mat motion (.MOT)...",
  "Export as ROBOOP .conf...";
* Robot: "Symbolic kinematics (T and J)...".

It changes the session only through ``session.set_robot`` / ``session.set_trajectory``.
File dialogs, choosers and message boxes are injectable, so tests drive it without
dialogs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from ..files import library
from ..files.legacy_import import (
    CONF_FILTER,
    IMPORT_FILTER,
    MOTION_FILTER,
    export_roboop,
    open_legacy_robot,
    open_robmat_motion,
    show_info,
)
from ..symbolic.symbolic_dialog import SymbolicDialog
from ..symbolic.symbolic_text import code_name

__all__ = ["install_symbolic_and_legacy_actions", "SymbolicLegacyActions", "find_menu"]

#: ``open_file(parent, caption, start_dir, name_filter) -> path or None``
OpenFileChooser = Callable[[QtWidgets.QWidget, str, str, str], "str | None"]


def _open_file(parent, caption: str, start: str, name_filter: str) -> str | None:
    path, _ = QtWidgets.QFileDialog.getOpenFileName(parent, caption, start, name_filter)
    return path or None


def _save_file(parent, caption: str, suggested: str, name_filter: str) -> str | None:
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, caption, suggested, name_filter)
    return path or None


def find_menu(window: QtWidgets.QMainWindow, title: str) -> QtWidgets.QMenu:
    """The menu bar's menu called ``title`` (ampersands ignored); created when missing."""
    for act in window.menuBar().actions():
        menu = act.menu()
        if menu is not None and menu.title().replace("&", "") == title:
            return menu
    return window.menuBar().addMenu(title)


class SymbolicLegacyActions(QtCore.QObject):
    """The installed actions and what they do (a child of the window, so it lives as long).

    The ``*_file`` methods take an optional path (None: ask with a file dialog) and return
    what they did, so tests and scripts can call them directly.
    """

    def __init__(self, window, session, *, open_file: OpenFileChooser | None = None,
                 save_file=None, choose=None, confirm=None,
                 present_error: Callable[[str, str], None] | None = None,
                 present_info: Callable[[str, str], None] | None = None):
        super().__init__(window)
        self.window, self.session = window, session
        self.open_file = _open_file if open_file is None else open_file
        self.save_file = _save_file if save_file is None else save_file
        self.choose, self.confirm = choose, confirm
        # 'is None', not 'or': a presenter may be a falsy callable (an empty error log)
        if present_error is None:
            present_error = getattr(window, "error_presenter", None)
        if present_error is None:
            present_error = lambda t, x: library.show_error(window, t, x)
        self.present_error = present_error
        self.present_info = present_info if present_info is not None else (
            lambda t, x: show_info(window, t, x))
        self.symbolic_dialog: SymbolicDialog | None = None
        self._last_dir = ""

        def action(text, slot, tip):
            act = QtGui.QAction(text, window)
            act.setStatusTip(tip)
            act.triggered.connect(lambda _=False: slot())
            return act

        self.act_import = action("Import ROBOOP / Rob_Mat robot\u2026", self.import_robot_file,
                                 "read a ROBOOP .conf or SpaceLib Rob_Mat .DAT robot")
        self.act_motion = action("Load Rob_Mat motion (.MOT)\u2026", self.load_motion_file,
                                 "a SpaceLib Rob_Mat MOTION file as the current trajectory")
        self.act_export_conf = action("Export as ROBOOP .conf\u2026", self.export_conf_file,
                                      "write the current robot as a ROBOOP .conf file")
        self.act_symbolic = action("Symbolic kinematics (T and J)\u2026", self.show_symbolic,
                                   "the robot's T and J as formulas, with Python/C/LaTeX "
                                   "export")

    def _notify(self, text: str) -> None:
        bar = getattr(self.window, "statusBar", None)
        if callable(bar):
            bar().showMessage(text, 8000)

    def _ask_open(self, caption: str, name_filter: str) -> str | None:
        path = self.open_file(self.window, caption, self._last_dir, name_filter)
        if path:
            self._last_dir = str(Path(path).parent)
        return path or None

    # -- what the actions do ------------------------------------------------------------------
    def import_robot_file(self, path=None) -> bool:
        """Import a legacy robot into the session; False when cancelled or on an error."""
        path = path or self._ask_open("Import ROBOOP / Rob_Mat robot", IMPORT_FILTER)
        if not path:
            return False
        robot = open_legacy_robot(self.window, path, choose=self.choose,
                                  present_error=self.present_error,
                                  present_info=self.present_info, notify=self._notify)
        if robot is None:
            return False
        from ..undo import labelled

        try:
            with labelled(self.session, f"Robot {robot.name}"):
                self.session.set_robot(robot)
        except ValueError as exc:  # refused, or a panel could not show it: the old robot stays
            self.present_error("Cannot import robot", f"{path}: {exc}")
            return False
        set_origin = getattr(self.window, "set_origin", None)
        if callable(set_origin):  # window title and status line say where it came from
            set_origin(path)
        return True

    def load_motion_file(self, path=None) -> bool:
        """Load a Rob_Mat .MOT motion as the session's trajectory (for its current robot)."""
        path = path or self._ask_open("Load Rob_Mat motion", MOTION_FILTER)
        if not path:
            return False
        traj = open_robmat_motion(self.window, path, self.session.robot,
                                  present_error=self.present_error,
                                  present_info=self.present_info)
        if traj is None:
            return False
        try:
            self.session.set_trajectory(traj)
        except ValueError as exc:
            self.present_error("Cannot load motion", f"{path}: {exc}")
            return False
        self._notify(f"motion {Path(path).name}: {traj.t.size} steps of "
                     f"{traj.info['dt']:g} s loaded as the trajectory")
        return True

    def export_conf_file(self, path=None) -> Path | None:
        """Export the session's robot as a ROBOOP .conf file; the path, or None."""
        robot = self.session.robot
        if not path:
            name = f"{code_name(robot.name)}.conf"
            suggested = str(Path(self._last_dir) / name) if self._last_dir else name
            path = self.save_file(self.window, "Export as ROBOOP .conf", suggested, CONF_FILTER)
        if not path:
            return None
        out = export_roboop(self.window, robot, path, confirm=self.confirm,
                            present_error=self.present_error)
        if out is not None:
            self._notify(f"wrote {out}")
        return out

    def show_symbolic(self) -> SymbolicDialog:
        """Show the symbolic kinematics dialog (one per window; raised when already open)."""
        dlg = self.symbolic_dialog
        if dlg is not None and _alive(dlg) and dlg.isVisible():
            dlg.raise_()
            dlg.activateWindow()
            return dlg
        dlg = SymbolicDialog(self.session, self.window, save_file=self.save_file,
                             present_error=self.present_error)
        dlg.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        self.symbolic_dialog = dlg
        dlg.show()
        return dlg


def _alive(obj) -> bool:
    from shiboken6 import isValid

    return isValid(obj)


def install_symbolic_and_legacy_actions(window, session, **options) -> SymbolicLegacyActions:
    """Add the legacy-file and symbolic-kinematics actions to ``window``'s File and Robot
    menus. ``options`` (``open_file``, ``save_file``, ``choose``, ``confirm``,
    ``present_error``, ``present_info``) replace the dialogs, e.g. in tests.

    Returns the :class:`SymbolicLegacyActions` (also a child of the window).
    """
    extras = SymbolicLegacyActions(window, session, **options)
    file_menu = find_menu(window, "File")
    # after "Open robot file" and "Open recent": before the first separator
    before = next((a for a in file_menu.actions() if a.isSeparator()), None)
    new = [extras.act_import, extras.act_motion, extras.act_export_conf]
    if before is not None:
        file_menu.insertActions(before, new)
    else:
        file_menu.addActions(new)
    robot_menu = find_menu(window, "Robot")
    robot_menu.addSeparator()
    robot_menu.addAction(extras.act_symbolic)
    return extras
