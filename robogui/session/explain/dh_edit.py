"""Editing a robot through its D-H table, Qt-free: one cell or one row at a time.

Each edit returns a *new* :class:`~robogui.engine.model.robot.Robot` (the description is
immutable) or raises ``ValueError`` with the reason, naming the link and the column,
so an invalid cell never changes the robot. The table's columns are :data:`COLUMNS`;
angles are shown and typed in the display's angle unit ("deg" or "rad"), lengths in its
length unit ("mm" or "m"), as everywhere in the app.

A typed number may be a short expression: ``90``, ``-pi/2``, ``0.15 + 0.02``, ``1e-3``;
an angle or a length may carry a unit as in every numeric field
(:func:`robogui.session.units.parse_number`: ``1.5 rad``, ``30 deg``, ``12 mm``,
``0.3 m``, ``-pi/2 rad``, a decimal comma ``12,5``), converted to the column's unit.
For a revolute joint theta is the joint variable (shown ``q1``) and for a prismatic
joint d is: typing a number there is refused with that reason (edit the offset).

A general (URDF) joint shows its origin xyz, origin rpy, axis and the transform after
its motion in the four D-H columns (:data:`GENERAL_HEADS`), and takes them typed the
same way: three numbers (lengths in the length unit, angles in the angle unit), or
``x y z / roll pitch yaw`` (``-`` for none) after the motion.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass

import numpy as np

from robogui.engine.model.link import Link, inertia_vector
from robogui.engine.model.robot import Robot

from .. import units
from . import readout

__all__ = ["COLUMNS", "Column", "cell_text", "edit_cell", "parse_number", "parse_value",
           "unit_of", "insert_link",
           "delete_link", "move_link", "one_link_robot", "map_q", "column_index",
           "column_tip", "GENERAL_HEADS", "GENERAL_TIPS"]


@dataclass(frozen=True)
class Column:
    """``key`` the field edited; ``kind`` "angle", "length", "joint" (angle or length by
    the joint type), "number", "vector3", "vector6", "pair", "text", "choice"."""

    key: str
    head: str
    kind: str
    tip: str


COLUMNS: tuple[Column, ...] = (
    Column("joint", "joint", "choice", "R (revolute) or P (prismatic)"),
    Column("name", "name", "text", "the link's name"),
    Column("theta", "theta", "angle", "rotation about z(i-1); q for a revolute joint"),
    Column("d", "d", "length", "m, along z(i-1); q for a prismatic joint"),
    Column("a", "a", "length", "m, along x(i) (modified D-H: a(i-1), along x(i-1))"),
    Column("alpha", "alpha", "angle", "twist about x(i) (modified D-H: alpha(i-1))"),
    Column("offset", "offset", "joint", "added to q: theta = q + offset (d for prismatic)"),
    Column("qmin", "qlim min", "joint", "lower joint limit"),
    Column("qmax", "qlim max", "joint", "upper joint limit"),
    Column("convention", "convention", "choice",
           "standard or modified D-H (the whole robot uses one)"),
    Column("m", "m", "number", "link mass, kg"),
    Column("r", "r (com)", "vector3", "centre of mass in the link frame, m: x y z"),
    Column("I", "I [xx yy zz xy yz xz]", "vector6",
           "inertia about the centre of mass, kg m^2"),
    Column("Jm", "Jm", "number", "motor armature inertia, kg m^2 (motor side)"),
    Column("G", "G", "number", "gear ratio"),
    Column("B", "B", "number", "viscous friction (motor referred)"),
    Column("Tc", "Tc [+ -]", "pair", "Coulomb friction tau+ tau- (motor referred)"),
    Column("tau_max", "tau max", "number", "joint torque (force) limit; - for none"),
    Column("qd_max", "qd max", "number",
           "joint speed limit, rad/s (m/s prismatic); - for the default"),
    Column("qdd_max", "qdd max", "number",
           "joint acceleration limit, rad/s^2 (m/s^2 prismatic); - for the default"),
)


def column_index(key: str) -> int:
    """Index of the column editing ``key`` (ValueError for an unknown key)."""
    for k, c in enumerate(COLUMNS):
        if c.key == key:
            return k
    raise ValueError(f"no D-H table column {key!r}; known: {[c.key for c in COLUMNS]}")


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.Div: operator.truediv, ast.Pow: operator.pow, ast.USub: operator.neg,
        ast.UAdd: operator.pos}


def parse_number(text: str) -> float:
    """A finite number from ``text``: a float or an arithmetic expression with ``pi``."""
    s = str(text).strip().replace("\u2212", "-")
    if not s:
        raise ValueError("empty: type a number")
    try:
        value = float(s)
    except ValueError:
        try:
            value = float(_eval(ast.parse(s, mode="eval").body))
        except (SyntaxError, ValueError, TypeError, ZeroDivisionError, OverflowError):
            raise ValueError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{text!r} is not a finite number")
    return value


#: an expression followed by a unit word ("-pi/2 rad", "0.1+0.02 m")
_UNIT_TAIL = re.compile(r"^(?P<expr>.*?(?:[^A-Za-z_\s]|\bpi))\s*(?P<unit>[A-Za-z\u00b0]+)$")
_MAX = 1e12  # as the app's number fields: beyond any length or angle a robot has


def parse_value(text: str, quantity: str, unit: str) -> float:
    """A number typed into an angle or length cell, in ``unit`` ("deg"/"rad", "mm"/"m").

    The app's number-field rules (:func:`robogui.session.units.parse_number`: a unit
    suffix of the quantity converted, a decimal comma, no thousands separators), and
    expressions with ``pi`` optionally followed by a unit. ValueError says why not.
    """
    raw = str(text).strip().replace("\u2212", "-")
    try:
        return units.parse_number(raw, quantity, unit)
    except units.NumberError as exc:
        reason = exc
    m = _UNIT_TAIL.match(raw)
    try:
        if m is not None:  # the unit's own refusal (another quantity, unknown) if any
            try:
                factor = units.parse_number("1 " + m["unit"], quantity, unit)
            except units.NumberError as exc:
                raise units.NumberError(str(exc).replace(f"'1 {m['unit']}'", f"'{raw}'")) \
                    from None
            value = parse_number(m["expr"]) * factor
        else:
            value = parse_number(raw)
    except units.NumberError:
        raise
    except ValueError:
        raise ValueError(str(reason)) from None
    if abs(value) > _MAX:
        raise ValueError(f"'{raw}' is too large")
    return value


def _eval(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.Name) and node.id == "pi":
        return math.pi
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left), _eval(node.right))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.operand))
    raise ValueError("not arithmetic")


def _numbers(text: str, count: int) -> list[float]:
    parts = str(text).replace(",", " ").replace("[", " ").replace("]", " ").split()
    if len(parts) != count:
        raise ValueError(f"{text!r}: type {count} numbers separated by spaces")
    return [parse_number(p) for p in parts]


def _g(x: float, digits: int = 6) -> str:
    return f"{x + 0.0:.{digits}g}"


_KINEMATIC = ("theta", "d", "a", "alpha", "convention")
#: headers of the kinematic columns for a robot with general (URDF) joints
GENERAL_HEADS = {"theta": "origin xyz (m)", "d": "origin rpy (deg)", "a": "axis",
                 "alpha": "then xyz / rpy", "convention": "convention"}
#: what those columns hold, and how to type them (the cells' tooltips)
GENERAL_TIPS = {
    "theta": "where the joint is in the previous link's frame: x y z (the URDF origin xyz)",
    "d": "the joint frame's turn from the previous link's frame: roll pitch yaw "
         "(the URDF origin rpy)",
    "a": "the direction the joint turns about or slides along in its frame: x y z "
         "(any length, not zero)",
    "alpha": "a constant transform after the motion, x y z / roll pitch yaw, or - for "
             "none (the chain's last fixed joints)",
    "convention": "general joints have no D-H convention"}


def column_tip(robot: Robot, col: int) -> str:
    """The tooltip of column ``col`` for ``robot`` (general joints: their own meaning)."""
    key = COLUMNS[col].key
    if robot.is_general and key in GENERAL_TIPS:
        return GENERAL_TIPS[key]
    return COLUMNS[col].tip


def _general_cell(L: Link, key: str, a_scale: float, l_scale: float = 1.0) -> str:
    """origin xyz, origin rpy, axis and the constant transform after the motion."""
    from robogui.engine.spatial.transforms import tr2rpy

    def xyz(T):
        return " ".join(_g(v * l_scale, 4) for v in T[:3, 3])

    def rpy(T):
        return " ".join(_g(v * a_scale, 4) for v in tr2rpy(T))

    if key == "theta":
        return xyz(L.origin)
    if key == "d":
        return rpy(L.origin)
    if key == "a":
        return " ".join(_g(v, 3) for v in L.axis)
    if key == "alpha":
        return "-" if np.array_equal(L.post, np.eye(4)) else f"{xyz(L.post)} / {rpy(L.post)}"
    return "general"


def cell_text(robot: Robot, row: int, col: int, angle_unit: str = "deg",
              length_unit: str = "m") -> str:
    """The text of one cell (numbers with up to 6 significant digits; angles and lengths
    in the units: "deg"/"rad", "m"/"mm").

    A general (URDF) joint shows its origin, axis and post transform in the D-H columns.
    """
    L = robot.links[row]
    key = COLUMNS[col].key
    if getattr(L, "is_general", False) and key in _KINEMATIC:
        return _general_cell(L, key, readout.angle_scale(angle_unit),
                             readout.length_scale(length_unit))
    rev = L.joint == "R"
    a_scale = readout.angle_scale(angle_unit)
    l_scale = readout.length_scale(length_unit)
    joint_scale = a_scale if rev else l_scale
    if key == "joint":
        return L.joint
    if key == "name":
        return L.name
    if key == "theta":
        return f"q{row + 1}" if rev else _g(L.theta * a_scale)
    if key == "d":
        return _g(L.d * l_scale) if rev else f"q{row + 1}"
    if key in ("a", "alpha"):
        return _g(L.a * l_scale) if key == "a" else _g(L.alpha * a_scale)
    if key == "offset":
        return _g(L.offset * joint_scale)
    if key in ("qmin", "qmax"):
        if L.qlim is None:
            return "-"
        return _g(L.qlim[0 if key == "qmin" else 1] * joint_scale)
    if key == "convention":
        return "modified" if L.mdh else "standard"
    if key == "r":
        return " ".join(_g(v * l_scale, 4) for v in L.r)
    if key == "I":
        return " ".join(_g(v, 4) for v in inertia_vector(L.I))
    if key == "Tc":
        return f"{_g(L.Tc[0], 4)} {_g(L.Tc[1], 4)}"
    if key in ("tau_max", "qd_max", "qdd_max"):
        value = getattr(L, key)
        return "-" if value is None else _g(value)
    return _g(getattr(L, key))


def unit_of(robot: Robot, row: int, col: int, angle_unit: str = "deg",
            length_unit: str = "m") -> str:
    """The unit of a cell's number ("deg", "rad", "m", "mm") or "" (headers, tips)."""
    kind = COLUMNS[col].kind
    if kind == "angle":
        return angle_unit
    if kind == "length" or COLUMNS[col].key == "r":
        return length_unit
    if kind == "joint":
        return angle_unit if robot.links[row].joint == "R" else length_unit
    return ""


def edit_cell(robot: Robot, row: int, col: int, text: str, angle_unit: str = "deg",
              length_unit: str = "m") -> Robot:
    """``robot`` with cell (row, col) set from ``text`` (angles in ``angle_unit``, lengths
    in ``length_unit`` unless the text names its unit); ValueError says why not."""
    if not 0 <= row < robot.n:
        raise ValueError(f"row {row} is outside the table (links 1..{robot.n})")
    column = COLUMNS[col]
    L = robot.links[row]
    general = getattr(L, "is_general", False) and column.key in _KINEMATIC
    where = f"link {row + 1}, {GENERAL_HEADS[column.key] if general else column.head}"
    try:
        if general:
            changes = _general_changes(L, column.key, str(text), angle_unit, length_unit)
            return robot.with_links(robot.links[:row] + (L.replace(**changes),)
                                    + robot.links[row + 1:])
        if column.key == "convention":
            if robot.is_general:
                raise ValueError("a robot with general (URDF) joints has no D-H convention")
            word = str(text).strip().lower()
            if word not in ("standard", "modified", "std", "mdh", "dh"):
                raise ValueError(f"{text!r}: type standard or modified")
            mdh = word in ("modified", "mdh")
            return robot.with_links([lk.replace(mdh=mdh) for lk in robot.links])
        changes = _changes(L, row, column, str(text), angle_unit, length_unit)
        return robot.with_links(robot.links[:row] + (L.replace(**changes),)
                                + robot.links[row + 1:])
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _general_changes(L: Link, key: str, text: str, angle_unit: str, length_unit: str) -> dict:
    """A general (URDF) joint's cells as shown by :func:`_general_cell`: origin xyz (in
    the length unit), origin rpy (angle unit), axis (any non-zero direction), and the
    transform after the motion (``x y z / r p y``, or ``-`` for none)."""
    from robogui.engine.spatial.transforms import rpy2r

    l_scale = readout.length_scale(length_unit)
    a_scale = readout.angle_scale(angle_unit)

    def placed(T, xyz=None, rpy=None):
        T = np.array(T, dtype=float)
        if xyz is not None:
            T[:3, 3] = np.array(xyz) / l_scale
        if rpy is not None:
            T[:3, :3] = rpy2r(np.array(rpy) / a_scale)
        return T

    if key == "theta":
        return {"origin": placed(L.origin, xyz=_numbers(text, 3))}
    if key == "d":
        return {"origin": placed(L.origin, rpy=_numbers(text, 3))}
    if key == "a":
        axis = np.array(_numbers(text, 3))
        if not np.linalg.norm(axis) > 0:
            raise ValueError(f"{text!r}: the axis must be a non-zero direction")
        return {"axis": axis / np.linalg.norm(axis)}
    if key == "alpha":
        if text.strip() in ("-", ""):
            return {"post": np.eye(4)}
        xyz, sep, rpy = text.partition("/")
        if not sep:
            raise ValueError(f"{text!r}: type x y z / roll pitch yaw, or - for none")
        return {"post": placed(np.eye(4), xyz=_numbers(xyz, 3), rpy=_numbers(rpy, 3))}
    raise ValueError("a robot with general (URDF) joints has no D-H convention")


def _changes(L: Link, row: int, column: Column, text: str, angle_unit: str,
             length_unit: str) -> dict:
    key, kind = column.key, column.kind
    l_scale = readout.length_scale(length_unit)
    rev = L.joint == "R"

    def angle(t: str) -> float:  # radians
        return parse_value(t, "angle", angle_unit) * units.UNITS["angle"][angle_unit]

    def length(t: str) -> float:  # metres
        return parse_value(t, "length", length_unit) * units.UNITS["length"][length_unit]

    if key == "joint":
        j = text.strip().upper()
        if j not in ("R", "P"):
            raise ValueError(f"{text!r}: type R (revolute) or P (prismatic)")
        if j == "P" and L.joint == "R":
            # a prismatic joint needs travel limits; start with 0..0.5 m
            return {"joint": "P", "qlim": (0.0, 0.5), "offset": 0.0}
        if j == "R" and L.joint == "P":
            return {"joint": "R", "qlim": None, "offset": 0.0}
        return {}
    if key == "name":
        return {"name": text.strip()}
    if key == "theta" and rev or key == "d" and not rev:
        raise ValueError(f"{'theta' if rev else 'd'} is the joint variable q{row + 1} of this "
                         f"{'revolute' if rev else 'prismatic'} joint; edit its offset")
    if kind == "angle":
        return {key: angle(text)}
    if kind == "length":
        return {key: length(text)}
    if kind == "joint":
        value_of = angle if rev else length
        if key == "offset":
            return {"offset": value_of(text)}
        if text.strip() in ("-", "") and rev:
            return {"qlim": None}
        value = value_of(text)
        lo, hi = L.qlim if L.qlim is not None else (-math.pi, math.pi)
        lo, hi = (value, hi) if key == "qmin" else (lo, value)
        if not lo < hi:
            raise ValueError("the lower limit must be below the upper limit")
        return {"qlim": (lo, hi)}
    if key in ("tau_max", "qd_max", "qdd_max") and text.strip() in ("-", ""):
        return {key: None}
    if key in ("qd_max", "qdd_max"):
        value = parse_number(text)
        if not value > 0:
            raise ValueError(f"{key} must be a positive number, got {text!r}")
        return {key: value}
    if kind == "number":
        return {key: parse_number(text)}
    if kind == "vector3":  # r, the centre of mass: a length
        return {key: np.array(_numbers(text, 3)) / l_scale}
    if kind == "vector6":
        return {key: np.array(_numbers(text, 6))}
    if kind == "pair":
        return {key: tuple(_numbers(text, 2))}
    raise ValueError(f"column {key!r} cannot be edited")


# -- whole rows ---------------------------------------------------------------------------
def one_link_robot(name: str = "new robot") -> Robot:
    """A one-link revolute arm (a = 0.5 m), the start of File > New robot."""
    return Robot([Link(a=0.5, qlim=(-math.pi, math.pi), name="link 1")], name=name,
                 comment="built in the D-H editor")


def insert_link(robot: Robot, row: int, link: Link | None = None) -> Robot:
    """``robot`` with ``link`` (default a revolute link with a = 0.3 m) inserted before
    ``row`` (``row = n`` appends). Named poses get 0 for the new joint."""
    if not 0 <= row <= robot.n:
        raise ValueError(f"row must be in 0..{robot.n}, got {row}")
    mdh = robot.is_mdh
    if link is None:
        link = Link(a=0.3, mdh=mdh, qlim=(-math.pi, math.pi), name=f"link {row + 1}")
    links = robot.links[:row] + (link.replace(mdh=mdh),) + robot.links[row:]
    poses = {k: np.insert(v, row, 0.0) for k, v in robot.poses.items()}
    return robot.replace(links=links, poses=poses)


def delete_link(robot: Robot, row: int) -> Robot:
    """``robot`` without link ``row``; refused for the last remaining link."""
    if robot.n == 1:
        raise ValueError("a robot needs at least one link; this is the last one")
    if not 0 <= row < robot.n:
        raise ValueError(f"row must be in 0..{robot.n - 1}, got {row}")
    links = robot.links[:row] + robot.links[row + 1:]
    poses = {k: np.delete(v, row) for k, v in robot.poses.items()}
    return robot.replace(links=links, poses=poses)


def move_link(robot: Robot, row: int, delta: int) -> Robot:
    """``robot`` with link ``row`` moved by ``delta`` places (-1 up, +1 down)."""
    new = row + int(delta)
    if not (0 <= row < robot.n and 0 <= new < robot.n):
        raise ValueError(f"cannot move link {row + 1} to position {new + 1} "
                         f"(links 1..{robot.n})")
    order = list(range(robot.n))
    order.insert(new, order.pop(row))
    links = tuple(robot.links[i] for i in order)
    poses = {k: np.asarray(v)[order] for k, v in robot.poses.items()}
    return robot.replace(links=links, poses=poses)


def map_q(q: np.ndarray, n_new: int, *, inserted: int | None = None,
          deleted: int | None = None, order: list[int] | None = None) -> np.ndarray:
    """The joint vector after a row edit: the new joint 0, a deleted one dropped,
    reordered joints carried along; otherwise q itself (n_new equal)."""
    q = np.asarray(q, dtype=float)
    if inserted is not None:
        return np.insert(q, inserted, 0.0)
    if deleted is not None:
        return np.delete(q, deleted)
    if order is not None:
        return q[order]
    if q.size != n_new:
        raise ValueError(f"q has {q.size} values for a robot of {n_new} joints")
    return q.copy()
