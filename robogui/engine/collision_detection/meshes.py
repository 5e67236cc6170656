"""Triangle meshes for collision: read once through trimesh (STL, OBJ, DAE, glTF), scene
transforms (and a COLLADA file's unit and up axis) applied, scaled; cached by path, time
and size.

Reading goes through :mod:`robogui.engine.mesh_guard`, as the visuals do: a regular file,
the size and triangle limits of docs/security.md checked before trimesh allocates, the
parse itself in a worker process held to the time limit and the memory budget, the files a
mesh references read inside its own folder. A refused or broken file raises
``ValueError`` naming it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict

import numpy as np

from ..limits import limits
from ..mesh_guard import MeshRefused, read_mesh_arrays

__all__ = ["read_mesh"]

_CACHE: OrderedDict = OrderedDict()
_LOCK = threading.Lock()


def read_mesh(path, scale=(1.0, 1.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """(vertices (v, 3) float64 m, faces (f, 3) int64) of a mesh file, scaled by ``scale``
    (3,). Raises ValueError naming the file when it cannot be read or has no triangles."""
    path = os.fspath(path)
    try:
        st = os.stat(path)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the mesh: {exc.strerror or exc}") from None
    key = (path, st.st_mtime_ns, st.st_size, limits())
    with _LOCK:
        hit = _CACHE.get(key)
    if hit is None:
        try:  # parsed in a bounded worker process (time and memory limits)
            v, f, _ = read_mesh_arrays(path)
        except (OSError, MeshRefused) as exc:
            raise ValueError(f"{path}: mesh refused: {exc}") from None
        except Exception as exc:  # trimesh raises many kinds for a broken file
            if str(exc) == "no triangles in the file":
                raise ValueError(f"{path}: no triangles in the mesh file") from None
            raise ValueError(f"{path}: not a mesh trimesh can read ({exc})") from None
        if not np.all(np.isfinite(v)):  # a finite file scaled by its COLLADA unit
            raise ValueError(f"{path}: a vertex is not a finite number")
        hit = (v, f)
        with _LOCK:
            _CACHE[key] = hit
            while len(_CACHE) > 64:
                _CACHE.popitem(last=False)
    v, f = hit
    return v * np.asarray(scale, dtype=float), f.copy()
