"""Issue 14, item 9: a new window opens at the documented iso camera preset."""

from __future__ import annotations

import pytest

from robogui.app.view.view3d import CAMERA_PRESETS


def test_the_window_opens_at_the_iso_preset(window):
    azimuth, elevation = CAMERA_PRESETS["iso"]
    assert window.view.opts["azimuth"] == pytest.approx(azimuth)
    assert window.view.opts["elevation"] == pytest.approx(elevation)
    # another preset and back: the same camera angles as at the start
    window.set_view("top")
    assert window.view.opts["elevation"] != pytest.approx(elevation)
    window.set_view("iso")
    assert window.view.opts["azimuth"] == pytest.approx(azimuth)


def test_the_start_pose_readout_explains_its_singularity_in_words(window, session, qtbot):
    """The Puma starts at qr (q5 = 0): the readout names the wrist singularity and why,
    instead of a bare "singular"; away from it the words go."""
    label = window.pose_panel.manip_label
    qtbot.waitUntil(lambda: "singularity" in label.text(), timeout=5000)
    assert "wrist singularity: axes 4 and 6 nearly aligned, q5 = +0.0" in label.text()
    assert "cannot rotate about x" in label.toolTip()
    q = session.q.copy()
    q[4] = 0.5
    session.set_q(q)
    qtbot.waitUntil(lambda: "singular" not in label.text(), timeout=5000)
    assert float(label.text()) > 0
