"""Motion along time: trajectories for the timeline, the playback cursor, quantities along a
trajectory for the plots, and curves reduced to screen resolution.

May import: explain, the engine, io, and the session's base modules (observable, units).
"""
