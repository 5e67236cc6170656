"""The work cell in the window, used as a person would: the Cell panel's buttons and typed
fields, the tool handle dragged on the real view, clicks that pick objects, File > Work cell
> Open cell on the sample, dropped meshes, undo; and the objects found in the pixels."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6 import QtCore, QtWidgets

from tests.app.interaction.test_handle import drag, send_mouse, settled

ASSETS = Path(__file__).resolve().parents[3] / "assets"
SAMPLE = ASSETS / "cells" / "pick-and-place.cell"


def type_into(qtbot, field, text: str) -> None:
    """Select what the field shows, type ``text`` and press Enter, as a person does."""
    edit = field.lineEdit()
    field.setFocus()
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, QtCore.Qt.Key.Key_Return)


def test_add_a_box_type_its_pose_drag_it_with_the_handle_and_undo(qtbot, window, session):
    tools = window.cell_tools
    panel = tools.panel
    tools.show_panel()
    qtbot.mouseClick(panel.add_buttons["box"], QtCore.Qt.MouseButton.LeftButton)
    assert session.cell is not None and session.cell.names == ("box",)
    assert panel.selected == "box" and tools.layer.selected == "box"
    box = session.cell.object("box")
    np.testing.assert_allclose(box.xyz, session.T[:3, 3], atol=1e-9)  # at the TCP
    # typed in the app's units (mm, deg by default)
    assert session.display.length_unit == "mm" and session.display.angle_unit == "deg"
    type_into(qtbot, panel.xyz_fields[0], "300")
    type_into(qtbot, panel.xyz_fields[1], "-400")
    type_into(qtbot, panel.xyz_fields[2], "0.1 m")
    type_into(qtbot, panel.rpy_fields[2], "90")
    box = session.cell.object("box")
    np.testing.assert_allclose(box.xyz, (0.3, -0.4, 0.1), atol=1e-12)
    np.testing.assert_allclose(box.rpy, (0, 0, np.pi / 2), atol=1e-12)
    # the tool handle sits on the chosen box; dragging its X arrow moves the box
    window.teach.jog.set_frame("world")
    origin, axes, size = settled(qtbot, window)
    np.testing.assert_allclose(origin, (0.3, -0.4, 0.1), atol=1e-9)  # world = view here
    q = session.q.copy()
    d = 0.1
    a = axes[0]
    drag(qtbot, window.view, [origin + (0.9 * size + s) * a for s in np.linspace(0, d, 11)])
    moved = session.cell.object("box")
    assert abs(moved.xyz[0] - 0.4) < 0.002 and abs(moved.xyz[1] + 0.4) < 1e-9
    np.testing.assert_array_equal(session.q, q)  # the robot stayed where it was
    assert abs(panel.xyz_fields[0].si_value() - moved.xyz[0]) < 1e-9  # the field follows
    # one undo step per drag, one per typed value, one for the Add
    stack = window.undo.stack
    assert stack.undoText() == "Move 'box'"
    window.act_undo.trigger()
    np.testing.assert_allclose(session.cell.object("box").xyz, (0.3, -0.4, 0.1), atol=1e-12)
    for _ in range(4):
        window.act_undo.trigger()
    assert session.cell.object("box").xyz == tuple(float(v) for v in session.T[:3, 3])
    window.act_undo.trigger()
    assert session.cell is None or session.cell.names == ()
    assert panel.selected is None
    # the handle is back on the TCP
    origin, _axes, _size = settled(qtbot, window)
    np.testing.assert_allclose(origin, session.T[:3, 3], atol=1e-9)


def test_panel_rename_hide_colour_delete_each_one_undo_step(qtbot, window, session,
                                                           monkeypatch):
    panel = window.cell_tools.panel
    window.cell_tools.show_panel()
    qtbot.mouseClick(panel.add_buttons["sphere"], QtCore.Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.add_buttons["cylinder"], QtCore.Qt.MouseButton.LeftButton)
    assert session.cell.names == ("sphere", "cylinder") and panel.selected == "cylinder"
    # rename in place: F2 on the row, type, Enter
    tree = panel.tree
    tree.setFocus()
    tree.setCurrentIndex(panel.model.index(0, 0))
    assert panel.selected == "sphere"
    qtbot.keyClick(tree, QtCore.Qt.Key.Key_F2)
    editor = tree.findChild(QtWidgets.QLineEdit)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "ball")
    qtbot.keyClick(editor, QtCore.Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: session.cell.names[0] != "sphere")  # the view commits queued
    assert session.cell.names == ("ball", "cylinder") and panel.selected == "ball"
    qtbot.mouseClick(panel.hide_button, QtCore.Qt.MouseButton.LeftButton)
    assert session.cell.object("ball").hidden and not window.cell_tools.layer.shown[0]
    from PySide6 import QtGui

    monkeypatch.setattr(QtWidgets.QColorDialog, "getColor",
                        staticmethod(lambda *a, **k: QtGui.QColor("#123456")))
    qtbot.mouseClick(panel.color_button, QtCore.Qt.MouseButton.LeftButton)
    assert session.cell.object("ball").color == "#123456"
    # the radius field, typed
    type_into(qtbot, panel.size_fields[0], "50")
    assert session.cell.object("ball").size == (0.05,)
    qtbot.mouseClick(panel.delete_button, QtCore.Qt.MouseButton.LeftButton)
    assert session.cell.names == ("cylinder",)
    texts = []
    stack = window.undo.stack
    for _ in range(5):
        texts.append(stack.undoText())
        window.act_undo.trigger()
    assert texts == ["Delete 'ball'", "Resize 'ball'", "Colour of 'ball'", "Hide 'ball'",
                     "Rename 'sphere' to 'ball'"]
    assert session.cell.names == ("sphere", "cylinder")
    assert not session.cell.object("sphere").hidden


def test_open_the_sample_cell_from_the_file_menu_and_see_it(qtbot, window, session,
                                                            monkeypatch, errors):
    tools = window.cell_tools
    window.open_robot("stanford")  # another robot: the cell's Puma comes with it
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(SAMPLE), "")))
    tools.actions["open"].trigger()
    assert errors == []
    assert window.library_name == "puma560" and len(session.cell.objects) == 12
    assert tools.dock.isVisible() and tools.panel.model.rowCount() == 12
    assert window.cell_tools.files.path == SAMPLE.resolve()
    assert window.settings.recent_cells()[0] == str(SAMPLE.resolve())
    # one undo step gives back the robot and no cell
    assert window.undo.stack.undoText() == "Open cell pick-and-place.cell"
    window.act_undo.trigger()
    assert session.cell is None and window.library_name == "stanford"
    window.act_redo.trigger()
    assert session.cell is not None and window.library_name == "puma560"
    # the drawn objects are in the pixels: the table top grey, the bins blue and orange
    view = window.view
    window.set_view("iso")
    qtbot.wait(30)
    img = view.grab_array().astype(int)
    base = session.cell.base

    def rgb(world):
        p = (np.linalg.inv(base) @ np.append(world, 1.0))[:3]
        x, y = np.round(view.project(p[None])[0]).astype(int)
        return img[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(axis=0)

    table = rgb((0.85, -0.5, 0.40))  # a corner of the table top, clear of the arm
    assert np.ptp(table) < 40 and table.mean() > 90, table  # lit grey, not the dark floor
    blue = rgb((0.5, 0.3, 0.41))  # bin A's bottom, by the part
    assert blue[2] > blue[0] + 40, blue
    orange = rgb((0.5, -0.3, 0.41))  # bin B's bottom
    assert orange[0] > orange[2] + 60, orange
    # a click on bin B's bottom chooses it in the panel; a click on the sky lets it go
    p = (np.linalg.inv(base) @ np.array([0.45, -0.3, 0.41, 1.0]))[:3]
    xy = view.project(p[None])[0]
    send_mouse(view, "press", xy)
    send_mouse(view, "release", xy)
    assert tools.panel.selected == "bin B bottom"
    send_mouse(view, "press", (5, 5))
    send_mouse(view, "release", (5, 5))
    assert tools.panel.selected is None


def test_a_mesh_dropped_on_the_view_becomes_an_object(qtbot, window, session, tmp_path,
                                                      errors):
    import trimesh

    from tests.app.shell.test_file_drop import _drop

    stl = tmp_path / "bracket.stl"
    trimesh.creation.box((0.1, 0.2, 0.05)).export(stl)
    assert _drop(qtbot, window.view.scene, [stl]) == (True, True)
    assert errors == [] and session.cell.names == ("bracket",)
    obj = session.cell.object("bracket")
    assert obj.shape == "mesh" and obj.mesh[0].shape[1] == 3
    np.testing.assert_allclose(np.ptp(obj.mesh[0], axis=0), (0.1, 0.2, 0.05), atol=1e-9)
    # saved with the cell, the mesh is copied beside it and the file reads back
    from robogui.session.planning_scene.cell_file import load_cell

    out = tmp_path / "saved" / "my.cell"
    out.parent.mkdir()
    assert window.cell_tools.files.save_to(out)
    back = load_cell(out)
    assert back.object("bracket").file == str(out.parent / "my-meshes" / "bracket.stl")
    np.testing.assert_allclose(back.object("bracket").mesh[0], obj.mesh[0])


def test_the_cell_is_autosaved_and_offered_back_after_a_crash(qtbot, window, session,
                                                              settings, errors):
    from robogui.app.shell.main_window import MainWindow
    from robogui.session import Session

    files = window.cell_tools.files
    qtbot.mouseClick(window.cell_tools.panel.add_buttons["capsule"],
                     QtCore.Qt.MouseButton.LeftButton)
    assert files.autosaver.dirty
    assert files.autosave_tick(now=1e9) and files.autosaver.path.is_file()
    # the process dies here (no save); the next start offers the cell back
    win2 = MainWindow(Session(session.robot), settings=settings, error_presenter=errors,
                      restore=False)
    qtbot.addWidget(win2)
    restore = win2.cell_tools.actions["restore"]
    assert restore.isEnabled() and "autosaved" in win2.statusBar().currentMessage()
    restore.trigger()
    assert win2.session.cell.names == ("capsule",) and not restore.isEnabled()
    win2.act_undo.trigger()  # one undo step
    assert win2.session.cell is None
    win2.close()


def test_a_cell_naming_a_robot_file_beside_it_opens_that_robot(qtbot, window, session,
                                                               tmp_path, errors):
    from robogui.io.robotfile import load_robot, save_robot

    save_robot(load_robot("stanford"), tmp_path / "arm.toml")
    text = SAMPLE.read_text().replace('robot = "puma560"', 'robot = "arm.toml"')
    (tmp_path / "mine.cell").write_text(text)
    assert window.cell_tools.files.open_cell(tmp_path / "mine.cell")
    assert errors == [] and window.robot_path == str((tmp_path / "arm.toml").resolve())
    assert session.robot.name == "Stanford arm" and len(session.cell.objects) == 12
    # Delete in the list deletes the chosen object (one undo step)
    panel = window.cell_tools.panel
    window.cell_tools.show_panel()
    panel.select("part")
    panel.tree.setFocus()
    qtbot.keyClick(panel.tree, QtCore.Qt.Key.Key_Delete)
    assert "part" not in session.cell.names
    window.act_undo.trigger()
    assert "part" in session.cell.names
    # a robot the cell names that does not open: the message, and nothing changes
    (tmp_path / "bad.cell").write_text(text.replace('"arm.toml"', '"no-such-robot"'))
    cell = session.cell
    assert not window.cell_tools.files.open_cell(tmp_path / "bad.cell")
    assert session.cell is cell and len(errors) == 1 and "no-such-robot" in errors[0][1]


def test_a_click_on_an_object_in_front_of_a_link_picks_the_object(qtbot, window, session):
    # the link picker sees clicks before the cell's: a link behind an object must not
    # take the click meant for the object (and a link in front still takes it)
    tools, view = window.cell_tools, window.view
    links = window.view_tools.links
    window.set_view("front")
    qtbot.wait(30)
    F = session.frames
    p = 0.5 * (F[2][:3, 3] + F[3][:3, 3])  # a point on the upper arm (world = view here)
    xy = view.project(p[None])[0]
    send_mouse(view, "press", xy)
    send_mouse(view, "release", xy)
    arm = links.selected
    assert arm is not None  # the link alone: picked
    links.show_selected(None)
    # a box between the camera and that point of the arm
    tools.show_panel()
    qtbot.mouseClick(tools.panel.add_buttons["box"], QtCore.Qt.MouseButton.LeftButton)
    eye = np.asarray(view.cameraPosition(), float)
    c = p + 0.35 * (eye - p) / np.linalg.norm(eye - p)
    for field, v in zip(tools.panel.xyz_fields, c, strict=True):
        type_into(qtbot, field, f"{v:.4f} m")
    np.testing.assert_allclose(session.cell.object("box").xyz, c, atol=1e-4)
    tools.panel.select(None)
    qtbot.wait(30)
    xy = view.project(p[None])[0]
    send_mouse(view, "press", xy)
    send_mouse(view, "release", xy)
    assert tools.panel.selected == "box"
    assert links.selected is None
    # moved behind the arm, the box leaves the click to the link again
    c = p - 0.35 * (eye - p) / np.linalg.norm(eye - p)
    for field, v in zip(tools.panel.xyz_fields, c, strict=True):
        type_into(qtbot, field, f"{v:.4f} m")
    tools.panel.select(None)
    qtbot.wait(30)
    send_mouse(view, "press", xy)
    send_mouse(view, "release", xy)
    assert links.selected == arm
