"""The view draws a mesh's material terms (issue 27 item 3): the UR3, whose COLLADA
effects give a dark diffuse grey (0.14) with an ambient of 0.5, no longer draws nearly
black; its pixels are at least the ambient light's share (0.5 x 0.5 = 0.25 of white)."""

from __future__ import annotations

import numpy as np

from robogui.app.view.view3d import RobotView
from robogui.io.robotfile import load_robot
from robogui.session import Session
from tests.urdf_files import ERD

UR3 = ERD / "ur_description/urdf/ur3_robot.urdf"


def test_the_ur3_is_lit_by_its_ambient_term(qtbot):
    session = Session(load_robot(UR3))
    session.display.update(show_shadow=False, show_wrist=False, show_name=False)
    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.show()
    qtbot.waitExposed(view)
    with_arm = view.grab_array().astype(float)
    session.display.update(show_meshes=False, show_links=False, show_joints=False,
                           show_base=False)
    without = view.grab_array().astype(float)
    robot = np.abs(with_arm - without).max(axis=2) > 40
    assert robot.sum() > 2000
    # inside the silhouette (away from antialiased edges): eroded by 2 pixels
    inner = robot.copy()
    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1), (2, 0), (-2, 0), (0, 2), (0, -2)):
        inner &= np.roll(robot, (dy, dx), axis=(0, 1))
    lum = with_arm[inner][:, :3].mean(axis=1)
    # every lit pixel gets at least 0.5 x ambient 0.5 = 64/255 (the diffuse-only look
    # drew the 0.14 grey joints at 0.14 x (0.30 + ...) < 45/255)
    assert np.percentile(lum, 5) >= 60
    # and the blue caps stay blue: some pixels with blue clearly above red
    rgb = with_arm[inner][:, :3]
    assert ((rgb[:, 2] - rgb[:, 0]) > 15).sum() > 200
