"""The error every robot-file reader raises, and the "did you mean" hint it often carries.

Its own module so the format readers (:mod:`.urdf`, :mod:`.roboop`, :mod:`.robmat`) and
the dispatcher that calls them (:mod:`.robotfile`, which re-exports both) need not import
each other.
"""

from __future__ import annotations

import difflib

__all__ = ["RobotFileError"]


class RobotFileError(ValueError):
    """A robot file that cannot be read: bad TOML, a missing, unknown or invalid field.

    The message reads ``"<file>: link <k>: field '<name>': <problem>"`` (parts that do
    not apply are left out). ``path``, ``link`` (1-based, or None) and ``field`` are
    also available as attributes.
    """

    def __init__(self, problem: str, path=None, link: int | None = None,
                 field: str | None = None):
        self.path = None if path is None else str(path)
        self.link = link
        self.field = field
        self.problem = problem
        parts = [p for p in (self.path, None if link is None else f"link {link}",
                             None if field is None else f"field '{field}'") if p]
        super().__init__(": ".join([*parts, problem]))


def _closest(key: str, valid) -> str:
    match = difflib.get_close_matches(key, list(valid), n=1, cutoff=0.6)
    if not match:
        match = difflib.get_close_matches(key.lower(), [v.lower() for v in valid], n=1)
        match = [v for v in valid if match and v.lower() == match[0]]
    return f" - did you mean '{match[0]}'?" if match else ""
