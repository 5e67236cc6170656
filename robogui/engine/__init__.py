"""The numerical core: robot description and algorithms on numpy arrays (no Qt here)."""

from .kinematics import fkine, fkine_all, joint_locations, link_transform
from .link import Link
from .robot import Robot

__all__ = ["Link", "Robot", "fkine", "fkine_all", "joint_locations", "link_transform"]
