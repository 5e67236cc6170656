"""Teach-pendant state next to a :class:`~robogui.session.Session`: program and ghosts.

:class:`TeachState` is Qt-free. It holds

* the teach **program** being edited (immutable :class:`Program`; every edit replaces
  it), its file path and modified flag, its autosave, and the last compilation and
  pre-flight problems;
* the **ghosts** the 3D view draws: translucent robots at candidate configurations
  (a go-to target, or every analytic IK branch of a Puma-like arm).

Events (each called with one argument):

========= ===============================================================
program   the program changed (edit, load, new); value: Program
file      the file path or the modified flag changed; value: path or None
compiled  a program was compiled; value: CompiledProgram or None
problems  pre-flight problems changed; value: list of Problem
ghosts    the ghost robots changed; value: list of Ghost
========= ===============================================================
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from robogui.engine.kinematics.kinematics import fkine_all

from ..observable import EventEmitter, ListenerError
from .autosave import Autosaver
from .compile import CompiledProgram, compile_program
from .preflight import preflight
from .program import Problem, Program, ProgramError
from .program_file import load_program, save_program

__all__ = ["TeachState", "Ghost", "GHOST_ROLES"]

#: how a ghost is drawn: the proposed/selected target, another valid candidate, or a
#: candidate that is reachable only outside the joint limits
GHOST_ROLES = ("selected", "candidate", "invalid")


@dataclass(frozen=True, eq=False)
class Ghost:
    """A translucent robot at ``q`` (n,); ``role`` one of :data:`GHOST_ROLES`; ``label`` text."""

    q: np.ndarray
    role: str = "selected"
    label: str = ""

    def __post_init__(self):
        if self.role not in GHOST_ROLES:
            raise ValueError(f"role must be one of {GHOST_ROLES}, got {self.role!r}")
        q = np.array(self.q, dtype=float).reshape(-1)
        q.setflags(write=False)
        object.__setattr__(self, "q", q)


class TeachState(EventEmitter):
    """Program and ghosts of one session (playback is the session's). See the module docstring."""

    EVENTS = ("program", "file", "compiled", "problems", "ghosts")

    def __init__(self, session, autosave_path=None, *, autosave_interval_s: float = 3.0):
        self._init_events(self.EVENTS)
        self.session = session
        self.program = Program(robot=session.robot.name)
        self.path: Path | None = None
        self.modified = False
        self.compiled: CompiledProgram | None = None
        self.problems: list[Problem] = []
        self.ghosts: list[Ghost] = []
        self._ghost_frames: tuple | None = None  # (ghosts, robot, frames), by identity
        self.autosaver = (Autosaver(autosave_path, autosave_interval_s)
                          if autosave_path is not None else None)
        self._connections = [(session.events.robot, self._on_robot)]
        for signal, fn in self._connections:
            signal.connect(fn)

    def close(self) -> None:
        """Disconnect from the session (the pendant's widgets were closed)."""
        for signal, fn in self._connections:
            signal.disconnect(fn)
        self._connections = []

    # -- program -----------------------------------------------------------------------
    def set_program(self, program: Program, *, modified: bool = True) -> None:
        """Replace the program (every edit comes here); the old compilation is dropped."""
        if not isinstance(program, Program):
            raise ValueError(f"program must be a Program, got {type(program).__name__}")
        if program == self.program and modified == self.modified:
            return
        saved = (self.program, self.compiled, list(self.problems), self.modified)
        try:
            with self.batch():
                self.program = program
                self._emit("program", program)
                if self.compiled is not None or self.problems:
                    self.compiled, self.problems = None, []
                    self._emit("compiled", None)
                    self._emit("problems", [])
                if modified and self.autosaver is not None:
                    self.autosaver.mark_dirty(program)
                self._set_modified(modified)
        except ListenerError as exc:  # a panel could not show it: the old program stays
            self.program, self.compiled, self.problems, self.modified = saved
            try:
                with self.batch():
                    self._emit("program", self.program)
                    self._emit("compiled", self.compiled)
                    self._emit("problems", self.problems)
                    self._emit("file", self.path)
            except ListenerError:
                pass  # the first failure is the one reported
            raise ProgramError(f"the program could not be shown, the previous one is back: "
                               f"{exc}") from exc

    def edit(self, method: str, *args, **kwargs) -> Program:
        """Apply ``Program.<method>(*args, **kwargs)`` and keep the result.

        ProgramError (a ValueError whose message is for the user) propagates and the
        program is unchanged.
        """
        new = getattr(self.program, method)(*args, **kwargs)
        self.set_program(new)
        return new

    def record(self, name: str | None = None, comment: str = "", move_kind: str | None = "joint",
               **move_options) -> Program:
        """Record the session's current configuration as a waypoint (and a move to it)."""
        return self.edit("record", self.session.q, name, comment, move_kind, **move_options)

    def touch_up(self, name: str) -> Program:
        """Replace waypoint ``name`` by the session's current configuration."""
        return self.edit("touch_up", name, self.session.q)

    def new_program(self, name: str = "untitled") -> None:
        with self.batch():
            self.set_program(Program(name=name, robot=self.session.robot.name), modified=False)
            self._set_path(None)

    def _set_modified(self, modified: bool) -> None:
        if modified != self.modified:
            self.modified = modified
            self._emit("file", self.path)

    def _set_path(self, path: Path | None) -> None:
        if path != self.path:
            self.path = path
            self._emit("file", path)

    def save(self, path=None) -> Path:
        """Save the program (atomically) to ``path`` or its current file; OSError propagates."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("the program has no file yet: give a path")
        if target.suffix == "":
            target = target.with_suffix(".prog")
        program = self.program.with_robot(self.session.robot.name)
        save_program(program, target)
        with self.batch():
            if program != self.program:
                self.program = program
                self._emit("program", program)
            self._set_path(target)
            self._set_modified(False)
        if self.autosaver is not None:
            self.autosaver.mark_saved()
        return target

    def load(self, path) -> Program:
        """Load a program file; ProgramFileError (ValueError, with line and field) propagates."""
        program = load_program(path)
        with self.batch():
            self.set_program(program, modified=False)
            self._set_path(Path(path))
        return program

    def autosave_tick(self, now: float | None = None) -> bool:
        """Autosave if due (called by a timer every second); True when a file was written."""
        if self.autosaver is None:
            return False
        return self.autosaver.maybe_save(time.monotonic() if now is None else now)

    def recoverable(self) -> Program | None:
        """An autosaved program with edits that were never saved on purpose, or None."""
        return None if self.autosaver is None else self.autosaver.recover()

    def restore_recovered(self, program: Program) -> None:
        """Take the recovered program back as an unsaved edit."""
        with self.batch():
            self._set_path(None)
            self.set_program(program, modified=True)

    def discard_recovered(self) -> None:
        if self.autosaver is not None:
            self.autosaver.clear()

    # -- compile and pre-flight ----------------------------------------------------------
    def compile(self, *, run_preflight: bool = True, load: bool = True) -> CompiledProgram:
        """Compile the program for the session's robot, run the pre-flight check, and
        (``load``) make its trajectory the session's. ProgramError propagates."""
        robot = self.session.robot
        d = self.session.display  # the messages speak the user's units
        compiled = compile_program(self.program, robot, angle_unit=d.angle_unit,
                                   length_unit=d.length_unit)
        # with the session's work cell: contacts along the path are problems too
        problems = (preflight(robot, compiled, angle_unit=d.angle_unit,
                              length_unit=d.length_unit, cell=self.session.cell)
                    if run_preflight else list(compiled.problems))
        with self.batch():
            self.compiled = compiled
            self.problems = list(problems)
            self._emit("compiled", compiled)
            self._emit("problems", self.problems)
        if load:
            self.session.set_trajectory(compiled.trajectory)
            self.session.finish_change()
        return compiled

    def seek_problem(self, problem: Problem) -> None:
        """Jump the playhead to the instant of ``problem`` (playback pauses)."""
        s = self.session
        if self.compiled is not None and s.trajectory is not self.compiled.trajectory:
            s.set_trajectory(self.compiled.trajectory)
        s.pause()
        s.set_time(problem.time, changing=False)

    # -- playback (the cursor is the session's) ---------------------------------------------
    @property
    def playback(self):
        return self.session.playback

    def _on_robot(self, robot) -> None:
        self.set_ghosts([])

    # -- ghosts ------------------------------------------------------------------------------
    def set_ghosts(self, ghosts) -> None:
        """Show these ghost robots (an empty list hides them all)."""
        ghosts = [g if isinstance(g, Ghost) else Ghost(g) for g in ghosts]
        for g in ghosts:
            if g.q.size != self.session.robot.n:
                raise ValueError(f"ghost q must have {self.session.robot.n} joints, got {g.q.size}")
        if not ghosts and not self.ghosts:
            return
        self.ghosts = ghosts
        self._emit("ghosts", list(ghosts))

    @property
    def ghost_frames(self) -> np.ndarray:
        """Frames (g, n+1, 4, 4) of the ghosts that fit the current robot, as ``fkine_all``
        gives them; one batched call per change of ghosts, robot or tool."""
        robot = self.session.robot
        c = self._ghost_frames
        if c is None or c[0] is not self.ghosts or c[1] is not robot:
            ghosts = [g for g in self.ghosts if g.q.size == robot.n]
            if ghosts:
                frames = fkine_all(robot, np.stack([g.q for g in ghosts]))
            else:
                frames = np.zeros((0, robot.n_bodies + 1, 4, 4))
            self._ghost_frames = c = (self.ghosts, robot, frames)
        return c[2]
