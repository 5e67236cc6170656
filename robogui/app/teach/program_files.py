"""The program panel's file actions: New / Open / Save / Save as (``.prog``, saved
atomically through :class:`~robogui.session.teach.teach.TeachState`), Export as URScript,
RAPID or KRL (:mod:`robogui.session.teach.export`), the autosave tick and the non-blocking
recovery bar (Restore / Discard) offered at start-up.

:class:`ProgramFileActions` is a mixin of :class:`~.program_panel.ProgramPanel`; it uses
the panel's ``state``, ``session``, ``error_presenter``, ``_status``, ``recovery_bar`` and
``recovery_label``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

from .. import undo

__all__ = ["ProgramFileActions", "EXPORT_FILTERS"]

#: file-dialog filter -> robot language (File > Teach program > Export program as...)
EXPORT_FILTERS = {"URScript (*.script)": "urscript", "ABB RAPID (*.mod)": "rapid",
                  "KUKA KRL (*.src)": "krl"}


class ProgramFileActions:
    """File, autosave and recovery actions of the teach program panel."""

    # -- files ------------------------------------------------------------------------------------
    def new_program(self) -> None:
        """File > New program: asks first when the program has unsaved changes (Save,
        Discard or Cancel); one undo step, which brings the old program, its file and its
        unsaved mark back."""
        st = self.state
        if st.modified and not self._may_drop_changes("New program"):
            return
        old_program, old_path, old_modified = st.program, st.path, st.modified

        def back() -> None:
            with st.batch():
                st.set_program(old_program, modified=old_modified)
                st._set_path(old_path)  # the file it had, so Save writes there again

        manager = undo.manager_for(self.session)
        if manager is None:
            st.new_program()
        else:
            manager.push_session_change("New program", st.new_program, back)
        self._status("New program")

    def _may_drop_changes(self, what: str) -> bool:
        """Ask what to do with the unsaved program: Save (then go on if saved), Discard
        (go on) or Cancel (stop). True to go on."""
        box = QtWidgets.QMessageBox(
            QtWidgets.QMessageBox.Icon.Question, what,
            f"The program \u201c{self.state.program.name}\u201d has unsaved changes.",
            QtWidgets.QMessageBox.StandardButton.Save
            | QtWidgets.QMessageBox.StandardButton.Discard
            | QtWidgets.QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("unsavedProgram")
        box.setInformativeText("Save them first, or discard them?")
        box.setDefaultButton(QtWidgets.QMessageBox.StandardButton.Save)
        answer = box.exec()
        if answer == QtWidgets.QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QtWidgets.QMessageBox.StandardButton.Discard

    def save_to(self, path) -> bool:
        try:
            target = self.state.save(path)
        except (OSError, ValueError) as exc:
            self.error_presenter("Cannot save the program", str(exc))
            return False
        self._status(f"Saved {target}")
        return True

    def save(self) -> bool:
        if self.state.path is None:
            return self.save_as_dialog()
        return self.save_to(self.state.path)

    def save_as_dialog(self) -> bool:
        start = str(self.state.path or Path.home() / f"{self.state.program.name}.prog")
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Save program", start,
                                                        "robogui program (*.prog)")
        return bool(path) and self.save_to(path)

    def load_from(self, path) -> bool:
        try:
            prog = self.state.load(path)
        except (OSError, ValueError) as exc:
            self.error_presenter("Cannot open the program", str(exc))
            return False
        why = prog.check_robot(self.session.robot)
        self._status(f"Opened {Path(path).name}" + (f"; note: {why[0]}" if why else ""),
                     ok=not why)
        return True

    def open_dialog(self) -> bool:
        start = str(self.state.path.parent) if self.state.path else ""
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Open program", start,
                                                        "robogui program (*.prog);;All files (*)")
        return bool(path) and self.load_from(path)

    def export_to(self, path, dialect: str) -> bool:
        """Write the program in a robot language (``"urscript"|"rapid"|"krl"``) for the
        session's robot; what cannot be expressed is said in a message, nothing written."""
        from robogui.session.teach.export import export_program

        try:
            written = export_program(self.state.program, self.session.robot, dialect, path)
        except (OSError, ValueError) as exc:
            self.error_presenter("Cannot export the program", str(exc))
            return False
        self._status("Exported " + ", ".join(p.name for p in written))
        return True

    def export_dialog(self) -> bool:
        """Ask for a file and a language (the dialog's filter), then :meth:`export_to`."""
        from robogui.session.teach.export import dialect_of

        stem = self.state.path.stem if self.state.path else self.state.program.name
        start = str((self.state.path.parent if self.state.path else Path.home()) / stem)
        path, chosen = QtWidgets.QFileDialog.getSaveFileName(
            self, "Export program as", start, ";;".join(EXPORT_FILTERS))
        if not path:
            return False
        dialect = EXPORT_FILTERS.get(chosen)
        if dialect is None:  # no filter reported: the suffix typed decides
            try:
                dialect = dialect_of(Path(path).suffix or "urscript")
            except ValueError as exc:
                self.error_presenter("Cannot export the program", str(exc))
                return False
        return self.export_to(path, dialect)

    # -- autosave and recovery -------------------------------------------------------------------
    def _autosave(self) -> None:
        try:
            self.state.autosave_tick()
        except OSError as exc:  # a full disk must not stop the teaching
            self._status(f"Autosave failed: {exc}", ok=False)

    def offer_recovery(self) -> bool:
        """Show the recovery bar if the autosave holds unsaved edits; True when shown."""
        prog = self.state.recoverable()
        if prog is None:
            return False
        self._recovered = prog
        self.recovery_label.setText(
            f"Unsaved program \u201c{prog.name}\u201d ({len(prog.waypoints)} waypoints, "
            f"{len(prog.moves)} moves) was found in the autosave. Restore it?")
        self.recovery_bar.show()
        return True

    def restore_recovered(self) -> None:
        if self._recovered is not None:
            self.state.restore_recovered(self._recovered)
            self._status("Restored the autosaved program (not saved to a file yet)")
        self._recovered = None
        self.recovery_bar.hide()

    def discard_recovered(self) -> None:
        self.state.discard_recovered()
        self._recovered = None
        self.recovery_bar.hide()
