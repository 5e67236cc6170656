"""Presentation mode: one switch for a projector, remembered in QSettings.

On: UI fonts x1.6 (the application font and every font a widget set for itself), a
high-contrast palette (black, white, yellow selection), thicker lines and larger labels
and axes in the 3D view (D-H frames, singularity arrows, the view's own labels). Off
puts everything back as it was. :func:`clipped_widgets` lists visible labels and buttons
whose text does not fit (the test walks the window with it at 1280x720).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["Presentation", "FONT_SCALE", "clipped_widgets", "SETTINGS_KEY"]

FONT_SCALE = 1.6
SETTINGS_KEY = "teaching/presentation"

_HIGH_CONTRAST = """
QWidget { color: #ffffff; }
QDockWidget::title { background: #000000; color: #ffff00; padding: 4px 6px; }
QTableView { gridline-color: #808080; }
QPushButton, QToolButton { border: 2px solid #ffffff; padding: 3px 8px; }
"""


def _palette() -> QtGui.QPalette:
    p = QtGui.QPalette()
    C = QtGui.QColor
    role = QtGui.QPalette.ColorRole
    for r, c in ((role.Window, "#000000"), (role.WindowText, "#ffffff"),
                 (role.Base, "#000000"), (role.AlternateBase, "#1a1a1a"),
                 (role.Text, "#ffffff"), (role.Button, "#111111"),
                 (role.ButtonText, "#ffffff"), (role.Highlight, "#ffff00"),
                 (role.HighlightedText, "#000000"), (role.ToolTipBase, "#000000"),
                 (role.ToolTipText, "#ffffff"), (role.Link, "#00ffff")):
        p.setColor(r, C(c))
    return p


def clipped_widgets(root: QtWidgets.QWidget) -> list[tuple[QtWidgets.QWidget, str]]:
    """Visible labels and buttons under ``root`` whose text is cut: (widget, reason).

    A single-line plain-text label is clipped when its text is wider than its contents
    (``fontMetrics().horizontalAdvance``); a button when its size is below its size hint.
    Rich-text and word-wrapped labels reflow and are checked by height only.
    """
    out = []
    for w in root.findChildren(QtWidgets.QWidget):
        if not w.isVisibleTo(root) or not w.isVisible() or w.width() <= 0:
            continue
        if isinstance(w, QtWidgets.QLabel) and w.text():
            rect = w.contentsRect()
            if w.wordWrap() or w.textFormat() == QtCore.Qt.TextFormat.RichText or (
                    w.textFormat() == QtCore.Qt.TextFormat.AutoText
                    and QtGui.Qt.mightBeRichText(w.text())):
                need = w.heightForWidth(w.width())  # the label's own margins included
                if need > w.height() + 2:
                    out.append((w, f"label {w.text()[:40]!r} needs {need} px, has {w.height()}"))
                continue
            width = max(w.fontMetrics().horizontalAdvance(line) for line in w.text().split("\n"))
            if width > rect.width() + 1:
                out.append((w, f"label {w.text()!r} needs {width} px, has {rect.width()}"))
        elif isinstance(w, QtWidgets.QAbstractButton) and w.text():
            hint = w.sizeHint()
            if hint.width() > w.width() + 1 or hint.height() > w.height() + 1:
                out.append((w, f"button {w.text()!r} needs {hint.width()}x{hint.height()}, "
                               f"has {w.width()}x{w.height()}"))
    return out


class Presentation:
    """The presentation switch of one main window (``teaching`` holds the 3D overlays)."""

    def __init__(self, win, teaching=None):
        self.win, self.teaching = win, teaching
        self.enabled = False
        self._saved = None  # (font, palette, stylesheet, {widget: font})
        self.action = QtGui.QAction("&Presentation mode", win, checkable=True)
        self.action.setShortcut(QtGui.QKeySequence("Ctrl+Alt+P"))
        self.action.setStatusTip("large fonts, thick lines, high contrast (for a projector)")
        self.action.toggled.connect(self.set_enabled)
        if _to_bool(win.settings.q.value(SETTINGS_KEY, False)):
            # once the event loop runs: the window and its docks are built and shown
            QtCore.QTimer.singleShot(0, lambda: self.action.setChecked(True))

    def set_enabled(self, on: bool) -> None:
        on = bool(on)
        if on == self.enabled:
            return
        app = QtWidgets.QApplication.instance()
        if on:
            own = {w: QtGui.QFont(w.font()) for w in app.allWidgets()
                   if w.testAttribute(QtCore.Qt.WidgetAttribute.WA_SetFont)}
            self._saved = (QtGui.QFont(app.font()), QtGui.QPalette(app.palette()),
                           app.styleSheet(), own)
            font = QtGui.QFont(app.font())
            font.setPointSizeF(font.pointSizeF() * FONT_SCALE)
            app.setFont(font)
            for w, f in own.items():
                big = QtGui.QFont(f)
                big.setPointSizeF(f.pointSizeF() * FONT_SCALE)
                w.setFont(big)
            app.setPalette(_palette())
            app.setStyleSheet(self._saved[2] + _HIGH_CONTRAST)
            self._wrap_docks()
            self._fit_texts()
        elif self._saved is not None:
            self._unfit_texts()
            self._unwrap_docks()
            font, palette, sheet, own = self._saved
            app.setFont(font)
            app.setPalette(palette)
            app.setStyleSheet(sheet)
            for w, f in own.items():
                try:
                    w.setFont(f)
                except RuntimeError:  # the widget is gone
                    pass
            self._saved = None
        self.enabled = on
        scale = FONT_SCALE if on else 1.0
        view = self.win.view
        view.label_scale = scale
        if self.teaching is not None:
            self.teaching.frames.set_scale(scale)
            self.teaching.singularity.set_scale(scale)
        for table in self.win.findChildren(QtWidgets.QTableView):
            table.resizeColumnsToContents()  # headers and cells in the new font
        # the dock layout again from its own state: Qt left the tab bar of tabbed docks
        # where the old font put it (over a dock's contents)
        self.win.restoreState(self.win.saveState())
        self._hide_stray_tab_bars()
        view.update()
        self.win.settings.q.setValue(SETTINGS_KEY, on)
        if self.action.isChecked() != on:
            self.action.setChecked(on)


    def fit_texts(self) -> None:
        """Again after a layout change (e.g. a dock shown): every button and label keeps
        room for its whole text (the docks scroll instead)."""
        if self.enabled:
            self._fit_texts()

    def _fit_texts(self) -> None:
        if not hasattr(self, "_mins"):
            self._mins = {}
        app = QtWidgets.QApplication.instance()
        for _round in range(2):  # word-wrapped labels: heights follow the new widths
            app.processEvents()
            for w in self.win.findChildren(QtWidgets.QWidget):
                if not isinstance(w, (QtWidgets.QAbstractButton, QtWidgets.QLabel)):
                    continue
                if not w.isVisible() or isinstance(w.parent(), QtWidgets.QStatusBar):
                    continue
                self._mins.setdefault(w, (w.minimumWidth(), w.minimumHeight()))
                if isinstance(w, QtWidgets.QLabel) and w.wordWrap():
                    need = w.heightForWidth(max(w.width(), 1))
                    if need > w.height():
                        w.setMinimumHeight(need)
                    continue
                hint = w.sizeHint()
                if w.maximumWidth() < hint.width():
                    continue  # fixed by its panel (a swatch, a sized label): leave it
                w.setMinimumWidth(max(w.minimumWidth(), hint.width()))
                w.setMinimumHeight(max(w.minimumHeight(), min(hint.height(), w.maximumHeight())))

    def _unfit_texts(self) -> None:
        for w, (mw, mh) in getattr(self, "_mins", {}).items():
            try:
                w.setMinimumSize(mw, mh)
            except RuntimeError:  # the widget is gone
                pass
        self._mins = {}

    def _hide_stray_tab_bars(self) -> None:
        """A tab bar of the window whose docks are all hidden (the task switcher hides
        docks; Qt can leave their bar over another dock after a font change)."""
        app = QtWidgets.QApplication.instance()
        app.processEvents()
        shown = {d.windowTitle() for d in self.win.findChildren(QtWidgets.QDockWidget)
                 if d.isVisible()}
        for bar in self.win.findChildren(QtWidgets.QTabBar):
            if bar.parent() is not self.win or not bar.isVisible():
                continue
            titles = {bar.tabText(i).replace("&", "") for i in range(bar.count())}
            if not titles & shown:
                bar.hide()

    def _wrap_docks(self) -> None:
        """Each dock's panel in a scroll area: large text scrolls instead of being cut,
        and the window still fits a 1280x720 projector."""
        self._wrapped = []
        for dock in self.win.findChildren(QtWidgets.QDockWidget):
            inner = dock.widget()
            if inner is None or isinstance(inner, QtWidgets.QScrollArea):
                continue
            scroll = QtWidgets.QScrollArea()
            scroll.setObjectName("presentationScroll")
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
            scroll.setWidget(inner)  # the dock gives the panel up to the scroll area
            self._wrapped.append((dock, scroll, dock.minimumWidth()))
            dock.setMinimumWidth(0)
            dock.setWidget(scroll)

    def _unwrap_docks(self) -> None:
        for dock, scroll, min_width in getattr(self, "_wrapped", []):
            if dock.widget() is scroll:
                inner = scroll.takeWidget()
                dock.setWidget(inner)
                scroll.deleteLater()
                dock.setMinimumWidth(min_width)
        self._wrapped = []


def _to_bool(value) -> bool:
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes")
    return bool(value)
