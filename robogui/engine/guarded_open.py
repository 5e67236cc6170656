"""The one way robogui reads a file it did not write: a regular file, of bounded size,
opened without blocking, and (when the caller gives folders) inside those folders.

A robot file from the internet may name a FIFO or ``/dev/stdin`` (a read that never
returns), ``/dev/zero`` (endless bytes), a directory, a socket, a symbolic link out of its
folder, ``../../.ssh/id_rsa``, ``/etc/passwd`` or a URL. Each is refused here with its own
reason, as a :class:`RefusedFile` (an ``OSError`` whose ``strerror`` is the reason, so the
loaders' existing ``except OSError`` turns it into their own error type naming the file).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable
from pathlib import Path

__all__ = ["RefusedFile", "read_guarded", "read_head", "confine", "check_regular",
           "refuse_url", "URL_SCHEMES"]

URL_SCHEMES = ("http://", "https://", "ftp://", "ftps://", "file://", "smb://", "sftp://",
               "data:")


class RefusedFile(OSError):
    """A path robogui will not read; ``strerror`` says why, ``filename`` is the path."""

    def __init__(self, reason: str, path):
        super().__init__(errno.EACCES, reason, str(path))

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"

    def __reduce__(self):  # crosses from a bounded worker process (engine/bounded_work)
        return (RefusedFile, (self.strerror, self.filename))


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def refuse_url(text: str) -> None:
    """Raise RefusedFile when ``text`` is a URL (robogui never fetches anything)."""
    low = text.strip().lower()
    if low.startswith(URL_SCHEMES) or "://" in low[:16]:
        raise RefusedFile("a URL: robogui reads local files only, never a network address "
                          "or file:// URL", text)


def check_regular(path) -> os.stat_result:
    """The stat of ``path`` after refusing anything that is not a regular file."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise RefusedFile("a loop of symbolic links", path) from None
        if exc.errno == errno.ENAMETOOLONG:
            raise RefusedFile("the path is too long for the file system", path) from None
        raise
    kind = _kind(st.st_mode)
    if kind:
        raise RefusedFile(f"{kind}, not a regular file", path)
    return st


def confine(path, roots: Iterable) -> Path:
    """``path`` resolved, after checking it lies inside one of the folders ``roots``
    (symbolic links followed). Refuses a URL, a ``..`` or a symbolic link that leads
    outside, and an absolute path elsewhere, each with its own reason."""
    raw = str(path)
    refuse_url(raw)
    roots = [Path(os.path.realpath(r)) for r in roots]
    p = Path(raw)
    try:
        real = Path(os.path.realpath(p, strict=False))
    except OSError:
        raise RefusedFile("the path cannot be resolved", raw) from None
    if any(real == r or r in real.parents for r in roots):
        return real
    plain = Path(os.path.normpath(os.path.abspath(p)))
    inside_plain = any(plain == r or r in plain.parents for r in roots)
    shown = ", ".join(str(r) for r in roots[:3]) + (" ..." if len(roots) > 3 else "")
    if inside_plain:
        raise RefusedFile(f"a symbolic link leading outside the robot's folders ({shown})", raw)
    if ".." in p.parts:
        raise RefusedFile(f"'..' leads outside the robot's folders ({shown})", raw)
    raise RefusedFile(f"outside the robot's folders and the package folders given ({shown});"
                      " add its folder with --package-path", raw)


def _open_regular(path) -> tuple[int, os.stat_result]:
    """(file descriptor, its stat) of the regular file ``path``, opened without ever
    blocking: stat-ed, opened with O_NONBLOCK and fstat-ed again (a file swapped for a
    FIFO in between is still refused). The caller closes the descriptor."""
    check_regular(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        kind = _kind(st.st_mode)
        if kind:
            raise RefusedFile(f"{kind}, not a regular file", path)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_guarded(path, max_bytes: int, roots: Iterable | None = None) -> bytes:
    """The bytes of the regular file ``path`` (at most ``max_bytes``), read without ever
    blocking: the file is stat-ed, opened with O_NONBLOCK and fstat-ed again (a file
    swapped for a FIFO in between is still refused). ``roots``: folders the file must
    lie in (None: anywhere). Raises RefusedFile (an OSError) or OSError."""
    if roots is not None:
        path = confine(path, roots)
    else:
        refuse_url(str(path))
    fd, st = _open_regular(path)
    try:
        if st.st_size > max_bytes:
            raise RefusedFile(f"{st.st_size / 2**20:.1f} MiB, more than the limit of "
                              f"{max_bytes / 2**20:.0f} MiB for this kind of file "
                              "(see docs/security.md to raise it)", path)
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise RefusedFile(f"more than the limit of {max_bytes / 2**20:.0f} MiB for "
                                  "this kind of file (see docs/security.md to raise it)", path)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_head(path, n: int = 4096) -> bytes:
    """The first ``n`` bytes of the regular file ``path`` (to sniff its format), read as
    :func:`read_guarded` reads: never blocking on a FIFO or device. Raises RefusedFile
    (an OSError) or OSError."""
    refuse_url(str(path))
    fd, _st = _open_regular(path)
    try:
        return os.read(fd, n)
    finally:
        os.close(fd)
