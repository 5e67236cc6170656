"""Every number of a URDF checked before anything uses it (issue 23 item 4).

A value must parse, have the count URDF defines (``rpy`` 3, ``box size`` 3, ``scale`` 3),
be finite and lie within docs/bounds.md. Joints and links that break this are refused
with the element named; a single ``<visual>`` that does is taken out of the tree and
reported (link, reason), so the robot still opens and the view warns about it. Duplicate
link or joint names, reversed limits and more links than the limit are refused too.
"""

from __future__ import annotations

import math
from pathlib import Path

from robogui.engine import bounds
from robogui.engine.limits import ENV, limits

from ..file_error import RobotFileError

__all__ = ["check_urdf", "ATTRIBUTES"]

L, A = bounds.MAX_LENGTH, bounds.MAX_ANGLE
# element -> attribute -> (counts allowed, bound, lowest value or None for -bound)
ATTRIBUTES: dict[str, dict[str, tuple[tuple[int, ...], float, float | None]]] = {
    "origin": {"xyz": ((3,), L, None), "rpy": ((3,), A, None)},
    "axis": {"xyz": ((3,), 1e6, None)},
    "mass": {"value": ((1,), bounds.MAX_MASS, 0.0)},
    "inertia": {k: ((1,), bounds.MAX_INERTIA, None)
                for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")},
    # real mobile bases write ±999999 for "no limit" (rtb-data's Frankie): allowed
    "limit": {"lower": ((1,), 1e6, None), "upper": ((1,), 1e6, None),
              "effort": ((1,), bounds.MAX_TORQUE, 0.0),
              "velocity": ((1,), bounds.MAX_MOTOR, 0.0)},
    "dynamics": {"damping": ((1,), bounds.MAX_MOTOR, None),
                 "friction": ((1,), bounds.MAX_MOTOR, None)},
    "mimic": {"multiplier": ((1,), 1e3, None), "offset": ((1,), max(L, A), None)},
    "box": {"size": ((3,), L, 0.0)},
    "cylinder": {"radius": ((1,), L, 0.0), "length": ((1,), L, 0.0)},
    "sphere": {"radius": ((1,), L, 0.0)},
    "mesh": {"scale": ((1, 3), 1e6, None)},
}


def _problem(el, attr: str, text: str) -> str | None:
    counts, bound, low = ATTRIBUTES[el.tag][attr]
    try:
        values = [float(v) for v in text.split()]
    except ValueError:
        return f"<{el.tag} {attr}>: {text[:60]!r} is not a list of numbers"
    if len(values) not in counts:
        want = " or ".join(map(str, counts))
        return f"<{el.tag} {attr}> has {len(values)} values, not {want}"
    lo = -bound if low is None else low
    for v in values:
        if not math.isfinite(v):
            return f"<{el.tag} {attr}>: {v} is not a finite number"
        if not lo <= v <= bound:
            return f"<{el.tag} {attr}>: {v:g} is outside the bounds [{lo:g}, {bound:g}] " \
                   "(docs/bounds.md)"
    if el.tag == "mesh" and any(v == 0 for v in values):
        return "<mesh scale> has a zero factor"
    return None


def _element_problem(el) -> str | None:
    for sub in el.iter(*ATTRIBUTES):
        for attr in ATTRIBUTES[sub.tag]:
            text = sub.get(attr)
            if text is not None:
                why = _problem(sub, attr, text)
                if why:
                    return why
    return None


def check_urdf(root, path: Path) -> list[tuple[str, str]]:
    """Check the URDF ``root`` (lxml, comments stripped). Raises RobotFileError naming the
    element; returns ``[(link, reason)]`` for the ``<visual>`` elements it removed."""
    names: dict[str, set] = {"link": set(), "joint": set()}
    links = root.findall("link")
    if len(links) > limits().links:
        raise RobotFileError(f"{len(links):,} links, more than the limit of "
                             f"{limits().links:,} (raise it with {ENV['links']}=N)", path)
    for tag in names:
        for el in root.findall(tag):
            name = el.get("name")
            if name in names[tag]:
                raise RobotFileError(f"two <{tag}>s are named {name[:80]!r}", path)
            names[tag].add(name)
    dropped = []
    for k in links:
        where = f"<link name={k.get('name')[:80]!r}>"
        for vis in k.findall("visual"):
            why = _element_problem(vis)
            if why:
                k.remove(vis)
                dropped.append((k.get("name"), why))
        for sub in (*k.findall("inertial"), *k.findall("collision")):
            why = _element_problem(sub)
            if why:
                raise RobotFileError(f"{where} <{sub.tag}> {why}", path)
    for j in root.findall("joint"):
        where = f"<joint name={j.get('name')[:80]!r}>"
        why = _element_problem(j)
        if why:
            raise RobotFileError(f"{where} {why}", path)
        lim = j.find("limit")
        if lim is not None and j.get("type") in ("revolute", "prismatic"):
            lo, hi = lim.get("lower"), lim.get("upper")
            if lo is not None and hi is not None and float(lo) > float(hi):
                raise RobotFileError(f"{where} <limit>: lower {float(lo):g} is above upper "
                                     f"{float(hi):g}", path)
    return dropped
