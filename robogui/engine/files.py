"""Atomic file writing, shared by every layer (the engine is the bottom layer).

A save goes to a synced temporary file in the target's directory, which then replaces
the target in one ``os.replace``: a crash or a full disk never leaves a half-written file,
and the previous version stays intact.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path

from .guarded_open import check_regular, read_guarded

__all__ = ["atomic_write_text", "atomic_write_bytes", "decode_text", "read_text",
           "remove_stale_temp_files", "TextDecodeProblem"]

# a temporary file older than this (s) belongs to a save that was killed
STALE_TEMP_AGE_S = 60.0


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


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def remove_stale_temp_files(path, max_age_s: float = STALE_TEMP_AGE_S) -> list[Path]:
    """Delete the hidden temporary files (``.NAME.*.tmp``) that saves of ``path`` killed
    before their rename left behind; only those older than ``max_age_s`` seconds, so a
    save running now in another process is not disturbed. Returns the removed paths."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    removed = []
    try:
        candidates = list(folder.glob(f"{_glob_escape(_temp_prefix(path))}*.tmp"))
    except OSError:
        return removed
    now = time.time()
    for tmp in candidates:
        try:
            if now - tmp.stat().st_mtime >= max_age_s:
                tmp.unlink()
                removed.append(tmp)
        except OSError:  # gone already, or not ours to remove
            pass
    return removed


def _glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def atomic_write_bytes(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; returns the path.

    The file keeps the permissions of the file it replaces (a new file gets the usual
    umask-based ones, not the owner-only mode of a temporary file). Temporary files that
    earlier, killed saves of the same file left behind are removed.
    """
    path = Path(path)
    remove_stale_temp_files(path)
    mode = _file_mode(path)
    fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=".tmp", dir=path.parent or ".")
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


# -- reading text files -------------------------------------------------------------------
class TextDecodeProblem(ValueError):
    """A file that is not text robogui can read; ``line`` (1-based) when known. Loaders
    turn it into their own error type, naming the file."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def decode_text(raw: bytes) -> str:
    """The text of a file's bytes: UTF-8, with or without a byte-order mark; UTF-16 only
    with its byte-order mark. Raises :class:`TextDecodeProblem` for anything else (a
    binary file, UTF-16 without a mark, Latin-1), naming the line of the first bad byte."""
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                return raw[len(bom):].decode(codec)
            except UnicodeDecodeError as exc:
                raise TextDecodeProblem(f"starts with a {codec.upper()} byte-order mark but "
                                        f"is not {codec.upper()} text ({exc.reason})") from None
    if b"\x00" in raw[:65536]:
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        raise TextDecodeProblem("binary data (NUL bytes), not a text file; UTF-16 text needs "
                                "its byte-order mark", line)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        byte = raw[exc.start:exc.start + 1].hex()
        raise TextDecodeProblem(f"not UTF-8 text: byte 0x{byte} on line {line} (save the file "
                                "as UTF-8)", line) from None


def read_text(path, max_bytes: int) -> str:
    """Read and :func:`decode_text` a file of at most ``max_bytes`` bytes. Raises OSError
    when it cannot be read, :class:`TextDecodeProblem` when too big or not text."""
    path = Path(path)
    size = check_regular(path).st_size  # a FIFO or device is refused before any read
    if size > max_bytes:
        raise TextDecodeProblem(f"the file is {size / 2**20:.1f} MiB, more than the "
                                f"{max_bytes / 2**20:.0f} MiB this kind of file may have")
    return decode_text(read_guarded(path, max_bytes))
