"""The teach pendant's state: programs and their files, Cartesian jogging, go-to targets,
compiling a program into a trajectory, pre-flight checks (collisions with the cell among them),
autosave.

May import: explain, motion, planning_scene, the engine, io, and the session's base modules
(observable, units).
"""
