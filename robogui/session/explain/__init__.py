"""What the arm is doing, in numbers and words: the pose readout, arm configuration, joint axes,
singularities, the chain step-through, D-H frames and editing, ellipsoids, the workspace.

May import: the engine, io, and the session's base modules (observable, units).
"""
