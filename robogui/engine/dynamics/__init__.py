"""Rigid-body dynamics: inverse dynamics (generated RNE programs), its linearisation, forward
dynamics and integration, and the manipulability measures that need the inertia matrix.

May import: spatial, model, kinematics, trajectory and the engine's base modules (checks,
bounds, files).
"""
