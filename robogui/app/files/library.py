"""Robot library and robot files: pick a robot, open a file, report a bad file.

A file that cannot be read shows the :class:`RobotFileError` text (which names the
file, the link and the field) in a non-modal message box, and the current robot
stays. Who shows the error is injectable, so tests and scripts need no dialog.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from robogui.io.robotfile import RobotFileError, list_robots, load_robot

from ..widgets.message_box import message_box, show_error  # noqa: F401  (re-exported)

__all__ = ["ErrorPresenter", "load_into_session", "show_error", "ask_robot_file", "ask_tip",
           "RobotPicker"]

#: ``present(title, text)``: how a failure is shown to the user
ErrorPresenter = Callable[[str, str], None]

FILE_FILTER = ("Robot files (*.toml *.urdf *.xacro *.xml *.mjcf *.conf *.dat *.DAT);;"
               "robogui robot (*.toml);;URDF robot (*.urdf *.xacro);;"
               "MuJoCo MJCF robot (*.xml *.mjcf);;"
               "ROBOOP robot (*.conf);;SpaceLib Rob_Mat robot (*.dat *.DAT);;All files (*)")


def ask_tip(parent: QtWidgets.QWidget | None, path: str, candidates: list[str],
            preselect: str | None = None) -> str | None:
    """Ask which link ends the chain of a URDF with several possible tips; None: cancel.
    ``preselect`` (the tip chosen last time for this file) is offered first."""
    dlg = QtWidgets.QInputDialog(parent)
    dlg.setObjectName("tipChooser")
    dlg.setWindowTitle("Choose the tip link")
    dlg.setLabelText(f"{Path(path).name} has several chains. The arm ends at link:")
    dlg.setComboBoxItems(candidates)
    dlg.setComboBoxEditable(False)
    if preselect in candidates:
        dlg.setTextValue(preselect)
    ok = dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted
    return dlg.textValue() if ok else None


def _choose_tip(path, choose) -> tuple[bool, str | None]:
    """(go on, tip) for a URDF or MJCF file: asks only when the default tip is ambiguous."""
    if Path(str(path)).suffix.lower() in (".xml", ".mjcf"):
        from robogui.io.mjcf.mjcf import is_mjcf, mjcf_default_tips

        if not is_mjcf(path):
            return True, None  # a URDF named .xml: load_robot reads it as URDF
        tips = mjcf_default_tips(path)
    else:
        from robogui.io.ros.urdf import urdf_tips

        tips = urdf_tips(path)
    if len(tips) <= 1:
        return True, None
    tip = choose(str(path), tips)
    return tip is not None, tip


def load_into_session(session, name_or_path: str | Path, present: ErrorPresenter,
                      choose_tip: Callable[[str, list[str]], str | None] | None = None) -> bool:
    """Load a library robot or file into ``session``; on failure call ``present`` and keep
    the current robot. Returns True when the robot was loaded.

    ROBOOP ``.conf`` and Rob_Mat ``.dat`` files go through :mod:`.legacy_import`, which
    asks what those formats leave open (D-H convention, prismatic travel); for a URDF,
    xacro or MJCF file with several possible tips ``choose_tip(path, candidates)`` picks one
    (default: a dialog)."""
    if Path(str(name_or_path)).suffix.lower() in (".conf", ".dat"):
        from .legacy_import import open_legacy_robot

        robot = open_legacy_robot(None, name_or_path, present_error=present)
        if robot is None:
            return False
    else:
        try:
            tip = None
            if Path(str(name_or_path)).suffix.lower() in (".urdf", ".xacro", ".xml", ".mjcf"):
                go, tip = _choose_tip(name_or_path, choose_tip or (
                    lambda p, c: ask_tip(None, p, c)))
                if not go:
                    return False  # cancelled: the current robot stays
            robot = load_robot(name_or_path, tip=tip)
        except RobotFileError as exc:
            present("Cannot open robot", str(exc))
            return False
        except OSError as exc:
            present("Cannot open robot", f"{name_or_path}: {exc.strerror or exc}")
            return False
    from ..undo import labelled

    try:
        with labelled(session, f"Robot {robot.name}"):  # a rolled-back change is no step
            session.set_robot(robot)
    except ValueError as exc:  # e.g. a robot the session cannot pose
        present("Cannot open robot", f"{name_or_path}: {exc}")
        return False
    return True


def ask_robot_file(parent: QtWidgets.QWidget | None, start_dir: str = "") -> str | None:
    """File dialog for a robot file; None when cancelled."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(parent, "Open robot file", start_dir,
                                                    FILE_FILTER)
    return path or None


class RobotPicker(QtWidgets.QComboBox):
    """A combo box of the library robots; choosing one calls ``open_robot(name)``."""

    def __init__(self, open_robot: Callable[[str], bool], parent=None):
        super().__init__(parent)
        self.setToolTip("robot library")
        self.setMinimumContentsLength(12)
        self._open = open_robot
        self._names = list_robots()
        self.addItems(self._names)
        self.setCurrentIndex(-1)
        self.activated.connect(self._chosen)

    @property
    def names(self) -> list[str]:
        return list(self._names)

    def show_library_name(self, name: str | None, other: str = "") -> None:
        """Show which library entry is loaded. None: a robot from a file or a new one,
        named by ``other`` in the box (greyed, no entry selected) and in the tooltip."""
        with QtCore.QSignalBlocker(self):
            self.setCurrentIndex(self._names.index(name) if name in self._names else -1)
        shown = "" if name in self._names else other
        self.setPlaceholderText(shown)
        self.setToolTip(f"robot library (loaded: {shown})" if shown else "robot library")

    def _chosen(self, index: int) -> None:
        if 0 <= index < len(self._names):
            self._open(self._names[index])
