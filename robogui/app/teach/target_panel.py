"""Go-to panel: a pose typed as xyz + rpy, or a recorded waypoint, previewed as a ghost.

Typing a value (or picking a waypoint) solves the inverse kinematics at once and shows the
target configuration as a translucent ghost robot; nothing moves until "Move". For 6-axis
arms with a spherical wrist (Puma, KUKA, ABB, ...) or of UR type the eight closed-form
branches are listed (left/right, elbow up/down, wrist flip) and, with "Show all branches",
drawn as ghosts: the selected one bright, the other valid ones faint, those outside the
joint limits red. An unreachable target says so and "Move" stays disabled.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.teach.targets import (
    TargetSolution,
    pose_from_xyz_rpy,
    solve_target,
    solve_waypoint,
    xyz_rpy_from_pose,
)
from robogui.session.teach.teach import Ghost

from .. import style, undo
from ..bindings import Subscriptions
from ..widgets.numeric_field import NumberField, follow_units, unit_field

__all__ = ["TargetPanel"]


class TargetPanel(QtWidgets.QWidget):
    """Targets for ``session``; ghosts go through ``state`` (a TeachState)."""

    def __init__(self, session, state, parent=None):
        super().__init__(parent)
        self.session, self.state = session, state
        self.solution: TargetSolution | None = None
        self.selected: int | None = None
        layout = QtWidgets.QVBoxLayout(self)

        pose_box = QtWidgets.QGroupBox("Pose (base frame, tool included)")
        grid = QtWidgets.QGridLayout(pose_box)
        self.boxes: list[NumberField] = []
        d = session.display
        for i, name in enumerate(["x", "y", "z", "roll", "pitch", "yaw"]):
            lab = QtWidgets.QLabel(name)
            if i < 3:
                lab.setStyleSheet(f"color: {style.AXIS_COLORS[i]}; font-weight: bold;")
                box = unit_field(d, "length", -10.0, 10.0, what=f"target {name}")
                box.setToolTip(f"target TCP {name} in the base frame")
            else:
                box = unit_field(d, "angle", -np.pi, np.pi, what=f"target {name}",
                                 wrapping=True)
                box.setToolTip(f"target {name} (roll-pitch-yaw, zyx) in the base frame")
            box.valueChanged.connect(lambda _v: self.preview_pose())
            self.boxes.append(box)
            r, c = i % 3, 2 * (i // 3)
            grid.addWidget(lab, r, c)
            grid.addWidget(box, r, c + 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.current_button = QtWidgets.QPushButton("Current pose")
        self.current_button.setToolTip("Fill in the robot's current tool pose and solve it")
        # clicked(bool) would land in ``preview`` and skip the solve
        self.current_button.clicked.connect(lambda _checked=False: self.fill_current())
        grid.addWidget(self.current_button, 3, 0, 1, 4)
        layout.addWidget(pose_box)

        wp_row = QtWidgets.QHBoxLayout()
        wp_row.addWidget(QtWidgets.QLabel("Waypoint"))
        self.waypoint_combo = QtWidgets.QComboBox()
        self.waypoint_combo.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                                          QtWidgets.QSizePolicy.Policy.Fixed)
        wp_row.addWidget(self.waypoint_combo, 1)
        self.waypoint_button = QtWidgets.QPushButton("Preview")
        self.waypoint_button.clicked.connect(
            lambda: self.preview_waypoint(self.waypoint_combo.currentText()))
        wp_row.addWidget(self.waypoint_button)
        layout.addLayout(wp_row)

        self.show_all = QtWidgets.QCheckBox("Show all IK branches as ghosts")
        self.show_all.setChecked(True)
        self.show_all.toggled.connect(lambda _on: self._show_ghosts())
        layout.addWidget(self.show_all)
        self.branch_list = QtWidgets.QListWidget()
        # eight rows exactly, so the Move button stays in sight below
        self.branch_list.setMaximumHeight(8 * (self.fontMetrics().height() + 2) + 8)
        self.branch_list.currentRowChanged.connect(self._on_branch_row)
        layout.addWidget(self.branch_list)

        buttons = QtWidgets.QHBoxLayout()
        self.move_button = QtWidgets.QPushButton("Move to target")
        self.move_button.setEnabled(False)
        self.move_button.clicked.connect(self.move)
        self.clear_button = QtWidgets.QPushButton("Clear")
        self.clear_button.clicked.connect(self.clear)
        buttons.addWidget(self.move_button, 1)
        buttons.addWidget(self.clear_button)
        layout.addLayout(buttons)
        self.status = QtWidgets.QLabel("Type a pose or pick a waypoint to preview it.")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        layout.addStretch(1)

        self._subs = Subscriptions(self)
        self._subs.connect(state.events.program, lambda _p: self._fill_waypoints())
        self._subs.connect(session.events.robot, lambda _r: self.clear())
        follow_units(self._subs, d, self.boxes)
        self._fill_waypoints()
        self.fill_current(preview=False)

    # -- inputs ------------------------------------------------------------------------------
    def _fill_waypoints(self) -> None:
        current = self.waypoint_combo.currentText()
        with QtCore.QSignalBlocker(self.waypoint_combo):
            self.waypoint_combo.clear()
            self.waypoint_combo.addItems(self.state.program.names)
            k = self.waypoint_combo.findText(current)
            if k >= 0:
                self.waypoint_combo.setCurrentIndex(k)
        self.waypoint_button.setEnabled(self.waypoint_combo.count() > 0)

    def set_pose(self, xyz_m, rpy_rad, preview: bool = True) -> None:
        """Fill the boxes (m, rad) and preview once."""
        si = np.concatenate([np.asarray(xyz_m, float), np.asarray(rpy_rad, float)])
        for b, v in zip(self.boxes, si, strict=True):
            with QtCore.QSignalBlocker(b):
                b.set_si_value(float(v))
        if preview:
            self.preview_pose()

    def fill_current(self, preview: bool = True) -> None:
        self.set_pose(*xyz_rpy_from_pose(self.session.T), preview=preview)

    def target_pose(self) -> np.ndarray:
        v = np.array([b.si_value() for b in self.boxes])
        return pose_from_xyz_rpy(v[:3], v[3:])

    # -- solving and ghosts ---------------------------------------------------------------------
    def preview_pose(self) -> TargetSolution:
        """Solve IK for the typed pose and show the ghost(s); nothing moves."""
        s = self.session
        return self._set_solution(solve_target(s.robot, self.target_pose(), s.q))

    def preview_waypoint(self, name: str) -> TargetSolution | None:
        if not name:
            return None
        wp = self.state.program.waypoint(name)
        if wp.q.size != self.session.robot.n:
            self._status(f"Waypoint {name!r} has {wp.q.size} joints; the robot has "
                         f"{self.session.robot.n}", ok=False)
            return None
        sol = solve_waypoint(self.session.robot, wp.q)
        self.set_pose(*xyz_rpy_from_pose(sol.T), preview=False)
        return self._set_solution(sol, prefix=f"Waypoint {name}: ")

    def _set_solution(self, sol: TargetSolution, prefix: str = "") -> TargetSolution:
        self.solution = sol
        self.selected = sol.chosen
        with QtCore.QSignalBlocker(self.branch_list):
            self.branch_list.clear()
            if sol.analytic:
                for i, lab in enumerate(sol.labels):
                    note = "" if sol.ok[i] else (
                        "  (joint limits)" if sol.reachable[i] else "  (out of reach)")
                    item = QtWidgets.QListWidgetItem(f"{lab}  {sol.describe(i)}{note}")
                    item.setToolTip(sol.reasons[i])
                    if not sol.ok[i]:
                        item.setForeground(QtGui.QColor(
                            style.AT_LIMIT_COLOR if not sol.reachable[i] else "#d9876f"))
                    self.branch_list.addItem(item)
                if sol.chosen is not None:
                    self.branch_list.setCurrentRow(sol.chosen)
        self.branch_list.setVisible(sol.analytic)
        self.show_all.setVisible(sol.analytic)
        self.move_button.setEnabled(sol.success)
        self._status(prefix + sol.message, ok=sol.success)
        self._show_ghosts()
        return sol

    def _on_branch_row(self, row: int) -> None:
        sol = self.solution
        if sol is None or row < 0:
            return
        self.selected = row if sol.ok[row] else None
        self.move_button.setEnabled(self.selected is not None)
        if self.selected is None:
            self._status(f"{sol.labels[row]} ({sol.describe(row)}): {sol.reasons[row]}",
                         ok=False)
        else:
            self._status(f"Selected {sol.labels[row]}: {sol.describe(row)}", ok=True)
        self._show_ghosts()

    def select_branch(self, config: str) -> None:
        """Pick the analytic branch with letters ``config`` (e.g. ``"rdn"``)."""
        self.branch_list.setCurrentRow(self.solution.labels.index(config))

    def _show_ghosts(self) -> None:
        sol = self.solution
        if sol is None:
            self.state.set_ghosts([])
            return
        ghosts = []
        everything = sol.analytic and self.show_all.isChecked()
        for i in range(len(sol.q)):
            if i == self.selected:
                ghosts.append(Ghost(sol.q[i], "selected", sol.labels[i]))
            elif everything and sol.reachable[i]:
                ghosts.append(Ghost(sol.q[i], "candidate" if sol.ok[i] else "invalid",
                                    sol.labels[i]))
        self.state.set_ghosts(ghosts)

    # -- actions ---------------------------------------------------------------------------------
    def move(self) -> bool:
        """Move the robot to the selected candidate; False (and nothing moves) when none."""
        if self.solution is None or self.selected is None:
            self._status("Nothing to move to: the target is not reachable", ok=False)
            return False
        self.session.pause()  # a playing trajectory would take the robot straight back
        with undo.labelled(self.session, "Go to target"):
            self.session.set_q(self.solution.q[self.selected])
        self._status("Moved to the target", ok=True)
        self.state.set_ghosts([])
        return True

    def clear(self) -> None:
        self.solution, self.selected = None, None
        self.branch_list.clear()
        self.move_button.setEnabled(False)
        self.state.set_ghosts([])

    def _status(self, text: str, ok: bool) -> None:
        self.status.setStyleSheet(f"color: {'#9fb0c3' if ok else style.NEAR_LIMIT_COLOR};")
        self.status.setText(text)

    @property
    def status_text(self) -> str:
        return self.status.text()
