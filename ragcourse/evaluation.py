"""Measure retrieval and answers on the evaluation set, and compare runs.

Retrieval is scored at the document level against ``gold_doc_ids`` (hit@k, Recall@k, MRR,
nDCG). Answers are scored by what they must and must not contain, whether their citations
point at gold documents, and whether they refuse when they should. An LLM judge adds
relevance and groundedness (1–5) through the same model layer as everything else.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .corpus import Question
from .results import Passage, RagResult

#: Question types whose correct answer is a refusal.
REFUSAL_TYPES = ("unanswerable", "permission_denied")
_REFUSAL = re.compile(
    r"cannot find|can't find|could not find|couldn't find|not able to find|no documents|not visible to you|"
    r"not available to you|no information|do not have (?:access|information)|don't have (?:access|information)|"
    r"not allowed|not permitted|may not see|cannot answer|can't answer|unable to answer|no order",
    re.I,
)
#: Refusals by meaning, as hosted models word them: the sources (subject) say nothing about it (negated saying verb)
#: — "The provided documents don't mention …", "Nothing in the context says …", "The passages contain no details".
#: The subject must be the sources: "The contract does not mention a penalty clause" is an answer, not a refusal.
#: (Sentence embeddings were measured for this and rejected: MiniLM scores a refusal and an on-topic negative answer
#: alike, 0.41-0.68 against refusal exemplars versus 0.46, because the topic dominates the vector.)
_SOURCES = (r"(?:the |these |those |your |my )?(?:provided |available |given |supplied |retrieved |above |internal )?"
            r"(?:documents?|context|passages?|sources?|excerpts?|search results?|records?|knowledge base|materials?|"
            r"information (?:provided|available|given)|data (?:provided|available|given|I was given))")
_SAYING = r"(?:mention|contain|include|say|state|specify|cover|provide|give|describe|discuss|address|list|show)s?"
_REFUSAL_MEANING = re.compile(
    rf"\b{_SOURCES}\s+(?:do|does|did)\s*(?:not|n't)\s+(?:\w+\s+)?{_SAYING}\b|"
    rf"\b{_SOURCES}\s+(?:contain|include|provide|give|mention|say|have)s?\s+(?:no|nothing)\b|"
    rf"\bnothing in {_SOURCES}\b|\b(?:not|never) (?:mentioned|stated|covered|specified|found) in {_SOURCES}|"
    r"\bI (?:do not|don't) (?:know|have (?:that|this|the|any|enough) (?:information|data|details))\b|"
    r"\b(?:is|are) silent (?:on|about)\b",
    re.I,
)


def unique_docs(doc_ids: Iterable[str]) -> list[str]:
    """Ranked chunk-level doc ids → ranked documents (first occurrence wins)."""
    return list(dict.fromkeys(doc_ids))


def hit_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    return float(bool(set(ranked[:k]) & set(gold)))


def recall_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    gold = set(gold)
    return len(set(ranked[:k]) & gold) / len(gold) if gold else 0.0


def mrr_at_k(ranked: Sequence[str], gold: Iterable[str], k: int) -> float:
    gold = set(gold)
    return next((1.0 / rank for rank, d in enumerate(ranked[:k], start=1) if d in gold), 0.0)


def ndcg_at_k(ranked: Sequence[str], gold: Iterable[str] | dict[str, float], k: int) -> float:
    """nDCG with binary gains, or graded gains when ``gold`` maps ids to relevance."""
    gains = gold if isinstance(gold, dict) else {g: 1.0 for g in gold}
    dcg = sum(gains.get(d, 0.0) / math.log2(rank + 1) for rank, d in enumerate(ranked[:k], start=1))
    ideal = sum(g / math.log2(rank + 1) for rank, g in enumerate(sorted(gains.values(), reverse=True)[:k], start=1))
    return dcg / ideal if ideal else 0.0


def retrieval_metrics(ranked_docs: Sequence[str], gold: Iterable[str]) -> dict[str, float]:
    """The retrieval metrics notebook 03 reports for one question."""
    gold = list(gold)
    return {"hit@3": hit_at_k(ranked_docs, gold, 3), "recall@5": recall_at_k(ranked_docs, gold, 5),
            "mrr@10": mrr_at_k(ranked_docs, gold, 10), "ndcg@10": ndcg_at_k(ranked_docs, gold, 10)}


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[-‐‑–—]", " ", text.lower())).strip()


def contains(answer: str, item: str) -> bool:
    """Case-, hyphen- and spacing-insensitive containment ("raw-material" matches "raw material")."""
    return _normal(item) in _normal(answer)


def is_refusal(answer: str) -> bool:
    """Whether the answer says it cannot answer: the course's phrasings, or the sources said to be silent on it."""
    return bool(_REFUSAL.search(answer) or _REFUSAL_MEANING.search(answer))


@dataclass(frozen=True)
class AnswerScore:
    coverage: float          # share of must_include + computed items present
    violations: int          # must_not_include items present (leaks)
    citations_ok: float      # share of cited documents that are gold documents (1.0 when nothing to cite)
    refused: bool
    correct: bool


def score_answer(q: Question, result: RagResult) -> AnswerScore:
    """Score one answer against its question's expectations."""
    output = " ".join([result.answer, *(c.doc_id for c in result.citations)])
    required = [*q.must_include, *q.computed]
    coverage = sum(contains(result.answer, item) for item in required) / len(required) if required else 1.0
    violations = sum(contains(output, item) for item in q.must_not_include)
    cited = {c.doc_id for c in result.citations}
    citations_ok = len(cited & set(q.gold_doc_ids)) / len(cited) if cited and q.gold_doc_ids else 1.0
    refused = is_refusal(result.answer)
    if q.type in REFUSAL_TYPES:
        correct = refused and violations == 0 and coverage == 1.0
    else:
        correct = coverage == 1.0 and violations == 0
    return AnswerScore(coverage, violations, citations_ok, refused, correct)


def judge(question: str, answer: str, passages: list[Passage], client=None) -> dict[str, int]:  # noqa: ANN001
    """Relevance and groundedness (1–5) from the configured model, read exactly as the reflection loop reads them
    (JSON mode where the provider has it; an ungraded reply counts as 1). Both calls count in the open ledger."""
    from .calls import complete
    from .prompts import judge_messages
    from .replies import read_grade

    scores = {}
    for kind in ("relevance", "groundedness"):
        call = complete("judge", judge_messages(kind, question, answer, passages), client=client, json_mode=True)
        scores[kind] = read_grade(call.message.content or "")[0]
    return scores


def evaluate_answers(questions: Sequence[Question], pipeline: Callable[[Question], RagResult],
                     name: str, progress: bool = False) -> pd.DataFrame:
    """Run ``pipeline`` on every question; one row per question with its scores and cost."""
    from tqdm.auto import tqdm

    rows = []
    for q in tqdm(questions, desc=name, disable=not progress, leave=False):
        result = pipeline(q)
        s = score_answer(q, result)
        rows.append({"pipeline": name, "id": q.id, "type": q.type, "user": q.user, "correct": s.correct,
                     "coverage": s.coverage, "violations": s.violations, "citations_ok": s.citations_ok,
                     "refused": s.refused, "llm_calls": result.usage.llm_calls,
                     "tokens": result.usage.total_tokens, "seconds": result.seconds, "answer": result.answer})
    return pd.DataFrame(rows)


def by_type(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    """A question-type × pipeline table of one metric's mean."""
    return frame.pivot_table(index="type", columns="pipeline", values=metric, aggfunc="mean").round(3)


def save_run(frame: pd.DataFrame, path: Path) -> None:
    """Keep a run's per-question results so a later run can be compared with it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_json(path, orient="records", lines=True)


def compare_runs(before: pd.DataFrame, after: pd.DataFrame, metric: str = "correct") -> pd.DataFrame:
    """Questions whose ``metric`` changed between two runs (the regression view)."""
    merged = before[["id", "type", metric]].merge(after[["id", metric]], on="id", how="outer",
                                                  suffixes=("_before", "_after"))
    changed = merged[merged[f"{metric}_before"] != merged[f"{metric}_after"]].copy()
    changed["change"] = [
        "new" if pd.isna(b) else "removed" if pd.isna(a) else "better" if a > b else "worse"
        for b, a in zip(changed[f"{metric}_before"], changed[f"{metric}_after"])
    ]
    return changed.reset_index(drop=True)
