"""Colours, fonts and the dark application theme shared by all widgets.

Joint colours are one palette for the 3D view, the joint panel and (later) the
plots, so joint 3 is the same colour everywhere. The palette avoids amber and red,
which mean "near a limit" and "at a limit".
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

__all__ = ["JOINT_COLORS", "joint_color", "rgba", "apply_dark_theme", "BACKGROUND", "LINK",
           "NEAR_LIMIT_COLOR", "AT_LIMIT_COLOR", "AXIS_COLORS", "monospace_font"]

BACKGROUND = "#2a2d33"  # the 3D view's clear colour: dark, neutral, a touch blue
FLOOR = "#31353c"  # floor plane, slightly lighter than the background
GRID_MINOR = "#454b55"
GRID_MAJOR = "#5d6572"
SHADOW = "#1f2227"
LINK = "#c9ced6"  # brushed aluminium
PEDESTAL = "#6f7782"
TOOL = "#e8c872"
TRAIL = "#f2c14e"  # the tool path of a trajectory (3D view, videos)
NEAR_LIMIT_COLOR = "#ffb000"  # amber
AT_LIMIT_COLOR = "#ff3b30"  # red
AXIS_COLORS = ("#ff5a4f", "#57d163", "#4f8dff")  # x/n red, y/o green, z/a blue
LABEL = "#e6e9ee"

JOINT_COLORS = (
    "#4c9be8",  # blue
    "#2bb5a0",  # teal
    "#9b7be0",  # violet
    "#7cc65a",  # green
    "#e26fc0",  # pink
    "#4fd0e0",  # cyan
    "#b0a4ff",  # lavender
    "#c8d85a",  # lime
)


def joint_color(j: int) -> str:
    """Colour of joint ``j`` (0-based) as ``#rrggbb``."""
    return JOINT_COLORS[j % len(JOINT_COLORS)]


def rgba(color: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """``#rrggbb`` -> (r, g, b, a) floats in [0, 1] for GL."""
    c = QtGui.QColor(color)
    return (c.redF(), c.greenF(), c.blueF(), float(alpha))


def monospace_font(point_size: int | None = None) -> QtGui.QFont:
    font = QtGui.QFontDatabase.systemFont(QtGui.QFontDatabase.SystemFont.FixedFont)
    if point_size:
        font.setPointSize(point_size)
    return font


_STYLESHEET = """
QDockWidget::title { padding: 4px 6px; background: #2f333a; }
QToolTip { color: #e6e9ee; background: #30343b; border: 1px solid #4a505a; }
QGroupBox { border: 1px solid #3c414a; border-radius: 4px; margin-top: 10px; padding-top: 4px; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 3px; color: #aeb6c2; }
QFrame#jointRow[selected="true"] { background: #353b45; border-radius: 4px; }
QLabel#valueLabel { font-family: monospace; }
QToolButton#unitButton { min-width: 34px; }
/* Fusion draws an instant-popup arrow over the text unless the button leaves room */
QToolButton[popupMode="2"] { padding-right: 14px; }
"""


def apply_dark_theme(app: QtWidgets.QApplication) -> None:
    """Fusion style with a dark neutral palette: the 3D view and the panels match."""
    app.setStyle("Fusion")
    p = QtGui.QPalette()
    C = QtGui.QColor
    role = QtGui.QPalette.ColorRole
    p.setColor(role.Window, C("#24272c"))
    p.setColor(role.WindowText, C("#e1e4e8"))
    p.setColor(role.Base, C("#1c1e22"))
    p.setColor(role.AlternateBase, C("#262a30"))
    p.setColor(role.ToolTipBase, C("#30343b"))
    p.setColor(role.ToolTipText, C("#e6e9ee"))
    p.setColor(role.Text, C("#e1e4e8"))
    p.setColor(role.Button, C("#2f333a"))
    p.setColor(role.ButtonText, C("#e1e4e8"))
    p.setColor(role.BrightText, C("#ff6b60"))
    p.setColor(role.Highlight, C("#3d7bd9"))
    p.setColor(role.HighlightedText, C("#ffffff"))
    p.setColor(role.Link, C("#6aa8ff"))
    p.setColor(role.PlaceholderText, C("#7d8590"))
    disabled = QtGui.QPalette.ColorGroup.Disabled
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(disabled, r, C("#6b717b"))
    app.setPalette(p)
    app.setStyleSheet(_STYLESHEET)
