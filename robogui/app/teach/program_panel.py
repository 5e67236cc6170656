"""Teach program panel: waypoints, moves, pre-flight problems, files, autosave, recovery.

* Waypoints: Record stores the current configuration (auto-named P1, P2, ... and a
  joint move to it); double-click renames; Touch up replaces the selected one by the
  current configuration; a comment field edits its comment; Delete removes it (and
  the moves that go to it, after saying so).
* Moves: add a joint or linear move to the selected waypoint; reorder by drag and drop
  or Up/Down; edit kind, target, timing (default, duration in s, or speed), blend and
  comment of the selected move.
* Check: compiles the program, runs the pre-flight check and loads the trajectory;
  problems are listed and a click moves the playhead to the instant.
* Files: New / Open / Save / Save as (``.prog``, saved atomically). The program is
  autosaved every few seconds; at start-up an unsaved autosave is offered back in a
  non-blocking bar (Restore / Discard).

Every edit goes through :class:`~robogui.session.teach.teach.TeachState`; an edit that makes no
sense (duplicate name, ...) is refused with its message in the status line.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.teach.program import ProgramError

from .. import style, undo
from ..bindings import Subscriptions
from ..widgets.numeric_field import NumberField
from .program_files import ProgramFileActions

__all__ = ["ProgramPanel"]

#: what the move fields take (the program file's own bounds are checked when it loads)
MAX_DURATION_S = 1000.0
MAX_BLEND_S = 100.0
MAX_LINEAR_SPEED = 10.0  # m/s

#: the undo step each program edit makes (Edit > History shows these)
_EDIT_NAMES = {"record": "Record waypoint", "touch_up": "Touch up waypoint",
               "rename_waypoint": "Rename waypoint", "set_waypoint_comment": "Comment waypoint",
               "delete_waypoint": "Delete waypoint", "insert_move": "Add move",
               "move_move": "Move move", "reorder_moves": "Reorder moves",
               "delete_move": "Delete move", "update_move": "Edit move"}

_SEVERITY_COLORS = {"error": style.AT_LIMIT_COLOR, "warning": style.NEAR_LIMIT_COLOR,
                    "info": "#9fb0c3"}
_TIMING = ("default", "duration", "speed")


class _CompactList(QtWidgets.QListWidget):
    """A list that asks for little height and takes what the splitter gives it.

    QListWidget hints 192 px; three of them made the panel ask for ~940 px, and the
    dock's scroll area (which sizes a panel with word-wrapped text to its preferred
    height) then pushed the pre-flight problems out of sight after Check.
    """

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802
        hint = super().sizeHint()
        return QtCore.QSize(hint.width(), max(self.minimumHeight(), 44))

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 (layouts take the larger)
        hint = super().minimumSizeHint()
        return QtCore.QSize(hint.width(), max(self.minimumHeight(), 44))


class ProgramPanel(ProgramFileActions, QtWidgets.QWidget):
    """Edit ``state.program``. ``error_presenter(title, text)`` shows file errors."""

    def __init__(self, session, state, parent=None, *, error_presenter=None,
                 autosave_ms: int = 1000):
        super().__init__(parent)
        self.session, self.state = session, state
        self.error_presenter = error_presenter if error_presenter is not None else (
            lambda title, text: QtWidgets.QMessageBox.warning(self, title, text))
        layout = QtWidgets.QVBoxLayout(self)

        # recovery bar (hidden until an autosave is offered back)
        self.recovery_bar = QtWidgets.QFrame()
        self.recovery_bar.setStyleSheet("QFrame { background: #4a3b16; border-radius: 4px; }")
        rb = QtWidgets.QHBoxLayout(self.recovery_bar)
        self.recovery_label = QtWidgets.QLabel()
        self.recovery_label.setWordWrap(True)
        self.restore_button = QtWidgets.QPushButton("Restore")
        self.discard_button = QtWidgets.QPushButton("Discard")
        self.restore_button.clicked.connect(self.restore_recovered)
        self.discard_button.clicked.connect(self.discard_recovered)
        rb.addWidget(self.recovery_label, 1)
        rb.addWidget(self.restore_button)
        rb.addWidget(self.discard_button)
        self.recovery_bar.hide()
        self._recovered = None
        layout.addWidget(self.recovery_bar)

        # file row
        file_row = QtWidgets.QHBoxLayout()
        self.file_label = QtWidgets.QLabel()
        self.file_label.setStyleSheet("font-weight: bold;")
        file_row.addWidget(self.file_label, 1)
        self.file_buttons = {}
        for key, text, slot in (("new", "New", self.new_program), ("open", "Open\u2026",
                                self.open_dialog), ("save", "Save", self.save),
                                ("save_as", "Save as\u2026", self.save_as_dialog)):
            b = QtWidgets.QToolButton()
            b.setText(text)
            b.clicked.connect(slot)
            file_row.addWidget(b)
            self.file_buttons[key] = b
        layout.addLayout(file_row)
        # a program taught on another robot (Program.robot_mismatch): said, not hidden
        self.robot_label = QtWidgets.QLabel()
        self.robot_label.setObjectName("programRobotMismatch")
        self.robot_label.setWordWrap(True)
        self.robot_label.setStyleSheet(f"color: {style.NEAR_LIMIT_COLOR};")
        self.robot_label.hide()
        layout.addWidget(self.robot_label)

        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        split.setChildrenCollapsible(False)
        layout.addWidget(split, 1)
        self.splitter = split

        # waypoints
        wp_box = QtWidgets.QGroupBox("Waypoints (double-click to rename)")
        wl = QtWidgets.QVBoxLayout(wp_box)
        self.waypoint_list = _CompactList()
        self.waypoint_list.setEditTriggers(
            QtWidgets.QAbstractItemView.EditTrigger.DoubleClicked
            | QtWidgets.QAbstractItemView.EditTrigger.EditKeyPressed)
        self.waypoint_list.itemChanged.connect(self._on_waypoint_renamed)
        self.waypoint_list.currentRowChanged.connect(lambda _r: self._show_waypoint())
        wl.addWidget(self.waypoint_list)
        self.waypoint_comment = QtWidgets.QLineEdit()
        self.waypoint_comment.setPlaceholderText("comment on the selected waypoint")
        self.waypoint_comment.editingFinished.connect(self._on_waypoint_comment)
        wl.addWidget(self.waypoint_comment)
        row = QtWidgets.QHBoxLayout()
        self.record_button = self._button(row, "Record", self.record,
                                          "Store the current configuration as a new waypoint "
                                          "and add a joint move to it")
        self.touch_up_button = self._button(row, "Touch up", self.touch_up,
                                            "Replace the selected waypoint by the current "
                                            "configuration")
        self.delete_waypoint_button = self._button(row, "Delete", self.delete_waypoint,
                                                   "Delete the selected waypoint")
        wl.addLayout(row)
        split.addWidget(wp_box)

        # moves
        mv_box = QtWidgets.QGroupBox("Moves (drag to reorder)")
        ml = QtWidgets.QVBoxLayout(mv_box)
        self.move_list = _CompactList()
        self.move_list.setDragDropMode(QtWidgets.QAbstractItemView.DragDropMode.InternalMove)
        self.move_list.model().rowsMoved.connect(lambda *_: self._on_moves_dragged())
        self.move_list.currentRowChanged.connect(lambda _r: self._show_move())
        ml.addWidget(self.move_list)
        row = QtWidgets.QHBoxLayout()
        self._button(row, "+ Joint", lambda: self.add_move("joint"),
                     "Add a joint move to the selected waypoint")
        self._button(row, "+ Linear", lambda: self.add_move("linear"),
                     "Add a straight-line move to the selected waypoint")
        self._button(row, "\u2191", lambda: self.shift_move(-1), "Move up")
        self._button(row, "\u2193", lambda: self.shift_move(1), "Move down")
        self._button(row, "Delete", self.delete_move, "Delete the selected move")
        ml.addLayout(row)
        form = QtWidgets.QGridLayout()
        self.kind_combo = QtWidgets.QComboBox()
        self.kind_combo.addItems(["joint", "linear", "circular"])
        self.via_combo = QtWidgets.QComboBox()
        self.via_combo.setToolTip("circular moves: the waypoint the arc passes through")
        # blend zone (mm) and speed / acceleration overrides (% of the joint limits)
        self.radius_box = QtWidgets.QDoubleSpinBox()
        self.radius_box.setRange(0.0, 1000.0)
        self.radius_box.setDecimals(1)
        self.radius_box.setSuffix(" mm")
        self.radius_box.setToolTip("Blend radius: the path leaves this waypoint's corner within "
                                   "this distance without stopping (0: a fine point, stop)")
        self.speed_pct_box = QtWidgets.QDoubleSpinBox()
        self.accel_pct_box = QtWidgets.QDoubleSpinBox()
        for box, what in ((self.speed_pct_box, "speed"), (self.accel_pct_box, "acceleration")):
            box.setRange(1.0, 100.0)
            box.setDecimals(0)
            box.setSuffix(" %")
            box.setValue(100.0)
            box.setToolTip(f"{what.capitalize()} override: this share of every joint's "
                           f"{what} limit")
        self.target_combo = QtWidgets.QComboBox()
        self.timing_combo = QtWidgets.QComboBox()
        self.timing_combo.addItems(["default timing", "duration (s)", "speed"])
        # typed values: taken as typed, clamped with a note, or refused with the reason
        self.timing_value = NumberField("time", "s", what="move timing", decimals=3)
        self.timing_value.setRange(0.0, MAX_DURATION_S)
        self.timing_value.setSpecialValueText("\u2014")  # default timing: no value to show
        self.timing_value.setToolTip("the move's duration (s) or speed, as chosen on the left")
        self.blend_box = NumberField("time", "s", what="blend", decimals=2)
        self.blend_box.setRange(0.0, MAX_BLEND_S)
        self.move_comment = QtWidgets.QLineEdit()
        self.move_comment.setPlaceholderText("comment on the selected move")
        for w in (self.timing_value, self.blend_box):
            w.setKeyboardTracking(False)
        form.addWidget(QtWidgets.QLabel("Kind"), 0, 0)
        form.addWidget(self.kind_combo, 0, 1)
        form.addWidget(QtWidgets.QLabel("To"), 0, 2)
        form.addWidget(self.target_combo, 0, 3)
        form.addWidget(self.timing_combo, 1, 0, 1, 2)
        form.addWidget(self.timing_value, 1, 2, 1, 2)
        form.addWidget(QtWidgets.QLabel("Blend"), 2, 0)
        form.addWidget(self.blend_box, 2, 1)
        form.addWidget(self.move_comment, 2, 2, 1, 2)
        form.addWidget(QtWidgets.QLabel("Blend r"), 3, 0)
        form.addWidget(self.radius_box, 3, 1)
        form.addWidget(QtWidgets.QLabel("Via"), 3, 2)
        form.addWidget(self.via_combo, 3, 3)
        form.addWidget(QtWidgets.QLabel("Speed"), 4, 0)
        form.addWidget(self.speed_pct_box, 4, 1)
        form.addWidget(QtWidgets.QLabel("Accel"), 4, 2)
        form.addWidget(self.accel_pct_box, 4, 3)
        for box in (self.radius_box, self.speed_pct_box, self.accel_pct_box):
            box.setKeyboardTracking(False)
            box.valueChanged.connect(lambda _v: self._apply_move_fields())
        self.via_combo.activated.connect(lambda _i: self._apply_move_fields())
        ml.addLayout(form)
        self.kind_combo.activated.connect(lambda _i: self._apply_move_fields())
        self.target_combo.activated.connect(lambda _i: self._apply_move_fields())
        self.timing_combo.activated.connect(lambda _i: self._apply_move_fields())
        self.timing_value.valueChanged.connect(lambda _v: self._apply_move_fields())
        self.blend_box.valueChanged.connect(lambda _v: self._apply_move_fields())
        self.move_comment.editingFinished.connect(self._apply_move_fields)
        split.addWidget(mv_box)

        # pre-flight
        pf_box = QtWidgets.QGroupBox("Pre-flight check")
        pl = QtWidgets.QVBoxLayout(pf_box)
        self.check_button = QtWidgets.QPushButton("Check && load into the timeline")
        self.check_button.clicked.connect(self.check)
        pl.addWidget(self.check_button)
        self.problem_list = _CompactList()
        # problems are sentences: wrap them at the panel's width instead of a sideways scroll
        self.problem_list.setWordWrap(True)
        self.problem_list.setHorizontalScrollBarPolicy(
            QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problem_list.setResizeMode(QtWidgets.QListView.ResizeMode.Adjust)
        self.problem_list.itemClicked.connect(self._on_problem_clicked)
        self.problem_list.itemActivated.connect(self._on_problem_clicked)
        pl.addWidget(self.problem_list)
        split.addWidget(pf_box)
        for k, stretch in enumerate((1, 2, 2)):  # the moves list gets the most room
            split.setStretchFactor(k, stretch)
        for lst in (self.waypoint_list, self.move_list, self.problem_list):
            lst.setMinimumHeight(44)  # two rows; the splitter hands out the rest

        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)

        self._subs = Subscriptions(self)
        self._subs.connect(state.events.program, lambda _p: self.refresh())
        self._subs.connect(state.events.file, lambda _p: self._show_file())
        self._subs.connect(session.events.robot, lambda _r: self._show_file())
        self._subs.connect(state.events.problems, lambda _p: self._show_problems())
        self._subs.connect(state.events.compiled, lambda _c: self.refresh())
        self.autosave_timer = QtCore.QTimer(self)
        self.autosave_timer.setInterval(autosave_ms)
        self.autosave_timer.timeout.connect(self._autosave)
        if state.autosaver is not None:
            self.autosave_timer.start()
        self.refresh()
        self._show_file()

    def _button(self, row, text, slot, tip) -> QtWidgets.QPushButton:
        b = QtWidgets.QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(slot)
        row.addWidget(b)
        return b

    # -- showing ----------------------------------------------------------------------------
    def refresh(self) -> None:
        prog = self.state.program
        wrow, mrow = self.waypoint_list.currentRow(), self.move_list.currentRow()
        with QtCore.QSignalBlocker(self.waypoint_list):
            self.waypoint_list.clear()
            for w in prog.waypoints:
                item = QtWidgets.QListWidgetItem(w.name)
                item.setFlags(item.flags() | QtCore.Qt.ItemFlag.ItemIsEditable)
                item.setData(QtCore.Qt.ItemDataRole.UserRole, w.name)
                if w.comment:
                    item.setToolTip(w.comment)
                self.waypoint_list.addItem(item)
            self.waypoint_list.setCurrentRow(min(max(wrow, 0), len(prog.waypoints) - 1))
        with QtCore.QSignalBlocker(self.move_list):
            self.move_list.clear()
            timed = self._move_timing()
            for i, m in enumerate(prog.moves):
                text = f"{i + 1}. {m.describe()}" + (f"   # {m.comment}" if m.comment else "")
                if i in timed:
                    text += f"   [{timed[i]}]"
                item = QtWidgets.QListWidgetItem(text)
                item.setData(QtCore.Qt.ItemDataRole.UserRole, i)
                self.move_list.addItem(item)
            self.move_list.setCurrentRow(min(max(mrow, 0), len(prog.moves) - 1))
        for combo in (self.target_combo, self.via_combo):
            with QtCore.QSignalBlocker(combo):
                combo.clear()
                combo.addItems(prog.names)
        self._show_waypoint()
        self._show_move()
        self._show_file()

    def _move_timing(self) -> dict[int, str]:
        """Per move, its time and the limit that sets its speed, after a check of this
        very program (empty before one)."""
        c = self.state.compiled
        if c is None or c.program != self.state.program:
            return {}
        out = {}
        for seg in c.segments:
            limit = c.active_limits[seg.move_index] if c.active_limits else ""
            out[seg.move_index] = f"{seg.duration:.2f} s" + (f", {limit}" if limit else "")
        return out

    def _show_file(self) -> None:
        st = self.state
        name = st.path.name if st.path is not None else f"{st.program.name} (not saved)"
        self.file_label.setText(("\u25cf " if st.modified else "") + name)
        self.file_label.setToolTip(str(st.path) if st.path else "")
        mismatch = st.program.robot_mismatch(self.session.robot)
        self.robot_label.setText(f"\u26a0 {mismatch[0].upper()}{mismatch[1:]}" if mismatch
                                 else "")
        self.robot_label.setVisible(bool(mismatch))

    def _show_waypoint(self) -> None:
        name = self.selected_waypoint()
        with QtCore.QSignalBlocker(self.waypoint_comment):
            self.waypoint_comment.setText(
                self.state.program.waypoint(name).comment if name else "")
        for w in (self.touch_up_button, self.delete_waypoint_button, self.waypoint_comment):
            w.setEnabled(name is not None)

    def _show_move(self) -> None:
        i = self.selected_move()
        widgets = (self.kind_combo, self.target_combo, self.timing_combo, self.timing_value,
                   self.blend_box, self.move_comment, self.radius_box, self.via_combo,
                   self.speed_pct_box, self.accel_pct_box)
        for w in widgets:
            w.setEnabled(i is not None)
        if i is None:
            return
        m = self.state.program.moves[i]
        if m.is_gripper:  # a grasp or release: its comment only (its kind is in the list)
            for w in widgets:
                w.setEnabled(w is self.move_comment)
            return self.move_comment.setText(m.comment)
        for w in widgets:
            w.blockSignals(True)
        try:
            self.kind_combo.setCurrentText(m.kind)
            self.target_combo.setCurrentText(m.target)
            timing = "duration" if m.duration is not None else (
                "speed" if m.speed is not None else "default")
            self.timing_combo.setCurrentIndex(_TIMING.index(timing))
            self.timing_value.setEnabled(timing != "default")
            tv = self.timing_value
            if timing == "duration":
                tv.set_quantity("time", "s", 3)
                tv.what = "duration"
                tv.setRange(0.0, MAX_DURATION_S)
                tv.setValue(m.duration)
            elif timing == "speed" and m.kind == "joint":
                tv.set_quantity(None, "", 3)
                tv.what = "speed (fraction of the maximum)"
                tv.setSuffix(" (fraction)")
                tv.setRange(0.0, 1.0)
                tv.setValue(m.speed)
            elif timing == "speed":
                tv.set_quantity("speed", "m/s", 3)
                tv.what = "tool speed"
                tv.setRange(0.0, MAX_LINEAR_SPEED)
                tv.setValue(m.speed)
            else:
                tv.set_quantity(None, "", 3)
                tv.setValue(0.0)  # shows the dash
            self.blend_box.setValue(m.blend)
            # only joint moves blend (mstraj); a linear move stops at its waypoint
            self.blend_box.setEnabled(m.kind == "joint")
            self.blend_box.setToolTip(
                "Seconds over which this move blends into the next joint move (0: stop; "
                "format version 1; the blend radius below is the controller's way)"
                if m.kind == "joint" else "Tool moves blend by a radius (Blend r)")
            self.move_comment.setText(m.comment)
            self.radius_box.setValue(m.blend_radius * 1000.0)
            self.speed_pct_box.setValue(m.speed_percent or 100.0)
            self.accel_pct_box.setValue(m.accel_percent or 100.0)
            self.via_combo.setEnabled(m.kind == "circular")
            if m.via:
                self.via_combo.setCurrentText(m.via)
        finally:
            for w in widgets:
                w.blockSignals(False)

    def _show_problems(self) -> None:
        self.problem_list.clear()
        problems = self.state.problems
        for p in problems:
            # the message names its move ("move 3: ..."); the severity is also the colour
            item = QtWidgets.QListWidgetItem(f"t = {p.time:.2f} s  [{p.severity}]  {p.message}")
            item.setForeground(QtGui.QColor(_SEVERITY_COLORS[p.severity]))
            item.setData(QtCore.Qt.ItemDataRole.UserRole, p)
            item.setToolTip("Click to move the playhead to this instant")
            self.problem_list.addItem(item)
        if self.state.compiled is not None:
            n_err = sum(p.severity == "error" for p in problems)
            n_warn = sum(p.severity == "warning" for p in problems)
            dur = self.state.compiled.cycle_time
            self._status(f"Checked: cycle time {dur:.2f} s, {n_err} error(s), {n_warn} "
                         "warning(s); "
                         "the trajectory is in the timeline", ok=n_err == 0)
            self._reveal(self.problem_list)

    def _reveal(self, widget: QtWidgets.QWidget) -> None:
        """Scroll the dock's scroll area (if any) so that ``widget`` and the status show."""
        area = self.parentWidget()
        while area is not None and not isinstance(area, QtWidgets.QScrollArea):
            area = area.parentWidget()
        if area is not None:
            area.ensureWidgetVisible(self.status, 0, 0)
            area.ensureWidgetVisible(widget, 0, 0)

    def _status(self, text: str, ok: bool = True) -> None:
        self.status.setStyleSheet(f"color: {'#9fb0c3' if ok else style.NEAR_LIMIT_COLOR};")
        self.status.setText(text)

    @property
    def status_text(self) -> str:
        return self.status.text()

    # -- selection ----------------------------------------------------------------------------
    def selected_waypoint(self) -> str | None:
        item = self.waypoint_list.currentItem()
        return None if item is None else item.data(QtCore.Qt.ItemDataRole.UserRole)

    def selected_move(self) -> int | None:
        r = self.move_list.currentRow()
        return r if 0 <= r < len(self.state.program.moves) else None

    def select_waypoint(self, name: str) -> None:
        self.waypoint_list.setCurrentRow(self.state.program.names.index(name))

    def select_move(self, i: int) -> None:
        self.move_list.setCurrentRow(i)

    # -- edits --------------------------------------------------------------------------------
    def _edit(self, method: str, *args, **kwargs) -> bool:
        try:
            with undo.labelled(self.session, _EDIT_NAMES.get(method, "Edit program")):
                self.state.edit(method, *args, **kwargs)
        except ProgramError as exc:
            self._status(str(exc), ok=False)
            self.refresh()  # e.g. undo an in-place rename that was refused
            return False
        return True

    def record(self) -> bool:
        if self.state.program.n_joints not in (None, self.session.robot.n):
            self._status("The program was taught on a robot with another number of joints",
                         ok=False)
            return False
        name = self.state.program.next_name()
        ok = self._edit("record", self.session.q, name)
        if ok:
            self.select_waypoint(name)
            self.select_move(len(self.state.program.moves) - 1)
            self._status(f"Recorded {name}")
        return ok

    def touch_up(self) -> bool:
        name = self.selected_waypoint()
        if name is None:
            return False
        ok = self._edit("touch_up", name, self.session.q)
        if ok:
            self._status(f"{name} now holds the current configuration")
        return ok

    def rename_waypoint(self, old: str, new: str) -> bool:
        ok = self._edit("rename_waypoint", old, new.strip())
        if ok:
            self.select_waypoint(new.strip())
        return ok

    def _on_waypoint_renamed(self, item: QtWidgets.QListWidgetItem) -> None:
        old = item.data(QtCore.Qt.ItemDataRole.UserRole)
        if old is not None and item.text() != old:
            QtCore.QTimer.singleShot(0, lambda: self.rename_waypoint(old, item.text()))

    def _on_waypoint_comment(self) -> None:
        name = self.selected_waypoint()
        if name is not None and self.waypoint_comment.text() != (
                self.state.program.waypoint(name).comment):
            self._edit("set_waypoint_comment", name, self.waypoint_comment.text())

    def delete_waypoint(self) -> bool:
        name = self.selected_waypoint()
        if name is None:
            return False
        users = self.state.program.moves_using(name)
        ok = self._edit("delete_waypoint", name, cascade=True)
        if ok and users:
            self._status(f"Deleted {name} and the {len(users)} move(s) that went to it")
        return ok

    def add_move(self, kind: str) -> bool:
        name = self.selected_waypoint()
        if name is None:
            self._status("Select the waypoint the move goes to", ok=False)
            return False
        from robogui.session.teach.program import Move

        i = self.selected_move()
        at = None if i is None else i + 1
        ok = self._edit("insert_move", Move(kind, name), at)
        if ok:
            self.select_move(len(self.state.program.moves) - 1 if at is None else at)
        return ok

    def shift_move(self, delta: int) -> bool:
        i = self.selected_move()
        if i is None or not 0 <= i + delta < len(self.state.program.moves):
            return False
        ok = self._edit("move_move", i, i + delta)
        if ok:
            self.select_move(i + delta)
        return ok

    def _on_moves_dragged(self) -> None:
        order = [self.move_list.item(r).data(QtCore.Qt.ItemDataRole.UserRole)
                 for r in range(self.move_list.count())]
        if order != list(range(len(order))):
            QtCore.QTimer.singleShot(0, lambda: self._edit("reorder_moves", order))

    def delete_move(self) -> bool:
        i = self.selected_move()
        return i is not None and self._edit("delete_move", i)

    def _apply_move_fields(self) -> None:
        i = self.selected_move()
        if i is None:
            return
        if self.state.program.moves[i].is_gripper:  # only its comment is edited here
            return self._edit("update_move", i, comment=self.move_comment.text())
        timing = _TIMING[self.timing_combo.currentIndex()]
        value = self.timing_value.value()
        kind = self.kind_combo.currentText()
        changes = dict(kind=kind, target=self.target_combo.currentText(),
                       duration=value if timing == "duration" else None,
                       speed=value if timing == "speed" else None,
                       blend=self.blend_box.value(), comment=self.move_comment.text(),
                       blend_radius=self.radius_box.value() / 1000.0,
                       speed_percent=(None if self.speed_pct_box.value() >= 100.0
                                      else self.speed_pct_box.value()),
                       accel_percent=(None if self.accel_pct_box.value() >= 100.0
                                      else self.accel_pct_box.value()),
                       via=(self.via_combo.currentText() or None) if kind == "circular"
                       else None)
        m = self.state.program.moves[i]
        was = "duration" if m.duration is not None else (
            "speed" if m.speed is not None else "default")
        if timing != was:  # a new kind of timing starts from a sensible value
            value = {"duration": 2.0, "speed": 0.5 if kind == "joint" else 0.25}.get(timing)
            changes.update(duration=value if timing == "duration" else None,
                           speed=value if timing == "speed" else None)
        if changes["speed"] is not None and kind == "joint" and changes["speed"] > 1.0:
            changes["speed"] = 1.0
        if all(getattr(m, k) == v for k, v in changes.items()):
            return
        self._edit("update_move", i, **changes)

    def set_move_timing(self, i: int, *, duration=None, speed=None, blend=None) -> bool:
        """Set a move's duration or speed (and blend) directly (scripts and tests)."""
        changes = dict(duration=duration, speed=speed)
        if blend is not None:
            changes["blend"] = blend
        return self._edit("update_move", i, **changes)

    # -- check ----------------------------------------------------------------------------------
    def check(self) -> bool:
        """Compile, pre-flight and load the program's trajectory into the timeline."""
        if not self.state.program.moves:
            self._status("The program has no moves yet: record waypoints first", ok=False)
            return False
        try:
            self.state.compile()
        except ProgramError as exc:
            self._status(f"Cannot compile: {exc}", ok=False)
            return False
        return True

    def _on_problem_clicked(self, item: QtWidgets.QListWidgetItem) -> None:
        problem = item.data(QtCore.Qt.ItemDataRole.UserRole)
        if problem is not None:
            self.state.seek_problem(problem)
