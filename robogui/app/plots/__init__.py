"""pyqtgraph plot panels: joint torques, manipulability, joint state and the clearance to the
work cell along the trajectory (and a live manipulability strip chart), synchronised with
the playhead.

May import: widgets, the lower layers, and the app's base modules (style, bindings).
"""

from .base import PlotPanel
from .clearance_panel import ClearancePanel
from .docks import PlotDocks, install_plot_docks
from .joint_state_panel import JointStatePanel
from .manipulability_panel import ManipulabilityPanel
from .torque_panel import TorquePanel
from .worker import AnalysisRunner

__all__ = ["PlotPanel", "TorquePanel", "ManipulabilityPanel", "JointStatePanel",
           "ClearancePanel", "AnalysisRunner", "PlotDocks", "install_plot_docks"]
