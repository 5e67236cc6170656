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
           "tip_choices", "TIP_SUFFIXES", "RobotPicker"]

#: ``present(title, text)``: how a failure is shown to the user
ErrorPresenter = Callable[[str, str], None]

FILE_FILTER = ("Robot files (*.toml *.urdf *.xacro *.xml *.mjcf *.conf *.dat *.DAT);;"
               "robogui robot (*.toml);;URDF robot (*.urdf *.xacro);;"
               "MuJoCo MJCF robot (*.xml *.mjcf);;"
               "ROBOOP robot (*.conf);;SpaceLib Rob_Mat robot (*.dat *.DAT);;All files (*)")


#: suffixes of files whose chain end can be chosen (URDF, xacro, MJCF)
TIP_SUFFIXES = (".urdf", ".xacro", ".xml", ".mjcf")


def _tip_name(text: str) -> str:
    """The link name of a chooser entry "name (k joints)" or of typed text."""
    text = text.strip()
    if text.endswith(")") and " (" in text:
        head, _, tail = text.rpartition(" (")
        if tail.split()[0].isdigit():
            return head.strip()
    return text


def ask_tip(parent: QtWidgets.QWidget | None, path: str, candidates,
            preselect: str | None = None) -> str | None:
    """Ask where the arm ends; None: cancel. ``candidates``: link names, or ``(name,
    joint count)`` pairs shown as "name (k joints)". The box takes typing (completed from
    the list); ``preselect`` (the tip chosen last time, or the current one) is offered
    first."""
    pairs = [(c, None) if isinstance(c, str) else (str(c[0]), int(c[1])) for c in candidates]
    items = [name if k is None else f"{name} ({k} joint{'s' if k != 1 else ''})"
             for name, k in pairs]
    dlg = QtWidgets.QInputDialog(parent)
    dlg.setObjectName("tipChooser")
    dlg.setWindowTitle("Choose the tip link")
    dlg.setLabelText(f"{Path(path).name}: the arm ends at (type a name or pick one):")
    dlg.setComboBoxItems(items)
    dlg.setComboBoxEditable(True)
    names = [n for n, _ in pairs]
    if preselect in names:
        dlg.setTextValue(items[names.index(preselect)])
    combo = dlg.findChild(QtWidgets.QComboBox)
    if combo is not None and combo.completer() is not None:
        combo.completer().setFilterMode(QtCore.Qt.MatchFlag.MatchContains)
        combo.completer().setCompletionMode(QtWidgets.QCompleter.CompletionMode.PopupCompletion)
    ok = dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted
    return _tip_name(dlg.textValue()) or None if ok else None


def tip_choices(path, xacro_args=None) -> tuple[list[str], list[tuple[str, int]]]:
    """(the default-tip rule's shortlist, every possible tip with its joint count) of a
    URDF, xacro or MJCF file; RobotFileError when the file cannot be read."""
    if Path(str(path)).suffix.lower() in (".xml", ".mjcf"):
        from robogui.io.mjcf.mjcf import is_mjcf, mjcf_default_tips, mjcf_tips

        if is_mjcf(path):
            return mjcf_default_tips(path), mjcf_tips(path)
    from robogui.io.ros.urdf import urdf_tip_choices, urdf_tips

    return (urdf_tips(path, xacro_args=xacro_args),
            urdf_tip_choices(path, xacro_args=xacro_args))


def _choose_tip(path, choose, remembered: str | None = None,
                xacro_args=None) -> tuple[bool, str | None]:
    """(go on, tip) for a URDF or MJCF file: the tip chosen last time for it when it is
    still there, else the default; asks only when the default is ambiguous (two arms)."""
    if Path(str(path)).suffix.lower() in (".xml", ".mjcf"):
        from robogui.io.mjcf.mjcf import is_mjcf

        if not is_mjcf(path):
            return True, None  # a URDF named .xml: load_robot reads it as URDF
    defaults, choices = tip_choices(path, xacro_args)
    if remembered and remembered in {name for name, _ in choices}:
        return True, remembered
    if len(defaults) <= 1:
        return True, None
    first = [c for c in choices if c[0] in defaults]
    tip = choose(str(path), first + [c for c in choices if c[0] not in defaults])
    return tip is not None, tip


def load_into_session(session, name_or_path: str | Path, present: ErrorPresenter,
                      choose_tip: Callable[[str, list], str | None] | None = None,
                      remembered_tip: Callable[[str], str | None] | None = None,
                      choose_xacro_args: Callable[[str, dict], dict | None] | None = None
                      ) -> bool:
    """Load a library robot or file into ``session``; on failure call ``present`` and keep
    the current robot. Returns True when the robot was loaded.

    ROBOOP ``.conf`` and Rob_Mat ``.dat`` files go through :mod:`.legacy_import`, which
    asks what those formats leave open (D-H convention, prismatic travel); for a URDF,
    xacro or MJCF file the tip is ``remembered_tip(path)`` (the one chosen last time) when
    the file still has it, else the flange; with several flanges (two arms)
    ``choose_tip(path, [(name, joints), ...])`` picks one (default: a dialog); for a xacro
    file with arguments ``choose_xacro_args(path, {name: default})`` gives their values
    (None: no dialog, the command line's)."""
    if Path(str(name_or_path)).suffix.lower() in (".conf", ".dat"):
        from .legacy_import import open_legacy_robot

        robot = open_legacy_robot(None, name_or_path, present_error=present)
        if robot is None:
            return False
    else:
        try:
            tip, args = None, None
            suffix = Path(str(name_or_path)).suffix.lower()
            if suffix == ".xacro" and choose_xacro_args is not None:
                from robogui.io.ros.xacro_expand import xacro_arg_declarations

                declared = xacro_arg_declarations(name_or_path)
                if declared:
                    args = choose_xacro_args(str(name_or_path), declared)
                    if args is None:
                        return False  # cancelled: the current robot stays
            if suffix in TIP_SUFFIXES:
                go, tip = _choose_tip(name_or_path, choose_tip or (
                    lambda p, c: ask_tip(None, p, c)),
                    remembered_tip(str(name_or_path)) if remembered_tip else None, args)
                if not go:
                    return False  # cancelled: the current robot stays
            robot = load_robot(name_or_path, tip=tip, xacro_args=args)
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
