"""Tool (TCP) editor: the tool transform as xyz (mm) + roll-pitch-yaw (deg).

Changing a value sets the session's tool (``robot.with_tool``), so the pose readout,
jogging, IK and the 3D view (which draws the tool from the flange to the TCP) all use
it. A new robot or a tool set elsewhere is shown back in the boxes.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from robogui.session.targets import pose_from_xyz_rpy, xyz_rpy_from_pose

from .. import style, undo
from ..bindings import Subscriptions

__all__ = ["ToolEditor"]


class ToolEditor(QtWidgets.QWidget):
    """Edit ``session.tool`` as position (mm) and roll-pitch-yaw (deg, zyx)."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        grid = QtWidgets.QGridLayout(self)
        self.boxes: list[QtWidgets.QDoubleSpinBox] = []
        names = ["x", "y", "z", "roll", "pitch", "yaw"]
        for i, name in enumerate(names):
            lab = QtWidgets.QLabel(name)
            if i < 3:
                lab.setStyleSheet(f"color: {style.AXIS_COLORS[i]}; font-weight: bold;")
            box = QtWidgets.QDoubleSpinBox()
            box.setKeyboardTracking(False)  # apply when typing is done, not per digit
            if i < 3:
                box.setRange(-5000.0, 5000.0)
                box.setDecimals(1)
                box.setSuffix(" mm")
            else:
                box.setRange(-180.0, 180.0)
                box.setDecimals(2)
                box.setSuffix(" °")
                box.setWrapping(True)
            box.valueChanged.connect(self._apply)
            self.boxes.append(box)
            r, c = i % 3, 2 * (i // 3)
            grid.addWidget(lab, r, c)
            grid.addWidget(box, r, c + 1)
        self.reset_button = QtWidgets.QPushButton("No tool")
        self.reset_button.setToolTip("Identity tool: the TCP is the flange")
        self.reset_button.clicked.connect(self.reset)
        grid.addWidget(self.reset_button, 3, 3)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self._subs = Subscriptions(self)
        self._subs.connect(session.events.tool, lambda _T: self.refresh())
        self._subs.connect(session.events.robot, lambda _r: self.refresh())
        self.refresh()

    def values(self) -> tuple[np.ndarray, np.ndarray]:
        """Shown position (3,) m and rpy (3,) rad."""
        v = np.array([b.value() for b in self.boxes])
        return v[:3] / 1000.0, np.radians(v[3:])

    def tool_transform(self) -> np.ndarray:
        """The tool transform (4, 4) the boxes describe."""
        return pose_from_xyz_rpy(*self.values())

    def set_values(self, xyz_m, rpy_rad) -> None:
        """Fill the boxes and apply once (not once per box)."""
        shown = np.concatenate([np.asarray(xyz_m, float) * 1000.0, np.degrees(rpy_rad)])
        for b, v in zip(self.boxes, shown, strict=True):
            with QtCore.QSignalBlocker(b):
                b.setValue(float(v))
        self._apply()

    def refresh(self) -> None:
        xyz, rpy = xyz_rpy_from_pose(self.session.tool)
        shown = np.concatenate([xyz * 1000.0, np.degrees(rpy)])
        for b, v in zip(self.boxes, shown, strict=True):
            with QtCore.QSignalBlocker(b):
                b.setValue(float(v))

    def _apply(self, *_args) -> None:
        T = self.tool_transform()
        # the boxes round to their decimals: do not replace an equal tool by its rounding
        xyz, rpy = xyz_rpy_from_pose(self.session.tool)
        now = np.concatenate([np.round(xyz * 1000.0, 1), np.round(np.degrees(rpy), 2)])
        shown = np.array([b.value() for b in self.boxes])
        if np.allclose(now, shown, atol=1e-9):
            return
        with undo.labelled(self.session, "Change tool"):
            self.session.set_tool(T)

    def reset(self) -> None:
        """No tool: the TCP is the flange."""
        with undo.labelled(self.session, "No tool"):
            self.session.set_tool(np.eye(4))
