"""Uncaught exceptions in Qt slots: logged and shown, never fatal.

PySide6 hands an exception raised inside a slot to ``sys.excepthook``; the hook
installed here writes the traceback to the log (stderr) and shows the message in a
non-modal box, so one bad input never takes the window down.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable

__all__ = ["install_excepthook", "format_exception"]

log = logging.getLogger("robogui")


def format_exception(exc_type, exc, tb) -> str:
    return "".join(traceback.format_exception(exc_type, exc, tb))


def install_excepthook(present: Callable[[str, str], None]) -> Callable:
    """Route uncaught exceptions to the log and ``present(title, text)``; returns the old hook."""
    previous = sys.excepthook

    def hook(exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        log.error("unexpected error\n%s", format_exception(exc_type, exc, tb))
        try:
            present("Unexpected error", f"{exc_type.__name__}: {exc}\n\n"
                    "The operation was cancelled; the details are in the log.")
        except Exception:  # the presenter itself failed: the log has it already
            pass

    sys.excepthook = hook
    return previous
