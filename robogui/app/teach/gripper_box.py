"""The gripper while the user drives: Grasp takes the part nearest to the tool centre point
(within reach), Release leaves it where the tool has brought it.

The held part is session state (``session.held``; the view draws it where
``session.object_poses()`` says, following the TCP). A release makes the cell with the part at
its new pose (``session.set_cell``). Each is one undo step; with "Record in program" ticked,
the program gets the grasp or release step too, in the same undo step.
"""

from __future__ import annotations

from PySide6 import QtWidgets

from robogui.session.planning_scene.carried import GRASP_REACH, grasp_nearest, released_cell
from robogui.session.teach.program import ProgramError

from .. import undo
from ..bindings import Subscriptions

__all__ = ["GripperBox"]


class GripperBox(QtWidgets.QGroupBox):
    """Grasp / Release for ``session`` (and, with Record ticked, the program of ``state``,
    a TeachState, or None)."""

    def __init__(self, session, state=None, parent=None):
        super().__init__("Gripper", parent)
        self.session, self.state = session, state
        layout = QtWidgets.QHBoxLayout(self)
        self.button = QtWidgets.QPushButton("Grasp")
        self.button.setObjectName("gripperButton")
        self.button.clicked.connect(self.toggle)
        layout.addWidget(self.button)
        self.record_box = QtWidgets.QCheckBox("Record in program")
        self.record_box.setToolTip("Add the grasp or release to the teach program as a step")
        self.record_box.setChecked(state is not None)
        self.record_box.setEnabled(state is not None)
        layout.addWidget(self.record_box)
        self.label = QtWidgets.QLabel()
        self.label.setWordWrap(True)
        layout.addWidget(self.label, 1)
        self._subs = Subscriptions(self)
        self._subs.connect(session.events.held, lambda _h: self.refresh())
        self._subs.connect(session.events.cell, lambda _c: self.refresh())
        self.refresh()

    def refresh(self) -> None:
        held, cell = self.session.held, self.session.cell
        self.button.setText("Release" if held is not None else "Grasp")
        self.button.setToolTip(
            f"Let go of '{held.name}' where the tool holds it (one undo step)" if held is not None
            else "Take the cell's part nearest to the tool centre point (within 100 mm); it "
                 "then follows the tool")
        self.button.setEnabled(cell is not None)
        if cell is None:
            self.label.setText("open a work cell to grasp its parts")
        elif held is not None:
            self.label.setText(f"holding {held.name!r}")
        else:
            self.label.setText(f"grasps the nearest part within {GRASP_REACH * 1e3:.0f} mm "
                               "of the TCP")

    def _say(self, text: str) -> None:
        self.label.setText(text)

    def toggle(self) -> bool:
        """Grasp the nearest part, or release the held one (one undo step each)."""
        return self.release() if self.session.held is not None else self.grasp()

    def _step(self, text: str, apply_fn, undo_fn, program_edit) -> bool:
        """``apply_fn`` (and ``program_edit``, a TeachState.edit argument tuple, when Record
        is ticked) as one undo step called ``text``."""
        manager = undo.manager_for(self.session)
        record = self.state is not None and self.record_box.isChecked() and program_edit
        stack = manager.stack if manager is not None else None
        if stack is not None:
            stack.beginMacro(text)
        try:
            if manager is not None:
                manager.push_session_change(text, apply_fn, undo_fn)
            else:
                apply_fn()
            if record:
                self.state.edit(*program_edit)
        except (ProgramError, ValueError) as exc:
            self._say(str(exc))
            return False
        finally:
            if stack is not None:
                stack.endMacro()
        return True

    def grasp(self) -> bool:
        s = self.session
        if s.cell is None:
            return False
        try:
            held = grasp_nearest(s.cell, s.T)
        except ValueError as exc:
            self._say(str(exc))
            return False
        ok = self._step(f"Grasp {held.name!r}", lambda: s.set_held(held),
                        lambda: s.set_held(None), ("grasp", held.name))
        if ok:
            self._say(f"holding {held.name!r}")
        return ok

    def release(self) -> bool:
        s = self.session
        held, old = s.held, s.cell
        if held is None or old is None:
            return False
        new = released_cell(old, held, s.T)

        def apply_fn():
            s.set_cell(new)
            s.set_held(None)

        def undo_fn():
            s.set_cell(old)
            s.set_held(held)

        ok = self._step(f"Release {held.name!r}", apply_fn, undo_fn, ("release",))
        if ok:
            self._say(f"released {held.name!r} where the tool holds it")
        return ok
