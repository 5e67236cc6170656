"""Numbers the pose panel shows, in the user's units, and their text (Qt-free).

Keeping this out of the widget lets the same text go to the clipboard and be
tested without a GUI.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np

from robogui.engine.spatial.quaternion import UnitQuaternion
from robogui.engine.spatial.transforms import tr2eul, tr2rpy

from .armconfig import describe_config

__all__ = ["ORIENTATION_LABELS", "length_scale", "angle_scale", "decimals", "position",
           "orientation", "fmt", "pose_text", "matrix_text", "joint_text", "joint_value_text",
           "short_joint_names"]

ORIENTATION_LABELS = {
    "rpy": ("roll", "pitch", "yaw"),
    "zyz": ("phi", "theta", "psi"),
    "quaternion": ("s", "vx", "vy", "vz"),
}


def length_scale(unit: str) -> float:
    """Display units per metre: ``"mm"`` -> 1000, ``"m"`` -> 1."""
    try:
        return {"mm": 1000.0, "m": 1.0}[unit]
    except KeyError:
        raise ValueError(f"length unit must be 'mm' or 'm', got {unit!r}") from None


def angle_scale(unit: str) -> float:
    """Display units per radian: ``"deg"`` -> 180/pi, ``"rad"`` -> 1."""
    try:
        return {"deg": 180.0 / math.pi, "rad": 1.0}[unit]
    except KeyError:
        raise ValueError(f"angle unit must be 'deg' or 'rad', got {unit!r}") from None


def joint_value_text(revolute: bool, value: float, angle_unit: str = "deg",
                     length_unit: str = "mm", rate: str = "") -> str:
    """A joint value or change (rad for a revolute joint, m for a prismatic one) for a
    message in the display units: "12.5°", "0.218 rad", "12.5 mm", "0.0125 m"; ``rate``
    "/s" for a speed."""
    if revolute:
        if angle_unit == "rad":
            return f"{value:.3f} rad{rate}"
        return f"{value * angle_scale(angle_unit):.1f}°{rate}"
    if length_unit == "m":
        return f"{value:.4f} m{rate}"
    return f"{value * length_scale(length_unit):.1f} mm{rate}"


def decimals(unit: str) -> int:
    """Digits after the point for a unit: 0.01 mm, 10 um in m, 0.001 deg, 1e-5 rad."""
    return {"mm": 2, "m": 5, "deg": 3, "rad": 5, "": 5}[unit]


def position(T: np.ndarray, length_unit: str = "mm") -> np.ndarray:
    """Translation of ``T`` (4, 4) in display units: (3,)."""
    return np.asarray(T, float)[:3, 3] * length_scale(length_unit)


def orientation(T: np.ndarray, kind: str = "rpy", angle_unit: str = "deg") -> np.ndarray:
    """Orientation of ``T``: rpy (zyx) or ZYZ Euler angles (3,) in ``angle_unit``,
    or quaternion components ``[s, vx, vy, vz]`` (4,) with s >= 0."""
    if kind == "rpy":
        return tr2rpy(T) * angle_scale(angle_unit)
    if kind == "zyz":
        return tr2eul(T) * angle_scale(angle_unit)
    if kind == "quaternion":
        q = UnitQuaternion(np.asarray(T, float))
        return np.concatenate([[q.s], q.v])
    raise ValueError(f"orientation must be 'rpy', 'zyz' or 'quaternion', got {kind!r}")


def fmt(x: float, digits: int) -> str:
    """``x`` with ``digits`` decimals, never printed as a negative zero."""
    s = f"{x:.{digits}f}"
    return "0." + "0" * digits if s.lstrip("-") == "0." + "0" * digits else s  # no "-0.000"


def matrix_text(T: np.ndarray, digits: int = 4) -> str:
    """The 4x4 matrix, one row per line, aligned columns."""
    rows = [[fmt(v, digits) for v in row] for row in np.asarray(T, float)]
    width = max(len(c) for r in rows for c in r)
    return "\n".join("  ".join(c.rjust(width) for c in r) for r in rows)


def joint_text(q: np.ndarray, structure: str, angle_unit: str, length_unit: str) -> str:
    """``q = [..]`` with each joint in its unit."""
    parts = []
    for qj, kind in zip(q, structure, strict=True):
        unit = angle_unit if kind == "R" else length_unit
        scale = angle_scale(unit) if kind == "R" else length_scale(unit)
        parts.append(f"{fmt(qj * scale, decimals(unit))} {unit}")
    return "q = [" + ", ".join(parts) + "]"


def pose_text(T: np.ndarray, *, orientation_kind: str = "rpy", angle_unit: str = "deg",
              length_unit: str = "mm", config: str | None = None,
              manipulability: float | None = None, q=None, structure: str = "") -> str:
    """Plain text of the pose readout (what "copy to clipboard" gives)."""
    p = position(T, length_unit)
    dl = decimals(length_unit)
    lines = []
    if q is not None:
        lines.append(joint_text(q, structure, angle_unit, length_unit))
    lines.append("position: " + ", ".join(
        f"{n} = {fmt(v, dl)} {length_unit}" for n, v in zip("xyz", p, strict=True)))
    o = orientation(T, orientation_kind, angle_unit)
    names = ORIENTATION_LABELS[orientation_kind]
    if orientation_kind == "quaternion":
        lines.append("orientation (quaternion): " + ", ".join(
            f"{n} = {fmt(v, 5)}" for n, v in zip(names, o, strict=True)))
    else:
        label = "roll-pitch-yaw (zyx)" if orientation_kind == "rpy" else "Euler ZYZ"
        da = decimals(angle_unit)
        lines.append(f"orientation ({label}): " + ", ".join(
            f"{n} = {fmt(v, da)} {angle_unit}" for n, v in zip(names, o, strict=True)))
    if config is not None:
        lines.append(f"configuration: {config} ({describe_config(config)})")
    if manipulability is not None:
        lines.append(f"manipulability (Yoshikawa): {manipulability:.5g}")
    lines.append("T =")
    lines.append(matrix_text(T))
    return "\n".join(lines)


def _fmt_angle(value: float, unit: str = "deg") -> str:
    """``value`` rad as "+45.0°" (deg) or "+0.785 rad" (rad)."""
    if unit == "rad":
        return f"{value:+.3f} rad"
    return f"{value * angle_scale(unit):+.1f}°"


def _fmt_length(value: float, unit: str = "mm", sign: str = "+") -> str:
    """``value`` m as "+12.5 mm" (mm) or "+0.0125 m" (m)."""
    if unit == "m":
        return f"{value:{sign}.4f} m"
    return f"{value * length_scale(unit):{sign}.1f} mm"


_SEPARATORS = re.compile(r"[_\-./: ]")


@functools.lru_cache(maxsize=8)
def short_joint_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Joint names without the words every one of them shares, for a narrow label.

    URDF names repeat the robot and the word joint (``panda_joint1`` .. ``panda_joint7``,
    ``shoulder_pan_joint`` .. ``wrist_3_joint``): the part that tells them apart is
    ``joint1`` or ``shoulder_pan``. Only whole words go (cut at ``_ - . / :`` or a
    space), and every short name keeps a letter; names that would become alike, or a
    single joint's name, stay whole.
    """
    if len(names) < 2 or not all(names):
        return names
    prefix = _whole_words(names, reverse=False)
    suffix = _whole_words([n[len(prefix):] for n in names], reverse=True)
    for cut in (suffix, ""):  # a bare number ("arm_1_joint" -> "1") keeps the suffix
        short = tuple(n[len(prefix):len(n) - len(cut)] for n in names)
        if all(re.search(r"[^\W\d_]", t) for t in short) \
                and len(set(short)) == len(set(names)):
            return short
    return names


def _whole_words(names, reverse: bool) -> str:
    """The longest common prefix (suffix when ``reverse``) of ``names`` that ends (starts)
    with a separator, so no word is cut."""
    seqs = [n[::-1] for n in names] if reverse else list(names)
    common = 0
    for chars in zip(*seqs, strict=False):
        if len(set(chars)) > 1:
            break
        common += 1
    head = seqs[0][:common]
    cut = max((m.end() for m in _SEPARATORS.finditer(head)), default=0)
    return head[:cut][::-1] if reverse else head[:cut]
