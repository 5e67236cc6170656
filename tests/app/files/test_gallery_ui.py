"""File > Robot gallery used as a person would: open it from the menu, type in the search
field, press Enter, the robot opens; a robot that does not open says why and the gallery
stays. The worker process is replaced by an in-process one that describes and renders
(tiny pictures) only the few robots the test looks at."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.app.files import gallery, thumbnails
from tests.urdf_files import UR5

WATCHED = ("ur5_robot", "puma560", "broken")


class InProcessThumbnailer(QtCore.QObject):
    """The worker's own :func:`run_jobs`, in this process, for the WATCHED robots."""

    result = QtCore.Signal(dict)
    finished = QtCore.Signal()
    started: list[list[dict]] = []

    def start(self, jobs):
        type(self).started.append(jobs)
        QtCore.QTimer.singleShot(0, lambda: self._run(jobs))

    def _run(self, jobs):
        import io
        import json

        out = io.StringIO()
        thumbnails.run_jobs([j for j in jobs if j["name"] in WATCHED], out,
                            lambda robot, png: thumbnails.render_thumbnail(robot, png, (48, 36)))
        for line in out.getvalue().splitlines():
            self.result.emit(json.loads(line))
        self.finished.emit()

    def stop(self):
        pass


@pytest.fixture
def gallery_window(window, tmp_path, monkeypatch):
    monkeypatch.setattr(gallery, "ProcessThumbnailer", InProcessThumbnailer)
    monkeypatch.setattr(gallery, "cache_folder", lambda: tmp_path / "cache")
    InProcessThumbnailer.started = []
    return window


def _open_gallery(qtbot, window) -> gallery.RobotGallery:
    act = next(a for a in window.file_menu.actions() if a.text().startswith("Robot &gallery"))
    act.trigger()
    dlg = window.gallery_dialog
    qtbot.waitExposed(dlg)
    return dlg


def _shown_names(dlg) -> list[str]:
    return [dlg.proxy.index(r, 0).data(gallery.ENTRY_ROLE).name
            for r in range(dlg.proxy.rowCount())]


def test_search_and_enter_opens_the_robot_and_pictures_are_cached(qtbot, gallery_window,
                                                                  session, tmp_path):
    window = gallery_window
    dlg = _open_gallery(qtbot, window)
    assert dlg.model.rowCount() > 40  # the library and the installed packages' arms
    qtbot.waitUntil(lambda: dlg._pending == 0, timeout=60_000)
    ur5 = next(k for k, it in dlg._items.items() if it.data(gallery.ENTRY_ROLE).name == "ur5_robot")
    assert dlg.descriptions[ur5].joints == 6
    assert (tmp_path / "cache" / f"{ur5}.png").is_file()
    assert "Universal Robots \u00b7 6 joints" in dlg._items[ur5].text()

    dlg.activateWindow()
    qtbot.keyClicks(dlg.search, "ur5_rob")
    assert _shown_names(dlg) == ["ur5_robot"]
    assert dlg.status.text().startswith("1 of ")
    qtbot.keyClick(dlg.search, QtCore.Qt.Key.Key_Return)
    assert session.robot.n == 6 and session.robot.tip == "tool0"
    assert window.robot_path == str(UR5.resolve())
    assert not dlg.isVisible()  # opened: the gallery closes
    assert str(UR5.resolve()) in window.settings.recent_files()

    # the second time the cache answers: no work for the described robots, pictures shown
    dlg = _open_gallery(qtbot, window)
    qtbot.waitUntil(lambda: len(InProcessThumbnailer.started) == 2)
    names = {j["name"] for j in InProcessThumbnailer.started[-1]}
    assert "ur5_robot" not in names and "puma560" not in names
    assert not dlg._items[ur5].icon().pixmap(48, 36).toImage().isNull()
    # the search knows joint counts
    qtbot.keyClicks(dlg.search, "6 joints")
    assert "ur5_robot" in _shown_names(dlg) and "puma560" in _shown_names(dlg)
    dlg.close()


def test_a_robot_that_does_not_open_shows_its_error_and_the_gallery_stays(
        qtbot, gallery_window, session, tmp_path):
    window = gallery_window
    bad = tmp_path / "broken.urdf"
    bad.write_text("<robot name='b'><link name='a'/><joint name='j' type='revolute'>")
    window.settings.add_recent(bad)
    before = session.robot
    dlg = _open_gallery(qtbot, window)
    qtbot.waitUntil(lambda: dlg._pending == 0, timeout=60_000)
    qtbot.keyClicks(dlg.search, "broken")
    assert _shown_names(dlg) == ["broken"]
    index = dlg.proxy.index(0, 0)
    assert "broken.urdf" in index.data(QtCore.Qt.ItemDataRole.ToolTipRole)
    # one click on the picture
    rect = dlg.view.visualRect(index)
    qtbot.mouseClick(dlg.view.viewport(), QtCore.Qt.MouseButton.LeftButton,
                     pos=rect.center())
    assert dlg.isVisible() and dlg.error.isVisible()
    assert "broken.urdf" in dlg.error.text()
    assert session.robot is before
    assert QtWidgets.QApplication.activeModalWidget() is None  # no message box on top
    # a library robot by clicking its picture
    dlg.search.clear()
    qtbot.keyClicks(dlg.search, "puma560a")
    rect = dlg.view.visualRect(dlg.proxy.index(0, 0))
    qtbot.mouseClick(dlg.view.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.library_name == "puma560akb" and not dlg.isVisible()


def test_the_worker_renders_a_real_picture(tmp_path):
    """The worker's render path at a tiny size: a lit robot on the background."""
    from robogui.io.robotfile import load_robot

    png = tmp_path / "t.png"
    thumbnails.render_thumbnail(load_robot("puma560"), str(png), (64, 48))
    img = QtGui.QImage(str(png))
    assert (img.width(), img.height()) == (64, 48)
    colours = {img.pixel(x, y) for x in range(64) for y in range(48)}
    assert len(colours) > 20  # the robot, shaded; not an empty frame


def test_the_worker_process_describes_and_renders_in_the_background(qtbot, tmp_path):
    """The real worker (``python -m robogui.app.files.thumbnails``) on one small robot."""
    from robogui.io.robot_catalogue import file_key, find_robots

    entry = next(e for e in find_robots(sources=("library",)) if e.target == "twolink")
    worker = thumbnails.ProcessThumbnailer()
    results = []
    worker.result.connect(results.append)
    with qtbot.waitSignal(worker.finished, timeout=120_000):
        worker.start([thumbnails.thumbnail_job(entry, file_key(entry.path), tmp_path)])
    assert len(results) == 1
    r = results[0]
    assert (r["joints"], r["error"]) == (2, None)
    img = QtGui.QImage(r["png"])
    assert (img.width(), img.height()) == thumbnails.THUMB_SIZE
    assert Path(r["png"]).parent == tmp_path
