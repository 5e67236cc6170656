"""What the 3D view and the panels show, and in which units: :class:`DisplayOptions`,
one evented model shared by the app, the renderer and the settings.
"""

from __future__ import annotations

import numpy as np

from .explain.ellipse import ELLIPSOID_KINDS
from .observable import EventedModel, Field

__all__ = ["DisplayOptions"]


def _positive(value) -> float:
    x = float(value)
    if not np.isfinite(x) or x <= 0:
        raise ValueError(f"must be a positive number, got {value!r}")
    return x


class DisplayOptions(EventedModel):
    """What the 3D view and the panels show, and in which units."""

    show_floor = Field(True, coerce=bool, doc="floor grid")
    show_shadow = Field(True, coerce=bool, doc="shadow of the arm on the floor")
    show_base = Field(True, coerce=bool, doc="pedestal from the floor up to the base")
    show_links = Field(True, coerce=bool, doc="link sticks (cylinders along a and d)")
    show_joints = Field(True, coerce=bool, doc="cylinders (revolute) and boxes (prismatic)")
    show_wrist = Field(True, coerce=bool, doc="tool frame axes")
    wrist_labels = Field("xyz", choices=("xyz", "noa"), doc="labels of the tool frame axes")
    show_link_frames = Field(False, coerce=bool, doc="small axes on every link frame")
    show_meshes = Field(True, coerce=bool,
                        doc="meshes of robots that have them (URDF); off: sticks")
    show_name = Field(True, coerce=bool, doc="robot name near joint 0")
    mag = Field(1.0, coerce=_positive, doc="annotation scale factor (r6 'mag')")
    projection = Field("perspective", choices=("perspective", "orthographic"))
    angle_unit = Field("deg", choices=("deg", "rad"), doc="revolute joints and angles")
    length_unit = Field("mm", choices=("mm", "m"), doc="prismatic joints and positions")
    orientation = Field("rpy", choices=("rpy", "zyz", "quaternion"),
                        doc="orientation shown by the pose panel")
    ellipsoid = Field("none", choices=ELLIPSOID_KINDS,
                      doc="manipulability ellipsoid drawn at the end effector")
