"""An object attached to a robot link (a part in the gripper: MoveIt's attached collision
object), added to the robot's collision geometry as one more piece riding on that link.

The attached piece is checked against every other piece of the robot except those on the
link that holds it and on its ``touch_links`` (MoveIt's name for the links allowed to touch
it), against the obstacles and the floor, like any link: the checker moves it with the link's
frame along every batch of states, so carrying needs no new code path in the check.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .robot_geometry import Piece, RobotGeometry, _bounding, coal_shape

__all__ = ["Attached", "with_attached"]


@dataclass(frozen=True, eq=False)
class Attached:
    """An object held by the robot.

    name : how contacts name it (the cell object's name).
    kind, size, mesh : its shape, as an obstacle's (m).
    frame : the ``fkine_all`` frame it rides in (the tip frame for a gripper: the flange).
    T : (4, 4) its pose in that frame.
    touch_links : names of further links it is not checked against.
    """

    name: str
    kind: str
    size: tuple
    frame: int
    T: np.ndarray
    mesh: tuple | None = None
    touch_links: tuple = ()


def with_attached(geometry: RobotGeometry, attached: Attached) -> RobotGeometry:
    """``geometry`` with ``attached`` as one more piece on its frame's body: paired with
    every robot piece on another body (the holding link's pieces and ``touch_links`` left
    out). Returns a new RobotGeometry (the robot's own pairs unchanged)."""
    frame = int(attached.frame)
    if not 0 <= frame < geometry.n_frames:
        raise ValueError(f"an attached object's frame must be in 0..{geometry.n_frames - 1}, "
                         f"got {frame}")
    T = np.asarray(attached.T, float).reshape(4, 4)
    c, rad = _bounding(attached.kind, attached.size, attached.mesh)
    seg = None
    if attached.kind == "capsule":
        h = T[:3, 2] * attached.size[1] / 2
        seg = np.array([T[:3, 3] - h, T[:3, 3] + h])
    piece = Piece(frame, frame, attached.name, attached.kind, tuple(attached.size), T,
                  T[:3, :3] @ c + T[:3, 3], rad,
                  coal_shape(attached.kind, attached.size, attached.mesh), (), seg)
    k = len(geometry.pieces)
    touch = set(attached.touch_links)
    parent = geometry.parent
    others = [a for a, p in enumerate(geometry.pieces)  # mimic parts on the link hold it too
              if p.body != frame and p.link not in touch
              and not (p.body >= geometry.n_frames and parent[p.body] == frame)]
    pairs = np.vstack([geometry.self_pairs.reshape(-1, 2),
                       np.array([(a, k) for a in others], int).reshape(-1, 2)])
    return RobotGeometry(geometry.pieces + (piece,), geometry.parent, pairs, geometry.n_frames,
                         geometry.allowed_at_start)
