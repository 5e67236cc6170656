"""Python's cyclic garbage collector, run only in the GUI thread.

The collector runs in whichever thread happens to allocate when a threshold is crossed.
If that is a worker thread (symbolic derivation, trajectory analysis) and the garbage
holds Qt objects, their C++ destructors run in the worker while the GUI thread may hold
the same Qt locks and wait for the GIL: a deadlock (seen with PySide6 6.11, a QMenu
destroyed in the derivation thread). So automatic collection is switched off and a
timer in the GUI thread collects, generation by generation, as the thresholds say.
"""

from __future__ import annotations

import gc

from PySide6 import QtCore

__all__ = ["MainThreadGC", "install_main_thread_gc"]


class MainThreadGC(QtCore.QObject):
    """Collects in the thread it lives in (the GUI thread) every ``interval_ms``."""

    def __init__(self, interval_ms: int = 500, parent: QtCore.QObject | None = None):
        super().__init__(parent)
        self.threshold = gc.get_threshold()
        gc.disable()
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self.check)
        self.timer.start(interval_ms)

    def check(self) -> None:
        """Collect the oldest generation whose count is over its threshold (as gc would)."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if counts[generation] > self.threshold[generation]:
                gc.collect(generation)
                return


_installed: MainThreadGC | None = None


def install_main_thread_gc(app: QtCore.QCoreApplication) -> MainThreadGC:
    """Switch the collector to the GUI thread of ``app`` (once per process)."""
    global _installed
    if _installed is None:
        _installed = MainThreadGC(parent=app)
    return _installed
