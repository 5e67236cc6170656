"""Qt-free application state observed by the app."""

from .observable import EventedModel, Events, Field, Signal
from .session import DisplayOptions, Session, initial_q

__all__ = ["Session", "DisplayOptions", "initial_q", "EventedModel", "Events", "Field", "Signal"]
