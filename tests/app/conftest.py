"""Qt setup for the app tests: real GL through the xcb platform (Xvfb + Mesa llvmpipe).

Run with ``xvfb-run -a -s "-screen 0 1920x1080x24" python -m pytest tests/app``.
Settings go to a temporary INI file, never to the user's configuration.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

# the GL tests must render for real: no offscreen/minimal platform fakes
os.environ.pop("QT_QPA_PLATFORM", None)
# shared GL contexts, as robogui's own QApplication sets them (before it exists)
QtCore.QCoreApplication.setAttribute(QtCore.Qt.ApplicationAttribute.AA_ShareOpenGLContexts)


@pytest.fixture(scope="session", autouse=True)
def _real_display(qapp):
    name = QtWidgets.QApplication.platformName()
    assert name == "xcb", (f"app tests need a real X server (xvfb-run), Qt platform is {name!r}")
    from robogui.app import style

    style.apply_dark_theme(qapp)
    from robogui.app.main_thread_gc import install_main_thread_gc

    install_main_thread_gc(qapp)  # as the app does: no Qt destructor in a worker thread
    return qapp


def _malloc_trim():
    """glibc's malloc_trim(0), or a no-op elsewhere."""
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda _pad: 0


_TRIM = _malloc_trim()


@pytest.fixture(autouse=True)
def _collect_between_tests():
    # the widgets a test leaves behind are destroyed here, in the GUI thread
    yield
    import gc

    # qtbot closed the test's widgets with deleteLater, which only an event loop carries
    # out: a test that never waits would leave its windows alive into the next tests
    # (~65 MB each); delete them now
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete.value)
    gc.collect()
    # the windows' freed memory goes back to the system: the run's resident size stays
    # near what is in use (CI has a few GB), not what the largest test once took
    _TRIM(0)


class FakeClock:
    """A wall clock the test moves by hand: ``clock.t += dt``."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def settings(tmp_path):
    from robogui.app.shell.settings import Settings

    return Settings(QtCore.QSettings(str(tmp_path / "robogui.ini"),
                                     QtCore.QSettings.Format.IniFormat))


@pytest.fixture
def puma():
    from robogui.io.robotfile import load_robot

    return load_robot("puma560")


@pytest.fixture
def session(puma):
    from robogui.session import Session

    return Session(puma)


class ErrorLog(list):
    """An injectable error presenter: records (title, text) instead of showing a dialog."""

    def __call__(self, title: str, text: str) -> None:
        self.append((title, text))


@pytest.fixture
def errors():
    return ErrorLog()


@pytest.fixture
def window(qtbot, session, settings, errors):
    from robogui.app.shell.main_window import MainWindow

    win = MainWindow(session, settings=settings, error_presenter=errors, restore=False)
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.close()


@pytest.fixture
def numbers():
    """Floats shown by a list of QLabels."""
    return lambda labels: np.array([float(lab.text().split()[0]) for lab in labels])
