"""The velocity or force ellipsoid at the end effector in the 3D view.

:class:`EllipsoidItem` is a unit-sphere ``GLMeshItem`` built once; every frame only its
transform changes. :class:`EllipsoidOverlay` puts one in a :class:`RobotView` and keeps
it at the session's end effector; the numbers come from
:mod:`robogui.session.explain.ellipse` (the session's cached Jacobian), not from the widget.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from PySide6 import QtGui

from robogui.session.explain.ellipse import ELLIPSOID_KINDS, ellipsoid_transform

from .. import style
from ..bindings import Subscriptions

__all__ = ["EllipsoidItem", "EllipsoidOverlay", "ELLIPSOID_COLORS"]

ELLIPSOID_COLORS = {"velocity": "#4fd0e0", "force": "#e8a040"}


class EllipsoidItem(gl.GLMeshItem):
    """A translucent, shaded unit sphere placed by a 4x4 matrix (:meth:`set_matrix`)."""

    def __init__(self, color: str = ELLIPSOID_COLORS["velocity"], alpha: float = 0.35,
                 rows: int = 24, cols: int = 40):
        md = gl.MeshData.sphere(rows=rows, cols=cols, radius=1.0)
        super().__init__(meshdata=md, smooth=True, color=style.rgba(color, alpha),
                         shader="shaded", glOptions="translucent")
        self.setDepthValue(10)  # after the opaque arm: blending over it

    def set_color(self, color: str, alpha: float = 0.35) -> None:
        self.setColor(style.rgba(color, alpha))

    def set_matrix(self, M: np.ndarray) -> None:
        """Place the unit sphere: x_world = M @ x_unit (M (4, 4), metres)."""
        self.setTransform(QtGui.QMatrix4x4(*np.asarray(M, dtype=float).ravel().tolist()))

    def matrix(self) -> np.ndarray:
        """The current placement (4, 4)."""
        return np.array(self.transform().data(), dtype=float).reshape(4, 4).T


class EllipsoidOverlay:
    """Shows the ``kind`` ("none", "velocity", "force") ellipsoid of ``session`` in ``view``.

    Create it after the view has attached to the session, so that the view's own
    rebuild (which removes every item) runs first on robot and tool changes.
    """

    def __init__(self, view, session, kind: str = "none", axes: str = "trans"):
        self.view, self.session = view, session
        self.axes = axes
        self.kind = "none"
        self.item = EllipsoidItem()
        self.item.hide()
        self._subs = Subscriptions(view)
        for name in ("robot", "tool", "frames"):
            self._subs.connect(session.events[name], lambda _v: self.update())
        self._subs.connect(session.display.events.mag, lambda _v: self.update())
        self.set_kind(kind)

    def set_kind(self, kind: str) -> None:
        """Which ellipsoid to draw: one of
        :data:`~robogui.session.explain.ellipse.ELLIPSOID_KINDS`."""
        if kind not in ELLIPSOID_KINDS:
            raise ValueError(f"kind must be one of {ELLIPSOID_KINDS}, got {kind!r}")
        self.kind = kind
        if kind != "none":
            self.item.set_color(ELLIPSOID_COLORS[kind])
        self.update()

    def update(self) -> None:
        if self.kind == "none":
            self.item.hide()
            self.view.update()
            return
        if self.item not in self.view.items:  # the view's rebuild removed it
            self.view.addItem(self.item)
        self.item.set_matrix(ellipsoid_transform(self.session, self.kind, self.axes))
        self.item.show()
        self.view.update()

    def close(self) -> None:
        """Stop following the session and remove the item."""
        self._subs.clear()
        if self.item in self.view.items:
            self.view.removeItem(self.item)
