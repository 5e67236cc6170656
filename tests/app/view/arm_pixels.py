"""The pixels of a robot's meshes in the 3D view, for tests of how arms are drawn."""

from __future__ import annotations

import numpy as np

from robogui.app.view.view3d import RobotView
from robogui.session import Session


def arm_pixels(qtbot, robot, size=(800, 500)) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the view's image (h, w, c) float, the robot's pixels (h, w) bool, those pixels
    eroded by 2 so antialiased edges are left out) of ``robot`` drawn alone (no shadow,
    labels or wrist marks): the pixels that change when its meshes, links and base hide."""
    session = Session(robot)
    session.display.update(show_shadow=False, show_wrist=False, show_name=False)
    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    with_arm = view.grab_array().astype(float)
    session.display.update(show_meshes=False, show_links=False, show_joints=False,
                           show_base=False)
    without = view.grab_array().astype(float)
    robot_px = np.abs(with_arm - without).max(axis=2) > 40
    inner = robot_px.copy()
    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 0), (-2, 0), (0, 2), (0, -2)):
        inner &= np.roll(robot_px, (dy, dx), axis=(0, 1))
    return with_arm, robot_px, inner
