"""Words over the 3D view drawn from pictures made once (view_labels.TextSprites): the picture
stands where drawText would write the word, with its outline, and is made once."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtGui

from robogui.app.view.view_labels import TextSprites


def _pixels(img: QtGui.QImage) -> np.ndarray:
    img = img.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h, bpl = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
    return buf[:, :3 * w].reshape(h, w, 3).astype(int)


def _canvas() -> QtGui.QImage:
    img = QtGui.QImage(160, 60, QtGui.QImage.Format.Format_RGB32)
    img.fill(QtGui.QColor(46, 50, 56))
    return img


def test_a_sprite_writes_what_draw_text_writes_and_is_made_once(qapp):
    font = QtGui.QFont(qapp.font())
    font.setPointSizeF(11.5)
    font.setBold(True)
    sprites = TextSprites()
    x, y = 10.0, 40.0  # the baseline's start

    direct = _canvas()
    p = QtGui.QPainter(direct)
    p.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing)
    p.setFont(font)
    p.setPen(QtGui.QColor(0, 0, 0, 160))
    p.drawText(QtCore.QPointF(x + 2, y + 2), "panda")
    p.setPen(QtGui.QColor("#ffcc66"))
    p.drawText(QtCore.QPointF(x, y), "panda")
    p.end()

    drawn = _canvas()
    p = QtGui.QPainter(drawn)
    p.setFont(font)
    ascent = p.fontMetrics().ascent()
    pm = sprites.get("panda", "#ffcc66", font, p, outline=2, outline_alpha=160)
    p.drawPixmap(QtCore.QPointF(x, y - ascent), pm)
    again = sprites.get("panda", "#ffcc66", font, p, outline=2, outline_alpha=160)
    p.end()

    a, b = _pixels(direct), _pixels(drawn)
    ink = np.abs(a - [46, 50, 56]).max(axis=2) > 40
    assert ink.sum() > 100  # the word is there
    assert np.abs(a - b).max() <= 2  # and the picture writes the same pixels
    assert again is pm and len(sprites) == 1  # made once
    # another colour or outline is another picture
    p = QtGui.QPainter(drawn)
    assert sprites.get("panda", "#ff0000", font, p, outline=2) is not pm
    assert sprites.get("panda", "#ffcc66", font, p, outline=1, outline_alpha=160) is not pm
    p.end()
    assert len(sprites) == 3


def test_old_words_are_forgotten_past_the_limit(qapp):
    sprites = TextSprites(limit=4)
    img = _canvas()
    p = QtGui.QPainter(img)
    for k in range(6):
        sprites.get(f"x {k} mm", "#8f98a6", qapp.font(), p)
    p.end()
    assert len(sprites) <= 5
