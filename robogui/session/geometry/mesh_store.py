"""Processed mesh arrays kept on disk between runs (issue 27, Speed): opening a robot again
in a new process reads none of its mesh files through trimesh and shades nothing again.

An entry is one ``.npz`` file (numpy's own format, read with ``allow_pickle=False``: no
code runs) in ``$XDG_CACHE_HOME/robogui/meshes`` (default ``~/.cache/robogui/meshes``),
named by a hash of its key. The caller's key says everything the arrays depend on (the
mesh file's content hash, size and modification time, the limits, the format version, ...);
the key is stored inside the entry too and compared when it is read, so an entry copied
under another name is not used. An entry is never trusted: its size, its members'
inflated sizes, names, dtypes and shapes are checked before numpy allocates them, the
caller checks the values (``valid``), and an entry failing any check is deleted (the
caller then computes and writes it again). The folder is bounded (:func:`max_bytes`, the
environment variable ``ROBOGUI_MESH_CACHE_MB``; 0 turns the cache off): the least
recently used entries go first.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import threading
import zipfile
from pathlib import Path

import numpy as np

__all__ = ["FORMAT", "cache_folder", "max_bytes", "key_of", "load", "store", "clear", "ENV"]

#: the layout of the entries; raised when it (or what is computed into them) changes
FORMAT = 2
#: the environment variable bounding the folder, in MiB (0: no disk cache)
ENV = "ROBOGUI_MESH_CACHE_MB"
#: default bound of the folder: the Panda's entries take about 12 MB
DEFAULT_MB = 512
_LOCK = threading.Lock()


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME/robogui/meshes`` (``~/.cache/robogui/meshes`` without it), read
    at each call (tests point it elsewhere)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "robogui" / "meshes"


def max_bytes() -> int:
    """Bytes the folder may hold (``ROBOGUI_MESH_CACHE_MB`` MiB, default 512; 0: off)."""
    text = os.environ.get(ENV, "")
    try:
        mb = float(text) if text else DEFAULT_MB
    except ValueError:
        mb = DEFAULT_MB
    return int(mb * 2**20) if mb > 0 and mb != float("inf") else 0


def _name(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:40] + ".npz"


def _forget(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def load(key: str, spec: dict, valid=None) -> dict | None:
    """The arrays of the entry ``key`` (a string), or None when there is none or it fails a
    check (then it is deleted). ``spec`` maps each array's name to ``(dtype, ndim,
    columns or None)``; names in ``spec`` ending in ``?`` may be missing.
    ``valid(arrays) -> bool`` checks the values."""
    cap = max_bytes()
    if not cap:
        return None
    path = cache_folder() / _name(key)
    try:
        size = path.stat().st_size
    except OSError:
        return None
    try:
        if size > cap:
            raise ValueError("larger than the cache")
        raw = path.read_bytes()
        with zipfile.ZipFile(io.BytesIO(raw)) as z:  # what numpy would inflate, first
            infos = z.infolist()
            if sum(i.file_size for i in infos) > cap or len(infos) > 2 * len(spec) + 1:
                raise ValueError("members too large")
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            names = set(data.files)
            if "key" not in names or bytes(data["key"]).decode("utf-8") != key:
                raise ValueError("another key")
            out = {}
            for name, (dtype, ndim, cols) in spec.items():
                bare = name.rstrip("?")
                if bare not in names:
                    if name.endswith("?"):
                        continue
                    raise ValueError(f"{bare} missing")
                a = data[bare]
                if a.dtype != np.dtype(dtype) or a.ndim != ndim or \
                        (cols is not None and a.shape[-1] != cols):
                    raise ValueError(f"{bare}: {a.dtype} {a.shape}")
                out[bare] = a
            if names - {n.rstrip("?") for n in spec} - {"key"}:
                raise ValueError("unknown arrays")
        if valid is not None and not valid(out):
            raise ValueError("values")
    except Exception:  # corrupt, hostile or of another version: computed again
        _forget(path)
        return None
    try:
        os.utime(path)  # least recently used goes first
    except OSError:
        pass
    return out


def store(key: str, arrays: dict) -> None:
    """Write the entry ``key`` (numpy arrays by name) atomically, then trim the folder to
    :func:`max_bytes` (oldest use first). A folder that cannot be written is no error."""
    cap = max_bytes()
    if not cap:
        return
    folder = cache_folder()
    tmp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, key=np.frombuffer(key.encode("utf-8"), np.uint8), **arrays)
        os.replace(tmp, folder / _name(key))
    except OSError:
        if tmp is not None:
            _forget(Path(tmp))
        return
    _trim(folder, cap)


def _trim(folder: Path, cap: int) -> None:
    with _LOCK:
        entries = []
        for p in folder.glob("*.npz"):
            try:
                st = p.stat()
            except OSError:
                continue
            entries.append((st.st_mtime_ns, st.st_size, p))
        total = sum(s for _, s, _ in entries)
        for _, s, p in sorted(entries, key=lambda e: e[0]):
            if total <= cap:
                break
            _forget(p)
            total -= s


def clear() -> None:
    """Delete every entry (tests; the user's "forget")."""
    for p in cache_folder().glob("*.npz"):
        _forget(p)


def key_of(**parts) -> str:
    """A key string of ``parts`` (JSON-able values), with :data:`FORMAT`."""
    return json.dumps({"format": FORMAT, **parts}, sort_keys=True, default=str)
