"""The 3D view's camera: presets, fitting the robot in view, projection, and projecting
world points to pixels (a mixin of :class:`~robogui.app.view.view3d.RobotScene`)."""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtGui

__all__ = ["CAMERA_PRESETS", "CameraMixin"]

#: camera presets: (azimuth, elevation) in degrees; pyqtgraph's azimuth is the camera's
#: direction from the centre, measured in the xy plane from +x
CAMERA_PRESETS = {
    "iso": (-55.0, 24.0),
    "front": (0.0, 0.0),
    "side": (-90.0, 0.0),
    "top": (-90.0, 90.0),
}


class CameraMixin:
    """Camera of a pyqtgraph GL scene that has ``_robot``, ``_frames``, ``_scale``,
    ``_floor_z``, ``_projection``, ``_auto_fit`` and ``_fit_providers``."""

    def set_camera(self, preset: str | None = None, *, azimuth: float | None = None,
                   elevation: float | None = None, distance: float | None = None,
                   center=None) -> None:
        """Camera by preset (``iso``, ``front``, ``side``, ``top``) and/or explicit values."""
        if preset is not None:
            try:
                az, el = CAMERA_PRESETS[preset]
            except KeyError:
                raise ValueError(
                    f"unknown view {preset!r}; presets: {', '.join(CAMERA_PRESETS)}") from None
            azimuth = az if azimuth is None else azimuth
            elevation = el if elevation is None else elevation
        pos = QtGui.QVector3D(*map(float, center)) if center is not None else None
        self.setCameraPosition(pos=pos, distance=distance, elevation=elevation, azimuth=azimuth)

    def fit_to_robot(self) -> None:
        """Centre the camera on the robot (current pose, tool axes, pedestal, shadow) and
        move it just far enough that all of it is in view."""
        if self._robot is None or self._frames is None:
            return
        F, s = self._frames, self._scale
        pts = [F[:, :3, 3], F[-1, :3, 3] + 1.8 * s * F[-1, :3, :3].T]  # origins, axis tips
        base = self._robot.base[:3, 3]
        shadow = F[:, :3, 3].copy()
        shadow[:, 2] = self._floor_z
        for provider in self._fit_providers:
            extra = np.asarray(provider(), dtype=float).reshape(-1, 3)
            if extra.size:
                pts.append(extra)
        pts = np.vstack(pts + [shadow, [[base[0], base[1], self._floor_z]]])
        center = (pts.min(0) + pts.max(0)) / 2
        self.opts["center"] = QtGui.QVector3D(*center)
        V = np.array(self.viewMatrix().data(), float).reshape(4, 4).T
        cam = (np.hstack([pts, np.ones((len(pts), 1))]) @ V.T)[:, :3]
        cam[:, 2] += self.opts["distance"]  # coordinates relative to the centre, z to the eye
        w, h = max(self.width(), 1), max(self.height(), 1)
        tx = math.tan(math.radians(self.opts["fov"]) / 2)  # pyqtgraph's fov is horizontal
        ty = tx * h / w
        pad = 1.2 * s
        ax, ay = np.abs(cam[:, 0]) + pad, np.abs(cam[:, 1]) + pad
        if self._projection == "perspective":
            dist = float(np.max(np.maximum(cam[:, 2] + ax / tx, cam[:, 2] + ay / ty)))
        else:
            dist = float(max(ax.max() / tx, ay.max() / ty))
        self.setCameraPosition(distance=1.03 * dist)

    def add_fit_points(self, provider) -> None:
        """Keep ``provider()`` -> (k, 3) world points in view when fitting (trail, ghosts)."""
        self._fit_providers.append(provider)

    @property
    def auto_fit(self) -> bool:
        """True until the user moves the camera: the view refits itself when it changes."""
        return self._auto_fit

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self._auto_fit:
            self.fit_to_robot()

    def set_projection(self, kind: str) -> None:
        """``"perspective"`` or ``"orthographic"``."""
        if kind not in ("perspective", "orthographic"):
            raise ValueError(f"projection must be 'perspective' or 'orthographic', got {kind!r}")
        self._projection = kind
        self.update()

    def projectionMatrix(self, region=None, viewport=None) -> QtGui.QMatrix4x4:  # noqa: N802
        if region is None:
            region = viewport = self.getViewport()
        x0, y0, w, h = viewport
        dist = self.opts["distance"]
        t = math.tan(0.5 * math.radians(self.opts["fov"]))
        # near/far close around the scene keep depth precision for the floor shadow
        near, far = dist * 0.02, dist * 20.0
        r = (near if self._projection == "perspective" else dist) * t
        tt = r * h / w
        left = r * ((region[0] - x0) * (2.0 / w) - 1)
        right = r * ((region[0] + region[2] - x0) * (2.0 / w) - 1)
        bottom = tt * ((region[1] - y0) * (2.0 / h) - 1)
        top = tt * ((region[1] + region[3] - y0) * (2.0 / h) - 1)
        M = QtGui.QMatrix4x4()
        if self._projection == "perspective":
            M.frustum(left, right, bottom, top, near, far)
        else:
            M.ortho(left, right, bottom, top, -far, far)
        return M

    def project(self, points) -> np.ndarray:
        """World points (k, 3) -> widget pixel coordinates (k, 2), y down."""
        P = np.atleast_2d(np.asarray(points, float))
        vp = self.getViewport()
        mvp = self.projectionMatrix(vp, vp) * self.viewMatrix()
        M = np.array(mvp.data(), float).reshape(4, 4).T  # Qt stores column-major
        h = np.hstack([P, np.ones((len(P), 1))]) @ M.T
        ndc = h[:, :2] / h[:, 3:4]
        return np.stack([(ndc[:, 0] + 1) / 2 * vp[2], (1 - ndc[:, 1]) / 2 * vp[3]], axis=1)


    def mvp_matrix(self) -> np.ndarray:
        """Projection @ view as a numpy (4, 4) matrix (for rays and projections)."""
        vp = self.getViewport()
        mvp = self.projectionMatrix(vp, vp) * self.viewMatrix()
        return np.array(mvp.data(), float).reshape(4, 4).T  # Qt stores column-major

    def camera_position(self) -> np.ndarray:
        """The camera's position (3,) in world coordinates."""
        return np.array(self.cameraPosition(), dtype=float)
