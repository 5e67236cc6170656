"""A read-only table of symbolic expressions, wrapped at the column width like a textbook.

Used by the symbolic kinematics dialog for T, J and the named sub-expressions.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from .. import style
from .symbolic_text import wrap_expression

__all__ = ["ExpressionTable", "RAW_ROLE"]

#: item data role holding an entry's text exactly as the engine printed it
RAW_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1
_DIM = "#7d8590"  # constants 0 and +-1: present, but not what the eye should look at


class ExpressionTable(QtWidgets.QTableWidget):
    """A read-only table of expressions, wrapped at the column width like a textbook.

    The font is monospace, so the characters per line follow from the column width;
    :func:`wrap_expression` breaks each entry before its ``+``/``-`` operators and cuts it
    after ``max_lines`` lines (the tooltip and the detail pane have it in full).
    ``fill_height`` spreads spare height over the rows, so a small matrix fills the view.
    """

    def __init__(self, rows: int, cols: int, head: list, vhead: list, *, max_lines: int,
                 fill_height: bool, wrap_columns: tuple | None = None, parent=None):
        super().__init__(rows, cols, parent)
        self.max_lines, self.fill_height, self.wrap_columns = max_lines, fill_height, wrap_columns
        self.setFont(style.monospace_font())
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(False)  # the line breaks are ours
        self.setAlternatingRowColors(True)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QtWidgets.QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalHeaderLabels(head)
        if vhead:
            self.setVerticalHeaderLabels(vhead)
        self.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.verticalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Fixed)
        self._relayout_timer = QtCore.QTimer(self)
        self._relayout_timer.setSingleShot(True)
        self._relayout_timer.setInterval(0)
        self._relayout_timer.timeout.connect(self.relayout)

    def set_entry(self, r: int, c: int, text: str, tooltip: str = "",
                  color: str | None = None) -> QtWidgets.QTableWidgetItem:
        """Put expression ``text`` in cell (r, c); 0 and +-1 are shown dimmed and centred."""
        item = QtWidgets.QTableWidgetItem(text)
        item.setData(RAW_ROLE, text)
        if tooltip:
            item.setToolTip(tooltip)
        if text in ("0", "1", "-1"):
            color = color or _DIM
            item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        if color:
            item.setForeground(QtGui.QBrush(QtGui.QColor(color)))
        self.setItem(r, c, item)
        return item

    def raw(self, r: int, c: int) -> str | None:
        """The entry's text as the engine printed it (the cell shows it wrapped)."""
        item = self.item(r, c)
        return None if item is None else item.data(RAW_ROLE)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._relayout_timer.start()  # after the header has stretched the columns

    def relayout(self) -> None:
        """Wrap every entry at its column's width and size the rows to fit."""
        fm = QtGui.QFontMetrics(self.font())
        char, line = max(fm.horizontalAdvance("0"), 1), fm.lineSpacing()
        rows, cols = self.rowCount(), self.columnCount()
        lines = [1] * rows
        growable = [False] * rows
        for c in range(cols):
            wrap = self.wrap_columns is None or c in self.wrap_columns
            chars = max((self.columnWidth(c) - 16) // char, 6)
            for r in range(rows):
                item = self.item(r, c)
                raw = None if item is None else item.data(RAW_ROLE)
                if raw is None:
                    continue
                text = wrap_expression(raw, chars, self.max_lines) if wrap else raw
                if item.text() != text:
                    item.setText(text)
                lines[r] = max(lines[r], text.count("\n") + 1)
                growable[r] = growable[r] or raw not in ("0", "1", "-1")
        heights = [k * line + 10 for k in lines]
        spare = self.viewport().height() - sum(heights)
        grow = [r for r in range(rows) if growable[r]]
        if self.fill_height and spare > 0 and grow:
            for r in grow:
                heights[r] += spare // len(grow)
        for r, h in enumerate(heights):
            if self.rowHeight(r) != h:
                self.setRowHeight(r, h)
