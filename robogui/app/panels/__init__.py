"""Docked panels beside the view: joints (drivebot), pose, chain, singularities, workspace, the
D-H table and the annotation size.

May import: view, widgets, the lower layers, and the app's base modules (style, bindings, undo).
"""
