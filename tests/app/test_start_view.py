"""Issue 14, item 9: a new window opens at the documented iso camera preset."""

from __future__ import annotations

import pytest

from robogui.app.view3d import CAMERA_PRESETS


def test_the_window_opens_at_the_iso_preset(window):
    azimuth, elevation = CAMERA_PRESETS["iso"]
    assert window.view.opts["azimuth"] == pytest.approx(azimuth)
    assert window.view.opts["elevation"] == pytest.approx(elevation)
    # another preset and back: the same camera angles as at the start
    window.set_view("top")
    assert window.view.opts["elevation"] != pytest.approx(elevation)
    window.set_view("iso")
    assert window.view.opts["azimuth"] == pytest.approx(azimuth)
