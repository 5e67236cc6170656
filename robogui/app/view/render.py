"""Pictures and videos of a robot, rendered off screen at any size.

:class:`FrameRenderer` owns a :class:`~robogui.app.view.view3d.RobotScene` that is never
shown: every frame renders through an off-screen context into a multisampled
framebuffer object of the asked size (not a window's size) and is read back. It works
under X (xcb) and with no display at all (see :mod:`robogui.app.view.headless`).

Resolution independence: text and line widths follow :func:`output_scale`, so a
3200x2400 picture is as legible as an 800x600 one (its labels are 4x taller).
Overlays (time, joint values, a torque bar per joint) are drawn with QPainter over the
frame, scaled the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtGui

from robogui.session.geometry.scene import scene_scale
from robogui.session.session import DisplayOptions
from robogui.session.video import Overlays

from .. import style
from ..application import create_app
from .view3d import RobotScene

__all__ = ["render_robot", "render_video", "FrameRenderer", "Overlays", "output_scale",
           "image_to_array", "REFERENCE_SIZE"]

#: the picture size at which text and lines have their on-screen size
REFERENCE_SIZE = (800, 600)
#: multisampled pixels per frame we allow (samples x width x height), ~250 MB of buffers
_MAX_SAMPLED_PIXELS = 32_000_000


def output_scale(width: int, height: int) -> float:
    """Text and line scale of a ``width`` x ``height`` picture: 1 at 800x600, 4 at
    3200x2400; never below 0.75 so small GIFs keep readable labels."""
    return max(0.75, min(width / REFERENCE_SIZE[0], height / REFERENCE_SIZE[1]))


class FrameRenderer:
    """Renders ``robot`` off screen into images of ``size`` = (width, height) pixels.

    ``display`` chooses what is drawn (and the projection, angle unit), ``view`` a
    camera preset, ``camera`` explicit values (azimuth, elevation, distance, center,
    fov; e.g. copied from the app's view) that override it. ``samples``: multisampling.
    """

    def __init__(self, robot, size: tuple[int, int], *, display: DisplayOptions | None = None,
                 view: str = "iso", camera: dict | None = None, samples: int = 8):
        w, h = (int(v) for v in size)
        if w < 16 or h < 16 or w > 16384 or h > 16384:
            raise ValueError(f"size must be between 16 and 16384 pixels, got {w}x{h}")
        create_app()
        self.size = (w, h)
        self.scale = output_scale(w, h)
        self.samples = max(0, min(int(samples), _MAX_SAMPLED_PIXELS // (w * h)))
        self.display = display if display is not None else DisplayOptions()
        self.robot = robot
        self.scene = RobotScene(display=self.display, samples=self.samples)
        self.scene.resize(w, h)  # never shown: only the projection and labels use the size
        self.scene.set_robot(robot)
        self.scene.set_projection(self.display.projection)
        self._view, self._camera = view, camera
        self._extra = np.zeros((0, 3))
        self.scene.add_fit_points(lambda: self._extra)
        #: what a full torque bar means (see :func:`torque_bar_scale`)
        self.torque_caption = "|torque| / limit"

    def frame_camera(self, frames: np.ndarray, points: np.ndarray | None = None) -> None:
        """Point the camera: the preset, then (unless explicit values were given) fitted
        to the robot at ``frames`` (n+1, 4, 4) plus ``points`` (k, 3) (a whole motion)."""
        self.scene.show_frames(frames)
        self.scene.set_camera(self._view)
        cam = self._camera
        if cam:
            if "fov" in cam:
                self.scene.opts["fov"] = float(cam["fov"])
            self.scene.set_camera(azimuth=cam.get("azimuth"), elevation=cam.get("elevation"),
                                  distance=cam.get("distance"), center=cam.get("center"))
            return
        self._extra = np.zeros((0, 3)) if points is None else np.asarray(points, float)
        self.scene.fit_to_robot()

    def show_path(self, segments: np.ndarray) -> None:
        """Draw a tool path, line segments (2m, 3) as made by
        :func:`~robogui.session.motion.polyline.screen_segments`, in the scene (the app's trail
        colour, the width scaled with the picture)."""
        import pyqtgraph.opengl as gl

        if len(segments) < 2:
            return
        item = gl.GLLinePlotItem(pos=np.asarray(segments, float), color=style.rgba(style.TRAIL),
                                 width=2.0 * self.scale, mode="lines", antialias=True,
                                 glOptions="translucent")
        item.setDepthValue(5)
        self.scene.addItem(item)

    def motion_points(self, frames: np.ndarray) -> np.ndarray:
        """Points to keep in view over a motion ``frames`` (N, n+1, 4, 4): every frame
        origin and the tips of the tool axes (with their labels), (N * (n+4), 3)."""
        F = np.asarray(frames, float)
        s = scene_scale(self.robot, self.display.mag)
        tool = F[:, -1]
        tips = tool[:, None, :3, 3] + 1.8 * s * np.swapaxes(tool[:, :3, :3], 1, 2)
        return np.concatenate([F[:, :, :3, 3], tips], axis=1).reshape(-1, 3)

    def render(self, frames: np.ndarray, limit_state: np.ndarray | None = None, *,
               overlays: Overlays | None = None, time: float | None = None,
               q: np.ndarray | None = None, tau: np.ndarray | None = None,
               tau_scale: np.ndarray | None = None) -> QtGui.QImage:
        """The robot at ``frames`` (n+1, 4, 4) as a QImage of :attr:`size`.

        Overlays draw ``time`` (s), ``q`` (n,) and ``tau`` (n,) with ``tau_scale`` (n,)
        as the full length of each torque bar.
        """
        self.scene.show_frames(frames, limit_state)
        w, h = self.size
        image = self.scene.render_image(w, h, samples=self.samples, scale=self.scale)
        if overlays is not None and overlays.any:
            painter = QtGui.QPainter(image)
            try:
                self._paint_overlays(painter, overlays, time, q, tau, tau_scale)
            finally:
                painter.end()
        return image

    # -- overlays ------------------------------------------------------------------------
    def _paint_overlays(self, p: QtGui.QPainter, ov: Overlays, time, q, tau, tau_scale) -> None:
        k = self.scale
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
        font = QtGui.QFont(QtGui.QGuiApplication.font())
        font.setPointSizeF(10.0 * k)
        p.setFont(font)
        fm = p.fontMetrics()
        line = fm.height()
        margin = 10 * k
        y = margin + fm.ascent()
        p.setPen(QtGui.QColor(style.LABEL))
        if ov.time and time is not None:
            p.drawText(QtCore.QPointF(margin, y), f"t = {time:6.2f} s")
            y += line
        if ov.q and q is not None:
            deg = self.display.angle_unit == "deg"
            for j, (L, v) in enumerate(zip(self.robot.links, q, strict=True)):
                if L.joint == "R":
                    text = f"q{j + 1} = {math.degrees(v):8.1f}\u00b0" if deg else \
                        f"q{j + 1} = {v:8.3f} rad"
                else:
                    text = f"q{j + 1} = {v * 1000:8.1f} mm" if \
                        self.display.length_unit == "mm" else f"q{j + 1} = {v:8.4f} m"
                p.setPen(QtGui.QColor(style.joint_color(j)))
                p.drawText(QtCore.QPointF(margin, y), text)
                y += line
        if ov.torque and tau is not None:
            self._paint_torque_bars(p, np.asarray(tau, float), np.asarray(tau_scale, float), fm)

    def _paint_torque_bars(self, p: QtGui.QPainter, tau, scale, fm) -> None:
        """One horizontal bar per joint, bottom left: |tau| / limit, red when over it."""
        k = self.scale
        n = tau.size
        bar_w, bar_h, gap = 140 * k, 9 * k, 4 * k
        x0 = 10 * k + fm.horizontalAdvance("q0 ") + 2 * k
        y0 = self.size[1] - 10 * k - n * (bar_h + gap)
        p.setPen(QtGui.QColor(style.LABEL))
        p.drawText(QtCore.QPointF(10 * k, y0 - gap - fm.descent()), self.torque_caption)
        for j in range(n):
            y = y0 + j * (bar_h + gap)
            frac = abs(tau[j]) / scale[j] if scale[j] > 0 else 0.0
            p.setPen(QtGui.QColor(style.joint_color(j)))
            p.drawText(QtCore.QPointF(10 * k, y + bar_h), f"{j + 1}")
            p.setPen(QtCore.Qt.PenStyle.NoPen)
            p.setBrush(QtGui.QColor(255, 255, 255, 40))
            p.drawRect(QtCore.QRectF(x0, y, bar_w, bar_h))
            color = style.AT_LIMIT_COLOR if frac > 1 else style.joint_color(j)
            p.setBrush(QtGui.QColor(color))
            p.drawRect(QtCore.QRectF(x0, y, bar_w * min(frac, 1.0), bar_h))


def torque_bar_scale(tau: np.ndarray | None, tau_limit: np.ndarray | None) -> np.ndarray | None:
    """Full length of each torque bar (n,): the joint's limit, else the video's peak |tau|."""
    if tau is None:
        return None
    peak = np.max(np.abs(tau), axis=0)
    if tau_limit is None:
        return peak
    lim = np.asarray(tau_limit, float)
    return np.where(np.isfinite(lim) & (lim > 0), lim, peak)


def image_to_array(image: QtGui.QImage) -> np.ndarray:
    """(h, w, 3) uint8 RGB copy of a QImage."""
    img = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
    return buf[:, : 3 * w].reshape(h, w, 3).copy()


def render_robot(robot, q=None, *, view: str = "iso", size: tuple[int, int] = (1600, 1200),
                 path: str | Path | None = None, display: DisplayOptions | None = None,
                 samples: int = 8, camera: dict | None = None) -> QtGui.QImage:
    """Render ``robot`` at ``q`` (default its ready pose) and return the image.

    ``view`` is a camera preset (iso, front, side, top); ``size`` is (width, height) in
    pixels; with ``path`` the image is also written (format from the suffix).
    """
    from robogui.engine.kinematics.kinematics import fkine_all
    from robogui.session.session import initial_q
    from robogui.session.video import limit_states

    q = initial_q(robot) if q is None else np.asarray(q, float)
    renderer = FrameRenderer(robot, size, display=display, view=view, camera=camera,
                             samples=samples)
    frames = fkine_all(robot, q)
    renderer.frame_camera(frames)
    image = renderer.render(frames, limit_states(robot, np.atleast_2d(q))[0])
    if path is not None and not image.save(str(path)):
        raise OSError(f"could not write the image {path}")
    return image


def render_video(robot, trajectory, path, *, fps: float = 30.0, speed: float = 1.0,
                 size: tuple[int, int] = (1280, 720), view: str = "iso",
                 display: DisplayOptions | None = None, overlays: Overlays | None = None,
                 camera: dict | None = None, samples: int = 4,
                 progress: Callable[[int, int], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> int:
    """Render ``trajectory`` to a video file or image sequence at ``path``.

    Time runs in trajectory seconds (see :func:`robogui.session.video.frame_times`).
    ``progress(done, total)`` after each frame; ``cancel()`` -> True stops (a video file
    is then not written). Returns the number of frames written.
    """
    from robogui.io.video import open_video

    job = VideoJob(robot, trajectory, fps=fps, speed=speed, size=size, view=view,
                   display=display, overlays=overlays, camera=camera, samples=samples)
    writer = open_video(path, job.renderer.size, fps)
    try:
        for i in range(job.total):
            if cancel is not None and cancel():
                writer.abort()
                return i
            writer.append(job.frame(i))
            if progress is not None:
                progress(i + 1, job.total)
    except BaseException:
        writer.abort()
        raise
    writer.close()
    return job.total


class VideoJob:
    """The frames of one video: a :class:`~robogui.session.video.VideoPlan` and a
    :class:`FrameRenderer` with the camera fitted to the whole motion. ``frame(i)`` ->
    (h, w, 3) uint8."""

    def __init__(self, robot, trajectory, *, fps: float = 30.0, speed: float = 1.0,
                 size: tuple[int, int] = (1280, 720), view: str = "iso",
                 display: DisplayOptions | None = None, overlays: Overlays | None = None,
                 camera: dict | None = None, samples: int = 4):
        from robogui.session.video import plan_video

        self.overlays = overlays or Overlays()
        self.plan = plan_video(robot, trajectory, fps=fps, speed=speed,
                               torque=self.overlays.torque)
        self.renderer = FrameRenderer(robot, size, display=display, view=view, camera=camera,
                                      samples=samples)
        keep = self.renderer.motion_points(self.plan.frames)
        if self.overlays.trail:  # every sample's tool point, not only the frames'
            from robogui.session.motion.polyline import screen_segments, tool_path

            segments = screen_segments(tool_path(robot, np.asarray(trajectory.q, float)))
            self.renderer.show_path(segments)
            keep = np.concatenate([keep, segments])
        self.renderer.frame_camera(self.plan.frames[0], keep)
        self.tau_scale = torque_bar_scale(self.plan.tau, self.plan.tau_limit)
        lim = self.plan.tau_limit
        if lim is None or not np.any(np.isfinite(lim)):
            self.renderer.torque_caption = "|torque| / peak"

    @property
    def total(self) -> int:
        return len(self.plan)

    def frame(self, i: int) -> np.ndarray:
        pl = self.plan
        image = self.renderer.render(
            pl.frames[i], pl.limit_state[i], overlays=self.overlays, time=float(pl.times[i]),
            q=pl.q[i], tau=None if pl.tau is None else pl.tau[i], tau_scale=self.tau_scale)
        return image_to_array(image)
