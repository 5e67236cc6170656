"""Write the corpus of malformed files in this folder (run once; the files are committed).

    python tests/data/bad/make_bad_files.py

Every file here must be refused by its format's loader with the format's own error type
naming the file (tests/io/test_bad_files.py), and through the app with a message while
the robot, q, program and trajectory stay as they were (tests/app/test_bad_files.py).
Formats, by suffix: ``.toml`` robot (RobotFileError), ``.prog`` teach program
(ProgramFileError), ``.csv`` trajectory for a 6-joint robot (TrajectoryFileError),
``.conf`` ROBOOP robot, ``.dat`` Rob_Mat robot and ``.mot`` Rob_Mat motion for a 6-joint
robot (LegacyFormatError), ``.cell`` work cell (CellFileError). The file names say what is wrong.

The kinds: truncated, binary, wrong encodings (UTF-16 without its mark, Latin-1), huge
and non-finite numbers, deep nesting, absurd headers, wrong types and shapes.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent

# -- good texts the bad files are made from ---------------------------------------------------
ROBOT = '''format = "robogui-robot 1"
name = "corpus arm"
convention = "standard"
units = "rad"
gravity = [0.0, 0.0, -9.81]

[poses]
qz = [0.0, 0.0]

[[links]]
joint = "R"
d = 0.3
a = 0.5
alpha = 0.0
qlim = [-3.0, 3.0]
m = 2.0
r = [-0.25, 0.0, 0.0]
I = [0.01, 0.05, 0.05, 0.0, 0.0, 0.0]

[[links]]
joint = "R"
d = 0.0
a = 0.4
alpha = 0.0
qlim = [-2.5, 2.5]
m = 1.5
r = [-0.2, 0.0, 0.0]
I = [0.01, 0.03, 0.03, 0.0, 0.0, 0.0]
'''

PROGRAM = '''format = "robogui-program"
version = 1
name = "corpus program"
robot = "puma560"

[[waypoint]]
name = "home"
q = [0.0, 1.5707963267948966, -1.5707963267948966, 0.0, 0.0, 0.0]

[[waypoint]]
name = "pick"
q = [0.3, 0.75, -2.55, 0.0, 0.2, 0.0]

[[move]]
kind = "joint"
target = "home"

[[move]]
kind = "joint"
target = "pick"
duration = 2.0
'''

CSV = "# robogui trajectory: corpus\nt,q1,q2,q3,q4,q5,q6\n" + "".join(
    f"{k * 0.1:.1f},{0.01 * k},0.5,-0.5,0,0.2,0\n" for k in range(6))

CONF = '''[ARM]

Name:            corpus arm
DH:              1
Fix:             0
MinPara:         0
dof:             2
angle_in_degree: 0
Motor:           0

[ARM_LINK1]

joint_type:   0
theta:        0.0
d:            0.3
a:            0.5
alpha:        0.0
theta_min:    -3.0
theta_max:    3.0
m:            2.0
cx:           -0.25

[ARM_LINK2]

joint_type:   0
theta:        0.0
d:            0.0
a:            0.4
alpha:        0.0
theta_min:    -2.5
theta_max:    2.5
m:            1.5
cx:           -0.2
'''

LINK16 = "0\n0 0.3 0 0.5 0\n2\n0.01 0 0\n0.05 0\n0.05\n-0.25 0 0\n"
DAT = "2\n" + LINK16 + LINK16.replace("0.3", "0.0") + "0 0 -9.81\n0 0 0 0 0 0\n"
MOT = "0.05\n" + "".join("0.1 0 0\n" * 6 for _ in range(3))
URDF = """<?xml version="1.0"?>
<robot name="corpus">
  <link name="base"/>
  <link name="upper">
    <inertial><origin xyz="0.25 0 0"/><mass value="2.0"/>
      <inertia ixx="0.01" iyy="0.05" izz="0.05" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="fore"><visual><geometry><box size="0.4 0.05 0.05"/></geometry></visual></link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.3" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="2"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="fore"/>
    <origin xyz="0.5 0 0" rpy="0 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-2.5" upper="2.5" effort="5" velocity="2"/>
  </joint>
</robot>
"""

CELL = '''format = "robogui-cell"
version = 1
name = "corpus cell"
robot = "puma560"
base = { xyz = [0, 0, 0], rpy = [0, 0, 0] }

[[object]]
name = "table"
shape = "box"
size = [1.2, 0.8, 0.04]
xyz = [0.6, 0.0, 0.38]
rpy = [0, 0, 0]
color = "#8a8f98"

[[object]]
name = "post"
shape = "cylinder"
radius = 0.05
length = 1.0
xyz = [0.0, 0.6, 0.5]
'''


def files() -> dict[str, bytes | str]:
    """name -> content of every bad file."""
    rng = random.Random(14)
    binary = bytes(rng.randrange(256) for _ in range(600))
    out: dict[str, bytes | str] = {}

    def common(stem: str, good: str, ext: str) -> None:
        """The failures every format must name: truncation, binary, encodings, empty."""
        out[f"{stem}-empty.{ext}"] = ""
        out[f"{stem}-only-whitespace.{ext}"] = "\n \n\t\n"
        out[f"{stem}-truncated-half.{ext}"] = good[: len(good) // 2]
        out[f"{stem}-truncated-third.{ext}"] = good[: len(good) // 3]
        out[f"{stem}-binary-random.{ext}"] = binary
        out[f"{stem}-binary-nul-bytes.{ext}"] = good.encode()[:40] + b"\x00" * 64
        out[f"{stem}-utf16-no-bom.{ext}"] = good.encode("utf-16-le")
        out[f"{stem}-latin1.{ext}"] = good.replace("corpus", "corp\u00fcs", 1).encode(
            "latin-1") if "corpus" in good else b"\xe9\xe8" + good.encode()
        out[f"{stem}-png-image.{ext}"] = b"\x89PNG\r\n\x1a\n" + binary[:100]
        out[f"{stem}-bom-then-garbage.{ext}"] = b"\xef\xbb\xbf" + binary[:200]

    # -- robot TOML ---------------------------------------------------------------------------
    common("robot", ROBOT, "toml")
    r = out  # shorter below
    r["robot-link-length-1.7e308.toml"] = ROBOT.replace("a = 0.5", "a = 1.7e308")
    r["robot-link-length-inf.toml"] = ROBOT.replace("a = 0.5", "a = inf")
    r["robot-link-length-nan.toml"] = ROBOT.replace("a = 0.5", "a = nan")
    r["robot-mass-1e300.toml"] = ROBOT.replace("m = 2.0", "m = 1e300")
    r["robot-inertia-1e200.toml"] = ROBOT.replace("I = [0.01,", "I = [1e200,")
    r["robot-int-beyond-float.toml"] = ROBOT.replace("d = 0.3", "d = " + "9" * 400)
    r["robot-int-beyond-toml.toml"] = ROBOT.replace("d = 0.3", "d = 99999999999999999999999")
    r["robot-gravity-1e308.toml"] = ROBOT.replace("-9.81]", "-1e308]")
    r["robot-qlim-1e300.toml"] = ROBOT.replace("qlim = [-3.0, 3.0]", "qlim = [-1e300, 1e300]")
    r["robot-pose-1e308.toml"] = ROBOT.replace("qz = [0.0, 0.0]", "qz = [1e308, 0.0]")
    r["robot-deep-arrays.toml"] = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    r["robot-deep-inline-tables.toml"] = "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n"
    r["robot-deep-in-links.toml"] = ROBOT.replace("r = [-0.25, 0.0, 0.0]",
                                                  "r = " + "[" * 5000 + "]" * 5000)
    r["robot-1000-links.toml"] = ROBOT.split("[[links]]")[0] + (
        '[[links]]\njoint = "R"\nd = 0\na = 0.1\nalpha = 0\n' * 1000)
    r["robot-links-not-a-list.toml"] = ROBOT.split("[[links]]")[0] + "links = 3\n"
    r["robot-wrong-types.toml"] = ROBOT.replace("a = 0.5", 'a = "half a metre"')
    r["robot-unknown-key.toml"] = ROBOT.replace("m = 2.0", "mass = 2.0")
    r["robot-negative-mass.toml"] = ROBOT.replace("m = 2.0", "m = -2.0")
    r["robot-syntax-error.toml"] = ROBOT.replace("a = 0.5", "a = = 0.5")
    r["robot-no-links.toml"] = ROBOT.split("[[links]]")[0]
    r["robot-other-format.toml"] = ROBOT.replace("robogui-robot 1", "robogui-robot 99")
    r["robot-pose-wrong-length.toml"] = ROBOT.replace("qz = [0.0, 0.0]", "qz = [0.0]")

    # -- program -------------------------------------------------------------------------------
    common("program", PROGRAM, "prog")
    p = out
    p["program-duration-1e6.prog"] = PROGRAM.replace("duration = 2.0", "duration = 1e6")
    p["program-duration-1e300.prog"] = PROGRAM.replace("duration = 2.0", "duration = 1e300")
    p["program-duration-inf.prog"] = PROGRAM.replace("duration = 2.0", "duration = inf")
    p["program-duration-nan.prog"] = PROGRAM.replace("duration = 2.0", "duration = nan")
    p["program-duration-negative.prog"] = PROGRAM.replace("duration = 2.0", "duration = -2.0")
    p["program-blend-1e300.prog"] = PROGRAM.replace('target = "home"\n',
                                                    'target = "home"\nblend = 1e300\n')
    p["program-speed-1e-300.prog"] = PROGRAM.replace("duration = 2.0", "speed = 1e-300")
    p["program-speed-1e300.prog"] = PROGRAM.replace("duration = 2.0", "speed = 1e300")
    p["program-q-1e308.prog"] = PROGRAM.replace("q = [0.3,", "q = [1e308,")
    p["program-q-int-beyond-float.prog"] = PROGRAM.replace("q = [0.3,", "q = [" + "9" * 400 + ",")
    p["program-q-nan.prog"] = PROGRAM.replace("q = [0.3,", "q = [nan,")
    p["program-q-strings.prog"] = PROGRAM.replace("q = [0.3,", 'q = ["0.3",')
    p["program-deep-arrays.prog"] = PROGRAM + "x = " + "[" * 5000 + "]" * 5000 + "\n"
    p["program-deep-q.prog"] = PROGRAM.replace("q = [0.3, 0.75, -2.55, 0.0, 0.2, 0.0]",
                                               "q = " + "[" * 5000 + "]" * 5000)
    p["program-unknown-target.prog"] = PROGRAM.replace('target = "pick"', 'target = "place"')
    p["program-duplicate-waypoint.prog"] = PROGRAM.replace('name = "pick"', 'name = "home"')
    p["program-unknown-key.prog"] = PROGRAM.replace("duration = 2.0", "durtion = 2.0")
    p["program-speed-and-duration.prog"] = PROGRAM.replace("duration = 2.0",
                                                           "duration = 2.0\nspeed = 0.5")
    p["program-wrong-format.prog"] = PROGRAM.replace("robogui-program", "robogui-robot 1")
    p["program-version-huge.prog"] = PROGRAM.replace("version = 1", "version = 99999999999")
    p["program-joint-count-mismatch.prog"] = PROGRAM.replace(
        "q = [0.3, 0.75, -2.55, 0.0, 0.2, 0.0]", "q = [0.3, 0.75]")
    p["program-syntax-error.prog"] = PROGRAM.replace('kind = "joint"', "kind = joint", 1)
    # gripper steps (version 3): in an older version, without a part, with a target, timed
    # beyond the bounds, with a speed
    v3 = PROGRAM.replace("version = 1", "version = 3")
    grasp = '\n[[move]]\nkind = "grasp"\npart = "part"\n'
    p["program-grasp-in-version-2.prog"] = PROGRAM.replace("version = 1", "version = 2") + grasp
    p["program-grasp-without-part.prog"] = v3 + '\n[[move]]\nkind = "grasp"\n'
    p["program-release-with-target.prog"] = v3 + '\n[[move]]\nkind = "release"\ntarget = "home"\n'
    p["program-grasp-duration-1e300.prog"] = v3 + grasp + "duration = 1e300\n"
    p["program-release-with-speed.prog"] = v3 + '\n[[move]]\nkind = "release"\nspeed = 0.5\n'
    p["program-grasp-part-not-text.prog"] = v3 + '\n[[move]]\nkind = "grasp"\npart = 3\n'

    # -- trajectory CSV (6 joints) --------------------------------------------------------------
    common("trajectory", CSV, "csv")
    c = out
    head = "t,q1,q2,q3,q4,q5,q6\n"
    c["trajectory-utf16-with-garbage.csv"] = "\ufeff".encode("utf-16-le") + binary[:101]
    c["trajectory-q-1e308.csv"] = CSV.replace("0.5,-0.5", "1e308,-0.5", 1)
    c["trajectory-q-inf.csv"] = CSV.replace("0.5,-0.5", "inf,-0.5", 1)
    c["trajectory-q-nan.csv"] = CSV.replace("0.5,-0.5", "nan,-0.5", 1)
    c["trajectory-t-1e300.csv"] = CSV.replace("\n0.5,", "\n1e300,", 1)
    c["trajectory-t-step-1e-320.csv"] = head + "0,0,0,0,0,0,0\n1e-320,0,0,0,0,0,0\n"
    c["trajectory-t-decreasing.csv"] = CSV.replace("\n0.3,", "\n0.05,", 1)
    c["trajectory-no-header.csv"] = CSV.split("\n", 2)[2]
    c["trajectory-wrong-joint-count.csv"] = "t,q1,q2\n0,0,0\n0.1,0,0\n"
    c["trajectory-missing-cells.csv"] = CSV.replace(",0.2,0\n", ",0.2\n", 1)
    c["trajectory-text-cell.csv"] = CSV.replace("0.5,-0.5", "half,-0.5", 1)
    c["trajectory-unknown-column.csv"] = CSV.replace("t,q1", "time,q1")
    c["trajectory-header-only.csv"] = head
    c["trajectory-poses-only.csv"] = ("t," + ",".join(f"T{r}{k}" for r in (1, 2, 3)
                                                     for k in (1, 2, 3, 4)) + "\n"
                                      + "0,1,0,0,0,0,1,0,0,0,0,1,0\n")
    c["trajectory-semicolons.csv"] = CSV.replace(",", ";")
    c["trajectory-decimal-commas.csv"] = head + '0,"0,5",0,0,0,0,0\n'
    c["trajectory-huge-qd.csv"] = ("t,q1,q2,q3,q4,q5,q6,qd1,qd2,qd3,qd4,qd5,qd6\n"
                                   + "0,0,0,0,0,0,0,1e200,0,0,0,0,0\n")
    c["trajectory-many-columns.csv"] = "t," + ",".join(f"q{j}" for j in range(1, 5001)) + "\n"

    # -- ROBOOP .conf ---------------------------------------------------------------------------
    common("roboop", CONF, "conf")
    f = out
    f["roboop-dof-100000000.conf"] = CONF.replace("dof:             2", "dof: 100000000")
    f["roboop-dof-huge-int.conf"] = CONF.replace("dof:             2", "dof: " + "9" * 40)
    f["roboop-dof-negative.conf"] = CONF.replace("dof:             2", "dof: -2")
    f["roboop-dof-float.conf"] = CONF.replace("dof:             2", "dof: 2.5")
    f["roboop-no-dof.conf"] = CONF.replace("dof:             2\n", "")
    f["roboop-a-1.7e308.conf"] = CONF.replace("a:            0.5", "a:            1.7e308")
    f["roboop-a-1e400.conf"] = CONF.replace("a:            0.5", "a:            1e400")
    f["roboop-mass-1e300.conf"] = CONF.replace("m:            2.0", "m:            1e300")
    f["roboop-bad-number.conf"] = CONF.replace("a:            0.5", "a:            0,5")
    f["roboop-unterminated-header.conf"] = CONF.replace("[ARM_LINK2]", "[ARM_LINK2")
    f["roboop-key-colon-value.conf"] = CONF.replace("a:            0.5", "a:0.5")
    f["roboop-joint-type-7.conf"] = CONF.replace("joint_type:   0", "joint_type:   7", 1)
    f["roboop-limits-reversed.conf"] = CONF.replace("theta_min:    -3.0", "theta_min:    4.0")
    f["roboop-no-newline-at-end.conf"] = CONF.rstrip("\n")
    f["roboop-two-robots-no-choice.conf"] = CONF + CONF.replace("[ARM", "[ARM2")
    f["roboop-no-dh.conf"] = CONF.replace("DH:              1\n", "")

    # -- Rob_Mat .DAT ---------------------------------------------------------------------------
    common("robmat", DAT, "dat")
    d = out
    d["robmat-nlink-1e9.dat"] = "1000000000\n" + DAT[2:]
    d["robmat-nlink-1e23.dat"] = "100000000000000000000000\n" + DAT[2:]
    d["robmat-nlink-float.dat"] = "1e23\n" + DAT[2:]
    d["robmat-nlink-zero.dat"] = "0\n" + DAT[2:]
    d["robmat-nlink-too-many-for-data.dat"] = "40\n" + DAT[2:]
    d["robmat-a-1.7e308.dat"] = DAT.replace("0 0.3 0 0.5 0", "0 0.3 0 1.7e308 0")
    d["robmat-a-1e400.dat"] = DAT.replace("0 0.3 0 0.5 0", "0 0.3 0 1e400 0")
    d["robmat-mass-negative.dat"] = DAT.replace("\n2\n", "\n-2\n", 1)
    d["robmat-jtype-5.dat"] = DAT.replace("2\n0\n", "2\n5\n", 1)
    d["robmat-label.dat"] = "ROBOT\n" + DAT
    d["robmat-missing-tail.dat"] = DAT.rsplit("0 0 -9.81", 1)[0]

    # -- Rob_Mat .MOT (6 joints) -----------------------------------------------------------------
    common("robmat-motion", MOT, "mot")
    m = out
    m["robmat-motion-dt-1e-320.mot"] = "1e-320" + MOT[4:]
    m["robmat-motion-dt-zero.mot"] = "0" + MOT[4:]
    m["robmat-motion-dt-1e300.mot"] = "1e300" + MOT[4:]
    m["robmat-motion-dt-inf.mot"] = "inf" + MOT[4:]
    m["robmat-motion-q-1e308.mot"] = MOT.replace("0.1 0 0", "1e308 0 0", 1)
    m["robmat-motion-partial-step.mot"] = MOT + "0.1 0 0\n"
    m["robmat-motion-text.mot"] = MOT.replace("0.1 0 0", "q1 0 0", 1)
    m["robmat-motion-no-steps.mot"] = "0.05\n"

    # -- URDF ----------------------------------------------------------------------------------
    common("urdf", URDF, "urdf")
    u = out
    del u["urdf-utf16-no-bom.urdf"]  # XML detects UTF-16 by itself: that file is good
    u["urdf-root-not-robot.urdf"] = URDF.replace("<robot name", "<robbot name").replace(
        "</robot>", "</robbot>")
    u["urdf-robot-without-name.urdf"] = URDF.replace('<robot name="corpus">', "<robot>")
    u["urdf-no-links.urdf"] = '<?xml version="1.0"?>\n<robot name="corpus"/>\n'
    u["urdf-one-rigid-body.urdf"] = '<robot name="corpus"><link name="base"/></robot>'
    u["urdf-joint-without-parent.urdf"] = URDF.replace('<parent link="upper"/>', "")
    u["urdf-joint-without-name.urdf"] = URDF.replace('name="elbow" ', "")
    u["urdf-loop.urdf"] = URDF.replace('<parent link="base"/><child link="upper"/>',
                                       '<parent link="fore"/><child link="upper"/>')
    u["urdf-floating-joint.urdf"] = URDF.replace('"elbow" type="revolute"',
                                                 '"elbow" type="floating"')
    u["urdf-unknown-joint-type.urdf"] = URDF.replace('"elbow" type="revolute"',
                                                     '"elbow" type="hinge"')
    u["urdf-nan-origin.urdf"] = URDF.replace('xyz="0.5 0 0"', 'xyz="nan 0 0"')
    u["urdf-zero-axis.urdf"] = URDF.replace('<axis xyz="0 0 1"/>\n    <limit lower="-2.5"',
                                            '<axis xyz="0 0 0"/>\n    <limit lower="-2.5"')
    u["urdf-negative-mass.urdf"] = URDF.replace('<mass value="2.0"/>', '<mass value="-2.0"/>')
    u["urdf-mass-1e400.urdf"] = URDF.replace('<mass value="2.0"/>', '<mass value="1e400"/>')
    u["urdf-origin-words.urdf"] = URDF.replace('xyz="0.5 0 0"', 'xyz="half 0 0"')
    u["urdf-limit-words.urdf"] = URDF.replace('lower="-2.5"', 'lower="-2.5rad"')
    u["urdf-entity-bomb.urdf"] = ('<?xml version="1.0"?><!DOCTYPE robot [<!ENTITY a0 "xxxxxxxx">'
                                  + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">'
                                            for i in range(1, 10))
                                  + ']>' + URDF.split("?>", 1)[1].replace(
                                      'name="corpus"', 'name="&a9;"', 1))

    # -- work cell ------------------------------------------------------------------------------
    common("cell", CELL, "cell")
    w = out
    w["cell-size-1e300.cell"] = CELL.replace("size = [1.2,", "size = [1e300,")
    w["cell-size-nan.cell"] = CELL.replace("size = [1.2,", "size = [nan,")
    w["cell-size-inf.cell"] = CELL.replace("size = [1.2,", "size = [inf,")
    w["cell-size-negative.cell"] = CELL.replace("size = [1.2,", "size = [-1.2,")
    w["cell-size-two-values.cell"] = CELL.replace("size = [1.2, 0.8, 0.04]", "size = [1.2, 0.8]")
    w["cell-radius-zero.cell"] = CELL.replace("radius = 0.05", "radius = 0.0")
    w["cell-radius-text.cell"] = CELL.replace("radius = 0.05", 'radius = "thin"')
    w["cell-int-beyond-float.cell"] = CELL.replace("length = 1.0", "length = " + "9" * 400)
    w["cell-xyz-1e308.cell"] = CELL.replace("xyz = [0.6,", "xyz = [1e308,")
    w["cell-rpy-strings.cell"] = CELL.replace("rpy = [0, 0, 0]\ncolor", 'rpy = ["0", 0, 0]\ncolor')
    w["cell-deep-arrays.cell"] = CELL + "x = " + "[" * 5000 + "]" * 5000 + "\n"
    w["cell-deep-xyz.cell"] = CELL.replace("xyz = [0.6, 0.0, 0.38]", "xyz = " + "[" * 5000
                                           + "]" * 5000)
    w["cell-unknown-shape.cell"] = CELL.replace('shape = "box"', 'shape = "cone"')
    w["cell-unknown-key.cell"] = CELL.replace("color =", "colour =")
    w["cell-missing-size.cell"] = CELL.replace("size = [1.2, 0.8, 0.04]\n", "")
    w["cell-missing-name.cell"] = CELL.replace('name = "post"\n', "")
    w["cell-duplicate-name.cell"] = CELL.replace('name = "post"', 'name = "table"')
    w["cell-bad-color.cell"] = CELL.replace('"#8a8f98"', '"grey"')
    w["cell-wrong-format.cell"] = CELL.replace('"robogui-cell"', '"robogui-program"')
    w["cell-no-format.cell"] = CELL.replace('format = "robogui-cell"\n', "")
    w["cell-version-huge.cell"] = CELL.replace("version = 1", "version = 99999999999")
    w["cell-base-nan.cell"] = CELL.replace("base = { xyz = [0, 0, 0]", "base = { xyz = [nan, 0, 0]")
    w["cell-base-wrong-length.cell"] = CELL.replace("base = { xyz = [0, 0, 0]",
                                                    "base = { xyz = [0, 0]")
    w["cell-mesh-outside-folder.cell"] = CELL + ('\n[[object]]\nname = "m"\nshape = "mesh"\n'
                                                 'file = "../../../../etc/passwd"\n')
    w["cell-mesh-missing.cell"] = CELL + ('\n[[object]]\nname = "m"\nshape = "mesh"\n'
                                          'file = "no-such-part.stl"\n')
    w["cell-mesh-not-a-mesh.cell"] = CELL + ('\n[[object]]\nname = "m"\nshape = "mesh"\n'
                                             'file = "cell-empty.cell"\n')
    w["cell-box-with-radius.cell"] = CELL.replace("size = [1.2, 0.8, 0.04]",
                                                  "size = [1.2, 0.8, 0.04]\nradius = 0.1")
    w["cell-object-not-table.cell"] = CELL.split("[[object]]")[0] + "object = [1, 2]\n"
    w["cell-syntax-error.cell"] = CELL.replace('shape = "box"', "shape = box")
    w["cell-floor-text.cell"] = CELL.replace("base = {", 'floor = "yes"\nbase = {')
    return out


def main() -> None:
    made = files()
    for old in HERE.iterdir():  # a file dropped from the list must not linger
        if old.suffix in {".toml", ".prog", ".csv", ".conf", ".dat", ".mot", ".urdf", ".cell"}:
            old.unlink()
    for name, content in made.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        (HERE / name).write_bytes(data)
    print(f"wrote {len(made)} files to {HERE}")


if __name__ == "__main__":
    main()
