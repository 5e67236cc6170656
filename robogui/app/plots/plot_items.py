"""The themed pyqtgraph pieces of a plot panel: its colours, the seeking view box and the
y-axis caption plate (used by :mod:`robogui.app.plots.base`)."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["SeekViewBox", "PLOT_BACKGROUND", "AXIS_COLOR", "TEXT_COLOR", "CURSOR_COLOR",
           "NOTICE_STYLE"]

PLOT_BACKGROUND = "#22252a"  # a shade darker than the 3D view: curves stand out
AXIS_COLOR = "#8f98a6"
TEXT_COLOR = "#d5dae1"
CURSOR_COLOR = "#f2f4f7"
NOTICE_STYLE = ("QLabel#plotNotice { color: #d5dae1; background: #22252a; font-size: 11pt;"
                " padding: 24px; border: 1px dashed #4a505a; border-radius: 6px; }")


class SeekViewBox(pg.ViewBox):
    """A ViewBox whose left click / left drag calls ``seek(x, changing)`` instead of panning.

    When ``seek_enabled`` is False (no trajectory, or the live strip chart) it behaves
    like a plain ViewBox.
    """

    def __init__(self, seek: Callable[[float, bool], None], **kwargs):
        super().__init__(**kwargs)
        self._seek = seek
        self.seek_enabled = False

    def _x(self, ev) -> float:
        return float(self.mapSceneToView(ev.scenePos()).x())

    def mouseClickEvent(self, ev) -> None:  # noqa: N802
        if ev.button() == QtCore.Qt.MouseButton.LeftButton and self.seek_enabled:
            ev.accept()
            self._seek(self._x(ev), False)
            return
        super().mouseClickEvent(ev)

    def mouseDragEvent(self, ev, axis=None) -> None:  # noqa: N802
        if ev.button() == QtCore.Qt.MouseButton.LeftButton and self.seek_enabled and axis is None:
            ev.accept()
            # scrubbing is a drag ("changing"); the release completes the change
            self._seek(self._x(ev), not ev.isFinish())
            return
        super().mouseDragEvent(ev, axis)


class _Caption(QtWidgets.QGraphicsRectItem):
    """A y label written horizontally in the top-left corner of a view box, on a
    translucent plate so the curves under it do not blur it. Clicks go through."""

    PAD = 3.0

    def __init__(self, parent: QtWidgets.QGraphicsItem):
        super().__init__(parent)
        plate = QtGui.QColor(PLOT_BACKGROUND)
        plate.setAlphaF(0.85)
        self.setBrush(plate)
        self.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
        self.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(2000)  # above curves, limits and the cursor
        self.text_item = QtWidgets.QGraphicsSimpleTextItem(self)
        self.text_item.setBrush(QtGui.QColor(TEXT_COLOR))
        self.text_item.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)
        self.setPos(2.0, 2.0)
        self.hide()

    def set_text(self, text: str) -> None:
        self.text_item.setText(text)
        r = self.text_item.boundingRect()
        self.text_item.setPos(self.PAD, 0.0)
        self.setRect(0.0, 0.0, r.width() + 2 * self.PAD, r.height())

    def text(self) -> str:
        return self.text_item.text()
