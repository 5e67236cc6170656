"""The symbolic dialog's JFKengine extras: the link matrices A(i) and the joint locations
(frame origins o0..on) as expression tables, filled from a :class:`SymbolicView`."""

from __future__ import annotations

from .expression_table import ExpressionTable

__all__ = ["LinkTables"]

MAX_LINES = 4


class LinkTables:
    """Two tables: ``a_table`` (4 rows per link, columns n o a p) and ``loc_table`` (one
    row per frame 0..n, columns x y z)."""

    def __init__(self):
        self.a_table = ExpressionTable(0, 4, ["n", "o", "a", "p"], [], max_lines=MAX_LINES,
                                       fill_height=False)
        self.a_table.setToolTip("A(i): the transform of link i, frame i seen from frame i-1 "
                                "(JFKengine eq. 2)")
        self.loc_table = ExpressionTable(0, 3, ["x", "y", "z"], [], max_lines=MAX_LINES,
                                         fill_height=False)
        self.loc_table.setToolTip("joint locations: the origin of each frame in base "
                                  "coordinates (JFKengine getJointLocations)")

    def fill(self, view) -> None:
        a = self.a_table
        a.clearContents()
        a.setRowCount(4 * len(view.A))
        labels = []
        for i, A in enumerate(view.A):
            labels += [f"A{i + 1} x", f"A{i + 1} y", f"A{i + 1} z", f"A{i + 1}"]
            for r in range(4):
                for c in range(4):
                    a.set_entry(4 * i + r, c, A[r][c], f"A{i + 1}[{r + 1},{c + 1}] = {A[r][c]}")
        a.setVerticalHeaderLabels(labels)
        a.relayout()
        t = self.loc_table
        t.clearContents()
        t.setRowCount(len(view.locations))
        for k, p in enumerate(view.locations):
            for c, text in enumerate(p):
                t.set_entry(k, c, text, f"o{k}.{'xyz'[c]} = {text}")
        t.setVerticalHeaderLabels([f"o{k}" for k in range(len(view.locations))])
        t.relayout()
