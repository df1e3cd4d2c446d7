"""The learner edition: solutions become stubs, outputs go, and every check then fails with its sentence."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from ragcourse.cli import main
from ragcourse.exercises import ExerciseError, attempt, expect, given
from ragcourse.student import learner_edition, stub_source

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"

BAKERY = '''import math


def loaves_needed(orders: list[int], per_tray: int = 12) -> int:
    """Trays to bake for the day's orders."""
    return math.ceil(sum(orders) / per_tray)


trays = loaves_needed([30, 14])
for t in range(trays):
    print("tray", t)
'''


def test_stub_keeps_imports_signatures_and_names_but_no_solution():
    stub = stub_source(BAKERY)
    assert "import math" in stub
    assert "def loaves_needed(orders: list[int], per_tray: int = 12) -> int:" in stub
    assert "Trays to bake for the day's orders." in stub
    assert "raise NotImplementedError" in stub
    assert "trays = ...  # your answer" in stub
    assert "math.ceil" not in stub and "print(" not in stub
    compile(stub, "stub", "exec")


def test_a_failed_check_is_one_sentence():
    error = pytest.raises(ExerciseError, expect, False, "The oven is cold: preheat it.").value
    assert error._render_traceback_() == ["✗ The oven is cold: preheat it."]
    with pytest.raises(ExerciseError, match="`trays` is not set yet"):
        given(..., "trays")

    def loaves(n: int) -> int:
        raise NotImplementedError("write this function")

    with pytest.raises(ExerciseError, match="`loaves` is not written yet"):
        attempt(loaves, 3)
    with pytest.raises(ExerciseError, match="`_divide` raised ZeroDivisionError"):
        attempt(_divide, 0)


def _divide(n: int) -> float:
    return 1 / n


def test_learner_edition_has_no_solutions_and_no_outputs(tmp_path: Path):
    assert main(["student", str(tmp_path)]) == 0
    written = sorted(tmp_path.glob("0*.ipynb"))
    assert [p.name for p in written] == sorted(p.name for p in NOTEBOOKS.glob("0*.ipynb"))
    for path in written:
        full = nbformat.read(NOTEBOOKS / path.name, as_version=4)
        learner = nbformat.read(path, as_version=4)
        assert len(learner.cells) == len(full.cells)
        for mine, theirs in zip(learner.cells, full.cells, strict=True):
            if mine.cell_type != "code":
                continue
            assert not mine.outputs and mine.execution_count is None, f"{path.name}: an output is left"
            if "solution" in theirs.metadata.get("tags", []):
                assert mine.source == stub_source(theirs.source) != theirs.source, f"{path.name}: a solution is left"
            else:
                assert mine.source == theirs.source


def test_learner_edition_refuses_to_overwrite_the_full_edition():
    assert main(["student", str(NOTEBOOKS)]) == 2


def test_learner_edition_leaves_the_full_edition_alone():
    full = nbformat.read(NOTEBOOKS / "01_minimal_rag.ipynb", as_version=4)
    before = nbformat.writes(full)
    learner_edition(full)
    assert nbformat.writes(full) == before


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in NOTEBOOKS.glob("0*.ipynb")))
def test_every_check_of_the_learner_edition_fails_with_its_message(tmp_path: Path, name: str):
    """Run the learner's copy: each check cell stops with an ExerciseError sentence, and no other cell fails."""
    from nbclient import NotebookClient

    main(["student", str(tmp_path)])
    notebook = nbformat.read(tmp_path / name, as_version=4)
    NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.outputs if o.output_type == "error"]
        if "check" in cell.metadata.get("tags", []):
            assert errors, f"a check passed without a solution: {cell.source[:80]!r}"
            assert errors[0].ename == "ExerciseError", f"{errors[0].ename}: {errors[0].evalue} in {cell.source[:60]!r}"
            assert len(errors[0].evalue) > 20, errors[0].evalue
            assert errors[0].traceback == [f"✗ {errors[0].evalue}"], "the learner sees a sentence, not a traceback"
        else:
            assert not errors, f"{errors[0].ename}: {errors[0].evalue} in {cell.source[:80]!r}"
