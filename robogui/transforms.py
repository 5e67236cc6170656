"""Public home of the rotation and transform functions (spatialmath-python names).

``from robogui.transforms import rotx, trotx, rpy2tr, UnitQuaternion`` - the functions live
in :mod:`robogui.engine.transforms` and :mod:`robogui.engine.quaternion`; both this module
and :mod:`robogui.engine.transforms` export the same names, ``UnitQuaternion`` included.
"""

from robogui.engine.transforms import *  # noqa: F403
from robogui.engine.transforms import __all__ as _transform_names

__all__ = list(_transform_names)
