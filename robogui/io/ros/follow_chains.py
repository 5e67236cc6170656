"""Where the links off a URDF arm's chain hang, and which joints beyond the chain they
follow (a gripper's fingers; a cylinder and the piston on it, both mimicking joint 2).

Every link rides on a body of the chain (0 the root, k the child of moving joint k). A
link beyond off-chain joints that move with something (a mimic joint whose leader, or
its leader's leader, is a chain joint or a gripper joint; a gripper joint itself) gets
the stages of ``Visual.follow``: one per such joint on its way from its body, so a
follower of a follower is placed through both motions. Everything else off the chain
sits at rest (joint value 0; a mimic joint at its offset).
"""

from __future__ import annotations

import math

import numpy as np

from robogui.engine.model.gripper import GripperJoint
from robogui.engine.model.visual import follow_matrices
from robogui.engine.spatial.transforms import angvec2tr

from ..file_error import RobotFileError
from .chain_ends import is_gripper_joint

__all__ = ["resolve_mimic", "place_links", "gripper_joints"]

MOVING = ("revolute", "continuous", "prismatic")


def origin(x) -> np.ndarray:
    """A joint's or element's origin as a 4x4 (identity when absent)."""
    return np.eye(4) if x is None else np.asarray(x, dtype=float)


def motion(j, value: float) -> np.ndarray:
    """The joint's own transform at joint value ``value`` (off-chain joints at rest)."""
    T = np.eye(4)
    if j.type not in MOVING or value == 0.0:
        return T
    axis = np.asarray(j.axis if j.axis is not None else (1.0, 0, 0), float)
    axis = axis / np.linalg.norm(axis)
    if j.type == "prismatic":
        T[:3, 3] = axis * value
        return T
    return angvec2tr(value, axis)


def rest_value(j) -> float:
    """Off-chain joints sit at 0; a mimic joint at its offset (its leader at 0)."""
    if j.mimic is not None:
        return float(j.mimic.offset or 0.0)
    return 0.0


def resolve_mimic(tree, j, path):
    """(root leader joint, multiplier, offset) of the mimic joint ``j``, its leaders
    followed through while they mimic in turn (the coupling composed): ``q_j =
    multiplier * q_root + offset``. RobotFileError for a loop or a leader not in the
    file."""
    mult = 1.0 if j.mimic.multiplier is None else float(j.mimic.multiplier)
    off = float(j.mimic.offset or 0.0)
    seen = {j.name}
    leader = tree.joints.get(j.mimic.joint)
    while leader is not None and leader.mimic is not None:
        if leader.name in seen:
            raise RobotFileError(f"<joint name={j.name!r}>: its <mimic> joints form a loop",
                                 path)
        seen.add(leader.name)
        m2 = 1.0 if leader.mimic.multiplier is None else float(leader.mimic.multiplier)
        mult, off = mult * m2, mult * float(leader.mimic.offset or 0.0) + off
        leader = tree.joints.get(leader.mimic.joint)
    if leader is None:
        raise RobotFileError(f"<joint name={j.name!r}>: <mimic joint={j.mimic.joint!r}> "
                             "names no joint", path)
    if not (math.isfinite(mult) and math.isfinite(off)):
        raise RobotFileError(f"<joint name={j.name!r}>: <mimic> multiplier and offset must "
                             f"be finite, got {mult}, {off}", path)
    return leader, mult, off


def _bodies(tree, index: dict) -> dict:
    """{link: body index} (0 the root, k the child of chain joint k)."""
    out, stack = {tree.root: 0}, [tree.root]
    while stack:
        k = stack.pop()
        for j in tree.children[k]:
            out[j.child] = index.get(j.name, out[k])
            stack.append(j.child)
    return out


def place_links(tree, index: dict, n: int, path):
    """Each link's place: ``body`` {link: (b, T)} with T its rest placement in body b's
    frame (for masses), ``follows`` {link: (stages, R)} for links that move off the chain
    (stages as ``Visual.follow`` with numpy ``J``, the first in body b's frame; R the
    link's placement in the last stage's child frame), and the gripper joints (URDF
    joints off the chain on the last body, named as a gripper's). ``index`` {chain
    joint name: body index}."""
    on = _bodies(tree, index)
    grip = {j.name for j in tree.joints.values()
            if j.name not in index and j.mimic is None and is_gripper_joint(j)
            and on.get(j.parent) == n}
    body = {tree.root: (0, np.eye(4))}
    follows: dict[str, tuple] = {}
    stack = [tree.root]
    while stack:
        k = stack.pop()
        b, T = body[k]
        stages, R = follows.get(k, ((), T))
        for j in tree.children[k]:
            stack.append(j.child)
            if j.name in index:
                body[j.child] = (index[j.name], np.eye(4))
                continue
            value = rest_value(j)
            body[j.child] = (b, T @ origin(j.origin) @ motion(j, value))
            stage = None
            if j.type in MOVING:
                if j.name in grip:
                    stage = (j.name, 1.0, 0.0)
                elif j.mimic is not None:
                    lead, mult, off = resolve_mimic(tree, j, path)
                    if lead.name in index and lead.type in MOVING:
                        stage = (index[lead.name] - 1, mult, off)
                    elif lead.name in grip:
                        stage = (lead.name, mult, off)
            if stage is None:
                if stages:
                    follows[j.child] = (stages, R @ origin(j.origin) @ motion(j, value))
                continue
            axis = tuple(float(x) for x in (j.axis if j.axis is not None else (1.0, 0, 0)))
            follows[j.child] = ((*stages, (*stage, j.type != "prismatic", axis,
                                           R @ origin(j.origin))), np.eye(4))
    return body, follows, [tree.joints[g] for g in sorted(grip)]


def gripper_joints(joints, follows: dict) -> tuple[GripperJoint, ...]:
    """GripperJoint records of the URDF gripper ``joints`` (limits from the file, a
    joint without them at 0..0), each opening the way that spreads the links that
    follow it the most (the Panda's fingers apart: its upper limit; a Robotiq's closing
    knuckles: its lower)."""
    out = []
    for j in joints:
        lim = j.limit
        lo = float(lim.lower) if lim is not None and lim.lower is not None else 0.0
        hi = float(lim.upper) if lim is not None and lim.upper is not None else 0.0
        if j.type == "continuous" or not (math.isfinite(lo) and math.isfinite(hi)) \
                or hi < lo:
            lo, hi = (-math.pi, math.pi) if j.type != "prismatic" else (0.0, 0.0)
        mine = [st for st, _ in follows.values() if any(s[0] == j.name for s in st)]
        out.append(GripperJoint(j.name, j.type != "prismatic", lo, hi,
                                "lower" if _spread(mine, j.name, lo) > _spread(
                                    mine, j.name, hi) + 1e-12 else "upper"))
    return tuple(out)


def _spread(stage_lists, name: str, value: float) -> float:
    """Mean distance of the following links' origins from their centroid."""
    if len(stage_lists) < 2:
        return 0.0
    p = np.array([follow_matrices(st, np.zeros((1, 1 + max(
        [s[0] for s in st if not isinstance(s[0], str)], default=0))), {name: value})[0, :3, 3]
        for st in stage_lists])
    return float(np.linalg.norm(p - p.mean(axis=0), axis=1).mean())
