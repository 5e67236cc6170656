"""The remote API's messages: JSON text over WebSocket, checked before anything is applied.

A request is one JSON object ``{"op": NAME, "id": ANY, ...fields}``; ``id`` is optional
(without it a request that succeeds gets no reply, which is how ``stream_q`` keeps up
with a 500 Hz controller; a failure is always answered). Replies::

    {"id": 7, "ok": true, "result": {...}}
    {"id": 7, "ok": false, "error": {"code": "bad_size", "message": "q needs 6 values ..."}}

Events pushed to a connection that subscribed: ``{"event": "q", "q": [...]}``,
``{"event": "robot", ...}``, ``{"event": "time", "t": 1.5}``, ``{"event": "cell", ...}``.

Everything here is pure: :func:`parse_request` turns text into a :class:`Request` or
raises :class:`RemoteError`, whose ``code`` names the problem (see :data:`ERROR_CODES`).
The joint-vector sizes are checked later, against the robot, by
:class:`~robogui.session.remote_api.api.RemoteApi`.
"""

from __future__ import annotations

import hmac
import json
import math
import secrets
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PROTOCOL_VERSION", "MAX_MESSAGE_BYTES", "ERROR_CODES", "OPS", "EVENTS",
           "RemoteError", "Request", "parse_request", "reply", "error_reply", "event",
           "dumps", "new_token", "token_matches"]

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 1 << 20  # 1 MiB: a request longer than this is refused, unread
MAX_ID_CHARS = 64

ERROR_CODES = {
    "bad_json": "the message is not JSON text (or holds NaN or Infinity)",
    "too_large": "the message is longer than 1 MiB",
    "bad_request": "the message is not a request object, or a field is missing, unknown "
                   "or of the wrong type",
    "unknown_op": "no request of that name",
    "unauthorized": "the connection has not said hello with the right token",
    "bad_size": "a joint vector or trajectory of the wrong size for the robot",
    "not_finite": "a number is NaN, infinite or too large",
    "not_following": "stream_q while the app is not in Follow mode",
    "unknown_object": "the work cell has no object of that name",
    "unsupported": "the app cannot do this here (no window for a screenshot)",
    "failed": "the request was valid but could not be done (file error, bad robot...)",
}

EVENTS = ("q", "robot", "time", "cell")

_NUM = "number"
_NUMS = "numbers"      # a list of numbers
_ROWS = "rows"         # a list of lists of numbers
_STR = "string"
_BOOL = "bool"
_STRS = "strings"

# op -> (required fields, optional fields), each name -> kind
OPS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "hello": ({"token": _STR}, {"events": _STRS}),
    "subscribe": ({"events": _STRS}, {}),
    "get_state": ({}, {}),
    "open_robot": ({"robot": _STR}, {"q": _NUMS, "tip": _STR}),
    "set_q": ({"q": _NUMS}, {}),
    "stream_q": ({"q": _NUMS}, {"t": _NUM}),
    "get_q": ({}, {}),
    "get_pose": ({}, {}),
    "load_trajectory": ({}, {"t": _NUMS, "q": _ROWS, "path": _STR}),
    "load_program": ({}, {"path": _STR, "text": _STR}),
    "play": ({}, {"speed": _NUM, "loop": _BOOL}),
    "pause": ({}, {}),
    "stop": ({}, {}),
    "set_time": ({"t": _NUM}, {}),
    "screenshot": ({}, {"path": _STR, "what": _STR}),
    "follow": ({"on": _BOOL}, {}),
    "record": ({"on": _BOOL}, {}),
    "save_recording": ({"path": _STR}, {}),
    "open_cell": ({"path": _STR}, {}),
    "get_cell": ({}, {}),
    "add_object": ({"name": _STR, "shape": _STR},
                   {"size": _NUMS, "pose": _ROWS, "xyz": _NUMS, "rpy": _NUMS, "color": _STR,
                    "collides": _BOOL, "file": _STR, "scale": _NUMS}),
    "move_object": ({"name": _STR}, {"pose": _ROWS, "xyz": _NUMS, "rpy": _NUMS}),
    "remove_object": ({"name": _STR}, {}),
}

# larger than any joint value or time a robot has: refused as "not finite"
MAX_ABS_NUMBER = 1e9
_MAX_STRING = 4096


class RemoteError(ValueError):
    """A request refused or failed; ``code`` is one of :data:`ERROR_CODES`."""

    def __init__(self, code: str, message: str):
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code


@dataclass
class Request:
    """One checked request: ``op``, the caller's ``id`` (None: no reply on success), fields."""

    op: str
    id: Any = None
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def wants_reply(self) -> bool:
        return self.id is not None


def _reject_constant(name: str):
    raise RemoteError("not_finite", f"the message holds {name}; numbers must be finite")


def _number(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RemoteError("bad_request", f"{where} must be a number, got {_kind(value)}")
    x = float(value)
    if not math.isfinite(x) or abs(x) > MAX_ABS_NUMBER:
        raise RemoteError("not_finite", f"{where} must be finite and at most {MAX_ABS_NUMBER:g} "
                                        f"in size, got {value!r}")
    return x


def _kind(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            type(None): "null"}.get(type(value), type(value).__name__)


def _numbers(value, where: str) -> list[float]:
    if not isinstance(value, list):
        raise RemoteError("bad_request", f"{where} must be a list of numbers, got {_kind(value)}")
    return [_number(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _check_field(op: str, name: str, kind: str, value):
    where = f"{op}.{name}"
    if kind == _NUM:
        return _number(value, where)
    if kind == _NUMS:
        return _numbers(value, where)
    if kind == _ROWS:
        if not isinstance(value, list):
            raise RemoteError("bad_request", f"{where} must be a list of lists of numbers, "
                                             f"got {_kind(value)}")
        return [_numbers(row, f"{where}[{i}]") for i, row in enumerate(value)]
    if kind == _STR:
        if not isinstance(value, str):
            raise RemoteError("bad_request", f"{where} must be a string, got {_kind(value)}")
        if len(value) > _MAX_STRING and name != "text":
            raise RemoteError("bad_request", f"{where} is longer than {_MAX_STRING} characters")
        return value
    if kind == _BOOL:
        if not isinstance(value, bool):
            raise RemoteError("bad_request", f"{where} must be true or false, got {_kind(value)}")
        return value
    if kind == _STRS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RemoteError("bad_request", f"{where} must be a list of strings")
        return list(value)
    raise AssertionError(kind)  # pragma: no cover


def parse_request(message: str | bytes) -> Request:
    """Check one message: size, JSON, object shape, op and field types (not sizes vs the robot).

    Raises :class:`RemoteError` naming the problem; ``error.request_id`` carries the
    message's ``id`` when it could be read (so the reply can name it).
    """
    size = len(message.encode("utf-8") if isinstance(message, str) else message)
    if size > MAX_MESSAGE_BYTES:
        raise RemoteError("too_large", f"the message has {size} bytes; at most "
                                       f"{MAX_MESSAGE_BYTES} (1 MiB) are read")
    try:
        data = json.loads(message, parse_constant=_reject_constant)
    except RemoteError:
        raise
    except (ValueError, UnicodeDecodeError) as exc:
        raise RemoteError("bad_json", f"the message is not JSON: {exc}") from None
    except RecursionError:
        raise RemoteError("bad_json", "the message nests too deeply") from None
    if not isinstance(data, dict):
        raise RemoteError("bad_request",
                          f"a request must be a JSON object, got {_kind(data)}")
    rid = data.get("id")
    try:
        if rid is not None and not (isinstance(rid, (int, str)) and not isinstance(rid, bool)
                                    and len(str(rid)) <= MAX_ID_CHARS):
            raise RemoteError("bad_request", f"id must be a number or a string of at most "
                                             f"{MAX_ID_CHARS} characters")
        op = data.get("op")
        if not isinstance(op, str):
            raise RemoteError("bad_request", "a request needs \"op\": the request's name")
        if op not in OPS:
            raise RemoteError("unknown_op", f"unknown request {op[:40]!r}; known: "
                                            f"{', '.join(OPS)}")
        required, optional = OPS[op]
        extra = sorted(set(data) - {"op", "id"} - set(required) - set(optional))
        if extra:
            raise RemoteError("bad_request", f"{op} has no field {', '.join(extra)}; its fields: "
                                             f"{', '.join([*required, *optional]) or 'none'}")
        missing = [name for name in required if name not in data]
        if missing:
            raise RemoteError("bad_request", f"{op} needs {', '.join(missing)}")
        fields = {name: _check_field(op, name, kind, data[name])
                  for name, kind in {**required, **optional}.items() if name in data}
    except RemoteError as exc:
        exc.request_id = rid if isinstance(rid, (int, str)) and len(str(rid)) <= 64 else None
        raise
    return Request(op, rid, fields)


def dumps(message: dict) -> str:
    """JSON text of a reply or event (numpy values already turned into lists)."""
    return json.dumps(message, allow_nan=False, separators=(",", ":"))


def reply(request_id, result: dict | None = None) -> dict:
    return {"id": request_id, "ok": True, "result": result or {}}


def error_reply(request_id, error: RemoteError) -> dict:
    return {"id": request_id, "ok": False,
            "error": {"code": error.code, "message": str(error)}}


def event(kind: str, /, **data) -> dict:
    return {"event": kind, **data}


def new_token() -> str:
    """A per-session secret (48 hex characters, as Jupyter's tokens)."""
    return secrets.token_hex(24)


def token_matches(given: str, expected: str) -> bool:
    """Constant-time comparison (no timing hint about how much of the token was right)."""
    return hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))
