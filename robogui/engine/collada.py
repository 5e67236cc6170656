"""Mesh files read as their makers meant them: COLLADA's ``<unit>`` and ``<up_axis>``
applied, and bytes after ``</COLLADA>`` ignored.

trimesh (through pycollada) reads a DAE file's geometry as written and ignores both
header fields, so a model in millimetres (``<unit meter="0.001">``, the myCobot 630) is
drawn 1000 times too large and a ``Y_UP`` model lies on its side; and an XML parser
refuses a file with bytes after the root element (KUKA's LBR iiwa 14 base), which
assimp-based tools (RViz, Pinocchio's loaders) read. :func:`trim_collada` gives
the bytes to parse and the transform that puts the mesh in metres and z up, as assimp does.
"""

from __future__ import annotations

import re

import numpy as np

__all__ = ["trim_collada", "collada_frame"]

_END = b"</COLLADA>"
# the rotation that turns the file's up axis into z (a quarter turn about x or y)
_UP = {"Z_UP": np.eye(3),
       "Y_UP": np.array([[1.0, 0, 0], [0, 0, -1], [0, 1, 0]]),
       "X_UP": np.array([[0.0, 0, -1], [0, 1, 0], [1, 0, 0]])}


def collada_frame(head: bytes) -> np.ndarray:
    """The 4x4 transform (scale, then the up axis turned to z) that a COLLADA document's
    ``<asset>`` asks for; identity when it asks for nothing, or for nonsense (a unit that
    is not a positive finite number)."""
    T = np.eye(4)
    asset = re.search(rb"<asset\b.*?</asset>", head, re.S)
    text = asset.group(0) if asset else b""
    unit = re.search(rb"<unit\b[^>]*\bmeter\s*=\s*[\"']([^\"']+)[\"']", text)
    scale = 1.0
    if unit:
        try:
            scale = float(unit.group(1))
        except ValueError:
            scale = 1.0
        if not (np.isfinite(scale) and scale > 0):
            scale = 1.0
    up = re.search(rb"<up_axis>\s*([XYZ]_UP)\s*</up_axis>", text)
    R = _UP.get(up.group(1).decode(), np.eye(3)) if up else np.eye(3)
    T[:3, :3] = R * scale
    return T


def trim_collada(raw: bytes) -> tuple[bytes, np.ndarray]:
    """(the document cut after its ``</COLLADA>``, the 4x4 transform its ``<asset>`` asks
    for) of a COLLADA file's bytes."""
    end = raw.rfind(_END)
    if end >= 0:
        raw = raw[:end + len(_END)]
    return raw, collada_frame(raw[:65536])
