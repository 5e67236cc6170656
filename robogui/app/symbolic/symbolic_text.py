"""What the symbolic kinematics dialog shows, as strings (Qt-free, so a worker can build it).

:func:`derive_view` turns :func:`robogui.engine.kinematics.symbolic.expression_strings` into a
:class:`SymbolicView`: the named sub-expressions, the T and J entries, and for each entry
and name its full expansion (every shared piece ``t1, t2, ...`` substituted; sines and
cosines stay named, as textbooks print T). :func:`view_to_text` and :func:`view_to_latex`
are the dialog's text exports; :func:`wrap_expression` lays an entry out in a table cell.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

import numpy as np

__all__ = ["SymbolicView", "derive_view", "view_to_text", "view_to_latex", "wrap_expression",
           "code_name"]

LATEX_LINE = 90  # characters of an expression per LaTeX line (before typesetting)


@dataclass(frozen=True, eq=False)
class SymbolicView:
    """Everything the dialog shows for one robot description (strings only).

    ``names`` ordered ``(name, text)`` (sines/cosines first, then t1, t2, ...); ``T``
    4 x 4 and ``J`` rows x n entry texts; ``T_full``/``J_full`` the same entries and
    ``expanded[name]`` each name with every ``t`` name substituted (sines and cosines
    stay named); ``uses``/``entry_uses`` the names a name / an entry text uses directly;
    ``seconds`` the symbolic derivation time (from the cache when the robot
    was derived before), ``wall`` this view's wall-clock time.
    """

    key: tuple
    robot_name: str
    n: int
    mdh: bool
    has_base: bool
    has_tool: bool
    include_orientation: bool
    q: list
    names: list
    T: list
    J: list
    T_full: list
    J_full: list
    expanded: dict
    seconds: float
    wall: float
    uses: dict = field(default_factory=dict)
    entry_uses: dict = field(default_factory=dict)
    # JFKengine's link matrices A(i) (per link 4 x 4 texts) and joint locations (per
    # frame 0..n the origin's x, y, z); ``first_n`` the joint count asked for (None: all
    # joints and the tool)
    A: list = field(default_factory=list)
    locations: list = field(default_factory=list)
    first_n: int | None = None
    convention: str = ""  # "standard D-H", "general joints", ... (Robot.convention)

    @property
    def convention_text(self) -> str:
        return self.convention or ("modified D-H" if self.mdh else "standard D-H")

    @property
    def definitions(self) -> dict:
        return dict(self.names)


def _parse_names(names, qnames):
    """sympy expressions of the name definitions, parsed with every name a plain Symbol."""
    import sympy
    from sympy.parsing.sympy_parser import parse_expr

    local = {q: sympy.Symbol(q) for q in qnames}
    local.update({name: sympy.Symbol(name) for name, _ in names})
    local.update({"sin": sympy.sin, "cos": sympy.cos})
    parse = lambda text: parse_expr(text, local_dict=local)
    return local, parse


def derive_view(robot, include_orientation: bool = True,
                joints: int | None = None) -> SymbolicView:
    """Derive (or fetch from the cache) and format ``robot``'s T and J for the dialog.

    ``joints``: JFKengine's first-n-joints (T and J of link frame n; None: all joints and
    the tool). Runs without Qt, so the dialog's worker thread can call it.
    """
    import sympy

    from robogui.engine.kinematics.symbolic import expression_strings, first_joints

    t0 = time.perf_counter()
    whole = robot
    robot = first_joints(whole, joints)
    e = expression_strings(robot, include_orientation)
    local, parse = _parse_names(e["names"], e["q"])
    # expand the cse names t1, t2, ... in order (each only uses earlier names); the
    # sines and cosines stay named, which is how textbooks print T
    subs, expanded, uses = {}, {}, {}
    for name, text in e["names"]:
        expr = parse(text)
        uses[name] = sorted((str(s) for s in expr.free_symbols if str(s) in local
                             and str(s) not in e["q"]), key=_name_order)
        if isinstance(expr, (sympy.sin, sympy.cos)):
            expanded[name] = text
            continue
        full = expr.xreplace(subs)
        subs[local[name]] = full
        expanded[name] = sympy.sstr(full, full_prec=False)

    def full_text(text: str) -> str:
        expr = parse(text)
        return text if not expr.free_symbols & subs.keys() else \
            sympy.sstr(expr.xreplace(subs), full_prec=False)

    entry_uses = {}
    for grid in (e["T"], e["J"]):
        for row in grid:
            for text in row:
                entry_uses[text] = sorted((str(s) for s in parse(text).free_symbols
                                     if str(s) in local and str(s) not in e["q"]),
                                    key=_name_order)
    return SymbolicView(
        key=whole.key, robot_name=whole.name if robot is whole else
        f"{whole.name}, first {robot.n} of {whole.n} joints", n=robot.n, mdh=robot.is_mdh,
        convention=robot.convention,
        has_base=not np.array_equal(robot.base, np.eye(4)), has_tool=not robot.tool_is_identity,
        include_orientation=include_orientation, q=list(e["q"]), names=list(e["names"]),
        T=e["T"], J=e["J"], T_full=[[full_text(s) for s in row] for row in e["T"]],
        J_full=[[full_text(s) for s in row] for row in e["J"]], expanded=expanded,
        seconds=float(e["seconds"]), wall=time.perf_counter() - t0, uses=uses,
        entry_uses=entry_uses, A=e["A"], locations=e["locations"],
        first_n=None if robot is whole else robot.n)


def _name_order(name: str):
    # s.., c.. before t..; then by number, so t2 comes before t10
    m = re.match(r"([a-z]+)_?(\d*)", name)
    kind = {"s": 0, "c": 1, "t": 2}.get(m.group(1) if m else name, 3)
    return (kind, int(m.group(2)) if m and m.group(2) else 0, name)


def code_name(robot_name: str) -> str:
    """A C/Python identifier from a robot name: ``"Puma 560"`` -> ``"puma_560"``."""
    slug = re.sub(r"\W+", "_", robot_name).strip("_").lower() or "robot"
    return slug if not slug[0].isdigit() else "robot_" + slug


def _header_lines(view: SymbolicView) -> list[str]:
    chain = "base * " if view.has_base else ""
    chain += " * ".join(f"A{i + 1}({q})" for i, q in enumerate(view.q))
    chain += " * tool" if view.has_tool else ""
    return [f"Symbolic kinematics of {view.robot_name} ({view.n} axes, "
            f"{view.convention_text}), written by robogui",
            f"T = {chain}",
            "J: base-frame Jacobian, rows vx vy vz" + (" wx wy wz" if view.include_orientation
                                                       else " (position only)")
            + f", columns {' '.join(view.q)}",
            "Joint angles in rad, lengths in m."]


def view_to_text(view: SymbolicView) -> str:
    """Plain text: the names, then T and J entry by entry."""
    out = ["# " + line for line in _header_lines(view)] + ["", "# named sub-expressions"]
    out += [f"{name} = {text}" for name, text in view.names]
    out += ["", "# T (4 x 4), row by row"]
    out += [f"T[{r + 1},{c + 1}] = {view.T[r][c]}" for r in range(4) for c in range(4)]
    out += ["", f"# J ({len(view.J)} x {view.n})"]
    out += [f"J[{r + 1},{c + 1}] = {view.J[r][c]}" for r in range(len(view.J))
            for c in range(view.n)]
    for i, A in enumerate(view.A):
        out += ["", f"# A{i + 1}({view.q[i]}) (link {i + 1})"]
        out += [f"A{i + 1}[{r + 1},{c + 1}] = {A[r][c]}" for r in range(4) for c in range(4)]
    if view.locations:
        out += ["", "# joint locations: origins of frames 0..n (x, y, z)"]
        out += [f"o{k} = [{', '.join(p)}]" for k, p in enumerate(view.locations)]
    return "\n".join(out) + "\n"


def view_to_latex(view: SymbolicView) -> str:
    """A LaTeX document (amsmath): the names as equations, then T and J.

    Short entries are typeset as matrices; a matrix with long entries is listed entry by
    entry instead, and a long sum is broken over lines before its + and - signs, so the
    document fits a page.
    """
    import sympy

    _, parse = _parse_names(view.names, view.q)
    tex = lambda text: sympy.latex(parse(text))
    sym = lambda name: sympy.latex(sympy.Symbol(name))

    def eqn(lhs: str, text: str) -> str:
        lines: list[str] = []
        for line in wrap_expression(text, LATEX_LINE).split("\n"):
            if lines and line[:2] not in ("+ ", "- "):
                lines[-1] += line  # the rest of a product split by the wrapper
            else:
                lines.append(line)
        parts = [tex(lines[0])] + [f"{ln[0]} {tex(ln[2:])}" for ln in lines[1:]]
        return f"{lhs} &= " + " \\\\\n    &\\quad ".join(parts)

    def matrix(letter: str, grid: list) -> list[str]:
        cells = [[tex(s) for s in row] for row in grid]
        if max(len(s) for row in grid for s in row) <= 30:
            body = " \\\\\n".join(" & ".join(row) for row in cells)
            return ["\\[", f"{letter} = \\begin{{bmatrix}}", body, "\\end{bmatrix}", "\\]"]
        lines = [eqn(f"{letter}_{{{r + 1}{c + 1}}}", grid[r][c])
                 for r in range(len(grid)) for c in range(len(grid[0]))
                 if grid[r][c] != "0"]
        return ["\\begin{align*}", " \\\\\n".join(lines), "\\end{align*}",
                f"(the other entries of ${letter}$ are 0)"]

    head = _header_lines(view)
    out = ["% " + line for line in head]
    out += ["\\documentclass{article}", "\\usepackage[margin=2cm]{geometry}",
            "\\usepackage{amsmath}", "\\allowdisplaybreaks", "\\begin{document}",
            f"\\section*{{Symbolic kinematics of {_tex_escape(view.robot_name)}}}",
            _tex_escape(head[1].replace(" * ", " ")) + ". " + _tex_escape(head[2]) + ".",
            "", "\\subsection*{Named sub-expressions}", "\\begin{align*}"]
    out.append(" \\\\\n".join(eqn(sym(name), text) for name, text in view.names))
    out += ["\\end{align*}", "", "\\subsection*{End-effector pose $T$}"]
    out += matrix("T", view.T)
    out += ["", "\\subsection*{Jacobian $J$}"]
    out += matrix("J", view.J)
    out += ["\\end{document}"]
    return "\n".join(out) + "\n"


def _tex_escape(text: str) -> str:
    return re.sub(r"([&%$#_{}])", r"\\\1", text)




def wrap_expression(text: str, width: int, max_lines: int | None = None) -> str:
    """Break ``text`` into lines of at most ``width`` characters, each new line starting
    with its ``+``/``-`` operator (as textbooks break long sums).

    A term longer than a line is split after a ``*``, else anywhere. With ``max_lines``
    the text is cut after that many lines and ends in an ellipsis.
    """
    width = max(int(width), 4)
    terms = re.split(r" (?=[+-] )", text)  # sstr puts spaces around binary + and - only
    pieces: list[str] = []
    for term in terms:
        while len(term) > width:
            cut = term.rfind("*", 0, width)
            cut = cut + 1 if cut > 0 else width
            pieces.append(term[:cut])
            term = term[cut:]
        pieces.append(term)
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + 1 + len(piece) <= width and piece[:1] in "+-" \
                and piece[1:2] == " ":
            lines[-1] += " " + piece
        elif lines and not (piece[:1] in "+-" and piece[1:2] == " ") \
                and len(lines[-1]) + len(piece) <= width:
            lines[-1] += piece  # the rest of a split product
        else:
            lines.append(piece)
    if max_lines is not None and len(lines) > max_lines:
        keep = lines[:max_lines]
        last = keep[-1]
        keep[-1] = (last[: width - 2] if len(last) > width - 2 else last) + " \u2026"
        lines = keep
    return "\n".join(lines)
