"""Guard for the PySide6 pin in pyproject.toml.

PySide6 6.12.0 on CPython 3.11 drops a reference to None on every void Qt call and to
True/False on every bool signal emit; a long session then aborts in none_dealloc or
bool_dealloc. pyproject.toml excludes it; this test fails if an affected build is
installed anyway.
"""

import sys

from PySide6 import QtCore, QtGui


def test_void_calls_keep_none_alive(qtbot):
    font = QtGui.QFont()
    before = sys.getrefcount(None)
    for _ in range(2000):
        font.setBold(True)
    assert sys.getrefcount(None) >= before - 50


def test_bool_signals_keep_true_alive(qtbot):
    class Probe(QtCore.QObject):
        changed = QtCore.Signal(bool)

    probe = Probe()
    probe.changed.connect(lambda value: None)
    before = sys.getrefcount(True)
    for _ in range(2000):
        probe.changed.emit(True)
    assert sys.getrefcount(True) >= before - 50
