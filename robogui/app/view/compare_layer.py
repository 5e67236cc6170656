"""Several robots in one view: the companions of
:class:`robogui.session.geometry.compare.Comparison`
drawn as r6's plot draws a robot (a stick through the link frame origins, the tool point
last) with a dot at every joint, each in its own colour, beside or over the session's
robot; and the View > Compare menu that adds them.

Frames come from the comparison (batched ``fkine_all``, Qt-free); this module only puts
the points into two GL items per companion. Companions that follow the session's q are
redrawn when the session's frames change.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtGui, QtWidgets

from robogui.io.robotfile import list_robots, load_robot
from robogui.session.geometry.compare import Comparison

from .. import style
from ..bindings import Subscriptions

__all__ = ["CompareLayer", "install_compare"]

_DEPTH = 8  # after the opaque robot, before the ghosts


class CompareLayer:
    """Draws ``comparison``'s companions in ``view`` (a RobotView)."""

    def __init__(self, view, session, comparison: Comparison):
        self.view, self.session, self.comparison = view, session, comparison
        self.items: list[tuple[gl.GLLinePlotItem, gl.GLScatterPlotItem]] = []
        self.points = np.zeros((0, 3))  # every drawn point, to keep in view when fitting
        view.add_fit_points(lambda: self.points)
        self._subs = Subscriptions(view)
        self._subs.connect(comparison.events.changed, lambda _c: self.refresh(fit=True))
        self._subs.connect(session.events.frames, lambda _f: self._follow())
        view.robotRebuilt.connect(self._rebuilt)

    def _rebuilt(self) -> None:
        self.items = []  # the view removed every outside item
        self.refresh()

    def _follow(self) -> None:
        if any(c.q is None for c in self.comparison.companions):
            self.refresh()

    def refresh(self, fit: bool = False) -> None:
        comps = self.comparison.companions
        while len(self.items) > len(comps):
            for item in self.items.pop():
                self.view.removeItem(item)
        while len(self.items) < len(comps):
            line = gl.GLLinePlotItem(pos=np.zeros((2, 3)), width=4.0, mode="line_strip",
                                     antialias=True, glOptions="translucent")
            dots = gl.GLScatterPlotItem(pos=np.zeros((1, 3)), size=11.0, pxMode=True,
                                        glOptions="translucent")
            for item in (line, dots):
                item.setDepthValue(_DEPTH)
                self.view.addItem(item)
            self.items.append((line, dots))
        pts = []
        for (line, dots), comp, F in zip(self.items, comps, self.comparison.frames(),
                                         strict=True):
            p = F[:, :3, 3]
            rgba = style.rgba(comp.color, 0.95)
            line.setData(pos=p, color=rgba)
            dots.setData(pos=p[:-1], color=rgba)  # joints; the tool point ends the line
            pts.append(p)
        self.points = np.concatenate(pts) if pts else np.zeros((0, 3))
        if fit and comps and self.view.auto_fit:
            self.view.fit_to_robot()
        self.view.update()


def install_compare(window, menu: QtWidgets.QMenu) -> CompareLayer:
    """View > Compare: keep the current pose, add a library robot beside or over the first,
    remove them. Returns the layer (``window.compare`` holds it; ``.comparison`` the model)."""
    comparison = Comparison(window.session)
    layer = CompareLayer(window.view, window.session, comparison)
    sub = menu.addMenu("C&ompare")
    sub.setToolTip("several robots in one view: a second pose or a second arm")
    layer.act_keep_pose = QtGui.QAction("&Keep this pose (draw it over the robot)", window)
    layer.act_keep_pose.triggered.connect(lambda: _guard(window, comparison.add_pose))
    sub.addAction(layer.act_keep_pose)
    layer.robot_actions = {}
    for placement, title in (("beside", "Add robot &beside"), ("over", "Add robot &over")):
        m = sub.addMenu(title)
        for name in list_robots():
            act = m.addAction(name)
            act.triggered.connect(lambda _=False, n=name, p=placement: _guard(
                window, lambda: comparison.add_robot(load_robot(n), p)))
            layer.robot_actions[(placement, name)] = act
    sub.addSeparator()
    layer.act_clear = QtGui.QAction("&Remove them", window)
    layer.act_clear.triggered.connect(comparison.clear)
    sub.addAction(layer.act_clear)
    layer.comparison = comparison
    return layer


def _guard(window, fn) -> None:
    try:
        fn()
    except (ValueError, OSError) as exc:  # e.g. a fifth companion, a broken robot file
        window.error_presenter("Compare", str(exc))
