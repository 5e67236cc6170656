"""The remote API without a window: JSON messages, their validation and errors, applying
requests to a Session, the events sent back, and the live link (Follow, Record).

May import: teach, motion, planning_scene, the engine, io, and the session's top modules (session,
observable, validation).
"""
