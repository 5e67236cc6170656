"""The text description of a robot (``str(robot)``): the D-H table for a D-H robot, one
line per joint for a robot with general joints, and base / tool as xyz + roll-pitch-yaw.

A mixin of :class:`robogui.engine.model.robot.Robot` (kept apart so robot.py stays one purpose:
the immutable model); it reads the robot's public properties and its ``_links`` / ``_poses``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["RobotTextMixin"]


class RobotTextMixin:
    """``__str__`` of :class:`~robogui.engine.model.robot.Robot` (see the module docstring)."""

    __slots__ = ()  # Robot declares its own slots

    def __str__(self) -> str:
        if self.is_general:
            return _general_text(self)
        conv = "modified" if self.is_mdh else "standard"
        lines = [f"{self.name} ({self.manufacturer or 'unknown'}): {self.n} axis, "
                 f"{self.structure}, {conv} D-H"]
        g = self.gravity
        lines.append(f"  gravity = [{g[0]:.2f} {g[1]:.2f} {g[2]:.2f}] m/s^2")
        hdr = ("j", "theta", "d", "a", "alpha", "offset", "qlim")
        if self.is_mdh:
            hdr = ("j", "theta", "d", "a(i-1)", "alpha(i-1)", "offset", "qlim")
        rows = []
        for j, L in enumerate(self._links, 1):
            # lengths to 6 significant digits (Puma d3 = 0.15005), angles in radians
            th = f"q{j}" if L.joint == "R" else f"{L.theta:.4g}"
            dd = f"q{j}" if L.joint == "P" else f"{L.d:.6g}"
            off = f"{L.offset:.4g}" if L.joint == "R" else f"{L.offset:.6g}"
            ql = "-" if L.qlim is None else f"[{L.qlim[0]:.3g}, {L.qlim[1]:.3g}]"
            rows.append((str(j), th, dd, f"{L.a:.6g}", f"{L.alpha:.4g}", off, ql))
        widths = [max(len(r[c]) for r in rows + [hdr]) for c in range(len(hdr))]
        fmt = "  " + " | ".join(f"{{:>{w}}}" for w in widths)
        lines.append(fmt.format(*hdr))
        lines.append("  " + "-+-".join("-" * w for w in widths))
        lines.extend(fmt.format(*r) for r in rows)
        for label, T in (("base", self.base), ("tool", self.tool)):
            if not np.array_equal(T, np.eye(4)):
                lines.append(f"  {label}  = {_frame_text(T)}")
        if self._poses:
            lines.append("  poses: " + ", ".join(self._poses))
        return "\n".join(lines)


def _general_text(robot: RobotTextMixin) -> str:
    """The description of a robot with general joints: one line per joint."""
    lines = [f"{robot.name} ({robot.manufacturer or 'unknown'}): {robot.n} axis, "
             f"{robot.structure}, {robot.convention}"]
    if robot.base_link or robot.tip:
        lines.append(f"  chain {robot.base_link or '?'} -> {robot.tip or '?'}")
    for j, L in enumerate(robot.chain, 1):
        if j - 1 in robot.mimic:
            lead, mult, off = robot.mimic[j - 1]
            text = f"mimics joint {lead + 1}: q = {mult:.6g} q{lead + 1} + {off:.6g}"
            lines.append(f"  {j} {L.name or ''} {L.joint}: {text}")
            continue
        if L.is_general:
            ax = ", ".join(f"{v + 0.0:.4g}" for v in L.axis)
            text = f"origin {_frame_text(L.origin)}, axis [{ax}]"
            if not np.array_equal(L.post, np.eye(4)):
                text += f", then {_frame_text(L.post)}"
        else:
            text = repr(L)
        ql = "" if L.qlim is None else f", qlim [{L.qlim[0]:.4g}, {L.qlim[1]:.4g}]"
        lines.append(f"  {j} {L.name or ''} {L.joint}: {text}{ql}")
    for label, T in (("base", robot.base), ("tool", robot.tool)):
        if not np.array_equal(T, np.eye(4)):
            lines.append(f"  {label}  = {_frame_text(T)}")
    return "\n".join(lines)


def _frame_text(T: np.ndarray) -> str:
    """One line for a base or tool transform: translation and roll-pitch-yaw (zyx)."""
    from ..spatial.transforms import tr2rpy

    num = lambda x: f"{x + 0.0:.6g}"  # + 0.0: no "-0"
    xyz = ", ".join(num(x) for x in T[:3, 3])
    rpy = ", ".join(num(x) for x in tr2rpy(T, unit="deg"))
    return f"xyz [{xyz}] m, rpy [{rpy}] deg"
