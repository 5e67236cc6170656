"""Spatial maths (as Pinocchio's spatial/): rotations, homogeneous transforms, quaternions and
small motions, with spatialmath-python names.

May import: the engine's base modules only (checks, bounds, files).
"""
