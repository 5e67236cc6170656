"""Headless rendering of a robot to an image (needs an X server, e.g. under xvfb-run).

The view is created off screen (``WA_DontShowOnScreen``) at the requested size and
its framebuffer is grabbed: the same renderer as the window, no screen capture.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtGui

from robogui.session.session import DisplayOptions, Session

from .main_window import create_app
from .view3d import RobotView

__all__ = ["render_robot"]


def render_robot(robot, q=None, *, view: str = "iso", size: tuple[int, int] = (1600, 1200),
                 path: str | Path | None = None, display: DisplayOptions | None = None,
                 samples: int = 8) -> QtGui.QImage:
    """Render ``robot`` at ``q`` (default its ready pose) and return the image.

    ``view`` is a camera preset (iso, front, side, top); ``size`` is (width, height) in
    pixels; with ``path`` the image is also written (format from the suffix).
    """
    w, h = (int(v) for v in size)
    if w < 16 or h < 16:
        raise ValueError(f"size must be at least 16x16 pixels, got {w}x{h}")
    app = create_app()
    session = Session(robot, q, display=display)
    widget = RobotView(session, samples=samples)
    widget.setAttribute(QtCore.Qt.WidgetAttribute.WA_DontShowOnScreen)
    widget.resize(w, h)
    widget.show()
    app.processEvents()
    widget.set_camera(view)
    widget.fit_to_robot()
    image = widget.grab_image()
    widget.close()
    widget.deleteLater()
    app.processEvents()
    if image.width() != w or image.height() != h:
        image = image.scaled(w, h, QtCore.Qt.AspectRatioMode.IgnoreAspectRatio,
                             QtCore.Qt.TransformationMode.SmoothTransformation)
    if path is not None and not image.save(str(path)):
        raise OSError(f"could not write the image {path}")
    return image


def image_to_array(image: QtGui.QImage) -> np.ndarray:
    """(h, w, 3) uint8 RGB copy of a QImage."""
    img = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
    return buf[:, : 3 * w].reshape(h, w, 3).copy()
