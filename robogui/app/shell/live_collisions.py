"""Collisions seen live in the main window (issue 24, item 6): the links in contact drawn red
in the 3D view, and the "Stop before contact" toggle of jogs and handle drags (View menu and
the Jog dock, one action, remembered in the settings; on by default).

The checks themselves are the session's (``session.collisions``, ``session.check_step``);
the pose panel shows the clearance on its own. ``install_live_collisions(window)`` is called
once by the main window.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtGui, QtWidgets

from ..view.contacts import ContactTint

__all__ = ["LiveCollisions", "install_live_collisions", "SETTING"]

#: QSettings key of the toggle
SETTING = "motion/stop_before_contact"
_TIP = ("Jogs and tool-handle drags stop before a link touches the work cell or the robot "
        "itself, and say why (e.g. forearm would hit 'table'). Off: they move through.")


@dataclass
class LiveCollisions:
    """What :func:`install_live_collisions` made: the view's contact tint, the toggle (a
    checkable action) and its check box in the Jog dock (None without the pendant)."""

    tint: ContactTint
    stop_action: QtGui.QAction
    jog_box: QtWidgets.QCheckBox | None


def _read_bool(raw, default: bool) -> bool:
    if raw is None:
        return default
    return raw if isinstance(raw, bool) else str(raw).lower() in ("true", "1")


def install_live_collisions(window) -> LiveCollisions:
    """Wire live collisions into ``window`` (a MainWindow: ``session``, ``view``,
    ``view_menu``, ``settings``, ``teach``)."""
    session = window.session
    tint = ContactTint(window.view, session)
    action = QtGui.QAction("Stop before contact", window)
    action.setCheckable(True)
    action.setToolTip(_TIP)
    action.setStatusTip(_TIP)
    on = _read_bool(window.settings.q.value(SETTING), True)
    action.setChecked(on)
    session.stop_before_contact = on

    def toggled(checked: bool) -> None:
        session.stop_before_contact = bool(checked)
        window.settings.q.setValue(SETTING, bool(checked))

    action.toggled.connect(toggled)
    window.view_menu.addSeparator()
    window.view_menu.addAction(action)
    box = None
    teach = getattr(window, "teach", None)
    if teach is not None:
        jog = teach.jog
        box = QtWidgets.QCheckBox("Stop before contact")
        box.setToolTip(_TIP)
        box.setChecked(on)
        box.toggled.connect(action.setChecked)
        action.toggled.connect(box.setChecked)
        layout = jog.layout()
        layout.insertWidget(layout.indexOf(jog.status), box)
    return LiveCollisions(tint, action, box)
