"""The runtime file of a listening app: where it listens and its token, readable by the user
only (as Jupyter's ``jupyter_runtime`` files), so a script of the same user can connect.

The file is JSON ``{"url": "ws://127.0.0.1:8765", "host": ..., "port": ..., "token": ...,
"pid": ...}``, created with mode 0600 in a folder of mode 0700:
``$XDG_RUNTIME_DIR/robogui`` when that variable is set, else ``~/.local/share/robogui/runtime``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = ["runtime_dir", "runtime_path", "write_runtime_file", "read_runtime_file", "ws_url"]


def runtime_dir() -> Path:
    """The folder of runtime files (not created here)."""
    base = os.environ.get("XDG_RUNTIME_DIR")
    if base:
        return Path(base) / "robogui"
    return Path.home() / ".local" / "share" / "robogui" / "runtime"


def runtime_path(port: int) -> Path:
    """The default runtime file of an app listening on ``port``."""
    return runtime_dir() / f"robogui-{int(port)}.json"


def ws_url(host: str, port: int) -> str:
    """``ws://host:port`` (IPv6 addresses in brackets)."""
    return f"ws://[{host}]:{port}" if ":" in host else f"ws://{host}:{port}"


def write_runtime_file(path, host: str, port: int, token: str) -> Path:
    """Write the runtime file so that only its owner can read it, atomically; returns it.

    The folder is created with mode 0700; the file is opened with mode 0600 from the start
    (never readable by others, not even for an instant) and renamed into place.
    """
    path = Path(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = json.dumps({"url": ws_url(host, port), "host": host, "port": int(port),
                       "token": token, "pid": os.getpid()}, indent=1)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # whatever the umask
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def read_runtime_file(path) -> dict:
    """The runtime file's fields; ValueError naming the file when it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a robogui runtime file ({exc})") from None
    if not (isinstance(data, dict) and isinstance(data.get("port"), int)
            and isinstance(data.get("token"), str) and isinstance(data.get("host"), str)):
        raise ValueError(f"{path}: not a robogui runtime file (needs host, port and token)")
    return data
