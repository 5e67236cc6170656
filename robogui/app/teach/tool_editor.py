"""Tool (TCP) editor: the tool transform as xyz + roll-pitch-yaw, in the display units.

Changing a value sets the session's tool (``robot.with_tool``), so the pose readout,
jogging, IK and the 3D view (which draws the tool from the flange to the TCP) all use
it. A new robot or a tool set elsewhere is shown back in the boxes.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from robogui.session.teach.targets import pose_from_xyz_rpy, xyz_rpy_from_pose

from .. import style, undo
from ..bindings import Subscriptions
from ..widgets.numeric_field import NumberField, follow_units, unit_field

__all__ = ["ToolEditor"]


class ToolEditor(QtWidgets.QWidget):
    """Edit ``session.tool`` as position and roll-pitch-yaw (zyx), in the display units."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        grid = QtWidgets.QGridLayout(self)
        self.boxes: list[NumberField] = []
        names = ["x", "y", "z", "roll", "pitch", "yaw"]
        d = session.display
        for i, name in enumerate(names):
            lab = QtWidgets.QLabel(name)
            if i < 3:
                lab.setStyleSheet(f"color: {style.AXIS_COLORS[i]}; font-weight: bold;")
                box = unit_field(d, "length", -5.0, 5.0, what=f"tool {name}")
                box.setToolTip(f"TCP {name} offset from the flange, in the flange frame")
            else:
                box = unit_field(d, "angle", -np.pi, np.pi, what=f"tool {name}",
                                 wrapping=True)
                box.setToolTip(f"tool {name} (roll-pitch-yaw, zyx) relative to the flange")
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
        follow_units(self._subs, d, self.boxes)
        self.refresh()

    def values(self) -> tuple[np.ndarray, np.ndarray]:
        """Shown position (3,) m and rpy (3,) rad."""
        v = np.array([b.si_value() for b in self.boxes])
        return v[:3], v[3:]

    def tool_transform(self) -> np.ndarray:
        """The tool transform (4, 4) the boxes describe."""
        return pose_from_xyz_rpy(*self.values())

    def set_values(self, xyz_m, rpy_rad) -> None:
        """Fill the boxes and apply once (not once per box)."""
        self._show(np.concatenate([np.asarray(xyz_m, float), np.asarray(rpy_rad, float)]))
        self._apply()

    def _show(self, si: np.ndarray) -> None:
        for b, v in zip(self.boxes, si, strict=True):
            with QtCore.QSignalBlocker(b):
                b.set_si_value(float(v))

    def refresh(self) -> None:
        self._show(np.concatenate(xyz_rpy_from_pose(self.session.tool)))

    def _apply(self, *_args) -> None:
        T = self.tool_transform()
        if np.allclose(T, self.session.tool, rtol=0, atol=1e-9):
            return  # e.g. the same tool written back
        with undo.labelled(self.session, "Change tool"):
            self.session.set_tool(T)

    def reset(self) -> None:
        """No tool: the TCP is the flange."""
        with undo.labelled(self.session, "No tool"):
            self.session.set_tool(np.eye(4))
