"""Robot files: reading, malformed files, units, exact round trips and atomic saving."""

import math
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.engine.spatial.transforms import rpy2tr
from robogui.io.robotfile import (
    RobotFileError,
    load_robot,
    robot_from_toml,
    robot_to_toml,
    save_robot,
)

VALID = """\
format = "robogui-robot 1"
name = "test arm"
manufacturer = "nobody"
source = "made up for the tests"
convention = "standard"
units = "deg"
length_units = "m"
gravity = [0, 0, -9.81]

[tool]
xyz = [0, 0, 0.1]

[poses]
qz = [0, 0, 0]
qr = [90, -45, 0.2]

[[links]]
joint = "R"
d = 0.4
a = 0
alpha = 90
qlim = [-90, 90]
m = 2.0
r = [0, 0.1, 0]
I = [0.1, 0.2, 0.3, 0, 0, 0]

[[links]]
joint = "R"
d = 0
a = 0.5
alpha = 0
Tc = 0.5

[[links]]
joint = "P"
theta = 0
a = 0
alpha = 0
qlim = [0, 0.3]
"""


def write(tmp_path, text, name="arm.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def replace_in_link(text, link, old, new):
    """Replace ``old`` by ``new`` inside the link-th [[links]] table (1-based)."""
    parts = text.split("[[links]]")
    assert old in parts[link], (old, parts[link])
    parts[link] = parts[link].replace(old, new, 1)
    return "[[links]]".join(parts)


# -- a valid file ---------------------------------------------------------------------
def test_valid_file_values_and_unit_conversion(tmp_path):
    r = load_robot(write(tmp_path, VALID))
    assert r.name == "test arm" and r.manufacturer == "nobody" and r.n == 3
    assert r.structure == "RRP" and not r.is_mdh
    L1, L2, L3 = r.links
    assert L1.alpha == math.pi / 2 and L1.qlim == (-math.pi / 2, math.pi / 2)
    assert L1.d == 0.4 and L1.m == 2.0 and np.array_equal(L1.r, [0, 0.1, 0])
    assert np.array_equal(np.diag(L1.I), [0.1, 0.2, 0.3])
    assert L2.Tc == (0.5, -0.5) and L2.G == 1.0 and L2.qlim is None
    assert L3.qlim == (0.0, 0.3)
    # revolute pose entries are degrees, prismatic ones metres
    np.testing.assert_array_equal(r.pose("qr"), [math.pi / 2, -math.pi / 4, 0.2])
    np.testing.assert_array_equal(r.tool[:3, 3], [0, 0, 0.1])
    np.testing.assert_array_equal(r.gravity, [0, 0, -9.81])


def test_millimetres_and_radians(tmp_path):
    text = VALID.replace('units = "deg"', 'units = "rad"').replace(
        'length_units = "m"', 'length_units = "mm"')
    text = text.replace("qr = [90, -45, 0.2]", "qr = [1.0, -0.5, 200]")
    text = text.replace("d = 0.4", "d = 400").replace("qlim = [0, 0.3]", "qlim = [0, 300]")
    text = text.replace("alpha = 90", "alpha = 1.5").replace("qlim = [-90, 90]",
                                                             "qlim = [-1, 1]")
    r = load_robot(write(tmp_path, text))
    assert r.links[0].d == 0.4 and r.links[0].alpha == 1.5 and r.links[0].qlim == (-1, 1)
    assert r.links[0].r[1] == 0.1 / 1000  # r is a length too
    assert r.links[2].qlim == (0.0, 0.3)
    np.testing.assert_array_equal(r.pose("qr"), [1.0, -0.5, 0.2])
    np.testing.assert_array_equal(r.tool[:3, 3], [0, 0, 0.1 / 1000])


def test_base_as_matrix_and_rpy(tmp_path):
    T = rpy2tr([0.1, 0.2, 0.3])
    T[:3, 3] = [1, 2, 3]
    rows = ", ".join("[" + ", ".join(repr(float(x)) for x in row) + "]" for row in T)
    text = VALID.replace("[tool]", f"[base]\nmatrix = [{rows}]\n\n[tool]")
    r = load_robot(write(tmp_path, text))
    np.testing.assert_array_equal(r.base, T)
    text = VALID.replace("[tool]", "[base]\nxyz = [1, 2, 3]\nrpy = [10, 20, 30]\n\n[tool]")
    r = load_robot(write(tmp_path, text))
    np.testing.assert_allclose(r.base[:3, :3], rpy2tr([10, 20, 30], unit="deg")[:3, :3],
                               atol=1e-15)


# -- malformed files ---------------------------------------------------------------------
MALFORMED = {
    # case: (edit of VALID, link, field, words the message must contain)
    "missing required key": (
        lambda t: replace_in_link(t, 2, "alpha = 0\n", ""), 2, "alpha", ["required"]),
    "misspelled key": (
        lambda t: replace_in_link(t, 2, "alpha = 0", "alpah = 0"), 2, "alpah",
        ["unknown key 'alpah'", "did you mean 'alpha'"]),
    "string for a number": (
        lambda t: replace_in_link(t, 2, "a = 0.5", 'a = "0.5"'), 2, "a",
        ["expected a number", "str"]),
    "boolean for a number": (
        lambda t: replace_in_link(t, 1, "m = 2.0", "m = true"), 1, "m", ["expected a number"]),
    "NaN": (lambda t: replace_in_link(t, 1, "d = 0.4", "d = nan"), 1, "d", ["finite", "nan"]),
    "integer beyond the float range": (
        lambda t: replace_in_link(t, 1, "m = 2.0", "m = 1" + "0" * 400), 1, "m", ["finite"]),
    "infinity": (lambda t: replace_in_link(t, 3, "\na = 0", "\na = -inf"), 3, "a", ["finite"]),
    "lower limit above upper": (
        lambda t: replace_in_link(t, 1, "qlim = [-90, 90]", "qlim = [1.5, 1.0]"), 1, "qlim",
        ["lower limit 1.5 is above upper limit 1.0"]),
    "qlim with three values": (
        lambda t: replace_in_link(t, 1, "qlim = [-90, 90]", "qlim = [1, 2, 3]"), 1, "qlim",
        ["expected 2 numbers"]),
    "unknown joint type": (
        lambda t: replace_in_link(t, 3, 'joint = "P"', 'joint = "Q"'), 3, "joint",
        ["unknown joint type 'Q'"]),
    "mixed conventions": (
        lambda t: replace_in_link(t, 2, 'joint = "R"', 'joint = "R"\nconvention = "modified"'),
        2, "convention", ["conventions cannot be mixed"]),
    "mdh flag on a link": (
        lambda t: replace_in_link(t, 3, 'joint = "P"', 'joint = "P"\nmdh = true'), 3, "mdh",
        ["whole robot"]),
    "inertia not positive semi-definite": (
        lambda t: replace_in_link(t, 1, "I = [0.1, 0.2, 0.3, 0, 0, 0]",
                                  "I = [0.1, 0.2, 0.3, 5, 0, 0]"), 1, "I", ["semi-definite"]),
    "inertia with four values": (
        lambda t: replace_in_link(t, 1, "I = [0.1, 0.2, 0.3, 0, 0, 0]", "I = [1, 2, 3, 4]"),
        1, "I", ["6 numbers"]),
    "negative mass": (
        lambda t: replace_in_link(t, 1, "m = 2.0", "m = -2.0"), 1, "m", ["negative"]),
    "prismatic joint without travel": (
        lambda t: replace_in_link(t, 3, "qlim = [0, 0.3]\n", ""), 3, "qlim", ["prismatic"]),
    "prismatic joint without theta": (
        lambda t: replace_in_link(t, 3, "theta = 0\n", ""), 3, "theta", ["required"]),
    "joint missing": (
        lambda t: replace_in_link(t, 2, 'joint = "R"\n', ""), 2, "joint", ["required"]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_link_names_file_link_and_field(tmp_path, case):
    edit, link, field, words = MALFORMED[case]
    path = write(tmp_path, edit(VALID), name="bad.toml")
    with pytest.raises(RobotFileError) as info:
        load_robot(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: link {link}: field '{field}': "), msg
    for w in words:
        assert w in msg, (w, msg)
    assert info.value.link == link and info.value.field == field
    assert info.value.path == str(path)
    assert isinstance(info.value, ValueError)


def test_lower_limit_message_is_exactly_as_documented(tmp_path):
    text = replace_in_link(VALID, 2, "alpha = 0\n", "alpha = 0\nqlim = [1.5, 1.0]\n")
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(RobotFileError) as info:
        load_robot(path)
    assert str(info.value) == (f"{path}: link 2: field 'qlim': lower limit 1.5 is above upper "
                               "limit 1.0")


TOP_LEVEL = {
    "units not rad or deg": (lambda t: t.replace('units = "deg"', 'units = "grad"'), "units",
                             ["'grad'", "did you mean 'rad'"]),
    "length units": (lambda t: t.replace('length_units = "m"', 'length_units = "cm"'),
                     "length_units", ["'cm'"]),
    "unknown convention": (lambda t: t.replace('"standard"', '"modifed"'), "convention",
                           ["did you mean 'modified'"]),
    "misspelled top-level key": (lambda t: t.replace("manufacturer =", "manufactuer ="),
                                 "manufactuer", ["did you mean 'manufacturer'"]),
    "missing name": (lambda t: t.replace('name = "test arm"\n', ""), "name", ["required"]),
    "wrong format": (lambda t: t.replace("robogui-robot 1", "robogui-robot 9"), "format",
                     ["unsupported"]),
    "pose with the wrong length": (lambda t: t.replace("qz = [0, 0, 0]", "qz = [0, 0]"),
                                   "poses.qz", ["2 values", "3 joints"]),
    "pose with a string": (lambda t: t.replace("qz = [0, 0, 0]", 'qz = [0, "x", 0]'),
                           "poses.qz", ["expected a number"]),
    "gravity with two values": (lambda t: t.replace("gravity = [0, 0, -9.81]",
                                                    "gravity = [0, -9.81]"),
                                "gravity", ["expected 3 numbers"]),
    "unknown key in tool": (lambda t: t.replace("xyz = [0, 0, 0.1]", "xzy = [0, 0, 0.1]"),
                            "xzy", ["did you mean 'xyz'"]),
    "matrix and xyz together": (
        lambda t: t.replace("xyz = [0, 0, 0.1]", "xyz = [0, 0, 0.1]\nmatrix = [[1, 0, 0, 0], "
                            "[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]"),
        "tool.matrix", ["not both"]),
    "tool matrix not a rigid transform": (
        lambda t: t.replace("xyz = [0, 0, 0.1]", "matrix = [[2, 0, 0, 0], [0, 1, 0, 0], "
                            "[0, 0, 1, 0], [0, 0, 0, 1]]"),
        "tool", ["not a rotation"]),
    "no links": (lambda t: t.split("[[links]]")[0].replace("gravity", "links = []\ngravity"),
                 "links", ["[[links]]"]),
}


@pytest.mark.parametrize("case", sorted(TOP_LEVEL))
def test_malformed_top_level_names_file_and_field(tmp_path, case):
    edit, field, words = TOP_LEVEL[case]
    path = write(tmp_path, edit(VALID), name="bad.toml")
    with pytest.raises(RobotFileError) as info:
        load_robot(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: field '{field}': "), msg
    assert info.value.link is None
    for w in words:
        assert w in msg, (w, msg)


def test_toml_syntax_error_gives_line_and_column(tmp_path):
    text = replace_in_link(VALID, 2, "a = 0.5", "a = ")
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(RobotFileError) as info:
        load_robot(path)
    msg = str(info.value)
    line = text.splitlines().index("a = ") + 1
    assert msg.startswith(f"{path}: TOML syntax error") and f"line {line}" in msg, msg
    assert "column" in msg


def test_duplicate_key_is_a_syntax_error(tmp_path):
    path = write(tmp_path, replace_in_link(VALID, 1, "d = 0.4", "d = 0.4\nd = 0.5"), "dup.toml")
    with pytest.raises(RobotFileError, match="TOML syntax error"):
        load_robot(path)


def test_missing_file_and_not_utf8(tmp_path):
    with pytest.raises(RobotFileError, match="nowhere.toml: cannot read"):
        load_robot(tmp_path / "nowhere.toml")
    path = tmp_path / "latin1.toml"
    path.write_bytes(VALID.replace("nobody", "n\xf6body").encode("latin-1"))
    with pytest.raises(RobotFileError, match="latin1.toml: not UTF-8"):
        load_robot(path)


def test_unknown_library_name_lists_the_library():
    with pytest.raises(RobotFileError) as info:
        load_robot("puma650")
    msg = str(info.value)
    assert "puma650" in msg and "did you mean 'puma560'" in msg
    assert "available: " in msg and "stanford" in msg and "ur10" in msg


# -- saving ---------------------------------------------------------------------------------
def test_save_round_trip_of_the_test_file(tmp_path):
    r = load_robot(write(tmp_path, VALID))
    out = save_robot(r, tmp_path / "saved.toml")
    r2 = load_robot(out)
    assert r2 == r and r2.source == r.source and r2.manufacturer == r.manufacturer
    text = out.read_text()
    assert 'units = "rad"' in text and 'length_units = "m"' in text


def test_save_is_atomic(tmp_path, monkeypatch):
    target = write(tmp_path, "old contents", "arm.toml")
    robot = load_robot(write(tmp_path, VALID, "src.toml"))

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        save_robot(robot, target)
    monkeypatch.undo()
    assert target.read_text() == "old contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arm.toml", "src.toml"]
    save_robot(robot, target)  # overwrites in one step
    assert load_robot(target) == robot
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arm.toml", "src.toml"]


def test_reload_after_change_is_not_served_from_the_cache(tmp_path):
    path = write(tmp_path, VALID)
    r1 = load_robot(path)
    assert load_robot(path) is r1  # cached
    save_robot(r1.replace(name="renamed"), path)
    assert load_robot(path).name == "renamed"


def test_save_rejects_non_robot(tmp_path):
    with pytest.raises(ValueError, match="robot must be a Robot"):
        save_robot("puma560", tmp_path / "x.toml")
    assert list(tmp_path.iterdir()) == []


# -- random robots round-trip exactly ---------------------------------------------------------
finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)
tiny_or_odd = st.sampled_from([0.0, -0.0, 1e-300, 5e-324, 0.1, 1 / 3, math.pi, -2.5e-17])
number = st.one_of(finite, tiny_or_odd)
positive = st.floats(min_value=0, max_value=1e3, allow_nan=False, allow_infinity=False)
text = st.text(max_size=20)


@st.composite
def links(draw, mdh):
    joint = draw(st.sampled_from("RP"))
    lo = draw(finite)
    hi = min(lo + draw(positive), 1e3)  # within the documented bounds (docs/bounds.md)
    A = np.array(draw(st.lists(finite, min_size=9, max_size=9))).reshape(3, 3) / 100
    inertia = A @ A.T if draw(st.booleans()) else np.zeros((3, 3))
    return Link(
        joint=joint, theta=draw(number), d=draw(number), a=draw(number), alpha=draw(number),
        mdh=mdh, offset=draw(number),
        qlim=(lo, hi) if joint == "P" or draw(st.booleans()) else None,
        m=draw(positive), r=draw(st.lists(number, min_size=3, max_size=3)), I=inertia,
        Jm=draw(positive), G=draw(number), B=draw(positive),
        Tc=(draw(number), draw(number)), name=draw(text),
        tau_max=draw(st.one_of(st.none(), positive)),
    )


@st.composite
def transforms(draw):
    kind = draw(st.sampled_from(["identity", "rpy", "random"]))
    T = np.eye(4)
    if kind == "rpy":
        T = rpy2tr(draw(st.lists(st.floats(-3, 3), min_size=3, max_size=3)))
    elif kind == "random":  # generally not reproduced by rpy, so written as a matrix
        M = np.array(draw(st.lists(st.floats(-1, 1), min_size=9, max_size=9))).reshape(3, 3)
        Qm, _ = np.linalg.qr(M + 3 * np.eye(3))
        T[:3, :3] = Qm * np.sign(np.linalg.det(Qm))
    T[:3, 3] = draw(st.lists(finite, min_size=3, max_size=3))
    return T


@st.composite
def robots(draw):
    mdh = draw(st.booleans())
    ls = draw(st.lists(links(mdh), min_size=1, max_size=5))
    names = draw(st.lists(st.sampled_from(["qz", "qr", "q r", 'a"b', "ü", "x.y", ""]),
                          max_size=3, unique=True))
    poses = {k: draw(st.lists(number, min_size=len(ls), max_size=len(ls))) for k in names}
    return Robot(ls, name=draw(text), manufacturer=draw(text), comment=draw(text),
                 source=draw(text), base=draw(transforms()), tool=draw(transforms()),
                 gravity=draw(st.lists(number, min_size=3, max_size=3)), poses=poses)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(robots())
def test_random_robots_round_trip_exactly(robot):
    text = robot_to_toml(robot)
    back = robot_from_toml(text)
    assert back == robot
    for attr in ("manufacturer", "comment", "source"):
        assert getattr(back, attr) == getattr(robot, attr)
    for L, M in zip(back.links, robot.links, strict=True):
        assert L._key() == M._key()
    with tempfile.TemporaryDirectory() as folder:
        path = save_robot(robot, os.path.join(folder, "r.toml"))
        assert load_robot(path) == robot


def test_the_documented_example_loads(tmp_path):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "robot-file-format.md").read_text()
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    r = load_robot(write(tmp_path, example, "demo.toml"))
    assert r.name == "Demo arm" and r.structure == "RRP"
    assert r.links[0].d == 0.4 and r.links[1].a == 0.45 and r.links[1].offset == -math.pi / 2
    assert r.links[2].qlim == (0.0, 0.3) and r.links[1].Tc == (0.1, -0.1)
    np.testing.assert_allclose(r.base[:3, :3], np.diag([-1.0, -1.0, 1.0]), atol=1e-15)
    np.testing.assert_array_equal(r.base[:3, 3], [0, 0, 0.5])
    np.testing.assert_array_equal(r.tool[:3, 3], [0, 0, 0.1])
    np.testing.assert_array_equal(r.pose("qr"), [0, math.pi / 2, 0.15])
    assert load_robot(save_robot(r, tmp_path / "again.toml")) == r


def test_save_keeps_file_permissions(tmp_path):
    """The temporary file of an atomic save is owner-only; the saved file must not be."""
    import stat

    robot = load_robot(write(tmp_path, VALID, "src.toml"))
    old = os.umask(0o022)
    try:
        new = save_robot(robot, tmp_path / "new.toml")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644  # as open(path, "w") would give
        existing = write(tmp_path, "old contents", "shared.toml")
        existing.chmod(0o664)
        save_robot(robot, existing)
        assert stat.S_IMODE(existing.stat().st_mode) == 0o664  # the replaced file's mode
        assert load_robot(existing) == robot
    finally:
        os.umask(old)
