"""Geometry the 3D view needs, without Qt: picking links, the tool handle, visual meshes, scene
size, geometry that follows a mimic joint, companion robots.

May import: explain, teach, the engine, io, and the session's base modules (observable, units).
"""
