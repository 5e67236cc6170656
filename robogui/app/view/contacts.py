"""Links in contact drawn red, live (issue 24): after every move of the robot (sliders, jog,
tool handle, link drag, go-to, playback) and every change of the work cell, the view asks the
session which links touch something (``session.contact_frames``, computed once per change
from ``session.collisions``) and tints those links' parts. The view only colours what the
session reports; the objects' own red is drawn by the cell's items from
``session.collisions.pairs``.
"""

from __future__ import annotations

from ..bindings import Subscriptions

__all__ = ["ContactTint"]


class ContactTint:
    """Keeps ``view``'s links in contact red for ``session``. ``enabled`` False shows no
    contacts (and checks none)."""

    def __init__(self, view, session):
        self.view, self.session = view, session
        self.enabled = True
        self._subs = Subscriptions(view)
        # after the view's own frames handler (it subscribed first): the parts have moved
        # paced while a live stream is followed (a tint, not a control)
        self._subs.connect(session.events.frames, lambda _F: self.refresh(), paced=True)
        self._subs.connect(session.events.cell, lambda _c: self.refresh())
        view.robotRebuilt.connect(lambda: self.refresh(force=True))
        self.refresh(force=True)

    def refresh(self, force: bool = False) -> None:
        """Tint the links in contact now (``force``: again, after the view rebuilt them)."""
        frames = self.session.contact_frames if self.enabled else frozenset()
        if force:
            self.view.scene.contact_frames = frozenset()
            if not frames:
                return
        self.view.set_contact_frames(frames)

    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)
        self.refresh()
