"""The work cell around the robot (MoveIt's planning scene): the immutable Cell of named objects,
its TOML file, and collision checks of a robot in its cell (batched, Qt-free).

May import: motion, the engine, io, and the session's base modules (observable, units).
"""
