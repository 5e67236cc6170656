"""Cartesian jog panel: +-X +-Y +-Z +-Rx +-Ry +-Rz in the world or tool frame.

Incremental mode: a click moves by the chosen step (10/1/0.1 mm and 5/1/0.1 deg) with
:func:`~robogui.session.teach.jog.jog_step`. Continuous mode: while a button (or its key) is
held, a Qt timer calls :func:`~robogui.session.teach.jog.jog_velocity` with the wall-clock
time since the previous tick (``time.monotonic``), scaled by the speed override
(1-100 %); releasing it ends the change. When a jog stalls or falls short, the status
line says why in words (joint limit, or which singularity with the manipulability, or the
contact it stopped before: "Stop before contact" is on by default).

Keys (panel focused): Q/A +-X, W/S +-Y, E/D +-Z, R/F +-Rx, T/G +-Ry, Y/H +-Rz.
"""

from __future__ import annotations

import math
import time

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.teach.jog import (
    JOG_STEPS_DEG,
    JOG_STEPS_MM,
    JogResult,
    jog_step,
    jog_twist,
    jog_velocity,
    stop_before_contact,
)

from .. import style, undo
from ..bindings import Subscriptions
from ..widgets.numeric_field import follow_units, unit_field

__all__ = ["JogPanel", "JOG_KEYS", "AXIS_NAMES"]

AXIS_NAMES = {"x": "X", "y": "Y", "z": "Z", "rx": "Rx", "ry": "Ry", "rz": "Rz"}
_K = QtCore.Qt.Key
#: key -> (axis, direction)
JOG_KEYS = {
    _K.Key_Q: ("x", 1), _K.Key_A: ("x", -1),
    _K.Key_W: ("y", 1), _K.Key_S: ("y", -1),
    _K.Key_E: ("z", 1), _K.Key_D: ("z", -1),
    _K.Key_R: ("rx", 1), _K.Key_F: ("rx", -1),
    _K.Key_T: ("ry", 1), _K.Key_G: ("ry", -1),
    _K.Key_Y: ("rz", 1), _K.Key_H: ("rz", -1),
}
CONTINUOUS = "continuous"
READY_TEXT = ("Ready. Keys while this panel has focus: Q/A W/S E/D = \u00b1X \u00b1Y \u00b1Z, "
              "R/F T/G Y/H = \u00b1Rx \u00b1Ry \u00b1Rz")
_OK_COLOR, _WARN_COLOR = "#9fb0c3", style.NEAR_LIMIT_COLOR


class JogPanel(QtWidgets.QWidget):
    """Jog buttons for ``session``. ``clock`` (seconds, monotonic) is injectable for tests."""

    def __init__(self, session, parent=None, *, clock=time.monotonic, tick_ms: int = 20):
        super().__init__(parent)
        self.session = session
        self.clock = clock
        self.last_result: JogResult | None = None
        self._held: tuple[str, int] | None = None
        self._last_tick = 0.0
        self.timer = QtCore.QTimer(self)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self.tick)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)  # compact: it shares a column with the pose
        layout.setSpacing(5)
        # frame
        frame_row = QtWidgets.QHBoxLayout()
        frame_row.addWidget(QtWidgets.QLabel("Frame"))
        self.frame_buttons = {}
        self.frame_group = QtWidgets.QButtonGroup(self)
        for key, text, tip in (("world", "World", "axes of the robot's base frame"),
                               ("tool", "Tool", "axes of the tool (TCP) frame")):
            b = QtWidgets.QRadioButton(text)
            b.setToolTip(f"Jog along the {tip}")
            self.frame_group.addButton(b)
            self.frame_buttons[key] = b
            frame_row.addWidget(b)
        self.frame_buttons["world"].setChecked(True)
        frame_row.addStretch(1)
        layout.addLayout(frame_row)

        # step presets and continuous mode
        mode_box = QtWidgets.QGroupBox("Increment")
        mode_row = QtWidgets.QHBoxLayout(mode_box)
        mode_row.setSpacing(3)
        self.mode_group = QtWidgets.QButtonGroup(self)
        self.mode_buttons = {}
        modes = [(k, f"{mm:g} mm\n{deg:g}°") for k, (mm, deg) in
                 enumerate(zip(JOG_STEPS_MM, JOG_STEPS_DEG, strict=True))]
        modes.append((CONTINUOUS, "Hold\n(continuous)"))
        for key, text in modes:
            b = QtWidgets.QToolButton()
            b.setText(text)
            b.setCheckable(True)
            b.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding,
                            QtWidgets.QSizePolicy.Policy.Preferred)
            self.mode_group.addButton(b)
            self.mode_buttons[key] = b
            mode_row.addWidget(b)
        layout.addWidget(mode_box)
        # the step itself, typed or filled in by the presets, in the display units (on the
        # frame row: the pendant must fit under the pose readout)
        step_row = frame_row
        step_row.addWidget(QtWidgets.QLabel("Step"))
        d = session.display
        self.step_fields = {
            "linear": unit_field(d, "length", 1e-5, 0.1, what="linear jog step"),
            "angular": unit_field(d, "angle", math.radians(0.001), math.radians(45.0),
                                  what="rotation jog step"),
        }
        self.step_fields["linear"].setToolTip("distance of one jog step along X, Y or Z")
        self.step_fields["angular"].setToolTip("angle of one jog step about X, Y or Z")
        for f in self.step_fields.values():
            f.setMinimumWidth(70)
            step_row.addWidget(f, 1)
        for key, b in self.mode_buttons.items():
            b.toggled.connect(lambda on, k=key: on and self._preset(k))
        self.mode_buttons[1].setChecked(True)

        # the twelve jog buttons: translations on the left, rotations on the right, one
        # row per axis (3 rows, so the pendant fits under the pose readout)
        grid = QtWidgets.QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(3)
        grid.setColumnMinimumWidth(2, 6)
        self.buttons: dict[tuple[str, int], QtWidgets.QPushButton] = {}
        keys = {v: QtGui.QKeySequence(k).toString() for k, v in JOG_KEYS.items()}
        for k, axis in enumerate(AXIS_NAMES):
            row, first = k % 3, 0 if k < 3 else 3
            color = style.AXIS_COLORS[row]
            for col, direction in ((first, -1), (first + 1, 1)):
                sign = "+" if direction > 0 else "\u2212"
                b = QtWidgets.QPushButton(f"{sign}{AXIS_NAMES[axis]}")
                b.setMinimumHeight(28)
                b.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
                b.setToolTip(f"Jog {sign}{AXIS_NAMES[axis]} (key {keys[(axis, direction)]})")
                weight = "bold" if not axis.startswith("r") else "normal"
                b.setStyleSheet(f"QPushButton {{ color: {color}; font-weight: {weight}; }}")
                b.pressed.connect(lambda a=axis, d=direction: self._button_pressed(a, d))
                b.released.connect(lambda a=axis, d=direction: self._released(a, d))
                grid.addWidget(b, row, col)
                self.buttons[(axis, direction)] = b
        layout.addLayout(grid)

        # speed override
        speed_row = QtWidgets.QHBoxLayout()
        speed_row.addWidget(QtWidgets.QLabel("Speed"))
        self.speed_slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.speed_slider.setRange(1, 100)
        self.speed_slider.setValue(50)
        self.speed_slider.setToolTip("Speed override for continuous jogging, 1-100 %")
        self.speed_label = QtWidgets.QLabel()
        self.speed_label.setMinimumWidth(44)
        self.speed_slider.valueChanged.connect(lambda v: self.speed_label.setText(f"{v} %"))
        self.speed_label.setText(f"{self.speed_slider.value()} %")
        speed_row.addWidget(self.speed_slider, 1)
        speed_row.addWidget(self.speed_label)
        layout.addLayout(speed_row)

        self.status = QtWidgets.QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(36)
        self.status.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop
                                 | QtCore.Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.status)
        layout.addStretch(1)
        self._set_status(READY_TEXT, ok=True)

        self._subs = Subscriptions(self)
        self._subs.connect(session.events.robot, lambda _r: self.stop_continuous())
        follow_units(self._subs, d, list(self.step_fields.values()))
        self._subs.connect(d.events.angle_unit, lambda _u: self._label_presets())
        self._subs.connect(d.events.length_unit, lambda _u: self._label_presets())
        self._label_presets()

    # -- settings --------------------------------------------------------------------------
    @property
    def frame(self) -> str:
        return "tool" if self.frame_buttons["tool"].isChecked() else "world"

    def set_frame(self, frame: str) -> None:
        self.frame_buttons[frame].setChecked(True)

    @property
    def mode(self):
        """0, 1, 2 (step preset index, coarse to fine) or ``"continuous"``."""
        for key, b in self.mode_buttons.items():
            if b.isChecked():
                return key
        return 1

    def set_mode(self, mode) -> None:
        self.mode_buttons[mode].setChecked(True)

    @property
    def speed(self) -> float:
        """Speed override in percent."""
        return float(self.speed_slider.value())

    def step_size(self, axis: str) -> float:
        """The current increment for ``axis`` in SI units (m or rad)."""
        return self.step_fields["angular" if axis.startswith("r") else "linear"].si_value()

    def _preset(self, key) -> None:
        """A preset button fills the step fields (continuous mode keeps them)."""
        if key == CONTINUOUS:
            return
        self.step_fields["linear"].set_si_value(JOG_STEPS_MM[key] / 1000.0)
        self.step_fields["angular"].set_si_value(math.radians(JOG_STEPS_DEG[key]))

    def _label_presets(self) -> None:
        from robogui.session.explain import readout

        d = self.session.display
        ls, as_ = readout.length_scale(d.length_unit), readout.angle_scale(d.angle_unit)
        for k, (mm, deg) in enumerate(zip(JOG_STEPS_MM, JOG_STEPS_DEG, strict=True)):
            b = self.mode_buttons[k]
            b.setText(f"{mm / 1000 * ls:.4g} {d.length_unit}\n"
                      f"{math.radians(deg) * as_:.4g} {'°' if d.angle_unit == 'deg' else 'rad'}")
            b.setToolTip(f"steps of {mm / 1000 * ls:.4g} {d.length_unit} and "
                         f"{math.radians(deg) * as_:.4g} {d.angle_unit} (fills the step fields)")
        self.mode_buttons[CONTINUOUS].setToolTip(
            "move while a button or key is held, at the speed below")

    # -- jogging ---------------------------------------------------------------------------
    def jog_once(self, axis: str, direction: int) -> JogResult:
        """One incremental step with the current settings; moves the session's robot."""
        s = self.session
        step = self.step_size(axis)
        res = jog_step(s.robot, s.q, axis, direction, step, self.frame, **self._units())
        res = stop_before_contact(s, res)  # with the toggle on: stops before a contact
        if res.moved:
            with undo.labelled(s, f"Jog {'+' if direction > 0 else '-'}{axis.upper()}"):
                s.set_q(res.q_new)
        self._show(res, axis, direction, step)
        return res

    def _units(self) -> dict[str, str]:
        """The display units the jog's messages speak (deg/rad, mm/m)."""
        d = self.session.display
        return {"angle_unit": d.angle_unit, "length_unit": d.length_unit}

    def _button_pressed(self, axis: str, direction: int) -> None:
        self.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)  # the keys work from now on
        self._pressed(axis, direction)

    def _pressed(self, axis: str, direction: int) -> None:
        self.session.pause()  # a jog takes the robot off a playing trajectory
        if self.mode == CONTINUOUS:
            self.start_continuous(axis, direction)
        else:
            self.jog_once(axis, direction)

    def _released(self, axis: str, direction: int) -> None:
        if self._held == (axis, direction):
            self.stop_continuous()

    def start_continuous(self, axis: str, direction: int) -> None:
        """Begin moving along ``axis`` until :meth:`stop_continuous`."""
        self._held = (axis, direction)
        self._last_tick = self.clock()
        self.timer.start()

    def stop_continuous(self) -> None:
        if self._held is None:
            return
        axis, direction = self._held
        self._held = None
        self.timer.stop()
        with undo.labelled(self.session, f"Jog {'+' if direction > 0 else '-'}{axis.upper()}"):
            self.session.finish_change()

    def tick(self) -> JogResult | None:
        """One continuous-jog step over the wall-clock time since the previous tick."""
        if self._held is None:
            return None
        now = self.clock()
        dt, self._last_tick = max(0.0, now - self._last_tick), now
        axis, direction = self._held
        s = self.session
        res = jog_velocity(s.robot, s.q, jog_twist(axis, direction), dt, self.speed, self.frame,
                           **self._units())
        res = stop_before_contact(s, res)
        if res.moved:
            s.set_q(res.q_new, changing=True)
        self._show(res, axis, direction, None)
        return res

    def _show(self, res: JogResult, axis: str, direction: int, step: float | None) -> None:
        self.last_result = res
        if res.message:
            self._set_status(res.message, ok=False)
            return
        sign = "+" if direction > 0 else "\u2212"
        if step is None:
            what = f"{self.speed:g} % speed"
        else:
            what = self.step_fields["angular" if axis.startswith("r") else "linear"].text()
        self._set_status(f"Jog {sign}{AXIS_NAMES[axis]} {what} ({self.frame} frame); "
                         f"manipulability {res.manipulability:.3g}", ok=True)

    def _set_status(self, text: str, ok: bool) -> None:
        color = _OK_COLOR if ok else _WARN_COLOR
        self.status.setStyleSheet(f"color: {color};")
        self.status.setText(text)

    @property
    def status_text(self) -> str:
        return self.status.text()

    # -- keys ------------------------------------------------------------------------------
    def event(self, event) -> bool:
        # claim the jog keys before window shortcuts (e.g. F = fit view) when focused
        if (event.type() == QtCore.QEvent.Type.ShortcutOverride
                and event.key() in JOG_KEYS and not event.modifiers()):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        key = event.key()
        if key in JOG_KEYS and not event.modifiers():
            if not event.isAutoRepeat():
                self._pressed(*JOG_KEYS[key])
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:  # noqa: N802
        key = event.key()
        if key in JOG_KEYS and not event.isAutoRepeat():
            self._released(*JOG_KEYS[key])
            event.accept()
            return
        super().keyReleaseEvent(event)

    def focusOutEvent(self, event) -> None:  # noqa: N802
        # a key held while the focus goes elsewhere (a click away, another window) never
        # sends its release here: stop instead of jogging on into a limit
        self.stop_continuous()
        super().focusOutEvent(event)

    def hideEvent(self, event) -> None:  # noqa: N802
        self.stop_continuous()  # never keep moving behind a hidden panel
        super().hideEvent(event)
