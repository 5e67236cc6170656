"""A tiny observer mechanism: signals, evented fields and batched notification.

The session layer is Qt-free, so it cannot use Qt signals. This module gives it
what it needs in a few dozen lines:

* :class:`Signal` - a list of callbacks, each called with the new value.
* :class:`Events` - named signals reached as attributes (``events.q``); an unknown
  name raises instead of silently creating a signal.
* :class:`EventedModel` - a base class whose :class:`Field` attributes fire their
  signal only on a real change (arrays compared with a tolerance), and whose
  ``batch()`` context fires each changed field once, at the end.

>>> class Opts(EventedModel):
...     size = Field(1.0)
>>> o = Opts(); seen = []
>>> _ = o.events.size.connect(seen.append)
>>> o.size = 1.0; o.size = 2.0
>>> seen
[2.0]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

__all__ = ["Signal", "Events", "EventEmitter", "EventedModel", "Field", "values_equal",
           "ListenerError"]

# "real change" tolerance for arrays: absolute, so that a 0.001 degree step
# (1.7e-5 rad) is never swallowed by a relative tolerance at large angles
ATOL = 1e-9


def values_equal(a: Any, b: Any) -> bool:
    """True when ``a`` and ``b`` are the same value (arrays: same shape, allclose)."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            a_arr, b_arr = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        except (TypeError, ValueError):
            return False
        return a_arr.shape == b_arr.shape and bool(np.allclose(a_arr, b_arr, rtol=0, atol=ATOL))
    try:
        return bool(a == b)
    except Exception:  # objects whose == is ambiguous count as different
        return False


class ListenerError(RuntimeError):
    """One or more listeners raised while an event (or a batch of events) was delivered.

    Every other listener was still called: one broken widget must not leave the others
    showing a state the session is no longer in. ``errors`` holds ``(signal name,
    exception)`` pairs in the order they happened; the message names the first, so the
    failure is reported once however many listeners failed.
    """

    def __init__(self, errors: list[tuple[str, BaseException]]):
        self.errors = list(errors)
        name, first = self.errors[0]
        more = f" (and {len(self.errors) - 1} more)" if len(self.errors) > 1 else ""
        super().__init__(f"a listener of '{name}' failed: {type(first).__name__}: {first}{more}")

    @property
    def first(self) -> BaseException:
        return self.errors[0][1]


def _deliver(signal: Signal, value: Any, errors: list) -> None:
    """Call every slot of ``signal``; an Exception from one is recorded, the rest still run."""
    # copy: a callback may disconnect itself or others while we iterate
    for fn in list(signal._slots):
        try:
            fn(value)
        except ListenerError as exc:  # a nested emission already collected its own
            errors.extend(exc.errors)
        except Exception as exc:  # reported once, after every listener ran
            errors.append((signal.name, exc))


class Signal:
    """Callbacks called with one argument, the new value, in connection order.

    When a callback raises, the later ones are still called; then one
    :class:`ListenerError` listing every failure is raised.
    """

    __slots__ = ("name", "_slots")

    def __init__(self, name: str):
        self.name = name
        self._slots: list[Callable[[Any], Any]] = []

    def connect(self, fn: Callable[[Any], Any], *, first: bool = False) -> Callable[[Any], Any]:
        """Call ``fn(value)`` on every emission; returns ``fn`` (usable as a decorator).

        ``first=True`` calls it before the callbacks connected so far (the remote API
        sends its event before the panels redraw, so a client hears of a change at once).
        """
        if not callable(fn):
            raise TypeError(f"{self.name}: can only connect a callable, got {fn!r}")
        if fn not in self._slots:
            if first:
                self._slots.insert(0, fn)
            else:
                self._slots.append(fn)
        return fn

    def disconnect(self, fn: Callable[[Any], Any]) -> None:
        """Stop calling ``fn``; disconnecting twice is harmless (widgets close once or twice)."""
        try:
            self._slots.remove(fn)
        except ValueError:
            pass

    def emit(self, value: Any = None) -> None:
        errors: list[tuple[str, BaseException]] = []
        _deliver(self, value, errors)
        if errors:
            raise ListenerError(errors)

    def __len__(self) -> int:
        return len(self._slots)

    def __repr__(self) -> str:
        return f"<Signal {self.name!r} with {len(self._slots)} callback(s)>"


class Events:
    """A fixed set of named signals: ``events.q.connect(fn)`` or ``events["q"]``."""

    def __init__(self, names: Iterable[str]):
        self._signals = {name: Signal(name) for name in names}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._signals)

    def __getattr__(self, name: str) -> Signal:
        signals = self.__dict__.get("_signals", {})
        try:
            return signals[name]
        except KeyError:
            raise AttributeError(
                f"no event {name!r}; known events: {', '.join(signals)}"
            ) from None

    def __getitem__(self, name: str) -> Signal:
        try:
            return self._signals[name]
        except KeyError:
            raise KeyError(f"no event {name!r}; known events: {', '.join(self._signals)}") from None

    def __contains__(self, name: str) -> bool:
        return name in self._signals

    def __iter__(self) -> Iterator[Signal]:
        return iter(self._signals.values())


class EventEmitter:
    """Mixin: owns ``events`` and batches emissions inside ``with self.batch():``.

    During a batch each event is remembered once, with a function that produces its
    value; at the end of the outermost batch the events fire in declaration order,
    so derived values (computed by those functions) are computed once.
    """

    def _init_events(self, names: Iterable[str]) -> None:
        self.events = Events(names)
        self._batch_depth = 0
        self._pending: dict[str, Callable[[], Any]] = {}

    def _emit(self, name: str, value: Any = None, *, lazy: Callable[[], Any] | None = None) -> None:
        """Fire ``name`` now, or at the end of the current batch.

        ``lazy`` (a function) produces the value when the event actually fires.
        """
        signal = self.events[name]  # unknown names fail here, loudly
        getter = lazy if lazy is not None else (lambda: value)
        if self._batch_depth:
            self._pending[name] = getter
        else:
            signal.emit(getter())

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group changes: each changed event fires once when the outermost batch ends."""
        self._batch_depth += 1
        try:
            yield
        finally:
            self._batch_depth -= 1
            if self._batch_depth == 0 and self._pending:
                pending, self._pending = self._pending, {}
                errors: list[tuple[str, BaseException]] = []
                for name in self.events.names:
                    if name in pending:
                        # every pending event is delivered even when a listener failed
                        try:
                            value = pending[name]()
                        except Exception as exc:  # a derived value failed: reported likewise
                            errors.append((name, exc))
                            continue
                        _deliver(self.events[name], value, errors)
                if errors:
                    raise ListenerError(errors)


class Field:
    """An evented attribute of an :class:`EventedModel`.

    ``choices`` restricts the value to a set; ``coerce(value) -> value`` converts and
    validates (raise ValueError to refuse). Setting an equal value fires nothing.
    """

    def __init__(self, default: Any, *, choices: Iterable[Any] | None = None,
                 coerce: Callable[[Any], Any] | None = None, doc: str = ""):
        self.default = default
        self.choices = tuple(choices) if choices is not None else None
        self.coerce = coerce
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def check(self, value: Any) -> Any:
        if self.coerce is not None:
            value = self.coerce(value)
        if self.choices is not None and value not in self.choices:
            raise ValueError(
                f"{self.name} must be one of {', '.join(map(repr, self.choices))}, got {value!r}"
            )
        return value

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        return obj._values[self.name]

    def __set__(self, obj: Any, value: Any) -> None:
        value = self.check(value)
        if values_equal(obj._values[self.name], value):
            return
        obj._values[self.name] = value
        obj._emit(self.name, value)


class EventedModel(EventEmitter):
    """A plain object whose :class:`Field` attributes are observable.

    Subclasses declare fields as class attributes; ``events`` has one signal per
    field, named like it. ``update(a=1, b=2)`` sets several fields in one batch.
    """

    _fields: dict[str, Field] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields: dict[str, Field] = {}
        for klass in reversed(cls.__mro__):
            for name, attr in vars(klass).items():
                if isinstance(attr, Field):
                    fields[name] = attr
        cls._fields = fields

    def __init__(self, **values: Any):
        self._values = {name: f.check(f.default) for name, f in self._fields.items()}
        self._init_events(self._fields)
        self.update(**values)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(cls._fields)

    def field(self, name: str) -> Field:
        """The :class:`Field` called ``name``; an unknown name raises KeyError listing the known."""
        try:
            return self._fields[name]
        except KeyError:
            raise KeyError(
                f"{type(self).__name__} has no field {name!r}; fields: {', '.join(self._fields)}"
            ) from None

    def update(self, **values: Any) -> None:
        """Set several fields; each changed one fires once, after all are set."""
        for name in values:
            self.field(name)  # check every name before changing anything
        with self.batch():
            for name, value in values.items():
                setattr(self, name, value)

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"{type(self).__name__}({inner})"
