"""Docking a panel into a main window, shared by the plot docks and the teach pendant."""

from __future__ import annotations

from PySide6 import QtWidgets

__all__ = ["dock_panel"]


def dock_panel(window: QtWidgets.QMainWindow, widget, title: str, area) -> QtWidgets.QDockWidget:
    """Dock ``widget`` titled ``title`` in ``area`` of ``window``.

    robogui's MainWindow docks through its own ``add_panel`` (object names for the saved
    layout); any other QMainWindow (tests, embedding) gets the same object name here.
    """
    add_panel = getattr(window, "add_panel", None)
    if callable(add_panel):
        return add_panel(widget, title, area)
    dock = QtWidgets.QDockWidget(title, window)
    dock.setObjectName("dock_" + title.lower().replace(" ", "_"))
    dock.setWidget(widget)
    window.addDockWidget(area, dock)
    return dock
