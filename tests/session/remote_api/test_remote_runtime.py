"""The runtime file: the token readable by its owner only, whatever the umask."""

from __future__ import annotations

import os

import pytest

from robogui.session.remote_api.runtime import (
    read_runtime_file,
    runtime_path,
    write_runtime_file,
    ws_url,
)


def test_the_runtime_file_is_0600_in_a_0700_folder_even_with_an_open_umask(tmp_path):
    old = os.umask(0)
    try:
        path = write_runtime_file(tmp_path / "run" / "robogui-8765.json", "127.0.0.1", 8765,
                                  "abc123")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700
    info = read_runtime_file(path)
    assert info["url"] == "ws://127.0.0.1:8765" and info["token"] == "abc123"
    assert info["pid"] == os.getpid()
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def test_runtime_folder_and_urls(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert runtime_path(9000) == tmp_path / "robogui" / "robogui-9000.json"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert runtime_path(1) == tmp_path / ".local/share/robogui/runtime/robogui-1.json"
    assert ws_url("::1", 80) == "ws://[::1]:80"


def test_a_file_that_is_not_a_runtime_file_is_named(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"port": "80"}')
    with pytest.raises(ValueError, match="x.json"):
        read_runtime_file(bad)
    with pytest.raises(ValueError, match="missing.json"):
        read_runtime_file(tmp_path / "missing.json")
