"""Driving the robot from the 3D view: the tool handle, grabbing links, and what the main window
adds to its view for them.

May import: view, widgets, the lower layers, and the app's base modules (style, bindings, undo).
"""
