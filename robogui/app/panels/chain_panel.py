"""The chain panel: step through forward kinematics, i = 1..n.

Step i highlights link i in the 3D view with its D-H parameters, shows A(i) as numbers
at the current q and as the JFKengine expression, and the running product T(0,i), whose
frame is drawn in the view. Buttons, or the keys Right/Down/PageDown (next),
Left/Up/PageUp (previous), Home and End. The numbers come from
:func:`robogui.session.explain.chain.chain_step` (Qt-free).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtWidgets

from robogui.session.explain.chain import ChainStep, chain_step, matrix_text

from .. import style
from ..bindings import Subscriptions

__all__ = ["ChainPanel"]

Key = QtCore.Qt.Key


def _matrix_html(rows: list[list[str]]) -> str:
    cells = "".join(
        "<tr>" + "".join(f"<td align='right'>&nbsp;{v}&nbsp;</td>" for v in row) + "</tr>"
        for row in rows)
    return f"<table cellspacing='0' style='font-family: monospace'>{cells}</table>"


class ChainPanel(QtWidgets.QWidget):
    """Step i = 1..n through the chain; ``frames`` is the 3D view's
    :class:`~robogui.app.view.dh_frames_item.DHFramesOverlay` (or None)."""

    stepped = QtCore.Signal(int)

    def __init__(self, session, frames=None, parent=None):
        super().__init__(parent)
        self.session = session
        self.frames = frames
        self.i = 0  # 0: not stepping
        self.step: ChainStep | None = None
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.title = QtWidgets.QLabel()
        self.prev_button = QtWidgets.QPushButton("\u25c0 Previous")
        self.next_button = QtWidgets.QPushButton("Next \u25b6")
        self.stop_button = QtWidgets.QPushButton("Stop")
        self.prev_button.clicked.connect(lambda: self.go(max(1, self.i - 1)))
        self.next_button.clicked.connect(
            lambda: self.go(min(self.session.robot.n_bodies, self.i + 1)))
        self.stop_button.clicked.connect(lambda: self.go(0))
        for b, tip in ((self.prev_button, "previous link (Left)"),
                       (self.next_button, "next link (Right)"), (self.stop_button, "Escape")):
            b.setToolTip(tip)
            b.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # keys go to the panel
        self.numeric = QtWidgets.QLabel()
        self.symbolic = QtWidgets.QLabel()
        self.product = QtWidgets.QLabel()
        for lab in (self.numeric, self.symbolic, self.product):
            lab.setFont(style.monospace_font())
            lab.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.numeric_title = QtWidgets.QLabel()
        self.symbolic_title = QtWidgets.QLabel()
        self.product_title = QtWidgets.QLabel()
        buttons = QtWidgets.QHBoxLayout()
        for b in (self.prev_button, self.next_button, self.stop_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        inner = QtWidgets.QWidget()
        form = QtWidgets.QVBoxLayout(inner)
        for w in (self.numeric_title, self.numeric, self.symbolic_title, self.symbolic,
                  self.product_title, self.product):
            form.addWidget(w)
        form.addStretch(1)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.title)
        layout.addLayout(buttons)
        layout.addWidget(scroll, 1)
        subs = self._subs = Subscriptions(self)
        subs.connect(session.events.frames, lambda _f: self.i and self.refresh(), paced=True)
        subs.connect(session.events.robot, lambda _r: self.go(min(self.i, session.robot.n_bodies)))
        self.go(0)

    def go(self, i: int) -> None:
        """Show step ``i`` (1..n); 0 stops stepping (no highlight, no extra frame)."""
        n = self.session.robot.n_bodies
        if not 0 <= i <= n:
            raise ValueError(f"step must be in 0..{n}, got {i}")
        self.i = int(i)
        self.refresh()
        self.stepped.emit(self.i)

    def refresh(self) -> None:
        n = self.session.robot.n_bodies
        self.prev_button.setEnabled(self.i > 1)
        self.next_button.setEnabled(self.i < n)
        self.stop_button.setEnabled(self.i > 0)
        if self.i == 0:
            self.step = None
            self.title.setText(f"Press Next (or Right) to step through the {n} links")
            for w in (self.numeric, self.symbolic, self.product, self.numeric_title,
                      self.symbolic_title, self.product_title):
                w.setText("")
            if self.frames is not None:
                self.frames.show_extra_frame(None)
            return
        s = self.step = chain_step(self.session.robot, self.session.q, self.i)
        i = self.i
        value = (f"{math.degrees(s.q_value):.2f}\u00b0" if s.joint == "R"
                 else f"{s.q_value:.4f} m")
        kind = "revolute" if s.joint == "R" else "prismatic"
        self.title.setText(f"<b>Step {i} of {n}</b>: link {i} ({kind}), q{i} = {value}")
        self.numeric_title.setText(f"A({i}) at q{i} = {value}")
        self.numeric.setText(_matrix_html(matrix_text(s.A)))
        self.symbolic_title.setText(f"A({i}) as a function of q{i} (JFKengine)")
        self.symbolic.setText(_matrix_html(s.symbolic))
        self.product_title.setText(f"T(0,{i}) = " + " ".join(f"A({k})" for k in range(1, i + 1))
                                   + "  (drawn in the 3D view)")
        self.product.setText(_matrix_html(matrix_text(s.T)))
        for lab in (self.numeric, self.symbolic, self.product):
            lab.setMinimumSize(lab.sizeHint())  # a matrix is never squeezed: it scrolls
        if self.frames is not None:
            self.frames.highlight(i - 1)
            self.frames.show_extra_frame(s.T)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        n = self.session.robot.n_bodies
        k = event.key()
        if k in (Key.Key_Right, Key.Key_Down, Key.Key_PageDown, Key.Key_Space):
            self.go(min(n, self.i + 1))
        elif k in (Key.Key_Left, Key.Key_Up, Key.Key_PageUp):
            self.go(max(1, self.i - 1))
        elif k == Key.Key_Home:
            self.go(1)
        elif k == Key.Key_End:
            self.go(n)
        elif k == Key.Key_Escape:
            self.go(0)
        else:
            super().keyPressEvent(event)
