"""The 3D view's camera: presets, fitting the robot in view, projection, and projecting
world points to pixels (a mixin of :class:`~robogui.app.view.view3d.RobotScene`)."""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtGui

__all__ = ["CAMERA_PRESETS", "CameraMixin", "frame_points", "FIT_FILL", "START_HEIGHT_SHARE",
           "START_MAX_ELEVATION"]

#: camera presets: (azimuth, elevation) in degrees; pyqtgraph's azimuth is the camera's
#: direction from the centre, measured in the xy plane from +x
CAMERA_PRESETS = {
    "iso": (-55.0, 24.0),
    "front": (0.0, 0.0),
    "side": (-90.0, 0.0),
    "top": (-90.0, 90.0),
}

#: the share of the view's width or height (whichever binds) the robot spans after a fit
FIT_FILL = 0.9
#: the start view shows a robot at least this share of the view's height tall (issue 27)
START_HEIGHT_SHARE = 0.52
#: ... raising the camera up to this elevation (degrees) for a flat robot
START_MAX_ELEVATION = 45.0


def frame_points(points, R, tx: float, ty: float, pad: float = 0.0,
                 perspective: bool = True, fill: float = FIT_FILL):
    """The camera centre (3,) and distance (m) that show every world point (k, 3) with
    the least distance, the points' projection spanning ``fill`` of the view where it
    binds and centred, for a camera of rotation ``R`` (3, 3; rows: right, up, back in
    world coordinates), half-angle tangents ``tx``, ``ty`` and ``pad`` (m) around each
    point. The eye is placed exactly: each side of the view's pyramid is a plane through
    the eye, so the eye is where the planes touching the points on opposite sides meet;
    the centre is on the line of sight at the points' middle depth."""
    P = np.asarray(points, float).reshape(-1, 3)
    R = np.asarray(R, float)
    x, y, z = (P @ R.T).T
    if perspective:
        eye = []
        for c, t in ((x, fill * tx), (y, fill * ty)):
            a = float(np.max(c + t * z)) + pad  # the plane on the + side touches here
            b = float(np.max(-c + t * z)) + pad
            eye.append(((a - b) / 2, (a + b) / (2 * t)))
        (ex, zx), (ey, zy) = eye
        ez = max(zx, zy)
        mid = (z.min() + z.max()) / 2
        dist = max(ez - mid, 1e-3)
    else:
        ex, ey = (x.max() + x.min()) / 2, (y.max() + y.min()) / 2
        half = max(((x.max() - x.min()) / 2 + pad) / (fill * tx),
                   ((y.max() - y.min()) / 2 + pad) / (fill * ty))
        mid, dist = (z.min() + z.max()) / 2, max(half, 1e-3)
    center = R.T @ np.array([ex, ey, mid])
    return center, float(dist)


def _camera_rotation(azimuth: float, elevation: float) -> np.ndarray:
    """Rows right, up, back (3, 3) of pyqtgraph's orbit camera at these angles (deg)."""
    az, el = math.radians(azimuth), math.radians(elevation)
    back = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    right = np.array([-math.sin(az), math.cos(az), 0.0])
    return np.vstack([right, np.cross(back, right), back])


class CameraMixin:
    """Camera of a pyqtgraph GL scene that has ``_robot``, ``_frames``, ``_scale``,
    ``_floor_z``, ``_projection``, ``_auto_fit`` and ``_fit_providers``."""

    def set_camera(self, preset: str | None = None, *, azimuth: float | None = None,
                   elevation: float | None = None, distance: float | None = None,
                   center=None) -> None:
        """Camera by preset (``iso``, ``front``, ``side``, ``top``) and/or explicit values."""
        self._start_view = False
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
        """Centre the camera on what is drawn of the robot (its meshes or sticks, tool axes,
        pedestal, and the points of :meth:`add_fit_points`; not its shadow) and move it as close as
        it can with all of it in view: the robot's projection spans :data:`FIT_FILL` of
        the view's width or height (:func:`frame_points`)."""
        if self._robot is None or self._frames is None:
            return
        # twice: what keeps a constant size on screen (the tool handle) changes its world
        # size with the camera's distance, so its points are read again at the new camera
        for _ in range(2):
            pts, pad = self._fit_points_now()
            V = np.array(self.viewMatrix().data(), float).reshape(4, 4).T
            w, h = max(self.width(), 1), max(self.height(), 1)
            tx = math.tan(math.radians(self.opts["fov"]) / 2)  # pyqtgraph's fov: horizontal
            center, dist = frame_points(pts, V[:3, :3], tx, tx * h / w, pad,
                                        self._projection == "perspective")
            self.opts["center"] = QtGui.QVector3D(*center)
            self.setCameraPosition(distance=dist)

    def _fit_points_now(self) -> tuple[np.ndarray, float]:
        """World points (k, 3) the camera keeps in view, and the margin (m) around them."""
        F, s = self._frames, self._scale
        drawn = self._drawn_points(F)
        pts = [F[:, :3, 3]]
        if not len(drawn):  # where the tool axes would be
            pts.append(F[-1, :3, 3] + 1.8 * s * F[-1, :3, :3].T)
        base = self._robot.base[:3, 3]
        pts.append([[base[0], base[1], self._floor_z]])
        if base[2] - self._floor_z > 1e-9:  # the pedestal's plate
            pts.append(base[:2] + 0.9 * s * np.array([[1, 0], [-1, 0], [0, 1], [0, -1]]))
            pts[-1] = np.column_stack([pts[-1], np.full(4, self._floor_z)])
        pad = 0.15 * s if len(drawn) else 1.2 * s  # drawn geometry: its own extent
        # not the shadow: an arm held high (a KUKA's, 0.5 m up) casts it far down the
        # view, and framing it would leave the robot itself a small part of the view
        pts.append(drawn)
        for provider in self._fit_providers:
            extra = np.asarray(provider(), dtype=float).reshape(-1, 3)
            if extra.size:
                pts.append(extra)
        pts = np.vstack(pts)
        return pts[np.isfinite(pts).all(axis=1)], pad

    def _drawn_points(self, F: np.ndarray, per_part: int = 256, kinds=None) -> np.ndarray:
        """Up to ``per_part`` vertices of every robot part drawn now (meshes, joints,
        links, axes; only ``kinds`` when given), placed at the frames ``F``: (k, 3) world
        points."""
        parts = [p for p in self._parts if p.item.visible()
                 and (kinds is None or p.kind in kinds)]
        if not parts:
            return np.zeros((0, 3))
        M = self.part_transforms(F, parts)
        out = []
        for p, Mk in zip(parts, M, strict=True):
            v = np.asarray(p.item.opts["meshdata"].vertexes(), float)
            if len(v) > per_part:  # a spread of vertices and each axis's extremes
                v = np.vstack([v[:: -(-len(v) // per_part)], v[v.argmin(0)], v[v.argmax(0)]])
            out.append(v @ Mk[:3, :3].T + Mk[:3, 3])
        return np.vstack(out) if out else np.zeros((0, 3))

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
            self.refit()

    def refit(self) -> None:
        """Fit the camera again: the start view (:meth:`fit_start_view`) while the camera
        is still the one the view started with, else the current angles fitted."""
        start = getattr(self, "_start_frames", None)
        if self._auto_fit and getattr(self, "_start_view", False) and start is not None \
                and self._frames is not None and np.array_equal(start, self._frames):
            self.fit_start_view()  # still the robot as it opened: choose the angles again
        else:
            self.fit_to_robot()

    def fit_start_view(self) -> None:
        """The view a robot opens in (and, while it has not moved and the camera has not
        been moved, after a resize): the ``iso`` preset, fitted (:meth:`fit_to_robot`). A
        robot that would span less than :data:`START_HEIGHT_SHARE` of the view's height
        from there (an arm stretched flat: the UR arms and the KUKA KR 5 at zero, several
        times as long as high) is seen from the nearest camera angles that show it so:
        from higher up (elevation up to :data:`START_MAX_ELEVATION`: looking down on a
        flat arm shows its length as height too), then also turned about the vertical
        by up to 30 degrees (seeing the arm more end-on). The candidates are judged by
        projecting the robot's points through :func:`frame_points` (no drawing)."""
        az0, el0 = CAMERA_PRESETS["iso"]
        self._start_view = True  # set_camera (a preset, the user) ends it
        self._start_frames = None if self._frames is None else np.array(self._frames)
        self.setCameraPosition(azimuth=az0, elevation=el0)
        self.fit_to_robot()
        w, h = self.width(), self.height()
        if w < 2 or h < 2 or self._robot is None or self._frames is None:
            return  # not laid out yet: its resize refits
        body = self._body_points()
        if not len(body) or self.robot_height_share() >= START_HEIGHT_SHARE:
            return
        pts, pad = self._fit_points_now()
        tx = math.tan(math.radians(self.opts["fov"]) / 2)
        ty = tx * h / w
        persp = self._projection == "perspective"
        els = np.arange(el0, START_MAX_ELEVATION + 1e-9, 3.0)
        cands = sorted(((az0 + da, float(el)) for da in range(-30, 31, 10) for el in els),
                       key=lambda c: (math.hypot(c[0] - az0, c[1] - el0), c[0]))
        best = (-1.0, az0, el0)
        for az, el in cands:
            R = _camera_rotation(az, el)
            center, dist = frame_points(pts, R, tx, ty, pad, persp)
            rel = (body - center) @ R.T
            scale = (dist - rel[:, 2]) * ty if persp else np.full(len(rel), dist * ty)
            ny = np.clip(rel[:, 1] / np.maximum(scale, 1e-12), -1.0, 1.0)
            share = float(ny.max() - ny.min()) / 2
            if share > best[0] + 1e-9:
                best = (share, az, el)
            if share >= START_HEIGHT_SHARE + 0.02:  # the handle takes a little at the end
                break
        self.setCameraPosition(azimuth=best[1], elevation=best[2])
        self.fit_to_robot()

    def _body_points(self) -> np.ndarray:
        """World points (k, 3) of the robot's body as drawn: its meshes (else joints and
        links) and, for a D-H robot, the pedestal it stands on."""
        body = self._drawn_points(self._frames, kinds=("mesh", "joint", "link"))
        base = self._robot.base[:3, 3]
        if len(body) and base[2] - self._floor_z > 1e-9 and getattr(
                self._display, "show_base", True):
            plate = np.array([[1, 0], [-1, 0], [0, 1], [0, -1]]) * 0.9 * self._scale
            ped = np.column_stack([base[:2] + plate, np.full(4, self._floor_z)])
            body = np.vstack([body, ped, [base]])
        return body

    def robot_height_share(self) -> float:
        """The share of the view's height the robot's body (meshes, else its joints and
        links as drawn; a D-H robot's pedestal) spans on screen now, in [0, 1]."""
        if self._robot is None or self._frames is None:
            return 0.0
        body = self._body_points()
        if not len(body):
            return 0.0
        y = self.project(body)[:, 1]
        h = max(self.height(), 1)
        return float((min(y.max(), h) - max(y.min(), 0.0)) / h)

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
