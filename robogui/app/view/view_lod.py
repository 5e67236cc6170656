"""The 3D view's level of detail (a mixin of :class:`~robogui.app.view.view3d.RobotScene`):
a robot whose meshes hold more triangles than a software-GL frame can draw at 30 fps gets
a light copy of them (:mod:`robogui.session.geometry.level_of_detail`, made off the GUI
thread), drawn in the frames of a moving view (a handle drag, a jog, an orbit, a
followed stream: :attr:`~.gl_host.SceneWindow.frame_moving`); the frame drawn once the
view is still, pictures and videos use the full meshes.

The light copy is a second vertex buffer in each batched item
(:meth:`~.robot_mesh_item.RobotMeshItem.set_light`), uploaded once: swapping copies
uploads nothing, the parts keep their matrices, tints and visibility.
"""

from __future__ import annotations

from PySide6 import QtCore

from robogui.session.geometry import level_of_detail

from .robot_mesh_item import PartMesh

__all__ = ["LevelOfDetailMixin"]


class LevelOfDetailMixin:
    """Light meshes while the view moves. Needs the scene's ``mesh_parts`` (one part per
    mesh of the loaded set, in its order), ``_batches`` and ``frame_moving``."""

    def _init_lod(self) -> None:
        self._lod_future = None
        self._lod_ready = False
        self.lod_drawn_light = False  # the last frame drew the light copy
        self._lod_poll = QtCore.QTimer(self)
        self._lod_poll.setInterval(40)
        self._lod_poll.timeout.connect(self._lod_install)

    def _start_lod(self, robot, loaded) -> None:
        """Ask for the light copy of ``loaded`` (the robot's full
        :class:`~robogui.session.geometry.visual_meshes.VisualSet`), when over budget."""
        self._lod_ready = False
        self._lod_future = None
        self._lod_poll.stop()
        if loaded is None or not loaded.meshes:
            return
        if getattr(self, "renderer", "") and not self.software:
            return  # hardware GL draws full resolution always: no copy to make
        self._lod_future = level_of_detail.request_light(robot, loaded.faces)
        if self._lod_future is not None:
            self._lod_expected = len(loaded.meshes)
            self._lod_poll.start()

    def lod_pending(self) -> bool:
        """Whether a light copy is being made for the current robot."""
        return self._lod_future is not None and not self._lod_ready

    @property
    def lod_ready(self) -> bool:
        """Whether the current robot has its light copy (moving frames draw it)."""
        return self._lod_ready

    def lod_triangles(self) -> tuple[int, int]:
        """(triangles of the robot's shown parts at full resolution, in their light copy;
        the same when there is none)."""
        items = [item for item, _ in self._batches]
        full = sum(item.triangles() for item in items)
        light = sum(item.triangles(light=True) for item in items)
        return full, light

    def _lod_install(self) -> None:
        future = self._lod_future
        if future is None:
            self._lod_poll.stop()
            return
        if not future.done():
            return
        self._lod_poll.stop()
        try:
            light = future.result()
        except Exception:  # noqa: BLE001 - no light copy: the view stays at full resolution
            self._lod_future = None
            return
        if future is not self._lod_future or len(light.meshes) != self._lod_expected \
                or len(light.meshes) != len(self.mesh_parts):
            return  # another robot since, or a set that does not match: not used
        by_item: dict = {}
        for part, m in zip(self.mesh_parts, light.meshes, strict=True):
            batch = part.item.batch
            if batch is None:
                continue
            by_item.setdefault(batch, {})[part.item.index] = PartMesh(
                m.vertices, m.faces, (1.0, 1.0, 1.0, 1.0), m.colors, shadow=True,
                normals=m.normals, ambient=m.ambient, specular=m.specular)
        for batch, replacements in by_item.items():
            batch.set_light(replacements)
        self._lod_ready = True

    def _apply_lod(self) -> None:
        """Before drawing: the light copy in a moving view's frame, else the full one."""
        light = bool(self.frame_moving and self._lod_ready)
        for item, _ in self._batches:
            item.light = light and item.has_light
        self.lod_drawn_light = light

    def drew_light(self) -> bool:
        return self.lod_drawn_light
