"""Words written over the 3D view, drawn from small pictures made once.

A QPainter on a GL surface lays out and rasterises a string at every ``drawText``; on
software GL each costs ~0.2 ms, and a frame of the view writes dozens (the grid values,
the triad's letters, the robot's name, the wrist letters, each with a soft outline). A
:class:`TextSprites` keeps the picture of each (text, colour, font, outline, pixel
ratio) and a frame draws pictures instead (``benchmarks/bench_drag.py``: the grid values
went from 2.7 ms to 0.1 ms of a 1600x1000 frame).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui

__all__ = ["TextSprites"]


class TextSprites:
    """Pictures of words, kept up to ``limit`` (then all forgotten: units, sizes and
    ghosts change, old words are not needed again)."""

    def __init__(self, limit: int = 512):
        self.limit = int(limit)
        self._kept: dict[tuple, QtGui.QPixmap] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, text: str, color, font: QtGui.QFont, painter: QtGui.QPainter,
            outline: float = 1.0, outline_alpha: int = 150) -> QtGui.QPixmap:
        """The picture of ``text`` in ``color`` (a colour name or QColor) with its soft
        outline (black at ``outline_alpha``) ``outline`` pixels down and right; its
        baseline at the font's ascent, its left edge at 0: drawn at (x, y - ascent) it
        stands where ``drawText((x, y), text)`` would write it."""
        device = painter.device()
        dpr = device.devicePixelRatioF() if device is not None else 1.0
        color = QtGui.QColor(color)
        key = (text, color.rgba(), font.key(), float(outline), int(outline_alpha), dpr)
        pm = self._kept.get(key)
        if pm is not None:
            return pm
        if len(self._kept) > self.limit:
            self._kept.clear()
        fm = QtGui.QFontMetricsF(font)
        pad = max(0.0, float(outline)) + 1.0
        w, h = fm.horizontalAdvance(text) + pad, fm.height() + pad
        img = QtGui.QImage(max(1, round(w * dpr)), max(1, round(h * dpr)),
                           QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        img.setDevicePixelRatio(dpr)
        img.fill(0)
        p = QtGui.QPainter(img)
        p.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
        p.setFont(font)
        p.setPen(QtGui.QColor(0, 0, 0, int(outline_alpha)))
        p.drawText(QtCore.QPointF(outline, fm.ascent() + outline), text)
        p.setPen(color)
        p.drawText(QtCore.QPointF(0, fm.ascent()), text)
        p.end()
        pm = self._kept[key] = QtGui.QPixmap.fromImage(img)
        return pm
