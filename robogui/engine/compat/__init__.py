"""Other toolboxes' names and meanings, for porting scripts: MATLAB r6, roboticstoolbox-python's
model building, ROBOOP's member functions, small toolbox utilities.

May import: spatial, model, kinematics, dynamics, trajectory and the engine's base modules
(checks, bounds, files).
"""
