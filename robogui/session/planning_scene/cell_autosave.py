"""Autosave of the work cell being edited, and its recovery after a crash (as the teach
program's: :mod:`robogui.session.teach.autosave`).

The app calls :meth:`CellAutosaver.mark_dirty` on every edit of the cell and
:meth:`CellAutosaver.maybe_save` from a timer (``now`` = ``time.monotonic()``); a dirty cell
is written atomically (``save_cell``) at most once per ``interval_s``. Opening or saving a
cell file on purpose calls :meth:`CellAutosaver.mark_saved`, which writes a marker holding
the wall-clock time; :func:`recover_cell` returns the autosaved cell only when it is newer
than the marker, i.e. when it holds edits never saved on purpose.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

from robogui.engine.files import atomic_write_text

from .cell import Cell
from .cell_file import CellFileError, load_cell, save_cell

__all__ = ["CellAutosaver", "recover_cell", "DEFAULT_INTERVAL_S"]

DEFAULT_INTERVAL_S = 3.0


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".saved")


def _marker_ns(path: Path) -> int | None:
    try:
        return int(_marker(path).read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return None


def recover_cell(path) -> Cell | None:
    """The autosaved cell at ``path`` when it holds edits newer than the last file opened
    or saved on purpose; None otherwise (no autosave, older than the marker, unreadable:
    a damaged autosave is not worth an error at start-up)."""
    path = Path(path)
    try:
        autosaved_ns = path.stat().st_mtime_ns
    except OSError:
        return None
    saved_ns = _marker_ns(path)
    if saved_ns is not None and autosaved_ns <= saved_ns:
        return None
    try:
        return load_cell(path)
    except CellFileError:
        return None


class CellAutosaver:
    """Periodic atomic autosave of the current cell to ``path``; no timer of its own."""

    def __init__(self, path, interval_s: float = DEFAULT_INTERVAL_S):
        interval = float(interval_s)
        if not math.isfinite(interval) or interval < 0:
            raise ValueError(f"interval_s must be a non-negative time in s, got {interval_s!r}")
        self.path = Path(path)
        self.interval_s = interval
        self._cell: Cell | None = None
        self._dirty = False
        self._last: float | None = None
        self.saves = 0

    @property
    def dirty(self) -> bool:
        return self._dirty

    def mark_dirty(self, cell: Cell | None) -> None:
        """Remember ``cell`` as the latest state to autosave (None: nothing to keep)."""
        self._cell = cell
        self._dirty = cell is not None

    def maybe_save(self, now: float) -> bool:
        """Write the dirty cell when the last autosave is ``interval_s`` old; True if written."""
        if not self._dirty or (self._last is not None and now - self._last < self.interval_s):
            return False
        return self.save_now(now)

    def save_now(self, now: float | None = None) -> bool:
        """Write the dirty cell now (quitting, losing focus); True when a file was written."""
        if not self._dirty or self._cell is None:
            return False
        save_cell(self._cell, self.path)
        self._dirty = False
        self._last = time.monotonic() if now is None else now
        self.saves += 1
        return True

    def mark_saved(self) -> None:
        """The cell was opened or saved on purpose: the autosave holds nothing newer."""
        self._dirty = False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(_marker(self.path), f"{time.time_ns() + 1}\n")

    def clear(self) -> None:
        """Remove the autosave and its marker."""
        for p in (self.path, _marker(self.path)):
            try:
                p.unlink()
            except OSError:
                pass
        self._dirty = False
