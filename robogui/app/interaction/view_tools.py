"""What the main window adds to its 3D view to drive the robot from it.

:func:`install_view_tools` puts in the TCP handle (driving the robot through the jog's
IK, in the jog panel's frame), the go-to target's handle (moving the target the Go-to
panel previews), and the labels that let you read positions off the view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6 import QtGui, QtWidgets

from robogui.session.explain import readout
from robogui.session.teach.targets import xyz_rpy_from_pose

from ..view.view_labels import ViewLabels
from .handle import HandleController
from .link_pick import LinkPicker

__all__ = ["ViewTools", "install_view_tools", "GoToTarget"]


class GoToTarget:
    """The go-to target as a handle's target: dragging moves the previewed pose."""

    def __init__(self, panel):
        self.panel = panel

    def pose(self) -> np.ndarray | None:
        return self.panel.target_pose() if self.panel.solution is not None else None

    def begin(self) -> None:
        pass

    def drag_to(self, T_goal: np.ndarray) -> str | None:
        self.panel.set_pose(*xyz_rpy_from_pose(T_goal))  # solves IK, shows the ghosts
        sol = self.panel.solution
        return None if sol is None or sol.success else sol.message

    def end(self, text: str) -> None:
        pass  # the target is a preview, not a change of the robot: nothing to undo


@dataclass
class ViewTools:
    """The tools :func:`install_view_tools` added to a window's view."""

    handle: HandleController
    links: LinkPicker
    labels: ViewLabels
    target_handle: HandleController | None = None


def install_view_tools(window) -> ViewTools:
    """Add the handles (and labels) to ``window.view`` for ``window.session``."""
    view, session, teach = window.view, window.session, window.teach

    def frame() -> str:
        return teach.jog.frame if teach is not None else "world"

    handle = HandleController(view, session, frame=frame)
    target_handle = None
    if teach is not None:
        teach.jog.frame_group.buttonToggled.connect(lambda *_: view.update())
        target_handle = HandleController(view, session, GoToTarget(teach.target),
                                         frame=frame, alpha=0.55, depth=99)
        teach.state.events.ghosts.connect(lambda _g: view.update())
    # after the handles: a handle under the mouse wins over the link behind it
    links = LinkPicker(view, session, on_select=window.joint_panel.select,
                       menu=lambda j, f, menu: fill_link_menu(window, j, f, menu))
    window.joint_panel.jointChosen.connect(links.show_selected)  # a row chosen: its link
    labels = ViewLabels(view, session, teach.state if teach is not None else None)
    return ViewTools(handle, links, labels, target_handle)


def fill_link_menu(window, j: int, frame: int, menu: QtWidgets.QMenu) -> None:
    """The right-click menu of the link on ``frame`` (moved by joint ``j``)."""
    view, session, teach = window.view, window.session, window.teach
    if teach is not None:
        menu.addAction("Record a waypoint here", teach.program.record)

        def go_to():
            window.tasks.switch("teach")
            teach.docks["target"].raise_()
            teach.target.fill_current()  # previewed: its handle appears at the TCP

        menu.addAction("Make this pose the go-to target", go_to)
    show = menu.addAction(f"Show the frame of link {frame}")
    show.setCheckable(True)
    show.setChecked(frame in view.scene.frames_shown)
    show.toggled.connect(lambda on: view.scene.show_frame(frame, on))

    def copy():
        d = session.display
        text = readout.pose_text(session.frames[frame], orientation_kind=d.orientation,
                                 angle_unit=d.angle_unit, length_unit=d.length_unit)
        QtGui.QGuiApplication.clipboard().setText(f"frame {frame}\n{text}")

    menu.addAction(f"Copy the pose of frame {frame}", copy)
