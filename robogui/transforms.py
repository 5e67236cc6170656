"""Public home of the rotation and transform functions (spatialmath-python names).

``from robogui.transforms import rotx, trotx, rpy2tr, UnitQuaternion`` - the functions live
in :mod:`robogui.engine.transforms` and :mod:`robogui.engine.quaternion`.
"""

from robogui.engine.quaternion import UnitQuaternion
from robogui.engine.transforms import *  # noqa: F403
from robogui.engine.transforms import __all__ as _transform_names

__all__ = [*_transform_names, "UnitQuaternion"]
