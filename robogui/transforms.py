"""Public home of the rotation and transform functions (spatialmath-python names).

``from robogui.transforms import rotx, trotx, rpy2tr, UnitQuaternion`` - the functions live
in :mod:`robogui.engine.spatial.transforms` and :mod:`robogui.engine.spatial.quaternion`;
both this module and :mod:`robogui.engine.spatial.transforms` export the same names,
``UnitQuaternion`` included.
"""

from robogui.engine.spatial.transforms import *  # noqa: F403
from robogui.engine.spatial.transforms import __all__ as _transform_names

__all__ = list(_transform_names)
