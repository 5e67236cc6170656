"""Collision detection (as Pinocchio's collision/ and MoveIt's collision_detection): a robot's
collision geometry in its link frames, the allowed pairs, and batched checks and distances
against the cell's objects through coal (broad phase by bounding spheres, narrow phase coal).

May import: spatial, model, kinematics, and the engine's base modules (checks, bounds, files,
limits, mesh_guard).
"""
