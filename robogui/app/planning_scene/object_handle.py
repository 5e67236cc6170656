"""Cell objects in the 3D view: a click picks one, the tool handle moves and turns it.

Picking is geometry (:class:`~robogui.session.geometry.cell_meshes.CellPicker`: a camera ray
against the drawn triangles). A click (press and release within a few pixels) on an object
chooses it in the Cell panel; a click on empty floor or sky lets it go. While an object
is chosen, the window's tool handle sits on it instead of on the TCP
(:class:`ObjectTarget`): its arrows move the object, its rings turn it, Shift moves it in
the view plane, and each drag is one undo step (the moves of one drag merge by their
merge key). Letting the object go gives the handle back to the TCP.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore

from robogui.engine.spatial.transforms import tr2rpy
from robogui.session.geometry.picking import pixel_ray

from .. import undo

__all__ = ["ObjectTarget", "ObjectPicker", "CLICK_PIXELS"]

CLICK_PIXELS = 4.0  # a press and release closer than this is a click, not a camera drag


class ObjectTarget:
    """A cell object as the tool handle's target (see ``interaction.handle.TcpTarget``).

    Poses are in the view's coordinates (the robot's base frame, ``layer.world_to_view``);
    the cell stores world poses."""

    def __init__(self, session, layer, name: str):
        self.session, self.layer, self.name = session, layer, name

    def pose(self) -> np.ndarray | None:
        cell = self.session.cell
        if cell is None or self.name not in cell.names:
            return None
        return self.layer.view_pose(self.name)

    def begin(self) -> None:
        undo.close_merge(self.session)  # this drag is a step of its own

    def drag_to(self, T_goal: np.ndarray) -> str | None:
        """Put the object at ``T_goal`` (4, 4, view coordinates); merged into the drag's
        one undo step."""
        cell = self.session.cell
        if cell is None or self.name not in cell.names:
            return "the object is gone"
        T = cell.base @ np.asarray(T_goal, dtype=float)
        obj = cell.object(self.name)
        try:
            moved = obj.moved(xyz=tuple(float(v) for v in T[:3, 3]),
                              rpy=tuple(float(v) for v in tr2rpy(T)))
        except ValueError as exc:  # beyond the bounds a cell allows
            return str(exc)
        with undo.labelled(self.session, f"Move {self.name!r}",
                           merge_key=("cell drag", self.name)):
            self.session.set_cell(cell.with_object(moved))
        return None

    def end(self, text: str) -> None:
        undo.close_merge(self.session)


class ObjectPicker:
    """Mouse handler of ``view``: a click on a cell object calls ``on_pick(name)``, a click
    on nothing ``on_pick(None)``. Presses are left to the camera (a drag orbits)."""

    def __init__(self, view, layer, on_pick):
        self.view, self.layer, self.on_pick = view, layer, on_pick
        self.enabled = True
        self._press: tuple | None = None  # ((x, y), name or None)
        view.scene.add_mouse_handler(self)

    def object_at(self, x: float, y: float) -> str | None:
        """Name of the shown object under pixel (x, y) of the view, or None."""
        sc = self.view.scene
        ray = pixel_ray(sc.mvp_matrix(), x, y, max(1, sc.width()), max(1, sc.height()))
        hit = self.layer.object_at(ray)
        return None if hit is None else hit[0]

    def press(self, event) -> bool:
        self._press = None
        if self.enabled and event.button() == QtCore.Qt.MouseButton.LeftButton:
            p = event.position()
            self._press = ((p.x(), p.y()), self.object_at(p.x(), p.y()))
        return False

    def move(self, event) -> bool:
        return False

    def release(self, event) -> bool:
        press, self._press = self._press, None
        if press is None:
            return False
        p = event.position()
        if math.hypot(p.x() - press[0][0], p.y() - press[0][1]) >= CLICK_PIXELS:
            return False
        name = press[1]
        if name is None and self.layer.selected is None:
            return False
        self.on_pick(name)
        return name is not None

    def wheel(self, event) -> bool:
        return False

    def leave(self) -> None:
        pass
