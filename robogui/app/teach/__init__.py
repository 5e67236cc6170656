"""The teach pendant: jogging, tool, go-to targets with ghosts, programs, and the timeline.

``install_teach_pendant(window, session)`` builds everything for a main window: the
:class:`~robogui.session.teach.teach.TeachState`, the docks (Jog + Tool, Go to, Program),
the timeline under the 3D view, ghost robots and the end-effector trail in the view,
planning a joint move around the cell (the Program dock's row), and the start-up offer to
recover an autosaved program.

May import: view (ghosts, renders), widgets, the lower layers, and the app's base modules
(style, bindings, undo).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from robogui.session.teach.teach import TeachState

from ..widgets.docking import dock_panel
from .ghosts import GhostLayer, TrailLayer
from .gripper_box import GripperBox
from .jog_panel import JogPanel
from .move_planning import MovePlanner
from .program_panel import ProgramPanel
from .target_panel import TargetPanel
from .timeline import Timeline
from .tool_editor import ToolEditor

__all__ = ["TeachPendant", "install_teach_pendant", "default_autosave_path", "JogPanel",
           "ToolEditor", "TargetPanel", "ProgramPanel", "Timeline", "GhostLayer",
           "TrailLayer", "GripperBox", "MovePlanner"]


def default_autosave_path() -> Path:
    """Where the current program is autosaved (the user's application data folder)."""
    base = QtCore.QStandardPaths.writableLocation(
        QtCore.QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or Path.home() / ".robogui") / "autosave.prog"


@dataclass
class TeachPendant:
    """Everything :func:`install_teach_pendant` created."""

    state: TeachState
    jog: JogPanel
    tool: ToolEditor
    target: TargetPanel
    program: ProgramPanel
    timeline: Timeline
    ghosts: GhostLayer | None
    trail: TrailLayer | None
    docks: dict[str, QtWidgets.QDockWidget] = field(default_factory=dict)
    recovery_offered: bool = False
    gripper: GripperBox | None = None
    planner: MovePlanner | None = None  # Plan around the cell (the Program dock's row)

    def view_actions(self) -> list:
        """Show/hide actions of the pendant's docks (for the View menu)."""
        return [d.toggleViewAction() for d in self.docks.values()]

    def close(self) -> None:
        self.jog.stop_continuous()
        if self.planner is not None:
            self.planner.cancel()
        self.state.session.pause()
        if self.state.autosaver is not None:
            try:
                self.state.autosaver.save_now()
            except OSError:
                pass
        self.state.close()


class _PanelScroll(QtWidgets.QScrollArea):
    """A vertical scroll area that asks its dock for the height its panel wants.

    A plain QScrollArea hints a fixed ~340 x 340, so the main window's dock layout gave
    the Jog dock a sixth of the right column under the pose readout (only the -X/+X row
    in sight at 1600 x 1000). A saved window layout still wins over this hint.
    """

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802
        inner = self.widget().sizeHint() if self.widget() is not None else QtCore.QSize()
        base = super().sizeHint()
        extra = self.verticalScrollBar().sizeHint().width()
        return QtCore.QSize(max(base.width(), inner.width() + extra),
                            max(inner.height() + 2 * self.frameWidth(), 120))


def _scroll(widget: QtWidgets.QWidget) -> QtWidgets.QScrollArea:
    area = _PanelScroll()
    area.setWidgetResizable(True)
    area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
    # panels follow the dock's width (no sideways scrolling), scroll only vertically
    area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    return area


def install_teach_pendant(window: QtWidgets.QMainWindow, session, *, autosave_path=None,
                          offer_recovery: bool = True, error_presenter=None, clock=None
                          ) -> TeachPendant:
    """Add the teach pendant to ``window`` (a robogui MainWindow with ``window.view``).

    ``autosave_path`` defaults to :func:`default_autosave_path` (pass False to disable
    autosave); ``error_presenter(title, text)`` defaults to the window's; ``clock``
    (monotonic seconds) is injectable for tests. The timeline goes under the 3D view.
    """
    if autosave_path is None:
        autosave_path = default_autosave_path()
    elif autosave_path is False:
        autosave_path = None
    present = (error_presenter if error_presenter is not None
               else getattr(window, "error_presenter", None))
    state = TeachState(session, autosave_path)
    view = getattr(window, "view", None)
    kw = {} if clock is None else {"clock": clock}

    jog = JogPanel(session, **kw)
    tool = ToolEditor(session)
    target = TargetPanel(session, state)
    program = ProgramPanel(session, state, error_presenter=present)
    timeline = Timeline(session, view, error_presenter=present, **kw)

    jog_page = QtWidgets.QWidget()
    jl = QtWidgets.QVBoxLayout(jog_page)
    jl.setContentsMargins(0, 0, 0, 0)
    jl.addWidget(jog)
    tool_box = QtWidgets.QGroupBox("Tool (TCP) relative to the flange")
    QtWidgets.QVBoxLayout(tool_box).addWidget(tool)
    jl.addWidget(tool_box)
    gripper = GripperBox(session, state)  # grasp / release while driving (a work cell)
    jl.addWidget(gripper)
    jl.addStretch(1)

    right = QtCore.Qt.DockWidgetArea.RightDockWidgetArea
    docks = {"jog": dock_panel(window, _scroll(jog_page), "Jog", right),
             "target": dock_panel(window, _scroll(target), "Go to", right),
             "program": dock_panel(window, _scroll(program), "Program", right)}
    # tabbed in one column: robogui's main window shows them as its Teach task
    # (app/shell/tasks.py), which lays them out and remembers where the user put them
    window.tabifyDockWidget(docks["jog"], docks["target"])
    window.tabifyDockWidget(docks["jog"], docks["program"])
    docks["jog"].raise_()

    ghosts = trail = None
    if view is not None:
        ghosts = GhostLayer(view, session, state)
        trail = TrailLayer(view, session)
        timeline.install_keys(view)
        # the timeline sits directly under the 3D view, inside the central area
        central = window.takeCentralWidget()
        box = QtWidgets.QWidget()
        vl = QtWidgets.QVBoxLayout(box)
        vl.setContentsMargins(0, 0, 0, 0)
        vl.setSpacing(0)
        vl.addWidget(central, 1)
        vl.addWidget(timeline)
        window.setCentralWidget(box)
    else:
        docks["timeline"] = dock_panel(window, timeline, "Timeline",
                                  QtCore.Qt.DockWidgetArea.BottomDockWidgetArea)

    pendant = TeachPendant(state, jog, tool, target, program, timeline, ghosts, trail, docks,
                           gripper=gripper)
    pendant.planner = MovePlanner(session, state, program, view)
    if offer_recovery and program.offer_recovery():
        pendant.recovery_offered = True
        docks["program"].raise_()
    window.destroyed.connect(lambda *_: state.close())
    return pendant
