"""Where a URDF arm ends: every link a chain can stop at, with its joint count, and the
default tip (the tool flange).

A gripper's joints (named finger, gripper, knuckle, ...: :data:`GRIPPER_WORDS`, and the
mimic joints that follow them) never count as arm joints: the ends are the links reached
from the root without passing one. Among the ends with the most arm joints, the default
tip is the link with the best flange name (:func:`~robogui.io.tip_names.flange_rank`:
``tool0``, ``flange``, ``ee_link``, ...); without one, the link that holds the last arm
joint when it is a single one, else every leaf (the caller asks).
"""

from __future__ import annotations

from ..tip_names import GRIPPER_WORDS, flange_rank

__all__ = ["arm_ends", "default_tips", "is_gripper_joint"]

MOVING = ("revolute", "continuous", "prismatic")


def is_gripper_joint(j) -> bool:
    """True for a moving joint of a gripper: its name says so (finger, gripper, ...)."""
    return j.type in MOVING and bool(GRIPPER_WORDS.search(j.name.lower()))


def arm_ends(tree) -> dict[str, int]:
    """``{link: arm joints from the root}`` for every link reached without passing a
    gripper joint or a joint that mimics one (a ``urdf._Tree``: ``root``, ``children``
    {link: [joint]}, ``joints`` {name: joint}); other mimic joints are passed through but
    not counted (they follow a joint that is)."""
    out = {tree.root: 0}
    stack = [(tree.root, 0)]
    while stack:
        k, count = stack.pop()
        for j in tree.children[k]:
            lead = tree.joints.get(j.mimic.joint) if j.mimic is not None else None
            if is_gripper_joint(j) or (lead is not None and is_gripper_joint(lead)):
                continue  # what hangs on a gripper joint or its follower is the gripper
            c = count + (1 if j.type in MOVING and j.mimic is None else 0)
            out[j.child] = c
            stack.append((j.child, c))
    return out


def _depth(tree, k: str) -> int:
    d = 0
    while k in tree.parent_joint:
        k = tree.parent_joint[k].parent
        d += 1
    return d


def _deepest(tree, names: list[str]) -> list[str]:
    """The names farthest from the root (the tool side of a sensor or adapter)."""
    deepest = max(_depth(tree, k) for k in names)
    return sorted(k for k in names if _depth(tree, k) == deepest)


def default_tips(tree) -> list[str]:
    """The default-tip shortlist: one name when the rule decides, several to ask about
    (two arms, or no flange name and several leaves); None of the links have arm joints
    (a gripper alone): the leaves reached through the most moving joints."""
    ends = arm_ends(tree)
    best = max(ends.values())
    if best == 0:
        return tree.tips()
    top = [k for k, c in ends.items() if c == best]
    ranks = {k: flange_rank(k) for k in top}
    ranked = {k: r for k, r in ranks.items() if r is not None}
    if ranked:
        low = min(ranked.values())
        return _deepest(tree, [k for k, r in ranked.items() if r == low])
    leaves = sorted(k for k in top if not any(j.child in ends for j in tree.children[k]))
    if len(leaves) == 1:
        return leaves
    lasts = sorted({k for k in top if k in tree.parent_joint
                    and tree.parent_joint[k].type in MOVING})
    return lasts if len(lasts) == 1 else leaves
