"""Timeline: wall-clock playback (with a controlled clock), transport, keys, trail, CSV
import/export, demo trajectories and image-sequence export. Real GL under Xvfb."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from robogui.engine.trajectory.trajectory import Trajectory


@pytest.fixture
def timeline(window, session, clock):
    tl = window.teach.timeline
    tl.clock = clock
    assert tl.generate_demo("qz", "qr", duration=3.0)
    return tl


def click(qtbot, widget):
    qtbot.mouseClick(widget, QtCore.Qt.MouseButton.LeftButton)


def play_to_end(timeline, clock, frame_dts):
    """Tick the timeline with the given wall-clock frame times until playback stops;
    returns the wall-clock time it took."""
    t0 = clock.t
    k = 0
    while timeline.session.playing:
        clock.t += frame_dts[k % len(frame_dts)]
        timeline.tick()
        k += 1
        assert k < 100000
    return clock.t - t0, k


@pytest.mark.parametrize("frame_dts", [[1 / 60], [0.007, 0.031, 0.016, 0.05]])
def test_playback_at_2x_reaches_the_end_in_half_the_time(qtbot, timeline, session, clock,
                                                         frame_dts):
    traj = session.trajectory
    assert traj.duration == pytest.approx(3.0)
    timeline.speed_combo.setCurrentIndex(timeline.speed_combo.findData(2.0))
    assert session.playback.speed == 2.0
    click(qtbot, timeline.play_button)
    assert session.playing and timeline.timer.isActive()
    elapsed, ticks = play_to_end(timeline, clock, frame_dts)
    # the run ends within one frame of half the trajectory time, whatever the frame rate
    assert 1.5 <= elapsed < 1.5 + max(frame_dts) + 1e-9
    assert session.time == traj.end and not timeline.timer.isActive()
    np.testing.assert_allclose(session.q, traj.q[-1])
    assert not session.is_changing  # playback finished: the change is complete


def test_playback_cursor_follows_wall_clock_at_each_speed(qtbot, timeline, session, clock):
    for speed in (0.1, 0.5, 1.0, 5.0, 10.0):
        session.stop()
        session.set_speed(speed)
        assert timeline.speed_combo.currentData() == speed
        session.play()
        timeline._on_playing(True)  # restart the tick clock at the fake time
        clock.t += 0.1
        timeline.tick()
        assert session.time == pytest.approx(min(0.1 * speed, 3.0))
        np.testing.assert_allclose(session.q, session.q_at(session.time))
    session.pause()


def test_loop_wraps_and_keeps_playing(qtbot, timeline, session, clock):
    click(qtbot, timeline.loop_box)
    assert session.playback.loop
    session.play()
    clock.t += 3.5
    timeline.tick()
    assert session.playing and session.time == pytest.approx(0.5)


def test_transport_buttons_and_keys(qtbot, timeline, session, window):
    traj = session.trajectory
    view = window.view
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Right)
    assert session.time == traj.t[1] and session.playback.index == 1
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Right)
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Left)
    assert session.playback.index == 1
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Space)
    assert session.playing
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Space)
    assert not session.playing
    click(qtbot, timeline.fwd_button)
    assert session.playback.index == 2
    click(qtbot, timeline.back_button)
    assert session.playback.index == 1
    click(qtbot, timeline.stop_button)
    assert session.time == 0.0
    # scrubbing: dragging moves the robot as a change in progress, releasing finishes it
    timeline.slider.setSliderDown(True)
    timeline.slider.setSliderPosition(5000)  # emits sliderMoved, as a mouse drag does
    assert session.time == pytest.approx(1.5) and session.is_changing
    timeline.slider.setSliderDown(False)  # emits sliderReleased
    assert not session.is_changing
    np.testing.assert_allclose(session.q, session.q_at(1.5))
    assert "1.50 / 3.00 s" in timeline.time_label.text()
    # a seek from elsewhere (a plot click) moves the cursor and the slider
    session.set_time(2.25, changing=False)
    assert session.playback.time == 2.25 and timeline.slider.value() == 7500


def _on_path(points, path):
    """Every drawn segment end is a point of the full path; the path starts the line."""
    d = np.linalg.norm(points[:, None, :] - path[None, :, :], axis=2).min(axis=1)
    np.testing.assert_allclose(d, 0.0, atol=1e-12)
    np.testing.assert_allclose(points[0], path[0])


def test_trail_follows_the_trajectory_and_the_tool(qtbot, timeline, session, window):
    trail = window.teach.trail
    traj = session.trajectory
    _on_path(trail.points, session.robot.fkine(traj.q)[:, :3, 3])
    assert trail.item.visible() and trail.item in window.view.items
    tool = np.eye(4)
    tool[2, 3] = 0.2
    session.set_tool(tool)  # the view rebuilds; the trail is added again with the new TCP
    assert trail.item in window.view.items
    _on_path(trail.points, session.robot.fkine(traj.q)[:, :3, 3])
    session.set_trajectory(None)
    assert not trail.item.visible()


def test_long_trail_is_decimated_built_off_the_gui_thread_and_the_marker_moves(
        qtbot, window, session):
    from robogui.engine.trajectory.trajectory import Trajectory
    from robogui.session.motion.polyline import MAX_TRAIL_POINTS

    trail = window.teach.trail
    k = 200_000
    t = np.linspace(0.0, 20.0, k)
    q = session.robot.pose("qz") + np.outer(np.sin(t), np.ones(6)) * 0.4
    session.set_trajectory(Trajectory(t, q))
    assert trail.busy  # a worker computes the path; the window goes on
    assert trail.wait(60)
    assert 2 < len(trail.points) <= 2 * MAX_TRAIL_POINTS and trail.item.visible()
    path = session.robot.fkine(q[::50])[:, :3, 3]
    # the drawn line stays within a hair of the true path
    sub = trail.points[:: max(1, len(trail.points) // 200)]
    d = np.linalg.norm(sub[:, None, :] - session.robot.fkine(q)[:, :3, 3][None, ::10, :],
                       axis=2).min(axis=1)
    assert d.max() < 2e-3
    session.set_time(7.3, changing=False)
    tcp = session.robot.fkine(session.q)[:3, 3]
    marker = trail.marker.pos[0]
    assert np.linalg.norm(marker - tcp) < 0.01  # on the path at the playhead
    assert path.shape == (4000, 3)


def test_malformed_csv_gives_a_clear_error_and_keeps_the_trajectory(qtbot, timeline, session,
                                                                    tmp_path, errors):
    before = session.trajectory
    bad = tmp_path / "bad.csv"
    bad.write_text("t,q1,q2,q3,q4,q5,q6\n0,0,0,0,0,0,0\n0.1,0,0,zero,0,0,0\n")
    assert not timeline.load_csv(bad)
    title, text = errors[-1]
    assert title == "Cannot load the trajectory"
    assert "bad.csv" in text and "line 3" in text and "column 4" in text and "q3" in text
    assert "'zero'" in text
    assert session.trajectory is before
    assert "previous trajectory is kept" in timeline.info_label.text()
    wrong = tmp_path / "two.csv"
    wrong.write_text("t,q1,q2\n0,0,0\n1,1,1\n")
    assert not timeline.load_csv(wrong)
    assert "expected 6 joints" in errors[-1][1] and session.trajectory is before
    assert not timeline.load_csv(tmp_path / "missing.csv")
    assert session.trajectory is before


def test_csv_export_and_import_round_trip(qtbot, timeline, session, tmp_path):
    traj = session.trajectory
    path = timeline.export_csv(tmp_path / "out")
    assert path.suffix == ".csv"
    header = next(line for line in path.read_text().splitlines() if not line.startswith("#"))
    cols = header.split(",")
    assert cols[0] == "t" and {"q1", "qd6", "qdd3"} <= set(cols)
    session.set_trajectory(None)
    assert timeline.load_csv(path)
    back = session.trajectory
    np.testing.assert_array_equal(back.t, traj.t)
    np.testing.assert_array_equal(back.q, traj.q)
    np.testing.assert_array_equal(back.qd, traj.qd)
    np.testing.assert_array_equal(back.qdd, traj.qdd)
    # a file with positions only gets estimated derivatives
    only_q = tmp_path / "q.csv"
    Trajectory(traj.t, traj.q).to_csv(only_q)
    assert timeline.load_csv(only_q) and session.trajectory.qd is not None


def test_demo_trajectory_between_named_poses(qtbot, timeline, session):
    assert timeline.generate_demo("qr", "qs", duration=2.0)
    traj = session.trajectory
    np.testing.assert_allclose(traj.q[0], session.robot.pose("qr"))
    np.testing.assert_allclose(traj.q[-1], session.robot.pose("qs"))
    assert traj.duration == pytest.approx(2.0) and "qr" in timeline.info_label.text()


def test_image_sequence_is_rendered_frame_by_frame(qtbot, timeline, session, tmp_path):
    session.set_time(0.7, changing=False)
    times = np.linspace(0.0, 3.0, 4)
    exp = timeline.export_images(tmp_path / "frames", times, show_progress=False)
    with qtbot.waitSignal(exp.finished, timeout=20000) as blocker:
        pass
    assert blocker.args == [4]
    files = sorted((tmp_path / "frames").glob("frame_*.png"))
    assert [f.name for f in files] == [f"frame_{k:04d}.png" for k in range(4)]
    first, last = QtGui.QImage(str(files[0])), QtGui.QImage(str(files[-1]))
    assert first.size() == timeline.view.size() * timeline.view.devicePixelRatio()
    assert first != last  # the robot moved between the frames
    assert session.time == pytest.approx(0.7)  # the playhead is put back


def test_image_sequence_export_can_be_cancelled(qtbot, timeline, session, tmp_path):
    exp = timeline.export_images(tmp_path / "c", show_progress=True)
    assert exp.total == len(session.trajectory.t)
    cancel = timeline.progress_dialog.findChild(QtWidgets.QPushButton)
    assert cancel.text() == "Cancel"
    exp.progress.connect(lambda done, _n: done == 2 and cancel.click())
    with qtbot.waitSignal(exp.cancelled, timeout=20000) as blocker:
        pass
    assert blocker.args == [2]
    assert len(list((tmp_path / "c").glob("*.png"))) == 2


def test_large_csv_loads_in_the_background_with_progress_and_cancel(qtbot, window, session,
                                                                     tmp_path, errors):
    """A big file is read by a child process: the call returns at once, a progress row
    with Cancel shows, the trajectory arrives later; Cancel keeps the current one."""
    from robogui.engine.trajectory.trajectory import Trajectory

    tl = window.teach.timeline
    k = 20_000
    t = np.linspace(0, 20, k)
    q = session.robot.pose("qz") + np.outer(np.sin(t), np.ones(6)) * 0.3
    path = tmp_path / "long.csv"
    Trajectory(t, q, name="long").to_csv(path)
    assert tl.load_csv(path, background=True)
    job = tl.csv_load
    assert not job.finished and tl.progress_row.isVisible()
    assert "long.csv" in tl.progress_row.label.text()
    assert job.wait(120)
    assert not tl.progress_row.isVisible() and errors == []
    np.testing.assert_allclose(session.trajectory.q, q, atol=1e-9)
    assert session.trajectory.name == "long"
    # cancel: the child is killed, the trajectory stays
    before = session.trajectory
    assert tl.load_csv(path, background=True)
    qtbot.mouseClick(tl.progress_row.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    assert tl.csv_load.finished and not tl.csv_load.running
    assert session.trajectory is before and not tl.progress_row.isVisible()
    # a malformed big file: the loader's own message, the trajectory kept
    bad = tmp_path / "bad.csv"
    bad.write_text("t,q1,q2,q3,q4,q5,q6\n0,0,0,0,0,0,0\n0.1,0,0,zero,0,0,0\n")
    tl.load_csv(bad, background=True)
    assert tl.csv_load.wait(120)
    assert session.trajectory is before
    assert errors and "bad.csv" in errors[-1][1] and "zero" in errors[-1][1]


def test_right_key_after_a_scrub_moves_by_at_least_one_sample(qtbot, timeline, session, window):
    """Issue 28 item 8: scrubbed between two samples, Right (and Left) moves the playhead
    by at least one sample interval, onto a sample."""
    traj = session.trajectory
    dt = float(traj.t[1] - traj.t[0])
    view = window.view
    window.activateWindow()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus, timeout=3000)
    timeline.slider.setSliderDown(True)
    timeline.slider.setSliderPosition(3333)  # a mouse drag on the timeline
    timeline.slider.setSliderDown(False)
    t0 = session.time
    assert np.abs(traj.t - t0).min() > 1e-6  # between samples
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Right)
    assert session.time - t0 >= dt - 1e-12
    assert np.abs(traj.t - session.time).min() < 1e-12
    t1 = session.time
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Right)
    assert session.time - t1 == pytest.approx(dt)
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Left)
    assert session.time == pytest.approx(t1)
