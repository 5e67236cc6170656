"""Visual (and collision) geometry of a robot: meshes and primitives placed in link frames.

The description holds file paths and placements only; loading triangles is the app's
job (the 3D view builds them once per robot and moves them by the link transforms).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Visual"]

KINDS = ("mesh", "box", "cylinder", "sphere", "capsule")


@dataclass(frozen=True)
class Visual:
    """One piece of visual geometry.

    frame : index into ``fkine_all``: 0 the base (root link), j the frame of link j.
    kind : "mesh", "box", "cylinder" (along z), "sphere" or "capsule" (along z; collision
        geometry only).
    T : placement in that frame, a 4x4 tuple of tuples (metres).
    filename : the mesh file, resolved to a local path when found, else as written.
    uri : the mesh reference as written in the file (``package://...``), for messages.
    scale : mesh scale factors (3,).
    size : box (x, y, z); cylinder and capsule (radius, length); sphere (radius,) in metres.
    rgba : material colour (4 values in [0, 1]) or None (the view picks one).
    link : name of the link this geometry belongs to (URDF), for messages.
    follow : () for geometry fixed in its frame; for geometry beyond a joint off the chain
        that mimics a chain joint (the Panda's second finger), ``(j, multiplier, offset,
        revolute, axis, J)``: its placement in the frame is ``J @ M(v) @ T`` with ``M``
        the motion about (revolute) or along ``axis`` by ``v = multiplier * q_j +
        offset``, ``q_j`` the value of chain joint ``j`` (0-based, the chain with its
        mimic joints, between frames j and j+1), ``J`` a 4x4 tuple of tuples.
    """

    frame: int
    kind: str
    T: tuple
    filename: str = ""
    uri: str = ""
    scale: tuple = (1.0, 1.0, 1.0)
    size: tuple = ()
    rgba: tuple | None = None
    link: str = ""
    follow: tuple = ()
    problem: str = ""
    roots: tuple = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        T = np.asarray(self.T, dtype=float)
        if T.shape != (4, 4) or not np.all(np.isfinite(T)):
            raise ValueError(f"T must be a finite 4x4 transform, got {self.T!r}")
        object.__setattr__(self, "T", _nested(T))
        if self.follow:
            object.__setattr__(self, "follow", _checked_follow(self.follow))

    @property
    def matrix(self) -> np.ndarray:
        """The placement as a (4, 4) array."""
        return np.array(self.T)


def _nested(T: np.ndarray) -> tuple:
    return tuple(tuple(float(x) for x in r) for r in T)


def _checked_follow(follow) -> tuple:
    try:
        j, mult, off, revolute, axis, J = follow
    except (TypeError, ValueError):
        raise ValueError("follow must be (joint, multiplier, offset, revolute, axis, J), "
                         f"got {follow!r}") from None
    axis = np.asarray(axis, dtype=float)
    J = np.asarray(J, dtype=float)
    if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or j < 0:
        raise ValueError(f"follow: joint must be a chain joint index >= 0, got {j!r}")
    if not (np.isfinite(mult) and np.isfinite(off)):
        raise ValueError(f"follow: multiplier and offset must be finite, got {mult!r}, {off!r}")
    if axis.shape != (3,) or not np.all(np.isfinite(axis)) or np.linalg.norm(axis) < 1e-12:
        raise ValueError(f"follow: axis must be a non-zero finite 3-vector, got {axis!r}")
    if J.shape != (4, 4) or not np.all(np.isfinite(J)):
        raise ValueError("follow: J must be a finite 4x4 transform")
    return (int(j), float(mult), float(off), bool(revolute),
            tuple(float(x) for x in axis / np.linalg.norm(axis)), _nested(J))
