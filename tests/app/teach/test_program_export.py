"""File > Teach program > Export program as...: the sample program written as RAPID and KRL
through the menu (file dialog answered), the files equal the golden ones; a language the
dialog cannot name is said, nothing written."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "data" / "robot_languages"
SAMPLE = ROOT / "assets" / "pick-and-place.prog"


def _menu_action(window, text: str):
    for act in window.file_menu.actions():
        sub = act.menu()
        if sub is None:
            continue
        for a in sub.actions():
            if a.text().replace("&", "") == text:
                return a
    raise AssertionError(f"no File menu action {text!r}")


def test_export_program_as_rapid_and_krl_through_the_menu(qtbot, window, tmp_path,
                                                          monkeypatch, errors):
    assert window.teach.program.load_from(SAMPLE)
    action = _menu_action(window, "Export program as\u2026")
    assert action is window.act_export_program
    answers = iter([(str(tmp_path / "demo.mod"), "ABB RAPID (*.mod)"),
                    (str(tmp_path / "pick-and-place"), "KUKA KRL (*.src)")])
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", lambda *a, **k: next(answers))
    action.trigger()
    assert (tmp_path / "demo.mod").read_text() == (GOLDEN / "pick_and_place.mod").read_text()
    action.trigger()
    # KRL names the module after the file: the stem is made a KRL name
    assert (tmp_path / "pick_and_place.src").read_text() == \
        (GOLDEN / "pick_and_place.src").read_text()
    assert (tmp_path / "pick_and_place.dat").read_text() == \
        (GOLDEN / "pick_and_place.dat").read_text()
    assert errors == []
    assert "Exported pick_and_place.src, pick_and_place.dat" in \
        window.teach.program.status_text


def test_export_with_an_unknown_language_is_said_and_writes_nothing(qtbot, window, tmp_path,
                                                                    monkeypatch, errors):
    assert window.teach.program.load_from(SAMPLE)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "demo.gcode"), ""))
    window.act_export_program.trigger()
    assert errors and errors[-1][0] == "Cannot export the program"
    assert "choose urscript, rapid or krl" in errors[-1][1]
    assert list(tmp_path.iterdir()) == []


def test_export_uses_the_tool_set_in_the_app(qtbot, window, session, tmp_path, monkeypatch,
                                             errors):
    from robogui.engine.kinematics.kinematics import fkine
    from robogui.engine.spatial.transforms import transl, trotx
    from robogui.io.robot_languages.urscript import read_urscript
    from robogui.session.teach.program_file import load_program

    tool = transl(0.01, 0.0, 0.12) @ trotx(0.3)
    session.set_tool(tool)
    assert window.teach.program.load_from(SAMPLE)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName",
                        lambda *a, **k: (str(tmp_path / "tool.script"), "URScript (*.script)"))
    window.act_export_program.trigger()
    assert errors == []
    tcp, moves = read_urscript((tmp_path / "tool.script").read_text())
    assert abs(tcp - tool).max() < 1e-6
    pick = load_program(SAMPLE).waypoint("pick").q
    assert abs(moves[2].pose - fkine(session.robot, pick)).max() < 1e-6
