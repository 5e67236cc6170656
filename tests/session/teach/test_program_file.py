"""Program files: exact round trip, atomic save, clear errors for malformed input."""

import os
import tomllib
from pathlib import Path

import numpy as np
import pytest

from robogui.session.teach.program import Move, Program, Waypoint
from robogui.session.teach.program_file import (
    ProgramFileError,
    dumps_program,
    load_program,
    loads_program,
    save_program,
)

GOOD = """\
format = "robogui-program"
version = 1
name = "pick"
robot = "puma560"

[[waypoint]]
name = "home"
q = [0, 0.5, -1.0, 0, 0.25, 0]

[[waypoint]]
name = "above"
q = [0.1, 0.6, -1.1, 0, 0.3, 0.2]
comment = "above the part"

[[move]]
kind = "joint"
target = "home"

[[move]]
kind = "linear"
target = "above"
speed = 0.1
blend = 0.05
"""


def sample_program() -> Program:
    rng = np.random.default_rng(3)
    p = Program(name='pick "and" place\nline two', robot="puma560", comment="ünïcode ok")
    for k in range(4):
        p = p.record(rng.uniform(-3, 3, 6), comment=f"point {k}\twith tab" if k else "",
                     move_kind="linear" if k % 2 else "joint")
    p = p.update_move(1, duration=2.5).update_move(2, speed=0.3, blend=0.2)
    return p.set_move_comment(0, "start").rename_waypoint("P2", "grasp [left]")


def test_round_trip_is_exact(tmp_path):
    p = sample_program()
    path = save_program(p, tmp_path / "a.prog")
    back = load_program(path)
    assert back == p
    for w, wb in zip(p.waypoints, back.waypoints, strict=True):
        assert w.q.tobytes() == wb.q.tobytes()  # bit-exact floats
    # the text is plain TOML with the documented keys and a degree comment
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "robogui-program" and data["version"] == 2
    assert [w["name"] for w in data["waypoint"]] == p.names
    assert data["move"][1] == {"kind": "linear", "target": "grasp [left]", "duration": 2.5}
    assert "# deg: [" in path.read_text(encoding="utf-8")
    # saving the loaded program gives the same text
    assert dumps_program(back) == dumps_program(p)


def test_hand_written_file_loads():
    p = loads_program(GOOD)
    assert p.name == "pick" and p.robot == "puma560" and p.names == ["home", "above"]
    np.testing.assert_array_equal(p.waypoint("home").q, [0, 0.5, -1.0, 0, 0.25, 0])
    assert p.moves == (Move("joint", "home"), Move("linear", "above", speed=0.1, blend=0.05))
    assert p.waypoint("above").comment == "above the part"
    empty = loads_program('format = "robogui-program"\n')
    assert empty.waypoints == () and empty.moves == ()


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "b.prog"
    old = Program(name="old").record(np.zeros(3))
    save_program(old, path)
    before = path.read_bytes()

    def crash(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        save_program(Program(name="new").record(np.ones(3)), path)
    assert path.read_bytes() == before  # the old file is intact
    assert os.listdir(tmp_path) == ["b.prog"]  # and no temporary file is left behind


def bad(text: str, tmp_path, name="bad.prog") -> ProgramFileError:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProgramFileError) as info:
        load_program(path)
    assert str(path) in str(info.value)
    return info.value


@pytest.mark.parametrize("old, new, line, entry, field, words", [
    ('q = [0.1, 0.6, -1.1, 0, 0.3, 0.2]', 'q = [0.1, 0.6, "x", 0, 0.3, 0.2]', 12,
     "waypoint 2 ('above')", "q", "list of numbers"),
    ('q = [0.1, 0.6, -1.1, 0, 0.3, 0.2]', 'q = [0.1, 0.6, 0.3, 0.2]', 12,
     "waypoint 2 ('above')", "q", "has 4 joint values but waypoint 1 has 6"),
    ('kind = "linear"', 'kind = "circle"', 20, "move 2", "kind", "'linear' or 'circular'"),
    ('target = "above"', 'target = "abve"', 21, "move 2", "target", "not a waypoint"),
    ('speed = 0.1', 'speed = -0.1', 22, "move 2", "speed", "positive"),
    ('speed = 0.1', 'sped = 0.1', 22, "move 2", "sped", "unknown key"),
    ('robot = "puma560"', 'robot = "puma560"\ncolour = "red"', 5, None, "colour",
     "unknown key"),
    ('name = "above"', 'name = "home"', 11, "waypoint 2", "name", "unique"),
    ('speed = 0.1', 'speed = "fast"', 22, "move 2", "speed", "must be a number"),
    ('name = "home"', 'nme = "home"', 7, "waypoint 1", "nme", "unknown key"),
    ('version = 1', 'version = 7', 2, None, "version", "not supported"),
])
def test_malformed_files_name_line_entry_field(tmp_path, old, new, line, entry, field, words):
    assert old in GOOD
    err = bad(GOOD.replace(old, new, 1), tmp_path)
    assert err.line == line, str(err)
    assert err.entry == entry if entry is None else err.entry.startswith(entry), str(err)
    assert err.field == field, str(err)
    assert words in str(err)
    assert f"line {line}" in str(err)


def test_syntax_errors_and_other_files(tmp_path):
    err = bad(GOOD.replace('kind = "joint"', 'kind = joint'), tmp_path)
    assert "not valid TOML" in str(err) and err.line == 16
    err = bad('name = "x"\n', tmp_path)
    assert "missing 'format" in str(err)
    err = bad('format = "robogui-robot"\n', tmp_path)
    assert err.field == "format" and "robogui-program" in str(err)
    (tmp_path / "bin.prog").write_bytes(b"name = \"\xe9t\xe9\"\n")  # Latin-1
    with pytest.raises(ProgramFileError, match="not UTF-8"):
        load_program(tmp_path / "bin.prog")
    with pytest.raises(ProgramFileError, match="cannot read"):
        load_program(tmp_path / "missing.prog")
    err = bad(GOOD.replace("q = [0, 0.5, -1.0, 0, 0.25, 0]", "q = [0, nan, 0, 0, 0, 0]"),
              tmp_path)
    assert err.field == "q" and "finite" in str(err)


def test_waypoint_order_and_unicode_names_survive(tmp_path):
    p = Program((Waypoint("zé", [1.0]), Waypoint("a b", [2.0])), (Move("joint", "a b"),))
    assert load_program(save_program(p, tmp_path / "u.prog")) == p


def test_documented_example_loads():
    doc = (Path(__file__).resolve().parents[3] / "docs" / "program-file-format.md").read_text(
        encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    p = loads_program(example)
    assert p.name == "pick and place" and p.names == ["home", "above part", "side"]
    assert [m.kind for m in p.moves] == ["joint", "joint", "linear", "linear", "circular"]
    assert p.moves[1] == Move("joint", "above part", speed=0.5, blend=0.2)
    assert p.moves[3].blend_radius == 0.05  # blend_radius_mm = 50.0
    assert (p.moves[4].via, p.moves[4].speed_percent, p.moves[4].accel_percent) == (
        "side", 50.0, 80.0)
    np.testing.assert_allclose(p.waypoint("home").q, np.radians([0, 45, 180, 0, 45, 0]))
