"""The main window and what it wires together: menus, tasks, presentation and full-screen modes,
settings, tooltips, the user guide, dropped files, uncaught errors.

May import: every other room of the app (nothing imports shell back), and the lower layers.
"""
