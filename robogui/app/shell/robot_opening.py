"""Opening robots in the main window: the library or a file (URDF/xacro with its tip and
xacro arguments asked when needed, MJCF, TOML, legacy), the last robot at start, Robot >
Choose tip link, the recent files menu, and where the current robot came from.

:class:`RobotOpening` is a mixin of :class:`~.main_window.MainWindow`; it uses the
window's ``session``, ``settings``, ``error_presenter``, ``picker``, ``status``, ``undo``,
``recent_menu`` and ``_on_robot``.
"""

from __future__ import annotations

from pathlib import Path

from ..files import library

__all__ = ["RobotOpening"]


class RobotOpening:
    """Robot > Open, recent files, the tip chooser and the robot's origin."""

    library_name: str | None = None
    robot_path: str | None = None

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.settings.recent_files()
        for path in files:
            self.recent_menu.addAction(Path(path).name, lambda p=path: self.open_robot(p)
                                       ).setToolTip(path)
        self.recent_menu.setEnabled(bool(files))

    def open_robot(self, name_or_path: str | Path) -> bool:
        """Load a library robot or file; on failure show the error and keep the robot."""
        self.opening = name_or_path  # what "Locate package NAME..." opens again
        ok = library.load_into_session(
            self.session, name_or_path, self.error_presenter,
            lambda p, c: library.ask_tip(self, p, c, self.settings.tip_for(p)),
            self.settings.tip_for, self._ask_xacro_args)
        if ok:
            self.set_origin(name_or_path)
            if self.robot_path is not None:
                self.settings.add_recent(self.robot_path)
                if self.session.robot.tip:  # offered first when the file is opened again
                    self.settings.remember_tip(self.robot_path, self.session.robot.tip)
        return ok

    def _ask_xacro_args(self, path: str, declared: dict) -> dict | None:
        """The xacro arguments dialog, filled with the values given last time (kept)."""
        from robogui.app.files.xacro_args import ask_xacro_args

        args = ask_xacro_args(self, path, declared, self.settings.xacro_args_for(path))
        if args is not None:
            self.settings.remember_xacro_args(path, args)
        return args

    def reopen_last_robot(self) -> bool:
        """At start: open the robot that was open when robogui last closed (the user guide
        promises it), not as an undoable step. A file that is gone or no longer reads is
        said in the status bar and the current robot stays. True when it was opened."""
        last = self.settings.last_robot()
        if not last or last in (self.robot_path, self.library_name):
            return False
        if last not in self.picker.names and not Path(last).is_file():
            self.status.showMessage(f"The last robot, {last}, is not there any more", 15000)
            return False

        def say(title: str, text: str) -> None:
            self.status.showMessage(f"Could not reopen the last robot: {text}", 15000)

        with self.undo.paused():
            ok = library.load_into_session(self.session, last, say,
                                           lambda p, c: self.settings.tip_for(p))
            if ok:
                self.set_origin(last)
        return ok

    def choose_tip(self) -> bool:
        """Robot > Choose tip link: every place the file's arm can end, with its joint
        count (typing picks too); the choice reopens the file and is remembered for it."""
        path = self.robot_path
        if not path or Path(path).suffix.lower() not in library.TIP_SUFFIXES:
            self.error_presenter("Choose tip link", "the robot does not come from a URDF, "
                                 "xacro or MJCF file: its chain has no other end")
            return False
        try:
            _, choices = library.tip_choices(path)
        except library.RobotFileError as exc:
            self.error_presenter("Choose tip link", str(exc))
            return False
        tip = library.ask_tip(self, path, choices, self.session.robot.tip)
        if tip is None:
            return False
        previous = self.settings.tip_for(path)
        self.settings.remember_tip(path, tip)
        if self.open_robot(path):
            return True
        if previous:  # a typed name that is no link: keep what worked
            self.settings.remember_tip(path, previous)
        return False

    def set_origin(self, name_or_path: str | Path) -> None:
        """Record where the session's robot came from (library name or file)."""
        text = str(name_or_path)
        is_library = text in self.picker.names and not Path(text).is_file()
        self.library_name = text if is_library else None
        self.robot_path = None if is_library else str(Path(text).resolve())
        self.show_origin()
        self._on_robot(self.session.robot)
        self.undo.note_origin()

    def show_origin(self) -> None:
        """The robot picker shows the library entry, or the file robot's name and file."""
        other = self.session.robot.name or "unnamed robot"
        if self.robot_path:
            other = f"{other} ({Path(self.robot_path).name})"
        self.picker.show_library_name(self.library_name, other)

    def _restore_origin(self, origin) -> None:
        # undo/redo of a robot change: where that robot came from, as set_origin had it
        self.library_name, self.robot_path = origin if origin is not None else (None, None)
        self.show_origin()
        self._on_robot(self.session.robot)

    def open_robot_dialog(self) -> None:
        from robogui.engine.bounded_work import warm_up

        warm_up()  # the mesh-reading workers start while the user chooses a file
        start = str(Path(self.robot_path).parent) if self.robot_path else ""
        path = library.ask_robot_file(self, start)
        if path:
            self.open_robot(path)

