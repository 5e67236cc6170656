"""The 3D view's hooks for tools that live in it (a mixin of
:class:`~robogui.app.view.view3d.RobotScene`): mouse handlers that see events before the
camera (the tool handle, grabbing links), 2D overlays drawn over the scene, and
functions run before each frame (items that keep a constant size on screen)."""

from __future__ import annotations

from PySide6 import QtCore

__all__ = ["InteractionMixin"]


class InteractionMixin:
    """Mouse dispatch and paint hooks; the camera moves only when no handler used the
    event (the scene's ``_auto_fit`` then stops refitting)."""

    def _init_interaction(self) -> None:
        self._mouse_handlers: list = []
        self._overlays: list = []
        self._pre_paint: list = []

    # -- mouse: handlers first (tool handle, link picking), else the camera ------------------
    def add_mouse_handler(self, handler) -> None:
        """``handler.press/move/release/wheel(event)`` return True when they used the event
        (the camera then stays still); ``handler.leave()`` when the mouse leaves the view."""
        self._mouse_handlers.append(handler)

    def add_pre_paint(self, fn) -> None:
        """``fn()`` runs before every frame (items that keep a constant size on screen)."""
        self._pre_paint.append(fn)

    def add_overlay(self, paint) -> None:
        """``paint(painter)`` draws 2D text or marks over the scene after the labels."""
        self._overlays.append(paint)

    def _dispatch(self, name: str, event) -> bool:
        return any(getattr(h, name)(event) for h in list(self._mouse_handlers))

    def mousePressEvent(self, event) -> None:  # noqa: N802
        # frames until the release are a moving view's (gl_host); not the right button,
        # whose release a context menu takes
        if event.button() != QtCore.Qt.MouseButton.RightButton:
            self.pointer_held = True
        super().mousePressEvent(event)  # keeps pyqtgraph's last mouse position current
        if not self._dispatch("press", event):
            self._auto_fit = False  # the user moves the camera

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._dispatch("move", event):
            self.mousePos = event.position()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self.pointer_held = event.buttons() != QtCore.Qt.MouseButton.NoButton
        if not self._dispatch("release", event):
            super().mouseReleaseEvent(event)

    def wheelEvent(self, event) -> None:  # noqa: N802
        if self._dispatch("wheel", event):
            return
        self._auto_fit = False
        super().wheelEvent(event)

    def event(self, event) -> bool:
        if event.type() == QtCore.QEvent.Type.Leave:
            for h in list(self._mouse_handlers):
                h.leave()
        return super().event(event)
