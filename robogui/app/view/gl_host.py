"""Hosting a pyqtgraph.opengl scene for speed on software GL (Mesa llvmpipe).

* :class:`SceneWindow` is a ``QOpenGLWindow`` with pyqtgraph's ``GLViewMixin``; it
  renders straight into its own native window. A ``QOpenGLWidget`` renders into a
  framebuffer object that Qt then composites with the rest of the top-level window
  and copies to the screen on every frame: on llvmpipe at 1280x800 that alone caps a
  frame loop near 35 fps, where the window path runs an empty scene at ~150 fps.
  :class:`SceneContainer` embeds the window in a widget layout
  (``QWidget.createWindowContainer``) and forwards the scene's interface.
* Antialiasing: on hardware GL every frame is multisampled (4x, an MSAA framebuffer
  object resolved into the window). On software GL a multisampled 1280x800 frame
  costs ~10 ms by itself, so frames that follow each other quickly (a slider drag, an
  orbit) are single-sampled with smoothed lines, and once the scene has been still
  for :attr:`SceneWindow.settle_ms` one multisampled frame replaces the last one.
  Isolated changes (a pose button, a menu) render multisampled at once, except while a
  live stream is followed (:attr:`SceneWindow.streaming`) or a mouse button is held in
  the view (:attr:`SceneWindow.pointer_held`: a handle drag, an orbit), and the first
  frame of a scene just rebuilt (:meth:`SceneWindow.draft_next_frame`: a robot opened
  is seen 0.1-0.2 s sooner, the multisampled frame is drawn right after it). Grabbed
  images are always multisampled.
* Level of detail: such a frame of a moving view (:attr:`SceneWindow.frame_moving`) is
  also the one a scene may draw with lighter meshes
  (:mod:`robogui.session.geometry.level_of_detail`); the settled frame is full again.
* While a live stream is followed, frames are paced (:meth:`SceneWindow.update`): one
  starts no sooner than :attr:`SceneWindow.stream_frame_ms` after the previous one, nor
  sooner than twice the previous frame's duration. The GUI thread then keeps at least
  half of its time for the incoming samples, so a sample waits for a frame in progress
  less often (RViz caps its frame rate the same way, 30 fps by default).
* Updates are coalesced to one frame per event-loop turn, without the platform's
  5 ms update timer (``QT_QPA_UPDATE_IDLE_TIME``, below).
* :func:`plane_covers_viewport` lets a view skip a floor plane that fills the whole
  view (clearing to its colour instead): a full-screen fill is ~3-5 ms on llvmpipe.
"""

from __future__ import annotations

import os
import time

import numpy as np
from OpenGL import GL
from pyqtgraph.opengl.GLViewWidget import GLViewMixin
from pyqtgraph.opengl.items.GLLinePlotItem import GLLinePlotItem
from PySide6 import QtCore, QtGui, QtOpenGL, QtWidgets

__all__ = ["SceneWindow", "SceneContainer", "plane_covers_viewport", "is_software_renderer"]

# QWindow.update() (requestUpdate) waits for a platform timer, 5 ms by default on xcb,
# before it paints: a third of a 60 fps frame. 0 paints on the next event-loop turn,
# still coalescing every update of that turn into one frame. Read by Qt once, at the
# first requestUpdate of the process, so it is set when this module is imported.
os.environ.setdefault("QT_QPA_UPDATE_IDLE_TIME", "0")


def is_software_renderer(renderer: str) -> bool:
    """True for software rasterisers (Mesa llvmpipe, softpipe, swrast, Microsoft GDI)."""
    r = renderer.lower()
    return any(s in r for s in ("llvmpipe", "softpipe", "swrast", "software", "gdi generic"))


def plane_covers_viewport(mvp: np.ndarray, z: float, xlim, ylim) -> bool:
    """Whether the rectangle ``xlim x ylim`` of the plane at height ``z`` fills the view.

    ``mvp`` (4, 4) is projection @ view. The rays through the four viewport corners,
    from the near to the far clip plane, must all hit the rectangle.
    """
    try:
        inv = np.linalg.inv(np.asarray(mvp, float))
    except np.linalg.LinAlgError:
        return False
    corners = np.array([[x, y, d, 1.0] for x in (-1, 1) for y in (-1, 1) for d in (-1, 1)])
    p = corners @ inv.T
    p = p[:, :3] / p[:, 3:4]
    near, far = p[0::2], p[1::2]
    dz = far[:, 2] - near[:, 2]
    if np.any(np.abs(dz) < 1e-12):
        return False
    t = (z - near[:, 2]) / dz
    if np.any(t <= 0) or np.any(t >= 1):
        return False
    hit = near + t[:, None] * (far - near)
    return bool(np.all((hit[:, 0] > xlim[0]) & (hit[:, 0] < xlim[1])
                       & (hit[:, 1] > ylim[0]) & (hit[:, 1] < ylim[1])))


class SceneWindow(GLViewMixin, QtOpenGL.QOpenGLWindow):
    """A pyqtgraph GL scene in a ``QOpenGLWindow`` (see the module notes).

    ``samples``: multisampling of still frames and grabs (0 = off). Subclasses draw
    2D overlays in :meth:`paint_overlay`.
    """

    #: a software-GL frame drawn within this many ms of the previous one is single-sampled
    settle_ms = 120
    #: text size factor for :meth:`paint_overlay` (set by :meth:`render_image`'s ``scale``)
    overlay_scale = 1.0
    #: True while the robot follows a live stream (robogui --listen, Live > Follow): on
    #: software GL every frame is then single-sampled, even when samples come more than
    #: settle_ms apart (a slow or loaded stream would otherwise pay the multisampled
    #: frame, ~10 ms, on each sample); the settled frame still comes once it rests
    streaming = False
    #: while streaming: the shortest time from one frame's start to the next's (30 fps)
    stream_frame_ms = 1000.0 / 30.0
    #: True while a mouse button is held in the view (set by the scene's mouse handlers)
    pointer_held = False
    #: True while a frame of a moving view is painted (software GL: single-sampled, and
    #: the scene may draw its light meshes); False for settled frames and grabs
    frame_moving = False
    #: True when the last frame was a lesser one (single-sampled or light): the settle
    #: timer then draws the full frame once the view is still
    last_frame_reduced = False

    def __init__(self, samples: int = 4):
        share = QtGui.QOpenGLContext.globalShareContext()
        if share is not None:  # share buffers and shaders with off-screen grabs
            super().__init__(share)
        else:
            super().__init__()
        fmt = QtGui.QSurfaceFormat()
        fmt.setDepthBufferSize(24)
        fmt.setSamples(0)  # multisampling goes through our own framebuffer object
        self.setFormat(fmt)
        self.samples = max(0, int(samples))
        self.renderer = ""
        self.software = False
        self.last_frame_multisampled = False
        self._msaa = None  # (size, QOpenGLFramebufferObject)
        self._last_paint = -1e9
        self._settle = QtCore.QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.timeout.connect(self._settled)
        self._settle_pending = False
        self._draft = False  # the next frame single-sampled (draft_next_frame)
        self._off = None  # (QOpenGLContext, QOffscreenSurface) for grabs before exposure
        self._frame_start = -1e9  # perf_counter() at the last paintGL's start
        self._frame_ms = 0.0      # that frame's duration, until its buffers were swapped
        self._paced = QtCore.QTimer(self)
        self._paced.setSingleShot(True)
        self._paced.timeout.connect(self._paced_frame)
        self.frameSwapped.connect(self._frame_done)

    # -- GL setup ------------------------------------------------------------------------
    def initializeGL(self) -> None:  # noqa: N802
        super().initializeGL()
        self.renderer = _gl_string(GL.GL_RENDERER)
        self.software = is_software_renderer(self.renderer)

    # a class default too: Qt can deliver the surface's last event while Python tears the
    # instance's attributes down (the window collected with its container)
    _msaa = None

    def event(self, event) -> bool:
        # the multisampled framebuffer's storage is shared with the app's other contexts
        # (one GL share group for the process): freed here, while the window and its
        # context exist, or it stays for the rest of the process (~12 MB a 1400x900 view)
        if (event.type() == QtCore.QEvent.Type.PlatformSurface
                and event.surfaceEventType()
                == QtGui.QPlatformSurfaceEvent.SurfaceEventType.SurfaceAboutToBeDestroyed
                and self._msaa is not None and self.isValid()):
            self.makeCurrent()
            self._msaa = None
            self.doneCurrent()
        return super().event(event)

    def font(self) -> QtGui.QFont:
        return QtGui.QGuiApplication.font()

    # -- painting ------------------------------------------------------------------------------
    def paint_overlay(self, painter: QtGui.QPainter) -> None:
        """Draw 2D overlays (labels) over the 3D scene; the default draws nothing."""

    def has_overlay(self) -> bool:
        """Whether :meth:`paint_overlay` has anything to draw (skips a QPainter)."""
        return False

    def update(self) -> None:
        """Schedule a frame (coalesced to one per event-loop turn); paced while streaming."""
        if self.streaming and not self._settle_pending:
            gap = max(self.stream_frame_ms, 2.0 * self._frame_ms)
            wait = self._frame_start + gap / 1000.0 - time.perf_counter()
            if wait > 0:
                if not self._paced.isActive():
                    self._paced.start(max(1, int(wait * 1000.0 + 0.999)))
                return
        super().update()

    def _paced_frame(self) -> None:
        QtOpenGL.QOpenGLWindow.update(self)

    def _frame_done(self) -> None:
        self._frame_ms = (time.perf_counter() - self._frame_start) * 1000.0

    def _moving(self) -> bool:
        """Whether the frame to paint now is one of a moving view on software GL: a
        followed stream, a mouse button held, a frame soon after the last, or the
        draft of a scene just rebuilt."""
        if not self.software:
            return False
        if self._draft:  # before a settled frame still to come of the scene before
            return True
        if self._settle_pending:
            return False
        if self.streaming or self.pointer_held:
            return True  # single-sampled (and light) until it rests, however slow
        return (time.perf_counter() - self._last_paint) * 1000.0 <= self.settle_ms

    def draft_next_frame(self) -> None:
        """Draw the next frame as a moving view's (on software GL: single-sampled), and
        the multisampled frame right after it. For the first frame of a scene just
        rebuilt: llvmpipe's multisampled frame (four samples a pixel and the resolving
        blit) cost a Panda's first open 0.1-0.2 s."""
        self._draft = True
        self._settle.stop()  # the scene before's settled frame: this one's follows the draft

    def drew_light(self) -> bool:
        """Whether the last :meth:`paint` drew lighter geometry than the full scene (a
        scene with a level of detail says so; the base draws everything always)."""
        return False

    def paintGL(self) -> None:  # noqa: N802
        self._frame_start = time.perf_counter()
        dpr = self.devicePixelRatio()
        w, h = max(1, round(self.width() * dpr)), max(1, round(self.height() * dpr))
        region = (0, 0, self.width(), self.height())
        moving = self._moving()
        drafted = moving and self._draft
        multisample = self.samples > 0 and not moving
        self._settle_pending = self._draft = False
        self.frame_moving = moving
        # QPainter (the overlay) disables GL_MULTISAMPLE in this context: turn it back on
        GL.glEnable(GL.GL_MULTISAMPLE)
        if multisample:
            fbo = self._msaa_fbo(w, h)
            fbo.bind()
            GL.glViewport(0, 0, w, h)
            self.paint(region=region, viewport=region)
            fbo.release()
            QtOpenGL.QOpenGLFramebufferObject.blitFramebuffer(
                None, QtCore.QRect(0, 0, w, h), fbo, QtCore.QRect(0, 0, w, h),
                GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST)
            GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, self.defaultFramebufferObject())
        else:
            GL.glViewport(0, 0, w, h)
            self.paint(region=region, viewport=region)
        self.frame_moving = False
        self.last_frame_reduced = moving and (self.samples > 0 or self.drew_light())
        if self.last_frame_reduced:
            # the full frame once still; after a draft at once (nothing is moving)
            self._settle.start(0 if drafted else self.settle_ms)
        self.last_frame_multisampled = multisample
        self._last_paint = time.perf_counter()
        if self.has_overlay():
            painter = QtGui.QPainter(self)
            self.paint_overlay(painter)
            painter.end()

    def _settled(self) -> None:
        if self.last_frame_reduced:
            self._settle_pending = True
            self.update()

    def _msaa_fbo(self, w: int, h: int) -> QtOpenGL.QOpenGLFramebufferObject:
        if self._msaa is None or self._msaa[0] != (w, h):
            fmt = QtOpenGL.QOpenGLFramebufferObjectFormat()
            fmt.setAttachment(QtOpenGL.QOpenGLFramebufferObject.Attachment.CombinedDepthStencil)
            fmt.setSamples(self.samples)
            self._msaa = ((w, h), QtOpenGL.QOpenGLFramebufferObject(w, h, fmt))
        return self._msaa[1]

    # -- grabbing -------------------------------------------------------------------------------
    def render_image(self, width: int | None = None, height: int | None = None,
                     samples: int | None = None, scale: float = 1.0,
                     moving: bool = False) -> QtGui.QImage:
        """Render the scene now into an image (multisampled), overlays included.

        Works before the window is shown (an off-screen context sharing its resources).
        ``scale`` multiplies line widths and the overlay's text (:attr:`overlay_scale`):
        pictures larger than the screen stay as legible as the view. ``moving``: drawn
        as a frame of a moving view (light meshes where the scene has them), for tests;
        pictures are always drawn whole.
        """
        w = max(1, int(width or self.width()))
        h = max(1, int(height or self.height()))
        if (w, h) != (self.width(), self.height()):
            self.resize(w, h)  # the projection and the labels follow the window's size
        samples = self.samples if samples is None else samples
        if self.isValid():
            self.makeCurrent()
        else:
            self._make_offscreen_current()
        for item in self.items:
            if not item.isInitialized():
                item.initialize()
        fmt = QtOpenGL.QOpenGLFramebufferObjectFormat()
        fmt.setAttachment(QtOpenGL.QOpenGLFramebufferObject.Attachment.CombinedDepthStencil)
        fmt.setSamples(samples)
        fbo = QtOpenGL.QOpenGLFramebufferObject(w, h, fmt)
        fbo.bind()
        GL.glEnable(GL.GL_MULTISAMPLE)  # a QPainter on the window may have disabled it
        GL.glViewport(0, 0, w, h)
        lines = [it for it in self.items if isinstance(it, GLLinePlotItem)] if scale != 1 else []
        widths = [it.width for it in lines]
        for it in lines:
            it.width = it.width * scale
        self.frame_moving = bool(moving)
        try:
            self.paint(region=(0, 0, w, h), viewport=(0, 0, w, h))
        finally:
            self.frame_moving = False
            for it, width in zip(lines, widths, strict=True):
                it.width = width
        fbo.release()
        image = fbo.toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)
        del fbo
        if self.has_overlay():
            self.overlay_scale = float(scale)
            painter = QtGui.QPainter(image)
            try:
                self.paint_overlay(painter)
            finally:
                painter.end()
                self.overlay_scale = 1.0
        return image

    def _make_offscreen_current(self) -> None:
        if self._off is None:
            ctx = QtGui.QOpenGLContext(self)  # owned by the window: freed with it
            share = QtGui.QOpenGLContext.globalShareContext()
            if share is not None:
                ctx.setShareContext(share)
            ctx.setFormat(self.requestedFormat())
            if not ctx.create():
                raise RuntimeError("could not create an OpenGL context")
            surface = QtGui.QOffscreenSurface(None, self)
            surface.setFormat(ctx.format())
            surface.create()
            self._off = (ctx, surface)
        ctx, surface = self._off
        ctx.makeCurrent(surface)
        if not self.renderer:
            self.renderer = _gl_string(GL.GL_RENDERER)
            self.software = is_software_renderer(self.renderer)


def _gl_string(name) -> str:
    s = GL.glGetString(name)
    return s.decode(errors="replace") if isinstance(s, bytes) else str(s or "")


class SceneContainer(QtWidgets.QWidget):
    """A widget holding a :class:`SceneWindow` (``self.scene``).

    Attributes the widget does not have are read from the scene, so the container is
    used like the scene itself (``items``, ``opts``, ``addItem``, ``frameSwapped``, ...).
    """

    def __init__(self, scene: SceneWindow, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self.scene = scene
        # the container owns (and deletes) the window: tell Python so, or Python would
        # delete the window first when both are collected at exit
        QtCore.QObject.setParent(scene, self)
        self._box = QtWidgets.QWidget.createWindowContainer(scene, self)
        self._box.setFocusPolicy(QtCore.Qt.FocusPolicy.ClickFocus)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self._box)
        scene.resize(self.size())  # a size before the first show (grabs of hidden views)

    def __getattr__(self, name: str):
        # only called for names the widget lacks: the scene's interface
        if name in ("scene", "_box"):
            raise AttributeError(name)
        return getattr(self.scene, name)

    def update(self, *args) -> None:
        """Schedule a repaint of the scene (coalesced: one per event-loop turn)."""
        self.scene.update()
        if args:
            super().update(*args)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        # the scene's size is also right before the native window is mapped (grabs)
        self.scene.resize(event.size())
