"""The symbolic kinematics dialog (JFKengine): its tables of expressions, texts and exports.

May import: files, widgets, the lower layers, and the app's base modules (style, bindings, undo).
"""
