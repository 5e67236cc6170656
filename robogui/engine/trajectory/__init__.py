"""Trajectories: joint-space polynomials, trapezoidal profiles, via-point paths, Cartesian lines,
and the Trajectory container with its CSV files.

May import: spatial and the engine's base modules (checks, bounds, files).
"""
