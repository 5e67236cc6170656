"""The 3D robot view: the r6 ``plot`` look, lit and shaded, on pyqtgraph.opengl.

GL items are built once per robot (and display scale); a new joint vector only
sets transforms on them. Every part is a unit mesh placed by ``frames[k] @ local``,
so one batched matrix product per frame gives all transforms. The parts are
gathered into batched items (:mod:`.robot_mesh_item`, 64 parts each) that draw them
and their floor shadow (the same vertices flattened in the vertex shader) in two draw
calls. The scene is a ``QOpenGLWindow`` embedded in the :class:`RobotView` widget
(:mod:`.gl_host`): no per-frame compositing, and multisampling tuned for software
GL. Together these take a Puma 560 slider drag at 1280x800 on Mesa llvmpipe from
~21 to 60+ frames per second (``benchmarks/bench_app.py``). The parts and how they
are built (floor, pedestal, sticks, meshes, axes) are in :mod:`.view_parts`.

Interface: :meth:`RobotView.set_robot`, :meth:`RobotView.show_frames`,
:meth:`RobotView.set_camera`, :meth:`RobotView.fit_to_robot`,
:meth:`RobotView.set_projection`, :meth:`RobotView.grab_image`,
:meth:`RobotView.moving_parts` / :meth:`RobotView.part_transforms` (for ghost robots),
:meth:`RobotView.project`. Given a session, the view subscribes to it.
"""

from __future__ import annotations

import os

import numpy as np
import pyqtgraph.opengl as gl
from pyqtgraph.opengl import shaders
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.geometry.follow import follow_placements
from robogui.session.geometry.scene import floor_height, scene_scale
from robogui.session.session import DisplayOptions

from .. import style
from ..bindings import Subscriptions
from .gl_host import SceneContainer, SceneWindow, plane_covers_viewport
from .robot_mesh_item import SHADE_GLSL, RobotMeshItem, normal_matrices
from .view_camera import CAMERA_PRESETS, CameraMixin
from .view_input import InteractionMixin
from .view_labels import TextSprites
from .view_lod import LevelOfDetailMixin
from .view_parts import SceneBuilder, _FloorPlane, _Label, _Part

__all__ = ["RobotView", "RobotScene", "CAMERA_PRESETS", "scene_scale", "floor_height"]

# parts of the robot itself, on the body frames (the last without the tool); the tool
# axes ("wrist") and the frame triads ("frames") sit on fkine_all's frames
_BODY_KINDS = ("joint", "link", "mesh")

_VERTEX = """
uniform mat4 u_mvp;
uniform mat3 u_normal;
attribute vec4 a_position;
attribute vec3 a_normal;
attribute vec4 a_color;
varying vec4 v_color;
varying vec3 v_normal;
void main() {
    v_normal = normalize(u_normal * a_normal);
    v_color = a_color;
    gl_Position = u_mvp * a_position;
}
"""

# lighting in SHADE_GLSL (robot_mesh_item), shared with the robot's mesh items
_FRAGMENT = """
#ifdef GL_ES
precision mediump float;
#endif
varying vec4 v_color;
varying vec3 v_normal;
""" + SHADE_GLSL + """
void main() {
    gl_FragColor = vec4(shade(v_color.rgb, v_normal), v_color.a);
}
"""


def default_samples() -> int:
    """Multisampling for interactive views: ``ROBOGUI_MSAA`` (0 = off), default 4."""
    try:
        return max(0, int(os.environ.get("ROBOGUI_MSAA", "4")))
    except ValueError:
        return 4


_LIT: list = []  # the one lit shader program of every view


def _lit_shader() -> shaders.ShaderProgram:
    """The lit shader, one program for all views (compiled once in the app's shared GL
    group). One per view, as before, stayed compiled in that group, and in pyqtgraph's
    registry of named programs, after its view was gone: a few MB for every window."""
    if not _LIT:
        _LIT.append(shaders.ShaderProgram(
            "robogui-lit", [shaders.VertexShader(_VERTEX), shaders.FragmentShader(_FRAGMENT)]))
    return _LIT[0]


class RobotScene(InteractionMixin, CameraMixin, LevelOfDetailMixin, SceneBuilder, SceneWindow):
    """The GL scene of one robot in a ``QOpenGLWindow``; :class:`RobotView` is the widget.

    The parts (joints, link sticks, meshes, frame axes) are drawn by batched items, 64
    parts each, with their floor shadow, in two draw calls per item.

    ``robotRebuilt`` fires after the GL items were built again (new robot, tool or scale):
    every item added from outside (ghosts, trail) was removed and must be added again.
    """

    robotRebuilt = QtCore.Signal()
    meshWarning = QtCore.Signal(str)  # a mesh that could not be loaded (file and link)
    meshesFinished = QtCore.Signal()  # a draft's finished meshes are drawn in its place
    contact_frames: frozenset = frozenset()  # frames of the links in contact, drawn red

    def __init__(self, session=None, *, samples: int | None = None,
                 display: DisplayOptions | None = None, drafts: bool = False):
        # multisampling: antialiased edges (see gl_host for software GL)
        super().__init__(samples=default_samples() if samples is None else samples)
        self.setBackgroundColor(style.BACKGROUND)
        self.opts["fov"] = 40.0
        self._projection = "perspective"
        self._shader = _lit_shader()
        self._display = display or (session.display if session is not None else DisplayOptions())
        self._projection = self._display.projection  # the options' projection from the start
        self._robot = None
        self._tool_inverse, self._chain_models = np.eye(4), None  # per robot (set_robot)
        self._parts: list[_Part] = []
        self._mesh_picker, self.mesh_parts = None, []  # URDF meshes, for picking (link_pick)
        self._loaded_meshes = None
        #: a robot whose meshes are still being decimated is drawn from a draft first
        #: (the app's view; pictures and videos wait for the finished meshes)
        self.draft_meshes = bool(drafts)
        self._finishing = None  # the Future of the finished meshes of a draft drawn
        self._static: list[tuple[gl.GLGraphicsItem, str]] = []  # floor, grid, pedestal
        self._batches: list[tuple[RobotMeshItem, np.ndarray]] = []  # item, part indices
        self._plane: _FloorPlane | None = None
        self._labels: list[_Label] = []
        self._frames: np.ndarray | None = None
        self._tint = None
        self._session = None
        self._auto_fit = True  # refit on resize until the user moves the camera
        self._fit_providers: list = []  # extra points to keep in view (trail, ghosts)
        self.overlay_painters: list = []  # fn(painter, scene): 2D text over the scene
        self.label_rects: list = []  # QRectF of the name and wrist letters, last paint
        self._label_sprites = TextSprites()  # their pictures, made once
        self.label_scale = 1.0  # presentation mode: larger labels
        self.floor_grid = None  # (base x, base y, half width, line step, z) of the grid
        self._init_interaction()  # mouse handlers, overlays, pre-paint hooks (view_input)
        self._init_lod()  # light meshes while the view moves (view_lod)
        self.frames_shown: set[int] = set()  # link frames drawn even with link frames off
        self.floor_override: float | None = None  # a work cell's floor (view z), see set_floor
        if session is not None:
            self.attach(session)

    # -- session ----------------------------------------------------------------------
    def attach(self, session) -> None:
        """Follow ``session``: rebuild on robot/tool/scale changes, move on frames."""
        self._session = session
        self._display = session.display
        self._projection = session.display.projection
        subs = self._subs = Subscriptions(self)
        subs.connect(session.events.robot, lambda _r: self._rebuild(fit=True))
        subs.connect(session.events.tool, lambda _T: self._rebuild(fit=False))
        subs.connect(session.events.frames, lambda F: self.show_frames(F, session.limit_state))
        # the gripper opening moves the fingers (geometry beyond the gripper joints)
        subs.connect(session.gripper.events.opening,
                     lambda _v: self.show_frames(session.frames, session.limit_state))
        for name in DisplayOptions.field_names():
            subs.connect(session.display.events[name], lambda v, n=name: self._on_display(n, v))
        self.set_camera("iso")  # the documented start view, not pyqtgraph's default camera
        self._start_view = True  # fit_start_view until a preset or the user moves it
        self._rebuild(fit=True)

    def _rebuild(self, fit: bool) -> None:
        s = self._session
        self.set_robot(s.robot)
        self.draft_next_frame()  # the robot seen sooner; antialiased in the next frame
        self.show_frames(s.frames, s.limit_state)
        if fit and self._auto_fit and self._start_view:
            self.fit_start_view()  # a new robot: the start view until the camera is moved
        elif fit:
            self.fit_to_robot()

    def set_presentation_scale(self, k: float) -> None:
        """Presentation mode: labels, the tool axes and the floor grid lines ``k`` times
        larger (1 = normal); the robot's items are rebuilt at the current pose."""
        self.label_scale = float(k)
        if self._robot is not None:
            frames, tint = self._frames, self._tint  # set_robot clears them
            self.set_robot(self._robot)
            if frames is not None:
                self.show_frames(frames, tint)
        self.update()

    def _on_display(self, name: str, value) -> None:
        if name == "mag" and self._robot is not None:
            self.set_robot(self._robot)
            if self._frames is not None:
                self.show_frames(self._frames, self._tint)
        elif name == "projection":
            self.set_projection(value)
        elif name == "wrist_labels":
            self._set_wrist_labels(value)
        else:
            self._apply_visibility()
        self.update()

    # -- building -----------------------------------------------------------------------
    def clear_robot(self) -> None:
        for item in list(self.items):
            self.removeItem(item)
        self._parts, self._static, self._batches, self._labels = [], [], [], []
        self._plane = None
        self._robot, self._frames, self._tint = None, None, None
        self.contact_frames: frozenset[int] = frozenset()  # links in contact (red)
        self._mesh_frames, self._missing_frames = set(), set()
        self._mesh_picker, self.mesh_parts = None, []  # mesh_parts[i]: mesh i of the picker
        self._loaded_meshes = None  # the VisualSet drawn (its light copy: view_lod)
        self._finishing = None  # a draft's finished set on its way is not for the next robot
        if hasattr(self, "_lod_poll"):
            self._start_lod(None, None)  # a light copy on its way is not for the next robot

    def set_robot(self, robot) -> None:
        """Build the GL items for ``robot`` (replacing the previous robot's)."""
        self.clear_robot()
        self._robot = robot
        self._tool_inverse = np.linalg.inv(np.asarray(robot.tool, dtype=float))
        self._chain_models = None  # joint models with mimic joints, on first need
        s = scene_scale(robot, self._display.mag)
        self._scale = s
        self._floor_z = floor_height(robot) if self.floor_override is None else \
            self.floor_override
        base = robot.base
        self._build_floor(robot, s)
        self._build_pedestal(base, s)
        self._build_links(robot, s)
        self._build_meshes(robot)
        self._build_wrist(robot, s)
        self._build_batches()
        self._start_lod(robot, self._loaded_meshes)
        # the name sits on the floor below the base origin; labels ride on frame 0, which
        # may be rotated (the two-link arm's base is turned 90 deg about x)
        foot = np.linalg.solve(base, [base[0, 3], base[1, 3], self._floor_z, 1.0])[:3]
        self._labels.append(_Label(0, foot, robot.name, style.LABEL, "name", dy=28.0))
        self._apply_visibility()
        self.update()
        self.robotRebuilt.emit()

    def set_floor(self, z: float | None) -> None:
        """Draw the floor at ``z`` (m, view coordinates): a work cell's floor; None: the
        floor computed from the robot. The robot's items are rebuilt when it moves."""
        if z == self.floor_override:
            return
        self.floor_override = None if z is None else float(z)
        if self._robot is None:
            return
        new = floor_height(self._robot) if z is None else float(z)
        if abs(new - self._floor_z) < 1e-12:
            return
        frames, tint = self._frames, self._tint  # set_robot clears them
        self.set_robot(self._robot)
        if frames is not None:
            self.show_frames(frames, tint)

    def _set_wrist_labels(self, kind: str) -> None:
        names = "XYZ" if kind == "xyz" else "NOA"
        for lab in self._labels:
            if lab.kind == "wrist":
                lab.text = names[int(np.argmax(np.abs(lab.point)))]
        self.update()

    def show_frame(self, k: int, on: bool = True) -> None:
        """Draw the axes of frame ``k`` (0 = base) even while link frames are off."""
        (self.frames_shown.add if on else self.frames_shown.discard)(int(k))
        self._apply_visibility()
        self.update()

    def _apply_visibility(self) -> None:
        d = self._display
        meshes_on = d.show_meshes and bool(getattr(self, "_mesh_frames", None))
        show = {"joint": d.show_joints, "link": d.show_links, "wrist": d.show_wrist,
                "frames": d.show_link_frames, "floor": d.show_floor, "base": d.show_base,
                "mesh": meshes_on}
        extra = self.frames_shown  # single link frames asked for (a link's menu)

        def shown(p) -> bool:
            if meshes_on and p.kind in ("joint", "link"):
                # with meshes, sticks only where a mesh is missing (link drawn as a stick)
                return show[p.kind] and p.frame in self._missing_frames
            return show[p.kind] or (p.kind == "frames" and p.frame in extra)

        for item, sel in self._batches:
            item.set_shown([shown(self._parts[k]) for k in sel], shadow=d.show_shadow)
        for item, kind in self._static:
            item.setVisible(show[kind])

    # -- moving ------------------------------------------------------------------------------
    @staticmethod
    def _qmatrix(M: np.ndarray) -> QtGui.QMatrix4x4:
        return QtGui.QMatrix4x4(*np.asarray(M, float).ravel().tolist())

    def show_frames(self, frames: np.ndarray, limit_state: np.ndarray | None = None) -> None:
        """Move the robot: ``frames`` (n+1, 4, 4) from ``fkine_all``; only transforms change.

        ``limit_state`` (n,) 0/1/2 tints joints near (amber) or at (red) a limit.
        """
        if self._robot is None:
            return
        F = np.asarray(frames, dtype=float)
        nb = self._robot.n_bodies  # one frame per body: with mimic joints more than n
        if F.shape != (nb + 1, 4, 4):
            raise ValueError(f"frames must have shape ({nb + 1}, 4, 4), got {F.shape}")
        self._frames = F
        M = self.part_transforms(F, self._parts)
        N = normal_matrices(M)  # for all parts at once
        for item, sel in self._batches:
            item.set_matrices(M[sel], N[sel])
        if limit_state is not None:
            self._set_tint(np.asarray(limit_state))
        self.update()

    def moving_parts(self, kinds=("joint", "link")) -> list[_Part]:
        """The robot's moving parts of the given kinds (joint, link, wrist, frames), as
        built for the current robot; ghosts reuse their meshes."""
        return [p for p in self._parts if p.kind in kinds]

    def body_frames(self, frames: np.ndarray) -> np.ndarray:
        """``frames`` (n+1, 4, 4) from ``fkine_all`` with the tool taken off the last: the
        frames the robot's own geometry hangs on (the tool is a point, not a part of the
        last link, whose mesh and stick stay on the flange)."""
        F = np.asarray(frames, dtype=float)
        if self._robot is None or self._robot.tool_is_identity:
            return F
        Fb = F.copy()
        Fb[-1] = F[-1] @ self._tool_inverse
        return Fb

    def part_transforms(self, frames: np.ndarray, parts) -> np.ndarray:
        """Placements (k, 4, 4) of ``parts`` for the frames (n+1, 4, 4) of any configuration.
        The robot's geometry (joints, links, meshes) hangs on the body frames; the tool
        axes and the frame triads on ``frames`` as given (the last at the tool point)."""
        F = np.asarray(frames, dtype=float)
        if not parts:
            return np.zeros((0, 4, 4))
        Fb = self.body_frames(F)
        idx = np.fromiter((p.frame for p in parts), int, len(parts))
        local = np.stack([p.local for p in parts])
        for k, p in enumerate(parts):
            if p.prismatic:
                # general joints: the body (frame) index, which differs from the joint's
                # with mimic joints
                j = p.frame if self._robot.is_general else p.joint
                local[k] = self._prismatic_local(Fb, j, self._robot.is_mdh)
        moved = [k for k, p in enumerate(parts) if p.follow]
        if moved:  # beyond off-chain joints: where their leaders (the gripper) put it
            if self._chain_models is None:  # once per robot (full builds a Robot)
                self._chain_models = self._robot.full.joint_models
            grip = (self._session.gripper.values()
                    if self._session is not None and self._robot.gripper else None)
            local[moved] = follow_placements(self._chain_models, Fb,
                                             [parts[k].follow for k in moved],
                                             grip) @ local[moved]
        if Fb is F:
            return F[idx] @ local  # every part's placement in one batched product
        on_body = np.fromiter((p.kind in _BODY_KINDS for p in parts), bool, len(parts))
        return np.where(on_body[:, None, None], Fb[idx], F[idx]) @ local

    qmatrix = _qmatrix  # public name: numpy (4, 4) -> QMatrix4x4

    @property
    def lit_shader(self):
        """The view's lit shader program (ghost meshes are shaded like the robot)."""
        return self._shader

    def _set_tint(self, state: np.ndarray) -> None:
        if self._tint is not None and np.array_equal(state, self._tint):
            return
        self._tint = state.copy()
        for part in self._parts:
            if part.kind == "joint" and part.frame not in self.contact_frames:
                st = int(state[part.joint])
                c = (style.joint_color(part.joint), style.NEAR_LIMIT_COLOR,
                     style.AT_LIMIT_COLOR)[min(st, 2)]
                part.item.setColor(style.rgba(c))

    def set_contact_frames(self, frames, rgba=None) -> None:
        """Links in contact (issue 24): the robot's parts on these ``fkine_all`` frames
        (joints, sticks, meshes) drawn in ``rgba`` (default the at-limit red); the others get
        their own colours back (joints their limit tint)."""
        frames = frozenset(int(f) for f in frames)
        if frames == self.contact_frames and rgba is None:
            return
        self.contact_frames = frames
        red = style.rgba(style.AT_LIMIT_COLOR) if rgba is None else tuple(rgba)
        state = self._tint
        for part in self._parts:
            if part.kind not in _BODY_KINDS or part.item.batch is None:
                continue
            if part.frame in frames:
                part.item.batch.set_part_tint(part.item.index, red)
            elif part.kind == "joint":
                st = 0 if state is None else int(state[part.joint])
                part.item.setColor(style.rgba((style.joint_color(part.joint),
                                               style.NEAR_LIMIT_COLOR,
                                               style.AT_LIMIT_COLOR)[min(st, 2)]))
            else:  # alpha 0: the part's own colours
                part.item.batch.set_part_tint(part.item.index, (0.0, 0.0, 0.0, 0.0))
        self.update()

    def joint_tint(self, j: int) -> tuple[float, float, float, float]:
        """Current colour of joint ``j``'s part (for tests and the legend)."""
        for part in self._parts:
            if part.kind == "joint" and part.joint == j:
                return tuple(part.item.opts["color"])
        raise KeyError(f"no joint {j}")


    # -- drawing and grabbing -----------------------------------------------------------------
    def paint(self, *, region, viewport, useItemNames=False) -> None:
        # a floor filling the view is drawn by clearing to its colour (a full-screen
        # fill is the most expensive draw on a software rasteriser)
        cover = False
        if self._plane is not None and self._display.show_floor:
            mvp = self.projectionMatrix(region, viewport) * self.viewMatrix()
            (xlim, ylim, z) = self._plane_rect
            cover = plane_covers_viewport(np.array(mvp.data(), float).reshape(4, 4).T,
                                          z, xlim, ylim)
            self._plane.skip = cover
        for fn in self._pre_paint:
            fn()
        self._apply_lod()
        floor = self._plane.opts["color"] if cover else None
        self.opts["bgcolor"] = (*tuple(floor)[:3], 1.0) if floor is not None else \
            self._background
        # a see-through floor: the robot's parts beyond it take its colour (view_parts)
        plane = self._plane
        look = ((plane.see_through, self._floor_z) if plane is not None and plane.faint
                and plane.visible() else None)
        for item, _ in self._batches:
            item.faint_floor = look
        super().paint(region=region, viewport=viewport, useItemNames=useItemNames)

    def _visible_labels(self) -> list:
        if self._frames is None or not self._labels:
            return []
        d = self._display
        show = {"name": d.show_name, "wrist": d.show_wrist}
        return [lab for lab in self._labels if show.get(lab.kind, True)]

    def label_points(self, labels=None) -> np.ndarray:
        """World positions (k, 3) of ``labels`` (default: the visible ones)."""
        labels = self._visible_labels() if labels is None else labels
        pts = [self._frames[lab.frame] @ np.append(lab.point, 1.0) for lab in labels]
        return np.array(pts, float).reshape(-1, 4)[:, :3]

    def has_overlay(self) -> bool:
        return (bool(self._visible_labels()) or bool(self.overlay_painters)
                or bool(self._overlays))

    def paint_overlay(self, painter: QtGui.QPainter) -> None:
        """Each of ``overlay_painters`` (``fn(painter, scene)``, e.g. D-H frame labels),
        the robot's name and the wrist axis letters at their projected points, then the
        overlays added with :meth:`add_overlay` (handle, links, grid labels)."""
        self.label_rects = []  # where the name and wrist letters went (grid labels avoid them)
        for fn in self.overlay_painters:
            fn(painter, self)
        labels = self._visible_labels()
        if labels:
            self._paint_labels(painter, labels)
        for paint in self._overlays:
            paint(painter)

    def _paint_labels(self, painter: QtGui.QPainter, labels) -> None:
        xy = self.project(self.label_points(labels))
        painter.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
        font = self.font()
        k = self.overlay_scale  # > 1 in pictures larger than the screen (render_image)
        for lab, (x, y) in zip(labels, xy, strict=True):
            font.setPointSizeF(k * self.label_scale * (11.5 if lab.kind == "name" else 10.5))
            font.setBold(True)
            painter.setFont(font)
            fm = painter.fontMetrics()
            w = fm.horizontalAdvance(lab.text)
            x0, y0 = x - w / 2, y + fm.ascent() / 2 - fm.descent() / 2 + k * lab.dy
            # with a soft outline for contrast; from a picture made once (TextSprites)
            painter.drawPixmap(QtCore.QPointF(x0, y0 - fm.ascent()), self._label_sprites.get(
                lab.text, lab.color, font, painter, outline=k, outline_alpha=160))
            self.label_rects.append(QtCore.QRectF(x0, y0 - fm.ascent(), w, fm.height()))

    def grab_image(self) -> QtGui.QImage:
        """The view rendered now (multisampled, labels included) as a QImage."""
        return self.render_image()

    def grab_array(self) -> np.ndarray:
        """The rendered view as an (h, w, 3) uint8 RGB array."""
        img = self.grab_image().convertToFormat(QtGui.QImage.Format.Format_RGB888)
        w, h, bpl = img.width(), img.height(), img.bytesPerLine()
        buf = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
        return buf[:, : 3 * w].reshape(h, w, 3).copy()

    @property
    def floor_z(self) -> float:
        return self._floor_z

    @property
    def mesh_picker(self):
        """Rays against the drawn meshes' triangles (:class:`~robogui.session.geometry.
        picking.MeshPicker`, for link_pick), None without meshes. Built at its first use,
        not while the robot opens: its triangle edges are 0.05-0.07 s of a Panda's first
        open, and a reopened robot gets the one kept with its meshes (visual_cache)."""
        if self._mesh_picker is None and self._loaded_meshes is not None \
                and self._loaded_meshes.meshes:
            from robogui.session.geometry.visual_cache import mesh_picker

            self._mesh_picker = mesh_picker(self._loaded_meshes)
        return self._mesh_picker

    @property
    def part_count(self) -> int:
        """Number of moving parts (each drawn with its shadow by its batched item)."""
        return len(self._parts)

    def setBackgroundColor(self, *args, **kwds) -> None:  # noqa: N802
        super().setBackgroundColor(*args, **kwds)
        self._background = self.opts["bgcolor"]


class RobotView(SceneContainer):
    """The 3D view of one robot as a widget. ``RobotView(session)`` follows the session.

    The scene (:class:`RobotScene`, a ``QOpenGLWindow``) is embedded with a window
    container, which skips Qt's per-frame compositing of a ``QOpenGLWidget``. Its
    interface (``show_frames``, ``set_camera``, ``fit_to_robot``, ``set_projection``,
    ``project``, ``grab_image``, ``items``, ``opts``, ``robotRebuilt``, ``frameSwapped``,
    ...) is available on the view itself.
    """

    def __init__(self, session=None, parent: QtWidgets.QWidget | None = None, *,
                 samples: int | None = None, display: DisplayOptions | None = None):
        super().__init__(RobotScene(session, samples=samples, display=display, drafts=True),
                         parent)
        self.setMinimumSize(320, 240)
