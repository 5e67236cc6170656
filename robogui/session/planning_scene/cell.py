"""The work cell: named objects (box, cylinder, sphere, capsule, mesh) placed in the world,
the robot's base pose in the cell, and the floor. Immutable, like ``Robot``.

Every edit returns a new :class:`Cell` (``with_object``, ``without``, ``replaced``), so the
app's undo stack can hold cells as values. Objects are placed by ``xyz`` (m) and ``rpy``
(rad, roll-pitch-yaw about fixed x, y, z: ``R = Rz(yaw) Ry(pitch) Rx(roll)``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace

import numpy as np

from robogui.engine.bounds import MAX_ANGLE, MAX_LENGTH
from robogui.engine.spatial.transforms import rpy2tr

__all__ = ["Cell", "CellObject", "SHAPES", "MAX_OBJECTS", "pose_matrix"]

SHAPES = ("box", "cylinder", "sphere", "capsule", "mesh")
#: objects in one cell
MAX_OBJECTS = 10_000
#: sizes (m): below this an object is a typo, not a part
MIN_SIZE = 1e-6
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SIZE_WORDS = {"box": "size = [x, y, z] full extents", "cylinder": "radius and length",
               "capsule": "radius and length", "sphere": "radius", "mesh": "no size (scale)"}


def pose_matrix(xyz, rpy) -> np.ndarray:
    """The 4x4 transform of a position ``xyz`` (3,) m and roll-pitch-yaw ``rpy`` (3,) rad."""
    T = rpy2tr(*[float(a) for a in rpy])
    T[:3, 3] = [float(x) for x in xyz]
    return T


def _vector(value, n: int, what: str, limit: float, positive: bool = False) -> tuple:
    try:
        arr = np.asarray(value, dtype=float).reshape(-1)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{what} must be {n} numbers, got {value!r}") from None
    if arr.shape != (n,):
        raise ValueError(f"{what} must be {n} numbers, got {value!r}")
    if not np.all(np.isfinite(arr)) or np.any(np.abs(arr) > limit):
        raise ValueError(f"{what} must be finite numbers of magnitude at most {limit:g}, "
                         f"got {value!r}")
    if positive and np.any(arr < MIN_SIZE):
        raise ValueError(f"{what} must be positive (at least {MIN_SIZE:g} m), got {value!r}")
    return tuple(float(x) for x in arr)


@dataclass(frozen=True)
class CellObject:
    """One object of the cell.

    name : unique within the cell (collision pairs name it).
    shape : "box", "cylinder", "sphere", "capsule" or "mesh".
    size : box (x, y, z) full extents; cylinder and capsule (radius, length) with the axis
        along the object's z (a capsule's length is that of its cylinder part, the caps
        add a radius at each end, as coal's); sphere (radius,); mesh () (m).
    xyz, rpy : pose in the world, m and rad.
    color : "#rrggbb".
    collides : False for decoration the checks ignore.
    hidden : not drawn in the view (it still collides unless ``collides`` is False).
    file : a mesh's file (absolute path once loaded; relative to the cell file in it).
    scale : a mesh's scale factors (3,).
    mesh : a mesh's (vertices (v, 3) m, faces (f, 3) int), read-only, loaded with the cell.
    """

    name: str
    shape: str
    size: tuple = ()
    xyz: tuple = (0.0, 0.0, 0.0)
    rpy: tuple = (0.0, 0.0, 0.0)
    color: str = "#8a8f98"
    collides: bool = True
    hidden: bool = False
    file: str = ""
    scale: tuple = (1.0, 1.0, 1.0)
    mesh: tuple | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 200:
            raise ValueError(f"name must be non-empty text of at most 200 characters, "
                             f"got {self.name!r}")
        if self.shape not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}, got {self.shape!r}")
        n = {"box": 3, "cylinder": 2, "capsule": 2, "sphere": 1, "mesh": 0}[self.shape]
        size = self.size if not isinstance(self.size, (int, float)) else (self.size,)
        set_ = object.__setattr__
        set_(self, "size", _vector(size, n, f"size ({_SIZE_WORDS[self.shape]})", MAX_LENGTH,
                                   positive=True) if n else ())
        if n == 0 and len(tuple(size)):
            raise ValueError(f"a mesh has no size (give scale), got size {self.size!r}")
        set_(self, "xyz", _vector(self.xyz, 3, "xyz", MAX_LENGTH))
        set_(self, "rpy", _vector(self.rpy, 3, "rpy", MAX_ANGLE))
        set_(self, "scale", _vector(self.scale, 3, "scale", 1e3, positive=True))
        if not isinstance(self.color, str) or not _COLOR.match(self.color):
            raise ValueError(f"color must be '#rrggbb', got {self.color!r}")
        if not isinstance(self.collides, (bool, np.bool_)):
            raise ValueError(f"collides must be true or false, got {self.collides!r}")
        set_(self, "collides", bool(self.collides))
        if not isinstance(self.hidden, (bool, np.bool_)):
            raise ValueError(f"hidden must be true or false, got {self.hidden!r}")
        set_(self, "hidden", bool(self.hidden))
        if self.shape == "mesh":
            if not self.file:
                raise ValueError("a mesh needs its file")
            if self.mesh is not None:
                set_(self, "mesh", _checked_mesh(self.mesh))
        elif self.file:
            raise ValueError(f"only a mesh has a file, not a {self.shape}")

    @property
    def T(self) -> np.ndarray:
        """Pose in the world, (4, 4)."""
        return pose_matrix(self.xyz, self.rpy)

    @property
    def radius(self) -> float:
        """Radius of a sphere about the object's origin holding all of it (m)."""
        if self.shape == "box":
            return 0.5 * math.sqrt(sum(s * s for s in self.size))
        if self.shape == "sphere":
            return self.size[0]
        if self.shape == "cylinder":
            return math.hypot(self.size[0], self.size[1] / 2)
        if self.shape == "capsule":
            return self.size[0] + self.size[1] / 2
        if self.mesh is None:
            return 0.0
        return float(np.max(np.linalg.norm(self.mesh[0], axis=1))) if len(self.mesh[0]) else 0.0

    def moved(self, xyz=None, rpy=None) -> CellObject:
        """The object at another pose (unchanged parts kept)."""
        return replace(self, xyz=self.xyz if xyz is None else xyz,
                       rpy=self.rpy if rpy is None else rpy)


def _checked_mesh(mesh) -> tuple:
    try:
        v, f = mesh
        v = np.array(v, dtype=float)
        f = np.array(f, dtype=np.int64)
    except (TypeError, ValueError):
        raise ValueError("mesh must be (vertices (v, 3), faces (f, 3))") from None
    if v.ndim != 2 or v.shape[1] != 3 or f.ndim != 2 or f.shape[1] != 3 or not len(f):
        raise ValueError(f"mesh must be (vertices (v, 3), faces (f, 3)), got shapes "
                         f"{v.shape}, {f.shape}")
    if not np.all(np.isfinite(v)) or (f.size and (f.min() < 0 or f.max() >= len(v))):
        raise ValueError("mesh has non-finite vertices or faces naming missing vertices")
    v.setflags(write=False)
    f.setflags(write=False)
    return v, f


@dataclass(frozen=True)
class Cell:
    """A work cell: objects, the robot's base pose in it, the floor.

    objects : tuple of :class:`CellObject`, names unique.
    robot : the robot to use (library name or a path relative to the cell file), or "".
    base_xyz, base_rpy : where the robot's base stands in the world (m, rad); the robot's
        own base transform follows it.
    floor : whether the floor (the plane z = ``floor_z``, world up = +z) collides; the
        robot's base and first link stand on it and are not checked against it.
    name : shown in the app.
    """

    objects: tuple = ()
    robot: str = ""
    base_xyz: tuple = (0.0, 0.0, 0.0)
    base_rpy: tuple = (0.0, 0.0, 0.0)
    floor: bool = True
    floor_z: float = 0.0
    name: str = ""

    def __post_init__(self):
        objs = tuple(self.objects)
        if len(objs) > MAX_OBJECTS:
            raise ValueError(f"a cell holds at most {MAX_OBJECTS} objects, got {len(objs)}")
        seen = set()
        for k, o in enumerate(objs):
            if not isinstance(o, CellObject):
                raise ValueError(f"objects[{k}] must be a CellObject, got {type(o).__name__}")
            if o.name in seen:
                raise ValueError(f"object name {o.name!r} is used twice; names must be unique")
            seen.add(o.name)
        set_ = object.__setattr__
        set_(self, "objects", objs)
        set_(self, "base_xyz", _vector(self.base_xyz, 3, "base xyz", MAX_LENGTH))
        set_(self, "base_rpy", _vector(self.base_rpy, 3, "base rpy", MAX_ANGLE))
        set_(self, "floor_z", _vector([self.floor_z], 1, "floor_z", MAX_LENGTH)[0])
        if not isinstance(self.floor, (bool, np.bool_)):
            raise ValueError(f"floor must be true or false, got {self.floor!r}")
        set_(self, "floor", bool(self.floor))
        if not isinstance(self.robot, str) or not isinstance(self.name, str):
            raise ValueError("robot and name must be text")

    @property
    def base(self) -> np.ndarray:
        """The robot's base pose in the world, (4, 4)."""
        return pose_matrix(self.base_xyz, self.base_rpy)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.objects)

    def object(self, name: str) -> CellObject:
        """The object called ``name`` (ValueError naming the known ones if none)."""
        for o in self.objects:
            if o.name == name:
                return o
        raise ValueError(f"the cell has no object {name!r} (objects: "
                         f"{', '.join(self.names) or 'none'})")

    def with_object(self, obj: CellObject) -> Cell:
        """The cell with ``obj`` added, or replacing the object of the same name."""
        objs = [obj if o.name == obj.name else o for o in self.objects]
        if obj.name not in self.names:
            objs.append(obj)
        return replace(self, objects=tuple(objs))

    def without(self, name: str) -> Cell:
        """The cell without the object ``name``."""
        self.object(name)
        return replace(self, objects=tuple(o for o in self.objects if o.name != name))

    def renamed(self, old: str, new: str) -> Cell:
        """The cell with object ``old`` called ``new`` (ValueError if taken)."""
        obj = self.object(old)
        if new != old and new in self.names:
            raise ValueError(f"an object is already called {new!r}")
        return replace(self, objects=tuple(replace(obj, name=new) if o.name == old else o
                                           for o in self.objects))

    def replaced(self, **changes) -> Cell:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def unique_name(self, stem: str) -> str:
        """``stem``, or ``stem 2``, ``stem 3`` ... whichever no object has yet."""
        if stem not in self.names:
            return stem
        k = 2
        while f"{stem} {k}" in self.names:
            k += 1
        return f"{stem} {k}"
