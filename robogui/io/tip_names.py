"""Which link (or site) is an arm's tool flange, by the names makers give it.

ROS-Industrial names the flange ``tool0`` or ``flange``; others say ``ee_link``,
``end_effector``, ``eef``, ``hand`` (robosuite's ``right_hand``, the Panda's ``panda_hand``)
or ``attachment``. The readers (URDF, MJCF) call :func:`flange_rank` to prefer such a name
among the ends of the longest chains, so that a gripper's fingers never end the arm.
"""

from __future__ import annotations

import re

__all__ = ["flange_rank", "GRIPPER_WORDS"]

# best first: a name matching an earlier pattern is the better flange
_FLANGE = [re.compile(p.replace("^", r"(^|[_/])")) for p in (
    r"^tool0$", r"^flange$", r"^ee_?link$", r"^ee_arm_link$", r"^end_?effector(_link)?$",
    r"^eef(_link)?$", r"^attachment(_site|_link)?$", r"^wrist_?site$", r"^hand$", r"^tcp$",
    r"^tool(_link|_frame)?$", r"^ee$", r"^link_?8$")]

#: words in the name of a gripper's joint or link
GRIPPER_WORDS = re.compile(r"finger|gripper|knuckle|jaw|claw|thumb|pinch|grip|pad|"
                           r"(^|[_/])(index|middle|little|ring)_|"
                           r"(^|[_/])hand_?(joint|prismatic)|inner_|outer_")


def flange_rank(name: str) -> int | None:
    """The rank of ``name`` as a flange name (0 best), None when it is not one."""
    low = name.lower()
    for k, pat in enumerate(_FLANGE):
        if pat.search(low):
            return k
    return None
