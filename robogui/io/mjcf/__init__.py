"""MuJoCo's MJCF: models compiled by the ``mujoco`` package, turned into a serial arm with
its masses, the flange as tip, and its meshes and materials as visuals.

May import: the engine, and the io's base modules (file_error, tip_names).
"""
