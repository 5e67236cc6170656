"""Small reusable Qt widgets: the numeric field that takes typed values with units, non-modal
message boxes, docking helpers.

May import: the session, engine and io layers, and the app's base modules (style, bindings, undo).
"""
