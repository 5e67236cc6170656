"""The 3D view: the GL scene, its camera, labels and robot items, the fast GL host, off-screen
rendering of pictures and videos, and overlays drawn on the robot.

May import: widgets, the lower layers, and the app's base modules (application, style,
bindings, undo).
"""
