"""Stepping through the forward-kinematics chain, one link at a time, Qt-free.

Step i (1..n) shows the link transform A(i) at the current joint value, numerically
(the engine's :meth:`Link.A <robogui.engine.model.link.Link.A>`) and symbolically (the
JFKengine matrix of :func:`robogui.engine.kinematics.symbolic.link_matrix_sym`), and the running
product ``T(0,i) = base A(1) ... A(i)``, whose frame the 3D view draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from robogui.engine.checks import as_vector

__all__ = ["ChainStep", "chain_step", "matrix_text", "symbolic_rows"]


@dataclass(frozen=True)
class ChainStep:
    """Step ``i`` (1-based) at ``q``: ``A`` (4, 4) link transform A(i)(q_i), ``T`` (4, 4)
    running product T(0,i) (base included, tool not), ``symbolic`` 4x4 strings of A(i)
    in ``q{i}``, ``joint`` "R"|"P", ``q_value`` the joint value (rad or m)."""

    i: int
    A: np.ndarray
    T: np.ndarray
    symbolic: list[list[str]]
    joint: str
    q_value: float


def symbolic_rows(robot, i: int) -> list[list[str]]:
    """A(i) of ``robot`` as a 4x4 list of strings in ``q{i}`` (sympy's short form);
    cached per robot description and link (the panel refreshes on every joint move)."""
    return [list(row) for row in _symbolic_rows(robot, int(i))]


@lru_cache(maxsize=64)
def _symbolic_rows(robot, i: int) -> tuple[tuple[str, ...], ...]:
    import sympy

    from robogui.engine.kinematics.symbolic import link_matrix_sym

    A = link_matrix_sym(robot, i - 1)
    return tuple(tuple(sympy.sstr(A[r, c], full_prec=False) for c in range(4))
                 for r in range(4))


def chain_step(robot, q, i: int) -> ChainStep:
    """Step ``i`` in 1..n of the chain at ``q`` (n,); with mimic joints the steps go
    through every body, 1..n_bodies."""
    if getattr(robot, "coupling", None) is not None:
        q, robot = robot.coupling.expand(q, robot.n, "q", rate=False), robot.full
    q = as_vector(q, robot.n, "q")
    if not 1 <= int(i) <= robot.n:
        raise ValueError(f"i must be in 1..{robot.n}, got {i!r}")
    i = int(i)
    L = robot.links[i - 1]
    A = L.A(float(q[i - 1]))
    if getattr(L, "is_general", False):
        sym = [["(general joint: origin, then motion about the axis)", "", "", ""]] + [
            [""] * 4 for _ in range(3)]
    else:
        sym = symbolic_rows(robot, i)
    T = np.asarray(robot.base, float).copy()
    for k in range(i):  # a loop over at most n links, not over samples
        T = T @ robot.links[k].A(float(q[k]))
    return ChainStep(i, A, T, sym, L.joint, float(q[i - 1]))


def matrix_text(M: np.ndarray, digits: int = 4) -> list[list[str]]:
    """A 4x4 matrix as strings with ``digits`` decimals (no "-0")."""
    return [[f"{float(v) + 0.0:.{digits}f}" for v in row] for row in np.asarray(M)]
