"""Help > User guide: ``docs/user-guide.md`` shown as markdown in a QTextBrowser dialog."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["UserGuideDialog", "GuideBrowser", "show_user_guide", "guide_path"]


def guide_path() -> Path | None:
    """The user guide: shipped inside the package (the data package ``robogui._docs``) when
    installed, else the repository's ``docs/user-guide.md``; None when neither is there."""
    try:
        from importlib.resources import files

        shipped = files("robogui._docs") / "user-guide.md"
        if isinstance(shipped, Path) and shipped.is_file():
            return shipped
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError, TypeError):
        pass
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "docs" / "user-guide.md",
                      here.parents[3] / "docs" / "user-guide.md"):
        if candidate.is_file():
            return candidate
    return None


class GuideBrowser(QtWidgets.QTextBrowser):
    """A QTextBrowser that finds the guide's pictures in an installed copy too: the guide
    links ``../assets/x.png`` (the repository's layout), which in a wheel is the data
    package ``robogui._assets`` next to ``robogui._docs``."""

    def loadResource(self, kind, url):  # noqa: N802 (Qt's name)
        """The resource at ``url``; a missing ``../assets/`` file is read from the installed
        assets folder instead."""
        if url.isLocalFile():
            local = Path(url.toLocalFile())
            if not local.is_file() and local.parent.name == "assets":
                installed = local.parent.parent / "_assets" / local.name
                if installed.is_file():
                    url = QtCore.QUrl.fromLocalFile(str(installed))
        return super().loadResource(kind, url)


class UserGuideDialog(QtWidgets.QDialog):
    """A non-modal window with the guide; links to other docs open inside it."""

    def __init__(self, path: Path, parent=None):
        super().__init__(parent)
        self.setObjectName("userGuide")
        self.setWindowTitle("robogui user guide")
        self.browser = GuideBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setToolTip("")  # the text speaks for itself
        self.browser.setSearchPaths([str(path.parent)])
        self.browser.setSource(QtCore.QUrl.fromLocalFile(str(path)),
                               QtGui.QTextDocument.ResourceType.MarkdownResource)
        self.images = fit_images(self.browser.document(), 820)
        back = QtWidgets.QPushButton("Back")
        back.setToolTip("the page shown before")
        back.clicked.connect(self.browser.backward)
        self.browser.backwardAvailable.connect(back.setEnabled)
        back.setEnabled(False)
        close = QtWidgets.QPushButton("Close")
        close.setToolTip("close the user guide")
        close.clicked.connect(self.close)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(back)
        row.addStretch(1)
        row.addWidget(close)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.browser, 1)
        layout.addLayout(row)
        self.resize(900, 760)


def fit_images(doc: QtGui.QTextDocument, width: int) -> list[str]:
    """Scale the document's images down to ``width`` px (the screenshots are 1600 px
    wide); returns their names."""
    names = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            fmt = frag.charFormat()
            if fmt.isImageFormat():
                img_fmt = fmt.toImageFormat()
                names.append(img_fmt.name())
                image = doc.resource(QtGui.QTextDocument.ResourceType.ImageResource,
                                     QtCore.QUrl(img_fmt.name()))
                if isinstance(image, (QtGui.QImage, QtGui.QPixmap)) and image.width() > width:
                    img_fmt.setWidth(width)
                    img_fmt.setHeight(image.height() * width / image.width())
                    cursor = QtGui.QTextCursor(doc)
                    cursor.setPosition(frag.position())
                    cursor.setPosition(frag.position() + frag.length(),
                                       QtGui.QTextCursor.MoveMode.KeepAnchor)
                    cursor.setCharFormat(img_fmt)
            it += 1
        block = block.next()
    return names


def show_user_guide(window: QtWidgets.QWidget) -> UserGuideDialog | None:
    """Show (and raise) the window's user guide; a missing guide is reported."""
    dlg = getattr(window, "_user_guide", None)
    if dlg is None:
        path = guide_path()
        if path is None:
            present = getattr(window, "error_presenter", None)
            text = ("The user guide (docs/user-guide.md) is not installed with this copy; "
                    "it is in robogui's repository.")
            if present is not None:
                present("No user guide", text)
            return None
        dlg = window._user_guide = UserGuideDialog(path, window)
    dlg.show()
    dlg.raise_()
    return dlg
