"""Persistent preferences with QSettings: window geometry and docks, units, recent files,
package folders."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from robogui.session.session import DisplayOptions

__all__ = ["Settings", "MAX_RECENT", "PERSISTED_DISPLAY"]

MAX_RECENT = 8
#: display options remembered between runs (the rest start at their defaults)
PERSISTED_DISPLAY = ("angle_unit", "length_unit", "orientation", "wrist_labels", "projection",
                     "show_floor", "show_shadow", "show_base", "show_link_frames", "show_name",
                     "mag")


class Settings:
    """robogui's QSettings (organisation and application "robogui"), or the one given."""

    def __init__(self, qsettings: QtCore.QSettings | None = None):
        self.q = qsettings if qsettings is not None else QtCore.QSettings("robogui", "robogui")

    # -- window ------------------------------------------------------------------------------
    def save_window(self, window: QtWidgets.QMainWindow) -> None:
        self.q.setValue("window/geometry", window.saveGeometry())
        self.q.setValue("window/state", window.saveState())

    def save_dock_visibility(self, docks) -> None:
        """Remember which of ``docks`` (built after the layout is restored) are shown."""
        for dock in docks:
            self.q.setValue(f"docks/{dock.objectName()}", not dock.isHidden())

    def dock_visible(self, dock, default: bool = True) -> bool:
        """Whether ``dock`` was shown when the window last closed (``default`` if unknown)."""
        raw = self.q.value(f"docks/{dock.objectName()}")
        if raw is None:
            return default
        return raw if isinstance(raw, bool) else str(raw).lower() in ("true", "1")

    def restore_window(self, window: QtWidgets.QMainWindow) -> bool:
        """Restore geometry and dock layout; False when nothing was saved."""
        geometry = self.q.value("window/geometry")
        state = self.q.value("window/state")
        ok = False
        if isinstance(geometry, QtCore.QByteArray) and not geometry.isEmpty():
            ok = window.restoreGeometry(geometry)
        if isinstance(state, QtCore.QByteArray) and not state.isEmpty():
            ok = window.restoreState(state) and ok
        return ok

    # -- display options and units ---------------------------------------------------------------
    def save_display(self, display: DisplayOptions) -> None:
        for name in PERSISTED_DISPLAY:
            self.q.setValue(f"display/{name}", getattr(display, name))

    def load_display(self, display: DisplayOptions) -> None:
        """Apply saved options; values that no longer validate are ignored."""
        values = {}
        for name in PERSISTED_DISPLAY:
            raw = self.q.value(f"display/{name}")
            if raw is None:
                continue
            default = display.field(name).default
            if isinstance(default, bool):
                raw = raw if isinstance(raw, bool) else str(raw).lower() in ("true", "1")
            elif isinstance(default, float):  # some QSettings backends give strings back
                try:
                    raw = float(raw)
                except (TypeError, ValueError):
                    continue
            try:
                display.field(name).check(raw)
            except (ValueError, TypeError):
                continue
            values[name] = raw
        display.update(**values)

    # -- recent files ------------------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        raw = self.q.value("recent/files", [])
        if isinstance(raw, str):  # QSettings gives a lone string for a one-element list
            raw = [raw] if raw else []
        return [str(p) for p in (raw or [])]

    def add_recent(self, path: str | Path) -> list[str]:
        """Put ``path`` first in the recent files (absolute, no duplicates, at most MAX_RECENT)."""
        p = str(Path(path).resolve())
        files = [p] + [f for f in self.recent_files() if f != p]
        files = files[:MAX_RECENT]
        self.q.setValue("recent/files", files)
        return files

    def recent_cells(self) -> list[str]:
        """Work cells (.cell) opened or saved lately, newest first (absolute paths)."""
        raw = self.q.value("recent/cells", [])
        if isinstance(raw, str):
            raw = [raw] if raw else []
        return [str(p) for p in (raw or [])]

    def add_recent_cell(self, path: str | Path) -> list[str]:
        """Put the cell file ``path`` first in the recent cells (at most MAX_RECENT)."""
        p = str(Path(path).resolve())
        files = ([p] + [f for f in self.recent_cells() if f != p])[:MAX_RECENT]
        self.q.setValue("recent/cells", files)
        return files

    # -- the robot of the last session -------------------------------------------------------------
    def last_robot(self) -> str | None:
        """The library name or robot file (absolute path) open when robogui last closed."""
        value = self.q.value("robot/last", "")
        return str(value) if value else None

    def set_last_robot(self, name_or_path: str | Path | None) -> None:
        """Remember the robot to reopen at the next start (None: a robot made in the app,
        which has no file: the next start opens the default)."""
        if name_or_path:
            self.q.setValue("robot/last", str(name_or_path))
        else:
            self.q.remove("robot/last")

    # -- poses the user saved, per robot -----------------------------------------------------------
    @staticmethod
    def _robot_key(robot) -> str:
        return f"{robot.name or 'unnamed'} ({robot.n} joints)"

    def poses(self, robot) -> dict[str, list[float]]:
        """The poses saved for ``robot`` (by its name and joint count): {name: q (n,)}."""
        raw = self.q.value("poses/saved", "")
        try:
            table = json.loads(raw) if raw else {}
            saved = table.get(self._robot_key(robot), {})
            return {str(k): [float(x) for x in v] for k, v in saved.items()
                    if isinstance(v, list) and len(v) == robot.n}
        except (ValueError, TypeError, AttributeError):
            return {}  # a settings file edited by hand: no saved poses rather than a crash

    def save(self, robot, name: str, q) -> None:
        """Keep ``q`` (n,) as the pose ``name`` of ``robot`` (replacing one so named)."""
        raw = self.q.value("poses/saved", "")
        try:
            table = json.loads(raw) if raw else {}
            if not isinstance(table, dict):
                table = {}
        except ValueError:
            table = {}
        key = self._robot_key(robot)
        poses = dict(table.get(key, {})) if isinstance(table.get(key), dict) else {}
        poses[str(name)] = [float(v) for v in q]
        table[key] = poses
        self.q.setValue("poses/saved", json.dumps(table))

    # -- URDF tips ---------------------------------------------------------------------------------
    def tip_for(self, path: str | Path) -> str | None:
        """The tip link last chosen for the URDF/xacro file ``path``, or None."""
        tips = self.q.value("urdf/tips", {})
        tip = tips.get(str(Path(path).resolve())) if isinstance(tips, dict) else None
        return str(tip) if tip else None

    def remember_tip(self, path: str | Path, tip: str) -> None:
        """Remember ``tip`` for ``path`` (the chooser offers it first next time). At
        most MAX_RECENT * 4 files are kept, this one always."""
        tips = self.q.value("urdf/tips", {})
        tips = dict(tips) if isinstance(tips, dict) else {}
        key = str(Path(path).resolve())
        tips.pop(key, None)
        tips[key] = str(tip)
        self.q.setValue("urdf/tips", dict(list(tips.items())[-MAX_RECENT * 4:]))

    def xacro_args_for(self, path: str | Path) -> dict[str, str]:
        """The xacro arguments last given for the file ``path`` (NAME -> VALUE)."""
        every = self.q.value("xacro/args", {})
        got = every.get(str(Path(path).resolve())) if isinstance(every, dict) else None
        return {str(k): str(v) for k, v in got.items()} if isinstance(got, dict) else {}

    def remember_xacro_args(self, path: str | Path, args: dict[str, str]) -> None:
        """Remember ``args`` for ``path`` (the dialog fills them in next time); at most
        MAX_RECENT * 4 files are kept, this one always."""
        every = self.q.value("xacro/args", {})
        every = dict(every) if isinstance(every, dict) else {}
        key = str(Path(path).resolve())
        every.pop(key, None)
        every[key] = {str(k): str(v) for k, v in args.items()}
        self.q.setValue("xacro/args", dict(list(every.items())[-MAX_RECENT * 4:]))

    # -- package folders (Settings > Package folders) ----------------------------------------
    def package_folders(self) -> list[str]:
        """The folders (or NAME=DIR) remembered for package://NAME and $(find NAME)."""
        raw = self.q.value("packages/folders", [])
        if isinstance(raw, str):  # QSettings gives a lone string for a one-element list
            raw = [raw] if raw else []
        return [str(p) for p in (raw or []) if str(p)]

    def set_package_folders(self, folders) -> None:
        """Remember ``folders`` (in order, no duplicates, at most 64)."""
        out: list[str] = []
        for f in folders:
            if str(f) and str(f) not in out:
                out.append(str(f))
        self.q.setValue("packages/folders", out[:64])

    def sync(self) -> None:
        self.q.sync()
