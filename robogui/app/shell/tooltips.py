"""A tooltip on every control of the main window.

Most panels set their own tooltips where they build a control. This module adds the
rest in one place, after the window is built (and again when late panels arrive):

* the float and close buttons in every dock's title bar;
* a table of controls of the built-in panels, by attribute path from the window
  (``"teach.target.move_button"``); a path that no longer exists is skipped;
* the menus' actions get their text as status tip when they have none.

:func:`missing_tooltips` lists the visible controls still without one (the test walks
the whole window with it).
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

__all__ = ["install_tooltips", "missing_tooltips", "CONTROL_KINDS", "TIPS"]

#: the widget kinds that count as controls
CONTROL_KINDS = (QtWidgets.QAbstractButton, QtWidgets.QLineEdit, QtWidgets.QAbstractSpinBox,
                 QtWidgets.QAbstractSlider, QtWidgets.QComboBox)

#: attribute path from the main window -> tooltip
TIPS: dict[str, str] = {
    "pose_panel.orientation_combo": "how the orientation is shown: roll-pitch-yaw (zyx), "
                                    "ZYZ Euler angles or a unit quaternion",
    "teach.target.waypoint_combo": "a waypoint of the program to preview as a target",
    "teach.target.waypoint_button": "solve the IK for the chosen waypoint and show it as a "
                                    "ghost (nothing moves)",
    "teach.target.show_all": "draw every analytic IK branch as a ghost (Puma-like arms)",
    "teach.target.move_button": "move the robot to the selected solution (Ctrl+Z undoes)",
    "teach.target.clear": "remove the target ghosts",
    "teach.target.clear_button": "remove the target ghosts",
    "teach.program.check_button": "compile the program, run the pre-flight check (limits, "
                                  "singularities, speeds) and load it into the timeline",
    "teach.program.kind_combo": "joint move (interpolated in joint space) or linear move "
                                "(straight line of the tool)",
    "teach.program.target_combo": "the waypoint this move goes to",
    "teach.program.timing_combo": "default timing, a duration in s, or a speed",
    "teach.program.waypoint_comment": "a comment stored with the selected waypoint",
    "teach.program.move_comment": "a comment stored with the selected move",
    "teach.program.restore_button": "take the autosaved program back (an unsaved edit)",
    "teach.program.discard_button": "forget the autosaved program",
    "teach.program.file_buttons.new": "start an empty program",
    "teach.program.file_buttons.open": "open a program file (.prog)",
    "teach.program.file_buttons.save": "save the program to its file",
    "teach.program.file_buttons.save_as": "save the program to a new file",
    "teach.timeline.slider": "the playhead: drag to scrub through the trajectory",
    "teach.timeline.loop_box": "play the trajectory again from the start when it ends",
    "teach.timeline.menu_button": "load, generate, export or clear the trajectory",
    "plot_docks.joint_state.joint_combo": "the joints whose state is plotted",
    "plot_docks.torque.joint_combo": "the joints whose torques are plotted",
    "plot_docks.manipulability.mode_combo": "the measure of manipulability plotted",
    "teaching.workspace.count": "how many random joint configurations to sample",
    "teaching.workspace.sample_button": "sample the reachable workspace of the tool "
                                        "(in the background)",
    "teaching.workspace.cancel_button": "stop sampling",
    "teaching.workspace.show_box": "show the sampled points in the 3D view",
    "teaching.workspace.section_box": "show only a slice of the cloud, at the plane below",
    "teaching.workspace.axis": "the axis the section plane is normal to",
    "teaching.workspace.offset": "where the section plane cuts, across the cloud",
    "teaching.workspace.png_button": "save the view of the workspace as an image",
    "teaching.workspace.csv_button": "save the sampled points as CSV",
}

def _resolve(window, path: str):
    obj = window
    for part in path.split("."):
        if obj is None:
            return None
        obj = obj.get(part) if isinstance(obj, dict) else getattr(obj, part, None)
    return obj


def install_tooltips(window: QtWidgets.QMainWindow) -> None:
    """Fill in the tooltips the panels did not set (safe to call again)."""
    for dock in window.findChildren(QtWidgets.QDockWidget):
        for b in dock.children():
            if not isinstance(b, QtWidgets.QAbstractButton) or b.toolTip():
                continue
            name = b.objectName()
            if "float" in name:
                b.setToolTip(f"float the {dock.windowTitle()} panel in its own window "
                             "(double-click its title to dock it again)")
            elif "close" in name:
                b.setToolTip(f"close the {dock.windowTitle()} panel (the View menu brings "
                             "it back)")
            else:
                b.setToolTip(f"{dock.windowTitle()} panel")
    for table in window.findChildren(QtWidgets.QTableView):
        for b in table.findChildren(QtWidgets.QAbstractButton):
            if not b.toolTip():
                b.setToolTip("select the whole table (to copy it)")
    for path, tip in TIPS.items():
        w = _resolve(window, path)
        if isinstance(w, (QtWidgets.QWidget, QtGui.QAction)) and not w.toolTip():
            w.setToolTip(tip)
    for act in window.findChildren(QtGui.QAction):
        if not act.statusTip() and act.text():
            act.setStatusTip(act.toolTip())


def missing_tooltips(window: QtWidgets.QWidget) -> list[str]:
    """Visible controls of ``window`` (docks included) without a tooltip, described."""
    out = []
    for w in window.findChildren(QtWidgets.QWidget):
        if not isinstance(w, CONTROL_KINDS) or not w.isVisible():
            continue
        if isinstance(w, QtWidgets.QScrollBar):
            continue  # a scroll bar says what it does
        if isinstance(w, QtWidgets.QLineEdit) and isinstance(
                w.parent(), (QtWidgets.QAbstractSpinBox, QtWidgets.QComboBox)):
            continue  # the editor inside a spin box or combo box: its owner has the tip
        if w.toolTip().strip():
            continue
        text = w.text() if isinstance(w, (QtWidgets.QAbstractButton,
                                          QtWidgets.QLineEdit)) else ""
        owner = w.parent()
        where = type(owner).__name__ if owner is not None else ""
        out.append(f"{type(w).__name__} {text!r} in {where}")
    return out
