"""Links you can grab in the 3D view: hover, click, drag, scroll, right-click.

Hovering a link lights it (its joint's cylinder and the sticks or meshes that joint
moves) and writes the joint's name, value and limits by the cursor. A click selects that
joint (here and in the joint panel; choosing a row in the joint panel selects its link
here); the selected link stays lit in its own colour, the hovered one over it. Dragging
on the selected link turns (or slides) its joint, measured about the joint's axis like a
handle ring (or along it like an arrow), and the wheel over it steps the joint; both stay
within the joint's limits and each drag or wheel run is one undo step. A right click
opens the link's menu (the window fills it: record a waypoint, make the pose the go-to
target, show the link's frame, copy the pose). Which link is under the mouse is geometry
(:mod:`robogui.session.geometry.picking`): sticks as cylinders and boxes, URDF meshes as triangles.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.explain import readout
from robogui.session.geometry.handle import HandleDrag, HandlePart
from robogui.session.geometry.picking import joint_axes, joint_of_part, pick, pixel_ray
from robogui.session.teach.jog import joint_label

from .. import style, undo
from ..bindings import Subscriptions

__all__ = ["LinkPicker", "HOVER_COLOR", "SELECTED_COLOR"]

HOVER_COLOR = "#ffe14d"
SELECTED_COLOR = "#ff3dff"  # the selected link (magenta: no joint or limit colour is)
_OWN = (0.0, 0.0, 0.0, 0.0)  # a transparent tint: the part's own colours
_CLICK_PX = 4.0  # a press and release closer than this is a click, not a drag
_WHEEL_STEP = {"R": math.radians(1.0), "P": 0.002}  # per wheel notch


class LinkPicker:
    """Mouse handler of ``view`` for grabbing links of ``session``'s robot.

    ``on_select(j)`` is told when a click selects joint ``j`` (0-based); ``menu(j, frame,
    menu)`` fills the right-click menu of the link on ``frame``.
    """

    def __init__(self, view, session, *, on_select=None, menu=None):
        self.view, self.session = view, session
        self.on_select, self.fill_menu = on_select, menu
        self.hover: tuple[int, int] | None = None  # (joint, frame) under the mouse
        self.hover_xy = (0.0, 0.0)
        self.selected: int | None = None
        self.enabled = True
        self._press: tuple | None = None  # (xy, joint, frame)
        self._drag: tuple | None = None  # (HandleDrag, joint, q_j at the start, sign)
        self._lit: list = []  # (part item, colour before lighting)
        self._cursor = None  # the cursor shape this picker set
        self._limits = None  # the limit state the lighting was done with
        # fn(ray) -> distance (m) along the ray to something another tool picks (a cell
        # object), or None: a link behind it is not picked, so the click reaches that tool
        self.occluders: list = []
        view.scene.add_mouse_handler(self)
        view.scene.add_overlay(self._paint)
        view.robotRebuilt.connect(self._forget)
        self._subs = Subscriptions(view)
        self._subs.connect(session.events.frames, self._on_frames)

    # -- geometry ------------------------------------------------------------------------------
    def _ray(self, event):
        sc = self.view.scene
        p = event.position()
        return pixel_ray(sc.mvp_matrix(), p.x(), p.y(), max(1, sc.width()), max(1, sc.height()))

    def link_at(self, event) -> tuple[int, int] | None:
        """(joint, frame) of the link under the mouse, or None (nothing, or the base).

        Links drawn as meshes (URDF) are picked against their drawn triangles, the others
        against their sticks; the nearest hit wins."""
        sc = self.view.scene
        if sc._frames is None:
            return None
        ray = self._ray(event)
        hits = []  # (t, part)
        meshes = sc.mesh_parts
        shown_meshes = [p.item.visible() for p in meshes]
        if sc.mesh_picker is not None and any(shown_meshes):
            # where each mesh is drawn (the body frames; a mimic finger where it moved)
            hit = sc.mesh_picker.pick(ray, sc._frames, shown_meshes,
                                      placements=sc.part_transforms(sc._frames, meshes))
            if hit is not None:
                hits.append((hit.t, meshes[hit.index]))
        parts = sc.moving_parts(("joint", "link"))
        shown = [p for p in parts if p.item.visible()]
        if not shown and not any(shown_meshes):
            shown = parts  # nothing drawn (all hidden): the sticks stand in for the links
        if shown:
            placements = sc.part_transforms(sc._frames, shown)
            shapes = ["box" if p.prismatic else "cylinder" for p in shown]
            hit = pick(ray, placements, shapes)
            if hit is not None:
                hits.append((hit.t, shown[hit.index]))
        if not hits:
            return None
        t, part = min(hits, key=lambda h: h[0])
        for nearer in self.occluders:
            d = nearer(ray)
            if d is not None and d < t:
                return None
        j = joint_of_part(part.kind, part.frame, part.joint, part.follow)
        return None if j is None else (j, part.frame)

    # -- lighting ------------------------------------------------------------------------------
    def _parts_of(self, j: int) -> list:
        """The drawn parts of joint ``j``'s link: its cylinder, the sticks or meshes it moves."""
        return [p for p in self.view.scene.moving_parts(("joint", "link", "mesh"))
                if joint_of_part(p.kind, p.frame, p.joint, p.follow) == j]

    def _light(self) -> None:
        """Colour the selected link (:data:`SELECTED_COLOR`) and over it the hovered one
        (:data:`HOVER_COLOR`); every other part gets its own colour back. The cylinder of a
        joint near or at a limit keeps its limit colour, lit or not."""
        for item, color in reversed(self._lit):  # reversed: a part lit twice ends as it was
            item.setColor(color)
        self._lit = []
        sc = self.view.scene
        self._limits = self.session.limit_state
        if self._limits is not None:
            sc._tint = None  # the limit colours come back over what lighting changed
            sc._set_tint(np.asarray(self._limits))
        hover = None if self.hover is None else self.hover[0]
        for j, color in ((self.selected, SELECTED_COLOR), (hover, HOVER_COLOR)):
            if j is None:
                continue
            rgba = style.rgba(color)
            # a joint near or at a limit keeps its amber/red cylinder: the selection shows
            # on its link around it, so both are seen
            tinted = self._limits is not None and int(self._limits[j]) >= 1
            for p in self._parts_of(j):
                if tinted and p.kind == "joint":
                    continue
                # a mesh keeps its vertex colours under a transparent tint
                self._lit.append((p.item, _OWN if p.kind == "mesh" else p.item.opts["color"]))
                p.item.setColor(rgba)
        self.view.update()

    def _on_frames(self, _frames) -> None:
        # a joint reaching or leaving a limit recolours its cylinder: light it again
        if self._lit and not np.array_equal(self.session.limit_state, self._limits):
            self._light()

    def _forget(self) -> None:
        self._lit, self.hover, self._drag, self._press = [], None, None, None
        self.selected = None

    # -- mouse ---------------------------------------------------------------------------------
    def press(self, event) -> bool:
        if not self.enabled:
            return False
        hit = self.link_at(event)
        p = event.position()
        if event.button() == QtCore.Qt.MouseButton.RightButton:
            if hit is None or self.fill_menu is None:
                return False
            self.context_menu(hit[0], hit[1], event.globalPosition().toPoint())
            return True
        if event.button() != QtCore.Qt.MouseButton.LeftButton or hit is None:
            return False
        self._press = ((p.x(), p.y()), *hit)
        if hit[0] != self.selected:
            return False  # not the selected link: the camera orbits unless this is a click
        self._start_drag(hit[0], event)
        return True

    def _start_drag(self, j: int, event) -> None:
        s = self.session
        points, dirs = joint_axes(s.robot, s.q)
        T0 = np.eye(4)
        T0[:3, 3] = points[j]
        axes = _basis(dirs[j])
        kind = "rotate" if s.robot.links[j].joint == "R" else "translate"
        part = HandlePart(kind, 2)
        drag = HandleDrag(part, T0, axes, self._ray(event))
        sign = -1.0 if getattr(s.robot.links[j], "flip", False) else 1.0
        self._drag = (drag, j, float(s.q[j]), sign)
        s.pause()

    def move(self, event) -> bool:
        if self._drag is not None:
            drag, j, start, sign = self._drag
            drag.goal(self._ray(event))
            lo, hi = self.session.robot.qlim[j]
            value = float(np.clip(start + sign * float(drag.amount), lo, hi))
            self.session.set_joint(j, value, changing=True)
            self.hover_xy = (event.position().x(), event.position().y())
            return True
        if event.buttons() != QtCore.Qt.MouseButton.NoButton or not self.enabled:
            return False
        hit = self.link_at(event)
        self.hover_xy = (event.position().x(), event.position().y())
        if hit != self.hover:
            self.hover = hit
            self._light()
        elif hit is not None:
            self.view.update()  # the label follows the cursor
        shape = (None if hit is None else QtCore.Qt.CursorShape.OpenHandCursor
                 if hit[0] == self.selected else QtCore.Qt.CursorShape.PointingHandCursor)
        if shape is not None:
            self.view.scene.setCursor(shape)  # each move: the handle may have changed it
        elif self._cursor is not None:
            self.view.scene.unsetCursor()
        self._cursor = shape
        return hit is not None

    def release(self, event) -> bool:
        press, self._press = self._press, None
        drag, self._drag = self._drag, None
        p = event.position()
        click = press is not None and math.hypot(p.x() - press[0][0],
                                                 p.y() - press[0][1]) < _CLICK_PX
        if drag is not None:
            j = drag[1]
            with undo.labelled(self.session, f"Drag {joint_label(self.session.robot, j)}"):
                self.session.finish_change()
        if click:
            self.select(press[1])
        return drag is not None or click

    def wheel(self, event) -> bool:
        if not self.enabled or self.selected is None:
            return False
        hit = self.link_at(event)
        if hit is None or hit[0] != self.selected:
            return False  # the wheel zooms unless it is over the selected link
        j = hit[0]
        s = self.session
        notches = event.angleDelta().y() / 120.0
        step = _WHEEL_STEP[s.robot.links[j].joint] * notches
        lo, hi = s.robot.qlim[j]
        with undo.labelled(s, f"Scroll {joint_label(s.robot, j)}", merge_key=("wheel", j)):
            s.set_joint(j, float(np.clip(s.q[j] + step, lo, hi)))
        return True

    def leave(self) -> None:
        self._cursor = None
        if self.hover is not None and self._drag is None:
            self.hover = None
            self._light()

    def select(self, j: int) -> None:
        """Make joint ``j`` the selected one (a click on its link); the joint panel is told."""
        self.show_selected(j)
        if self.on_select is not None:
            self.on_select(self.selected)

    def show_selected(self, j: int | None) -> None:
        """Light joint ``j``'s link as the selected one (None: no link), e.g. when its row
        is chosen in the joint panel."""
        self.selected = None if j is None else int(j)
        self._light()

    def context_menu(self, j: int, frame: int, global_pos: QtCore.QPoint) -> QtWidgets.QMenu:
        menu = QtWidgets.QMenu()
        menu.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.addSection(joint_label(self.session.robot, j))
        self.fill_menu(j, frame, menu)
        self.last_menu = menu
        menu.popup(global_pos)
        return menu

    # -- the label by the cursor -----------------------------------------------------------------
    def hover_text(self) -> str | None:
        """``joint 3 (elbow): -90.0 deg, limits -225.0 ... 45.0 deg`` for the hovered link."""
        if self.hover is None:
            return None
        j = self.hover[0]
        s = self.session
        d = s.display
        rev = s.robot.links[j].joint == "R"
        unit = d.angle_unit if rev else d.length_unit
        scale = readout.angle_scale(unit) if rev else readout.length_scale(unit)
        digits = readout.decimals(unit)
        lo, hi = s.robot.qlim[j] * scale
        value = readout.fmt(float(s.q[j]) * scale, digits)
        return (f"{joint_label(s.robot, j)}: {value} {unit}   limits "
                f"{readout.fmt(lo, digits)} \u2026 {readout.fmt(hi, digits)} {unit}")

    def _paint(self, painter: QtGui.QPainter) -> None:
        text = self.hover_text()
        if text is None:
            return
        font = QtGui.QFont(self.view.scene.font())
        font.setPointSizeF(10.0)
        painter.setFont(font)
        fm = painter.fontMetrics()
        x, y = self.hover_xy[0] + 16, self.hover_xy[1] + 18
        w = fm.horizontalAdvance(text) + 14
        x = min(x, self.view.scene.width() - w - 4)
        box = QtCore.QRectF(x, y, w, fm.height() + 8)
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(QtGui.QColor(20, 22, 26, 215))
        painter.drawRoundedRect(box, 4, 4)
        painter.setPen(QtGui.QColor(HOVER_COLOR))
        painter.drawText(box.adjusted(7, 4, -7, -4), int(QtCore.Qt.AlignmentFlag.AlignVCenter),
                         text)


def _basis(axis) -> np.ndarray:
    """Rows: two unit vectors normal to ``axis`` (3,) and the axis itself (right-handed)."""
    z = np.asarray(axis, float) / np.linalg.norm(axis)
    helper = np.array([1.0, 0, 0]) if abs(z[0]) < 0.9 else np.array([0, 1.0, 0])
    x = np.cross(helper, z)
    x /= np.linalg.norm(x)
    return np.stack([x, np.cross(z, x), z])
