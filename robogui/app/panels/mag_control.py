"""View > Annotation size: r6's ``mag`` for the 3D view (joint cylinders, axes, labels).

``session.display.mag`` scales every annotation of the robot drawing (the view rebuilds its
items when it changes); the window's settings remember it between runs, and
``robogui render --mag`` sets it for pictures and videos. This adds a spin box and
"Larger" / "Smaller" steps (a factor 1.25) to the View menu.
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

from ..bindings import SpinBoxBinding, field_ref

__all__ = ["MagControl", "MAG_RANGE", "MAG_STEP"]

MAG_RANGE = (0.1, 10.0)
MAG_STEP = 1.25  # one "Larger" step


class MagControl:
    """The menu entries; ``spin`` (a QDoubleSpinBox bound to ``display.mag``),
    ``act_larger``, ``act_smaller`` and ``act_reset``."""

    def __init__(self, window: QtWidgets.QMainWindow, session, menu: QtWidgets.QMenu):
        self.display = session.display
        sub = menu.addMenu("&Annotation size")
        sub.setToolTip("size of the joints, axes and labels drawn on the robot (r6 'mag')")
        self.spin = QtWidgets.QDoubleSpinBox()
        self.spin.setObjectName("mag_spin")
        self.spin.setToolTip("annotation size factor (r6 plot 'mag'); 1 is the default")
        self.binding = SpinBoxBinding(self.spin, field_ref(self.display, "mag"))
        self.binding.set_scale(1.0, *MAG_RANGE, 2, " \u00d7")
        self.spin.setSingleStep(0.1)
        holder = QtWidgets.QWidget()
        row = QtWidgets.QHBoxLayout(holder)
        row.setContentsMargins(24, 2, 8, 2)
        row.addWidget(QtWidgets.QLabel("mag"))
        row.addWidget(self.spin)
        wa = QtWidgets.QWidgetAction(sub)
        wa.setDefaultWidget(holder)
        sub.addAction(wa)
        self.act_larger = QtGui.QAction("&Larger", window)
        self.act_larger.triggered.connect(lambda: self.step(MAG_STEP))
        self.act_smaller = QtGui.QAction("&Smaller", window)
        self.act_smaller.triggered.connect(lambda: self.step(1.0 / MAG_STEP))
        self.act_reset = QtGui.QAction("&Default size", window)
        self.act_reset.triggered.connect(lambda: setattr(self.display, "mag", 1.0))
        for act in (self.act_larger, self.act_smaller, self.act_reset):
            sub.addAction(act)
        self.menu = sub

    def step(self, factor: float) -> None:
        lo, hi = MAG_RANGE
        self.display.mag = round(min(hi, max(lo, self.display.mag * factor)), 4)
