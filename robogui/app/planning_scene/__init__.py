"""The work cell in the app (MoveIt's planning scene): the Cell panel (objects, their poses,
sizes and colours), picking objects in the view and moving them with the tool handle, and
the cell's files (open, save, recent cells, autosave).

May import: view, interaction, widgets, files, the lower layers, and the app's base modules
(style, bindings, undo).
"""
