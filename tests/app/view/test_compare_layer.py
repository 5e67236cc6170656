"""View > Compare: a second pose and a second arm drawn in the 3D view."""

from __future__ import annotations

import numpy as np


def _image(view):
    im = view.grab_image()
    im = im.convertToFormat(im.Format.Format_RGB888)
    arr = np.frombuffer(im.constBits(), np.uint8).reshape(im.height(), im.bytesPerLine())
    return arr[:, :im.width() * 3].reshape(im.height(), im.width(), 3)


def _orange(img):
    r, g, b = (img[..., k].astype(int) for k in range(3))
    return int(np.sum((r > 200) & (g > 110) & (g < 200) & (b < 110)))  # #ff9f43


def test_keep_pose_and_add_arm_beside(qtbot, window, errors):
    layer = window.compare
    before = _orange(_image(window.view))
    window.session.set_q(window.session.q + 0.4)
    layer.act_keep_pose.trigger()  # View > Compare > Keep this pose
    window.session.set_q(window.session.q - 0.8)  # the robot moves on, the snapshot stays
    qtbot.wait(50)
    assert len(layer.comparison.companions) == 1
    line, dots = layer.items[0]
    F = layer.comparison.frames()[0]
    np.testing.assert_allclose(line.pos, F[:, :3, 3])
    assert _orange(_image(window.view)) > before + 50  # the orange stick figure is drawn
    # a second arm beside: View > Compare > Add robot beside > stanford
    layer.robot_actions[("beside", "stanford")].trigger()
    assert len(layer.items) == 2
    p = layer.items[1][0].pos
    assert p[0, 1] > window.session.robot.reach  # its base stands beside the first
    # the view rebuilt (new display scale): the companions are drawn again
    window.session.display.mag = 1.5
    qtbot.wait(50)
    assert len(layer.items) == 2 and layer.items[0][0].view() is not None
    layer.act_clear.trigger()
    assert layer.items == [] and layer.comparison.companions == []
    for _ in range(5):
        layer.act_keep_pose.trigger()
    assert errors and errors[-1][0] == "Compare" and "at most" in errors[-1][1]
