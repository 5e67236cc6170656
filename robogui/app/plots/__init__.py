"""pyqtgraph plot panels: joint torques, manipulability and joint state along the
trajectory (and a live manipulability strip chart), synchronised with the playhead.

May import: widgets, the lower layers, and the app's base modules (style, bindings).
"""

from .base import PlotPanel
from .docks import PlotDocks, install_plot_docks
from .joint_state_panel import JointStatePanel
from .manipulability_panel import ManipulabilityPanel
from .torque_panel import TorquePanel
from .worker import AnalysisRunner

__all__ = ["PlotPanel", "TorquePanel", "ManipulabilityPanel", "JointStatePanel",
           "AnalysisRunner", "PlotDocks", "install_plot_docks"]
