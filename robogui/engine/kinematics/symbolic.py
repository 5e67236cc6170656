"""Symbolic forward kinematics and Jacobian (JFKengine), with code export.

From a robot's D-H table this builds sympy expressions for every link matrix A_i(q_i),
the end-effector pose T(q) (base and tool included) and the base-frame Jacobian J(q)
(6 x n, or 3 x n position-only like JFKengine's ``includeOrientation=False``):

* ``J_L`` columns are the partial derivatives of the tool-point position (JFKengine eq. 5);
* ``J_A`` columns are the joint axes in the base frame for revolute joints, 0 for
  prismatic ones (eq. 10). A standard D-H joint i turns about z_{i-1}; a modified D-H
  joint about z_i.

Simplification is cheap and deterministic: each product ``T_{i-1} A_i`` is expanded and
sums of products of sines and cosines are folded into sines and cosines of sums
(sympy's ``TR10i``), so a Puma entry reads ``0.4318*cos(q1)*cos(q2) + ...*cos(q2 + q3)``.
Results are cached by the robot's kinematic description (:func:`kinematic_key`: the D-H
table, joint types, offsets, conventions, base and tool): an unchanged robot is a cache
hit, and so is one that differs only in name, masses, motors or limits, while a new tool
(the JFKengine tool-acquisition case) or any changed kinematic parameter derives again.

sympy is imported inside the functions, so importing this module stays cheap.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np

from ..checks import as_joint_array

__all__ = [
    "SymbolicKinematics", "symbolic_kinematics", "fkine_sym", "jacobian_sym",
    "link_matrices_sym", "joint_locations_sym", "evaluate", "to_python", "to_c",
    "expression_strings", "cache_info", "clear_cache", "kinematic_key", "link_matrix_sym",
    "first_joints",
]

_CACHE: OrderedDict = OrderedDict()
_CACHE_MAX = 16
_LOCK = threading.Lock()
_STATS = {"hits": 0, "misses": 0}


@dataclass(frozen=True, eq=False)
class SymbolicKinematics:
    """Symbolic kinematics of one robot description (sympy objects; treat as read-only).

    ``q`` joint symbols q1..qn; ``A`` link matrices; ``frames`` T_0 (base) .. T_n, the last
    with the tool; ``T`` the end-effector pose; ``J`` the 6 x n base-frame Jacobian;
    ``seconds`` the derivation time.
    """

    key: tuple  # kinematic_key(robot)
    n: int
    q: tuple
    A: tuple
    frames: tuple
    T: object
    J: object
    revolute: tuple
    seconds: float
    _funcs: dict = field(default_factory=dict, repr=False)

    def jacobian(self, include_orientation: bool = True):
        """J (6 x n) or its position rows (3 x n)."""
        return self.J if include_orientation else self.J[:3, :]

    def joint_locations(self) -> list:
        """Origins of frames 0..n as 3x1 sympy matrices (JFKengine's getJointLocations)."""
        return [F[:3, 3] for F in self.frames]

    def evaluate(self, q, include_orientation: bool = True):
        """Numbers: (T (4, 4), J (6|3, n)) for q (n,), or stacks with a leading m for (m, n)."""
        q2, single = as_joint_array(q, self.n, "q")
        f = self._funcs.get("py")
        if f is None:
            src = _python_source(self, "kinematics", True)
            ns: dict = {}
            exec(compile(src, f"<symbolic kinematics {self.n} dof>", "exec"), ns)  # noqa: S102
            f = self._funcs.setdefault("py", ns["kinematics"])
        T, J = f(q2)
        if not include_orientation:
            J = J[:, :3]
        return (T[0], J[0]) if single else (T, J)


# -- derivation ----------------------------------------------------------------------------
def _num(x: float):
    """A sympy number for a D-H constant: exact 0, +-1 and integers, else a Float."""
    import sympy

    x = float(x)
    if abs(x) < 1e-15:
        return sympy.Integer(0)
    if abs(x - round(x)) < 1e-15 and abs(x) < 1e6:
        return sympy.Integer(int(round(x)))
    return sympy.Float(x)


def cos_sin(angle: float):
    # numeric twist: exact values for multiples of pi/2 keep expressions short
    return _num(math.cos(angle)), _num(math.sin(angle))


def _matrix(T: np.ndarray):
    import sympy

    return sympy.Matrix(4, 4, [_num(v) for v in np.asarray(T, dtype=float).ravel()])


def _simp(expr):
    """Expand, then fold products of sines/cosines into sines/cosines of sums."""
    import sympy
    from sympy.simplify.fu import TR10i

    e = sympy.expand(expr)
    if e.has(sympy.sin, sympy.cos):
        e = TR10i(e)
    return e


def _general_sym(L, qi):
    """pre @ Rz/Tz(q + offset) @ post of a general joint (constants as numbers)."""
    import sympy

    from ..model.joint_model import joint_models

    jm = joint_models([L])
    v = qi + _num(L.offset)
    if L.joint == "R":
        c, s = sympy.cos(v), sympy.sin(v)
        M = sympy.Matrix([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    else:
        M = sympy.Matrix([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, v], [0, 0, 0, 1]])
    return (_matrix(_snap(jm.pre[0])) * M * _matrix(_snap(jm.post[0]))).applyfunc(_simp)


def _snap(T: np.ndarray) -> np.ndarray:
    """Round-off zeros (1e-17 from cos(pi/2)) to exact zeros: shorter expressions."""
    T = np.array(T, dtype=float)
    T[np.abs(T) < 1e-15] = 0.0
    return T


def _link_sym(L, qi):
    import sympy

    if getattr(L, "flip", False):  # reversed axis: the D-H value is -q + offset
        qi = -qi
    if L.is_general:
        return _general_sym(L, qi)
    off = _num(L.offset)
    if L.joint == "R":
        th, d = qi + off, _num(L.d)
        ct, st = sympy.cos(th), sympy.sin(th)
    else:
        th, d = None, qi + off
        ct, st = cos_sin(L.theta)
    ca, sa = cos_sin(L.alpha)
    a = _num(L.a)
    if L.mdh:  # Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta) Tz(d)
        rows = [[ct, -st, 0, a], [st * ca, ct * ca, -sa, -sa * d],
                [st * sa, ct * sa, ca, ca * d], [0, 0, 0, 1]]
    else:  # Rz(theta) Tz(d) Tx(a) Rx(alpha)
        rows = [[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                [0, sa, ca, d], [0, 0, 0, 1]]
    return sympy.Matrix(rows)


def _derive(robot) -> SymbolicKinematics:
    import sympy

    t0 = time.perf_counter()
    n = robot.n
    q = sympy.symbols(f"q1:{n + 1}", real=True)
    # mimic joints: every chain link in Q = E q + c (the follower's value substituted)
    chain, cp = getattr(robot, "chain", robot.links), getattr(robot, "coupling", None)
    qc = list(q) if cp is None else [
        sum((_num(e) * q[j] for j, e in enumerate(row) if e), _num(c))
        for row, c in zip(cp.E, cp.c, strict=True)]
    A = tuple(_link_sym(L, qc[i]) for i, L in enumerate(chain))
    frames = [_matrix(robot.base)]
    for i in range(len(chain)):
        frames.append((frames[-1] * A[i]).applyfunc(_simp))
    if not robot.tool_is_identity:
        frames[-1] = (frames[-1] * _matrix(robot.tool)).applyfunc(_simp)
    T = frames[-1]
    p = T[:3, 3]
    # T is already folded, so its derivatives only need expanding (TR10i finds nothing)
    lin = [[sympy.expand(sympy.diff(p[r], q[i])) for r in range(3)] for i in range(n)]
    axes = []
    nc = len(chain)
    for i, L in enumerate(chain):
        if L.joint == "R":
            # the axis of joint i: z_{i-1} (standard D-H) or z_i (modified D-H), base frame;
            # frames[i + 1] of the last link carries the tool, whose z is not the axis
            F = frames[i + 1] if L.mdh else frames[i]
            if L.mdh and i == nc - 1 and not robot.tool_is_identity:
                F = (frames[i] * A[i]).applyfunc(_simp)
            if L.is_general:  # the axis is z of frame i-1 times the joint's pre
                from ..model.joint_model import joint_models

                F = (frames[i] * _matrix(_snap(joint_models([L]).pre[0]))).applyfunc(_simp)
            sgn = -1 if getattr(L, "flip", False) else 1  # a flipped axis turns the other way
            ang = [sgn * F[r, 2] for r in range(3)]
        else:
            ang = [sympy.Integer(0)] * 3
        axes.append(ang)
    if cp is None:
        cols = [lin[i] + axes[i] for i in range(n)]
    else:  # a leader's angular column gathers its followers' axes times their multipliers
        cols = [lin[j] + [sympy.expand(sum(_num(cp.E[k, j]) * axes[k][r]
                                           for k in np.flatnonzero(cp.E[:, j])))
                          for r in range(3)] for j in range(n)]
    J = sympy.Matrix(6, n, lambda r, c: cols[c][r])
    return SymbolicKinematics(
        key=kinematic_key(robot), n=n, q=tuple(q), A=A, frames=tuple(frames), T=T, J=J,
        revolute=tuple(L.joint == "R" for L in robot.links),
        seconds=time.perf_counter() - t0,
    )


def kinematic_key(robot) -> tuple:
    """What the symbolic T and J depend on: per link the joint type, D-H parameters,
    offset and convention, then the base and tool transforms (hashable)."""
    links = tuple((L.joint, float(L.theta), float(L.d), float(L.a), float(L.alpha),
                   float(L.offset), bool(L.mdh), bool(getattr(L, "flip", False)))
                  + (() if L.origin is None else (L._key()[-3:],))
                  for L in getattr(robot, "chain", robot.links))
    cp = getattr(robot, "coupling", None)
    return (links, tuple(np.asarray(robot.base, dtype=float).ravel()),
            tuple(np.asarray(robot.tool, dtype=float).ravel())) + (() if cp is None
                                                                    else (cp.key,))


def symbolic_kinematics(robot) -> SymbolicKinematics:
    """Symbolic A_i, T and J of ``robot``, cached by :func:`kinematic_key` (see
    :func:`cache_info`)."""
    key = kinematic_key(robot)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            _STATS["hits"] += 1
            return hit
        _STATS["misses"] += 1
    sk = _derive(robot)
    with _LOCK:
        _CACHE[key] = sk
        while len(_CACHE) > _CACHE_MAX:
            _CACHE.popitem(last=False)
    return sk


def cache_info() -> dict:
    """``{"hits", "misses", "size", "maxsize"}`` of the derivation cache (misses = derivations)."""
    with _LOCK:
        return {"hits": _STATS["hits"], "misses": _STATS["misses"], "size": len(_CACHE),
                "maxsize": _CACHE_MAX}


def clear_cache() -> None:
    """Forget every derivation and reset the counters."""
    with _LOCK:
        _CACHE.clear()
        _STATS.update(hits=0, misses=0)


def first_joints(robot, n: int | None = None):
    """The robot to derive for JFKengine's "first n joints": ``robot`` itself for None or
    all joints (tool included), else the chain of the first n links without the tool
    (``robot.upto(n)``, whose end frame is link frame n)."""
    if n is None or (isinstance(n, (int, np.integer)) and not isinstance(n, bool)
                     and n == robot.n):
        return robot
    return robot.upto(n)


def fkine_sym(robot, n: int | None = None):
    """End-effector pose T(q) as a 4x4 sympy Matrix (base and tool included).

    ``n`` (JFKengine ``getForwardKinematics(manip, n)``): the pose of link frame n using
    the first n joints only (no tool), in q1..qn.
    """
    return symbolic_kinematics(first_joints(robot, n)).T


def jacobian_sym(robot, include_orientation: bool = True, n: int | None = None):
    """Base-frame Jacobian: 6 x n sympy Matrix (3 x n with ``include_orientation=False``).

    ``n`` (JFKengine ``getJacobian(manip, n)``): the Jacobian of link frame n's origin with
    respect to the first n joints (6 x n).
    """
    return symbolic_kinematics(first_joints(robot, n)).jacobian(include_orientation)


def link_matrices_sym(robot, n: int | None = None) -> tuple:
    """The link matrices A_i(q_i) (JFKengine eq. 2; standard or modified D-H); the first
    ``n`` with ``n`` given."""
    return symbolic_kinematics(first_joints(robot, n)).A


def joint_locations_sym(robot, n: int | None = None) -> list:
    """Origins of frames 0..n (base .. end effector) as 3x1 sympy matrices."""
    return symbolic_kinematics(first_joints(robot, n)).joint_locations()


def evaluate(robot_or_sk, q, include_orientation: bool = True, n: int | None = None):
    """Evaluate the symbolic T and J: q (n,) -> (T (4, 4), J (6|3, n)); (m, n) -> stacks.

    ``n``: the first n joints (q then has n values)."""
    sk = robot_or_sk if isinstance(robot_or_sk, SymbolicKinematics) else \
        symbolic_kinematics(first_joints(robot_or_sk, n))
    return sk.evaluate(q, include_orientation)


# -- export ------------------------------------------------------------------------------
def _entries(sk: SymbolicKinematics, include_orientation: bool):
    J = sk.jacobian(include_orientation)
    return list(sk.T[:3, :]), list(J), J.shape[0]


def _cse(exprs):
    import sympy

    return sympy.cse(exprs, symbols=sympy.numbered_symbols("x"), optimizations="basic")


def _python_source(sk: SymbolicKinematics, func_name: str, include_orientation: bool) -> str:
    from sympy.printing.numpy import NumPyPrinter

    Texprs, Jexprs, rows = _entries(sk, include_orientation)
    subs, reduced = _cse(Texprs + Jexprs)
    pr = NumPyPrinter({"fully_qualified_modules": False, "inline": True})
    n = sk.n
    out = [
        '"""Forward kinematics and Jacobian generated by robogui.engine.kinematics.symbolic."""',
        "import numpy",
        "from numpy import cos, sin",
        "",
        "",
        f"def {func_name}(q):",
        f'    """T (..., 4, 4) and J (..., {rows}, {n}) for joint values q (..., {n})."""',
        "    q = numpy.asarray(q, dtype=float)",
        "    shape = q.shape[:-1]",
    ]
    out += [f"    q{i + 1} = q[..., {i}]" for i in range(n)]
    out += [f"    {s} = {pr.doprint(e)}" for s, e in subs]
    out += ["    T = numpy.zeros(shape + (4, 4))", "    T[..., 3, 3] = 1.0",
            f"    J = numpy.zeros(shape + ({rows}, {n}))"]
    for k, e in enumerate(reduced[:12]):
        if e != 0:
            out.append(f"    T[..., {k // 4}, {k % 4}] = {pr.doprint(e)}")
    for k, e in enumerate(reduced[12:]):
        if e != 0:
            out.append(f"    J[..., {k // n}, {k % n}] = {pr.doprint(e)}")
    out.append("    return T, J")
    return "\n".join(out) + "\n"


def to_python(robot, func_name: str = "kinematics", include_orientation: bool = True,
              n: int | None = None) -> str:
    """Python/numpy source of ``def func_name(q): return T, J`` (q (n,) or (m, n)).

    Common sub-expressions are shared (sympy ``cse``); the module needs only numpy.
    """
    return _python_source(symbolic_kinematics(first_joints(robot, n)), func_name,
                          include_orientation)


def to_c(robot, func_name: str = "robot_kinematics", include_orientation: bool = True,
         n: int | None = None) -> str:
    """C99 source of ``void func_name(const double *q, double *T, double *J)``.

    ``q`` has n values (rad or m); ``T`` receives 16 doubles and ``J`` rows*n doubles,
    both row-major (rows = 6, or 3 position-only). Needs only ``<math.h>`` (link with -lm).
    """
    import sympy

    sk = symbolic_kinematics(first_joints(robot, n))
    Texprs, Jexprs, rows = _entries(sk, include_orientation)
    subs, reduced = _cse(Texprs + Jexprs)
    n = sk.n
    c = lambda e: sympy.ccode(sympy.sympify(e), standard="C99")
    out = [
        "/* Forward kinematics and Jacobian generated by robogui.engine.kinematics.symbolic. */",
        "#include <math.h>",
        "",
        f"/* T: 4x4 row-major; J: {rows}x{n} row-major (base frame, rows vx vy vz"
        + (" wx wy wz" if rows == 6 else "") + "). */",
        f"void {func_name}(const double *q, double *T, double *J)",
        "{",
    ]
    out += [f"    const double q{i + 1} = q[{i}];" for i in range(n)]
    out += [f"    const double {s} = {c(e)};" for s, e in subs]
    for k, e in enumerate(reduced[:12]):
        out.append(f"    T[{k}] = {c(e)};")
    out += ["    T[12] = 0.0;", "    T[13] = 0.0;", "    T[14] = 0.0;", "    T[15] = 1.0;"]
    for k, e in enumerate(reduced[12:]):
        out.append(f"    J[{k}] = {c(e)};")
    out.append("}")
    return "\n".join(out) + "\n"


def expression_strings(robot, include_orientation: bool = True, n: int | None = None) -> dict:
    """Readable T and J entries for display, with named sub-expressions.

    Returns ``{"q": ["q1", ...], "names": [(name, text), ...], "T": 4x4 list of str,
    "J": rows x n list of str, "A": per link a 4x4 list of str, "locations": per frame
    0..n the origin's x, y, z as str, "seconds": derivation time}``. Sines and cosines of
    joint angles are named like textbooks (``s1 = sin(q1)``, ``c23 = cos(q2 + q3)``);
    longer repeated pieces of T and J become ``t1, t2, ...`` (sympy ``cse``); A and the
    locations use the sine and cosine names only. Numbers are printed short. ``n``: the
    first n joints only (see :func:`first_joints`).
    """
    import sympy

    sk = symbolic_kinematics(first_joints(robot, n))
    J = sk.jacobian(include_orientation)
    exprs = list(sk.T) + list(J)
    extra = [e for A in sk.A for e in A] + [e for p in sk.joint_locations() for e in p]
    # textbook names for sin/cos of joint angles and their sums
    trig = sorted({f for e in exprs + extra for f in e.atoms(sympy.sin, sympy.cos)},
                  key=sympy.default_sort_key)
    names, repl = [], {}
    index = {s: i + 1 for i, s in enumerate(sk.q)}
    for f in trig:
        arg = f.args[0]
        terms = sympy.Add.make_args(arg)
        if all(t in index for t in terms):
            tag = "".join(str(index[t]) for t in sorted(terms, key=lambda t: index[t]))
            if len(terms) > 1 and any(index[t] > 9 for t in terms):
                tag = "_".join(str(index[t]) for t in sorted(terms, key=lambda t: index[t]))
        else:
            tag = f"_{len(repl) + 1}"
        sym = sympy.Symbol(("s" if f.func == sympy.sin else "c") + tag)
        repl[f] = sym
        names.append((str(sym), sympy.sstr(f, full_prec=False)))
    short = [e.xreplace(repl) for e in exprs]
    subs, reduced = sympy.cse(short, symbols=sympy.numbered_symbols("t", start=1),
                              optimizations="basic")
    text = lambda e: sympy.sstr(e, full_prec=False)
    names += [(str(s), text(e)) for s, e in subs]
    rows = J.shape[0]
    Ts = [text(e) for e in reduced[:16]]
    Js = [text(e) for e in reduced[16:]]
    named = lambda e: text(e.xreplace(repl))  # noqa: E731
    return {
        "q": [str(s) for s in sk.q],
        "names": names,
        "T": [Ts[4 * r: 4 * r + 4] for r in range(4)],
        "J": [Js[sk.n * r: sk.n * r + sk.n] for r in range(rows)],
        "A": [[[named(A[r, c]) for c in range(4)] for r in range(4)] for A in sk.A],
        "locations": [[named(e) for e in p] for p in sk.joint_locations()],
        "seconds": sk.seconds,
    }


def link_matrix_sym(robot, j: int):
    """The symbolic link matrix A_{j+1}(q_{j+1}) of link ``j`` (0-based) alone, a 4x4
    sympy Matrix in the symbol ``q{j+1}`` (JFKengine eq. 2), without deriving the
    whole chain (the chain panel shows one link at a time)."""
    import sympy

    if not 0 <= int(j) < robot.n:
        raise ValueError(f"j must be a link index in 0..{robot.n - 1}, got {j!r}")
    return _link_sym(robot.links[int(j)], sympy.Symbol(f"q{int(j) + 1}", real=True))
