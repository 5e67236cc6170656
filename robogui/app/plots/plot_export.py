"""PNG and CSV export of a plot panel: the plotted curves as repr-exact CSV, the panel
image as PNG, both written atomically, and the File dialogs that ask where.

A mixin of :class:`robogui.app.plots.base.PlotPanel`: it uses the panel's ``plotted_data``,
``session``, ``stack``, ``error_presenter``, ``TITLE`` and ``CSV_NAME``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np
from PySide6 import QtGui, QtWidgets

from robogui.session.teach.program_file import atomic_write_text

__all__ = ["PlotExportMixin"]


class PlotExportMixin:
    """CSV / PNG export of the curves a plot panel shows (see the module docstring)."""

    def x_label(self) -> str:
        return "t (s)"

    def csv_header(self) -> list[str]:
        """Comment lines (without '#') written above the CSV columns."""
        return [f"robogui {self.CSV_NAME} export", f"robot: {self.session.robot.name}"]

    def csv_text(self) -> str:
        """The plotted curves as CSV: a shared time column, then one column per curve."""
        data = self.plotted_data()
        if not data:
            raise ValueError(f"the {self.TITLE.lower()} panel shows no curves to export")
        lines = [f"# {h}" for h in self.csv_header()]
        xs = [x for x, _ in data.values()]
        shared = all(x.shape == xs[0].shape and np.array_equal(x, xs[0]) for x in xs)
        if shared:
            cols = [xs[0]] + [y for _, y in data.values()]
            header = [self.x_label()] + list(data)
        else:  # curves over different samples: one (x, y) pair of columns each
            k = max(x.size for x in xs)
            cols, header = [], []
            for name, (x, y) in data.items():
                pad = np.full(k - x.size, np.nan)
                cols += [np.concatenate([x, pad]), np.concatenate([y, pad])]
                header += [f"{self.x_label()} [{name}]", name]
        lines.append(",".join(header))
        table = np.column_stack(cols)
        # repr-exact floats: the file holds exactly the plotted numbers
        lines += [",".join("" if np.isnan(v) else repr(float(v)) for v in row) for row in table]
        return "\n".join(lines) + "\n"

    def export_csv(self, path: str | Path) -> Path:
        """Write the plotted curves to ``path`` atomically; raises ValueError / OSError."""
        path = Path(path)
        atomic_write_text(path, self.csv_text())
        return path

    def grab_image(self) -> QtGui.QImage:
        """The plots as they are on screen (what the PNG export writes)."""
        widget = self.stack.currentWidget()
        return widget.grab().toImage()

    def export_png(self, path: str | Path) -> Path:
        """Write the panel image to ``path`` atomically; raises OSError on failure."""
        path = Path(path)
        image = self.grab_image()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".png", dir=path.parent)
        os.close(fd)
        try:
            if image.isNull() or not image.save(tmp, "PNG"):
                raise OSError(f"could not write the image {path}")
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return path

    def _export_png_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, f"Export {self.TITLE}", f"{self.CSV_NAME}.png", "PNG image (*.png)")
        if path:
            try:
                self.export_png(path)
            except OSError as exc:
                self.error_presenter("Cannot export image", str(exc))

    def _export_csv_dialog(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, f"Export {self.TITLE} data", f"{self.CSV_NAME}.csv", "CSV file (*.csv)")
        if path:
            try:
                self.export_csv(path)
            except (OSError, ValueError) as exc:
                self.error_presenter("Cannot export data", str(exc))
