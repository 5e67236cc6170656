"""F11: the 3D view alone on the whole screen, with the TCP pose and q written over it.

Entering hides the docks, toolbars, menu and status bars and shows the window full
screen; leaving (F11 again, or Esc) puts the layout and the window state back as they
were. While full screen, the view draws a readout in its top-left corner: the joint
vector and the tool pose in the display units (the same text as the pose panel's copy).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.explain import readout

__all__ = ["FullScreenView", "overlay_lines"]


def overlay_lines(session) -> list[str]:
    """The readout drawn over the full-screen view: q, TCP position and orientation."""
    d = session.display
    text = readout.pose_text(session.T, orientation_kind=d.orientation, angle_unit=d.angle_unit,
                             length_unit=d.length_unit, q=session.q,
                             structure=session.robot.structure)
    lines = text.splitlines()
    return ["TCP " + ln if ln.startswith(("position", "orientation")) else ln
            for ln in lines[: lines.index("T =")]]


class FullScreenView(QtCore.QObject):
    """The F11 action of ``window`` (a MainWindow with ``view`` and ``session``)."""

    def __init__(self, window: QtWidgets.QMainWindow):
        super().__init__(window)
        self.window = window
        self.active = False
        self._saved: tuple | None = None
        self.action = QtGui.QAction("&Full-screen 3D view", window)
        self.action.setCheckable(True)
        self.action.setShortcut(QtGui.QKeySequence("F11"))
        self.action.setStatusTip("The 3D view alone on the screen, with the TCP pose and q "
                                 "(F11 or Esc to leave)")
        self.action.toggled.connect(self.set_active)
        window.addAction(self.action)
        self._escape = QtGui.QShortcut(QtGui.QKeySequence("Esc"), window)
        self._escape.setEnabled(False)
        self._escape.activated.connect(lambda: self.action.setChecked(False))
        window.view.scene.add_overlay(self._paint)

    def set_active(self, on: bool) -> None:
        """Enter or leave the full-screen 3D view."""
        w = self.window
        if on == self.active:
            return
        self.active = on
        self._escape.setEnabled(on)
        if on:
            bars = [b for b in w.findChildren(QtWidgets.QToolBar) if not b.isHidden()]
            docks = [d for d in w.findChildren(QtWidgets.QDockWidget) if not d.isHidden()]
            self._saved = (w.saveState(), w.windowState(), bars, docks)
            for widget in [*docks, *bars, w.menuBar(), w.statusBar()]:
                widget.hide()
            w.showFullScreen()
        else:
            state, window_state, bars, docks = self._saved
            w.setWindowState(window_state)
            for widget in [*bars, w.menuBar(), w.statusBar(), *docks]:
                widget.show()
            w.restoreState(state)
            tasks = getattr(w, "tasks", None)
            if tasks is not None:
                tasks.hide_stale_tab_bars()
        if self.action.isChecked() != on:
            self.action.setChecked(on)
        w.view.update()

    def _paint(self, painter: QtGui.QPainter) -> None:
        if not self.active:
            return
        lines = overlay_lines(self.window.session)
        font = QtGui.QFont(self.window.view.scene.font())
        font.setPointSizeF(11.0)
        painter.setFont(font)
        fm = painter.fontMetrics()
        width = max(fm.horizontalAdvance(ln) for ln in lines) + 20
        height = fm.height() * len(lines) + 14
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(QtGui.QColor(20, 22, 26, 190))
        painter.drawRoundedRect(QtCore.QRectF(12, 12, width, height), 6, 6)
        painter.setPen(QtGui.QColor("#e6e9ee"))
        for k, ln in enumerate(lines):
            painter.drawText(QtCore.QPointF(22, 19 + fm.ascent() + k * fm.height()), ln)
