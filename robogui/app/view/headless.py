"""OpenGL without a display: Qt's ``eglfs`` platform on Mesa's surfaceless EGL.

Why ``QT_QPA_PLATFORM=offscreen`` alone cannot render: Qt's offscreen platform creates
OpenGL contexts only through GLX, that is through an X server (its X11 integration,
used when ``DISPLAY`` is set). Without one, ``QOpenGLContext.create()`` fails,
``QOpenGLWindow`` warns "Failed to create context", pyqtgraph's ``initializeGL`` finds
no OpenGL version, and the first ``QOpenGLFramebufferObject`` is built on a null
context: a segmentation fault (exit 139).

What works on a plain Debian/Ubuntu machine and in CI with no X server and no GPU:
Qt's ``eglfs`` platform (shipped in the PySide6 wheel) with its generic device
integration (``QT_QPA_EGLFS_INTEGRATION=none``) on Mesa's *surfaceless* EGL platform
(``EGL_PLATFORM=surfaceless``; llvmpipe renders in software). No window is ever
created: the scene renders through a ``QOffscreenSurface`` into framebuffer objects.
The generic integration insists on opening a framebuffer device to read the screen
size; ``/dev/null`` satisfies it (the size then comes from ``QT_QPA_EGLFS_WIDTH``/
``HEIGHT``). The context is OpenGL ES 3.2 (eglfs asks EGL for window-capable configs,
surfaceless has none, so Qt falls back to a config-less ES context); pyqtgraph and
robogui's shaders run on it unchanged. PyOpenGL is pointed at EGL too
(``PYOPENGL_PLATFORM=egl``) so that it loads functions the way the context was made.

System packages (Debian/Ubuntu): ``libegl1 libegl-mesa0 libgbm1 libgl1-mesa-dri
libopengl0 libgl1 libxkbcommon0 libfontconfig1 fonts-dejavu-core``.

This module imports no Qt: :func:`configure_headless_gl` must run before Qt is loaded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import MutableMapping

__all__ = ["needs_headless_gl", "configure_headless_gl", "HEADLESS_ENV", "SYSTEM_PACKAGES",
           "quiet_qt_messages"]

#: environment of the headless platform (values already set by the user are kept)
HEADLESS_ENV = {
    "QT_QPA_EGLFS_INTEGRATION": "none",  # the generic integration: no KMS, no DRM device
    "QT_QPA_EGLFS_FB": "/dev/null",  # it opens a framebuffer device; any file will do
    "QT_QPA_EGLFS_WIDTH": "1920",
    "QT_QPA_EGLFS_HEIGHT": "1080",
    "QT_QPA_EGLFS_PHYSICAL_WIDTH": "508",  # mm: 96 dpi, as on a desktop
    "QT_QPA_EGLFS_PHYSICAL_HEIGHT": "286",
    "QT_QPA_EGLFS_HIDECURSOR": "1",
    "EGL_PLATFORM": "surfaceless",  # Mesa: EGL without any window system
    "PYOPENGL_PLATFORM": "egl",
}

#: Debian/Ubuntu packages the headless platform needs
SYSTEM_PACKAGES = ("libegl1 libegl-mesa0 libgbm1 libgl1-mesa-dri libopengl0 libgl1 "
                   "libxkbcommon0 libfontconfig1 fonts-dejavu-core")

# harmless start-up chatter of the headless platform, dropped by quiet_qt_messages
_EXPECTED = ("eglconvenience: Could not", "Cannot find EGLConfig, returning null config",
             "Running on a software rasterizer")


def needs_headless_gl(env: MutableMapping[str, str] | None = None) -> bool:
    """Whether rendering must go through the headless platform.

    True when Qt's offscreen platform is asked for (it has no OpenGL without X) or
    when no platform is chosen and there is no display (no ``DISPLAY`` or
    ``WAYLAND_DISPLAY``). A platform chosen by the user (xcb, wayland, eglfs) is kept.
    """
    env = os.environ if env is None else env
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    if platform == "offscreen":
        return True
    if platform:
        return False
    return not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY")


def configure_headless_gl(env: MutableMapping[str, str] | None = None) -> bool:
    """Select the headless OpenGL platform if :func:`needs_headless_gl`; True if selected.

    Must run before Qt and PyOpenGL are imported (they read these variables once).
    """
    env = os.environ if env is None else env
    if not needs_headless_gl(env):
        return False
    if env is os.environ and ("PySide6.QtGui" in sys.modules or "OpenGL.GL" in sys.modules):
        raise RuntimeError("configure_headless_gl must run before Qt and PyOpenGL are imported")
    if not _have_egl():
        raise RuntimeError(
            "there is no display and no EGL library to render without one; install "
            f"{SYSTEM_PACKAGES} (Debian/Ubuntu), or run under an X server (xvfb-run)")
    env["QT_QPA_PLATFORM"] = "eglfs"
    for key, value in HEADLESS_ENV.items():
        env.setdefault(key, value)
    return True


def _have_egl() -> bool:
    import ctypes.util

    return ctypes.util.find_library("EGL") is not None


def quiet_qt_messages() -> None:
    """Drop the headless platform's expected warnings; other Qt messages still print."""
    from PySide6 import QtCore

    def handler(mode, context, message):  # noqa: ARG001
        if not message.startswith(_EXPECTED):
            sys.stderr.write(message + "\n")

    QtCore.qInstallMessageHandler(handler)
