"""Write the hostile robot files of issue 23 into hostile/ (run once; the files are committed).

    python tests/data/bad/make_hostile_files.py

Files an attacker would send: xacro expressions that try to run code, xacro bombs and
include loops, reads outside the robot's folder (includes, YAML, meshes, entities), and
numbers that are NaN, infinite, out of docs/bounds.md or of the wrong count. Every
``*.urdf`` / ``*.xacro`` at the top of hostile/ must be refused by ``load_robot`` with a
RobotFileError naming the file (tests/io/test_hostile_files.py), except the ``mesh-*``
and ``visual-*`` ones, which load and whose bad geometry the view reports as a warning
naming the link. Files that cannot be committed (FIFOs, symbolic links to devices,
sparse gigabyte meshes, zip bombs) are made by the tests in a temporary folder.
"""

from __future__ import annotations

import struct
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent / "hostile"

ARM = ('<link name="base"/><link name="tool"/>'
       '<joint name="j1" type="revolute"><parent link="base"/><child link="tool"/>'
       '<origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 0 1"/>'
       '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')


def urdf(body: str, arm: str = ARM, name: str = "hostile") -> str:
    return f'<?xml version="1.0"?>\n<robot name="{name}">\n{body}\n{arm}\n</robot>\n'


def xacro(body: str, arm: str = ARM) -> str:
    return ('<?xml version="1.0"?>\n<robot name="hostile" '
            f'xmlns:xacro="http://www.ros.org/wiki/xacro">\n{body}\n{arm}\n</robot>\n')


# -- 1. expressions that try to run code (each would create CANARY if it ran) ----------------
CODE = {
    "subclasses": "().__class__.__base__.__subclasses__()",
    "popen": "[c for c in ().__class__.__base__.__subclasses__() if 'Popen' in c.__name__]"
             "[0]('touch CANARY', shell=True)",
    "type": "python.type(1)",
    "vars": "python.vars()",
    "isinstance-self": "python.isinstance.__self__.open('CANARY', 'w')",
    "message-globals": "xacro.message.__globals__['os'].system('touch CANARY')",
    "dotify-globals": "xacro.dotify.__init__.__globals__['os'].system('touch CANARY')",
    "tokenize-globals": "xacro.tokenize.__globals__['sys'].modules['os'].system('touch CANARY')",
    "lambda": "(lambda: 1)()",
    "open": "open('CANARY', 'w')",
    "loader": "math.__loader__",
    "format-field": "'{0.__class__.__mro__}'.format(1)",
    "fstring": "f'{1}'",
    "getattr": "getattr(1, 'real')",
    "walrus": "[x := 1]",
    "mro": "str.mro()",
    "sorted-exec": "python.sorted.__self__.exec('open(\"CANARY\", \"w\")')",
    "genexp": "python.list(x for x in [1])",
    "dictcomp": "{k: 1 for k in 'ab'}",
    "import": "__import__('os').system('touch CANARY')",
    "builtins": "__builtins__",
    "class-chain": "xacro.abs_filename('x').__class__",
    "yaml-call": "load_yaml.__call__",
    "exponent-bomb": "10 ** 10 ** 10",
    "string-bomb": "'a' * 10 ** 9",
    "range-bomb": "python.list(python.range(10 ** 12))",
    "shift-bomb": "1 << 10 ** 9",
    "nested-parens": "(" * 400 + "1" + ")" * 400,
}


def _macro_bomb(levels: int = 10, width: int = 10) -> str:
    out = ['<xacro:macro name="m0"><link name="x${n}"/></xacro:macro>']
    for k in range(1, levels):
        calls = "".join(f'<xacro:m{k - 1}/>' for _ in range(width))
        out.append(f'<xacro:macro name="m{k}">{calls}</xacro:macro>')
    return "".join(out) + f'<xacro:m{levels - 1}/>'


def _block_doubling(levels: int = 40) -> str:
    out = ['<xacro:macro name="d0" params="*b"><xacro:insert_block name="b"/>'
           '<xacro:insert_block name="b"/></xacro:macro>']
    for k in range(1, levels):
        out.append(f'<xacro:macro name="d{k}" params="*b"><xacro:d{k - 1}>'
                   f'<xacro:insert_block name="b"/></xacro:d{k - 1}><xacro:d{k - 1}>'
                   f'<xacro:insert_block name="b"/></xacro:d{k - 1}></xacro:macro>')
    return "".join(out) + f'<xacro:d{levels - 1}><link name="x"/></xacro:d{levels - 1}>'


def _string_doubling(levels: int = 40) -> str:
    out = ['<xacro:property name="s0" value="aaaaaaaaaaaaaaaa"/>']
    out += [f'<xacro:property name="s{k}" value="${{s{k - 1} + s{k - 1}}}"/>'
            for k in range(1, levels)]
    return "".join(out) + f'<link name="${{s{levels - 1}}}"/>'


def _chain(n: int) -> str:
    links = "".join(f'<link name="l{k}"/>' for k in range(n + 1))
    joints = "".join(f'<joint name="j{k}" type="revolute"><parent link="l{k}"/>'
                     f'<child link="l{k + 1}"/><origin xyz="0 0 0.01"/><axis xyz="0 0 1"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                     for k in range(n))
    return links + joints


def _joint(**attrs) -> str:
    """The arm's joint with some of its elements replaced (tag -> element text)."""
    base = {"origin": '<origin xyz="0 0 0.1" rpy="0 0 0"/>', "axis": '<axis xyz="0 0 1"/>',
            "limit": '<limit lower="-1" upper="1" effort="1" velocity="1"/>', "extra": ""}
    base.update(attrs)
    return ('<link name="base"/><link name="tool"/><link name="f"/>'
            '<joint name="j1" type="revolute"><parent link="base"/><child link="tool"/>'
            f'{base["origin"]}{base["axis"]}{base["limit"]}</joint>'
            '<joint name="j2" type="revolute"><parent link="tool"/><child link="f"/>'
            f'<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
            f'{base["extra"]}</joint>')


def _link(inner: str) -> str:
    return ('<link name="base"/><link name="tool">' + inner + '</link>'
            '<joint name="j1" type="revolute"><parent link="base"/><child link="tool"/>'
            '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')


def _visual(geometry: str, origin: str = "") -> str:
    return _link(f"<visual>{origin}<geometry>{geometry}</geometry></visual>")


def _binary_stl(declared: int, coords: tuple = (0.0, 0.0, 0.0), real: int = 1) -> bytes:
    tri = struct.pack("<12fH", 0, 0, 1, *coords, 1, 0, 0, 0, 1, 0, 0)
    return b"robogui hostile".ljust(80, b" ") + struct.pack("<I", declared) + tri * real


def files() -> dict[str, bytes | str]:
    out: dict[str, bytes | str] = {}
    for name, expr in CODE.items():
        out[f"xacro-code-{name}.xacro"] = xacro(
            f'<xacro:property name="v" value="${{{escape(expr)}}}"/><link name="c${{v}}"/>')
    out["xacro-code-eval-substitution.xacro"] = xacro('<link name="$(eval python.type)"/>')
    out["xacro-code-eval-lambda.xacro"] = xacro('<link name="$(eval lambda: 1)"/>')
    # bombs and loops
    out["xacro-bomb-macro-billion-laughs.xacro"] = xacro(
        '<xacro:property name="n" value="1"/>' + _macro_bomb())
    out["xacro-bomb-block-doubling.xacro"] = xacro(_block_doubling())
    out["xacro-bomb-string-doubling.xacro"] = xacro(_string_doubling())
    out["xacro-bomb-recursive-macro.xacro"] = xacro(
        '<xacro:macro name="r"><xacro:r/></xacro:macro><xacro:r/>')
    out["xacro-bomb-self-include.xacro"] = xacro(
        '<xacro:include filename="xacro-bomb-self-include.xacro"/>')
    out["xacro-bomb-include-loop.xacro"] = xacro(
        '<xacro:include filename="parts/loop-b.xacro"/>')
    out["parts/loop-b.xacro"] = ('<?xml version="1.0"?><robot '
                                 'xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:include '
                                 'filename="../xacro-bomb-include-loop.xacro"/></robot>\n')
    out["xacro-bomb-deep-nesting.xacro"] = xacro("<a>" * 600 + "</a>" * 600)
    out["xacro-bomb-circular-property.xacro"] = xacro(
        '<xacro:property name="a" value="${b}"/><xacro:property name="b" value="${a}"/>'
        '<link name="${a}"/>')
    # reads outside the folder
    for name, target in {"etc-passwd": "/etc/passwd", "dotdot": "../../../../../etc/passwd",
                         "file-url": "file:///etc/passwd", "http": "http://example.com/x.xacro",
                         "dev-zero": "/dev/zero", "proc": "/proc/self/environ"}.items():
        out[f"xacro-read-include-{name}.xacro"] = xacro(f'<xacro:include filename="{target}"/>')
    for name, target in {"etc-passwd": "/etc/passwd", "dotdot": "../../../../../etc/hostname",
                         "dev-stdin": "/dev/stdin"}.items():
        out[f"xacro-read-yaml-{name}.xacro"] = xacro(
            f'<xacro:property name="y" value="${{load_yaml(\'{target}\')}}"/>'
            '<link name="c${y}"/>')
    out["xacro-read-env.xacro"] = xacro('<link name="c$(env HOME)"/>')
    out["xacro-read-missing-arg.xacro"] = xacro('<link name="c$(arg secret_name)"/>')
    out["xacro-read-entity.xacro"] = ('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM '
                                      '"file:///etc/passwd">]>\n<robot name="h" xmlns:xacro='
                                      '"http://www.ros.org/wiki/xacro"><link name="&x;"/>'
                                      f'{ARM}</robot>\n')
    out["urdf-read-entity.urdf"] = out["xacro-read-entity.xacro"]
    out["xacro-read-fatal.xacro"] = xacro('<xacro:property name="v" value="${xacro.fatal('
                                          "'stop')}\"/><link name=\"${v}\"/>")
    # numbers (urdf-*: refused)
    nums = {
        "mimic-multiplier-nan": _joint(extra='<mimic joint="j1" multiplier="nan"/>'),
        "mimic-offset-inf": _joint(extra='<mimic joint="j1" offset="inf"/>'),
        "limit-1e308": _joint(limit='<limit lower="-1e308" upper="1e308" effort="1" '
                                    'velocity="1"/>'),
        "limit-reversed": _joint(limit='<limit lower="1" upper="-1" effort="1" velocity="1"/>'),
        "limit-effort-1e300": _joint(limit='<limit lower="-1" upper="1" effort="1e300" '
                                           'velocity="1"/>'),
        "limit-velocity-minus-inf": _joint(limit='<limit lower="-1" upper="1" effort="1" '
                                                 'velocity="-inf"/>'),
        "axis-1e300": _joint(axis='<axis xyz="0 0 1e300"/>'),
        "axis-two-values": _joint(axis='<axis xyz="0 1"/>'),
        "rpy-four-values": _joint(origin='<origin xyz="0 0 0" rpy="0 0 0 0"/>'),
        "origin-1e30": _joint(origin='<origin xyz="1e30 0 0"/>'),
        "origin-word": _joint(origin='<origin xyz="0 zero 0"/>'),
        "mass-1e300": _link('<inertial><mass value="1e300"/><inertia ixx="1" iyy="1" izz="1" '
                            'ixy="0" ixz="0" iyz="0"/></inertial>'),
        "mass-negative": _link('<inertial><mass value="-1"/></inertial>'),
        "inertia-nan": _link('<inertial><mass value="1"/><inertia ixx="nan" iyy="1" izz="1" '
                             'ixy="0" ixz="0" iyz="0"/></inertial>'),
        "dynamics-damping-inf": _joint(extra='<dynamics damping="inf"/>'),
        "collision-box-two-sizes": _link('<collision><geometry><box size="1 1"/></geometry>'
                                         '</collision>'),
    }
    for name, arm in nums.items():
        out[f"urdf-number-{name}.urdf"] = urdf("", arm)
    out["urdf-duplicate-link.urdf"] = urdf('<link name="base"/>')
    out["urdf-duplicate-joint.urdf"] = urdf(
        "", ARM.replace('<link name="tool"/>', '<link name="tool"/><link name="t2"/>') +
        '<joint name="j1" type="fixed"><parent link="tool"/><child link="t2"/></joint>')
    out["urdf-chain-300-joints.urdf"] = urdf("", _chain(300))
    out["urdf-motor-word.urdf"] = urdf('<robogui><motor joint="j1" B="plenty"/></robogui>')
    out["urdf-gravity-word.urdf"] = urdf('<robogui><gravity xyz="0 0 down"/></robogui>')
    # bad geometry: the robot loads, the view warns naming the link (visual-*, mesh-*)
    vis = {
        "box-two-sizes": '<box size="1 1"/>', "box-nan": '<box size="nan 1 1"/>',
        "sphere-inf": '<sphere radius="inf"/>', "cylinder-1e30": '<cylinder radius="1e30" '
                                                                 'length="1"/>',
        "mesh-scale-two": '<mesh filename="meshes/cube.stl" scale="1 1"/>',
        "mesh-scale-four": '<mesh filename="meshes/cube.stl" scale="1 1 1 1"/>',
        "mesh-scale-nan": '<mesh filename="meshes/cube.stl" scale="nan 1 1"/>',
    }
    for name, geom in vis.items():
        out[f"visual-{name}.urdf"] = urdf("", _visual(geom))
    out["visual-origin-nan.urdf"] = urdf("", _visual('<box size="1 1 1"/>',
                                                     '<origin xyz="nan 0 0"/>'))
    meshes = {
        "etc-passwd": "/etc/passwd", "dotdot": "../../../../../../etc/passwd",
        "file-url-outside": "file:///etc/passwd", "http": "http://example.com/arm.stl",
        "package-unknown": "package://no_such_package/arm.stl",
        "stl-lying-count": "meshes/lying-count.stl", "stl-huge-count": "meshes/huge-count.stl",
        "stl-nan": "meshes/nan.stl", "stl-inf": "meshes/inf.stl", "stl-1e30": "meshes/1e30.stl",
        "ply-lying-count": "meshes/lying.ply", "ply-huge-count": "meshes/huge.ply",
        "obj-nan": "meshes/nan.obj", "obj-mtl-outside": "meshes/mtl-outside.obj",
        "dae-entity": "meshes/entity.dae", "zip-not-zip": "meshes/not-a-zip.zip",
        "missing": "meshes/nothing-here.stl", "directory": "meshes",
        "dae-slow-nodes": "meshes/slow-nodes.dae",
    }
    for name, target in meshes.items():
        out[f"mesh-{name}.urdf"] = urdf("", _visual(f'<mesh filename="{target}"/>'))
    out["meshes/cube.stl"] = _binary_stl(1, real=1)
    out["meshes/lying-count.stl"] = _binary_stl(1000, real=2)
    out["meshes/huge-count.stl"] = _binary_stl(4_000_000_000, real=1)
    out["meshes/nan.stl"] = _binary_stl(1, (float("nan"), 0.0, 0.0))
    out["meshes/inf.stl"] = _binary_stl(1, (float("inf"), 0.0, 0.0))
    out["meshes/1e30.stl"] = _binary_stl(1, (1e30, 0.0, 0.0))
    out["meshes/lying.ply"] = ("ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                               "property float y\nproperty float z\nelement face 50\n"
                               "property list uchar int vertex_indices\nend_header\n"
                               "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    out["meshes/huge.ply"] = out["meshes/lying.ply"].replace("element face 50",
                                                             "element face 900000000")
    out["meshes/nan.obj"] = "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
    out["meshes/mtl-outside.obj"] = ("mtllib ../../../../../../etc/passwd\nv 0 0 0\nv 1 0 0\n"
                                     "v 0 1 0\nf 1 2 3\n")
    out["meshes/entity.dae"] = ('<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM '
                                '"file:///etc/passwd">]><COLLADA>&x;</COLLADA>\n')
    out["meshes/not-a-zip.zip"] = b"PK\x03\x04 not really a zip"
    out["meshes/slow-nodes.dae"] = _slow_collada()
    out.update(_mjcf())
    return out


def mjcf(body: str, head: str = "") -> str:
    """A one-joint MuJoCo arm with ``head`` before its world body and ``body`` inside it."""
    return ('<?xml version="1.0"?>\n<mujoco model="hostile">' + head +
            '<worldbody><body name="link1"><joint name="j1" axis="0 0 1"/>'
            '<geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03"/>' + body +
            '</body></worldbody></mujoco>\n')


def _mjcf() -> dict[str, str]:
    """MJCF files (``mjcf-*.xml``): MuJoCo's compiler would read anything they name."""
    mesh = '<geom type="mesh" mesh="m"/>'
    out = {
        "mjcf-include-etc-passwd.xml": mjcf("", '<include file="/etc/passwd"/>'),
        "mjcf-include-proc.xml": mjcf("", '<include file="/proc/self/environ"/>'),
        "mjcf-include-dotdot.xml": mjcf("", '<include file="../../../../../../etc/passwd"/>'),
        "mjcf-include-loop.xml": mjcf("", '<include file="parts/mjcf-loop.xml"/>'),
        "mjcf-include-self.xml": mjcf("", '<include file="mjcf-include-self.xml"/>'),
        "mjcf-mesh-absolute.xml": mjcf(mesh, '<asset><mesh name="m" file="/etc/passwd"/>'
                                             '</asset>'),
        "mjcf-mesh-dotdot.xml": mjcf(mesh, '<asset><mesh name="m" file="../../../../../../'
                                           'etc/passwd"/></asset>'),
        "mjcf-meshdir-outside.xml": mjcf(mesh, '<compiler meshdir="/etc"/><asset><mesh '
                                               'name="m" file="passwd.stl"/></asset>'),
        "mjcf-mesh-huge-count.xml": mjcf(mesh, '<asset><mesh name="m" file="meshes/'
                                               'huge-count.stl"/></asset>'),
        "mjcf-mesh-missing.xml": mjcf(mesh, '<asset><mesh name="m" file="meshes/nothing-'
                                            'here.stl"/></asset>'),
        "mjcf-texture-outside.xml": mjcf("", '<asset><texture name="t" type="2d" '
                                             'file="/etc/passwd"/></asset>'),
        "mjcf-hfield-dev-zero.xml": mjcf("", '<asset><hfield name="h" file="/dev/zero"/>'
                                             '</asset>'),
        "mjcf-model-attach.xml": mjcf("", '<asset><model name="o" file="other.xml"/></asset>'),
        "mjcf-entity.xml": ('<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x SYSTEM '
                            '"file:///etc/passwd">]>\n' + mjcf("").split("\n", 1)[1]
                            .replace('model="hostile"', 'model="&x;"')),
        "mjcf-nan-pos.xml": mjcf('<body name="link2" pos="nan 0 0"><joint name="j2"/>'
                                 '<geom size="0.02"/></body>'),
        "mjcf-inf-range.xml": mjcf('<body name="link2" pos="0.3 0 0"><joint name="j2" '
                                   'limited="true" range="-inf 1"/><geom size="0.02"/></body>'),
        "mjcf-replicate-100000-bodies.xml": mjcf(
            '<replicate count="100000" offset="0.001 0 0"><body><geom size="0.01"/></body>'
            '</replicate>'),
    }
    out["parts/mjcf-loop.xml"] = ('<mujoco><include file="parts/mjcf-loop.xml"/>'
                                  '</mujoco>\n')
    return out


def _slow_collada(nodes: int = 48_000) -> str:
    """A 2 MB COLLADA file (20 KB in git) of one triangle placed by 48,000 scene nodes:
    pycollada and trimesh spend about half a millisecond per node (24,000 took 11 s on an
    idle machine), so it runs into the wall-time limit of 10 s however fast the machine."""
    acc = ('<accessor source="#pa" count="3" stride="3"><param name="X" type="float"/>'
           '<param name="Y" type="float"/><param name="Z" type="float"/></accessor>')
    geom = ('<geometry id="g"><mesh><source id="p"><float_array id="pa" count="9">0 0 0 0.1 0 '
            f'0 0 0.1 0</float_array><technique_common>{acc}</technique_common></source>'
            '<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>'
            '<triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p>'
            '</triangles></mesh></geometry>')
    node = '<node><instance_geometry url="#g"/></node>\n'
    return ('<?xml version="1.0"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/'
            f'COLLADASchema" version="1.4.1"><library_geometries>{geom}</library_geometries>'
            f'<library_visual_scenes><visual_scene id="s">\n{node * nodes}</visual_scene>'
            '</library_visual_scenes><scene><instance_visual_scene url="#s"/></scene>'
            '</COLLADA>\n')


def main() -> None:
    made = files()
    for name, content in made.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        (HERE / name).parent.mkdir(parents=True, exist_ok=True)
        (HERE / name).write_bytes(data)
    print(f"wrote {len(made)} files to {HERE}")


if __name__ == "__main__":
    main()
