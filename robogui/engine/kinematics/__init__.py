"""Forward and inverse kinematics (numeric, and closed form for arms with a spherical wrist or
of UR type, read off the joint axes), Jacobians, recursive algorithms for long chains and
symbolic kinematics (JFKengine), batched over joint states.

May import: spatial, model and the engine's base modules (checks, bounds, files).
"""
