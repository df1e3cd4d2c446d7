"""Metrics: hand-computed values, so a wrong formula fails here before it misleads a notebook."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from ragcourse.corpus import Question
from ragcourse.evaluation import (
    compare_runs,
    contains,
    hit_at_k,
    is_refusal,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
    score_answer,
    unique_docs,
)
from ragcourse.replies import read_grade
from ragcourse.results import Citation, RagResult


def test_retrieval_metrics_by_hand() -> None:
    ranked = ["a", "b", "c", "d"]
    assert hit_at_k(ranked, ["c"], 2) == 0.0 and hit_at_k(ranked, ["c"], 3) == 1.0
    assert recall_at_k(ranked, ["a", "d", "z"], 4) == pytest.approx(2 / 3)
    assert mrr_at_k(ranked, ["c", "d"], 10) == pytest.approx(1 / 3)
    expected = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(ranked, ["b", "z"], 10) == pytest.approx(expected)
    assert ndcg_at_k(ranked, {"a": 2.0, "b": 1.0}, 2) == pytest.approx(1.0)
    assert unique_docs(["x", "y", "x", "z"]) == ["x", "y", "z"]


def test_containment_ignores_case_hyphens_and_spacing() -> None:
    assert contains("Lower RAW material  costs", "raw-material")
    assert not contains("45.2% margin", "42.1%")


def test_refusal_detection() -> None:
    assert is_refusal("I cannot find the answer in the documents available to you.")
    assert not is_refusal("The gross margin was 45.2% [fin-2024-q3.md].")


def question(**kw) -> Question:
    base = {"id": "q", "question": "?", "user": "u", "type": "factual", "gold_doc_ids": ("d1",), "gold_answer": ""}
    return Question(**{**base, **kw})


def result(answer: str, cited: tuple[str, ...] = ()) -> RagResult:
    return RagResult("?", "u", "simple", "m", answer, [Citation(d, f"docs/{d}.md") for d in cited])


def test_answer_scores() -> None:
    q = question(must_include=("45.2%", "42.1%"), computed=("3.1",), must_not_include=("4.8%",))
    full = score_answer(q, result("45.2% vs 42.1%: up 3.1 points", ("d1",)))
    assert full.correct and full.coverage == 1.0 and full.citations_ok == 1.0
    partial = score_answer(q, result("45.2% [x]", ("d1", "other")))
    assert not partial.correct and partial.coverage == pytest.approx(1 / 3) and partial.citations_ok == 0.5
    leak = score_answer(q, result("45.2% 42.1% 3.1 and the raise is 4.8%"))
    assert leak.violations == 1 and not leak.correct


def test_refusal_questions_need_a_refusal_and_no_leak() -> None:
    q = question(type="permission_denied", must_not_include=("4.8%",))
    assert score_answer(q, result("I cannot find this in the documents available to you.")).correct
    assert not score_answer(q, result("It is 4.8%.")).correct
    assert not score_answer(q, result("I cannot find it, but it might be 4.8%.")).correct


@pytest.mark.parametrize(("reply", "score"), [
    ('{"score": 4, "reason": "ok"}', 4), ('```json\n{"score": 9}\n```', 5), ("Score: 2", 2),
    ('Here you go: {"score": 3, "reason": "thin"} Hope this helps {x}', 3),
    ("I would rate the answer 4/5: it names both figures but not the cause.", 4),
    ("Relevance: 5 out of 5.", 5), ("The bakery's answer is fine, a 3.", 3), ("no idea", 1),
    ("Between 2 and 4, I think.", 1)])
def test_judge_replies_are_read_by_one_tolerant_parser(reply: str, score: int) -> None:
    assert read_grade(reply)[0] == score
    assert read_grade("no grade here")[1].startswith("unreadable judge reply")


def test_regression_view_lists_exactly_the_changed_questions() -> None:
    before = pd.DataFrame({"id": ["a", "b", "c"], "type": ["t"] * 3, "correct": [True, False, True]})
    after = pd.DataFrame({"id": ["a", "b", "d"], "type": ["t"] * 3, "correct": [False, True, True]})
    changes = dict(zip(compare_runs(before, after)["id"], compare_runs(before, after)["change"]))
    assert changes == {"a": "worse", "b": "better", "c": "removed", "d": "new"}


def test_split_table_puts_dev_and_test_side_by_side_per_type_composite_and_all() -> None:
    from ragcourse.report import split_table

    answers = pd.DataFrame([
        {"pipeline": "agentic", "type": "comparison", "split": "dev", "correct": True},
        {"pipeline": "agentic", "type": "comparison", "split": "test", "correct": False},
        {"pipeline": "agentic", "type": "factual", "split": "dev", "correct": False},
        {"pipeline": "agentic", "type": "factual", "split": "test", "correct": True},
    ])
    table = split_table(answers)
    assert list(table.columns) == [("agentic", "dev"), ("agentic", "test")]
    assert table.loc["(composite)"].tolist() == [1.0, 0.0]
    assert table.loc["(all)"].tolist() == [0.5, 0.5]
    assert table.loc["factual"].tolist() == [0.0, 1.0]
