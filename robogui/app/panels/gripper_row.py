"""The gripper's row in the joint panel: Close, a slider for the opening, Open, and the
finger travel it gives (``session.gripper``, Qt-free).

The gripper joints are no arm joints (q never holds them); the row drives them all at
once through one opening value (0 closed .. 1 open), so mimic fingers follow. A drag is
one undo step (at release); a button press, a wheel or key tick one step each (ticks in
a row merge).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets

from .. import undo
from ..bindings import Subscriptions

__all__ = ["GripperRow"]

STEPS = 1000  # slider ticks from closed to open


class GripperRow(QtWidgets.QFrame):
    """Open/close control for ``session``'s gripper (hidden while the robot has none)."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.setObjectName("gripperRow")
        self.session = session
        self._updating = False
        self._drag_from: float | None = None
        name = QtWidgets.QLabel("<b>Gripper</b>")
        name.setToolTip("the gripper's joints, driven together (mimic fingers follow); "
                        "they are not arm joints")
        self.close_button = QtWidgets.QPushButton("Close")
        self.close_button.setToolTip("close the gripper (one undo step)")
        self.open_button = QtWidgets.QPushButton("Open")
        self.open_button.setToolTip("open the gripper (one undo step)")
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setRange(0, STEPS)
        self.slider.setMinimumWidth(100)
        self.slider.setToolTip("drag to open or close the gripper (one undo step per drag)")
        self.value = QtWidgets.QLabel()
        self.value.setMinimumWidth(64)
        self.value.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight
                                | QtCore.Qt.AlignmentFlag.AlignVCenter)
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(4, 3, 4, 3)
        row.setSpacing(4)
        row.addWidget(name)
        row.addWidget(self.close_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.open_button)
        row.addWidget(self.value)
        self.close_button.clicked.connect(lambda: self._step("Close gripper", 0.0))
        self.open_button.clicked.connect(lambda: self._step("Open gripper", 1.0))
        self.slider.sliderPressed.connect(self._pressed)
        self.slider.sliderReleased.connect(self._released)
        self.slider.valueChanged.connect(self._moved)
        self._subs = Subscriptions(self)
        self._subs.connect(session.gripper.events.opening, lambda _v: self._show())
        self._subs.connect(session.events.robot, lambda _r: self._show())
        self._show()

    def release(self) -> None:
        """Stop following the session."""
        self._subs.clear()

    # -- session -> widgets ------------------------------------------------------------
    def _show(self) -> None:
        g = self.session.gripper
        joints = g.joints
        self.setVisible(bool(joints))
        if not joints:
            return
        self._updating = True
        try:
            self.slider.setValue(round(g.opening * STEPS))
        finally:
            self._updating = False
        v = g.travel()
        self.value.setText(f"{math.degrees(v):.1f} deg" if joints[0].revolute
                           else f"{v * 1e3:.1f} mm")
        self.value.setToolTip(f"{joints[0].name}: {self.value.text()} "
                              f"({100 * g.opening:.0f} % open)")

    # -- widgets -> session ------------------------------------------------------------
    def _step(self, text: str, value: float, merge_key=None) -> None:
        g = self.session.gripper
        if not g.joints:
            return
        old = g.opening
        manager = undo.manager_for(self.session)
        if manager is None:
            g.set_opening(value)
            return
        manager.push_session_change(text, lambda: g.set_opening(value),
                                    lambda: g.set_opening(old), merge_key)

    def _pressed(self) -> None:
        self._drag_from = self.session.gripper.opening

    def _moved(self, tick: int) -> None:
        if self._updating:
            return
        value = tick / STEPS
        if self.slider.isSliderDown():  # a drag: shown now, one undo step at release
            self.session.gripper.set_opening(value)
        else:  # a wheel or key tick
            self._step("Move gripper", value, ("gripper",))

    def _released(self) -> None:
        g = self.session.gripper
        old, self._drag_from = self._drag_from, None
        new = self.slider.value() / STEPS
        g.set_opening(new)
        manager = undo.manager_for(self.session)
        if manager is None or old is None or abs(new - old) < 1e-12:
            return
        undo.close_merge(self.session)
        manager.push_session_change("Move gripper", lambda: g.set_opening(new),
                                    lambda: g.set_opening(old), applied=True)
