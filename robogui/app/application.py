"""The one QApplication of the process: shared GL contexts, names for QSettings, the dark
theme. Its own module so the window and the off-screen renderer can both create it
without importing each other.
"""

from __future__ import annotations

import sys

from PySide6 import QtCore, QtWidgets

from . import style
from .main_thread_gc import install_main_thread_gc

__all__ = ["create_app"]


def create_app(argv=None) -> QtWidgets.QApplication:
    """The QApplication (created once), with shared GL contexts and the dark theme."""
    app = QtWidgets.QApplication.instance()
    if app is None:
        # share GL resources between views (shader programs are compiled once)
        QtCore.QCoreApplication.setAttribute(
            QtCore.Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QtWidgets.QApplication(list(argv) if argv is not None else sys.argv[:1])
        app.setOrganizationName("robogui")
        app.setApplicationName("robogui")
        style.apply_dark_theme(app)
    install_main_thread_gc(app)
    return app
