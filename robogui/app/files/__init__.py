"""Robot library and robot files in the app: picking a robot, opening a file, legacy imports,
and reporting a bad file.

May import: widgets, the lower layers, and the app's base modules (style, bindings, undo).
"""
