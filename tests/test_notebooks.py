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
    assert code[0]["text"].startswith("# NBVAL_SKIP"), "the versions cell is skipped by nbval"
    assert "Learning objectives" in markdown
    assert re.search(r"^#+ .*Exercise", markdown, re.M), "exercises"
    assert re.search(r"^## Summary", markdown, re.M)
    assert "Try it with a real LLM" in markdown
    assert all(c.get("execution_count") for c in code if c["text"].strip()), "committed executed"
