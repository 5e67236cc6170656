"""Trajectory > Export video...: the dialog filled in by keyboard, progress, cancel, and
the file read back (frames at the asked size, not the view's). Real GL under Xvfb."""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets
from PySide6.QtTest import QTest

from robogui.app.teach.video_export import VideoExportDialog, VideoExporter, VideoOptions
from robogui.session.video import Overlays


@pytest.fixture
def timeline(window, session):
    tl = window.teach.timeline
    assert tl.generate_demo("qz", "qr", duration=2.0)
    return tl


def menu_action(window, text):
    """The action called ``text`` in File > Trajectory."""
    for act in window.file_menu.actions():
        if act.menu() is not None and act.menu().title().replace("&", "") == "Trajectory":
            for a in act.menu().actions():
                if a.text().replace("&", "") == text:
                    return a
    raise AssertionError(f"no File > Trajectory > {text}")


def type_into(widget, text):
    widget.setFocus()
    widget.selectAll()
    QTest.keyClick(widget, QtCore.Qt.Key.Key_Delete)
    QTest.keyClicks(widget, text)


def test_menu_dialog_exports_a_gif_at_the_asked_size(qtbot, window, timeline, session, tmp_path):
    session.set_time(0.5, changing=False)
    q_before, view_size = session.q.copy(), window.view.size()
    out = tmp_path / "move.gif"
    seen = {}

    def fill_dialog():
        dlg = QtWidgets.QApplication.activeModalWidget()
        assert isinstance(dlg, VideoExportDialog)
        dlg.format_combo.setCurrentIndex(dlg.format_combo.findData(".gif"))
        type_into(dlg.path_edit, str(out))
        type_into(dlg.width_spin.lineEdit(), "240")
        type_into(dlg.height_spin.lineEdit(), "160")
        type_into(dlg.fps_spin.lineEdit(), "10")
        dlg.view_combo.setCurrentIndex(dlg.view_combo.findData("front"))
        qtbot.mouseClick(dlg.time_box, QtCore.Qt.MouseButton.LeftButton)
        seen["options"] = dlg.options()
        export = dlg.findChild(QtWidgets.QDialogButtonBox).button(
            QtWidgets.QDialogButtonBox.StandardButton.Ok)
        qtbot.mouseClick(export, QtCore.Qt.MouseButton.LeftButton)

    act = menu_action(window, "Export video\u2026")
    assert act.isEnabled()
    QtCore.QTimer.singleShot(0, fill_dialog)
    act.trigger()
    opts = seen["options"]
    assert opts.size == (240, 160) and opts.fps == 10 and opts.overlays.time
    assert opts.overlays.trail  # the tool path, on by default as in the 3D view
    exp = timeline.video_exporter
    assert exp is not None and exp.total == 21  # 2 s at 10 fps, both ends
    with qtbot.waitSignal(exp.finished, timeout=60000) as blocker:
        pass
    assert blocker.args == [21]
    gif = iio.imread(out, index=None, plugin="pillow")
    assert gif.shape[:3] == (21, 160, 240)  # the asked size, not the 3D view's
    change = np.abs(gif[0].astype(int) - gif[-1]).max(axis=-1) > 40
    assert change.mean() > 0.005  # qz -> qr: the robot moved
    # the time overlay: the top-left corner changes as the clock runs
    assert np.abs(gif[0][:20, :80].astype(int) - gif[-1][:20, :80]).max() > 40
    # the user's view, pose and playhead are untouched
    assert window.view.size() == view_size
    np.testing.assert_allclose(session.q, q_before)
    assert session.time == pytest.approx(0.5)
    assert "wrote 21 frames" in timeline.info_label.text()


def test_video_export_can_be_cancelled_and_leaves_no_file(qtbot, timeline, tmp_path):
    out = tmp_path / "c.mp4"
    exp = timeline.export_video(VideoOptions(str(out), size=(160, 120), fps=30),
                                show_progress=True)
    cancel = timeline.video_progress.findChild(QtWidgets.QPushButton)
    assert cancel.text() == "Cancel"
    exp.progress.connect(lambda done, _n: done == 3 and cancel.click())
    with qtbot.waitSignal(exp.cancelled, timeout=30000) as blocker:
        pass
    assert blocker.args == [3]
    assert list(tmp_path.iterdir()) == []
    assert "cancelled after 3" in timeline.info_label.text()


def test_image_sequence_at_any_size_with_torque_overlay(qtbot, timeline, session, tmp_path):
    folder = tmp_path / "seq"
    opts = VideoOptions(f"{folder}/", size=(1000, 400), fps=2, view="current",
                        overlays=Overlays(torque=True, q=True))
    exp = timeline.export_video(opts, show_progress=False)
    with qtbot.waitSignal(exp.finished, timeout=60000):
        pass
    files = sorted(folder.glob("frame_*.png"))
    assert len(files) == 5 and iio.imread(files[0]).shape[:2] == (400, 1000)


def test_bad_video_options_are_reported_and_nothing_starts(qtbot, timeline, errors, tmp_path):
    assert timeline.export_video(VideoOptions(str(tmp_path / "odd.mp4"), size=(161, 120)),
                                 show_progress=False) is None
    assert errors and "even width" in errors[-1][1]
    assert timeline.export_video(VideoOptions(str(tmp_path / "x.png")),
                                 show_progress=False) is None
    assert "not a picture" in errors[-1][1]
    assert list(tmp_path.iterdir()) == []


def test_exporter_without_a_trajectory_refuses(qtbot, session, tmp_path):
    with pytest.raises(ValueError, match="no trajectory"):
        VideoExporter(session, VideoOptions(str(tmp_path / "x.mp4")))


def test_image_sequence_menu_opens_the_dialog_set_to_png_files(qtbot, window, timeline,
                                                               tmp_path):
    folder = tmp_path / "pngs"

    def fill_dialog():
        dlg = QtWidgets.QApplication.activeModalWidget()
        assert isinstance(dlg, VideoExportDialog)
        assert dlg.format_combo.currentData() == "/"
        assert dlg.path_edit.text().endswith("/")
        type_into(dlg.path_edit, f"{folder}/")
        type_into(dlg.width_spin.lineEdit(), "2000")
        type_into(dlg.height_spin.lineEdit(), "1000")
        type_into(dlg.fps_spin.lineEdit(), "2")
        dlg.accept()

    QtCore.QTimer.singleShot(0, fill_dialog)
    menu_action(window, "Export view as image sequence\u2026").trigger()
    exp = timeline.video_exporter
    with qtbot.waitSignal(exp.finished, timeout=60000):
        pass
    files = sorted(folder.glob("frame_*.png"))
    assert len(files) == 5 and iio.imread(files[-1]).shape[:2] == (1000, 2000)
