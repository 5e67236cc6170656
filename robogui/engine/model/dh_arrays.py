"""The D-H parameters of a chain as arrays of length n, for vectorised kinematics.

Its own module so the kinematics can build them from a list of links without importing
:mod:`.robot` (which re-exports :class:`DHArrays`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

__all__ = ["DHArrays"]


@dataclass(frozen=True)
class DHArrays:
    """The D-H parameters of a chain as arrays of length n, for vectorised kinematics."""

    revolute: np.ndarray
    theta: np.ndarray
    d: np.ndarray
    a: np.ndarray
    alpha: np.ndarray
    offset: np.ndarray
    cos_alpha: np.ndarray
    sin_alpha: np.ndarray
    mdh: bool
    # -1 for a flipped joint axis (Link.flip), else 1: the D-H angle (or length) is
    # sign * q + offset; has_flip lets the common case skip the product
    sign: np.ndarray = None
    has_flip: bool = False
    # True for general joints (origin, axis, post), whose D-H entries above are zeros
    general: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    # generated kinematics kernels, filled lazily by robogui.engine.kinematics.kinematics
    kernels: dict = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def offset_list(self) -> list[float]:
        """The joint offsets as Python floats (for the one-state kinematics path)."""
        return self.offset.tolist()

    @cached_property
    def sign_list(self) -> list[float]:
        return self.sign.tolist()

    def joint_values(self, q2d: np.ndarray) -> np.ndarray:
        """The D-H joint values ``sign * q + offset`` of (m, n) joint vectors."""
        return (q2d * self.sign if self.has_flip else q2d) + self.offset

    @classmethod
    def from_links(cls, links: Sequence) -> DHArrays:
        alpha = np.array([L.alpha for L in links], dtype=float)
        ca, sa = np.cos(alpha), np.sin(alpha)
        # exact zeros for the common +-pi/2 twists keep printed matrices clean
        ca[np.abs(ca) < 1e-15] = 0.0
        sa[np.abs(sa) < 1e-15] = 0.0
        return cls(
            revolute=np.array([L.joint == "R" for L in links], dtype=bool),
            theta=np.array([L.theta for L in links], dtype=float),
            d=np.array([L.d for L in links], dtype=float),
            a=np.array([L.a for L in links], dtype=float),
            alpha=alpha,
            offset=np.array([L.offset for L in links], dtype=float),
            cos_alpha=ca,
            sin_alpha=sa,
            mdh=any(L.mdh for L in links),
            sign=np.array([-1.0 if L.flip else 1.0 for L in links]),
            has_flip=any(L.flip for L in links),
            general=np.array([L.origin is not None for L in links], dtype=bool),
        )
