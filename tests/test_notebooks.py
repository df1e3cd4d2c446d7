"""The notebooks' shape: what every lesson promises a learner, checked on the committed files.

Their outputs are checked by nbval (``pytest notebooks --nbval``); this checks the text around them.
"""

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("0*.ipynb"))


def cells(path: Path) -> list[dict]:
    return [{**c, "text": "".join(c["source"])} for c in json.loads(path.read_text(encoding="utf-8"))["cells"]]


def tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def test_there_are_six_notebooks():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_markdown_is_markdown_not_commented_source(path: Path):
    """A cell written as "# prose" renders as a wall of headings: only the title may be a level-1 heading."""
    markdown = [c["text"] for c in cells(path) if c["cell_type"] == "markdown"]
    assert markdown[0].startswith("# "), "the first cell is the title"
    level_one = [text[:60] for text in markdown[1:] if re.search(r"^# ", text, re.M)]
    assert not level_one, f"level-1 headings after the title (a '# ' prefix left from a script?): {level_one}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_lesson_structure(path: Path):
    all_cells = cells(path)
    code = [c for c in all_cells if c["cell_type"] == "code"]
    markdown = "\n".join(c["text"] for c in all_cells if c["cell_type"] == "markdown")
    assert "nbval-skip" in tags(code[0]), "the versions cell is skipped by nbval (cell tag nbval-skip)"
    assert "google.colab" in code[0]["text"] and "requirements.txt" in code[0]["text"], \
        "the first cell installs the pinned requirements on Colab"
    assert "Learning objectives" in markdown
    assert re.search(r"^#+ .*Exercise", markdown, re.M), "exercises"
    assert re.search(r"^## Summary", markdown, re.M)
    assert "Try it with a real LLM" in markdown
    assert all(c.get("execution_count") for c in code if c["text"].strip()), "committed executed"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_test_markers_are_tags_not_comments(path: Path):
    """A learner reads the code cells: nbval's markers belong in the cell tags, where nbval reads them too."""
    marked = [c["text"][:40] for c in cells(path) if c["cell_type"] == "code" and "NBVAL_" in c["text"]]
    assert not marked, f"cells with # NBVAL_ comments (use the tags nbval-skip / nbval-ignore-output): {marked}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_exercises_have_solutions_and_checks(path: Path):
    """At least three exercises, each a cell tagged solution followed by a check cell; at least one builds a mechanism."""
    code = [c for c in cells(path) if c["cell_type"] == "code"]
    kinds = [("solution" if "solution" in tags(c) else "check" if "check" in tags(c) else "") for c in code]
    checks = kinds.count("check")
    assert checks >= 3, f"{checks} exercises with checks; the course promises at least three per notebook"
    assert any("build" in tags(c) and "solution" in tags(c) for c in code), "no build-it-yourself exercise (tag build)"
    for i, kind in enumerate(kinds):
        if kind == "solution":
            assert "check" in kinds[i + 1:i + 2], f"solution cell {code[i]['text'][:50]!r} is not followed by its check"
    for cell in code:
        if "check" in tags(cell):
            assert "ragcourse.exercises" in cell["text"] or "expect(" in cell["text"], \
                f"a check that fails with a traceback instead of a sentence: {cell['text'][:60]!r}"
            assert not re.search(r"^\s*assert ", cell["text"], re.M), "checks use expect(...), not assert"
