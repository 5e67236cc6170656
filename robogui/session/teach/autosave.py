"""Autosave of the program being edited, and recovery after a crash.

The app calls :meth:`Autosaver.mark_dirty` on every edit and :meth:`Autosaver.maybe_save`
from a timer (``now`` = ``time.monotonic()``); a dirty program is written atomically at
most once per ``interval_s``. With a 3 s interval and a 1 s timer, ``kill -9`` loses at
most about 4 s of edits.

An explicit save (File > Save) calls :meth:`Autosaver.mark_saved`, which writes a
marker next to the autosave file holding the wall-clock time of that save. At start-up
:func:`recover` returns the autosaved program only when it is newer than the marker,
i.e. when there are edits that were never saved on purpose. :meth:`Autosaver.clear`
removes both files (after the user declined or accepted the recovery).
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

from robogui.session.teach.program import Program
from robogui.session.teach.program_file import (
    ProgramFileError,
    atomic_write_text,
    dumps_program,
    load_program,
)

__all__ = ["Autosaver", "recover", "marker_path", "DEFAULT_INTERVAL_S"]

DEFAULT_INTERVAL_S = 3.0


def marker_path(path) -> Path:
    """The explicit-save marker that belongs to autosave file ``path``."""
    path = Path(path)
    return path.with_name(path.name + ".saved")


def _marker_time_ns(path) -> int | None:
    try:
        return int(marker_path(path).read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return None


def recover(path) -> Program | None:
    """The autosaved program at ``path`` if it holds edits newer than the last explicit save.

    Returns None when there is no autosave, when it is older than the marker written by
    :meth:`Autosaver.mark_saved`, or when it cannot be read (a damaged autosave is not
    worth an error dialog at start-up; atomic writes make that unlikely anyway).
    """
    path = Path(path)
    try:
        autosaved_ns = path.stat().st_mtime_ns
    except OSError:
        return None
    saved_ns = _marker_time_ns(path)
    if saved_ns is not None and autosaved_ns <= saved_ns:
        return None
    try:
        return load_program(path)
    except ProgramFileError:
        return None


class Autosaver:
    """Periodic atomic autosave of the current program to ``path`` (e.g. ``~/.local/state/...``).

    Pure logic: no timer or thread of its own; ``now`` arguments are monotonic seconds.
    """

    def __init__(self, path, interval_s: float = DEFAULT_INTERVAL_S):
        try:
            interval = float(interval_s)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"interval_s must be a number, got {interval_s!r}") from exc
        if not math.isfinite(interval) or interval < 0:
            raise ValueError(f"interval_s must be a non-negative time in s, got {interval_s!r}")
        self.path = Path(path)
        self.interval_s = interval
        self._program: Program | None = None
        self._dirty = False
        self._last_save: float | None = None  # monotonic time of the last autosave
        self.saves = 0  # number of autosaves written (for tests and the status bar)

    @property
    def dirty(self) -> bool:
        """True when there are edits not yet autosaved."""
        return self._dirty

    @property
    def program(self) -> Program | None:
        return self._program

    def mark_dirty(self, program: Program) -> None:
        """Remember ``program`` as the latest state to autosave."""
        if not isinstance(program, Program):
            raise ValueError(f"program must be a Program, got {type(program).__name__}")
        self._program = program
        self._dirty = True

    def due(self, now: float) -> bool:
        """True when :meth:`maybe_save` at ``now`` would write."""
        return self._dirty and (self._last_save is None
                                or now - self._last_save >= self.interval_s)

    def maybe_save(self, now: float) -> bool:
        """Write the program if it is dirty and the last autosave is ``interval_s`` old.

        Returns True when a file was written.
        """
        if not self.due(now):
            return False
        return self.save_now(now)

    def save_now(self, now: float | None = None) -> bool:
        """Write the dirty program immediately (e.g. when the app loses focus or quits)."""
        if not self._dirty or self._program is None:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.path, dumps_program(self._program))
        self._dirty = False
        self._last_save = time.monotonic() if now is None else float(now)
        self.saves += 1
        return True

    def mark_saved(self) -> None:
        """Record an explicit save: the current autosave no longer needs to be offered back."""
        self._dirty = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # the marker must be newer than the autosave file's mtime; wall-clock ns
        stamp = max(time.time_ns(), self._autosave_mtime_ns() + 1)
        atomic_write_text(marker_path(self.path), f"{stamp}\n")

    def _autosave_mtime_ns(self) -> int:
        try:
            return self.path.stat().st_mtime_ns
        except OSError:
            return 0

    def recover(self) -> Program | None:
        """:func:`recover` for this autosaver's path."""
        return recover(self.path)

    def clear(self) -> None:
        """Delete the autosave and its marker; nothing is pending any more."""
        for p in (self.path, marker_path(self.path)):
            try:
                os.unlink(p)
            except FileNotFoundError:
                pass
        self._dirty = False
        self._last_save = None
