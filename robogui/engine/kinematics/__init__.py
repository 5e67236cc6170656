"""Forward and inverse kinematics, Jacobians, recursive algorithms for long chains and symbolic
kinematics (JFKengine), batched over joint states.

May import: spatial, model and the engine's base modules (checks, bounds, files).
"""
