"""Geometry the 3D view needs, without Qt: picking links, the tool handle, visual meshes (the
mesh files read and kept, their looks, the drawn meshes and their drafts), scene size,
geometry that follows a mimic joint, companion robots; the level of detail (light copies
of the meshes and the governor that picks one from measured frame times).

May import: explain, teach, the engine, io, and the session's base modules (observable, units).
"""
