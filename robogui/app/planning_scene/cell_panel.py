"""The Cell panel: the work cell's objects in a list, and their pose, size and colour.

A tree (Qt model/view) lists the objects: the name is edited in place (double click or
F2), the check box shows or hides the object. Buttons add a box, cylinder, sphere,
capsule or a mesh file (placed at the tool centre point, where the user looks), delete,
hide and colour the selected object; typed fields set its position (the app's length
unit) and roll-pitch-yaw (the app's angle unit) in the world, and its size.

Every edit is one undo step: the panel makes a new immutable cell and sets it through
``session.set_cell`` inside :func:`robogui.app.undo.labelled`, so undo, the autosave and
the view see the same change. The panel writes nothing else.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.geometry.scene import floor_height
from robogui.session.planning_scene.edits import (
    MESH_SUFFIXES,
    empty_cell,
    mesh_object,
    new_object,
)

from .. import undo
from ..bindings import Subscriptions
from ..widgets.numeric_field import follow_units, unit_field

__all__ = ["CellPanel", "ADD_SHAPES", "MESH_FILTER"]

ADD_SHAPES = ("box", "cylinder", "sphere", "capsule")
MESH_FILTER = "Meshes (" + " ".join(f"*{s}" for s in MESH_SUFFIXES) + ");;All files (*)"
_NAME, _SHAPE = 0, 1
#: size fields per shape: (label, index into size) (m)
_SIZE_FIELDS = {"box": (("size x", 0), ("size y", 1), ("size z", 2)),
                "cylinder": (("radius", 0), ("length", 1)),
                "capsule": (("radius", 0), ("length", 1)),
                "sphere": (("radius", 0),), "mesh": ()}


class CellPanel(QtWidgets.QWidget):
    """The objects of ``session.cell`` and the selected one's pose, size and colour.

    ``error_presenter(title, text)`` shows what could not be done (a mesh file that does
    not read, a name already taken). ``objectSelected`` tells the name chosen (None: no
    object), from the list or from :meth:`select` (the view's picking).
    """

    objectSelected = QtCore.Signal(object)

    def __init__(self, session, parent=None, *, error_presenter=None):
        super().__init__(parent)
        self.session = session
        self.error_presenter = error_presenter or (lambda title, text: None)
        self.selected: str | None = None
        self._names: tuple = ()
        self._filling = False

        self.model = QtGui.QStandardItemModel(0, 2, self)
        self.model.setHorizontalHeaderLabels(["Object", "Shape"])
        self.tree = QtWidgets.QTreeView()
        self.tree.setObjectName("cellTree")
        self.tree.setModel(self.model)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.DoubleClicked
                                  | QtWidgets.QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(
            _NAME, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.tree.setToolTip("the cell's objects: double click (or F2) renames, the box "
                             "shows or hides, Delete deletes; click an object in the 3D "
                             "view to choose it")
        self.tree.selectionModel().currentRowChanged.connect(self._row_chosen)
        self.model.itemChanged.connect(self._item_changed)
        self.tree.installEventFilter(self)  # Delete deletes the chosen object

        add = QtWidgets.QGridLayout()  # two rows: the panel stays narrow beside the view
        add.setSpacing(4)
        add.addWidget(QtWidgets.QLabel("Add"), 0, 0)
        self.add_buttons: dict[str, QtWidgets.QPushButton] = {}
        for k, shape in enumerate((*ADD_SHAPES, "mesh")):
            b = QtWidgets.QPushButton(shape.capitalize() + ("\u2026" if shape == "mesh" else ""))
            b.setObjectName(f"addCell_{shape}")
            b.setToolTip(f"add a {shape} at the tool centre point" if shape != "mesh" else
                         "add an object from a mesh file (STL, OBJ, DAE, glTF)")
            b.clicked.connect(lambda _=False, s=shape: self.add(s))
            add.addWidget(b, k // 3, 1 + k % 3)
            self.add_buttons[shape] = b

        acts = QtWidgets.QGridLayout()
        acts.setSpacing(4)
        self.delete_button = QtWidgets.QPushButton("Delete")
        self.delete_button.clicked.connect(self.delete_selected)
        self.hide_button = QtWidgets.QPushButton("Hide")
        self.hide_button.clicked.connect(self.toggle_hidden)
        self.color_button = QtWidgets.QPushButton("Colour\u2026")
        self.color_button.clicked.connect(self.choose_color)
        self.delete_button.setToolTip("delete the chosen object (undo brings it back)")
        self.hide_button.setToolTip("hide the chosen object in the view (it still collides)")
        self.color_button.setToolTip("choose the chosen object's colour")
        self.collides_box = QtWidgets.QCheckBox("Collides")
        self.collides_box.setToolTip("off: decoration the collision checks ignore")
        self.collides_box.toggled.connect(self._collides_toggled)
        for k, w in enumerate((self.delete_button, self.hide_button, self.color_button,
                               self.collides_box)):
            acts.addWidget(w, k // 2, k % 2)

        d = session.display
        pose_box = QtWidgets.QGroupBox("Pose in the world")
        grid = QtWidgets.QGridLayout(pose_box)
        self.xyz_fields = [unit_field(d, "length", -1000.0, 1000.0, what=f"object {a}")
                           for a in "xyz"]
        self.rpy_fields = [unit_field(d, "angle", -math.pi, math.pi, what=f"object {a}",
                                      wrapping=True) for a in ("roll", "pitch", "yaw")]
        # x | roll, y | pitch, z | yaw: two columns keep the panel narrow
        for i, (a, f) in enumerate(zip("xyz", self.xyz_fields, strict=True)):
            grid.addWidget(QtWidgets.QLabel(a), i, 0)
            grid.addWidget(f, i, 1)
            f.setObjectName(f"cell_{a}")
            f.valueChanged.connect(self._pose_typed)
        for i, (a, f) in enumerate(zip(("roll", "pitch", "yaw"), self.rpy_fields, strict=True)):
            grid.addWidget(QtWidgets.QLabel(a), i, 2)
            grid.addWidget(f, i, 3)
            f.setObjectName(f"cell_{a}")
            f.valueChanged.connect(self._pose_typed)
        size_box = QtWidgets.QGroupBox("Size")
        sgrid = QtWidgets.QGridLayout(size_box)
        self.size_labels = [QtWidgets.QLabel() for _ in range(3)]
        self.size_fields = [unit_field(d, "length", 1e-6, 1000.0, what="object size")
                            for _ in range(3)]
        for i, (lab, f) in enumerate(zip(self.size_labels, self.size_fields, strict=True)):
            sgrid.addWidget(lab, i // 2, 2 * (i % 2))
            sgrid.addWidget(f, i // 2, 2 * (i % 2) + 1)
            f.setObjectName(f"cell_size{i}")
            f.valueChanged.connect(self._size_typed)
        self.mesh_label = QtWidgets.QLabel()
        self.mesh_label.setWordWrap(True)
        sgrid.addWidget(self.mesh_label, 2, 0, 1, 4)
        self._subs = Subscriptions(self)
        follow_units(self._subs, d, [*self.xyz_fields, *self.rpy_fields, *self.size_fields])
        self.detail = QtWidgets.QWidget()
        dl = QtWidgets.QVBoxLayout(self.detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addLayout(acts)
        dl.addWidget(pose_box)
        dl.addWidget(size_box)

        layout = QtWidgets.QVBoxLayout(self)
        layout.addLayout(add)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail)
        self._subs.connect(session.events.cell, lambda _c: self.refresh())
        self.refresh()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if (obj is self.tree and event.type() == QtCore.QEvent.Type.KeyPress
                and event.key() == QtCore.Qt.Key.Key_Delete
                and self.tree.state() != QtWidgets.QAbstractItemView.State.EditingState):
            return self.delete_selected()
        return super().eventFilter(obj, event)

    # -- the cell and the selected object ----------------------------------------------------
    @property
    def cell(self):
        """The session's cell; a new, empty one (floor where the view draws it) if none."""
        cell = self.session.cell
        return cell if cell is not None else empty_cell(floor_height(self.session.robot))

    def current(self):
        """The selected object (a CellObject) or None."""
        cell = self.session.cell
        if cell is None or self.selected is None or self.selected not in cell.names:
            return None
        return cell.object(self.selected)

    def refresh(self) -> None:
        """Show the session's cell: the list (rebuilt when names or flags changed) and the
        selected object's values."""
        cell = self.session.cell
        objects = cell.objects if cell is not None else ()
        rows = tuple((o.name, o.shape, o.hidden) for o in objects)
        same_names = [r[:2] for r in rows] == [r[:2] for r in self._names]
        if rows != self._names and same_names:  # only shown or hidden: the check boxes
            self._names = rows
            self._filling = True
            try:
                for k, (_name, _shape, hidden) in enumerate(rows):
                    self.model.item(k, _NAME).setCheckState(
                        QtCore.Qt.CheckState.Unchecked if hidden else
                        QtCore.Qt.CheckState.Checked)
            finally:
                self._filling = False
        elif rows != self._names:
            self._names = rows
            self._filling = True
            blocker = QtCore.QSignalBlocker(self.tree.selectionModel())
            try:
                self.model.removeRows(0, self.model.rowCount())
                for name, shape, hidden in rows:
                    item = QtGui.QStandardItem(name)
                    item.setCheckable(True)
                    item.setCheckState(QtCore.Qt.CheckState.Unchecked if hidden
                                       else QtCore.Qt.CheckState.Checked)
                    item.setToolTip("checked: drawn in the view")
                    kind = QtGui.QStandardItem(shape)
                    kind.setEditable(False)
                    self.model.appendRow([item, kind])
            finally:
                self._filling = False
                blocker.unblock()
        if self.selected is not None and self.selected not in (r[0] for r in rows):
            self.selected = None
            self.objectSelected.emit(None)
        self._show_selection()
        self._fill_fields()

    def _show_selection(self) -> None:
        names = [r[0] for r in self._names]
        sm = self.tree.selectionModel()
        with QtCore.QSignalBlocker(sm):
            if self.selected in names:
                index = self.model.index(names.index(self.selected), _NAME)
                sm.setCurrentIndex(index, QtCore.QItemSelectionModel.SelectionFlag.ClearAndSelect
                                   | QtCore.QItemSelectionModel.SelectionFlag.Rows)
            else:
                sm.clearSelection()
                sm.setCurrentIndex(QtCore.QModelIndex(),
                                   QtCore.QItemSelectionModel.SelectionFlag.Clear)
        self.tree.viewport().update()

    def _fill_fields(self) -> None:
        obj = self.current()
        self.detail.setEnabled(obj is not None)
        fields = [*self.xyz_fields, *self.rpy_fields, *self.size_fields, self.collides_box]
        for f in fields:
            f.blockSignals(True)
        try:
            if obj is None:
                for lab, f in zip(self.size_labels, self.size_fields, strict=True):
                    lab.setVisible(False)
                    f.setVisible(False)
                self.mesh_label.setText("")
                return
            for f, v in zip(self.xyz_fields, obj.xyz, strict=True):
                f.set_si_value(v)
            for f, v in zip(self.rpy_fields, obj.rpy, strict=True):
                f.set_si_value(v)
            spec = _SIZE_FIELDS[obj.shape]
            for i, (lab, f) in enumerate(zip(self.size_labels, self.size_fields, strict=True)):
                on = i < len(spec)
                lab.setVisible(on)
                f.setVisible(on)
                if on:
                    lab.setText(spec[i][0])
                    f.what = f"{obj.name} {spec[i][0]}"
                    f.set_si_value(obj.size[spec[i][1]])
            self.mesh_label.setText(f"mesh file {Path(obj.file).name}, scale "
                                    + " x ".join(f"{s:g}" for s in obj.scale)
                                    if obj.shape == "mesh" else "")
            self.collides_box.setChecked(obj.collides)
            self.hide_button.setText("Show" if obj.hidden else "Hide")
            self.color_button.setStyleSheet(
                f"QPushButton {{ border-left: 14px solid {obj.color}; }}")
        finally:
            for f in fields:
                f.blockSignals(False)

    def select(self, name: str | None) -> None:
        """Choose object ``name`` (None: none) in the list; tells ``objectSelected``."""
        cell = self.session.cell
        if name is not None and (cell is None or name not in cell.names):
            name = None
        if name == self.selected:
            return
        self.selected = name
        self._show_selection()
        self._fill_fields()
        self.objectSelected.emit(name)

    def _row_chosen(self, index: QtCore.QModelIndex, _previous=None) -> None:
        row = index.row()
        self.select(self._names[row][0] if 0 <= row < len(self._names) else None)

    # -- edits: each one new cell, one undo step ------------------------------------------------
    def apply(self, text: str, cell) -> bool:
        """Make ``cell`` the session's cell as one undo step called ``text``."""
        try:
            with undo.labelled(self.session, text):
                self.session.set_cell(cell)
        except ValueError as exc:
            self.error_presenter("Cannot change the cell", str(exc))
            return False
        return True

    def _edit_object(self, text: str, **changes) -> bool:
        obj = self.current()
        if obj is None:
            return False
        try:
            new = replace(obj, **changes)
        except ValueError as exc:
            self.error_presenter("Cannot change the object", f"{obj.name}: {exc}")
            self._fill_fields()
            return False
        if new == obj:
            return False
        return self.apply(text, self.session.cell.with_object(new))

    def place(self) -> np.ndarray:
        """Where a new object goes: the tool centre point, in world coordinates (3,) m."""
        return (self.cell.base @ self.session.T)[:3, 3]

    def add(self, shape: str, path: str | Path | None = None) -> str | None:
        """Add a ``shape`` object (a mesh from ``path``; asked for when None) at the tool
        centre point, select it; returns its name (None when nothing was added)."""
        cell = self.cell
        xyz = tuple(float(v) for v in self.place())
        try:
            if shape == "mesh":
                if path is None:
                    path, _ = QtWidgets.QFileDialog.getOpenFileName(
                        self, "Add a mesh to the cell", "", MESH_FILTER)
                    if not path:
                        return None
                obj = mesh_object(cell, path, xyz)
            else:
                obj = new_object(cell, shape, xyz)
        except ValueError as exc:
            self.error_presenter("Cannot add the object", str(exc))
            return None
        if not self.apply(f"Add {obj.name!r}", cell.with_object(obj)):
            return None
        self.select(obj.name)
        return obj.name

    def delete_selected(self) -> bool:
        obj = self.current()
        if obj is None:
            return False
        return self.apply(f"Delete {obj.name!r}", self.session.cell.without(obj.name))

    def toggle_hidden(self) -> bool:
        obj = self.current()
        if obj is None:
            return False
        return self._edit_object(f"{'Show' if obj.hidden else 'Hide'} {obj.name!r}",
                                 hidden=not obj.hidden)

    def choose_color(self) -> bool:
        obj = self.current()
        if obj is None:
            return False
        color = QtWidgets.QColorDialog.getColor(QtGui.QColor(obj.color), self,
                                                f"Colour of {obj.name}")
        if not color.isValid():
            return False
        return self.set_color(color.name())

    def set_color(self, color: str) -> bool:
        """The selected object's colour, ``"#rrggbb"``."""
        obj = self.current()
        return obj is not None and self._edit_object(f"Colour of {obj.name!r}", color=color)

    def _collides_toggled(self, on: bool) -> None:
        obj = self.current()
        if obj is not None and obj.collides != on:
            self._edit_object(f"{obj.name!r} {'collides' if on else 'ignored by checks'}",
                              collides=on)

    def _pose_typed(self, _value=None) -> None:
        obj = self.current()
        if obj is None:
            return
        xyz = tuple(f.si_value() for f in self.xyz_fields)
        rpy = tuple(f.si_value() for f in self.rpy_fields)
        # the fields round what they show: keep the object's own value where unchanged
        xyz = tuple(o if math.isclose(o, n, abs_tol=1e-9) else n
                    for o, n in zip(obj.xyz, xyz, strict=True))
        rpy = tuple(o if math.isclose(o, n, abs_tol=1e-9) else n
                    for o, n in zip(obj.rpy, rpy, strict=True))
        self._edit_object(f"Move {obj.name!r}", xyz=xyz, rpy=rpy)

    def _size_typed(self, _value=None) -> None:
        obj = self.current()
        if obj is None or obj.shape == "mesh":
            return
        size = list(obj.size)
        for (_label, i), f in zip(_SIZE_FIELDS[obj.shape], self.size_fields, strict=False):
            size[i] = f.si_value()
        self._edit_object(f"Resize {obj.name!r}", size=tuple(size))

    def _item_changed(self, item: QtGui.QStandardItem) -> None:
        if self._filling or item.column() != _NAME:
            return
        row = item.row()
        if not 0 <= row < len(self._names):
            return
        old, _shape, hidden = self._names[row]
        cell = self.session.cell
        new = item.text().strip()
        shown = item.checkState() == QtCore.Qt.CheckState.Checked
        if shown == hidden:  # the check box: show or hide
            self.selected = old
            self._edit_object(f"{'Show' if shown else 'Hide'} {old!r}", hidden=not shown)
            return
        if new == old or cell is None:
            return
        try:
            renamed = cell.renamed(old, new)
        except ValueError as exc:
            self.error_presenter("Cannot rename the object", str(exc))
            self._names = ()  # the list shows the cell again
            self.refresh()
            return
        was_selected = self.selected == old
        if self.apply(f"Rename {old!r} to {new!r}", renamed) and was_selected:
            self.selected = None
            self.select(new)
