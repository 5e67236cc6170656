"""Non-modal message boxes: the GUI keeps running behind them and tests can find them by
object name. Shared by the robot library and the legacy importers (which must not import
each other).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["message_box", "show_error"]


def show_error(parent: QtWidgets.QWidget | None, title: str, text: str) -> QtWidgets.QMessageBox:
    """A non-modal warning box (the GUI keeps running; tests can find and close it)."""
    return message_box(parent, QtWidgets.QMessageBox.Icon.Warning, title, text, "errorBox")


def message_box(parent, icon, title: str, text: str, object_name: str) -> QtWidgets.QMessageBox:
    """A non-modal, selectable-text message box that deletes itself when closed."""
    box = QtWidgets.QMessageBox(icon, title, text, QtWidgets.QMessageBox.StandardButton.Ok, parent)
    box.setObjectName(object_name)
    box.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
    box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setWindowModality(QtCore.Qt.WindowModality.NonModal)
    box.show()
    return box
