"""Two-way bindings between Qt widgets and session values, with a feedback-loop guard.

A :class:`Ref` says how to read, write and observe one value: a field of an
``EventedModel`` (:func:`field_ref`, unknown names fail loudly) or one joint of the
session's ``q`` (:func:`joint_ref`). One binding per widget kind connects a widget to
a Ref:

* :func:`bind_slider` - integer ``QSlider`` <-> float in ``[lo, hi]`` (``steps`` ticks);
  dragging writes with ``changing=True`` and the release finishes the change.
* :func:`bind_spinbox` - ``QDoubleSpinBox`` <-> float shown times ``scale`` (units).
* :func:`bind_checkbox` - ``QCheckBox`` / checkable action <-> bool.
* :func:`bind_combobox` - ``QComboBox`` <-> one of a set of values.

Writing widget -> session sets a guard so the session's echo does not write the
widget back; session -> widget updates run with the widget's signals blocked.
:class:`Subscriptions` disconnects a widget's session callbacks when it is destroyed.

While a live stream is followed (hundreds of joint vectors a second, robogui --listen),
the callbacks subscribed with ``paced=True`` (readouts: joint rows, the pose panel, live
plots, the contact tint) run at most 20 times a second, with the newest value
(:data:`FRAME_PACER`);
the 3D view and the remote API's events still see every change at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.observable import EventedModel, Signal

__all__ = ["Ref", "field_ref", "joint_ref", "Binding", "bind_slider", "bind_spinbox",
           "bind_checkbox", "bind_combobox", "Subscriptions", "FramePacer", "FRAME_PACER"]


@dataclass
class Ref:
    """How to read, write and observe one value."""

    get: Callable[[], Any]
    set: Callable[..., None]  # set(value, changing=False)
    signal: Signal
    finish: Callable[[], None] = lambda: None  # end of a drag
    name: str = ""


def field_ref(model: EventedModel, name: str) -> Ref:
    """A Ref to field ``name`` of ``model``; an unknown name raises KeyError at once."""
    model.field(name)  # fail loudly, naming the known fields

    def set_(value, changing: bool = False):
        setattr(model, name, value)

    return Ref(get=lambda: getattr(model, name), set=set_, signal=model.events[name], name=name)


def joint_ref(session, j: int) -> Ref:
    """A Ref to joint ``j`` (0-based) of ``session.q``, in SI units (rad or m)."""
    if not 0 <= j < session.robot.n:
        raise KeyError(f"no joint {j}: the robot has joints 0..{session.robot.n - 1}")
    return Ref(
        get=lambda: float(session.q[j]),
        set=lambda value, changing=False: session.set_joint(j, value, changing=changing),
        signal=session.events.q,
        finish=session.finish_change,
        name=f"q[{j}]",
    )


class FramePacer:
    """Runs paced callbacks at most once per :attr:`interval_ms` while held (a followed stream).

    Not held (the usual case) a paced callback runs at once, as any other. Held by one or
    more keys (:meth:`hold`), :meth:`call` keeps the newest value per callback and a
    timer runs them all once per :attr:`interval_ms`; releasing the last hold runs what
    waits at once, so nothing shows a stale value after the stream.
    """

    # 20 per second: numbers change faster than a person reads them, and the GUI thread
    # keeps its time for the samples (the 3D view draws a followed stream at up to 30 fps,
    # gl_host.SceneWindow.update; RViz's panels refresh about 10 times a second)
    interval_ms = 50

    def __init__(self):
        self._holds: set = set()
        self._pending: dict[Callable, Any] = {}
        self._timer: QtCore.QTimer | None = None

    @property
    def active(self) -> bool:
        return bool(self._holds)

    def hold(self, key, on: bool) -> None:
        """Pace (``on``) or stop pacing for ``key`` (e.g. one live link's Follow)."""
        if on:
            self._holds.add(key)
        else:
            self._holds.discard(key)
            if not self._holds:
                self.flush()

    def call(self, fn: Callable[[Any], Any], value: Any) -> None:
        if not self._holds:
            fn(value)
            return
        self._pending[fn] = value
        if self._timer is None:
            self._timer = QtCore.QTimer()
            self._timer.setSingleShot(True)
            self._timer.timeout.connect(self.flush)
        if not self._timer.isActive():
            self._timer.start(self.interval_ms)

    def discard(self, fn: Callable) -> None:
        self._pending.pop(fn, None)

    def flush(self) -> None:
        """Run the waiting callbacks now (each with its newest value)."""
        pending, self._pending = self._pending, {}
        failed = None
        for fn, value in pending.items():
            try:
                fn(value)
            except Exception as exc:  # noqa: BLE001 - the others still run; reported after
                failed = failed or exc
        if failed is not None:
            raise failed


#: the one pacer of the app (held by the remote API's live link while it follows)
FRAME_PACER = FramePacer()


class Subscriptions:
    """Session-signal connections owned by a widget, all dropped when it is destroyed."""

    def __init__(self, owner: QtCore.QObject):
        self._connections: list[tuple[Signal, Callable, Callable]] = []
        owner.destroyed.connect(self.clear)

    def connect(self, signal: Signal, fn: Callable[[Any], Any], *, paced: bool = False
                ) -> Callable[[Any], Any]:
        """Call ``fn(value)`` on ``signal``; ``paced``: at most 20 times a second while a live
        stream is followed (:data:`FRAME_PACER`), for readouts a person reads, not drags."""
        slot = (lambda value: FRAME_PACER.call(fn, value)) if paced else fn
        signal.connect(slot)
        self._connections.append((signal, slot, fn))
        return fn

    def clear(self, *_args) -> None:
        for signal, slot, fn in self._connections:
            signal.disconnect(slot)
            FRAME_PACER.discard(fn)
        self._connections.clear()


class Binding:
    """Base of the widget bindings: owns the guard and the session subscription."""

    def __init__(self, widget: QtCore.QObject, ref: Ref):
        self.widget = widget
        self.ref = ref
        self._writing = False
        self._subs = Subscriptions(widget)
        self._subs.connect(ref.signal, self._on_model, paced=True)

    # subclasses: show a model value in the widget / read the widget's value
    def _show(self, value: Any) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        """Show the model's current value (signals blocked: no write back)."""
        with QtCore.QSignalBlocker(self.widget):
            self._show(self.ref.get())

    def _on_model(self, _value: Any) -> None:
        if not self._writing:
            self.refresh()

    def _write(self, value: Any, changing: bool = False) -> None:
        if self._writing:
            return
        self._writing = True
        try:
            self.ref.set(value, changing=changing)
        finally:
            self._writing = False

    def disconnect(self) -> None:
        self._subs.clear()


class SliderBinding(Binding):
    """Integer slider <-> float value in ``[lo, hi]``."""

    def __init__(self, slider: QtWidgets.QAbstractSlider, ref: Ref, lo: float, hi: float,
                 steps: int = 1000):
        if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
            raise ValueError(f"slider range must be finite with hi > lo, got [{lo}, {hi}]")
        self.lo, self.hi, self.steps = float(lo), float(hi), int(steps)
        slider.setRange(0, self.steps)
        super().__init__(slider, ref)
        slider.valueChanged.connect(self._on_widget)
        slider.sliderReleased.connect(self._on_release)
        self.refresh()

    def to_ticks(self, value: float) -> int:
        f = (float(value) - self.lo) / (self.hi - self.lo)
        return int(round(min(max(f, 0.0), 1.0) * self.steps))

    def to_value(self, ticks: int) -> float:
        return self.lo + (self.hi - self.lo) * ticks / self.steps

    def _show(self, value: float) -> None:
        self.widget.setValue(self.to_ticks(value))

    def _on_widget(self, ticks: int) -> None:
        self._write(self.to_value(ticks), changing=self.widget.isSliderDown())

    def _on_release(self) -> None:
        self.ref.finish()


class SpinBoxBinding(Binding):
    """``QDoubleSpinBox`` <-> float; the box shows ``value * scale`` (display units)."""

    def __init__(self, spinbox: QtWidgets.QDoubleSpinBox, ref: Ref, scale: float = 1.0):
        self.scale = float(scale)
        super().__init__(spinbox, ref)
        spinbox.valueChanged.connect(self._on_widget)
        self.refresh()

    def set_scale(self, scale: float, lo: float, hi: float, decimals: int, suffix: str = "",
                  step: float | None = None) -> None:
        """Change display units: limits ``lo``/``hi`` are SI and converted here."""
        self.scale = float(scale)
        box = self.widget
        with QtCore.QSignalBlocker(box):
            box.setDecimals(decimals)
            box.setRange(lo * self.scale, hi * self.scale)
            box.setSuffix(suffix)
            if step is not None:
                box.setSingleStep(step)
        self.refresh()

    def _show(self, value: float) -> None:
        self.widget.setValue(float(value) * self.scale)

    def _on_widget(self, shown: float) -> None:
        self._write(shown / self.scale)


class CheckBinding(Binding):
    """Checkbox or checkable action <-> bool."""

    def __init__(self, widget, ref: Ref):
        super().__init__(widget, ref)
        widget.toggled.connect(lambda on: self._write(bool(on)))
        self.refresh()

    def _show(self, value: bool) -> None:
        self.widget.setChecked(bool(value))


class ComboBinding(Binding):
    """``QComboBox`` <-> one of ``values`` (shown with ``labels``)."""

    def __init__(self, combo: QtWidgets.QComboBox, ref: Ref, values, labels=None):
        self.values = list(values)
        labels = list(labels) if labels is not None else [str(v) for v in self.values]
        combo.clear()
        combo.addItems(labels)
        super().__init__(combo, ref)
        combo.currentIndexChanged.connect(lambda i: i >= 0 and self._write(self.values[i]))
        self.refresh()

    def _show(self, value) -> None:
        try:
            self.widget.setCurrentIndex(self.values.index(value))
        except ValueError:
            raise ValueError(f"{self.ref.name}: {value!r} is not one of {self.values}") from None


def bind_slider(slider, ref: Ref, lo: float, hi: float, steps: int = 1000) -> SliderBinding:
    """Bind an integer slider to a float in ``[lo, hi]`` with ``steps`` ticks."""
    return SliderBinding(slider, ref, lo, hi, steps)


def bind_spinbox(spinbox, ref: Ref, scale: float = 1.0) -> SpinBoxBinding:
    """Bind a double spin box to a float shown as ``value * scale``."""
    return SpinBoxBinding(spinbox, ref, scale)


def bind_checkbox(widget, ref: Ref) -> CheckBinding:
    """Bind a checkbox (or checkable QAction) to a bool."""
    if isinstance(widget, QtGui.QAction) and not widget.isCheckable():
        widget.setCheckable(True)
    return CheckBinding(widget, ref)


def bind_combobox(combo, ref: Ref, values, labels=None) -> ComboBinding:
    """Bind a combo box to one of ``values``."""
    return ComboBinding(combo, ref, values, labels)
