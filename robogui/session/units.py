"""Numbers typed with an optional unit, Qt-free: the one reading of a typed value.

:func:`parse_number` is what every numeric field of the app (``NumberField``) and the
D-H editor's cells accept: a decimal comma is a decimal point, thousands separators are
refused, and a unit of the field's quantity may follow (``1.5 rad``, ``30 deg``,
``12 mm``, ``0.3 m``) and is converted to the field's unit (tables in :data:`UNITS`).

A short arithmetic expression is a number too (``-pi/4``, ``0.15 + 0.02``, ``2*pi/3 rad``):
``+ - * / **``, brackets and ``pi``, nothing else (parsed with :mod:`ast`, never run).
``pi`` is an angle in radians, so in an angle field an expression with ``pi`` and no unit
is in radians whatever the field's unit (``-pi/4`` is -45 in a degree field, as in MATLAB
and the toolboxes); any other expression is in the field's unit.
"""

from __future__ import annotations

import ast
import math
import operator
import re

__all__ = ["UNITS", "HINTS", "NumberError", "parse_number", "unit_label"]

#: unit -> size in SI units, per quantity
UNITS: dict[str, dict[str, float]] = {
    "angle": {"deg": math.pi / 180.0, "°": math.pi / 180.0, "degree": math.pi / 180.0,
              "degrees": math.pi / 180.0, "rad": 1.0, "radian": 1.0, "radians": 1.0},
    "length": {"m": 1.0, "mm": 1e-3, "cm": 1e-2},
    "time": {"s": 1.0, "ms": 1e-3},
    "speed": {"m/s": 1.0, "mm/s": 1e-3},
}
_QUANTITY_OF = {u: q for q, table in UNITS.items() for u in table}

_NUMBER = re.compile(r"""^\s*
    (?P<num>[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?)
    \s*(?P<unit>[A-Za-z°/][^\s]*)?\s*$""", re.VERBOSE)
#: the units a field of each quantity names in its hints
HINTS = {"angle": "deg (°) or rad", "length": "mm, cm or m", "time": "ms or s",
         "speed": "mm/s or m/s"}
_NAMES = {"angle": "an angle", "length": "a length", "time": "a time", "speed": "a speed"}

_STRICT_MAX = 1e12  # beyond any range a field here has; keeps float formatting sane

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg,
        ast.UAdd: operator.pos}
#: an arithmetic expression (digits, pi, operators, brackets), then an optional unit
_EXPRESSION = re.compile(r"""^\s*(?P<expr>[\d.,eE+\-*/()\s]*(?:pi[\d.,eE+\-*/()\s]*)*)
    (?P<unit>(?<=[\s\d)i])[A-Za-z°/][^\s]*)?\s*$""", re.VERBOSE)


def _eval(node):
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)  # floats overflow at once where ints would grow
    if isinstance(node, ast.Name) and node.id == "pi":
        return math.pi
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        if isinstance(node.op, ast.Pow):  # 9**9**9 would take minutes: small powers only
            base, exp = _eval(node.left), _eval(node.right)
            if abs(exp) > 64:
                raise ValueError("power too large")
            return base ** exp
        return _OPS[type(node.op)](_eval(node.left), _eval(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.operand))
    raise ValueError("not arithmetic")


def _expression(raw: str) -> tuple[float, str | None, bool] | None:
    """(value, unit typed or None, whether ``pi`` appears) of an arithmetic expression, or
    None when ``raw`` is not one."""
    m = _EXPRESSION.match(raw)
    if m is None or not m.group("expr").strip() or len(raw) > 200:
        return None
    expr = m.group("expr").strip()
    if "," in expr:  # a decimal comma only in a plain number (1,5+2 is ambiguous)
        return None
    try:
        value = float(_eval(ast.parse(expr, mode="eval").body))
    except (SyntaxError, ValueError, TypeError, ZeroDivisionError, OverflowError,
            RecursionError, MemoryError):
        return None
    return value, m.group("unit"), "pi" in expr


class NumberError(ValueError):
    """Text that is not a number in the field's quantity (the message says why)."""


def unit_label(unit: str) -> str:
    """How a unit is written after a number (``°`` for degrees)."""
    return "°" if unit in ("deg", "°") else unit


def parse_number(text: str, quantity: str | None = None, unit: str = "") -> float:
    """The number ``text`` means, in ``unit`` (of ``quantity``; None: a plain number).

    >>> round(parse_number("1.5 rad", "angle", "deg"), 4)
    85.9437
    >>> parse_number("12,5", "angle", "deg")
    12.5

    Raises :class:`NumberError` with a message for the user.
    """
    raw = text.strip()
    if not raw:
        raise NumberError("type a number")
    raw = raw.replace("\u2212", "-")  # a typographic minus
    m = _NUMBER.match(raw)
    in_radians = False
    if m is None:
        if re.match(r"^\s*[+-]?\d{1,3}(,\d{3})+(\.\d*)?", raw):
            raise NumberError(f"'{raw}' is not a number: no thousands separators "
                              "(a comma is a decimal point)")
        found = _expression(raw)
        if found is None:
            raise NumberError(f"'{raw}' is not a number")
        value, typed, in_radians = found
        in_radians = in_radians and typed is None and quantity == "angle"
    else:
        try:
            value = float(m.group("num").replace(",", "."))
        except ValueError:  # pragma: no cover - the pattern only passes floats
            raise NumberError(f"'{raw}' is not a number") from None
        typed = m.group("unit")
    if not math.isfinite(value) or abs(value) > _STRICT_MAX:
        raise NumberError(f"'{raw}' is too large")
    if in_radians:  # pi is an angle in radians
        return value * UNITS["angle"]["rad"] / UNITS["angle"][unit]
    if typed is None:
        return value
    typed_key = typed.lower() if typed != "°" else typed
    if quantity is None:
        raise NumberError(f"'{raw}': this field takes a plain number, without a unit")
    table = UNITS[quantity]
    if typed_key not in table:
        other = _QUANTITY_OF.get(typed_key)
        if other is not None:
            raise NumberError(f"'{raw}': {typed} is a unit of {other}, this field is "
                              f"{_NAMES[quantity]} ({HINTS[quantity]})")
        raise NumberError(f"'{raw}': unknown unit '{typed}' (use {HINTS[quantity]})")
    return value * table[typed_key] / table[unit]
