"""A small TOML writer for the value types robogui files use.

The standard library reads TOML (``tomllib``) but does not write it. The writer
here covers what robot files need: strings, booleans, integers, floats, arrays of
those (nested arrays too), tables and arrays of tables. Floats are written with
``repr`` so that reading them back gives the identical binary value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping

__all__ = ["toml_key", "toml_value", "toml_table"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _escape(text: str, keep_newlines: bool = False) -> str:
    out = []
    for ch in text:
        if keep_newlines and ch == "\n":
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


def toml_string(text: str) -> str:
    """A TOML string literal; multi-line text becomes a ``\"\"\"`` block (read back exactly)."""
    if "\n" in text:
        # the newline right after the opening delimiter is dropped by TOML readers
        return '"""\n' + _escape(text, keep_newlines=True) + '"""'
    return '"' + _escape(text) + '"'


def toml_key(key: str) -> str:
    """A key written bare when TOML allows it, quoted otherwise."""
    key = str(key)
    return key if _BARE_KEY.match(key) else '"' + _escape(key) + '"'


def toml_value(value) -> str:
    """One TOML value: str, bool, int, float (finite, exact via repr) or a list of them."""
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot write the non-finite number {value!r}")
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    # numpy scalars and other number-likes
    if hasattr(value, "item"):
        return toml_value(value.item())
    raise ValueError(f"cannot write a value of type {type(value).__name__} to TOML")


def toml_table(header: str | None, items: Mapping[str, object] | Iterable[tuple[str, object]],
               array: bool = False) -> str:
    """A TOML table: ``[header]`` (``[[header]]`` if ``array``) and its ``key = value`` lines.

    ``header`` None writes the bare key/value lines (the root table).
    """
    pairs = items.items() if isinstance(items, Mapping) else items
    lines = []
    if header is not None:
        lines.append(f"[[{header}]]" if array else f"[{header}]")
    for key, value in pairs:
        lines.append(f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"
