"""The Live menu: Follow streamed joint states, Record them, save the recording as CSV.

Follow and Record are checkable actions that mirror the
:class:`~robogui.session.remote_api.live.LiveLink` both ways (a remote ``follow`` request
ticks the menu; the menu switches the link). While following, the teach pendant's
"Record waypoint" (Ctrl+R) takes the live pose, since the session's q is the live pose.
"""

from __future__ import annotations

from PySide6 import QtGui, QtWidgets

__all__ = ["LiveMenu"]


class LiveMenu:
    """Adds "Live" to ``window``'s menu bar for ``live`` (a LiveLink)."""

    def __init__(self, window: QtWidgets.QMainWindow, live):
        self.window = window
        self.live = live
        self.menu = window.menuBar().addMenu("&Live")
        self.follow_action = self._action("&Follow live joint states", self._follow,
                                          "The robot follows joint states streamed by a "
                                          "connected client (stream_q); one undo step per "
                                          "stream")
        self.record_action = self._action("&Record the followed states", self._record,
                                          "Keep every followed joint state with its time")
        self.save_action = QtGui.QAction("&Save recording as CSV\u2026", window)
        self.save_action.triggered.connect(self.save_dialog)
        self.menu.addAction(self.save_action)
        live.events.follow.connect(self._show)
        live.events.record.connect(self._show)
        self._show()

    def _action(self, text, slot, tip) -> QtGui.QAction:
        act = QtGui.QAction(text, self.window)
        act.setCheckable(True)
        act.setToolTip(tip)
        act.setStatusTip(tip)
        act.toggled.connect(slot)
        self.menu.addAction(act)
        return act

    def _follow(self, on: bool) -> None:
        self.live.set_follow(on)

    def _record(self, on: bool) -> None:
        if on and not self.live.following:
            self.live.set_follow(True)  # recording keeps followed states: follow too
        self.live.set_record(on)

    def _show(self, *_):
        for act, on in ((self.follow_action, self.live.following),
                        (self.record_action, self.live.recording)):
            if act.isChecked() != on:
                act.blockSignals(True)
                act.setChecked(on)
                act.blockSignals(False)
        self.save_action.setEnabled(self.live.sample_count > 0 or self.live.recording)

    def save(self, path) -> bool:
        """Save the recording; errors go to the window's error presenter. True when saved."""
        try:
            written = self.live.save_csv(path)
        except (OSError, ValueError) as exc:
            self.window.error_presenter("Cannot save the recording", str(exc))
            return False
        self.window.statusBar().showMessage(
            f"saved {self.live.sample_count} live samples to {written}", 5000)
        return True

    def save_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self.window, "Save recording", "live.csv", "CSV trajectory (*.csv)")
        if path:
            self.save(path)

    def close(self) -> None:
        self.live.events.follow.disconnect(self._show)
        self.live.events.record.disconnect(self._show)
