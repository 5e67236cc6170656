"""View > Annotation size (r6 'mag'): the control, its setting, the drawing, render --mag."""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
from PySide6 import QtCore

from robogui.session.session import DisplayOptions
from tests.app.view.test_render_headless import ok, robogui_cli


def _robot_pixels(img: np.ndarray) -> int:
    """Pixels clearly unlike the background colour at the picture's top-left corner."""
    bg = img[2, 2, :3].astype(int)
    return int(np.sum(np.abs(img[..., :3].astype(int) - bg).max(axis=-1) > 40))


def test_menu_and_spin_box_set_mag_and_it_is_remembered(qtbot, window, settings):
    mc = window.mag_control
    assert window.session.display.mag == 1.0
    before = window.view.grab_image()
    mc.act_larger.trigger()  # View > Annotation size > Larger
    assert window.session.display.mag == 1.25
    mc.act_smaller.trigger()
    assert window.session.display.mag == 1.0
    spin = mc.spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "2.5")
    qtbot.keyClick(spin.lineEdit(), QtCore.Qt.Key.Key_Return)
    assert window.session.display.mag == 2.5
    qtbot.wait(50)
    after = window.view.grab_image()
    # bigger joint cylinders and axes: more of the picture is robot
    arr = lambda im: np.frombuffer(im.convertToFormat(im.Format.Format_RGB888).constBits(),
                                   np.uint8).reshape(im.height(), -1)[:, :im.width() * 3] \
        .reshape(im.height(), im.width(), 3)
    assert _robot_pixels(arr(after)) > 1.3 * _robot_pixels(arr(before))
    window.close()  # saves the display options
    again = DisplayOptions()
    settings.load_display(again)
    assert again.mag == 2.5
    mc.act_reset.trigger()
    assert window.session.display.mag == 1.0


def test_render_mag_option(tmp_path):
    out1, out3 = tmp_path / "m1.png", tmp_path / "m3.png"
    for mag, out in (("1", out1), ("3", out3)):
        ok(robogui_cli(["render", "--robot", "puma560", "--q", "qr", "--size", "400x300",
                        "--mag", mag, "-o", out], tmp_path))
    a, b = iio.imread(out1), iio.imread(out3)
    assert _robot_pixels(b) > 1.3 * _robot_pixels(a)
    bad = robogui_cli(["render", "--robot", "puma560", "--mag", "0", "-o",
                       tmp_path / "x.png"], tmp_path)
    assert bad.returncode == 2 and "--mag" in bad.stderr
