"""How much work reading one untrusted file may take: time, memory, sizes, counts.

Defaults are generous for real robots and small enough that a hostile file cannot hang
the machine or exhaust its memory (docs/security.md). Each can be raised with an
environment variable (read when robogui starts) or :func:`set_limits`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

__all__ = ["Limits", "limits", "set_limits", "ENV"]


@dataclass(frozen=True)
class Limits:
    #: wall time (s) of expanding one xacro file or loading one mesh
    seconds: float = 10.0
    #: memory (bytes) one xacro expansion or mesh load may add to the process
    memory: int = 2 * 2**30
    #: size (bytes) of a URDF, xacro, SRDF or YAML file, and of an expanded xacro
    xml_bytes: int = 64 * 2**20
    #: size (bytes) of a mesh file, and of what a compressed mesh may inflate to
    mesh_bytes: int = 512 * 2**20
    #: triangles of one mesh (checked before allocating them)
    triangles: int = 5_000_000
    #: links of a URDF (the engine's joint bound is 256; side links count here)
    links: int = 4096


#: the environment variable of each limit (seconds in s, sizes in MiB)
ENV = {"seconds": "ROBOGUI_LIMIT_SECONDS", "memory": "ROBOGUI_LIMIT_MEMORY_MB",
       "xml_bytes": "ROBOGUI_LIMIT_XML_MB", "mesh_bytes": "ROBOGUI_LIMIT_MESH_MB",
       "triangles": "ROBOGUI_LIMIT_TRIANGLES", "links": "ROBOGUI_LIMIT_LINKS"}
_MIB = {"memory", "xml_bytes", "mesh_bytes"}


def _from_env() -> Limits:
    out = Limits()
    for f in fields(Limits):
        text = os.environ.get(ENV[f.name])
        if not text:
            continue
        try:
            value = float(text)
        except ValueError:
            continue
        if not value > 0 or value == float("inf"):
            continue
        value = value * 2**20 if f.name in _MIB else value
        out = replace(out, **{f.name: float(value) if f.name == "seconds" else int(value)})
    return out


_current = [_from_env()]


def limits() -> Limits:
    """The limits in force."""
    return _current[0]


def set_limits(**changes) -> Limits:
    """Change some limits (names of :class:`Limits` fields); returns the previous ones."""
    old = _current[0]
    _current[0] = replace(old, **changes)
    return old
