"""D-H frames and parameters on the 3D model: labelled triads {i} and the textbook figure.

:class:`DHFramesOverlay` puts into a :class:`~robogui.app.view.view3d.RobotView`:

* one triad per link frame {0}..{n}, a ``GLLinePlotItem`` built once per robot and
  placed by ``setTransform`` on every frame change;
* one ``GLLinePlotItem`` per d, theta, a and alpha mark of every link, built once per
  robot in the coordinates of the link frame it belongs to
  (:func:`robogui.session.explain.dh_frames.local_marks`, Qt-free) and placed by
  ``setTransform``; only the shapes that depend on q (the theta arc of a revolute
  joint, the d segment of a prismatic one) get new vertices when q changes;
* the labels ({i} and "d2 = 0.150 m", ...) painted over the scene at projected points.

``mode`` is "off", "all" (every link) or "one" (only the highlighted link); selecting
a row of the D-H table or stepping the chain panel calls :meth:`highlight`. An extra
frame (the chain panel's running product T(0,i)) is drawn by :meth:`show_extra_frame`.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtCore, QtGui

from robogui.session.explain.dh_frames import dh_annotations, frame_label, local_marks

from .. import style
from ..bindings import Subscriptions

__all__ = ["DHFramesOverlay", "MODES", "PARAM_COLORS"]

MODES = ("off", "all", "one")
PARAM_COLORS = {"d": "#4f8dff", "theta": "#ffb000", "a": "#ff5a4f", "alpha": "#d070ff"}
HIGHLIGHT = "#ffff40"
EXTRA = "#40ffd0"


def _triad_lines(length: float, colors) -> tuple[np.ndarray, np.ndarray]:
    pos = np.zeros((6, 3))
    col = np.zeros((6, 4))
    for k in range(3):
        pos[2 * k + 1, k] = length
        col[2 * k:2 * k + 2] = style.rgba(colors[k])
    return pos, col


class DHFramesOverlay:
    """The D-H annotations of ``session``'s robot in ``view`` (see the module docstring)."""

    def __init__(self, view, session, mode: str = "off"):
        self.view, self.session = view, session
        self.mode = "off"
        self.highlighted = -1
        self.scale = 1.0  # presentation mode: thicker lines, larger labels and axes
        self.marks = []
        self.triads: list[gl.GLLinePlotItem] = []
        self.extra = None  # (4, 4) frame drawn in EXTRA colour, or None
        self.extra_item = None
        self.mark_items: list[tuple] = []  # (LocalMark, GLLinePlotItem), built per robot
        self._drawn = True  # something may be visible (hidden once when turned off)
        self._subs = Subscriptions(view)
        self._subs.connect(session.events.robot, lambda _r: self.rebuild())
        self._subs.connect(session.events.tool, lambda _t: self.update())
        self._subs.connect(session.events.frames, lambda _f: self.update())
        self._subs.connect(session.display.events.angle_unit, lambda _u: self.update())
        self._subs.connect(session.display.events.length_unit, lambda _u: self.update())
        view.robotRebuilt.connect(self._readd)
        view.overlay_painters.append(self.paint_labels)
        self.rebuild()
        self.set_mode(mode)

    # -- building --------------------------------------------------------------------------
    def _length(self) -> float:
        return 0.12 * self.session.robot.reach * self.scale

    def _radius(self) -> float:
        return 0.6 * self._length()

    def _nothing_shown(self) -> bool:
        return not self.visible_links() and self.extra is None

    def rebuild(self) -> None:
        """Triads and marks for the current robot (built once per robot, when first shown:
        opening a long chain does not pay for marks nobody looks at)."""
        if self._nothing_shown():
            self._remove_items()
            self.triads, self.mark_items, self.extra_item = [], [], None
            self.marks, self._drawn = [], False
            if self.highlighted >= self.session.robot.n_bodies:
                self.highlighted = -1
            return
        self._build()

    def _remove_items(self) -> None:
        for item in [*self.triads, *(it for _m, it in self.mark_items), self.extra_item]:
            if item is not None and item in self.view.items:
                self.view.removeItem(item)

    def _build(self) -> None:
        self._remove_items()
        pos, col = _triad_lines(self._length(), style.AXIS_COLORS)
        self.triads = [gl.GLLinePlotItem(pos=pos, color=col, mode="lines", antialias=True,
                                         width=2.0 * self.scale)
                       for _ in range(self.session.robot.n_bodies + 1)]
        s = self.session
        self.mark_items = []
        for m in local_marks(s.robot, s.q, self._radius()):
            item = gl.GLLinePlotItem(pos=m.points, mode="line_strip", antialias=True,
                                     color=style.rgba(PARAM_COLORS[m.name]),
                                     width=2.5 * self.scale)
            item.setDepthValue(20)
            item._color = PARAM_COLORS[m.name]
            self.mark_items.append((m, item))
        pos, col = _triad_lines(1.4 * self._length(), (EXTRA, EXTRA, EXTRA))
        self.extra_item = gl.GLLinePlotItem(pos=pos, color=col, mode="lines", antialias=True,
                                            width=4.0 * self.scale)
        if self.highlighted >= self.session.robot.n_bodies:
            self.highlighted = -1
        self._drawn = True  # new items start visible: the next update hides them if off
        self._readd()

    def _readd(self) -> None:
        for item in [*self.triads, *(it for _m, it in self.mark_items), self.extra_item]:
            if item is not None and item not in self.view.items:
                self.view.addItem(item)
        self.update()

    # -- state -------------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.mode = mode
        self.update()

    def highlight(self, link: int) -> None:
        """Highlight link ``link`` (0-based; -1 none) and its parameters."""
        self.highlighted = int(link) if 0 <= int(link) < self.session.robot.n_bodies else -1
        self.update()

    def set_scale(self, scale: float) -> None:
        self.scale = float(scale)
        self.rebuild()

    def show_extra_frame(self, T: np.ndarray | None) -> None:
        """Draw the frame ``T`` (4, 4) in a distinct colour (None hides it)."""
        self.extra = None if T is None else np.asarray(T, float)
        self.update()

    def visible_links(self) -> list[int]:
        n = self.session.robot.n_bodies
        if self.mode == "off":
            return []
        if self.mode == "one":
            return [self.highlighted] if self.highlighted >= 0 else []
        return list(range(n))

    # -- every change ----------------------------------------------------------------------
    def update(self) -> None:
        s = self.session
        links = self.visible_links()
        if not links and self.extra is None:  # nothing to draw: no work per frame
            if self._drawn and self.triads:
                for item in [*self.triads, *(it for _m, it in self.mark_items),
                             self.extra_item]:
                    item.setVisible(False)
                self.marks, self._drawn = [], False
                self.view.update()
            return
        if len(self.triads) != s.robot.n_bodies + 1:  # not built yet for this robot (lazy),
            self._build()  # or the view rebuilt before our robot event; calls update again
            return
        self._drawn = True
        F = s.frames.copy()
        F[-1] = F[-1] @ np.linalg.inv(s.robot.tool)
        shown_frames = set()
        for k in links:
            shown_frames |= {k, k + 1}
        for i, item in enumerate(self.triads):
            item.setTransform(QtGui.QMatrix4x4(*F[i].ravel().tolist()))
            item.setVisible(i in shown_frames)
        # labels and tests: the world-space marks (Qt-free)
        self.marks = ([m for m in dh_annotations(s.robot, s.q, s.frames, radius=self._radius(),
                                                 angle_unit=s.display.angle_unit,
                                                 length_unit=s.display.length_unit)
                       if m.link in links and self._worth_showing(m)] if links else [])
        shown = {(m.link, m.name) for m in self.marks}
        variable = None
        for m, item in self.mark_items:
            visible = (m.link, m.name) in shown
            item.setVisible(visible)
            if not visible:
                continue
            if m.varies:  # the theta arc follows q: new vertices in its own frame
                if variable is None:
                    variable = {(v.link, v.name): v for v in local_marks(
                        s.robot, s.q, self._radius()) if v.varies}
                now = variable.get((m.link, m.name))
                if now is None:  # the robot changed and rebuild() has not run yet
                    continue
                item.setData(pos=now.points)
            item.setTransform(QtGui.QMatrix4x4(*F[m.frame].ravel().tolist()))
            color = (HIGHLIGHT if m.link == self.highlighted and self.mode == "all"
                     else PARAM_COLORS[m.name])
            if item._color != color:
                item._color = color
                width = (3.5 if m.link == self.highlighted else 2.5) * self.scale
                item.setData(color=style.rgba(color), width=width)
        if self.extra_item is not None:
            if self.extra is not None:
                self.extra_item.setTransform(QtGui.QMatrix4x4(*self.extra.ravel().tolist()))
            self.extra_item.setVisible(self.extra is not None)
        self.view.update()

    def _worth_showing(self, mark) -> bool:
        """All links: a zero parameter is left out, as in the textbook figure (except for
        the highlighted link); one link: all four are drawn."""
        return (self.mode == "one" or mark.link == self.highlighted
                or abs(mark.value) > 1e-9)

    # -- labels ------------------------------------------------------------------------------
    def labels(self) -> list[tuple[np.ndarray, str, str]]:
        """(world point (3,), text, colour) of every label drawn now."""
        s = self.session
        F = s.frames.copy()
        F[-1] = F[-1] @ np.linalg.inv(s.robot.tool)
        out = []
        shown = {i for i, t in enumerate(self.triads) if t.visible()}
        for i in sorted(shown):
            out.append((F[i, :3, 3], frame_label(i),
                        HIGHLIGHT if i == self.highlighted + 1 else style.LABEL))
        for m in self.marks:
            out.append((m.label_at, m.text,
                        HIGHLIGHT if m.link == self.highlighted else PARAM_COLORS[m.name]))
        if self.extra is not None:
            out.append((self.extra[:3, 3], "T(0,i)", EXTRA))
        return out

    def label_positions(self) -> dict[str, np.ndarray]:
        """Label text -> world position (3,) (for tests and the chain panel)."""
        return {text: p for p, text, _c in self.labels()}

    def paint_labels(self, painter: QtGui.QPainter, scene) -> None:
        labels = self.labels()
        if not labels:
            return
        xy = scene.project(np.array([p for p, _t, _c in labels]))
        font = scene.font()
        k = getattr(scene, "overlay_scale", 1.0)  # > 1 in pictures larger than the screen
        font.setPointSizeF(10.0 * self.scale * k)
        font.setBold(True)
        painter.setFont(font)
        fm = painter.fontMetrics()
        placed: list[QtCore.QRectF] = []
        for (_p, text, color), (x, y) in zip(labels, xy, strict=True):
            rect = QtCore.QRectF(x + 6, y - 6 - fm.ascent(), fm.horizontalAdvance(text),
                                 fm.height())
            # frames of a spherical wrist share a point: stack their labels, never overlap
            while any(rect.intersects(r) for r in placed):
                rect.translate(0, fm.height())
            placed.append(rect)
            pt = QtCore.QPointF(rect.left(), rect.top() + fm.ascent())
            painter.setPen(QtGui.QColor(0, 0, 0, 170))
            painter.drawText(pt + QtCore.QPointF(1, 1), text)
            painter.setPen(QtGui.QColor(color))
            painter.drawText(pt, text)

    def close(self) -> None:
        self._subs.clear()
        if self.paint_labels in self.view.overlay_painters:
            self.view.overlay_painters.remove(self.paint_labels)
        for item in [*self.triads, *(it for _m, it in self.mark_items), self.extra_item]:
            if item is not None and item in self.view.items:
                self.view.removeItem(item)
