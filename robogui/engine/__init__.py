"""The numerical core: robot description and algorithms on numpy arrays (no Qt here)."""

from .kinematics.kinematics import fkine, fkine_all, joint_locations, link_transform
from .model.link import Link
from .model.robot import Robot

__all__ = ["Link", "Robot", "fkine", "fkine_all", "joint_locations", "link_transform"]
