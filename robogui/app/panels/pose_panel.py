"""Pose readout: end-effector position, orientation (rpy / ZYZ / quaternion), the 4x4
matrix, the arm configuration of Puma-like arms, Yoshikawa manipulability and the clearance
in the work cell (nearest pair and distance).

Everything shown comes from the session (its cached frames, configuration and
manipulability) through :mod:`robogui.session.explain.readout`; the panel only displays.
Position and orientation follow every change, drags included; manipulability is
updated when a change is complete (slider released) and on every frame of playback.
"""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.explain import readout
from robogui.session.explain.armconfig import describe_config, val_words
from robogui.session.planning_scene.live import clearance_text

from .. import style
from ..bindings import Subscriptions, bind_combobox, field_ref

__all__ = ["PosePanel"]

CLEARANCE_TIP = ("Clearance: the smallest distance between the robot and the work cell (or "
                 "itself), and which two things it is between; red when they touch")
_ORIENTATION_NAMES = {"rpy": "Roll-pitch-yaw (zyx)", "zyz": "Euler ZYZ", "quaternion": "Quaternion"}


class PosePanel(QtWidgets.QWidget):
    """Live end-effector pose of the session's robot."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        mono = style.monospace_font()

        def value_label() -> QtWidgets.QLabel:
            lab = QtWidgets.QLabel()
            lab.setFont(mono)
            lab.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                             | QtCore.Qt.AlignmentFlag.AlignVCenter)
            lab.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            lab.setMinimumWidth(90)
            lab.setProperty("keyNumber", True)  # presentation mode enlarges it the most
            return lab

        pos_box = QtWidgets.QGroupBox("Position")
        pos_grid = QtWidgets.QGridLayout(pos_box)
        self.pos_labels = [value_label() for _ in range(3)]
        self.pos_units = [QtWidgets.QLabel() for _ in range(3)]
        for i, axis in enumerate("xyz"):
            name = QtWidgets.QLabel(axis)
            name.setStyleSheet(f"color: {style.AXIS_COLORS[i]}; font-weight: bold;")
            pos_grid.addWidget(name, i, 0)
            pos_grid.addWidget(self.pos_labels[i], i, 1)
            pos_grid.addWidget(self.pos_units[i], i, 2)
        pos_grid.setColumnStretch(1, 1)

        ori_box = QtWidgets.QGroupBox("Orientation")
        ori_grid = QtWidgets.QGridLayout(ori_box)
        self.orientation_combo = QtWidgets.QComboBox()
        self._ori_binding = bind_combobox(
            self.orientation_combo, field_ref(session.display, "orientation"),
            list(_ORIENTATION_NAMES), list(_ORIENTATION_NAMES.values()))
        ori_grid.addWidget(self.orientation_combo, 0, 0, 1, 3)
        self.ori_names = [QtWidgets.QLabel() for _ in range(4)]
        self.ori_labels = [value_label() for _ in range(4)]
        self.ori_units = [QtWidgets.QLabel() for _ in range(4)]
        for i in range(4):
            ori_grid.addWidget(self.ori_names[i], i + 1, 0)
            ori_grid.addWidget(self.ori_labels[i], i + 1, 1)
            ori_grid.addWidget(self.ori_units[i], i + 1, 2)
        ori_grid.setColumnStretch(1, 1)

        mat_box = QtWidgets.QGroupBox("Transform T (base to tool, m)")
        mat_layout = QtWidgets.QVBoxLayout(mat_box)
        self.matrix_label = QtWidgets.QLabel()
        self.matrix_label.setFont(mono)
        self.matrix_label.setProperty("keyNumber", True)
        self.matrix_label.setTextInteractionFlags(
            QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        mat_layout.addWidget(self.matrix_label)

        arm_box = QtWidgets.QGroupBox("Arm")
        arm_grid = QtWidgets.QGridLayout(arm_box)
        self.config_label = QtWidgets.QLabel()
        self.config_label.setToolTip(
            "Arm configuration (r6 ikine560 letters; Unimation VAL words): left/right "
            "(LEFTY/RIGHTY), elbow up/down (ABOVE/BELOW), wrist no flip/flip "
            "(NOFLIP/FLIP); for 6-axis arms with a spherical wrist or of UR type. ABB conf: "
            "RAPID confdata [cf1, cf4, cf6, cfx] (spherical wrist)")
        self.config_label.setWordWrap(True)
        self.manip_label = value_label()
        self._manip_tip = ("Yoshikawa manipulability sqrt(det(J J^T)); 0 at a "
                           "singularity. Updated when a change is complete.")
        self.manip_label.setToolTip(self._manip_tip)
        self.manip_label.setWordWrap(True)
        arm_grid.addWidget(QtWidgets.QLabel("configuration"), 0, 0)
        arm_grid.addWidget(self.config_label, 0, 1)
        arm_grid.addWidget(QtWidgets.QLabel("manipulability"), 1, 0)
        arm_grid.addWidget(self.manip_label, 1, 1)
        # issue 24: the nearest pair and its distance in the cell (live, drags included)
        self.clearance_label = QtWidgets.QLabel()
        self.clearance_label.setWordWrap(True)
        self.clearance_label.setToolTip(CLEARANCE_TIP)
        self._tip_pairs = ()  # the pairs left out that the tooltip names
        arm_grid.addWidget(QtWidgets.QLabel("clearance"), 2, 0)
        arm_grid.addWidget(self.clearance_label, 2, 1)
        arm_grid.setColumnStretch(1, 1)

        self.copy_button = QtWidgets.QPushButton("Copy to clipboard")
        self.copy_button.setToolTip(
            "joint values, position, orientation, configuration and T as text")
        self.copy_button.clicked.connect(self.copy_to_clipboard)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        for w in (pos_box, ori_box, arm_box, mat_box):
            layout.addWidget(w)
        layout.addWidget(self.copy_button)
        layout.addStretch(1)

        subs = self._subs = Subscriptions(self)
        subs.connect(session.events.frames, lambda _F: self._on_frames(), paced=True)
        subs.connect(session.events.changed, lambda _q: self.update_heavy())
        subs.connect(session.events.robot, lambda _r: self.update_heavy())
        subs.connect(session.events.cell, lambda _c: self.update_clearance())
        for name in ("orientation", "angle_unit", "length_unit"):
            subs.connect(session.display.events[name], lambda _v: self.update_pose())
        self.update_pose()
        self.update_heavy()

    def _on_frames(self) -> None:
        self.update_pose()
        if self.session.playing:  # playback is a change that completes only at its end
            self.update_heavy()

    def update_pose(self) -> None:
        """Position, orientation, matrix and configuration from the session's frames."""
        s, d = self.session, self.session.display
        T = s.T
        lu = d.length_unit
        for lab, unit, v in zip(self.pos_labels, self.pos_units, readout.position(T, lu),
                                strict=True):
            lab.setText(readout.fmt(v, readout.decimals(lu)))
            unit.setText(lu)
        kind = d.orientation
        values = readout.orientation(T, kind, d.angle_unit)
        names = readout.ORIENTATION_LABELS[kind]
        digits = 5 if kind == "quaternion" else readout.decimals(d.angle_unit)
        unit = "" if kind == "quaternion" else d.angle_unit
        for i in range(4):
            shown = i < len(values)
            for w in (self.ori_names[i], self.ori_labels[i], self.ori_units[i]):
                w.setVisible(shown)
            if shown:
                self.ori_names[i].setText(names[i])
                self.ori_labels[i].setText(readout.fmt(values[i], digits))
                self.ori_units[i].setText(unit)
        self.matrix_label.setText(readout.matrix_text(T))
        self.update_clearance()
        config = s.arm_config
        self.config_label.setText(
            "\u2014 (no spherical wrist, not UR type)" if config is None
            else f"<b>{config}</b> &nbsp;{describe_config(config)} &nbsp;({val_words(config)})"
            + ("" if s.abb_conf is None else
               " &nbsp;ABB conf [{}]".format(", ".join(str(v) for v in s.abb_conf))))

    def update_clearance(self) -> None:
        """Nearest pair and distance in the display's length unit (session.clearance)."""
        s = self.session
        names = s.cell.names if s.cell is not None else ()
        text, touching = clearance_text(s.clearance, names, s.display.length_unit)
        self.clearance_label.setText(text)
        self.clearance_label.setStyleSheet(f"color: {style.AT_LIMIT_COLOR};" if touching
                                           else "")
        allowed = s.pairs_allowed_at_start
        if allowed != self._tip_pairs:  # once per robot, not on every q of a drag
            self._tip_pairs = allowed
            self.clearance_label.setToolTip(CLEARANCE_TIP + (
                "<br><br>Not checked, as they touch in the pose the robot opens in and its "
                "files list no pairs to leave out (MoveIt's setup assistant leaves them out "
                "the same way): " + ", ".join(f"{a} \u2013 {b}" for a, b in allowed)
                if allowed else ""))

    def update_heavy(self) -> None:
        """Manipulability: once per completed change."""
        m = self.session.manipulability
        text, tip = f"{m:.5f}", self._manip_tip
        if m < 1e-9:  # say which singularity, in words (issue 14: not just "singular")
            sing = self.session.singularity
            why = re.search(r"\(([^)]*)\)", sing.kind_text or "")
            kind = f"{sing.kind} singularity" if sing.kind not in (None, "general") \
                else "singular"
            text += f"  ({kind}{': ' + why.group(1) if why else ''})"
            tip = f"{sing.summary}\n\n{self._manip_tip}"
        self.manip_label.setText(text)
        self.manip_label.setToolTip(tip)

    def text(self) -> str:
        """The readout as plain text (what the copy button puts on the clipboard)."""
        s, d = self.session, self.session.display
        return readout.pose_text(
            s.T, orientation_kind=d.orientation, angle_unit=d.angle_unit,
            length_unit=d.length_unit, config=s.arm_config, manipulability=s.manipulability,
            q=s.q, structure=s.robot.structure)

    def copy_to_clipboard(self) -> None:
        QtGui.QGuiApplication.clipboard().setText(self.text())
