"""A number field that takes what the user typed, or says why not.

:class:`NumberField` is a ``QDoubleSpinBox`` (same API: ``value``, ``setValue``,
``setRange``, ``valueChanged``, arrows and wheel) with its own reading of the text:

* any digits may be typed: nothing is refused keystroke by keystroke (Qt's own spin box
  drops keys that leave the range, so ``-170`` in a +-160 field became ``-17``);
* a decimal comma is a decimal point (``12,5`` is 12.5); a thousands separator is refused;
* a unit may follow the number and is converted to the field's unit: angles ``deg``,
  ``°``, ``rad``; lengths ``mm``, ``cm``, ``m``; times ``ms``, ``s``; speeds ``mm/s``,
  ``m/s``. A unit of another quantity, or any unit in a plain-number field, is refused;
* a value beyond the field's range is clamped to the limit, with a note saying so;
* anything else is refused: the field keeps its previous value, turns red and says why.

Notes and refusals are shown in the field's tooltip, in a tooltip popping up at the
field, and in the main window's status bar; :attr:`NumberField.note` keeps the text and
:attr:`NumberField.noted` emits it. Values are kept exactly as typed (the display rounds
to ``shown_decimals``, the value does not).

The parsing is the Qt-free :func:`robogui.session.units.parse_number` (unit tables in
:data:`UNITS`), shared with the D-H editor.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.session.units import HINTS, UNITS, NumberError, parse_number, unit_label

__all__ = ["NumberField", "UNITS", "parse_number", "NumberError", "unit_label", "unit_for",
           "unit_field", "follow_units"]

class NumberField(QtWidgets.QDoubleSpinBox):
    """A spin box that keeps what was typed, clamps with a note, or refuses with a reason.

    ``quantity``: "angle", "length", "time", "speed" or None (a plain number);
    ``unit``: the field's unit (a key of ``UNITS[quantity]``); ``what``: the field's name
    in messages (e.g. "q1"); ``show_unit``: write the unit after the number.
    """

    noted = QtCore.Signal(str)

    def __init__(self, quantity: str | None = None, unit: str = "", *, what: str = "value",
                 decimals: int = 2, show_unit: bool = True, parent=None):
        super().__init__(parent)
        if quantity is not None and quantity not in UNITS:
            raise ValueError(f"quantity must be one of {sorted(UNITS)} or None, got {quantity!r}")
        self.quantity = quantity
        self.what = what
        self.note = ""
        self._pending: tuple[str, str] | None = None  # (kind, text) found while committing
        self._base_tip = ""
        self._show_unit = show_unit
        self.unit = ""
        self.shown_decimals = int(decimals)
        super().setDecimals(10)  # the value keeps what was typed; the text rounds
        self.setKeyboardTracking(False)  # commit on Enter / focus out, not per keystroke
        self.setAlignment(QtCore.Qt.AlignmentFlag.AlignRight)
        self._si_range: tuple[float, float] | None = None
        self.set_unit(unit, decimals)
        self.editingFinished.connect(self._finished)

    # -- configuration ----------------------------------------------------------------------
    def set_unit(self, unit: str, decimals: int | None = None) -> None:
        """Show values in ``unit`` (no conversion of the value: the owner sets the range
        and value in the new unit)."""
        if self.quantity is not None and unit not in UNITS[self.quantity]:
            raise ValueError(f"{self.what}: unit {unit!r} is not one of "
                             f"{sorted(UNITS[self.quantity])}")
        self.unit = unit
        if decimals is not None:
            self.shown_decimals = int(decimals)
        label = unit_label(unit)
        with QtCore.QSignalBlocker(self):
            self.setSuffix(("" if label == "°" else " ") + label if self._show_unit and unit
                           else "")
        super().setToolTip(self._tip())

    def set_quantity(self, quantity: str | None, unit: str = "",
                     decimals: int | None = None) -> None:
        """Make this a field of another quantity (e.g. a move's duration or speed)."""
        if quantity is not None and quantity not in UNITS:
            raise ValueError(f"quantity must be one of {sorted(UNITS)} or None, got {quantity!r}")
        self.quantity = quantity
        self._si_range = None
        self.set_unit(unit, decimals)

    # -- values in SI units (fields with a quantity) -----------------------------------------
    def _factor(self) -> float:
        if self.quantity is None:
            return 1.0
        return UNITS[self.quantity][self.unit]

    def si_value(self) -> float:
        """The value in SI units (rad, m, s, m/s)."""
        return self.value() * self._factor()

    def set_si_value(self, value: float) -> None:
        """Show ``value`` given in SI units (fires valueChanged like setValue)."""
        self.setValue(float(value) / self._factor())

    def set_si_range(self, lo: float, hi: float) -> None:
        """The range in SI units; kept through unit changes."""
        self._si_range = (float(lo), float(hi))
        f = self._factor()
        self.setRange(lo / f, hi / f)

    def change_unit(self, unit: str, decimals: int | None = None) -> None:
        """Show the same SI value and range in ``unit`` (signals blocked: nothing changed)."""
        value = self.si_value()
        with QtCore.QSignalBlocker(self):
            self.set_unit(unit, decimals)
            if self._si_range is not None:
                f = self._factor()
                self.setRange(self._si_range[0] / f, self._si_range[1] / f)
            self.set_si_value(value)
            self.setSuffix(self.suffix())  # redraw the text in the new unit

    def setDecimals(self, decimals: int) -> None:  # noqa: N802 - Qt's name
        """Digits shown (the value itself is kept to 10 decimals)."""
        self.shown_decimals = int(decimals)
        self.setSuffix(self.suffix())  # Qt redraws the text (no valueChanged)

    def setToolTip(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._base_tip = text
        super().setToolTip(self._tip())

    def _tip(self) -> str:
        hint = ("Type a number" + (f" in {unit_label(self.unit)}" if self.unit else "")
                + (f" (or with a unit: {HINTS[self.quantity]})" if self.quantity else "")
                + "; a decimal comma is fine.")
        parts = [p for p in (self.note, self._base_tip, hint) if p]
        return "\n".join(parts)

    # -- Qt's text <-> value ------------------------------------------------------------------
    def _strip(self, text: str) -> str:
        t = text
        if self.prefix() and t.startswith(self.prefix()):
            t = t[len(self.prefix()):]
        suffix = self.suffix()
        if suffix and t.rstrip().endswith(suffix.strip()):
            t = t.rstrip()[: -len(suffix.strip())]
        return t.strip()

    def _parse(self, text: str) -> float:
        t = self._strip(text)
        if self.specialValueText() and t == self.specialValueText():
            return self.minimum()
        return parse_number(t, self.quantity, self.unit)

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        if self.specialValueText() and value == self.minimum():
            return self.specialValueText()
        return f"{value:.{self.shown_decimals}f}"

    def valueFromText(self, text: str) -> float:  # noqa: N802 - Qt's name
        try:
            value = self._parse(text)
        except NumberError:
            return self.value()
        return min(max(value, self.minimum()), self.maximum())

    def validate(self, text: str, pos: int):
        # never refuse a keystroke: the text is judged when it is committed
        try:
            value = self._parse(text)
        except NumberError:
            return QtGui.QValidator.State.Intermediate
        # a limit shown rounded (160.000 for 159.99999999) is the limit, not beyond it
        tol = 0.5 * 10.0 ** -self.shown_decimals
        if self.minimum() - tol <= value <= self.maximum() + tol:
            return QtGui.QValidator.State.Acceptable
        return QtGui.QValidator.State.Intermediate

    def fixup(self, text: str) -> str:
        """Commit of a text that is not acceptable: clamp (with a note) or refuse."""
        try:
            value = self._parse(text)
        except NumberError as exc:
            self._pending = ("refused", f"{self.what}: {exc}; kept "
                             f"{self._show(self.value())}")
            return text  # not acceptable: Qt keeps the previous value
        lo, hi = self.minimum(), self.maximum()
        if self.wrapping() and hi > lo:  # e.g. an angle in -180..180: 190 is -170
            wrapped = lo + (value - lo) % (hi - lo)
            self._pending = ("clamped", f"{self.what}: {self._show(value)} is outside "
                             f"{self._show(lo)}..{self._show(hi)}: set to {self._show(wrapped)}")
            return self.prefix() + repr(wrapped) + self.suffix()
        limit = lo if value < lo else hi
        self._pending = ("clamped", f"{self.what}: {self._show(value)} is beyond the "
                         f"{'lower' if limit == lo else 'upper'} limit {self._show(limit)}: "
                         f"set to {self._show(limit)}")
        return self.prefix() + repr(limit) + self.suffix()  # exact: parses back in range

    def _show(self, value: float) -> str:
        label = unit_label(self.unit) if self.unit else ""
        sep = "" if label in ("", "°") else " "
        return f"{value:.{max(self.shown_decimals, 0)}f}".rstrip("0").rstrip(".") + sep + label

    # -- undo keys ---------------------------------------------------------------------------
    def event(self, e: QtCore.QEvent) -> bool:
        """Ctrl+Z / Ctrl+Shift+Z go to the line edit only while it holds typed text not
        yet committed; otherwise (the value just entered, or not touched) they are the
        window's Edit > Undo / Redo, which is what a person pressing them means."""
        if e.type() == QtCore.QEvent.Type.ShortcutOverride and self._shown_as_committed() \
                and any(e.matches(k) for k in (QtGui.QKeySequence.StandardKey.Undo,
                                               QtGui.QKeySequence.StandardKey.Redo)):
            e.ignore()
            return False
        return super().event(e)

    def _shown_as_committed(self) -> bool:
        return self.lineEdit().text() == self.textFromValue(self.value())

    # -- notes -------------------------------------------------------------------------------
    #: the last refusal or note a number field wrote in the status bar (any field's)
    _status_note: str | None = None

    def _finished(self) -> None:
        pending, self._pending = self._pending, None
        if pending is None:
            self.clear_note()
            self._clear_status_note()
            return
        kind, text = pending
        self.note = text
        self.setProperty("numberState", kind)
        color = "#e0a040" if kind == "clamped" else "#e05050"
        self.setStyleSheet(f"NumberField {{ border: 1px solid {color}; }}")
        super().setToolTip(self._tip())
        win = self.window()
        if isinstance(win, QtWidgets.QMainWindow) and win.statusBar() is not None:
            win.statusBar().showMessage(text, 10000)
            NumberField._status_note = text
        if self.isVisible():
            QtWidgets.QToolTip.showText(self.mapToGlobal(QtCore.QPoint(0, self.height())),
                                        text, self)
        self.noted.emit(text)

    def _clear_status_note(self) -> None:
        """A good entry: an old refusal or note in the status bar no longer applies."""
        win = self.window()
        if NumberField._status_note and isinstance(win, QtWidgets.QMainWindow) \
                and win.statusBar() is not None \
                and win.statusBar().currentMessage() == NumberField._status_note:
            win.statusBar().clearMessage()
        NumberField._status_note = None

    def clear_note(self) -> None:
        """Back to normal after a value that was taken as typed."""
        if not self.note:
            return
        self.note = ""
        self.setProperty("numberState", "")
        self.setStyleSheet("")
        super().setToolTip(self._tip())


# -- fields that follow the session's display units ------------------------------------------
def unit_for(display, quantity: str) -> str:
    """The display unit of ``quantity`` ("angle" or "length") in ``display`` options."""
    return display.angle_unit if quantity == "angle" else display.length_unit


def unit_field(display, quantity: str, si_lo: float, si_hi: float, *, what: str,
               wrapping: bool = False) -> NumberField:
    """A field for an angle or a length in the display's unit, range given in SI."""
    from robogui.session.explain import readout

    unit = unit_for(display, quantity)
    field = NumberField(quantity, unit, what=what, decimals=readout.decimals(unit))
    field.set_si_range(si_lo, si_hi)
    field.setWrapping(wrapping)
    return field


def follow_units(subs, display, fields) -> None:
    """Re-show ``fields`` (NumberFields of angles and lengths) whenever the display's
    units change; ``subs`` (a bindings.Subscriptions) owns the connections."""
    from robogui.session.explain import readout

    def update(_unit=None) -> None:
        for f in fields:
            if f.quantity in ("angle", "length"):
                unit = unit_for(display, f.quantity)
                f.change_unit(unit, readout.decimals(unit))

    subs.connect(display.events.angle_unit, update)
    subs.connect(display.events.length_unit, update)
