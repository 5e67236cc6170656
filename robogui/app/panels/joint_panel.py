"""The drivebot panel: one row per joint (slider, spin box, unit, limit margin, +/- steps).

r6 ``drivebot`` popped up one slider per joint; here each row also takes an exact
value, shows how close the joint is to its limits, and steps from the keyboard:
Up/Down select a joint, Left/Right step it (Ctrl: fine step). Buttons below move to
the robot's named poses, to zero, or to a random configuration within the limits.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.explain import readout

from .. import style, undo
from ..bindings import Ref, Subscriptions, bind_slider, bind_spinbox, joint_ref
from ..widgets.numeric_field import NumberField

__all__ = ["JointPanel", "JointRow", "LimitBar", "STEPS"]

#: (coarse, fine) keyboard / button steps in SI units
STEPS = {"R": (math.radians(1.0), math.radians(0.1)), "P": (0.005, 0.0005)}
ROWS_AT_ONCE = 24  # rows built when a robot opens; any 24-joint robot gets all at once
ROWS_PER_IDLE = 12  # then this many per pass of the event loop (~30 ms)


class LimitBar(QtWidgets.QWidget):
    """A thin bar: the joint's range, amber end zones, and a marker at the current value."""

    def __init__(self, lo: float, hi: float, near: float, parent=None):
        super().__init__(parent)
        self.lo, self.hi, self.near = lo, hi, near
        self.value = lo
        self.state = 0
        self.setFixedHeight(7)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                           QtWidgets.QSizePolicy.Policy.Fixed)

    def set_value(self, value: float, state: int, margin: float) -> None:
        self.value, self.state = float(value), int(state)
        self.setToolTip(f"{100 * margin:.1f} % of the range from the nearest limit")
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        p.setPen(QtCore.Qt.PenStyle.NoPen)
        p.setBrush(QtGui.QColor("#3a3f47"))
        p.drawRoundedRect(QtCore.QRectF(0, 2, w, h - 4), 2, 2)
        zone = self.near * w
        amber = QtGui.QColor(style.NEAR_LIMIT_COLOR)
        amber.setAlpha(90)
        p.setBrush(amber)
        p.drawRect(QtCore.QRectF(0, 2, zone, h - 4))
        p.drawRect(QtCore.QRectF(w - zone, 2, zone, h - 4))
        f = (self.value - self.lo) / (self.hi - self.lo) if self.hi > self.lo else 0.5
        x = min(max(f, 0.0), 1.0) * (w - 4) + 2
        color = ("#d7dce3", style.NEAR_LIMIT_COLOR, style.AT_LIMIT_COLOR)[min(self.state, 2)]
        p.setBrush(QtGui.QColor(color))
        p.drawRoundedRect(QtCore.QRectF(x - 2, 0, 4, h), 1.5, 1.5)
        p.end()


class JointRow(QtWidgets.QFrame):
    """Widgets for joint ``j``: name, -, slider, +, spin box, unit button; limit bar below."""

    clicked = QtCore.Signal(int)

    def __init__(self, session, j: int, parent=None):
        super().__init__(parent)
        self.setObjectName("jointRow")
        self.session, self.j = session, j
        link = session.robot.links[j]
        self.kind = link.joint
        lo, hi = session.robot.qlim[j]
        self.lo, self.hi = float(lo), float(hi)

        swatch = QtWidgets.QLabel()
        swatch.setFixedSize(10, 22)
        swatch.setStyleSheet(f"background: {style.joint_color(j)}; border-radius: 3px;")
        self.name = QtWidgets.QLabel(f"<b>q{j + 1}</b>")
        self.name.setToolTip(f"joint {j + 1}: {'revolute' if self.kind == 'R' else 'prismatic'}"
                             + (f" ({link.name})" if link.name else ""))
        names = tuple(L.name for L in session.robot.links)
        sub_text = (readout.short_joint_names(names)[j] if link.name
                    else ("revolute" if self.kind == "R" else "prismatic"))
        sub = QtWidgets.QLabel()
        sub.setFixedWidth(64)
        sub.setStyleSheet("color: #8b929c; font-size: 8pt;")
        small = QtGui.QFont(sub.font())
        small.setPointSizeF(8.0)  # the style sheet's size, which the label draws with
        # URDF names share words (panda_joint1..7): those are dropped, and what is left is
        # elided in the middle so its distinguishing end stays readable; the whole name is
        # in the tooltip
        sub.setText(QtGui.QFontMetrics(small).elidedText(
            sub_text, QtCore.Qt.TextElideMode.ElideMiddle, 64))
        sub.setToolTip(link.name or sub_text)
        self.minus = QtWidgets.QToolButton(text="\u2212")
        self.plus = QtWidgets.QToolButton(text="+")
        for b, sign in ((self.minus, -1), (self.plus, 1)):
            b.setAutoRepeat(True)
            b.setToolTip("step (Ctrl: fine step)")
            b.clicked.connect(lambda _=False, s=sign: self.step(s, fine=_ctrl_held()))
        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(120)
        self.slider.setToolTip(f"drag to move q{j + 1} (one undo step per drag); Up/Down "
                               "select a joint, Left/Right step it")
        # typed values are taken as typed, clamped to the limits with a note, or refused;
        # written on Enter / focus out, not per keystroke
        self.spin = NumberField("angle" if self.kind == "R" else "length",
                                self.unit_name_for(session, self.kind), what=f"q{j + 1}",
                                show_unit=False)
        self.spin.setMinimumWidth(96)
        self.spin.setProperty("keyNumber", True)  # presentation mode enlarges it the most
        self.unit = QtWidgets.QToolButton()
        self.unit.setObjectName("unitButton")
        self.unit.setToolTip("toggle units for all " +
                             ("revolute" if self.kind == "R" else "prismatic") + " joints")
        self.unit.clicked.connect(self.toggle_unit)
        from robogui.session.session import NEAR_LIMIT

        self.bar = LimitBar(self.lo, self.hi, NEAR_LIMIT)

        grid = QtWidgets.QGridLayout(self)
        grid.setContentsMargins(4, 3, 4, 3)
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(0)
        grid.addWidget(swatch, 0, 0, 2, 1)
        grid.addWidget(self.name, 0, 1)
        grid.addWidget(sub, 1, 1)
        grid.addWidget(self.minus, 0, 2)
        grid.addWidget(self.slider, 0, 3)
        grid.addWidget(self.bar, 1, 3)
        grid.addWidget(self.plus, 0, 4)
        grid.addWidget(self.spin, 0, 5)
        grid.addWidget(self.unit, 0, 6)
        grid.setColumnStretch(3, 1)
        grid.setColumnMinimumWidth(1, 64)  # rows line up whatever the joint names

        ref = joint_ref(session, j)
        # undo: a drag is one step (at release); wheel / page-key ticks merge into one
        self.slider_binding = bind_slider(
            self.slider, _labelled(ref, session, f"Move q{j + 1}", ("slider", j)),
            self.lo, self.hi, steps=2000)
        self.spin_binding = bind_spinbox(self.spin, _labelled(ref, session, f"Type q{j + 1}"))
        for w in (self.slider, self.minus, self.plus, self.unit):
            w.installEventFilter(self)
        self._subs = Subscriptions(self)
        self._subs.connect(session.events.q, lambda _q: self.update_limit(), paced=True)
        self.update_units()
        self.update_limit()

    def release(self) -> None:
        """Stop following the session (before the row is deleted)."""
        self._subs.clear()
        self.slider_binding.disconnect()
        self.spin_binding.disconnect()

    @staticmethod
    def unit_name_for(session, kind: str) -> str:
        d = session.display
        return d.angle_unit if kind == "R" else d.length_unit

    @property
    def unit_name(self) -> str:
        return self.unit_name_for(self.session, self.kind)

    def _limit_text(self, _session=None) -> str:
        unit = self.unit_name
        scale = readout.angle_scale(unit) if self.kind == "R" else readout.length_scale(unit)
        return f"{self.lo * scale:g} to {self.hi * scale:g} {unit}"

    def update_units(self) -> None:
        unit = self.unit_name
        scale = (readout.angle_scale(unit) if self.kind == "R" else readout.length_scale(unit))
        digits = readout.decimals(unit)
        self.spin.set_unit(unit, digits)
        self.spin.setToolTip(f"q{self.j + 1}: type a value and press Enter "
                             f"(limits {self._limit_text(self.session)})")
        self.spin_binding.set_scale(scale, self.lo, self.hi, digits, step=self.STEP_SHOWN[unit])
        self.unit.setText(unit)

    STEP_SHOWN = {"deg": 1.0, "rad": 0.01, "mm": 1.0, "m": 0.001}

    def toggle_unit(self) -> None:
        d = self.session.display
        if self.kind == "R":
            d.angle_unit = "rad" if d.angle_unit == "deg" else "deg"
        else:
            d.length_unit = "m" if d.length_unit == "mm" else "mm"

    def update_limit(self) -> None:
        s = self.session
        self.bar.set_value(s.q[self.j], s.limit_state[self.j], s.limit_margin[self.j])

    def step(self, sign: int, fine: bool = False) -> None:
        """Move the joint by one step (coarse or fine), clipped into its limits."""
        delta = STEPS[self.kind][1 if fine else 0] * sign
        value = min(max(self.session.q[self.j] + delta, self.lo), self.hi)
        with undo.labelled(self.session, f"Step q{self.j + 1}", ("step", self.j)):
            self.session.set_joint(self.j, value)

    def set_selected(self, on: bool) -> None:
        self.setProperty("selected", "true" if on else "false")
        self.style().unpolish(self)
        self.style().polish(self)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        # a click on the row's name or anywhere outside its widgets: the keyboard follows
        # (the labels take no focus, so the arrow keys would go wherever it was before)
        self.clicked.emit(self.j)
        self.slider.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
        super().mousePressEvent(event)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        # arrows anywhere in the row but the spin box step this joint / change selection
        if event.type() == QtCore.QEvent.Type.KeyPress:
            panel = self.parent_panel()
            if panel is not None and panel.handle_key(event):
                return True
        elif event.type() in (QtCore.QEvent.Type.FocusIn, QtCore.QEvent.Type.MouseButtonPress):
            self.clicked.emit(self.j)
        return super().eventFilter(obj, event)

    def parent_panel(self):
        w = self.parentWidget()
        while w is not None and not isinstance(w, JointPanel):
            w = w.parentWidget()
        return w


def _labelled(ref: Ref, session, text: str, merge_key=None) -> Ref:
    """``ref`` whose writes are one undo step called ``text``."""
    def set_(value, changing: bool = False):
        with undo.labelled(session, text, merge_key):
            ref.set(value, changing=changing)

    return Ref(get=ref.get, set=set_, signal=ref.signal, finish=ref.finish, name=ref.name)


def _step(session, text: str, fn, *args) -> None:
    with undo.labelled(session, text):
        fn(*args)


def _ctrl_held() -> bool:
    return bool(QtWidgets.QApplication.keyboardModifiers()
                & QtCore.Qt.KeyboardModifier.ControlModifier)


class JointPanel(QtWidgets.QWidget):
    """All joint rows in a scroll area, plus named-pose, zero and random buttons.

    ``jointChosen(j)`` fires when the user chooses joint ``j``'s row (a click in it, the
    Up/Down keys), not when the panel selects a row itself (a new robot)."""

    jointChosen = QtCore.Signal(int)

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.rows: list[JointRow] = []
        self.pose_buttons: dict[str, QtWidgets.QPushButton] = {}
        #: where poses the user saves are kept (the window gives its settings: see
        #: :meth:`set_pose_store`); None: Save pose is off
        self.pose_store = None
        self.selected = 0

        self._rows_box = QtWidgets.QWidget()
        self._rows_layout = QtWidgets.QVBoxLayout(self._rows_box)
        self._rows_layout.setContentsMargins(0, 0, 0, 0)
        self._rows_layout.setSpacing(1)
        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        scroll.setWidget(self._rows_box)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll = scroll

        self._poses_box = QtWidgets.QWidget()
        self._poses_layout = QtWidgets.QHBoxLayout(self._poses_box)
        self._poses_layout.setContentsMargins(0, 0, 0, 0)
        self.zero_button = QtWidgets.QPushButton("Zero")
        self.zero_button.setToolTip("all joints to zero (clipped into the limits)")
        self.zero_button.clicked.connect(lambda: _step(session, "Zero joints", session.zero))
        self.random_button = QtWidgets.QPushButton("Random")
        self.random_button.setToolTip("a random configuration within the joint limits")
        self.random_button.clicked.connect(
            lambda: _step(session, "Random configuration", session.randomize))
        self.save_pose_button = QtWidgets.QPushButton("Save pose\u2026")
        self.save_pose_button.setToolTip("keep the current joint values as a named pose of "
                                         "this robot (in your settings, for later sessions)")
        self.save_pose_button.clicked.connect(self.ask_and_save_pose)
        self.save_pose_button.setEnabled(False)
        actions = QtWidgets.QHBoxLayout()
        actions.addWidget(self.zero_button)
        actions.addWidget(self.random_button)
        actions.addWidget(self.save_pose_button)
        actions.addStretch(1)

        from .gripper_row import GripperRow

        #: the gripper's open/close control (hidden for a robot without gripper joints)
        self.gripper_row = GripperRow(session)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.gripper_row)
        poses_label = QtWidgets.QLabel("Named poses")
        poses_label.setStyleSheet("color: #aeb6c2;")
        layout.addWidget(poses_label)
        layout.addWidget(self._poses_box)
        layout.addLayout(actions)

        self._subs = Subscriptions(self)
        self._subs.connect(session.events.robot, lambda _r: self.rebuild())
        self._subs.connect(session.display.events.angle_unit, lambda _u: self._units())
        self._subs.connect(session.display.events.length_unit, lambda _u: self._units())
        self.rebuild()

    def rebuild(self) -> None:
        """New rows and pose buttons for the session's robot."""
        for row in self.rows:
            row.release()
            row.setParent(None)
            row.deleteLater()
        self.rows = []
        while self._rows_layout.count():
            self._rows_layout.takeAt(0)
        self._rows_layout.addStretch(1)
        # the first rows now, the rest in idle chunks (issue 17): 200 rows are ~0.5 s of
        # widget set-up that would freeze the app while it opens a 200-joint robot
        self._generation = getattr(self, "_generation", 0) + 1
        self._add_rows(self._generation, ROWS_AT_ONCE)
        self._pose_buttons()
        self.select(0)

    def _pose_buttons(self) -> None:
        """A button per named pose: the robot's own, then the ones the user saved."""
        for b in self.pose_buttons.values():
            b.setParent(None)
            b.deleteLater()
        self.pose_buttons = {}
        robot = self.session.robot
        for name in robot.poses:
            b = QtWidgets.QPushButton(name)
            b.setToolTip(f"move to the named pose {name}")
            b.clicked.connect(lambda _=False, n=name: _step(
                self.session, f"Named pose {n}", self.session.go_to_pose, n))
            self._poses_layout.addWidget(b)
            self.pose_buttons[name] = b
        saved = self.pose_store.poses(robot) if self.pose_store is not None else {}
        for name, q in saved.items():
            if name in self.pose_buttons or len(q) != robot.n:
                continue
            b = QtWidgets.QPushButton(name)
            b.setToolTip(f"move to {name}, a pose you saved")
            b.clicked.connect(lambda _=False, n=name, v=tuple(q): _step(
                self.session, f"Named pose {n}", self.session.set_q,
                self.session.robot.clip_q(list(v))))
            self._poses_layout.addWidget(b)
            self.pose_buttons[name] = b

    def set_pose_store(self, store) -> None:
        """Keep saved poses in ``store`` (``poses(robot) -> {name: q}``, ``save(robot,
        name, q)``) and show them; Save pose is on from now."""
        self.pose_store = store
        self.save_pose_button.setEnabled(store is not None)
        self._pose_buttons()

    def save_pose(self, name: str) -> str:
        """Save the current joint values as the named pose ``name`` of this robot; returns
        the name kept (stripped). ValueError for an empty name or one of the robot's own."""
        name = " ".join(str(name).split())
        if not name:
            raise ValueError("a pose needs a name")
        if name in self.session.robot.poses:
            raise ValueError(f"{name} is one of the robot's own poses: choose another name")
        if self.pose_store is None:
            raise ValueError("no place to keep poses")
        self.pose_store.save(self.session.robot, name, [float(v) for v in self.session.q])
        self._pose_buttons()
        return name

    def ask_and_save_pose(self) -> None:
        """Save pose...: ask for a name, then keep the pose (a refusal says why)."""
        name, ok = QtWidgets.QInputDialog.getText(self, "Save pose",
                                                  "Name of the current pose:")
        if not ok:
            return
        try:
            kept = self.save_pose(name)
        except ValueError as exc:
            QtWidgets.QToolTip.showText(self.save_pose_button.mapToGlobal(QtCore.QPoint()),
                                        str(exc), self.save_pose_button)
            self.save_pose_button.setProperty("lastError", str(exc))
            return
        self.save_pose_button.setProperty("lastError", "")
        self.save_pose_button.setToolTip(f"saved {kept}; keep the current joint values as a "
                                         "named pose of this robot")

    def _add_rows(self, generation: int, count: int) -> None:
        """Add up to ``count`` more rows; the remaining ones after the next events."""
        n = self.session.robot.n
        if generation != self._generation or len(self.rows) >= n:
            return  # a newer rebuild took over, or done
        for j in range(len(self.rows), min(n, len(self.rows) + count)):
            row = JointRow(self.session, j)
            row.clicked.connect(self.choose)
            self._rows_layout.insertWidget(j, row)  # before the stretch
            self.rows.append(row)
            row.set_selected(j == self.selected)
        if len(self.rows) < n:
            QtCore.QTimer.singleShot(0, self, lambda: self._add_rows(generation, ROWS_PER_IDLE))

    @property
    def complete(self) -> bool:
        """Whether every joint has its row (long chains get theirs in idle chunks)."""
        return len(self.rows) == self.session.robot.n

    def _units(self) -> None:
        for row in self.rows:
            row.update_units()

    def select(self, j: int) -> None:
        """Make joint ``j`` the one the arrow keys step."""
        if not self.rows:
            return
        self.selected = int(j) % len(self.rows)
        for row in self.rows:
            row.set_selected(row.j == self.selected)
        self.scroll.ensureWidgetVisible(self.rows[self.selected])

    def choose(self, j: int) -> None:
        """The user chose joint ``j``'s row: select it and say so (``jointChosen``)."""
        self.select(j)
        if self.rows:
            self.jointChosen.emit(self.selected)

    def handle_key(self, event: QtGui.QKeyEvent) -> bool:
        """Up/Down: select joint; Left/Right: step it (Ctrl fine). True when handled."""
        key = event.key()
        fine = bool(event.modifiers() & QtCore.Qt.KeyboardModifier.ControlModifier)
        if key in (QtCore.Qt.Key.Key_Left, QtCore.Qt.Key.Key_Right) and self.rows:
            self.rows[self.selected].step(1 if key == QtCore.Qt.Key.Key_Right else -1, fine)
            return True
        if key in (QtCore.Qt.Key.Key_Up, QtCore.Qt.Key.Key_Down) and self.rows:
            self.choose(self.selected + (1 if key == QtCore.Qt.Key.Key_Down else -1))
            self.rows[self.selected].slider.setFocus()
            return True
        return False

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if not self.handle_key(event):
            super().keyPressEvent(event)

    def values_shown(self) -> np.ndarray:
        """The spin boxes' values in display units (for tests and the status bar)."""
        return np.array([row.spin.value() for row in self.rows])
