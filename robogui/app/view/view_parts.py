"""Building the 3D view's robot: its parts, floor, pedestal, sticks, meshes and axes.

:class:`SceneBuilder` is a mixin of :class:`~robogui.app.view.view3d.RobotScene`: each part
is a unit mesh placed by ``frames[k] @ local`` (:class:`_Part`), gathered into batched
items (:class:`~robogui.app.view.robot_mesh_item.RobotMeshItem`, up to ``BATCH_PARTS``
parts each) that draw the parts and their floor shadow. Built once per robot (and display
scale); moving the robot only sets transforms (``RobotScene.show_frames``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from PySide6 import QtGui

from robogui.session.geometry.scene import reaches_below_floor

from .. import style
from . import meshes
from .robot_mesh_item import PartMesh, RobotMeshItem

__all__ = ["SceneBuilder"]


class _PartItem:
    """One part of the robot inside its batched item (:class:`RobotMeshItem`).

    Offers what a ``GLMeshItem`` per part did (``opts["meshdata"]``, ``opts["color"]``,
    ``transform()``, ``setColor``, ``visible()``) without a draw call of its own.
    """

    def __init__(self, meshdata: gl.MeshData, color, colors=None, looks=None):
        self.opts = {"meshdata": meshdata, "color": tuple(color)}
        self.colors = colors  # per-vertex colours, or None
        # per-vertex normals, ambient and specular terms of a mesh file, or None
        self.looks = looks or {}
        self.batch: RobotMeshItem | None = None
        self.index = -1

    def transform(self) -> QtGui.QMatrix4x4:
        M = self.batch.matrices[self.index] if self.batch is not None else np.eye(4)
        return QtGui.QMatrix4x4(*np.asarray(M, float).ravel().tolist())

    def setColor(self, color) -> None:  # noqa: N802
        self.opts["color"] = tuple(color)
        if self.batch is not None:
            self.batch.set_part_tint(self.index, color)

    def visible(self) -> bool:
        return self.batch is not None and self.batch.part_shown(self.index)


#: opacity of the floor of a robot that reaches below it
FAINT_FLOOR_ALPHA = 0.6


class _FloorPlane(gl.GLMeshItem):
    """The floor plane; skipped (the view clears to its colour) when it fills the view.

    A see-through floor (``faint``: the robot's reach below it shows through) is drawn
    opaque like any floor, first, but without writing depth: the robot is then drawn
    whole over it, and the robot's shader lays the floor's colour, at
    ``FAINT_FLOOR_ALPHA``, over the parts on its far side (``RobotMeshItem.faint_floor``),
    as blending the floor over them would. Blending the floor over the whole view after
    the robot cost a software rasteriser about a fifth of a 1600x1000 redraw; an opaque
    floor that fills the view is not drawn at all. Other items beyond the floor (a trail,
    ghosts, the handle) are drawn over it as they are, which keeps them in sight.
    """

    skip = False
    faint = False
    see_through = (0.0, 0.0, 0.0, 0.0)  # a faint floor's own colour and opacity

    def paint(self) -> None:
        if self.skip:
            return
        if not self.faint:
            super().paint()
            return
        GL.glDepthMask(GL.GL_FALSE)
        try:
            super().paint()
        finally:
            GL.glDepthMask(GL.GL_TRUE)


@dataclass
class _Part:
    item: _PartItem
    frame: int  # index into frames
    local: np.ndarray  # (4, 4) placement in that frame
    kind: str  # display group: joint, link, wrist, frames, tool
    joint: int = -1  # 0-based joint index for joint parts
    prismatic: bool = False
    follow: tuple = ()  # Visual.follow: moved by an off-chain mimic joint


@dataclass
class _Label:
    frame: int
    point: np.ndarray  # in that frame
    text: str
    color: str
    kind: str
    dy: float = 0.0  # pixel offset


# parts per batched item: its shader holds a matrix per part in uniform arrays (64 parts
# are ~2,200 uniform components, within the 4,096 of common desktop GL drivers)
BATCH_PARTS = 64


class SceneBuilder:
    """The robot's GL items, built by ``RobotScene.set_robot`` (a mixin: it fills the
    scene's ``_parts``, ``_static``, ``_batches``, ``_labels``, ``_plane``)."""

    def _build_floor(self, robot, s: float) -> None:
        bx, by = robot.base[0, 3], robot.base[1, 3]
        half = robot.reach * 1.4
        step = meshes.nice_step(2 * half, 16)
        half = math.ceil(half / step) * step
        z = self._floor_z
        self.floor_grid = (bx, by, half, step, z)  # for the grid's labels (view_labels)
        big = 3.0 * half  # the plane runs past the grid so its edge rarely shows
        plane_v = np.array([[-big, -big, 0], [big, -big, 0], [big, big, 0], [-big, big, 0]],
                           np.float32)
        md = gl.MeshData(vertexes=plane_v, faces=np.array([[0, 1, 2], [0, 2, 3]], np.uint32))
        plane = _FloorPlane(meshdata=md, color=style.rgba(style.FLOOR), glOptions="opaque")
        plane.setDepthValue(-20)
        if reaches_below_floor(robot):  # what the arm reaches below the floor shows
            plane.faint = True
            plane.see_through = (*style.rgba(style.FLOOR)[:3], FAINT_FLOOR_ALPHA)
        plane.setTransform(self._qmatrix(meshes.translate_matrix(bx, by, z)))
        self.addItem(plane)
        self._plane = plane
        self._plane_rect = ((bx - big, bx + big), (by - big, by + big), z)
        self._static.append((plane, "floor"))
        ticks = np.arange(-half, half + step / 2, step)
        eps = 2e-4 * robot.reach
        k = self.label_scale  # presentation mode: thicker grid lines
        for major, color, width in ((False, style.GRID_MINOR, 1.0 * k),
                                    (True, style.GRID_MAJOR, 1.5 * k)):
            sel = ticks[np.isclose(np.round(ticks / (5 * step)) * 5 * step, ticks) == major]
            if sel.size == 0:
                continue
            a = np.repeat(sel, 2)
            b = np.tile([-half, half], sel.size)
            pts = np.vstack([np.stack([a, b], 1), np.stack([b, a], 1)])
            pos = np.hstack([pts + [bx, by], np.full((len(pts), 1), z + eps)])
            lines = gl.GLLinePlotItem(pos=pos, color=style.rgba(color), width=width,
                                      mode="lines", antialias=True, glOptions="translucent")
            lines.setDepthValue(-19)
            self.addItem(lines)
            self._static.append((lines, "floor"))

    def _build_pedestal(self, base: np.ndarray, s: float) -> None:
        height = base[2, 3] - self._floor_z
        if height <= 1e-9:
            return
        cyl = meshes.cylinder(40)
        M = meshes.translate_matrix(base[0, 3], base[1, 3], self._floor_z) @ meshes.scale_matrix(
            0.42 * s, 0.42 * s, height)
        col = style.rgba(style.PEDESTAL)
        plate = meshes.translate_matrix(base[0, 3], base[1, 3], self._floor_z) @ (
            meshes.scale_matrix(0.9 * s, 0.9 * s, 0.12 * s))
        ped = RobotMeshItem([PartMesh(cyl[0], cyl[1], col), PartMesh(cyl[0], cyl[1], col)])
        ped.set_matrices(np.stack([M, plate]))
        self.addItem(ped)
        self._static.append((ped, "base"))

    def _build_meshes(self, robot) -> None:
        """The robot's own geometry (URDF meshes, primitives), one part per visual; with
        :attr:`draft_meshes`, a draft of meshes still being decimated (their finished
        form replaces it: :meth:`~.view_lod.LevelOfDetailMixin._install_finished`)."""
        from robogui.session.geometry import visual_cache  # reopen: no work

        self._mesh_frames, self._missing_frames = set(), set()
        self.mesh_warnings = []
        if not robot.visuals:
            return
        if self.draft_meshes:
            loaded, self._finishing = visual_cache.load_visuals_soon(robot)
        else:
            loaded = visual_cache.load_visuals(robot)
        self._loaded_meshes = loaded
        for m in loaded.meshes:
            self._add_part((m.vertices, m.faces), None, m.frame, np.eye(4), "mesh",
                           colors=m.colors, follow=m.follow,
                           looks={"normals": m.normals, "ambient": m.ambient,
                                  "specular": m.specular})
            self.mesh_parts.append(self._parts[-1])
            self._mesh_frames.add(m.frame)
        self._missing_frames = set(loaded.missing_frames)
        self.mesh_warnings = list(loaded.warnings)
        for text in loaded.warnings:
            self.meshWarning.emit(text)

    def _build_links(self, robot, s: float) -> None:
        if robot.is_general:
            self._build_general_links(robot, s)
            return
        cyl, boxm = meshes.cylinder(32), meshes.box()
        rj, lj, rl = 0.36 * s, 1.1 * s, 0.15 * s
        link_col = style.rgba(style.LINK)
        dh = robot.dh_arrays
        for j, L in enumerate(robot.links):
            # standard D-H: joint j moves about z of frame j-1, link j runs along
            # z_{j-1} (d) then x_j (a); modified: about z of frame j, along x_{j-1} then z_j
            jf = j + 1 if dh.mdh else j
            color = style.rgba(style.joint_color(j))
            if L.joint == "R":
                local = meshes.translate_matrix(0, 0, -lj / 2) @ meshes.scale_matrix(rj, rj, lj)
                self._add_part(cyl, color, jf, local, "joint", joint=j)
            else:
                self._add_part(boxm, color, jf, np.eye(4), "joint", joint=j, prismatic=True)
            if dh.mdh:
                segs = [(j, (0, 0, 0), (L.a, 0, 0))]
                if L.joint == "R":
                    segs.append((j + 1, (0, 0, -L.d), (0, 0, 0)))
            else:
                segs = [(j + 1, (-L.a, 0, 0), (0, 0, 0))]
                if L.joint == "R":
                    segs.insert(0, (j, (0, 0, 0), (0, 0, L.d)))
            for frame, p0, p1 in segs:
                if np.linalg.norm(np.subtract(p1, p0)) > 1e-9:
                    self._add_part(cyl, link_col, frame, meshes.segment_matrix(p0, p1, rl), "link")
        self._build_tool_stick(robot, rl)

    def _build_tool_stick(self, robot, rl: float) -> None:
        """The tool: a thin stick from the flange (the last body frame's origin) to the
        tool point."""
        tip = np.asarray(robot.tool)[:3, 3]
        if not robot.tool_is_identity and np.linalg.norm(tip) > 1e-9:
            self._add_part(meshes.cylinder(32), style.rgba(style.TOOL), robot.n_bodies,
                           meshes.segment_matrix((0, 0, 0), tip, 0.6 * rl), "link")

    def _build_general_links(self, robot, s: float) -> None:
        """Sticks of general joints: a segment to the joint (pre), the joint on its axis,
        a segment from the joint to the link frame (post); frame j+1 carries link j."""
        cyl, boxm = meshes.cylinder(32), meshes.box()
        rj, lj, rl = 0.36 * s, 1.1 * s, 0.15 * s
        link_col = style.rgba(style.LINK)
        jm = robot.full.joint_models  # mimic joints: every body, not only the free joints
        cp = robot.coupling
        for b in range(robot.n_bodies):
            # a follower is drawn in its leader's colour and drags its leader
            j = b if cp is None else int(np.flatnonzero(cp.E[b])[0])
            color = style.rgba(style.joint_color(j))
            post_inv = np.linalg.inv(jm.post[b])  # axis frame in link frame b+1
            if jm.revolute[b]:
                local = post_inv @ meshes.translate_matrix(0, 0, -lj / 2) @ \
                    meshes.scale_matrix(rj, rj, lj)
                self._add_part(cyl, color, b + 1, local, "joint", joint=j)
            else:
                self._add_part(boxm, color, b, jm.pre[b], "joint", joint=j, prismatic=True)
            segs = [(b, (0, 0, 0), jm.pre[b][:3, 3]), (b + 1, post_inv[:3, 3], (0, 0, 0))]
            for frame, p0, p1 in segs:
                if np.linalg.norm(np.subtract(p1, p0)) > 1e-9:
                    self._add_part(cyl, link_col, frame, meshes.segment_matrix(p0, p1, rl), "link")
        self._build_tool_stick(robot, rl)

    def _build_wrist(self, robot, s: float) -> None:
        colors = [style.rgba(c) for c in style.AXIS_COLORS]
        k = self.label_scale  # presentation mode: longer, thicker tool axes
        length = 1.5 * s * k
        self.tool_axes_length = length  # m, the tool triad's arms (x, y, z)
        wrist = meshes.triad(length, 0.05 * s * k, colors)
        self._add_part(wrist, None, robot.n_bodies, np.eye(4), "wrist", colors=wrist[2])
        small = meshes.triad(0.8 * s, 0.03 * s, colors)
        for k in range(robot.n_bodies + 1):
            self._add_part(small, None, k, np.eye(4), "frames", colors=small[2])
        for i, c in enumerate(style.AXIS_COLORS):
            p = np.zeros(3)
            p[i] = length * 1.12
            self._labels.append(_Label(robot.n_bodies, p, "XYZ"[i], c, "wrist"))
        self._set_wrist_labels(self._display.wrist_labels)

    def _add_part(self, mesh, color, frame, local, kind, *, joint=-1, prismatic=False,
                  colors=None, follow=(), looks=None) -> None:
        md = gl.MeshData(vertexes=mesh[0], faces=mesh[1], vertexColors=colors)
        item = _PartItem(md, color or (1, 1, 1, 1), colors, looks)
        self._parts.append(_Part(item, frame, np.asarray(local, float), kind, joint, prismatic,
                                 follow))

    def _build_batches(self) -> None:
        """The robot's parts in as few batched items as their shader's arrays allow
        (``BATCH_PARTS`` each, drawn with their shadows): on a software rasteriser every
        item's draws cost a fixed ~1 ms whatever their size (state validation, two draw
        calls), so one item per link frame cost a Panda ~8 ms a frame."""
        shade = style.rgba(style.SHADOW)
        # flattened onto the floor, a hair above it so the grid does not show through
        shadow_z = self._floor_z + 5e-4 * self._robot.reach
        order = np.argsort([p.frame for p in self._parts], kind="stable")
        for start in range(0, len(order), BATCH_PARTS):
            sel = np.sort(order[start:start + BATCH_PARTS])
            specs = []
            for i, k in enumerate(sel):
                p = self._parts[k]
                md = p.item.opts["meshdata"]
                specs.append(PartMesh(md.vertexes(), md.faces(), p.item.opts["color"],
                                      p.item.colors,
                                      shadow=p.kind in ("joint", "link", "mesh"),
                                      **p.item.looks))
                p.item.batch, p.item.index = None, i
            item = RobotMeshItem(specs, floor_z=shadow_z, shadow_color=shade)
            for k in sel:
                self._parts[k].item.batch = item
            self.addItem(item)
            self._batches.append((item, sel))
        P = np.eye(4)
        P[2, 2] = 0.0
        P[2, 3] = shadow_z
        self._flatten = P  # the shadow projection (for ghosts and tests)

    def _prismatic_local(self, F: np.ndarray, j: int, mdh: bool) -> np.ndarray:
        # the box spans the joint's current extension d, read off the frames
        w = 0.55 * self._scale
        if self._robot.is_general:  # from the axis frame at q = 0 along its z
            jm = self._robot.full.joint_models  # every body of a chain with mimic joints
            A = F[j] @ jm.pre[j]
            ext = float(A[:3, 2] @ ((F[j + 1] @ np.linalg.inv(jm.post[j]))[:3, 3] - A[:3, 3]))
            return jm.pre[j] @ meshes.scale_matrix(w, w, _nonzero(ext))
        if mdh:
            z, d = F[j + 1, :3, 2], F[j + 1, :3, 3] - F[j, :3, 3]
            ext = float(z @ d)
            return meshes.translate_matrix(0, 0, -ext) @ meshes.scale_matrix(w, w, _nonzero(ext))
        z, d = F[j, :3, 2], F[j + 1, :3, 3] - F[j, :3, 3]
        return meshes.scale_matrix(w, w, _nonzero(float(z @ d)))


def _nonzero(x: float, eps: float = 1e-6) -> float:
    # a zero-length box has a singular transform; keep it a sliver
    return x if abs(x) > eps else eps
