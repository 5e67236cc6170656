"""Atomic file writing, shared by every layer (the engine is the bottom layer).

A save goes to a synced temporary file in the target's directory, which then replaces
the target in one ``os.replace``: a crash or a full disk never leaves a half-written file,
and the previous version stays intact.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["atomic_write_text", "atomic_write_bytes"]


def _file_mode(path: Path) -> int:
    """Permission bits for the new file: the target's when it exists, otherwise what a
    plain ``open(path, "w")`` would give (0o666 less the process umask)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process umask, read without changing it where the system allows (Linux)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o077)  # elsewhere: set and restore at once (restrictive meanwhile)
    os.umask(mask)
    return mask


def atomic_write_bytes(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns the path.

    The file keeps the permissions of the file it replaces (a new file gets the usual
    umask-based ones, not the owner-only mode of a temporary file).
    """
    path = Path(path)
    mode = _file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fchmod(fh.fileno(), mode)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def atomic_write_text(path, text: str) -> Path:
    """Write ``text`` as UTF-8 with ``\\n`` line ends to ``path`` atomically."""
    return atomic_write_bytes(path, text.encode("utf-8"))
