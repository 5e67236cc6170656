"""The xacro arguments dialog: a file that declares ``<xacro:arg>``s (or uses ``$(arg)``)
asks for their values before it opens, each field filled with the value given last time
for this file, else the file's default (issue 27 item 1). An argument without a default
must be filled in."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

__all__ = ["XacroArgsDialog", "ask_xacro_args"]


class XacroArgsDialog(QtWidgets.QDialog):
    """One line edit per argument (object name ``xacroArg_NAME``), OK and Cancel."""

    def __init__(self, parent, path: str, declared: dict[str, str | None],
                 remembered: dict[str, str] | None = None):
        super().__init__(parent)
        self.setObjectName("xacroArgs")
        self.setWindowTitle("xacro arguments")
        remembered = remembered or {}
        form = QtWidgets.QFormLayout(self)
        form.addRow(QtWidgets.QLabel(f"{Path(path).name} takes these arguments "
                                     "(--xacro-arg NAME:=VALUE on the command line):"))
        self.fields: dict[str, QtWidgets.QLineEdit] = {}
        for name, default in list(declared.items())[:64]:
            edit = QtWidgets.QLineEdit(self)
            edit.setObjectName(f"xacroArg_{name}")
            value = remembered.get(name, default)
            edit.setText("" if value is None else str(value))
            edit.setPlaceholderText("required" if default is None else f"default: {default}")
            edit.textChanged.connect(self._check)
            form.addRow(name[:60], edit)
            self.fields[name] = edit
        self.declared = declared
        self.buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel, parent=self)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._check()

    def _check(self) -> None:
        ok = all(e.text() or self.declared[n] is not None for n, e in self.fields.items())
        self.buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    def values(self) -> dict[str, str]:
        """NAME -> VALUE of every field (a field left empty gives the file's default)."""
        return {n: e.text() for n, e in self.fields.items()
                if e.text() or self.declared[n] is None}


def ask_xacro_args(parent, path: str, declared: dict[str, str | None],
                   remembered: dict[str, str] | None = None) -> dict[str, str] | None:
    """The arguments the user gives for ``path``; None when cancelled."""
    dlg = XacroArgsDialog(parent, path, declared, remembered)
    ok = dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted
    return dlg.values() if ok else None
