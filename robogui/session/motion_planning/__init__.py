"""Motion planning (MoveIt's word): collision-free joint paths through the work cell with
OMPL's RRT-Connect and OMPL's path simplifier, every straight joint segment checked
continuously (no link point moves more than 2 mm between checks); planning a joint move of a
teach program around the cell.

May import: planning_scene, teach, the engine, io, and the session's base modules
(observable, units).
"""
