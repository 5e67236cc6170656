"""Robot library and robot files in the app: picking a robot, opening a file, the robot
gallery and its thumbnails, legacy imports, and reporting a bad file.

May import: widgets, view (the off-screen renderer draws the gallery's thumbnails), the
lower layers, and the app's base modules (application, style, bindings, undo).
"""
