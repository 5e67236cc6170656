"""Shared fixtures: robots from the library (robogui.io.robotfile.load_robot).

Library robots are immutable and cached by the loader, so these fixtures are cheap.
"""

import pytest

from robogui.io.robotfile import load_robot


@pytest.fixture
def puma():
    """Puma 560, standard D-H with Corke's dynamics and poses qz, qr, qs, qn."""
    return load_robot("puma560")


@pytest.fixture
def puma_akb():
    """Puma 560, modified D-H (Armstrong, Khatib and Burdick)."""
    return load_robot("puma560akb")


@pytest.fixture
def stanford():
    """Stanford arm: standard D-H, prismatic joint 3, dynamics with Jm."""
    return load_robot("stanford")


@pytest.fixture
def twolink():
    """Two-link planar arm (Spong), unit lengths and point masses."""
    return load_robot("twolink")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """With ROBOGUI_TEST_RSS=FILE, log each test's resident memory and live top-level widgets
    once its fixtures are torn down (its windows closed and collected).

    A diagnosis aid for the suite's memory (CI has a few GB): which tests make it grow.
    """
    import os

    yield

    path = os.environ.get("ROBOGUI_TEST_RSS")
    if not path:
        return
    with open("/proc/self/statm") as f:
        rss_mb = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    widgets = -1
    import sys

    if "PySide6.QtWidgets" in sys.modules:
        from PySide6 import QtWidgets

        app = QtWidgets.QApplication.instance()
        widgets = len(app.topLevelWidgets()) if app is not None else -1
        windows = len(app.allWindows()) if app is not None else -1
        widgets = f"{widgets}\t{windows}"
    with open(path, "a") as f:
        f.write(f"{rss_mb:.0f}\t{widgets}\t{item.nodeid}\n")
@pytest.fixture(autouse=True, scope="session")
def _private_cache_folder(tmp_path_factory):
    """No test writes into the user's ~/.cache: the mesh disk cache
    (robogui/session/geometry/mesh_store.py) and other caches go to a temporary folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    yield
    mp.undo()
