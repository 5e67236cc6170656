"""Trajectory processing (MoveIt's word): joint motion limits, the geometry of taught paths
(lines, circles through a via point, blended corners) and their time-optimal timing with
TOPP-RA (PyPI ``toppra``) within velocity, acceleration, tool-speed and torque limits.

May import: spatial, model, kinematics, trajectory, dynamics and the engine's base modules
(checks, bounds, files).
"""
