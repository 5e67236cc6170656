"""Named poses of a URDF robot from its SRDF (MoveIt's semantic description).

A URDF has no named poses; MoveIt keeps them beside it, as ``<group_state>`` elements of
an SRDF file (``panda.srdf``: ``default``, the arm's ready pose). robogui reads only
those and the collision pairs it disables; groups and end effectors are for planners.

Where the SRDF is looked for, first hit wins: ``STEM.srdf``, then ``NAME.srdf`` (NAME the
URDF's robot name), in the URDF's folder, then in the sibling folders ``srdf/`` and
``config/`` of its parent (the layout of example-robot-data and of MoveIt config
packages). An SRDF that cannot be read is skipped with a warning naming it: the URDF
alone still makes the robot.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

# names SRDF files give the pose a robot starts from (checked in this order, any case)
from robogui.engine.model.start_pose import START_POSE_NAMES

__all__ = ["find_srdf", "read_group_states", "srdf_poses", "srdf_disabled_collisions",
           "read_disabled_collisions", "START_POSE_NAMES"]

_MAX_BYTES = 8 << 20  # SRDFs of whole humanoids are well under 1 MB


def find_srdf(urdf: str | Path, robot_name: str | None = None) -> Path | None:
    """The SRDF beside ``urdf`` (see the module docstring), or None."""
    urdf = Path(urdf)
    stem = urdf.name.split(".")[0]  # arm.urdf.xacro -> arm
    # the robot's name is the file's to choose: used only as a plain file name (a name
    # with a '/' or '..', or too long for the file system, is not looked up)
    usable = bool(robot_name) and len(robot_name) <= 200 and "/" not in robot_name and \
        "\\" not in robot_name and not robot_name.startswith(".") and "\0" not in robot_name
    names = [f"{stem}.srdf"] + ([f"{robot_name}.srdf"] if usable else [])
    here = urdf.parent
    for folder in (here, here.parent / "srdf", here.parent / "config"):
        for name in names:
            cand = folder / name
            try:
                if cand.is_file():
                    return cand
            except OSError:  # a name the file system cannot hold
                continue
    return None


def _root(path: str | Path):
    """The parsed ``<robot>`` element of an SRDF (ValueError when it is not one)."""
    from lxml import etree

    from robogui.engine.guarded_open import read_guarded

    path = Path(path)
    raw = read_guarded(path, _MAX_BYTES)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(raw, parser)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not valid XML ({exc})") from None
    if root.tag != "robot":
        raise ValueError(f"the root element is <{root.tag}>, not <robot>")
    return root


def read_disabled_collisions(path: str | Path) -> list[tuple[str, str]]:
    """``[(link1, link2)]`` of every ``<disable_collisions>``, in file order (ValueError
    when the file is not an SRDF or an element lacks a link)."""
    out = []
    for el in _root(path).iter("disable_collisions"):
        a, b = el.get("link1"), el.get("link2")
        if not a or not b:
            raise ValueError(f"a <disable_collisions> needs link1 and link2, got {a!r}, {b!r}")
        out.append((a, b))
    return out


def srdf_disabled_collisions(urdf: str | Path, robot_name: str | None) -> list[tuple[str, str]]:
    """The link pairs the SRDF beside ``urdf`` disables (empty without one; a bad SRDF is
    skipped with a warning naming it)."""
    path = find_srdf(urdf, robot_name)
    if path is None:
        return []
    try:
        return read_disabled_collisions(path)
    except (OSError, ValueError) as exc:
        warnings.warn(f"{path}: {exc}; its disabled collision pairs are not used", stacklevel=2)
        return []


def read_group_states(path: str | Path) -> list[tuple[str, dict[str, float]]]:
    """``[(pose name, {joint name: value})]`` of every ``<group_state>``, in file order.

    Raises ValueError naming the element when the file is not XML or a value is not a
    finite number.
    """
    root = _root(path)
    out = []
    for gs in root.iter("group_state"):
        name = gs.get("name")
        if not name:
            raise ValueError("a <group_state> has no name")
        values = {}
        for j in gs.findall("joint"):
            where = f"<group_state name={name!r}> <joint name={j.get('name')!r}>"
            text = j.get("value", "")
            try:
                v = float(text.split()[0]) if text.split() else math.nan
            except ValueError:
                raise ValueError(f"{where}: value {text!r} is not a number") from None
            if not math.isfinite(v) or not j.get("name"):
                raise ValueError(f"{where}: needs a name and a finite value, got {text!r}")
            values[j.get("name")] = v
        out.append((name, values))
    return out


def srdf_poses(urdf: str | Path, robot_name: str | None, joint_names: Sequence[str],
               qlim: np.ndarray) -> dict[str, np.ndarray]:
    """Named poses of the joints ``joint_names`` (the robot's independent joints) from
    the SRDF beside ``urdf``. A group state that sets none of them is left out; joints it
    does not set are 0; values are clipped into ``qlim`` (n, 2) (MoveIt rounds pi/2 to
    1.5708, past a limit of 1.5707963)."""
    path = find_srdf(urdf, robot_name)
    if path is None:
        return {}
    try:
        states = read_group_states(path)
    except (OSError, ValueError) as exc:
        warnings.warn(f"{path}: {exc}; its named poses are not used", stacklevel=2)
        return {}
    index = {name: k for k, name in enumerate(joint_names)}
    lo, hi = np.asarray(qlim, float).T
    poses = {}
    for name, values in states:
        q = np.zeros(len(joint_names))
        hit = False
        for joint, v in values.items():
            if joint in index:
                q[index[joint]] = v
                hit = True
        if hit and name not in poses:
            poses[name] = np.clip(q, lo, hi)
    return poses
