"""Issue 14, item 9: no document or source file refers to a Markdown file that is not in
the repository (docs/formats.md and conventions.md were once only in a private brief)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# a Markdown file name, not part of a URL
MD = re.compile(r"(?<![\w/.:-])((?:[\w.-]+/)*[\w.-]+\.md)\b")


def sources() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder in ("robogui", "tests", "benchmarks", "docs"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return [f for f in files if f.is_file()]


def test_every_markdown_file_mentioned_exists():
    missing = []
    for f in sources():
        text = f.read_text(encoding="utf-8")
        for m in MD.finditer(text):
            name = m.group(1)
            where = [ROOT / name, ROOT / "docs" / name, f.parent / name]
            if not any(p.is_file() for p in where):
                line = text.count("\n", 0, m.start()) + 1
                missing.append(f"{f.relative_to(ROOT)}:{line}: {name}")
    assert not missing, "references to files not in the repository:\n" + "\n".join(missing)
