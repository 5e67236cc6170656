"""The work cell in the 3D view: objects appear in the pixels in their colours, lit, at their
poses (moved by transforms only), hidden ones are not drawn, objects in contact are red."""

from __future__ import annotations

import numpy as np
import pytest

from robogui.app import style
from robogui.app.view.cell_items import CONTACT_COLOR, CellLayer
from robogui.app.view.view3d import RobotView
from robogui.session import Session
from robogui.session.planning_scene.cell import Cell, CellObject

GREEN = "#20c040"


@pytest.fixture
def view(qtbot, session):
    v = RobotView(session)
    qtbot.addWidget(v)
    v.resize(640, 480)
    v.show()
    qtbot.waitExposed(v)
    session.display.update(show_shadow=False, show_name=False)
    return v


def pixel(view, point) -> np.ndarray:
    img = view.grab_array().astype(int)
    x, y = np.round(view.project(np.asarray(point, float)[None])[0]).astype(int)
    return img[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).mean(axis=0)


def greenish(rgb) -> bool:
    return rgb[1] > 1.4 * rgb[0] and rgb[1] > 1.4 * rgb[2] and rgb[1] > 80


def test_a_box_is_drawn_in_its_colour_where_it_stands_and_moves_by_its_pose(view, session):
    layer = CellLayer(view, session)
    # a block in front of the robot (its base frame at the shoulder: world = view here)
    box = CellObject("block", "box", (0.3, 0.3, 0.3), xyz=(0.0, -0.9, -0.3), color=GREEN)
    session.set_cell(Cell((box,), floor_z=-0.8))  # the floor below the Puma's reach
    view.fit_to_robot()
    items = layer.items
    assert len(items) == 1 and items[0] in view.items
    centre = np.array([0.0, -0.9, -0.3])
    assert greenish(pixel(view, centre + [0, 0, 0.15]))  # its top face: lit green
    # moved: same GL item, new place
    session.set_cell(session.cell.with_object(box.moved(xyz=(0.0, -0.9, 0.5))))
    assert layer.items[0] is items[0]
    assert not greenish(pixel(view, centre + [0, 0, 0.15]))
    assert greenish(pixel(view, (0.0, -0.9, 0.65)))
    # hidden: not drawn
    session.set_cell(Cell((CellObject("block", "box", (0.3, 0.3, 0.3), xyz=(0.0, -0.9, 0.5),
                                      color=GREEN, hidden=True),), floor_z=-0.8))
    assert layer.items[0] is items[0]
    assert not greenish(pixel(view, (0.0, -0.9, 0.65)))
    # a new size is new geometry: built again
    session.set_cell(session.cell.replaced(objects=(
        CellObject("block", "sphere", (0.2,), xyz=(0, -0.9, 0.5), color=GREEN),)))
    assert layer.items[0] is not items[0] and items[0] not in view.items
    assert greenish(pixel(view, (0.0, -0.9, 0.5)))
    # the robot rebuilt (another tool): the cell is drawn again
    tool = np.eye(4)
    tool[2, 3] = 0.05
    session.set_tool(tool)
    assert layer.items[0] in view.items and greenish(pixel(view, (0.0, -0.9, 0.5)))


def test_the_cell_base_places_the_robot_and_objects_in_contact_are_red(qtbot, puma):
    class Touching(Session):
        collisions = property(lambda self: self._fake)

    session = Touching(puma)
    session._fake = None
    view = RobotView(session)
    qtbot.addWidget(view)
    view.resize(640, 480)
    view.show()
    qtbot.waitExposed(view)
    session.display.update(show_shadow=False, show_name=False)
    layer = CellLayer(view, session)
    # the robot on a 0.67 m pedestal: an object at world z = 0.37 is 0.3 m below the base
    cell = Cell((CellObject("block", "box", (0.3, 0.3, 0.3), xyz=(0.0, -0.9, 0.37),
                            color=GREEN),), base_xyz=(0, 0, 0.67))
    session.set_cell(cell)
    view.fit_to_robot()
    np.testing.assert_allclose(layer.view_pose("block")[:3, 3], [0, -0.9, -0.3], atol=1e-12)
    top = (0.0, -0.9, -0.15)
    assert greenish(pixel(view, top))
    session._fake = type("Report", (), {"pairs": [[("link2", "block")]]})()
    session.set_q(session.q + 0.01)  # a new state: the report is read again
    rgb = pixel(view, top)
    red = np.array(style.rgba(CONTACT_COLOR)[:3]) * 255
    assert rgb[0] > 1.5 * rgb[1] and rgb[0] > 1.5 * rgb[2], rgb
    assert layer.contacts == {"link2", "block"}
    assert np.allclose(layer.tints[0, :3] * 255, red)


def test_the_view_floor_is_the_cells_floor(view, session):
    layer = CellLayer(view, session)
    default = view.floor_z
    session.set_cell(Cell(base_xyz=(0, 0, 0.67), floor_z=0.0))
    assert view.floor_z == pytest.approx(-0.67)  # world z = 0 in the robot's base frame
    assert layer.items == []  # no objects, nothing drawn
    session.set_cell(Cell((CellObject("crate", "box", (0.2, 0.2, 0.2), xyz=(0.5, 0, 0.1),
                                      color=GREEN),), base_xyz=(0, 0, 0.67)))
    assert view.floor_z == pytest.approx(-0.67) and layer.items[0] in view.items
    session.set_cell(None)
    assert view.floor_z == pytest.approx(default) and layer.items == []


def test_a_part_carried_by_the_trajectory_is_drawn_where_object_poses_puts_it(view, session):
    layer = CellLayer(view, session)
    cell = Cell((CellObject("table", "box", (0.5, 0.5, 0.05), xyz=(0.6, 0, -0.3)),
                 CellObject("part", "sphere", (0.03,), xyz=(0.6, 0, -0.25))), floor_z=-0.8)
    session.set_cell(cell)

    class Carrying:  # a trajectory whose part rides on the tool from t = 0.5 s
        t = np.array([0.0, 1.0])
        q = np.stack([session.q, session.q + 0.3])

        def carried_poses(self, t, tcp):
            return {"part": tcp} if t >= 0.5 else {}

    session.set_trajectory(Carrying())
    session.set_time(0.2, changing=False)
    np.testing.assert_allclose(layer.view_pose("part"), cell.object("part").T, atol=1e-12)
    session.set_time(0.8, changing=False)
    np.testing.assert_allclose(layer.view_pose("part"), session.T, atol=1e-12)
    np.testing.assert_allclose(layer.view_pose("table"), cell.object("table").T, atol=1e-12)
