"""The fast GL path of the 3D view: the QOpenGLWindow host, its multisampling policy on
software GL, the floor-plane shortcut and the batched robot item."""

from __future__ import annotations

import time

import numpy as np
import pytest
from PySide6 import QtGui

from robogui.app import style
from robogui.app.view import gl_host
from robogui.app.view.gl_host import is_software_renderer, plane_covers_viewport
from robogui.app.view.robot_mesh_item import PartMesh, RobotMeshItem, normal_matrices
from robogui.app.view.view3d import RobotView
from robogui.app.view.view_parts import BATCH_PARTS


def _mvp(eye, target, up=(0, 0, 1), fov=40.0, aspect=1.6, ortho=False) -> np.ndarray:
    m = QtGui.QMatrix4x4()
    if ortho:
        m.ortho(-2 * aspect, 2 * aspect, -2, 2, 0.1, 100)
    else:
        m.perspective(fov, aspect, 0.1, 100)
    v = QtGui.QMatrix4x4()
    v.lookAt(QtGui.QVector3D(*eye), QtGui.QVector3D(*target), QtGui.QVector3D(*up))
    return np.array((m * v).data(), float).reshape(4, 4).T


def test_plane_covers_viewport():
    lim = (-10.0, 10.0)
    # looking down at a large floor: it fills the view
    assert plane_covers_viewport(_mvp((0, 0, 5), (0, 0, 0), up=(0, 1, 0)), 0.0, lim, lim)
    assert plane_covers_viewport(_mvp((0, 0, 5), (0, 0, 0), up=(0, 1, 0), ortho=True),
                                 0.0, lim, lim)
    # a small floor does not
    assert not plane_covers_viewport(_mvp((0, 0, 5), (0, 0, 0), up=(0, 1, 0)), 0.0,
                                     (-0.5, 0.5), (-0.5, 0.5))
    # looking at the horizon: the sky is in view
    assert not plane_covers_viewport(_mvp((0, -5, 1), (0, 0, 1)), 0.0, lim, lim)
    # the floor above the camera, or behind it
    assert not plane_covers_viewport(_mvp((0, 0, 5), (0, 0, 0), up=(0, 1, 0)), 6.0, lim, lim)
    assert not plane_covers_viewport(_mvp((0, 0, 5), (0, 0, 10), up=(0, 1, 0)), 0.0, lim, lim)


def test_software_renderer_names():
    assert is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)")
    assert is_software_renderer("softpipe")
    assert is_software_renderer("Mesa X11 swrast")
    assert not is_software_renderer("NVIDIA GeForce RTX 3060/PCIe/SSE2")
    assert not is_software_renderer("AMD Radeon RX 6800 (radeonsi, navi21, LLVM 15.0.6)")


def test_normal_matrices_are_inverse_transposes():
    rng = np.random.default_rng(1)
    M = np.tile(np.eye(4), (3, 1, 1))
    M[:, :3, :3] = rng.normal(size=(3, 3, 3))
    M[2, :3, :3] = 0.0  # singular: zeros, not an error
    N = normal_matrices(M)
    for k in range(2):
        assert N[k] @ M[k, :3, :3].T == pytest.approx(np.eye(3), abs=1e-9)
    assert not N[2].any()


def test_batched_item_draws_only_the_runs_of_shown_parts():
    tri = (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), np.array([[0, 1, 2]]))
    quad = (np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float),
            np.array([[0, 1, 2], [0, 2, 3]]))
    parts = [PartMesh(*tri, (1, 0, 0, 1), shadow=True), PartMesh(*quad, (0, 1, 0, 1)),
             PartMesh(*tri, (0, 0, 1, 1))]
    item = RobotMeshItem(parts)
    assert item._merged_runs(np.array([True, True, True])) == [(0, 12)]
    assert item._merged_runs(np.array([True, False, True])) == [(0, 3), (9, 3)]
    assert item._merged_runs(np.array([False, True, True])) == [(3, 9)]
    assert item._merged_runs(np.array([False, False, False])) == []
    with pytest.raises(ValueError, match="shape"):
        item.set_matrices(np.zeros((2, 4, 4)))
    with pytest.raises(ValueError, match="at least one"):
        RobotMeshItem([])


def test_batches_of_any_size_share_one_shader_program():
    # a program new to the process is compiled at its first draw (~0.1 s on llvmpipe):
    # the pedestal's 2 parts, a Panda's 11 and a full batch of 64 share one
    tri = (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), np.array([[0, 1, 2]]))
    items = [RobotMeshItem([PartMesh(*tri, (1, 0, 0, 1))] * k) for k in (2, 11, 64)]
    assert items[0]._shader is items[1]._shader is items[2]._shader


@pytest.fixture
def view(qtbot, session):
    v = RobotView(session)
    qtbot.addWidget(v)
    v.resize(640, 480)
    v.show()
    qtbot.waitExposed(v)
    return v


def test_parts_are_batched_64_to_an_item(view, session):
    # the robot's parts in as few batched items as the shader's arrays allow (each item
    # costs a software rasteriser ~1 ms a frame), plus floor, grid and pedestal
    batches = [i for i in view.items if isinstance(i, RobotMeshItem)]
    assert len(view._parts) > 8  # a frame's worth would have been one item each before
    assert len(batches) == -(-len(view._parts) // BATCH_PARTS) + 1  # + the pedestal
    for part in view._parts:
        assert part.item.batch in batches
        M = np.array(part.item.transform().data(), float).reshape(4, 4).T
        assert M == pytest.approx(session.frames[part.frame] @ part.local, abs=1e-5)


def test_skipping_a_floor_that_fills_the_view_changes_no_pixel(view, session, monkeypatch):
    view.set_camera("top")
    view.set_camera(distance=0.3 * view.opts["distance"])  # close: the floor fills the view
    img = view.grab_array().astype(int)
    assert view.scene._plane.skip
    floor = np.array(style.rgba(style.FLOOR)[:3]) * 255
    assert np.abs(img[2, 2] - floor).max() <= 2
    monkeypatch.setattr("robogui.app.view.view3d.plane_covers_viewport", lambda *a: False)
    drawn = view.grab_array().astype(int)
    assert not view.scene._plane.skip
    assert np.abs(img - drawn).max() <= 3


def test_drag_frames_then_one_multisampled_frame_once_still(view, session, qtbot):
    scene = view.scene
    # known once the window has a context: its first paint, maybe after the exposure
    qtbot.waitUntil(lambda: bool(scene.renderer), timeout=5000)
    if not scene.software:  # hardware GL: every frame is multisampled
        with qtbot.waitSignal(view.frameSwapped, timeout=3000):
            session.set_joint(1, 0.3)
        assert scene.last_frame_multisampled
        return
    scene.settle_ms = 600  # generous: a loaded machine still counts these as a drag
    for k in range(4):  # frames in quick succession, as in a slider drag
        with qtbot.waitSignal(view.frameSwapped, timeout=3000):
            session.set_joint(1, 0.1 * k, changing=True)
    assert not scene.last_frame_multisampled
    # still: one more frame, multisampled, replaces the last one
    qtbot.waitUntil(lambda: scene.last_frame_multisampled, timeout=5000)
    # grabs (screenshots, exports) are always multisampled: edges differ from a
    # single-sampled render, and only edges do
    def arr(img):
        img = img.convertToFormat(QtGui.QImage.Format.Format_RGB888)
        h, w, bpl = img.height(), img.width(), img.bytesPerLine()
        buf = np.frombuffer(img.constBits(), np.uint8, count=bpl * h).reshape(h, bpl)
        return buf[:, :3 * w].reshape(h, w, 3).astype(int)

    smooth, hard = arr(view.grab_image()), arr(scene.render_image(samples=0))
    edge = np.abs(smooth - hard).max(axis=2) > 8
    assert 50 < edge.sum() < 0.05 * edge.size


def test_an_opened_robot_is_drawn_single_sampled_first_then_antialiased(view, session,
                                                                         qtbot):
    # the first frame of a robot just opened is a draft (single-sampled: on llvmpipe the
    # multisampled frame is 0.1-0.2 s of a Panda's first open); the multisampled frame
    # follows at once, without waiting for the settle time of a moving view
    from robogui.io.robotfile import load_robot

    scene = view.scene
    qtbot.waitUntil(lambda: bool(scene.renderer), timeout=5000)
    frames = []
    view.frameSwapped.connect(lambda: frames.append(scene.last_frame_multisampled))
    # a moving view whose settled frame is due when the robot opens (the opening kept
    # the event loop busy past it)
    scene.pointer_held, scene.settle_ms = True, 1
    with qtbot.waitSignal(view.frameSwapped, timeout=3000):
        session.set_joint(1, 0.1, changing=True)
    scene.pointer_held = False
    time.sleep(0.05)
    scene.settle_ms = 5000  # the draft's antialiased frame must not wait for it
    frames.clear()
    session.set_robot(load_robot("stanford"))
    qtbot.waitUntil(lambda: True in frames, timeout=4000)
    if scene.software:
        assert frames[0] is False and frames.index(True) == 1
    # and an isolated change that is not a new scene is multisampled at once, as before
    scene.settle_ms = type(scene).settle_ms
    frames.clear()
    qtbot.wait(3 * scene.settle_ms)
    with qtbot.waitSignal(view.frameSwapped, timeout=3000):
        session.set_joint(1, 0.3)
    assert frames == [True]


def test_view_forwards_the_scene_interface(view):
    assert view.items is view.scene.items and view.opts is view.scene.opts
    assert gl_host.SceneContainer in type(view).__mro__
    with pytest.raises(AttributeError):
        view.no_such_attribute  # noqa: B018


def test_a_followed_stream_leaves_the_gui_thread_half_its_time(view, session, qtbot):
    # while streaming, a change right after a frame does not start the next frame at
    # once: it waits for a timer, until 1/30 s or twice the last frame's duration after
    # the last frame's start, whichever is later; the robot is then drawn at its newest
    scene = view.scene
    with qtbot.waitSignal(view.frameSwapped, timeout=3000):
        session.set_joint(1, 0.2, changing=True)
    assert scene._frame_ms > 0
    scene.streaming = True
    try:
        session.set_joint(1, 0.3, changing=True)
        assert scene._paced.isActive()
        gap = max(scene.stream_frame_ms, 2 * scene._frame_ms)
        assert scene._paced.remainingTime() <= gap + 1
        with qtbot.waitSignal(view.frameSwapped, timeout=3000):
            session.set_joint(1, 0.4, changing=True)  # coalesced into the paced frame
        assert view.scene._paced.isActive() is False
        top = [p for p in view._parts if p.frame == 2][0]
        M = np.array(top.item.transform().data(), float).reshape(4, 4).T
        assert M == pytest.approx(session.frames[2] @ top.local, abs=1e-5)
    finally:
        scene.streaming = False
    scene.streaming = False
    session.set_joint(1, 0.5, changing=True)  # not streaming: no pacing
    assert not scene._paced.isActive()


def test_the_buffers_of_a_removed_robot_item_are_freed_in_the_shared_gl_group(view, qtbot):
    # the app's GL contexts share one group that outlives every window: an item that is
    # gone (a robot replaced, a window closed) must not leave its vertex buffers there
    import gc

    from OpenGL import GL

    tri = (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), np.array([[0, 1, 2]]))
    item = RobotMeshItem([PartMesh(*tri, (1, 0, 0, 1))])
    view.addItem(item)
    with qtbot.waitSignal(view.frameSwapped, timeout=3000):
        view.update()
    vbo, ibo = item._buffers
    view.scene.makeCurrent()
    assert GL.glIsBuffer(vbo) and GL.glIsBuffer(ibo)
    view.removeItem(item)
    del item
    gc.collect()
    with qtbot.waitSignal(view.frameSwapped, timeout=3000):
        view.update()  # the robot's own item paints: the orphans go first
    view.scene.makeCurrent()
    assert not GL.glIsBuffer(vbo) and not GL.glIsBuffer(ibo)
def test_a_batched_item_keeps_a_light_copy_of_some_parts_beside_the_full_one():
    tri = (np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float), np.array([[0, 1, 2]]))
    quad = (np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], float),
            np.array([[0, 1, 2], [0, 2, 3]]))
    item = RobotMeshItem([PartMesh(*quad, (1, 0, 0, 1)), PartMesh(*quad, (0, 1, 0, 1))])
    assert not item.has_light and item.triangles() == item.triangles(light=True) == 4
    item.set_light({1: PartMesh(*tri, (0, 1, 0, 1))})  # part 1 lighter, part 0 as it is
    assert item.has_light and item.triangles(light=True) == 3
    light_runs = item._lights[0][2]
    assert item._merged_runs(np.array([True, True]), light_runs) == [(0, 9)]
    assert item._merged_runs(np.array([False, True]), light_runs) == [(6, 3)]
    item.set_shown([True, False])  # hidden parts are not counted in either copy
    assert item.triangles() == item.triangles(light=True) == 2
    item.set_light({})
    assert not item.has_light


def test_a_frame_is_a_moving_views_while_a_button_is_held_or_a_stream_followed(view, qtbot):
    scene = view.scene
    qtbot.waitUntil(lambda: bool(scene.renderer), timeout=10_000)  # known at its first paint
    if not scene.software:
        assert not scene._moving()  # hardware GL: every frame is whole
        return
    scene._last_paint = -1e9  # long still
    assert not scene._moving()
    scene.pointer_held = True
    assert scene._moving()
    scene.pointer_held, scene.streaming = False, True
    assert scene._moving()
    scene._settle_pending = True  # the settled frame is whole, whatever moves
    assert not scene._moving()
    scene._settle_pending, scene.streaming = False, False


def test_a_closed_view_frees_its_multisampled_framebuffer(qtbot, session):
    # its storage lives in the app's shared GL group, which outlives every window: freed
    # while the view's context still exists (it was ~12 MB kept per closed window)
    from PySide6 import QtCore

    v = RobotView(session)
    v.resize(400, 300)
    v.show()
    qtbot.waitExposed(v)
    scene = v.scene
    qtbot.waitUntil(lambda: bool(scene.renderer), timeout=5000)
    scene._settle_pending = True  # the next frame multisampled, on software GL too
    with qtbot.waitSignal(v.frameSwapped, timeout=3000):
        v.update()
    assert scene._msaa is not None
    v.close()
    v.deleteLater()
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete.value)
    assert scene._msaa is None
