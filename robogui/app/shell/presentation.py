"""Presentation mode: one switch for a projector, remembered in QSettings.

On: UI fonts x1.6 (the application font and every font a widget set for itself), the
key numbers (widgets with the property ``keyNumber``: the pose readout, T, the joint
values) x1.6 x :data:`KEY_SCALE` in bold, so they read from the back of the room, a
high-contrast palette (black, white, yellow selection), thicker lines and larger labels
and axes in the 3D view (D-H frames, singularity arrows, the view's own labels). Off
puts everything back as it was. :func:`clipped_widgets` lists visible labels and buttons
whose text does not fit (the test walks the window with it at 1280x720).
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["Presentation", "FONT_SCALE", "KEY_SCALE", "clipped_widgets", "SETTINGS_KEY"]

FONT_SCALE = 1.6
#: the key numbers grow by this much more than the rest
KEY_SCALE = 1.3
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
    Rich-text and word-wrapped labels reflow and are checked by height only. Check boxes
    and radio buttons are buttons; a tab narrower than its size hint is elided; a table
    header section narrower than its title (plus the style's margins) is cut.
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
        elif isinstance(w, QtWidgets.QTabBar):
            out += _clipped_tabs(w)
        elif isinstance(w, QtWidgets.QHeaderView):
            out += _clipped_sections(w)
    return out


def _clipped_tabs(bar: QtWidgets.QTabBar) -> list[tuple[QtWidgets.QWidget, str]]:
    # a tab narrower than its size hint has its text elided (scrolled tabs keep their size)
    out = []
    for i in range(bar.count()):
        if not bar.isTabVisible(i) or not bar.tabText(i):
            continue
        hint, rect = bar.tabSizeHint(i), bar.tabRect(i)
        vertical = bar.shape() in (QtWidgets.QTabBar.Shape.RoundedWest,
                                   QtWidgets.QTabBar.Shape.RoundedEast)
        need, has = (hint.height(), rect.height()) if vertical else (hint.width(), rect.width())
        if need > has + 1:
            out.append((bar, f"tab {bar.tabText(i)!r} needs {need} px, has {has}"))
    return out


def _clipped_sections(header: QtWidgets.QHeaderView) -> list[tuple[QtWidgets.QWidget, str]]:
    # a section's title wider than the section (horizontal) or than the header (vertical)
    model = header.model()
    if model is None:
        return []
    out = []
    fm = header.fontMetrics()
    margin = 2 * header.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_HeaderMargin)
    horizontal = header.orientation() == QtCore.Qt.Orientation.Horizontal
    for i in range(header.count()):
        if header.isSectionHidden(i):
            continue
        text = model.headerData(i, header.orientation(), QtCore.Qt.ItemDataRole.DisplayRole)
        if text in (None, ""):
            continue
        need = max(fm.horizontalAdvance(line) for line in str(text).split("\n")) + margin
        has = header.sectionSize(i) if horizontal else header.width()
        if need > has + 1:
            out.append((header, f"header {str(text)!r} needs {need} px, has {has}"))
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
        # docks built or filled while the mode is on (the plot docks come after the first
        # frame, the teach docks later): wrapped and fitted by the same pass, one timer
        self._refresh = QtCore.QTimer(win, singleShot=True, interval=0)
        self._refresh.timeout.connect(self._apply_to_docks)
        self._watched: set = set()
        self._elide: dict = {}  # tab bar -> its elide mode before the mode went on
        win.installEventFilter(_DockWatcher(self, win))
        if _to_bool(win.settings.q.value(SETTINGS_KEY, False)):
            # once the event loop runs: the window and its docks are built and shown
            QtCore.QTimer.singleShot(0, lambda: self.action.setChecked(True))

    def set_enabled(self, on: bool) -> None:
        on = bool(on)
        if on == self.enabled:
            return
        app = QtWidgets.QApplication.instance()
        if on:
            self._key_fonts = {}
            own = {w: QtGui.QFont(w.font()) for w in app.allWidgets()
                   if w.testAttribute(QtCore.Qt.WidgetAttribute.WA_SetFont)
                   or w.property("keyNumber")}
            self._saved = (QtGui.QFont(app.font()), QtGui.QPalette(app.palette()),
                           app.styleSheet(), own)
            font = QtGui.QFont(app.font())
            font.setPointSizeF(font.pointSizeF() * FONT_SCALE)
            app.setFont(font)
            app.setPalette(_palette())
            app.setStyleSheet(self._saved[2] + _HIGH_CONTRAST)
            # after the style sheet, which would put the widgets' own fonts back
            for w, f in own.items():
                big = QtGui.QFont(f)
                key = bool(w.property("keyNumber"))
                big.setPointSizeF(f.pointSizeF() * FONT_SCALE * (KEY_SCALE if key else 1.0))
                if key:
                    big.setBold(True)
                    self._key_fonts[w] = big
                w.setFont(big)
            self.enabled = True
            self._apply_to_docks()
        elif self._saved is not None:
            self._refresh.stop()
            for bar, mode in self._elide.items():
                try:
                    bar.setElideMode(mode)
                except RuntimeError:  # the bar is gone
                    pass
            self._elide = {}
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
        view.scene.set_presentation_scale(scale)  # labels, tool axes, floor grid
        if self.teaching is not None:
            self.teaching.frames.set_scale(scale)
            self.teaching.singularity.set_scale(scale)
        for table in self.win.findChildren(QtWidgets.QTableView):
            table.resizeColumnsToContents()  # headers and cells in the new font
        # the dock layout again from its own state: Qt left the tab bar of tabbed docks
        # where the old font put it (over a dock's contents)
        self.win.restoreState(self.win.saveState())
        self._hide_stray_tab_bars()
        tasks = getattr(self.win, "tasks", None)
        if tasks is not None:
            tasks.fit_toolbar()  # the bigger font may not fit the toolbars on one row
            if on:  # the joint rows, not the readout, keep the room
                QtCore.QTimer.singleShot(0, self.win, tasks.fit_column)
        view.update()
        self.win.settings.q.setValue(SETTINGS_KEY, on)
        if self.action.isChecked() != on:
            self.action.setChecked(on)


    def fit_texts(self) -> None:
        """Again after a layout change (e.g. a dock shown): every button and label keeps
        room for its whole text (the docks scroll instead)."""
        if self.enabled:
            self._fit_texts()

    def dock_changed(self) -> None:
        """A dock was added, filled or shown: wrap and fit it once control returns to the
        event loop (the one path for docks built before and after the mode went on)."""
        if self.enabled:
            self._refresh.start()

    def _apply_to_docks(self) -> None:
        if not self.enabled:
            return
        for dock in self.win.findChildren(QtWidgets.QDockWidget):
            if dock not in self._watched:  # its later setWidget/show reach dock_changed
                self._watched.add(dock)
                dock.installEventFilter(_DockWatcher(self, dock))
        self._wrap_docks()
        # a panel moved into its scroll area is polished again, which puts the app's style
        # sheet font back on the key numbers: theirs again
        for w, big in list(getattr(self, "_key_fonts", {}).items()):
            try:
                w.setFont(big)
            except RuntimeError:  # the widget is gone (a new robot's rows)
                del self._key_fonts[w]
        self._fit_texts()
        for bar in self.win.findChildren(QtWidgets.QTabBar):
            # tabs keep their whole title and scroll (Qt elides them in a narrow dock area)
            self._elide.setdefault(bar, bar.elideMode())
            bar.setElideMode(QtCore.Qt.TextElideMode.ElideNone)
            bar.setUsesScrollButtons(True)
        for table in self.win.findChildren(QtWidgets.QTableView):
            if table.isVisible():
                table.resizeColumnsToContents()

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
        if not hasattr(self, "_wrapped"):
            self._wrapped = {}  # dock -> (scroll area, the dock's own minimum width)
        for dock in self.win.findChildren(QtWidgets.QDockWidget):
            inner = dock.widget()
            if inner is None or isinstance(inner, QtWidgets.QScrollArea):
                continue
            scroll = QtWidgets.QScrollArea()
            scroll.setObjectName("presentationScroll")
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
            scroll.setWidget(inner)  # the dock gives the panel up to the scroll area
            # a dock filled again (a placeholder's panel) keeps its first minimum width
            min_width = self._wrapped.get(dock, (None, dock.minimumWidth()))[1]
            self._wrapped[dock] = (scroll, min_width)
            dock.setMinimumWidth(0)
            dock.setWidget(scroll)

    def _unwrap_docks(self) -> None:
        for dock, (scroll, min_width) in getattr(self, "_wrapped", {}).items():
            try:
                if dock.widget() is scroll:
                    inner = scroll.takeWidget()
                    dock.setWidget(inner)
                    scroll.deleteLater()
                dock.setMinimumWidth(min_width)
            except RuntimeError:  # the dock is gone
                pass
        self._wrapped = {}


class _DockWatcher(QtCore.QObject):
    """Event filter on the window (a dock added) and on each dock (a panel set, the dock
    shown): tells the :class:`Presentation` to apply itself to the docks again."""

    _EVENTS = (QtCore.QEvent.Type.ChildAdded, QtCore.QEvent.Type.Show)

    def __init__(self, presentation: Presentation, parent: QtCore.QObject):
        super().__init__(parent)
        self.presentation = presentation

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        kind = event.type()
        if kind not in self._EVENTS:
            return False
        on_window = isinstance(obj, QtWidgets.QMainWindow)
        if (kind == QtCore.QEvent.Type.Show or not on_window
                or isinstance(event.child(), QtWidgets.QDockWidget)):
            self.presentation.dock_changed()
        return False


def _to_bool(value) -> bool:
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes")
    return bool(value)
