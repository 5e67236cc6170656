"""Docking a panel into a main window, shared by the plot docks and the teach pendant."""

from __future__ import annotations

from PySide6 import QtWidgets

__all__ = ["dock_panel", "placeholder_dock", "PLACEHOLDER"]

#: property set on a dock that waits for its panel (see :func:`placeholder_dock`)
PLACEHOLDER = "roboguiPlaceholder"


def _object_name(title: str) -> str:
    return "dock_" + title.lower().replace(" ", "_").replace("-", "")


def placeholder_dock(window: QtWidgets.QMainWindow, title: str, area,
                     text: str = "") -> QtWidgets.QDockWidget:
    """A dock titled ``title`` that exists (and is placed by a restored layout) before
    its panel is built; :func:`dock_panel` with the same title fills it later."""
    label = QtWidgets.QLabel(text or f"{title}: preparing\u2026")
    label.setStyleSheet("color: #8b929c;")
    dock = QtWidgets.QDockWidget(title, window)
    dock.setObjectName(_object_name(title))
    dock.setWidget(label)
    dock.setProperty(PLACEHOLDER, True)
    window.addDockWidget(area, dock)
    return dock


def dock_panel(window: QtWidgets.QMainWindow, widget, title: str, area) -> QtWidgets.QDockWidget:
    """Dock ``widget`` titled ``title`` in ``area`` of ``window``.

    robogui's MainWindow docks through its own ``add_panel`` (object names for the saved
    layout); any other QMainWindow (tests, embedding) gets the same object name here. A
    :func:`placeholder_dock` of the same title is filled instead of adding a new dock.
    """
    waiting = window.findChild(QtWidgets.QDockWidget, _object_name(title))
    if waiting is not None and waiting.property(PLACEHOLDER):
        old = waiting.widget()
        waiting.setWidget(widget)  # where the layout put it, as shown or hidden as it was
        waiting.setProperty(PLACEHOLDER, False)
        waiting.setProperty("roboguiPlaceholderFilled", True)
        if old is not None:
            old.deleteLater()
        return waiting
    add_panel = getattr(window, "add_panel", None)
    if callable(add_panel):
        return add_panel(widget, title, area)
    dock = QtWidgets.QDockWidget(title, window)
    dock.setObjectName(_object_name(title))
    dock.setWidget(widget)
    window.addDockWidget(area, dock)
    return dock
