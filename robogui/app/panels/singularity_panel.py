"""Singularities explained, live: the lost directions as arrows at the TCP, and in words.

Follows the session's frames (so it is live while jogging and while a slider or a 3D
handle is dragged): :attr:`Session.singularity
<robogui.session.session.Session.singularity>` (the SVD of the cached Jacobian) gives
the lost Cartesian directions, the joint motions that do not move the tool and the kind;
this panel says them and draws each lost direction as a double arrow through the TCP
(translation: red; rotation axis: magenta).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtCore, QtWidgets

from .. import style
from ..bindings import Subscriptions

__all__ = ["SingularityPanel", "arrow_segments"]

TRANSLATE_COLOR = "#ff4040"
ROTATE_COLOR = "#ff40ff"


def arrow_segments(origin: np.ndarray, direction: np.ndarray, length: float) -> np.ndarray:
    """Line segments (10, 3) of a double-headed arrow through ``origin`` along the unit
    ``direction`` (total length ``2 * length``)."""
    d = np.asarray(direction, float)
    o = np.asarray(origin, float)
    side = np.cross(d, [0.0, 0.0, 1.0])
    if np.linalg.norm(side) < 1e-6:
        side = np.cross(d, [1.0, 0.0, 0.0])
    side /= np.linalg.norm(side)
    a, b = o - length * d, o + length * d
    h = 0.2 * length
    return np.array([a, b,
                     b, b - h * d + 0.5 * h * side, b, b - h * d - 0.5 * h * side,
                     a, a + h * d + 0.5 * h * side, a, a + h * d - 0.5 * h * side])


class SingularityPanel(QtWidgets.QWidget):
    """The explanation in words, with arrows in ``view`` (None: words only)."""

    def __init__(self, session, view=None, parent=None):
        super().__init__(parent)
        self.session, self.view = session, view
        self.scale = 1.0
        self.text = QtWidgets.QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.values = QtWidgets.QLabel()
        self.values.setFont(style.monospace_font())
        self.values.setWordWrap(True)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.text)
        layout.addWidget(self.values)
        layout.addStretch(1)
        self.arrows = None
        if view is not None:
            self.arrows = gl.GLLinePlotItem(pos=np.zeros((2, 3)), mode="lines", antialias=True)
            self.arrows.setDepthValue(30)
            self.arrows.setVisible(False)
            view.robotRebuilt.connect(self._readd)
            self._readd()
        subs = self._subs = Subscriptions(self)
        subs.connect(session.events.frames, lambda _f: self.refresh(), paced=True)
        subs.connect(session.events.robot, lambda _r: self.refresh())
        self.refresh()

    def _readd(self) -> None:
        if self.arrows is not None and self.arrows not in self.view.items:
            self.view.addItem(self.arrows)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.refresh()

    def hideEvent(self, event) -> None:  # noqa: N802
        super().hideEvent(event)
        if self.arrows is not None:  # the arrows belong to the open panel
            self.arrows.setVisible(False)
            self.view.update()

    def refresh(self) -> None:
        if not self.isVisible():
            return  # nothing computed per frame while the panel is closed
        e = self.session.singularity
        s = e.singular_values
        self.values.setText("singular values of J: " + "  ".join(f"{v:.3g}" for v in s))
        if e.near:
            lines = [f"<b>{e.kind_text[0].upper()}{e.kind_text[1:]}</b>"]
            for d in e.lost:
                color = TRANSLATE_COLOR if d.motion == "translate" else ROTATE_COLOR
                lines.append(f"<span style='color:{color}'>\u2194 {d.text}</span>")
        else:
            lines = ["Not near a singularity: the tool can move in every direction it "
                     "controls."]
        lines += [f"Null space: {t}" for t in e.null_text]
        self.text.setText("<br>".join(lines))
        self._draw(e)

    def _draw(self, e) -> None:
        if self.arrows is None:
            return
        if not e.near or not e.lost:
            self.arrows.setVisible(False)
            self.view.update()
            return
        tcp = self.session.T[:3, 3]
        length = 0.15 * self.session.robot.reach * self.scale
        pos, col = [], []
        for d in e.lost:
            seg = arrow_segments(tcp, d.axis, length)
            pos.append(seg)
            c = style.rgba(TRANSLATE_COLOR if d.motion == "translate" else ROTATE_COLOR)
            col.append(np.tile(c, (len(seg), 1)))
        self.arrows.setData(pos=np.vstack(pos), color=np.vstack(col), width=3.0 * self.scale)
        self.arrows.setVisible(True)
        self.view.update()

    def arrow_directions(self) -> list[np.ndarray]:
        """Unit directions (3,) of the arrows drawn now (tests)."""
        if self.arrows is None or not self.arrows.visible():
            return []
        pos = self.arrows.pos
        out = []
        for k in range(0, len(pos), 10):
            v = pos[k + 1] - pos[k]
            out.append(v / np.linalg.norm(v))
        return out

    def set_scale(self, scale: float) -> None:
        self.scale = float(scale)
        self.refresh()
