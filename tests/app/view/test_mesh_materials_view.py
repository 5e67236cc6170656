"""The view draws a mesh's material terms (issue 27 item 3): the UR3, whose COLLADA
effects give a dark diffuse grey (0.14) with an ambient of 0.5, no longer draws nearly
black; its pixels are at least the ambient light's share (0.5 x 0.5 = 0.25 of white)."""

from __future__ import annotations

import numpy as np

from robogui.io.robotfile import load_robot
from tests.app.view.arm_pixels import arm_pixels
from tests.urdf_files import ERD

UR3 = ERD / "ur_description/urdf/ur3_robot.urdf"


def test_the_ur3_is_lit_by_its_ambient_term(qtbot):
    with_arm, robot, inner = arm_pixels(qtbot, load_robot(UR3))
    assert robot.sum() > 2000
    # inside the silhouette (away from antialiased edges)
    lum = with_arm[inner][:, :3].mean(axis=1)
    # every lit pixel gets at least 0.5 x ambient 0.5 = 64/255 (the diffuse-only look
    # drew the 0.14 grey joints at 0.14 x (0.30 + ...) < 45/255)
    assert np.percentile(lum, 5) >= 60
    # and the blue caps stay blue: some pixels with blue clearly above red
    rgb = with_arm[inner][:, :3]
    assert ((rgb[:, 2] - rgb[:, 0]) > 15).sum() > 200
