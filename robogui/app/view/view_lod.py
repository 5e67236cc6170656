"""The 3D view's level of detail (a mixin of :class:`~robogui.app.view.view3d.RobotScene`):
a robot whose meshes hold more triangles than a software-GL frame can draw at 30 fps gets
light copies of them at a few levels (:mod:`robogui.session.geometry.level_of_detail`,
made off the GUI thread), drawn in the frames of a moving view (a handle drag, a jog, an
orbit, a followed stream: :attr:`~.gl_host.SceneWindow.frame_moving`); the frame drawn
once the view is still, pictures and videos use the full meshes. Which level a moving
frame draws is chosen from the paint times of the moving frames before it
(:class:`~robogui.session.geometry.lod_governor.LevelGovernor`): the heaviest that keeps
the frame rate on this machine now.

Each light copy is another vertex buffer in each batched item
(:meth:`~.robot_mesh_item.RobotMeshItem.set_lights`), uploaded once: swapping copies
uploads nothing, the parts keep their matrices, tints and visibility.

A robot opened from a draft (:func:`~robogui.session.geometry.visual_cache.load_visuals_soon`:
meshes that must be decimated and are in no cache, vertex-clustered at once) gets its
finished meshes swapped into the same items when they are made
(:meth:`~.robot_mesh_item.RobotMeshItem.set_full`), and its light copies only then.
"""

from __future__ import annotations

import pyqtgraph.opengl as gl
from PySide6 import QtCore

from robogui.session.geometry import level_of_detail
from robogui.session.geometry.lod_governor import LevelGovernor

from .robot_mesh_item import PartMesh

__all__ = ["LevelOfDetailMixin", "LOD_DELAY_MS"]

#: ms after a robot's first frame before its light copies are asked for
LOD_DELAY_MS = 300


class LevelOfDetailMixin:
    """Light meshes while the view moves. Needs the scene's ``mesh_parts`` (one part per
    mesh of the loaded set, in its order), ``_batches`` and ``frame_moving``."""

    def _init_lod(self) -> None:
        self._lod_future = None
        self._lod_wanted = None  # (robot, meshes) whose light copies wait for a first frame
        self._lod_ready = False
        self.lod_drawn_light = False  # the last frame drew a light copy
        self.lod_level = 0  # which: 0 none (full), k the k-th (lighter as k grows)
        self.lod_governor: LevelGovernor | None = None  # chooses the level, once ready
        self._lod_poll = QtCore.QTimer(self)
        self._lod_poll.setInterval(40)
        self._lod_poll.timeout.connect(self._lod_install)
        # the request waits for the robot's first frame and a little after it: the
        # decimation's thread would share the CPU with what follows an opening
        self._lod_later = QtCore.QTimer(self)
        self._lod_later.setSingleShot(True)
        self._lod_later.setInterval(LOD_DELAY_MS)
        self._lod_later.timeout.connect(self._request_lod)
        self._finish_poll = QtCore.QTimer(self)
        self._finish_poll.setInterval(40)
        self._finish_poll.timeout.connect(self._install_finished)

    def _start_lod(self, robot, loaded) -> None:
        """Ask for the light copy of ``loaded`` (the robot's full
        :class:`~robogui.session.geometry.visual_meshes.VisualSet`), when over budget."""
        self._lod_ready = False
        self._lod_future = None
        self.lod_governor = None
        self._lod_poll.stop()
        self._lod_wanted = None
        self._finish_poll.stop()
        if loaded is None or not loaded.meshes:
            return
        if self._finishing is not None:
            self._finish_poll.start()  # the light copies wait for the finished meshes
            return
        if getattr(self, "renderer", "") and not self.software:
            return  # hardware GL draws full resolution always: no copy to make
        # asked for once the robot's first frame is on screen: the decimation would take
        # the CPU from the robot's opening (two cores share the mesh workers, the
        # rasteriser and this thread), and no view moves before it has been seen
        self._lod_wanted = (robot, loaded)

    def _request_lod(self) -> None:
        if self._lod_wanted is None:
            return
        robot, loaded = self._lod_wanted
        self._lod_wanted = None
        self._lod_future = level_of_detail.request_light(robot, loaded.faces,
                                                         meshes=len(loaded.meshes))
        if self._lod_future is not None:
            self._lod_expected = len(loaded.meshes)
            self._lod_poll.start()

    def meshes_pending(self) -> bool:
        """Whether the robot is drawn from a draft whose finished meshes are on their way
        (a picture should wait: :attr:`meshesFinished`)."""
        return self._finishing is not None

    def _install_finished(self) -> None:
        """The draft's finished meshes, once made, in place of the draft's parts."""
        future = self._finishing
        if future is None or future.done():
            self._finish_poll.stop()
        if future is None or not future.done():
            return
        self._finishing = None
        try:
            final = future.result()
        except Exception:  # noqa: BLE001 - not finished: the draft stays drawn
            self.meshesFinished.emit()
            return
        if len(final.meshes) != len(self.mesh_parts) or self._robot is None:
            self.meshesFinished.emit()
            return  # not the set drawn (cannot happen for the same robot)
        by_item: dict = {}
        for part, m in zip(self.mesh_parts, final.meshes, strict=True):
            item = part.item
            looks = {"normals": m.normals, "ambient": m.ambient, "specular": m.specular}
            item.opts["meshdata"] = gl.MeshData(vertexes=m.vertices, faces=m.faces,
                                                vertexColors=m.colors)
            item.colors, item.looks = m.colors, looks
            if item.batch is not None:
                by_item.setdefault(item.batch, {})[item.index] = PartMesh(
                    m.vertices, m.faces, item.opts["color"], m.colors, shadow=True, **looks)
        for batch, replacements in by_item.items():
            batch.set_full(replacements)
        self._loaded_meshes = final
        self._mesh_picker = None  # rays against the finished triangles
        self._start_lod(self._robot, final)  # the light copies, after the next frame
        self.update()
        self.meshesFinished.emit()

    def lod_pending(self) -> bool:
        """Whether light copies are wanted or being made for the current robot."""
        return (self._lod_wanted is not None
                and level_of_detail.needs_light(self._lod_wanted[1].faces)) or (
            self._lod_future is not None and not self._lod_ready)

    @property
    def lod_ready(self) -> bool:
        """Whether the current robot has its light copy (moving frames draw it)."""
        return self._lod_ready

    def lod_triangles(self, level: int = 1) -> tuple[int, int]:
        """(triangles of the robot's shown parts at full resolution, in their light copy
        ``level`` (1 the heaviest); the same when there is none)."""
        items = [item for item, _ in self._batches]
        full = sum(item.triangles() for item in items)
        light = sum(item.triangles(light=level) for item in items)
        return full, light

    def lod_levels(self) -> list[int]:
        """Triangles of the shown parts in each light copy, heaviest first."""
        n = max((item.light_levels for item, _ in self._batches), default=0)
        return [self.lod_triangles(k)[1] for k in range(1, n + 1)]

    def _lod_install(self) -> None:
        future = self._lod_future
        if future is None:
            self._lod_poll.stop()
            return
        if not future.done():
            return
        self._lod_poll.stop()
        try:
            levels = future.result()
        except Exception:  # noqa: BLE001 - no light copy: the view stays at full resolution
            self._lod_future = None
            return
        if future is not self._lod_future or not levels or any(
                len(light.meshes) != self._lod_expected
                or len(light.meshes) != len(self.mesh_parts) for light in levels):
            return  # another robot since, or a set that does not match: not used
        by_item: dict = {}
        for k, light in enumerate(levels):
            for part, m in zip(self.mesh_parts, light.meshes, strict=True):
                batch = part.item.batch
                if batch is None:
                    continue
                per_level = by_item.setdefault(batch, [{} for _ in levels])
                per_level[k][part.item.index] = PartMesh(
                    m.vertices, m.faces, (1.0, 1.0, 1.0, 1.0), m.colors, shadow=True,
                    normals=m.normals, ambient=m.ambient, specular=m.specular)
        for batch, replacements in by_item.items():
            batch.set_lights(replacements)
        self._lod_ready = True
        self.lod_governor = LevelGovernor(self.lod_levels())

    def _apply_lod(self) -> None:
        """Before drawing: a light copy in a moving view's frame (the level the governor
        chose), else the full one."""
        level = 0
        if self.frame_moving and self._lod_ready and self.lod_governor is not None:
            level = self.lod_governor.level + 1
        for item, _ in self._batches:
            item.light = min(level, item.light_levels)
        self.lod_level = level
        self.lod_drawn_light = level > 0

    def _frame_done(self) -> None:
        super()._frame_done()
        if self._lod_wanted is not None and not self._lod_later.isActive():
            self._lod_later.start()  # after this frame's other listeners
        governor = self.lod_governor
        if governor is None or not self.lod_drawn_light:
            return
        if any(item.uploaded for item, _ in self._batches):
            return  # a copy's first frame pays its upload: not a frame like the others
        governor.record(self.lod_level - 1, self._frame_ms)

    def drew_light(self) -> bool:
        return self.lod_drawn_light
