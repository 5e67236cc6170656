"""Where ``package://NAME/...`` and ``$(find NAME)`` point: ROS package resolution
without ROS.

A package NAME is looked up, in order: (1) a folder named NAME among the ancestors of
the robot file; (2) the roots given by the caller (``--package-path``) and the
``ROS_PACKAGE_PATH`` environment variable: a root may be ``NAME=DIR`` (an explicit
mapping), a folder named NAME, or a folder holding NAME a few levels down.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

__all__ = ["PackageResolver"]

_DEPTH = 3  # how deep a root is searched for a folder named NAME


class PackageResolver:
    """Resolves package names and resource URIs for one robot file."""

    def __init__(self, robot_file: str | os.PathLike | None,
                 package_path: Sequence[str] | str | None = ()):
        self.file = None if robot_file is None else Path(robot_file).resolve()
        if isinstance(package_path, (str, os.PathLike)):
            package_path = [str(package_path)]
        roots = [str(p) for p in (package_path or ())]
        env = os.environ.get("ROS_PACKAGE_PATH", "")
        roots += [p for p in env.split(os.pathsep) if p]
        self.mapping: dict[str, Path] = {}
        self.roots: list[Path] = []
        for r in roots:
            name, eq, folder = r.partition("=")
            if eq and name and os.sep not in name and "/" not in name:
                self.mapping[name] = Path(folder).expanduser()
            else:
                self.roots.append(Path(r).expanduser())
        self._cache: dict[str, Path | None] = {}

    def find(self, name: str) -> Path | None:
        """The folder of package ``name``, or None."""
        if name in self._cache:
            return self._cache[name]
        found = self.mapping.get(name)
        if found is None and self.file is not None:
            found = next((p for p in self.file.parents if p.name == name), None)
        if found is None:
            found = next((p for p in map(self._search_root(name), self.roots) if p), None)
        self._cache[name] = found
        return found

    @staticmethod
    def _search_root(name: str):
        def search(root: Path) -> Path | None:
            if root.name == name and root.is_dir():
                return root
            level = [root]
            for _ in range(_DEPTH):
                nxt = []
                for d in level:
                    try:
                        kids = sorted(p for p in d.iterdir() if p.is_dir())
                    except OSError:
                        continue
                    for k in kids:
                        if k.name == name:
                            return k
                    nxt += kids
                level = nxt
            return None

        return search

    @functools.cached_property
    def tree(self) -> Path | None:
        """The robot's folder tree: the file's folder, or the ROS package holding it (the
        nearest of its three closest ancestors with a package.xml), so that a URDF in
        ``urdf/`` reaches ``../meshes``."""
        if self.file is None:
            return None
        for p in list(self.file.parents)[:_DEPTH + 1]:
            if (p / "package.xml").is_file():
                return p
        return self.file.parent

    def allowed_roots(self) -> list[Path]:
        """Folders a file of this robot may be read from: its folder tree, the packages
        found so far, and the folders the user gave (``--package-path``,
        ``ROS_PACKAGE_PATH``)."""
        out = [] if self.tree is None else [self.tree]
        out += list(self.mapping.values()) + self.roots
        ancestors = [] if self.file is None else list(self.file.parents)
        for p in self._cache.values():
            # a package found among the file's ancestors counts when it is one (it has a
            # package.xml) or is close above the file: never /home for package://home/...
            if p is not None and (p not in ancestors or ancestors.index(p) < _DEPTH + 1
                                  or (p / "package.xml").is_file()):
                out.append(p)
        return out

    def resolve(self, uri: str) -> Path | None:
        """A local path for ``package://``, ``file://`` or a relative path; None when the
        package is unknown."""
        if uri.startswith("package://"):
            name, _, rest = uri[len("package://"):].partition("/")
            root = self.find(name)
            return None if root is None else root / rest
        if uri.startswith("file://"):
            return Path(uri[len("file://"):])
        p = Path(uri)
        if not p.is_absolute() and self.file is not None:
            p = self.file.parent / p
        return p
