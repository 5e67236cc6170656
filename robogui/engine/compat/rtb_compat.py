"""roboticstoolbox-python's model-building names, so RTB model code ports without edits.

``RevoluteDH``, ``PrismaticDH``, ``RevoluteMDH``, ``PrismaticMDH`` build a
:class:`~robogui.engine.model.link.Link` from the same keywords (``d a alpha theta offset qlim
flip m r I Jm G B Tc name``; ``I`` as 3 diagonal values, the 6-vector or 3x3; ``Tc`` a
scalar or one or two values), and ``DHRobot(links, name=..., manufacturer=..., base=...,
tool=..., gravity=...)`` a :class:`~robogui.engine.model.robot.Robot`. ``base`` and ``tool`` may
be spatialmath ``SE3`` objects (anything with a 4x4 ``.A``). Keywords that only concern
RTB's own machinery (``keywords``, ``symbolic``, ``meshdir``, ``mesh``, ``parent``) are
accepted and ignored. Gravity is the acceleration vector in both (default z up).
"""

from __future__ import annotations

import numpy as np

from ..model.link import Link

__all__ = ["RevoluteDH", "PrismaticDH", "RevoluteMDH", "PrismaticMDH", "DHRobot"]

_IGNORED = ("keywords", "symbolic", "meshdir", "mesh", "parent", "urdf_string",
            "urdf_filepath", "checkjindex")


def _link(joint: str, mdh: bool, kw: dict) -> Link:
    for key in _IGNORED:
        kw.pop(key, None)
    if "sigma" in kw:  # RTB's joint type flag: must agree with the class
        if (kw.pop("sigma") != 0) != (joint == "P"):
            raise ValueError(f"sigma disagrees with the link class ({joint})")
    return Link(joint=joint, mdh=mdh, **kw)


def RevoluteDH(**kw) -> Link:  # noqa: N802 (RTB's class name)
    """Revolute joint, standard D-H: ``theta = q + offset`` (``d``, ``a``, ``alpha``)."""
    return _link("R", False, kw)


def PrismaticDH(**kw) -> Link:  # noqa: N802
    """Prismatic joint, standard D-H: ``d = q + offset`` (``theta``, ``a``, ``alpha``)."""
    return _link("P", False, kw)


def RevoluteMDH(**kw) -> Link:  # noqa: N802
    """Revolute joint, modified D-H (``a``, ``alpha`` are a_{i-1}, alpha_{i-1})."""
    return _link("R", True, kw)


def PrismaticMDH(**kw) -> Link:  # noqa: N802
    """Prismatic joint, modified D-H."""
    return _link("P", True, kw)


def _matrix(T):
    return None if T is None else np.asarray(getattr(T, "A", T), dtype=float)


def DHRobot(links, name: str = "noname", manufacturer: str = "", comment: str = "",  # noqa: N802
            base=None, tool=None, gravity=None, **kw):
    """roboticstoolbox ``DHRobot(links, ...)``: a Robot (RTB-only keywords are ignored)."""
    from ..model.robot import Robot

    for key in _IGNORED:
        kw.pop(key, None)
    if kw:
        raise ValueError(f"DHRobot: unknown keyword(s) {', '.join(sorted(kw))}")
    extra = {} if gravity is None else {"gravity": gravity}
    return Robot(links, name=name, manufacturer=manufacturer, comment=comment,
                 base=_matrix(base), tool=_matrix(tool), **extra)
