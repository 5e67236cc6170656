"""Reading positions off the 3D view: a world-origin triad, metric labels along the
world axes on the floor grid, and the IK branch letters (lun, ruf, ...) on the ghosts.

The triad is three GL lines at the world origin (built once per robot, like the rest of
the scene); the words are drawn over the scene at their projected points: the values of
every second grid line along the world x and y axes, and each ghost's branch next to its
elbow (stacked when two ghosts share the spot, as wrist flips do).

Each word is drawn from a small picture of it (its text and soft outline), made once per
text, colour and size and kept (:class:`TextSprites`, which the 3D view also uses for
the robot's name and wrist letters). A QPainter on a GL surface lays out and rasterises a
string at every ``drawText``; on software GL each costs ~0.2 ms, and a frame writes
dozens: the grid values went from 2.7 ms to 0.1 ms of a 1600x1000 frame
(``benchmarks/bench_drag.py``).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtCore, QtGui

from robogui.session.explain import readout

from .. import style

__all__ = ["ViewLabels", "TextSprites", "grid_labels"]

_GRID_TEXT = "#8f98a6"
_GHOST_TEXT = {"selected": "#63d4ff", "candidate": "#c9ced6", "invalid": "#ff7a70"}


def grid_labels(grid, length_unit: str = "mm") -> list[tuple[np.ndarray, str]]:
    """World points (3,) and texts of the grid's values along the world x and y axes on
    the floor, every second grid line. ``grid`` = (bx, by, half, step, z) as the view built
    its floor: lines every ``step`` within ``half`` of the base (bx, by)."""
    bx, by, half, step, z = grid
    every = 2 * step
    out = []
    for axis, centre in ((0, bx), (1, by)):
        lo = np.ceil((centre - half) / every) * every
        for v in np.arange(lo, centre + half + 1e-9, every):
            if abs(v) < 1e-9:
                continue  # the origin has the triad
            p = np.array([0.0, 0.0, z])
            p[axis] = v
            out.append((p, f"{'xy'[axis]} {_length(v, length_unit)}"))
    return out


def _length(v: float, unit: str) -> str:
    """A grid value in the display unit: ``500 mm`` or ``0.5 m``."""
    v = v * readout.length_scale(unit)
    v = 0.0 if abs(v) < 1e-9 else v
    return f"{v:.0f} mm" if unit == "mm" else f"{v:.4g} m"


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


class ViewLabels:
    """The triad, grid values and ghost labels in ``view`` (``state``: the teach state)."""

    def __init__(self, view, session, state=None):
        self.view, self.session, self.state = view, session, state
        self.items: list = []
        self.enabled = True
        self.drawn: list[tuple[str, QtCore.QRectF]] = []  # the last paint's texts and boxes
        self._sprites = TextSprites()  # the words' pictures, made once
        view.robotRebuilt.connect(self._build)
        view.scene.add_overlay(self._paint)
        self._build()

    def _build(self) -> None:
        sc = self.view.scene
        if getattr(sc, "floor_grid", None) is None:
            return
        length = 0.25 * self.session.robot.reach  # in sight, not across the scene
        self.items = []
        for i, color in enumerate(style.AXIS_COLORS):
            end = np.zeros(3)
            end[i] = length
            item = gl.GLLinePlotItem(pos=np.stack([np.zeros(3), end]), color=style.rgba(color),
                                     width=3.0 * sc.label_scale, mode="lines", antialias=True,
                                     glOptions="translucent")
            item.setDepthValue(-18)  # over the grid, under the robot
            sc.addItem(item)
            self.items.append(item)
        self.triad_length = length

    def texts(self) -> list[tuple[np.ndarray, str, str]]:
        """Everything written over the view now: (world point (3,), text, colour)."""
        return self._grid_texts() + self._marks()

    def _grid_texts(self) -> list[tuple[np.ndarray, str, str]]:
        sc, d = self.view.scene, self.session.display
        if not d.show_floor or getattr(sc, "floor_grid", None) is None:
            return []
        return [(p, t, _GRID_TEXT) for p, t in grid_labels(sc.floor_grid, d.length_unit)]

    def _marks(self) -> list[tuple[np.ndarray, str, str]]:
        """The triad's letters and the ghosts' branches: always written."""
        sc = self.view.scene
        out = []
        if self.session.display.show_floor and getattr(sc, "floor_grid", None) is not None:
            L = 1.12 * self.triad_length
            out += [(np.eye(3)[i] * L, "xyz"[i], style.AXIS_COLORS[i]) for i in range(3)]
        if self.state is not None and self.state.ghosts:
            F = self.state.ghost_frames
            ghosts = [g for g in self.state.ghosts if g.q.size == self.session.robot.n]
            for g, frames in zip(ghosts, F, strict=False):
                if g.label:
                    # by the elbow: every branch reaches the same wrist, not the same elbow
                    elbow = frames[max(1, (len(frames) - 1) // 2 - 1), :3, 3]
                    out.append((elbow, g.label, _GHOST_TEXT[g.role]))
        return out

    def _paint(self, painter: QtGui.QPainter) -> None:
        if not self.enabled:
            return
        marks, grid = self._marks(), self._grid_texts()
        if not marks and not grid:
            return
        sc = self.view.scene
        font = QtGui.QFont(sc.font())
        font.setPointSizeF(9.0 * sc.label_scale)  # larger in presentation mode
        painter.setFont(font)
        fm = painter.fontMetrics()
        w, h = sc.width(), sc.height()
        # what is already written (the robot's name, the wrist letters), then each label
        # drawn here: a grid value that would overlap any of them is left out (the
        # presentation mode's large letters crowd a small view), marks never are
        written = list(sc.label_rects)
        self.drawn = []
        points = sc.project(np.array([p for p, _, _ in marks + grid]))
        taken: list[tuple[float, float]] = []
        for k, ((_, text, color), (x, y)) in enumerate(zip(marks + grid, points, strict=True)):
            if not (0 <= x <= w and 0 <= y <= h):
                continue
            if k < len(marks):
                # labels on one spot (ghosts sharing a wrist) are stacked, not overprinted
                while any(abs(x - a) < 30 and abs(y - b) < fm.height() for a, b in taken):
                    y += fm.height()
                taken.append((x, y))
            box = QtCore.QRectF(x + 4, y - 4 - fm.ascent(), fm.horizontalAdvance(text),
                                fm.height())
            if k >= len(marks) and any(box.adjusted(-3, -1, 3, 1).intersects(r)
                                       for r in written):
                continue
            written.append(box)
            self.drawn.append((text, box))
            # the baseline at (x + 4, y - 4), as the text would be written there
            painter.drawPixmap(QtCore.QPointF(x + 4, y - 4 - fm.ascent()),
                               self._sprites.get(text, color, font, painter))
