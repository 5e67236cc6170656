"""Visual (and collision) geometry of a robot: meshes and primitives placed in link frames.

The description holds file paths and placements only; loading triangles is the app's
job (the 3D view builds them once per robot and moves them by the link transforms).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Visual", "follow_matrices", "stage_motion"]

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
    follow : () for geometry fixed in its frame; for geometry beyond joints off the chain
        that move (a gripper's joints and the mimic joints that follow them, the Panda's
        fingers; the IRB 6700's piston on its cylinder), a tuple of stages, root first,
        each ``(leader, multiplier, offset, revolute, axis, J)``: the placement in the
        frame is ``J_1 @ M_1(v_1) @ J_2 @ M_2(v_2) @ ... @ T``, ``M`` the motion about
        (revolute) or along the unit ``axis`` by ``v = multiplier * x + offset``, ``J`` a
        4x4 tuple of tuples (the first in the frame, each next one in the previous
        stage's child frame). ``x`` is the leader's value: an int ``leader`` is a chain
        joint (0-based, the chain with its mimic joints, between frames j and j+1); a str
        names one of the robot's gripper joints (``Robot.gripper``). A single stage may
        be given bare (the 6-tuple).
    file_material : True (URDF, as RViz): the mesh file's own material and colours win,
        ``rgba`` colours what the file leaves unsaid. False (MJCF, as MuJoCo): the file's
        material is not used at all (a file without one would otherwise bring its
        reader's default grey); ``rgba`` decides.
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
    file_material: bool = True

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
    """``follow`` as a tuple of checked stages (a bare stage is wrapped)."""
    if not isinstance(follow, (tuple, list)):
        raise ValueError(f"follow must be a tuple of stages, got {follow!r}")
    nested = bool(follow) and isinstance(follow[0], (tuple, list))
    stages = tuple(follow) if nested else (follow,)
    if len(stages) > 64:
        raise ValueError(f"follow: at most 64 stages, got {len(stages)}")
    return tuple(_checked_stage(st) for st in stages)


def _checked_stage(follow) -> tuple:
    try:
        j, mult, off, revolute, axis, J = follow
    except (TypeError, ValueError):
        raise ValueError("follow must be (joint, multiplier, offset, revolute, axis, J), "
                         f"got {follow!r}") from None
    axis = np.asarray(axis, dtype=float)
    J = np.asarray(J, dtype=float)
    if isinstance(j, str):
        if not j or len(j) > 200:
            raise ValueError(f"follow: a gripper joint name must have 1..200 characters, "
                             f"got {j[:40]!r}")
    elif isinstance(j, bool) or not isinstance(j, (int, np.integer)) or j < 0:
        raise ValueError(f"follow: joint must be a chain joint index >= 0 or a gripper "
                         f"joint's name, got {j!r}")
    if not (np.isfinite(mult) and np.isfinite(off)):
        raise ValueError(f"follow: multiplier and offset must be finite, got {mult!r}, {off!r}")
    if axis.shape != (3,) or not np.all(np.isfinite(axis)) or np.linalg.norm(axis) < 1e-12:
        raise ValueError(f"follow: axis must be a non-zero finite 3-vector, got {axis!r}")
    if J.shape != (4, 4) or not np.all(np.isfinite(J)):
        raise ValueError("follow: J must be a finite 4x4 transform")
    return (j if isinstance(j, str) else int(j), float(mult), float(off), bool(revolute),
            tuple(float(x) for x in axis / np.linalg.norm(axis)), _nested(J))


def stage_motion(axis, value, revolute: bool) -> np.ndarray:
    """The turn by ``value`` rad about the unit ``axis`` (revolute) or the shift by
    ``value`` m along it: ``value`` (m,) -> (m, 4, 4) (Rodrigues, batched)."""
    a = np.asarray(axis, dtype=float)
    v = np.asarray(value, dtype=float).reshape(-1)
    M = np.tile(np.eye(4), (len(v), 1, 1))
    if not revolute:
        M[:, :3, 3] = v[:, None] * a
        return M
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    s, c = np.sin(v)[:, None, None], np.cos(v)[:, None, None]
    M[:, :3, :3] = np.eye(3) + s * K + (1 - c) * (K @ K)
    return M


def follow_matrices(follow, Q, gripper=None) -> np.ndarray:
    """``J_1 M_1(v_1) ... J_k M_k(v_k)`` (m, 4, 4) of the stages ``follow`` (a
    ``Visual.follow``) for full-chain joint values ``Q`` (m, n_full) and the gripper
    joints' values ``gripper`` {name: value} (a name not given: 0, the rest)."""
    Q = np.atleast_2d(np.asarray(Q, dtype=float))
    gripper = gripper or {}
    out = np.tile(np.eye(4), (len(Q), 1, 1))
    for lead, mult, off, revolute, axis, J in follow:
        x = (np.full(len(Q), float(gripper.get(lead, 0.0))) if isinstance(lead, str)
             else Q[:, lead])
        out = out @ np.asarray(J) @ stage_motion(axis, mult * x + off, revolute)
    return out
