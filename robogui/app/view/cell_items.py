"""The work cell drawn in the 3D view: tables, bins and parts around the robot.

The objects' triangles (:func:`~robogui.session.geometry.cell_meshes.object_mesh`) go into
batched, lit items (:class:`~.robot_mesh_item.RobotMeshItem`, the robot's own kind: the same
light, shadows on the floor), built once per cell geometry; a new cell that only moves,
recolours, hides or renames objects (every edit but a new shape or size) reuses them and
only sets matrices, tints and flags. Poses are :meth:`Session.object_poses` (a carried part
where the tool holds it), updated on the ``cell``, ``q``, ``time`` and ``frames`` events;
objects in contact (``session.collisions``, when the session has it) are drawn red.

The view's coordinates are the robot's: an object at world pose ``T`` is drawn at
``inv(cell.base) @ T`` (the cell's base pose places the robot in the world), and the
view's floor is put at the cell's floor (:func:`cell_floor`).
"""

from __future__ import annotations

import numpy as np

from robogui.session.geometry.cell_meshes import CellPicker, geometry_key, object_mesh

from .. import style
from ..bindings import Subscriptions
from .robot_mesh_item import PartMesh, RobotMeshItem, normal_matrices

__all__ = ["CellLayer", "CONTACT_COLOR", "SELECTED_COLOR", "contact_names", "cell_floor"]

CONTACT_COLOR = style.AT_LIMIT_COLOR  # red: in contact
SELECTED_COLOR = "#ffe14d"  # mixed into the selected object's colour
_CHUNK = 64  # objects per GL item (the shader's uniform arrays hold one matrix each)
_DEPTH = 1  # after the robot (0), before the trail and ghosts


def cell_floor(cell) -> float | None:
    """Height (m) of the cell's floor in the view's coordinates (the robot's base frame), or
    None (no cell, or a base tilted so that the floor is not level there: the view keeps
    the floor it computes from the robot)."""
    if cell is None or abs(cell.base_rpy[0]) > 1e-9 or abs(cell.base_rpy[1]) > 1e-9:
        return None
    return float(cell.floor_z - cell.base_xyz[2])


def contact_names(report) -> set[str]:
    """Names in contact in a collision report of the current state: ``report.pairs`` is
    the list of (name_a, name_b) of one state, or of the first of several."""
    if report is None:
        return set()
    pairs = getattr(report, "pairs", None) or []
    if pairs and not (isinstance(pairs[0], tuple) and len(pairs[0]) == 2
                      and all(isinstance(x, str) for x in pairs[0])):
        pairs = pairs[0] or []  # a batch of one state
    return {name for pair in pairs for name in pair}


class CellLayer:
    """Draws ``session.cell`` in ``view`` (a RobotView); create it after the view."""

    def __init__(self, view, session):
        self.view, self.session = view, session
        self._items: list[RobotMeshItem] = []
        self._key: tuple | None = None  # geometry of the built items (names in order too)
        self._objects: tuple = ()
        self.picker: CellPicker | None = None
        self.selected: str | None = None
        self.placements = np.zeros((0, 4, 4))  # view coordinates, per object
        self.tints = np.zeros((0, 4))
        self.shown = np.zeros(0, bool)
        self.contacts: set[str] = set()
        self._placed = None  # the cell the placements were computed for (None: again)
        self._tinted = None  # the cell the tints were computed for
        view.add_fit_points(self._fit_points)
        subs = self._subs = Subscriptions(view)
        subs.connect(session.events.cell, lambda _c: self.refresh())
        # a grasped part follows the tool (q, frames), a program's part the playhead (time);
        # "held": grasped or released while driving
        for name in ("q", "time", "frames", "held"):
            subs.connect(session.events[name], lambda _v: self.update_poses())
        subs.connect(session.display.events.show_shadow, lambda _v: self._apply_shown())
        view.robotRebuilt.connect(self._reattach)
        self.refresh()

    # -- building ------------------------------------------------------------------------
    def _shadow_z(self) -> float:
        flatten = getattr(self.view.scene, "_flatten", None)
        return float(flatten[2, 3]) if flatten is not None else float(self.view.floor_z)

    def _build(self, objects) -> None:
        for item in self._items:
            if item in self.view.items:
                self.view.removeItem(item)
        self._items = []
        shadow = style.rgba(style.SHADOW)
        meshes = [object_mesh(o) for o in objects]
        # each object's box corners (8, 3) in its own frame: a fitted camera shows it whole
        self._corners = np.array([
            [[(lo, hi)[i >> k & 1][k] for k in range(3)] for i in range(8)]
            for lo, hi in ((np.min(m[0], 0), np.max(m[0], 0)) for m in meshes)],
            float).reshape(-1, 8, 3)
        for start in range(0, len(objects), _CHUNK):
            parts = [PartMesh(*m, (1.0, 1.0, 1.0, 1.0), shadow=True)
                     for m in meshes[start:start + _CHUNK]]
            item = RobotMeshItem(parts, floor_z=self._shadow_z(), shadow_color=shadow)
            item.setDepthValue(_DEPTH)
            self.view.addItem(item)
            self._items.append(item)
        self.picker = CellPicker(objects)

    def _reattach(self) -> None:
        """The view rebuilt its robot and removed every item: add ours again (the floor,
        and so the shadows' height, may have moved)."""
        for item in self._items:
            item.floor_z = self._shadow_z()
            if item not in self.view.items:
                self.view.addItem(item)
        self._placed = None
        self.update_poses()

    def refresh(self) -> None:
        """Follow the session's cell: rebuild when its geometry changed, else update."""
        cell = self.session.cell
        self._placed = self._tinted = None
        objects = cell.objects if cell is not None else ()
        key = tuple((o.name, geometry_key(o)) for o in objects)
        if key != self._key:
            self._build(objects)
            self._key = key
        self._objects = objects
        if self.selected is not None and self.selected not in (o.name for o in objects):
            self.selected = None
        self.shown = np.array([not o.hidden for o in objects], bool)
        self._apply_shown()
        self.view.scene.set_floor(cell_floor(cell))  # rebuilds (and so re-adds ours) if moved
        self.update_poses()

    # -- moving and colouring ----------------------------------------------------------------
    def world_to_view(self) -> np.ndarray:
        """(4, 4): world (cell) coordinates -> the view's (the robot's base frame)."""
        cell = self.session.cell
        return np.eye(4) if cell is None else np.linalg.inv(cell.base)

    def update_poses(self) -> None:
        """Place every object where the session shows it; red where in contact. Poses are
        computed again only when the cell changed or a trajectory may carry parts (a new
        q alone moves no object)."""
        if not self._objects:
            self.placements = np.zeros((0, 4, 4))
            self.view.update()
            return
        s = self.session
        carries = getattr(s.trajectory, "carried_poses", None) is not None
        if carries or self._placed is not s.cell or len(self.placements) != len(self._objects):
            poses = s.object_poses()
            W = self.world_to_view()
            M = np.stack([W @ poses.get(o.name, o.T) for o in self._objects])
            self.placements = M
            N = normal_matrices(M)
            for k, item in enumerate(self._items):
                sl = slice(k * _CHUNK, k * _CHUNK + item.part_count)
                item.set_matrices(M[sl], N[sl])
            self._placed = None if carries else s.cell
        contacts = contact_names(getattr(s, "collisions", None))
        if contacts != self.contacts or self._tinted is not s.cell:
            self.contacts = contacts
            self._apply_tints()
        self.view.update()

    def _apply_tints(self) -> None:
        tints = []
        for o in self._objects:
            rgba = np.array(style.rgba(CONTACT_COLOR if o.name in self.contacts else o.color))
            if o.name == self.selected:
                rgba[:3] = 0.6 * rgba[:3] + 0.4 * np.array(style.rgba(SELECTED_COLOR)[:3])
            tints.append(rgba)
        self.tints = np.array(tints, float).reshape(-1, 4)
        for k, item in enumerate(self._items):
            item.set_tints(self.tints[k * _CHUNK:k * _CHUNK + item.part_count])
        self._tinted = self.session.cell
        self.view.update()

    def _apply_shown(self) -> None:
        shadow = self.session.display.show_shadow
        for k, item in enumerate(self._items):
            item.set_shown(self.shown[k * _CHUNK:k * _CHUNK + item.part_count], shadow=shadow)
        self.view.update()

    def select(self, name: str | None) -> None:
        """Light ``name`` (None: no object) as the selected object."""
        if name != self.selected:
            self.selected = name
            self._apply_tints()

    # -- reading off the view ------------------------------------------------------------------
    @property
    def items(self) -> list[RobotMeshItem]:
        return list(self._items)

    def object_at(self, ray) -> tuple[str, float] | None:
        """(name, distance in m) of the shown object ``ray`` (view coordinates) meets first."""
        if self.picker is None or not self._objects:
            return None
        return self.picker.pick(ray, self.placements, self.shown)

    def view_pose(self, name: str) -> np.ndarray:
        """Where object ``name`` is drawn, (4, 4) in view coordinates."""
        names = [o.name for o in self._objects]
        return self.placements[names.index(name)].copy()

    def _fit_points(self) -> np.ndarray:
        if not len(self.placements) or not self.shown.any():
            return np.zeros((0, 3))
        corners = getattr(self, "_corners", None)
        if corners is None or len(corners) != len(self.placements):
            return self.placements[self.shown, :3, 3]
        M = self.placements[self.shown]
        return (np.einsum("kij,kcj->kci", M[:, :3, :3], corners[self.shown])
                + M[:, None, :3, 3]).reshape(-1, 3)
