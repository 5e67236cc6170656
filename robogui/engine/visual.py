"""Visual geometry of a robot: meshes and primitives placed in link frames.

The description holds file paths and placements only; loading triangles is the app's
job (the 3D view builds them once per robot and moves them by the link transforms).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Visual"]

KINDS = ("mesh", "box", "cylinder", "sphere")


@dataclass(frozen=True)
class Visual:
    """One piece of visual geometry.

    frame : index into ``fkine_all``: 0 the base (root link), j the frame of link j.
    kind : "mesh", "box", "cylinder" (along z) or "sphere".
    T : placement in that frame, a 4x4 tuple of tuples (metres).
    filename : the mesh file, resolved to a local path when found, else as written.
    uri : the mesh reference as written in the file (``package://...``), for messages.
    scale : mesh scale factors (3,).
    size : box (x, y, z); cylinder (radius, length); sphere (radius,) in metres.
    rgba : material colour (4 values in [0, 1]) or None (the view picks one).
    link : name of the link this geometry belongs to (URDF), for messages.
    """

    frame: int
    kind: str
    T: tuple
    filename: str = ""
    uri: str = ""
    scale: tuple = (1.0, 1.0, 1.0)
    size: tuple = ()
    rgba: tuple | None = None
    link: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        T = np.asarray(self.T, dtype=float)
        if T.shape != (4, 4) or not np.all(np.isfinite(T)):
            raise ValueError(f"T must be a finite 4x4 transform, got {self.T!r}")
        object.__setattr__(self, "T", tuple(tuple(float(x) for x in r) for r in T))

    @property
    def matrix(self) -> np.ndarray:
        """The placement as a (4, 4) array."""
        return np.array(self.T)
