"""The plot docks of the main window: torques, manipulability, joint state and clearance.

``install_plot_docks(window, session)`` creates one :class:`AnalysisRunner` shared by
the four panels and docks them (tabbed) in the bottom area of ``window``; the main
window calls it once. :meth:`PlotDocks.close` disconnects everything from the session.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6 import QtCore, QtGui, QtWidgets

from ..widgets.docking import dock_panel
from .clearance_panel import ClearancePanel
from .joint_state_panel import JointStatePanel
from .manipulability_panel import ManipulabilityPanel
from .torque_panel import TorquePanel
from .worker import AnalysisRunner

__all__ = ["PlotDocks", "install_plot_docks", "PLOT_DOCK_TITLES"]

#: the plot docks' titles (their object names follow): a window may create them as
#: placeholders before the panels exist (see MainWindow), and they are filled here
PLOT_DOCK_TITLES = ("Torques", "Manipulability", "Joint state", "Clearance")


@dataclass
class PlotDocks:
    """The installed plot panels, their docks and the shared analysis runner."""

    runner: AnalysisRunner
    torque: TorquePanel
    manipulability: ManipulabilityPanel
    joint_state: JointStatePanel
    docks: dict[str, QtWidgets.QDockWidget] = field(default_factory=dict)
    _closed: bool = False
    clearance: ClearancePanel | None = None  # issue 24: the smallest distance to the cell

    @property
    def panels(self) -> list:
        extra = [self.clearance] if self.clearance is not None else []
        return [self.torque, self.manipulability, self.joint_state, *extra]

    def view_actions(self) -> list[QtGui.QAction]:
        """Show/hide actions of the docks, for the View menu."""
        return [d.toggleViewAction() for d in self.docks.values()]

    def close(self) -> None:
        """Disconnect the panels and the runner from the session; cancel any analysis."""
        if self._closed:
            return
        self._closed = True
        for panel in self.panels:
            panel.close_panel()
        self.runner.close()


def _close_quietly(plot_docks: PlotDocks) -> None:
    try:
        plot_docks.close()
    except RuntimeError:  # "Internal C++ object already deleted"
        pass


def install_plot_docks(window: QtWidgets.QMainWindow, session, *,
                       area=QtCore.Qt.DockWidgetArea.BottomDockWidgetArea,
                       tabbed: bool = True) -> PlotDocks:
    """Create the plot panels for ``session`` and dock them in ``window``.

    The docks are tabbed together (torques in front) unless ``tabbed`` is False.
    The analysis of the session's current trajectory starts at once.
    """
    runner = AnalysisRunner(session, parent=window)
    torque = TorquePanel(session, runner)
    manip = ManipulabilityPanel(session, runner)
    state = JointStatePanel(session, runner)
    clearance = ClearancePanel(session, runner)
    docks = {
        "torques": dock_panel(window, torque, PLOT_DOCK_TITLES[0], area),
        "manipulability": dock_panel(window, manip, PLOT_DOCK_TITLES[1], area),
        "joint_state": dock_panel(window, state, PLOT_DOCK_TITLES[2], area),
        "clearance": dock_panel(window, clearance, PLOT_DOCK_TITLES[3], area),
    }
    if tabbed and not any(d.property("roboguiPlaceholderFilled") for d in docks.values()):
        first, *rest = docks.values()
        for d in rest:
            window.tabifyDockWidget(first, d)
        first.raise_()
    plot_docks = PlotDocks(runner, torque, manip, state, docks, clearance=clearance)
    # on the window's destruction the panels' own Subscriptions already disconnect;
    # this stops a running analysis early (its C++ side may be gone by then)
    window.destroyed.connect(lambda *_: _close_quietly(plot_docks))
    runner.request()
    return plot_docks
