"""The tool handle in the 3D view: arrows and rings at the TCP (or a go-to target).

Three translation arrows and three rotation rings along the world or tool axes (the
jog panel's frame setting), a constant size on screen. Dragging an arrow moves the
pose along its axis, a ring rotates it about its axis, Shift-drag moves it freely in
the plane facing the camera. The geometry (what a ray grabs, what a drag asks for) is
:mod:`robogui.session.geometry.handle`; this module only draws and routes the mouse.

For the TCP, every mouse move runs one IK step with the jog's damped least squares
(:func:`~robogui.session.geometry.handle.follow_drag`): limits respected, the branch kept, no
jumps, and the TCP kept on the arrow's axis (the ring's point, the free move's plane);
where the motion stops short the reason (joint limit, singularity, edge of reach) is
written next to the handle, inside the view, until the pose changes otherwise. A drag
is one change of the session (``changing`` while it lasts,
finished on release): one undo step (robogui/app/undo.py), named after the part dragged.

The GL items are built once and moved with ``setTransform``; the view's rebuild on a
new robot removes them, and they are added again.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from pyqtgraph import Transform3D
from PySide6 import QtCore, QtGui

from robogui.session.geometry.handle import (
    ARROW_START,
    RING_RADIUS,
    HandleDrag,
    HandlePart,
    follow_drag,
    follow_pose,
    handle_axes,
    hit_handle,
)
from robogui.session.geometry.picking import pixel_ray
from robogui.session.teach.jog import stop_before_contact

from .. import style, undo
from ..view import meshes

__all__ = ["HandleItems", "HandleController", "TcpTarget", "HANDLE_PIXELS"]

#: the arrows' length on screen, in pixels
HANDLE_PIXELS = 110.0
HIGHLIGHT = "#ffe14d"
_ON_TOP = {GL.GL_DEPTH_TEST: False, GL.GL_BLEND: True, GL.GL_CULL_FACE: False,
           "glBlendFunc": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)}
# unit z -> axis i (arrows point along, rings lie normal to the axis)
_TO_AXIS = (np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]], float),
            np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], float),
            np.eye(3))


def _arrow_mesh() -> gl.MeshData:
    """Shaft and cone along z from ARROW_START to 1 (handle units)."""
    cyl, cone = meshes.cylinder(16), meshes.cone(20)
    shaft = meshes.translate_matrix(0, 0, ARROW_START) @ meshes.scale_matrix(
        0.022, 0.022, 0.80 - ARROW_START)
    head = meshes.translate_matrix(0, 0, 0.78) @ meshes.scale_matrix(0.075, 0.075, 0.22)
    parts = [(cyl, shaft), (cone, head)]
    verts, faces, off = [], [], 0
    for (v, f), M in parts:
        verts.append(v @ M[:3, :3].T + M[:3, 3])
        faces.append(f + off)
        off += len(v)
    return gl.MeshData(vertexes=np.vstack(verts).astype(np.float32), faces=np.vstack(faces))


class HandleItems:
    """The handle's six GL items in ``view``, built once; :meth:`place` moves them."""

    def __init__(self, view, alpha: float = 1.0, depth: float = 100):
        self.view, self.alpha, self.depth = view, alpha, depth
        mesh = _arrow_mesh()
        a = np.linspace(0, 2 * math.pi, 73)
        circle = np.stack([RING_RADIUS * np.cos(a), RING_RADIUS * np.sin(a), 0 * a], 1)
        self.arrows = [gl.GLMeshItem(meshdata=mesh, smooth=False, glOptions=_ON_TOP)
                       for _ in range(3)]
        self.rings = [gl.GLLinePlotItem(pos=circle, width=3.0, mode="line_strip",
                                        antialias=True, glOptions=_ON_TOP) for _ in range(3)]
        self._last: np.ndarray | None = None
        self.visible = False
        self.highlight(None)
        self.attach()

    @property
    def items(self) -> list:
        return [*self.arrows, *self.rings]

    def attach(self) -> None:
        """Add the items to the view (again after it rebuilt its robot)."""
        for item in self.items:
            item.setDepthValue(self.depth)
            item.setVisible(self.visible)
            if item not in self.view.items:
                self.view.addItem(item)
        self._last = None

    def highlight(self, part: HandlePart | None) -> None:
        """Draw ``part`` in the highlight colour, the others in their axis colours."""
        for i in range(3):
            for kind, item in (("translate", self.arrows[i]), ("rotate", self.rings[i])):
                on = part is not None and (part.kind == "free" or part == HandlePart(kind, i))
                rgba = style.rgba(HIGHLIGHT if on else style.AXIS_COLORS[i], self.alpha)
                if kind == "translate":
                    item.setColor(rgba)
                else:
                    item.setData(color=rgba)

    def set_visible(self, on: bool) -> None:
        if on != self.visible:
            self.visible = on
            for item in self.items:
                item.setVisible(on)

    def place(self, origin, axes, size: float) -> None:
        """Put the handle at ``origin`` (3,) with ``axes`` (3, 3) rows, ``size`` metres long."""
        M = np.eye(4)
        M[:3, :3] = np.asarray(axes, float).T * size
        M[:3, 3] = origin
        if self._last is not None and np.allclose(M, self._last, rtol=0, atol=1e-12):
            return  # unchanged: setTransform would schedule another frame
        self._last = M
        for i in range(3):
            L = np.eye(4)
            L[:3, :3] = _TO_AXIS[i]
            Q = Transform3D(self.view.qmatrix(M @ L))
            for item in (self.arrows[i], self.rings[i]):
                # placed just before the frame is drawn: setTransform would also ask for
                # another frame (one wasted frame per frame while dragging)
                item._GLGraphicsItem__transform = Q


class TcpTarget:
    """What the handle drives by default: the session's TCP, through the jog's IK."""

    def __init__(self, session):
        self.session = session

    def pose(self) -> np.ndarray | None:
        return self.session.T

    def begin(self) -> None:
        self.session.pause()  # a playing trajectory would take the robot straight back

    def drag_to(self, T_goal: np.ndarray, drag: HandleDrag | None = None) -> str | None:
        """One IK step towards ``T_goal``, kept to ``drag``'s axis or plane; the reason when
        the motion falls short."""
        s = self.session
        units = {"angle_unit": s.display.angle_unit, "length_unit": s.display.length_unit}
        res = (follow_pose(s.robot, s.q, T_goal, **units) if drag is None
               else follow_drag(s.robot, s.q, drag, T_goal, **units))
        guarded = stop_before_contact(s, res)  # the guard of issue 24 (a toggle)
        stopped, res = guarded is not res, guarded
        if res.moved:
            s.set_q(res.q_new, changing=True)
        self.last_result = res
        if stopped:
            return res.message
        if res.message is None or res.fraction >= 0.99:
            return None
        # the jog's "moved N % of the step" means little for a mouse move: the reason stays
        return re.sub(r"; moved \d+ % of the step$", "", res.message)

    def end(self, text: str) -> None:
        """The drag is over: one complete change, one undo step called ``text``."""
        with undo.labelled(self.session, text):
            self.session.finish_change()


class HandleController:
    """Mouse handler of ``view`` for one handle driving ``target`` (see :class:`TcpTarget`).

    ``frame()`` gives "world" or "tool" (the jog frame setting).
    """

    def __init__(self, view, session, target=None, *, frame=lambda: "world",
                 alpha: float = 1.0, depth: float = 100, label: str = ""):
        self.view, self.session = view, session
        self.target = target if target is not None else TcpTarget(session)
        self.frame = frame
        self.label = label
        self.items = HandleItems(view, alpha, depth)
        self.drag: HandleDrag | None = None
        self.hover: HandlePart | None = None
        self.reason: str | None = None
        self._reason_pose: np.ndarray | None = None  # the pose the reason was said for
        self.enabled = True
        view.robotRebuilt.connect(self.items.attach)
        view.scene.add_mouse_handler(self)
        view.scene.add_pre_paint(self.refresh)
        view.scene.add_overlay(self._paint_reason)
        view.scene.add_fit_points(self._fit_points)  # a fitted camera shows the handle whole

    def _fit_points(self) -> np.ndarray:
        """The ends of the handle's arrows (6, 3) at the current camera (none when off)."""
        g = self.geometry() if self.enabled else None
        if g is None:
            return np.zeros((0, 3))
        origin, axes, size = g
        return origin + size * np.vstack([axes, -axes])

    # -- geometry --------------------------------------------------------------------------
    def pixel_size(self, point) -> float:
        """World length of one pixel at ``point`` (3,) in the view."""
        sc = self.view.scene
        t = 2.0 * math.tan(math.radians(sc.opts["fov"]) / 2) / max(1, sc.width())
        if sc._projection == "perspective":
            return float(np.linalg.norm(np.asarray(point) - sc.camera_position())) * t
        return float(sc.opts["distance"]) * t

    def geometry(self):
        """(origin (3,), axes (3, 3), size in metres), or None when there is no pose."""
        T = self.target.pose()
        if T is None:
            return None
        if self.drag is not None:
            origin, axes = T[:3, 3], self.drag.axes  # the axes stay put while dragging
        else:
            origin, axes = handle_axes(T, self.frame())
        return origin, axes, HANDLE_PIXELS * self.pixel_size(origin)

    def refresh(self) -> None:
        """Place the handle for this frame (before the scene paints)."""
        self._forget_stale_reason()
        g = self.geometry() if self.enabled else None
        self.items.set_visible(g is not None)
        if g is not None:
            self.items.place(*g)

    def ray(self, event):
        p = event.position()
        sc = self.view.scene
        return pixel_ray(sc.mvp_matrix(), p.x(), p.y(), max(1, sc.width()), max(1, sc.height()))

    def part_at(self, event) -> HandlePart | None:
        g = self.geometry() if self.enabled else None
        if g is None:
            return None
        part = hit_handle(self.ray(event), *g)
        if part is not None and event.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier:
            return HandlePart("free")
        return part

    # -- mouse -------------------------------------------------------------------------------
    def press(self, event) -> bool:
        if event.button() != QtCore.Qt.MouseButton.LeftButton:
            return False
        part = self.part_at(event)
        if part is None:
            return False
        origin, axes, _size = self.geometry()
        sc = self.view.scene
        view_dir = np.asarray(origin) - sc.camera_position()
        self.drag = HandleDrag(part, self.target.pose(), axes, self.ray(event),
                               view_dir=view_dir / np.linalg.norm(view_dir))
        self.reason = None
        sc._auto_fit = False  # the camera stays put under the mouse (ghosts would refit it)
        self.target.begin()
        self.items.highlight(part)
        self.view.update()
        return True

    def move(self, event) -> bool:
        if self.drag is not None:
            goal = self.drag.goal(self.ray(event))
            if isinstance(self.target, TcpTarget):
                self.reason = self.target.drag_to(goal, self.drag)
            else:  # a target without IK (a go-to target) goes where it is put
                self.reason = self.target.drag_to(goal)
            pose = self.target.pose()
            self._reason_pose = None if pose is None else np.array(pose, dtype=float)
            self.view.update()
            return True
        if event.buttons() != QtCore.Qt.MouseButton.NoButton:
            return False
        part = self.part_at(event)
        if part != self.hover:
            self.hover = part
            self.items.highlight(part)
            if part is None:
                self.view.scene.unsetCursor()
            else:
                self.view.scene.setCursor(QtCore.Qt.CursorShape.SizeAllCursor)
            self.view.update()
        return part is not None

    def release(self, event) -> bool:
        if self.drag is None:
            return False
        name = self.drag.part.name
        self.drag = None
        self.target.end(f"Tool handle: {name}")
        self.items.highlight(self.hover)
        self.view.update()
        return True

    def wheel(self, event) -> bool:
        return False

    def leave(self) -> None:
        if self.hover is not None and self.drag is None:
            self.hover = None
            self.items.highlight(None)
            self.view.update()

    # -- the reason, next to the handle ---------------------------------------------------------
    def _forget_stale_reason(self) -> None:
        """The reason belongs to the pose it was said for: once the pose is moved otherwise
        (a jog, a typed value, undo, another robot) it no longer applies."""
        if self.reason is None or self.drag is not None:
            return
        pose = self.target.pose()
        was = self._reason_pose
        if pose is None or was is None or was.shape != np.shape(pose) \
                or not np.allclose(pose, was, rtol=0.0, atol=1e-9):
            self.reason = None
            self._reason_pose = None

    def reason_box(self, painter: QtGui.QPainter | None = None) -> QtCore.QRectF | None:
        """Where the reason is drawn (view pixels): beside the handle, moved in so that the
        whole box stays inside the view; None when there is nothing to say."""
        self._forget_stale_reason()
        if not self.reason or not self.items.visible:
            return None
        g = self.geometry()
        if g is None:
            return None
        x, y = self.view.scene.project(g[0][None])[0]
        x, y = x + 0.35 * HANDLE_PIXELS, y + 0.35 * HANDLE_PIXELS
        metrics = QtGui.QFontMetrics(self._reason_font())
        rect = metrics.boundingRect(
            QtCore.QRect(0, 0, 320, 400), int(QtCore.Qt.TextFlag.TextWordWrap), self.reason)
        w, h = rect.width() + 16, rect.height() + 10
        sc = self.view.scene
        width, height = max(1, sc.width()), max(1, sc.height())
        if x + w > width - 4:  # no room on the right: the left of the handle
            x = x - 0.7 * HANDLE_PIXELS - w
        if y + h > height - 4:
            y = y - 0.7 * HANDLE_PIXELS - h
        x = float(np.clip(x, 4, max(4, width - 4 - w)))
        y = float(np.clip(y, 4, max(4, height - 4 - h)))
        return QtCore.QRectF(x, y, w, h)

    def _reason_font(self) -> QtGui.QFont:
        font = QtGui.QFont(self.view.scene.font())
        font.setPointSizeF(10.0)
        font.setBold(True)
        return font

    def _paint_reason(self, painter: QtGui.QPainter) -> None:
        box = self.reason_box()
        if box is None:
            return
        painter.setFont(self._reason_font())
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(QtGui.QColor(20, 22, 26, 210))
        painter.drawRoundedRect(box, 5, 5)
        painter.setPen(QtGui.QColor(style.NEAR_LIMIT_COLOR))
        painter.drawText(box.adjusted(8, 5, -8, -5), int(QtCore.Qt.TextFlag.TextWordWrap),
                         self.reason)
