"""The learner edition: the six notebooks with every solution replaced by a stub, outputs cleared.

A workshop hands these copies out; the instructor keeps the full edition. Cells tagged
``solution`` keep only what the learner needs to start: the imports, each function's signature
and docstring (its body raises ``NotImplementedError``) and each answer's name (set to ``...``).
The check cells after them then fail with a sentence (see :mod:`ragcourse.exercises`) until
the learner writes the solution. The work is done by nbconvert preprocessors.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from .errors import CourseError

SOLUTION_TAG = "solution"
STUB_HEADER = "# Exercise: write your solution here, run this cell, then run the check below.\n"


def stub_source(source: str) -> str:
    """A solution cell's stub: imports kept, function bodies replaced, answers set to ``...``, the rest dropped."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise CourseError(f"A solution cell is not valid Python ({exc.msg}, line {exc.lineno}): fix the notebook.") from None
    lines = source.splitlines()
    imports: list[str] = []
    kept: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            imports.append(ast.get_source_segment(source, node) or ast.unparse(node))
        elif isinstance(node, ast.FunctionDef):
            first = node.body[0]
            has_docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                and isinstance(first.value.value, str)
            keep_until = first.end_lineno if has_docstring else first.lineno - 1
            indent = " " * first.col_offset
            head = lines[node.lineno - 1:keep_until]  # the signature as written, and the docstring
            kept.append("\n".join([*head, f'{indent}raise NotImplementedError("write this function")']))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            kept.extend(f"{ast.unparse(target)} = ...  # your answer" for target in targets)
    blocks = (["\n".join(imports)] if imports else []) + kept
    return STUB_HEADER + "\n\n\n".join(blocks) + ("\n" if blocks else "")


def _preprocessors() -> list[Any]:
    from nbconvert.preprocessors import ClearMetadataPreprocessor, ClearOutputPreprocessor, Preprocessor

    class StubSolutions(Preprocessor):
        """Replace the source of every cell tagged ``solution`` with its stub."""

        def preprocess_cell(self, cell: Any, resources: dict, index: int) -> tuple[Any, dict]:
            if SOLUTION_TAG in cell.get("metadata", {}).get("tags", []):
                cell.source = stub_source(cell.source)
            return cell, resources

    return [StubSolutions(), ClearOutputPreprocessor(),
            ClearMetadataPreprocessor(preserve_cell_metadata_mask={"tags"}, preserve_nb_metadata_mask={
                "kernelspec", "language_info"})]


def learner_edition(notebook: Any) -> Any:
    """The learner's copy of one notebook (an nbformat node; the argument is not changed)."""
    import copy

    copy_ = copy.deepcopy(notebook)
    resources: dict = {}
    for preprocessor in _preprocessors():
        copy_, resources = preprocessor.preprocess(copy_, resources)
    copy_.metadata.pop("widgets", None)
    return copy_


def write_learner_edition(target: Path, source: Path | None = None) -> list[Path]:
    """Write the learner edition of every course notebook into ``target``; returns the files written."""
    import nbformat

    source = source or Path(__file__).resolve().parents[1] / "notebooks"
    notebooks = sorted(source.glob("0*.ipynb"))
    if not notebooks:
        raise CourseError(f"No course notebooks in {source}: run this from a clone of the course.")
    target = Path(target)
    if target.resolve() == source.resolve():
        raise CourseError(f"{target} holds the full edition: choose another folder for the learner edition.")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        edition = learner_edition(nbformat.read(path, as_version=4))
        nbformat.write(edition, target / path.name)
        written.append(target / path.name)
    for extra in ("sanitize.cfg",):
        if (source / extra).exists():
            (target / extra).write_text((source / extra).read_text(encoding="utf-8"), encoding="utf-8")
    return written
