"""Symbolic kinematics (JFKengine): agreement with the numeric engine, cache, code export."""

import ctypes
import shutil
import subprocess

import numpy as np
import pytest
import sympy

from robogui.engine.kinematics import symbolic as S
from robogui.engine.kinematics.jacobians import jacob0
from robogui.engine.model.link import Link
from robogui.engine.model.robot import Robot
from robogui.io.robotfile import list_robots, load_robot


def _random_q(robot, m, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(-np.pi, np.pi, (m, robot.n))


@pytest.mark.parametrize("name", list_robots())
def test_library_robot_matches_numeric_engine(name):
    robot = load_robot(name)
    q = _random_q(robot, 40, 7)
    T, J = S.evaluate(robot, q)
    np.testing.assert_allclose(T, robot.fkine(q), atol=1e-12, rtol=0)
    np.testing.assert_allclose(J, jacob0(robot, q), atol=1e-12, rtol=0)
    T1, J1 = S.evaluate(robot, q[0], include_orientation=False)
    assert T1.shape == (4, 4) and J1.shape == (3, robot.n)
    np.testing.assert_allclose(J1, J[0, :3], atol=1e-12, rtol=0)


def _odd_robot(mdh):
    rng = np.random.default_rng(4 + mdh)
    links = [Link(joint="P" if j == 1 else "R", theta=rng.normal(), d=rng.normal() * 0.3,
                  a=rng.normal() * 0.3, alpha=rng.normal(), offset=rng.normal() * 0.2, mdh=mdh,
                  qlim=(-1, 1)) for j in range(3)]
    base = np.eye(4)
    base[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    base[:3, 3] = [0.1, 0.2, 0.3]
    tool = np.eye(4)
    tool[:3, :3] = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]
    tool[:3, 3] = [0.0, 0.05, 0.12]
    return Robot(links, name=f"odd{mdh}", base=base, tool=tool)


@pytest.mark.parametrize("mdh", [False, True])
def test_base_tool_prismatic_offsets_both_conventions(mdh):
    robot = _odd_robot(mdh)
    q = _random_q(robot, 25, 3)
    T, J = S.evaluate(robot, q)
    np.testing.assert_allclose(T, robot.fkine(q), atol=1e-12, rtol=0)
    np.testing.assert_allclose(J, jacob0(robot, q), atol=1e-12, rtol=0)
    sk = S.symbolic_kinematics(robot)
    assert sk.J[3:, 1] == sympy.zeros(3, 1)  # prismatic: no angular part
    locs = sk.joint_locations()
    f = sympy.lambdify(sk.q, [list(p) for p in locs])
    np.testing.assert_allclose(np.array(f(*q[0]), dtype=float),
                               robot.joint_locations(q[0]), atol=1e-12)


def test_jfkengine_eq2_link_matrix_with_corrected_element():
    # eq. (2) prints A(1,3) as sin(theta) cos(alpha); it is sin(theta) sin(alpha)
    alpha, a, d = 0.3, 0.6, 0.2
    robot = Robot([Link(a=a, d=d, alpha=alpha)])
    A = S.link_matrices_sym(robot)[0]
    q1 = S.symbolic_kinematics(robot).q[0]
    assert sympy.simplify(A[0, 2] - sympy.sin(q1) * np.sin(alpha)) == 0
    assert sympy.simplify(A[1, 2] + sympy.cos(q1) * np.sin(alpha)) == 0
    for th in (0.0, 0.7, -2.0):
        np.testing.assert_allclose(np.array(A.subs(q1, th), dtype=float), robot.links[0].A(th),
                                   atol=1e-15)


def test_jfkengine_examples_2_to_4_expression_and_derivative():
    # Example 2: 0.6*cos(q4) appears in T; Example 3 evaluates it at 90 degrees -> 0;
    # Example 4: its derivative is -0.6*sin(q4) (the paper prints the sign as lost)
    robot = Robot([Link(alpha=np.pi / 2), Link(), Link(alpha=-np.pi / 2), Link(a=0.6)])
    sk = S.symbolic_kinematics(robot)
    q4 = sk.q[3]
    e = sk.A[3][0, 3]
    assert e == 0.6 * sympy.cos(q4)
    assert abs(float(e.subs(q4, sympy.pi / 2))) < 1e-15
    assert sympy.simplify(sympy.diff(e, q4) + 0.6 * sympy.sin(q4)) == 0


def test_jfkengine_section_4_1_4_two_joint_matrix():
    # the printed T of "a particular robot after two joints" (a Puma: alpha1 = 90 deg,
    # a2 = 0.4318, d2 = 0.14909); its minus signs were lost in print and are restored here
    robot = Robot([Link(alpha=np.pi / 2), Link(a=0.4318, d=0.14909)])
    T = S.fkine_sym(robot)
    p0, p1 = S.symbolic_kinematics(robot).q
    c0, s0, c1, s1 = sympy.cos(p0), sympy.sin(p0), sympy.cos(p1), sympy.sin(p1)
    printed = sympy.Matrix([
        [c0 * c1, -c0 * s1, s0, c0 * (0.4318 * c1) + s0 * 0.14909],
        [s0 * c1, -s0 * s1, -c0, s0 * 0.4318 * c1 - c0 * 0.14909],
        [s1, c1, 0, 0.4318 * s1],
        [0, 0, 0, 1]])
    assert (T - printed).applyfunc(sympy.expand) == sympy.zeros(4, 4)


def test_jfkengine_sample_code_arm_and_position_only_jacobian():
    # section 3.4: a = (1, 2, 0.5), d = (0, 0.1, 0), alpha = (pi/2, pi, 0) (the listing's
    # `alpha = ...` assigns the whole vector each time; the per-joint values are meant)
    robot = Robot([Link(a=1, alpha=np.pi / 2), Link(a=2, d=0.1, alpha=np.pi), Link(a=0.5)])
    J = S.jacobian_sym(robot)
    assert J.shape == (6, 3) and S.jacobian_sym(robot, include_orientation=False).shape == (3, 3)
    for q in ([np.pi / 4, -np.pi / 3, np.pi / 6], [np.pi / 4, np.pi / 2, np.pi / 6]):
        np.testing.assert_allclose(S.evaluate(robot, q)[1], jacob0(robot, q), atol=1e-12)


def test_cache_hits_misses_and_tool_acquisition():
    S.clear_cache()  # the library Puma may have been derived by an earlier test
    robot = load_robot("puma560").replace(name="puma for the cache test")
    before = S.cache_info()
    sk1 = S.symbolic_kinematics(robot)
    after = S.cache_info()
    assert after["misses"] == before["misses"] + 1 and after["hits"] == before["hits"]
    again = load_robot("puma560").replace(name="puma for the cache test")
    assert S.symbolic_kinematics(again) is sk1  # an equal description is a cache hit
    assert S.cache_info()["hits"] == after["hits"] + 1
    tool = np.eye(4)
    tool[2, 3] = 0.2
    tooled = robot.with_tool(tool)
    sk2 = S.symbolic_kinematics(tooled)  # tool acquisition: derived again
    assert sk2 is not sk1 and S.cache_info()["misses"] == after["misses"] + 1
    q = robot.random_q(5, seed=1)
    np.testing.assert_allclose(S.evaluate(tooled, q)[0], tooled.fkine(q), atol=1e-12)
    assert not np.allclose(S.evaluate(tooled, q)[0], S.evaluate(robot, q)[0])
    S.clear_cache()
    assert S.cache_info() == {"hits": 0, "misses": 0, "size": 0, "maxsize": 16}


def test_cache_key_is_the_kinematic_description():
    S.clear_cache()
    robot = load_robot("puma560")
    sk = S.symbolic_kinematics(robot)
    # name, masses, motor data and limits do not change T and J: still a hit
    heavier = robot.with_links([L.replace(m=L.m + 1.0, Jm=0.0, qlim=(-1.0, 1.0))
                                for L in robot.links]).replace(name="renamed")
    assert heavier.key != robot.key
    assert S.symbolic_kinematics(heavier) is sk
    assert S.cache_info() == {"hits": 1, "misses": 1, "size": 1, "maxsize": 16}
    # any kinematic change derives again: a D-H length, an offset, a base
    links = list(robot.links)
    links[1] = links[1].replace(a=0.5)
    longer = robot.with_links(links)
    links2 = list(robot.links)
    links2[2] = links2[2].replace(offset=0.1)
    shifted = robot.with_links(links2)
    base = np.eye(4)
    base[:3, 3] = [0.4, 0.0, 0.1]
    based = robot.with_base(base)
    derived = [S.symbolic_kinematics(r) for r in (longer, shifted, based)]
    assert S.cache_info()["misses"] == 4 and len({id(d) for d in derived} | {id(sk)}) == 4
    q = robot.random_q(7, seed=3)
    for r, d in zip((longer, shifted, based), derived, strict=True):
        np.testing.assert_allclose(d.evaluate(q)[0], r.fkine(q), atol=1e-12)
        np.testing.assert_allclose(d.evaluate(q)[1], jacob0(r, q), atol=1e-12)
    S.clear_cache()


def test_python_export_is_standalone_and_batched():
    robot = load_robot("stanford")
    src = S.to_python(robot, func_name="stanford_kin")
    assert "import numpy" in src and "sympy" not in src
    ns = {}
    exec(compile(src, "stanford_kin.py", "exec"), ns)
    q = _random_q(robot, 9, 2)
    T, J = ns["stanford_kin"](q)
    np.testing.assert_allclose(T, robot.fkine(q), atol=1e-12)
    np.testing.assert_allclose(J, jacob0(robot, q), atol=1e-12)
    T1, J1 = ns["stanford_kin"](q[0])
    np.testing.assert_allclose(T1, T[0])
    np.testing.assert_allclose(J1, J[0])


@pytest.mark.parametrize("name", list_robots())
def test_c_export_compiles_and_matches(name, tmp_path):
    robot = load_robot(name)
    lib, dp = _compile_c(S.to_c(robot, func_name="kin"), tmp_path, "full")
    for q in _random_q(robot, 6, 11):
        qa = np.ascontiguousarray(q, dtype=np.float64)
        T, J = np.zeros(16), np.zeros(6 * robot.n)
        lib.kin(qa.ctypes.data_as(dp), T.ctypes.data_as(dp), J.ctypes.data_as(dp))
        np.testing.assert_allclose(T.reshape(4, 4), robot.fkine(q), atol=1e-12)
        np.testing.assert_allclose(J.reshape(6, robot.n), jacob0(robot, q), atol=1e-12)


def test_expression_strings_are_readable_and_exact():
    robot = load_robot("puma560")
    d = S.expression_strings(robot)
    names = dict(d["names"])
    assert names["c23"] == "cos(q2 + q3)" and names["s1"] == "sin(q1)"
    assert len(d["T"]) == 4 and all(len(r) == 4 for r in d["T"])
    assert len(d["J"]) == 6 and all(len(r) == 6 for r in d["J"])
    assert d["T"][3] == ["0", "0", "0", "1"]
    assert "0.4318" in " ".join(v for _, v in d["names"]) + " ".join(sum(d["T"], []))
    # substituting the named pieces back gives the numbers of the engine
    q = robot.random_q(seed=5)
    env = {f"q{i + 1}": sympy.Float(v) for i, v in enumerate(q)}
    for name, text in d["names"]:
        env[name] = sympy.sympify(text, locals=env).evalf(subs=env)
    T = np.array([[float(sympy.sympify(t, locals=env)) for t in row] for row in d["T"]])
    J = np.array([[float(sympy.sympify(t, locals=env)) for t in row] for row in d["J"]])
    np.testing.assert_allclose(T, robot.fkine(q), atol=1e-12)
    np.testing.assert_allclose(J, jacob0(robot, q), atol=1e-12)


def test_bad_q_is_rejected():
    robot = load_robot("twolink")
    with pytest.raises(ValueError, match="q must have shape"):
        S.evaluate(robot, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="non-finite"):
        S.evaluate(robot, [np.nan, 0.0])


def _compile_c(src, tmp_path, tag):
    cc = shutil.which("cc")
    assert cc, "the machine's C compiler (cc) is required"
    c_file, so_file = tmp_path / f"kin_{tag}.c", tmp_path / f"libkin_{tag}.so"
    c_file.write_text(src)
    subprocess.run([cc, "-std=c99", "-O1", "-shared", "-fPIC", "-Wall", "-Werror",
                    str(c_file), "-o", str(so_file), "-lm"], check=True, capture_output=True)
    lib = ctypes.CDLL(str(so_file))
    dp = ctypes.POINTER(ctypes.c_double)
    lib.kin.argtypes = [dp, dp, dp]
    lib.kin.restype = None
    return lib, dp


@pytest.mark.parametrize("mdh", [False, True])
def test_exports_position_only_with_prismatic_base_and_tool(mdh, tmp_path):
    # JFKengine's includeOrientation=False: J has the 3 position rows in both exports
    robot = _odd_robot(mdh)
    q = _random_q(robot, 5, 8)
    ns = {}
    exec(compile(S.to_python(robot, include_orientation=False), "kin3.py", "exec"), ns)
    T, J = ns["kinematics"](q)
    assert J.shape == (5, 3, 3)
    np.testing.assert_allclose(T, robot.fkine(q), atol=1e-12)
    np.testing.assert_allclose(J, jacob0(robot, q)[:, :3], atol=1e-12)
    for rows in (6, 3):
        src = S.to_c(robot, func_name="kin", include_orientation=rows == 6)
        lib, dp = _compile_c(src, tmp_path, f"{int(mdh)}_{rows}")
        for qi in q:
            qa = np.ascontiguousarray(qi, dtype=np.float64)
            Tc, Jc = np.zeros(16), np.full(rows * 3 + 1, 7.0)  # guard word after J
            lib.kin(qa.ctypes.data_as(dp), Tc.ctypes.data_as(dp), Jc.ctypes.data_as(dp))
            assert Jc[-1] == 7.0  # nothing written past rows x n
            np.testing.assert_allclose(Tc.reshape(4, 4), robot.fkine(qi), atol=1e-12)
            np.testing.assert_allclose(Jc[:-1].reshape(rows, 3), jacob0(robot, qi)[:rows],
                                       atol=1e-12)


def test_expressions_are_simplified():
    # products of sines and cosines of joint angles are folded into sums of angles
    sk = S.symbolic_kinematics(load_robot("puma560"))
    q1, q2, q3 = sk.q[:3]
    x = sk.T[0, 3]
    assert x.has(sympy.cos(q2 + q3)) and x.has(sympy.sin(q2 + q3))
    assert not x.has(sympy.sin(q2) * sympy.sin(q3))
    assert sympy.expand(x - (0.15005 * sympy.sin(q1) + 0.4318 * sympy.cos(q1) * sympy.cos(q2)
                             + 0.0203 * sympy.cos(q1) * sympy.cos(q2 + q3)
                             - 0.4318 * sympy.cos(q1) * sympy.sin(q2 + q3))) == 0
    assert sympy.count_ops(x) < sympy.count_ops(sympy.expand(x, trig=True)) - 5
    # the joint locations are expressions too: the wrist centre of the Puma
    locs = sk.joint_locations()
    assert len(locs) == 7 and locs[0] == sympy.zeros(3, 1)
    assert locs[4][2] == locs[6][2] and not locs[4][2].has(sk.q[3], sk.q[4], sk.q[5])
