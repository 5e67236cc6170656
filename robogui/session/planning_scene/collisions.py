"""Collision checks of a robot in its cell: ``check_collisions(robot, q, cell)``.

The robot's collision geometry and the cell's objects become a
:class:`robogui.engine.collision_detection.checker.CollisionWorld` once per (robot, cell)
(cached), so checking again after an edit of q costs only the check.
"""

from __future__ import annotations

from functools import lru_cache

from robogui.engine.collision_detection.checker import CollisionReport, CollisionWorld, Obstacle

from .cell import Cell

__all__ = ["check_collisions", "collision_world", "obstacles_of", "CollisionReport"]


def obstacles_of(cell: Cell) -> list[Obstacle]:
    """The cell's colliding objects as engine obstacles (world poses)."""
    return [Obstacle(o.name, o.shape, o.size, o.T, o.mesh) for o in cell.objects
            if o.collides]


@lru_cache(maxsize=8)
def _world(robot, cell: Cell | None, self_collisions: bool) -> CollisionWorld:
    if cell is None:
        return CollisionWorld(robot, self_collisions=self_collisions)
    return CollisionWorld(robot, obstacles_of(cell), base=cell.base,
                          floor_z=cell.floor_z if cell.floor else None,
                          self_collisions=self_collisions)


def collision_world(robot, cell: Cell | None = None,
                    self_collisions: bool = True) -> CollisionWorld:
    """The (cached) collision world of ``robot`` in ``cell`` (None: the robot alone, no
    floor). Raises ValueError naming a collision mesh that cannot be read."""
    if cell is not None and not isinstance(cell, Cell):
        raise ValueError(f"cell must be a Cell or None, got {type(cell).__name__}")
    return _world(robot, cell, bool(self_collisions))


def check_collisions(robot, q, cell: Cell | None = None, distance: bool = True,
                     self_collisions: bool = True) -> CollisionReport:
    """Collisions of ``robot`` at joint states ``q`` (n,) or (m, n) in ``cell``.

    Checked: the robot against itself (every two links except those joined by one joint and
    the SRDF's disabled pairs), against every colliding object of the cell, and against the
    floor (except the base and the first link, which stand on it). The cell's base pose
    places the robot.

    Returns a :class:`CollisionReport`: ``colliding`` (m,) bool, ``distance`` (m,) the
    smallest signed distance over the checked pairs in metres (negative = penetration
    depth; nan with ``distance=False``, which is faster), ``pairs`` per state the list of
    ``(name_a, name_b)`` in contact (link names as in the robot, object names as in the
    cell, ``"floor"``), ``depths`` their penetration depths, ``nearest`` the pair of the
    smallest distance. For q of shape (n,) the fields are that state's plain values.

    >>> import robogui as rg
    >>> puma = rg.load_robot("puma560")
    >>> bool(rg.check_collisions(puma, puma.pose("qz")).colliding)
    False
    """
    return collision_world(robot, cell, self_collisions).check(q, distance=distance)
