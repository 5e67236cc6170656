"""SpaceLib: G. Legnani's 4x4 matrix method for kinematics and dynamics, in numpy.

Position matrices M, velocity W, acceleration H and screw-axis L matrices, inertia
(pseudo-inertia) J and action Phi matrices, the transformation rules (``mami``,
``mamt``...), extended D-H ``dhtom``, Cardan/Euler angles, screws, points/lines/planes,
``dyn_eq`` and the serial-chain matrix method that Rob_Mat uses. Function names follow
SpaceLib (snake_case); docs/spacelib.md has the mapping. Axes are named by
``X, Y, Z, U = 0, 1, 2, 3`` (SpaceLib's C numbering) or by the strings ``"x" "y" "z"``.

May import: model (the Elbow robot as a Robot) and the engine's base modules (checks,
bounds, files).
"""

from .angles import (
    cardatog,
    cardatoh,
    cardatol,
    cardatom,
    cardator,
    cardatow,
    cardompt,
    cardtome,
    cardtoom,
    cardtowp,
    htocarda,
    inva,
    mtocarda,
    rtocarda,
    wtocarda,
)
from .chain import (
    Chain,
    ChainMotion,
    chain_actions,
    chain_from_dh,
    chain_from_robot,
    chain_motion,
    joint_actions,
)
from .dhtom import (
    dhtom,
    dhtomstd,
)
from .dynamics import (
    dyn_eq,
    free_two_body_step,
)
from .geometry import (
    aaxis,
    angle,
    distp,
    distpp,
    frame4p,
    frame4v,
    framep,
    framev,
    inter2pl,
    interlpl,
    intermed,
    intersec,
    line2p,
    linpvect,
    middle,
    plane,
    plane2,
    project,
    projponl,
    vect,
)
from .linear import (
    linears,
    minvers,
    solve_l,
    solve_linear,
)
from .matrices import (
    NOTOK,
    OK,
    Pri,
    Rev,
    U,
    X,
    Y,
    Z,
    action_vectors,
    actom,
    axis_index,
    coriolis,
    gtom,
    gtomgapt,
    invers,
    jtoj,
    makel,
    makel2,
    mami,
    mamt,
    miam,
    miamit,
    mtov,
    normal,
    normskew,
    pse_dot,
    pseudo_inertia,
    rotat2,
    rotat24,
    rotat34,
    skew,
    trac_ljl,
    traslat,
    traslat2,
    traslat24,
    vactowh2,
    vactowh3,
    veactowh,
    vtom,
    wtol,
    wtovel,
)
from .screws import (
    extract,
    mtoscrew,
    rotat,
    screwtom,
)

__all__ = [
    "cardator", "rtocarda", "cardatom", "mtocarda", "cardatol", "cardtoom", "cardtome",
    "cardatow", "cardompt", "cardtowp", "cardatog", "cardatoh", "inva", "wtocarda", "htocarda",
    "Chain", "ChainMotion", "chain_from_robot", "chain_from_dh", "chain_motion",
    "chain_actions", "joint_actions", "dhtom", "dhtomstd", "dyn_eq", "free_two_body_step",
    "aaxis", "framep", "frame4p", "framev", "frame4v", "angle", "distp", "intermed", "middle",
    "vect", "line2p", "linpvect", "intersec", "projponl", "distpp", "project", "plane",
    "plane2", "inter2pl", "interlpl", "X", "Y", "Z", "U", "Rev", "Pri", "OK", "NOTOK",
    "axis_index", "vtom", "mtov", "gtom", "gtomgapt", "actom", "action_vectors", "jtoj",
    "pseudo_inertia", "makel", "makel2", "wtol", "wtovel", "veactowh", "vactowh2", "vactowh3",
    "coriolis", "pse_dot", "skew", "trac_ljl", "mami", "miam", "mamt", "miamit", "invers",
    "normal", "normskew", "rotat2", "rotat24", "rotat34", "traslat", "traslat2", "traslat24",
    "rotat", "extract", "screwtom", "mtoscrew", "linears", "solve_l", "minvers",
    "solve_linear",
]
