"""File > Robot gallery: every robot installed, with a picture, searchable, opened by one
click or Enter.

The list comes from :func:`robogui.io.robot_catalogue.find_robots` (files only, so the
dialog opens at once). What needs the robot loaded (its name, maker, joint count) and its
thumbnail come from a worker process (:mod:`.thumbnails`) and are cached on disk by file
path, modification time, size and robogui's version: the second time, everything shows
at once. A :class:`QSortFilterProxyModel` over a :class:`QStandardItemModel` filters by
:func:`~robogui.io.robot_catalogue.matches` (name, maker, joint count); the view is a
:class:`QListView` in icon mode.

Opening goes through the window's own ``open_robot`` (tip chooser, xacro arguments,
recent files, undo); a robot that fails shows the loader's message in the dialog, which
stays open.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from robogui.io import robot_catalogue as catalogue
from robogui.session.geometry import mesh_store

from .thumbnails import THUMB_SIZE, ProcessThumbnailer, cache_folder, thumbnail_job

__all__ = ["RobotGallery", "install_gallery", "open_in_window"]

#: item data roles
ENTRY_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1
DESCRIPTION_ROLE = QtCore.Qt.ItemDataRole.UserRole + 2

_SOURCE_TEXT = {"library": "robogui library", "recent": "recent file"}

#: ``open_entry(entry) -> error text or None``: None opened it, "" cancelled (no error)
EntryOpener = Callable[[catalogue.CatalogueEntry], "str | None"]


class _Filter(QtCore.QSortFilterProxyModel):
    """Rows whose entry :func:`~robogui.io.robot_catalogue.matches` the search text."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = ""

    def set_text(self, text: str) -> None:
        self.refilter(lambda: setattr(self, "text", text))

    def refilter(self, change=lambda: None) -> None:
        """Apply ``change()`` and filter again (Qt >= 6.9's begin/endFilterChange, else
        the older invalidateFilter)."""
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange()
        else:
            change()
            self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent) -> bool:  # noqa: N802 (Qt's name)
        index = self.sourceModel().index(row, 0, parent)
        entry = index.data(ENTRY_ROLE)
        return entry is None or catalogue.matches(entry, index.data(DESCRIPTION_ROLE),
                                                  self.text)


def _placeholder(size=THUMB_SIZE) -> QtGui.QPixmap:
    """The picture of a robot whose thumbnail is not rendered yet."""
    pix = QtGui.QPixmap(*size)
    pix.fill(QtGui.QColor(48, 52, 58))
    p = QtGui.QPainter(pix)
    p.setPen(QtGui.QColor(120, 126, 134))
    p.drawText(pix.rect(), QtCore.Qt.AlignmentFlag.AlignCenter, "rendering\u2026")
    p.end()
    return pix


class RobotGallery(QtWidgets.QDialog):
    """The gallery. ``open_entry(entry)`` opens a robot and returns None (opened: the dialog
    closes), an error text (shown here; the dialog stays) or "" (cancelled). ``recent``:
    the recent files; ``cache_dir``: where thumbnails and descriptions are kept;
    ``thumbnailer``: a QObject with ``start(jobs)``, ``stop()`` and the signals
    ``result(dict)`` and ``finished()`` (default: :class:`.thumbnails.ProcessThumbnailer`).
    """

    def __init__(self, open_entry: EntryOpener, recent=(), parent=None, *,
                 cache_dir: str | Path | None = None, thumbnailer=None, entries=None):
        super().__init__(parent)
        self.setObjectName("robotGallery")
        self.setWindowTitle("Robot gallery")
        self.resize(980, 680)
        self._open_entry = open_entry
        self.cache_dir = Path(cache_dir) if cache_dir is not None else cache_folder()
        self._desc_file = self.cache_dir / "descriptions.json"
        self.descriptions = catalogue.load_descriptions(self._desc_file)
        self.entries = list(entries) if entries is not None else catalogue.find_robots(recent)

        self.search = QtWidgets.QLineEdit(objectName="gallerySearch")
        self.search.setPlaceholderText("Search by name, maker or joint count (e.g. kuka, 7)")
        self.search.setClearButtonEnabled(True)
        self.model = QtGui.QStandardItemModel(self)
        self.proxy = _Filter(self)
        self.proxy.setSourceModel(self.model)
        self.view = QtWidgets.QListView(objectName="galleryList")
        self.view.setViewMode(QtWidgets.QListView.ViewMode.IconMode)
        self.view.setResizeMode(QtWidgets.QListView.ResizeMode.Adjust)
        self.view.setMovement(QtWidgets.QListView.Movement.Static)
        self.view.setUniformItemSizes(True)
        self.view.setWordWrap(True)
        self.view.setIconSize(QtCore.QSize(*THUMB_SIZE))
        self.view.setGridSize(QtCore.QSize(THUMB_SIZE[0] + 24, THUMB_SIZE[1] + 56))
        self.view.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setModel(self.proxy)
        self.error = QtWidgets.QLabel(objectName="galleryError")
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.setStyleSheet("color: #ff8a80")
        self.error.hide()
        self.status = QtWidgets.QLabel(objectName="galleryStatus")
        lay = QtWidgets.QVBoxLayout(self)
        lay.addWidget(self.search)
        lay.addWidget(self.view, 1)
        lay.addWidget(self.error)
        lay.addWidget(self.status)

        self._placeholder = QtGui.QIcon(_placeholder())
        self._items: dict[str, QtGui.QStandardItem] = {}
        jobs = self._fill()
        self.search.textChanged.connect(self._filter)
        self.search.returnPressed.connect(self.open_current)
        self.view.clicked.connect(self._open_index)
        self.view.activated.connect(self._open_index)  # Enter (and double-click) in the list
        self.thumbnailer = thumbnailer if thumbnailer is not None else ProcessThumbnailer(self)
        self.thumbnailer.result.connect(self._on_result)
        self.thumbnailer.finished.connect(self._on_finished)
        self._pending = len(jobs)
        self._say_count()
        if jobs:  # after the dialog is up: opening never waits for a picture
            QtCore.QTimer.singleShot(0, lambda: self.thumbnailer.start(jobs))
        self.search.setFocus()

    # -- the list -----------------------------------------------------------------------
    def _key(self, entry) -> str:
        # the meshes' format too: a change in how meshes are drawn draws the pictures again
        return catalogue.file_key(entry.path, f"{THUMB_SIZE[0]}x{THUMB_SIZE[1]}"
                                  f"|meshes {mesh_store.FORMAT}")

    def _fill(self) -> list[dict]:
        """Items for every entry, cached pictures and descriptions applied; the jobs for
        the worker (entries with no cached description or picture)."""
        jobs = []
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        for entry in self.entries:
            key = self._key(entry)
            item = QtGui.QStandardItem()
            item.setEditable(False)
            item.setData(entry, ENTRY_ROLE)
            self._items[key] = item
            png = self.cache_dir / f"{key}.png"
            desc = self.descriptions.get(key)
            self._show(item, entry, desc, png if png.is_file() else None)
            if desc is None or (desc.error is None and not png.is_file()):
                jobs.append(thumbnail_job(entry, key, self.cache_dir))
            self.model.appendRow(item)
        return jobs

    def _show(self, item, entry, desc, png: Path | None) -> None:
        maker = (desc.maker if desc else "") or entry.maker
        joints = "" if desc is None or desc.joints is None else (
            f"{desc.joints} joint{'s' if desc.joints != 1 else ''}")
        source = _SOURCE_TEXT.get(entry.source, entry.source)
        item.setText("\n".join(t for t in (entry.name, " \u00b7 ".join(
            t for t in (maker, joints) if t)) if t))
        tip = [f"{entry.name} ({source})", str(entry.path)]
        if desc is not None and desc.error:
            tip.append(desc.error)
            item.setForeground(QtGui.QColor("#ff8a80"))
        item.setToolTip("\n".join(tip))
        item.setData(desc, DESCRIPTION_ROLE)
        icon = QtGui.QIcon(str(png)) if png is not None else None
        if icon is None and desc is not None and desc.error:
            icon = QtGui.QIcon(_placeholder_text("does not open"))
        item.setIcon(icon or self._placeholder)

    def _on_result(self, result: dict) -> None:
        key = str(result.get("key", ""))
        item = self._items.get(key)
        if item is None:
            return
        joints = result.get("joints")
        desc = catalogue.Description(str(result.get("name", "")), str(result.get("maker", "")),
                                     None if joints is None else int(joints),
                                     result.get("error"))
        self.descriptions[key] = desc
        self._save()  # each one: a window closed midway keeps what was done
        png = result.get("png")
        self._show(item, item.data(ENTRY_ROLE), desc, Path(png) if png else None)
        self._pending = max(0, self._pending - 1)
        self._say_count()
        self.proxy.refilter()  # the joint count may match the search now

    def _on_finished(self) -> None:
        self._pending = 0
        self._say_count()

    def _save(self) -> None:
        try:
            catalogue.save_descriptions(self._desc_file, self.descriptions)
        except OSError:
            pass  # a read-only cache: the gallery works, it renders again next time

    def _say_count(self) -> None:
        text = f"{self.proxy.rowCount()} of {self.model.rowCount()} robots"
        if self._pending:
            text += f" \u2014 rendering {self._pending} picture(s) in the background"
        self.status.setText(text)

    def _filter(self, text: str) -> None:
        self.proxy.set_text(text)
        if self.proxy.rowCount():
            self.view.setCurrentIndex(self.proxy.index(0, 0))
        self._say_count()

    # -- opening ------------------------------------------------------------------------
    def open_current(self) -> bool:
        """Open the selected robot, or the first one the search shows (Enter)."""
        index = self.view.currentIndex()
        if not index.isValid():
            index = self.proxy.index(0, 0)
        return self._open_index(index)

    def _open_index(self, index) -> bool:
        entry = index.data(ENTRY_ROLE) if index.isValid() else None
        if entry is None:
            return False
        self.error.hide()
        problem = self._open_entry(entry)
        if problem is None:
            self.accept()
            return True
        if problem:
            self.error.setText(f"{entry.name} did not open: {problem}")
            self.error.show()
        return False

    def done(self, result: int) -> None:  # closing by any way stops the worker
        self.thumbnailer.stop()
        super().done(result)


def _placeholder_text(text: str) -> QtGui.QPixmap:
    pix = _placeholder()
    pix.fill(QtGui.QColor(58, 40, 40))
    p = QtGui.QPainter(pix)
    p.setPen(QtGui.QColor(255, 138, 128))
    p.drawText(pix.rect(), QtCore.Qt.AlignmentFlag.AlignCenter, text)
    p.end()
    return pix


def open_in_window(window, entry) -> str | None:
    """Open ``entry`` through ``window.open_robot``; None when it opened, the error text
    when it did not ("" when the user cancelled a question). Package folders the entry
    needs are added to the ones every later load searches (reopening it works too)."""
    if entry.package_path:
        from robogui.io.ros.urdf import add_package_path

        add_package_path(entry.package_path)
    errors: list[str] = []
    shown = window.error_presenter
    window.error_presenter = lambda title, text: errors.append(text)  # said in the gallery
    try:
        ok = window.open_robot(entry.target)
    finally:
        window.error_presenter = shown
    return None if ok else (errors[-1] if errors else "")


def install_gallery(window, **options) -> QtGui.QAction:
    """File > Robot gallery... (Ctrl+Shift+G), before Open recent; ``options`` go to
    :class:`RobotGallery` (tests pass a cache folder and a thumbnailer)."""
    act = QtGui.QAction("Robot &gallery\u2026", window)
    act.setObjectName("actionRobotGallery")
    act.setShortcut(QtGui.QKeySequence("Ctrl+Shift+G"))
    act.setStatusTip("Every robot installed, with a picture: search and open one")

    def show() -> RobotGallery:
        dlg = RobotGallery(lambda e: open_in_window(window, e),
                           window.settings.recent_files(), window, **options)
        dlg.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        window.gallery_dialog = dlg
        dlg.show()
        return dlg

    act.triggered.connect(show)
    window.file_menu.insertAction(window.recent_menu.menuAction(), act)
    window.addAction(act)
    return act
