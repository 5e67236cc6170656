"""Undo and redo of everything the user changes, on Qt's :class:`QUndoStack`.

One :class:`UndoManager` per main window owns the stack. It *observes* the session and
the teach program, so every change reaches the stack whichever widget made it (joint
rows, jog, go-to, the 3D view's handles, the program panel, the robot picker), and the
autosave and the program's dirty flag see the very same changes because undo and redo
go back through the same session and program methods:

============== ======================================== ===================================
change         observed on                              one undo step is
============== ======================================== ===================================
joints         session ``changed`` (a complete change)  a drag (from press to release), a
                                                        typed value, a button, a jog step
tool           session ``tool``                         one tool change
robot          session ``robot``                        the robot with the q, trajectory
                                                        and playhead it replaced
program        teach ``program`` (edits, not loads)     one program edit
cell           session ``cell``                         one cell edit (a handle drag: the
                                                        drag, merged by its merge key)
============== ======================================== ===================================

The playhead moving the robot (playback, scrubbing, Check loading a trajectory) is not
an edit: it is not recorded.

API for widgets (all no-ops when the session has no manager, e.g. a bare panel in a test)::

    from robogui.app import undo

    with undo.labelled(session, "Named pose qz"):   # name what the block changes;
        session.go_to_pose("qz")                   # several changes -> one step
    with undo.labelled(session, "Move q2", merge_key=("slider", 1)):
        ...                                        # consecutive same-key steps merge
    undo.close_merge(session)                      # e.g. at release: next step is new

    manager = undo.manager_for(session)
    manager.push_joint_change(old_q, new_q, "Move to P3")        # applies new_q itself
    manager.push_session_change("Reset tool", apply_fn, undo_fn)  # anything else

A drag fires ``changed`` once, at release, so it is one step with no merge rule; a
handle drag that should show a name wraps its release::

    with undo.labelled(session, "Drag tool handle"):
        session.finish_change()
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.observable import ListenerError, values_equal

__all__ = ["UndoManager", "manager_for", "labelled", "close_merge", "install_edit_menu",
           "HistoryDialog", "SessionCommand", "JointCommand", "RobotCommand", "ProgramCommand",
           "ToolCommand", "RobotSnapshot", "CellCommand"]

_MERGE_ID = 14  # every mergeable command reports this id; mergeWith compares merge keys

_managers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def manager_for(session) -> UndoManager | None:
    """The :class:`UndoManager` recording ``session``, or None."""
    return _managers.get(session)


@contextmanager
def labelled(session, text: str, merge_key: Hashable | None = None) -> Iterator[None]:
    """Name the changes made inside the block (one undo step); no manager: does nothing."""
    manager = manager_for(session)
    if manager is None:
        yield
        return
    with manager.step(text, merge_key):
        yield


def close_merge(session) -> None:
    """End merging into the latest step (the next change starts a new one)."""
    manager = manager_for(session)
    if manager is not None:
        manager.close_merge()


class _Command(QtGui.QUndoCommand):
    """Base: the first ``redo`` (Qt calls it on push) is skipped when the change was
    already made; ``merge_key`` (hashable or None) decides what merges."""

    def __init__(self, manager: UndoManager, text: str, merge_key=None, applied: bool = True):
        super().__init__(text)
        self.manager = manager
        self.merge_key = merge_key
        self.closed = False
        self._skip_redo = applied

    def id(self) -> int:  # noqa: A003 - Qt's name
        return _MERGE_ID if self.merge_key is not None else -1

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        with self.manager.replaying():
            self.apply(forward=True)

    def undo(self) -> None:
        with self.manager.replaying():
            self.apply(forward=False)

    def apply(self, forward: bool) -> None:
        raise NotImplementedError

    def mergeWith(self, other) -> bool:  # noqa: N802 - Qt's name
        if (self.closed or type(other) is not type(self) or other.merge_key is None
                or other.merge_key != self.merge_key):
            return False
        self.absorb(other)
        self.setText(other.text())
        self.setObsolete(self.is_noop())
        return True

    def absorb(self, other) -> None:
        """Take ``other``'s end state as this command's end state."""
        raise NotImplementedError

    def is_noop(self) -> bool:
        return False


class SessionCommand(_Command):
    """A change made by two functions: ``apply_fn()`` (redo) and ``undo_fn()``."""

    def __init__(self, manager, text, apply_fn: Callable[[], Any], undo_fn: Callable[[], Any],
                 merge_key=None, applied: bool = True):
        super().__init__(manager, text, merge_key, applied)
        self.apply_fn, self.undo_fn = apply_fn, undo_fn

    def apply(self, forward: bool) -> None:
        (self.apply_fn if forward else self.undo_fn)()

    def absorb(self, other) -> None:
        self.apply_fn = other.apply_fn


class JointCommand(_Command):
    """Joint vector ``old`` -> ``new`` (n,), rad / m."""

    def __init__(self, manager, text, old, new, merge_key=None, applied: bool = True):
        super().__init__(manager, text, merge_key, applied)
        self.old, self.new = np.array(old, dtype=float), np.array(new, dtype=float)

    def apply(self, forward: bool) -> None:
        s = self.manager.session
        q = self.new if forward else self.old
        if q.shape == s.q.shape:  # a robot change in between is undone first by the stack
            s.pause()  # a playing trajectory would take the robot straight back
            s.set_q(q)

    def absorb(self, other) -> None:
        self.new = other.new

    def is_noop(self) -> bool:
        return values_equal(self.old, self.new)


class ToolCommand(_Command):
    """Tool transform ``old`` -> ``new`` (4, 4)."""

    def __init__(self, manager, text, old, new, merge_key=None, applied: bool = True):
        super().__init__(manager, text, merge_key, applied)
        self.old, self.new = np.array(old, dtype=float), np.array(new, dtype=float)

    def apply(self, forward: bool) -> None:
        self.manager.session.set_tool(self.new if forward else self.old)

    def absorb(self, other) -> None:
        self.new = other.new

    def is_noop(self) -> bool:
        return values_equal(self.old, self.new)


class CellCommand(_Command):
    """Work cell ``old`` -> ``new`` (immutable :class:`~robogui.session.planning_scene.cell.Cell`
    or None)."""

    def __init__(self, manager, text, old, new, merge_key=None, applied: bool = True):
        super().__init__(manager, text, merge_key, applied)
        self.old, self.new = old, new

    def apply(self, forward: bool) -> None:
        self.manager.session.set_cell(self.new if forward else self.old)

    def absorb(self, other) -> None:
        self.new = other.new

    def is_noop(self) -> bool:
        return self.old == self.new


@dataclass(frozen=True)
class RobotSnapshot:
    """What a robot change replaces: robot, q (n,), trajectory, playhead time (s), and
    where the robot came from (``origin``, kept by the window, e.g. a library name)."""

    robot: Any
    q: np.ndarray
    trajectory: Any
    time: float
    origin: Any = None

    @classmethod
    def of(cls, session, origin=None) -> RobotSnapshot:
        return cls(session.robot, np.array(session.q), session.trajectory, session.time, origin)

    def restore(self, session) -> None:
        session.pause()
        # one all-or-nothing change: the robot with the trajectory it had
        session.set_robot(self.robot, self.q, trajectory=self.trajectory)
        if self.trajectory is not None:
            session.set_time(self.time, changing=False)
            session.set_q(self.q)


class RobotCommand(_Command):
    """Robot ``old`` -> ``new`` (:class:`RobotSnapshot` each: the trajectory a robot
    change clears comes back with the robot)."""

    def __init__(self, manager, text, old: RobotSnapshot, new: RobotSnapshot,
                 applied: bool = True):
        super().__init__(manager, text, None, applied)
        self.old, self.new = old, new

    def apply(self, forward: bool) -> None:
        snap = self.new if forward else self.old
        snap.restore(self.manager.session)
        if self.manager.set_origin is not None:
            self.manager.set_origin(snap.origin)


class ProgramCommand(_Command):
    """Teach program ``old`` -> ``new``
    (immutable :class:`~robogui.session.teach.program.Program`)."""

    def __init__(self, manager, text, old, new, merge_key=None, applied: bool = True):
        super().__init__(manager, text, merge_key, applied)
        self.old, self.new = old, new

    def apply(self, forward: bool) -> None:
        program = self.new if forward else self.old
        state = self.manager.teach
        # back to what is on disk: not modified; anything else is an unsaved edit
        state.set_program(program, modified=program != self.manager.saved_program)

    def absorb(self, other) -> None:
        self.new = other.new

    def is_noop(self) -> bool:
        return self.old == self.new


class _Group(QtGui.QUndoCommand):
    """Several commands made in one labelled block: one step, undone in reverse order."""

    def __init__(self, text: str, commands: list[_Command]):
        super().__init__(text)
        self.commands = commands

    def redo(self) -> None:
        for c in self.commands:
            c.redo()

    def undo(self) -> None:
        for c in reversed(self.commands):
            c.undo()


class UndoManager(QtCore.QObject):
    """The undo stack of one session (and its teach program, when there is one).

    ``set_origin(origin)`` / ``get_origin()`` (optional) let a robot step restore where
    the robot came from (the window's title, the library picker).
    """

    def __init__(self, session, teach_state=None, parent: QtCore.QObject | None = None, *,
                 get_origin: Callable[[], Any] | None = None,
                 set_origin: Callable[[Any], None] | None = None):
        super().__init__(parent)
        self.session = session
        self.teach = teach_state
        self.get_origin, self.set_origin = get_origin, set_origin
        self.stack = QtGui.QUndoStack(self)
        self._replaying = 0
        self._paused = 0
        self._label: list[tuple[str, Hashable | None, list]] = []
        self._base = RobotSnapshot.of(session, self._origin())
        self._base_tool = np.array(session.tool)
        self._base_cell = getattr(session, "cell", None)
        self.saved_program = teach_state.program if teach_state is not None else None
        self._base_program = self.saved_program
        self._connections = [(session.events.robot, self._on_robot),
                             (session.events.tool, self._on_tool),
                             (session.events.changed, self._on_changed),
                            # not steps, but what a robot step must give back
                            (session.events.trajectory, self._on_trajectory),
                            (session.events.time, self._on_trajectory)]
        if "cell" in session.EVENTS:
            self._connections.append((session.events.cell, self._on_cell))
        if teach_state is not None:
            self._connections += [(teach_state.events.program, self._on_program),
                                  (teach_state.events.file, self._on_file)]
        for signal, fn in self._connections:
            signal.connect(fn)
        _managers[session] = self

    def close(self) -> None:
        """Stop observing (the window is closing)."""
        for signal, fn in self._connections:
            signal.disconnect(fn)
        self._connections = []
        if _managers.get(self.session) is self:
            del _managers[self.session]

    # -- context ------------------------------------------------------------------------
    @contextmanager
    def replaying(self) -> Iterator[None]:
        """Undo/redo in progress: what it changes is not recorded again."""
        self._replaying += 1
        try:
            yield
        finally:
            self._replaying -= 1
            self._rebase()

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Changes inside are not undoable (e.g. start-up loading); the stack is kept."""
        self._paused += 1
        try:
            yield
        finally:
            self._paused -= 1
            self._rebase()

    @contextmanager
    def step(self, text: str, merge_key: Hashable | None = None) -> Iterator[None]:
        """Everything recorded inside is one step called ``text`` (see :func:`labelled`)."""
        if self._label:  # nested: the outer block names the step
            yield
            return
        collected: list[_Command] = []
        self._label.append((text, merge_key, collected))
        try:
            yield
        except ValueError as exc:
            if isinstance(exc.__cause__, ListenerError):
                # the session rolled the change back (issue 14): nothing to undo
                collected.clear()
            raise
        finally:
            self._label.pop()
            if len(collected) == 1:
                cmd = collected[0]
                cmd.setText(text)
                cmd.merge_key = merge_key if merge_key is not None else cmd.merge_key
                self.stack.push(cmd)
            elif collected:
                self.stack.push(_Group(text, collected))

    def close_merge(self) -> None:
        """The latest step takes no more merges."""
        top = self.stack.command(self.stack.index() - 1) if self.stack.index() else None
        if isinstance(top, _Command):
            top.closed = True

    def _recording(self) -> bool:
        return not (self._replaying or self._paused)

    def _record(self, cmd: _Command) -> None:
        if self._label:
            self._label[-1][2].append(cmd)
        else:
            self.stack.push(cmd)

    def _origin(self):
        return self.get_origin() if self.get_origin is not None else None

    def note_origin(self) -> None:
        """The window learnt where the current robot came from (after the robot event):
        keep it in the latest robot step, so undo and redo restore it too."""
        origin = self._origin()
        self._base = replace(self._base, origin=origin)
        top = self.stack.command(self.stack.index() - 1) if self.stack.index() else None
        # inside a labelled block (e.g. opening a cell with its robot) the robot step is
        # not on the stack yet
        pending = self._label[-1][2] if self._label else []
        for cmd in (top, *pending):
            if isinstance(cmd, RobotCommand) and cmd.new.robot is self.session.robot:
                cmd.new = replace(cmd.new, origin=origin)

    def _rebase(self) -> None:
        s = self.session
        self._base = RobotSnapshot.of(s, self._origin())
        self._base_tool = np.array(s.tool)
        self._base_cell = getattr(s, "cell", None)
        if self.teach is not None:
            self._base_program = self.teach.program

    # -- explicit API -----------------------------------------------------------------------
    def push_joint_change(self, old_q, new_q, text: str, merge_key: Hashable | None = None
                          ) -> None:
        """Move the robot from ``old_q`` to ``new_q`` (n,) as one step called ``text``;
        consecutive steps with the same non-None ``merge_key`` merge into one."""
        cmd = JointCommand(self, text, old_q, new_q, merge_key, applied=False)
        if cmd.is_noop():
            return
        self.stack.push(cmd)

    def push_session_change(self, text: str, apply_fn: Callable[[], Any],
                            undo_fn: Callable[[], Any], merge_key: Hashable | None = None,
                            *, applied: bool = False) -> None:
        """A step made of two functions. ``applied=False`` (default): the stack calls
        ``apply_fn`` now; True: the change is already made. Session changes they cause
        are not recorded a second time."""
        self.stack.push(SessionCommand(self, text, apply_fn, undo_fn, merge_key, applied))

    # -- observed changes --------------------------------------------------------------------
    def _on_robot(self, robot) -> None:
        old = self._base
        new = RobotSnapshot.of(self.session, self._origin())
        self._base, self._base_tool = new, np.array(self.session.tool)
        if self._recording() and old.robot is not robot:
            self._record(RobotCommand(self, f"Robot {robot.name}", old, new))

    def _on_trajectory(self, _value) -> None:
        # a trajectory or the playhead moved the robot: the new start for the next step
        s = self.session
        if self._base.robot is s.robot:
            self._base = replace(self._base, trajectory=s.trajectory, time=s.time,
                                 q=np.array(s.q))

    def _on_tool(self, T) -> None:
        old, self._base_tool = self._base_tool, np.array(T)
        self._base = RobotSnapshot.of(self.session, self._base.origin)
        if self._recording() and not values_equal(old, T):
            self._record(ToolCommand(self, "Change tool", old, T))

    def _on_changed(self, q) -> None:
        s = self.session
        old = self._base.q
        self._base = RobotSnapshot.of(s, self._base.origin)
        if not self._recording() or old.shape != s.q.shape or values_equal(old, s.q):
            return
        if s.trajectory is not None and values_equal(s.q, s.q_at(s.time)):
            return  # the playhead moved the robot: not an edit
        moved = np.flatnonzero(~np.isclose(old, s.q, rtol=0, atol=1e-12))
        text = (f"Move q{moved[0] + 1}" if moved.size == 1 else "Move joints")
        self._record(JointCommand(self, text, old, s.q))

    def _on_cell(self, cell) -> None:
        old, self._base_cell = self._base_cell, cell
        if self._recording() and old is not cell:
            self._record(CellCommand(self, "Edit cell", old, cell))

    def _on_program(self, program) -> None:
        old, self._base_program = self._base_program, program
        if self.teach.modified is False:  # a load, New or save: not an edit
            self.saved_program = program
            return
        if self._recording() and old is not None and old != program:
            self._record(ProgramCommand(self, "Edit program", old, program))

    def _on_file(self, _path) -> None:
        if not self.teach.modified:
            self.saved_program = self.teach.program


class HistoryDialog(QtWidgets.QDialog):
    """The undo history (a :class:`QUndoView`): click a line to go back to it."""

    def __init__(self, stack: QtGui.QUndoStack, parent=None):
        super().__init__(parent)
        self.setObjectName("historyDialog")
        self.setWindowTitle("History")
        self.view = QtWidgets.QUndoView(stack)
        self.view.setEmptyLabel("<start>")
        self.view.setToolTip("every change made in this session: click one to go back to it")
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.view)
        self.resize(320, 420)


def install_edit_menu(window: QtWidgets.QMainWindow, manager: UndoManager,
                      before: QtGui.QAction | None = None) -> QtWidgets.QMenu:
    """Add Edit (Undo, Redo, History) to ``window``'s menu bar, before ``before``.

    Ctrl+Z undoes; Ctrl+Shift+Z and Ctrl+Y redo. Sets ``window.act_undo``,
    ``window.act_redo``, ``window.act_history``.
    """
    stack = manager.stack
    undo = stack.createUndoAction(window, "&Undo")
    undo.setShortcuts([QtGui.QKeySequence("Ctrl+Z")])
    undo.setToolTip("undo the last change (Ctrl+Z)")
    redo = stack.createRedoAction(window, "&Redo")
    redo.setShortcuts([QtGui.QKeySequence("Ctrl+Shift+Z"), QtGui.QKeySequence("Ctrl+Y")])
    redo.setToolTip("redo the change just undone (Ctrl+Shift+Z or Ctrl+Y)")
    history = QtGui.QAction("&History\u2026", window)
    history.setToolTip("every change of this session, to go back to any of them")
    history.triggered.connect(lambda: show_history(window, manager))
    menu = QtWidgets.QMenu("&Edit", window)
    for act in (undo, redo):
        menu.addAction(act)
        window.addAction(act)  # the shortcuts work with the menu closed
    menu.addSeparator()
    menu.addAction(history)
    mb = window.menuBar()
    if before is not None:
        mb.insertMenu(before, menu)
    else:
        mb.addMenu(menu)
    window.act_undo, window.act_redo, window.act_history = undo, redo, history
    return menu


def show_history(window: QtWidgets.QWidget, manager: UndoManager) -> HistoryDialog:
    """Show (and raise) the window's one History dialog."""
    dlg = getattr(window, "_history_dialog", None)
    if dlg is None:
        dlg = window._history_dialog = HistoryDialog(manager.stack, window)
    dlg.show()
    dlg.raise_()
    return dlg
