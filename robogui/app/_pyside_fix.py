"""Work around PySide6 builds that drop a reference to ``None`` on every void call.

With PySide6 6.12 on CPython 3.11, every call of a C++ method returning void (e.g.
``QFont.setBold``) decrements ``None``'s reference count without having incremented
it. CPython 3.12+ made ``None`` immortal (PEP 683), so the bug is invisible there; on
3.11 a long-running GUI (tens of thousands of calls) dies with "Fatal Python error:
none_dealloc". We detect the leak at import and, only when it is present, give
``None`` a reference count so large that it cannot reach zero, which is what 3.12
does by design. ``None`` is never deallocated in a healthy interpreter either.
"""

from __future__ import annotations

import ctypes
import sys

__all__ = ["none_refcount_leaks", "protect_none"]

_PROTECTED = False


def none_refcount_leaks(calls: int = 64) -> bool:
    """True when calling a void Qt method lowers ``sys.getrefcount(None)``."""
    if sys.version_info >= (3, 12):  # None is immortal: nothing can go wrong
        return False
    from PySide6 import QtGui

    font = QtGui.QFont()
    before = sys.getrefcount(None)
    for _ in range(calls):
        font.setBold(True)
    return sys.getrefcount(None) < before - calls // 2


def protect_none() -> bool:
    """Apply the work-around if this PySide6 needs it; True when applied (once)."""
    global _PROTECTED
    if _PROTECTED:
        return True
    if not none_refcount_leaks():
        return False
    # ob_refcnt is the first field of every CPython object (Py_ssize_t at id(obj))
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 48
    _PROTECTED = True
    return True
