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


@pytest.fixture(autouse=True, scope="session")
def _private_cache_folder(tmp_path_factory):
    """No test writes into the user's ~/.cache: the mesh disk cache
    (robogui/session/geometry/mesh_store.py) and other caches go to a temporary folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    yield
    mp.undo()
