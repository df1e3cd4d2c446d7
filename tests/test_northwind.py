"""The Northwind benchmark's metrics and dataset reading, on an invented bakery's questions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragcourse.errors import CourseError
from ragcourse.northwind import MISSES, any_at, citations, load_questions, matched, miss, northwind_folder, summarise


def test_citations_are_read_in_order_once() -> None:
    text = "Rye dough rests overnight [Bakery_Manual.pdf#page=4][Bakery_Manual.pdf#page=4] [Ovens.pdf#page=12]."
    assert citations(text) == [("Bakery_Manual.pdf", 4), ("Ovens.pdf", 12)]


def test_page_any_at_k_counts_distinct_pages() -> None:
    pages = [("ovens.pdf", 1), ("ovens.pdf", 1), ("ovens.pdf", 2), ("rye.pdf", 7)]
    assert any_at(pages, [("rye.pdf", 7)], 3) == 1.0  # the repeated page counts once
    assert any_at(pages, [("rye.pdf", 7)], 2) == 0.0


def test_citations_matched_strict_and_lenient() -> None:
    truth = [("rye.pdf", 7), ("ovens.pdf", 2)]
    answer = "Proof at 28 °C [rye.pdf#page=8] and bake at 230 °C [ovens.pdf#page=2]."
    assert matched(answer, truth) == 0.5
    assert matched(answer, truth, lenient=True) == 1.0  # the next page is accepted only by the lenient variant
    assert matched("No citation here.", truth, lenient=True) == 0.0


def test_questions_alternate_between_dev_and_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [{"question": f"Question {i} about sourdough?", "truth": f"Answer. [rye.pdf#page={i + 1}]"} for i in range(4)]
    (tmp_path / "pdfs").mkdir()
    (tmp_path / "ground_truth.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    monkeypatch.setenv("RAGCOURSE_NORTHWIND", str(tmp_path))
    questions = load_questions(northwind_folder())
    assert [q.split for q in questions] == ["dev", "test", "dev", "test"]
    assert questions[2].truth == (("rye.pdf", 3),)
    table = summarise([{"cited": 1.0, "seconds": 2.0}, {"cited": 0.0, "seconds": 4.0}])
    assert table == {"cited": 0.5, "latency median s": 3.0}


def test_a_missing_dataset_says_where_to_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGCOURSE_NORTHWIND", str(tmp_path / "nowhere"))
    with pytest.raises(CourseError, match="set RAGCOURSE_NORTHWIND"):
        northwind_folder()


def test_each_answer_that_misses_is_counted_by_why() -> None:
    truth = [("rye.pdf", 7), ("ovens.pdf", 2)]
    given = {("rye.pdf", 7), ("ovens.pdf", 2), ("rye.pdf", 9)}
    assert miss(truth, given, "Proof [rye.pdf#page=7], bake [ovens.pdf#page=2].") == "all matched"
    assert miss(truth, given, "Proof [rye.pdf#page=7].") == "partly: another truth page given, not cited"
    assert miss(truth, {("rye.pdf", 7)}, "Proof [rye.pdf#page=7].") == "partly: another truth page not given"
    assert miss(truth, given, "Cool it [rye.pdf#page=9].") == "truth page given, another cited"
    assert miss(truth, {("rye.pdf", 8)}, "Proof [rye.pdf#page=8].") == "not given, the next page was"
    assert miss(truth, set(), "I cannot find it.") == MISSES[-1]
    rows = [{"cited": 1.0, "seconds": 1.0, "miss": "all matched"}, {"cited": 0.0, "seconds": 1.0, "miss": "not given"},
            {"cited": 0.0, "seconds": 1.0, "miss": "not given"}]
    assert summarise(rows)["misses"] == {"all matched": 1, "not given": 2}
