"""Help: a tooltip on every control, and Help > User guide (docs/user-guide.md)."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtGui, QtWidgets

from robogui.app.shell.main_window import SHORTCUTS
from robogui.app.shell.tooltips import missing_tooltips

ROOT = Path(__file__).resolve().parents[3]


def test_every_visible_control_has_a_tooltip(qtbot, window, session):
    window.resize(1600, 1000)
    plots = window.ensure_plots()
    qtbot.wait(50)
    seen = []
    # every dock in front in turn (tabbed docks hide each other), then the whole window
    docks = [d for d in window.findChildren(QtWidgets.QDockWidget)]
    for dock in docks + list(plots.docks.values()):
        dock.show()
        dock.raise_()
        qtbot.wait(10)
        seen += missing_tooltips(window)
    assert seen == [], "controls without a tooltip:\n" + "\n".join(sorted(set(seen)))
    # also after another robot (the joint rows are rebuilt)
    assert window.open_robot("stanford")
    assert missing_tooltips(window) == []
    # the menus' actions say what they do (tooltip and status tip)
    for menu_action in window.menuBar().actions():
        for act in menu_action.menu().actions():
            if act.isSeparator() or act.menu() is not None:
                continue
            assert act.toolTip().strip() and act.statusTip().strip(), act.text()


def test_help_user_guide_opens_the_markdown_guide(qtbot, window):
    help_menu = {a.text(): a.menu() for a in window.menuBar().actions()}["&Help"]
    assert window.act_guide in help_menu.actions()
    window.act_guide.trigger()
    dlg = window.findChild(QtWidgets.QDialog, "userGuide")
    assert dlg is not None and dlg.isVisible()
    text = dlg.browser.toPlainText()
    assert text.startswith("robogui user guide")
    for heading in ("A tour of the window", "Typing values", "Units", "Undo and history",
                    "Keyboard shortcuts", "File formats"):
        assert heading in text
    # the screenshots are there, loaded and scaled to the dialog
    assert any("screenshot-main.png" in n for n in dlg.images)
    doc = dlg.browser.document()
    img = doc.resource(QtGui.QTextDocument.ResourceType.ImageResource,
                       dlg.browser.source().resolved(
                           __import__("PySide6.QtCore").QtCore.QUrl(dlg.images[0])))
    assert img is not None
    # the guide lists every shortcut the app has
    md = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    for key, _what in SHORTCUTS:
        assert f"| {key} |" in md, key
    # a second trigger raises the same dialog
    window.act_guide.trigger()
    assert window.findChildren(QtWidgets.QDialog, "userGuide") == [dlg]
    dlg.close()
