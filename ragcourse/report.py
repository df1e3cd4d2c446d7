"""The evaluation set through every retrieval stage and every answering mode.

Notebooks 03, 04 and 06, ``python -m ragcourse eval`` and the benchmark all read their
numbers from here, so a figure in the README and a figure in a notebook come from the
same code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from .corpus import COMPOSITE_TYPES, Question, course
from .evaluation import by_type, evaluate_answers, retrieval_metrics, unique_docs
from .retrieval import Hit, keyword_search, search, vector_search

#: Question types whose gold documents a retriever can find (orders, web and refusals have none to find).
RETRIEVAL_TYPES = ("factual", "comparison", "causal", "multi_hop", "calculation", "contract_review")

#: Chunks each stage returns before they are collapsed to documents: several chunks of one long document
#: must not crowd the other gold documents out of a document-level top 10.
DEPTH = 30

#: The stages of notebook 03, each a function (kb, question, user) → ranked hits.
STAGES: dict[str, Callable[..., list[Hit]]] = {
    "bm25": lambda kb, q, u: keyword_search(kb, q, u, k=DEPTH),
    "vector": lambda kb, q, u: vector_search(kb, q, u, k=DEPTH),
    "hybrid (RRF)": lambda kb, q, u: search(kb, q, u, rewrite=False, rerank=False, top_k=DEPTH).hits,
    "hybrid + rerank": lambda kb, q, u: _reranked_then_fused(search(kb, q, u, rewrite=False, top_k=DEPTH)),
    "hybrid + rerank + rewrite": lambda kb, q, u: _reranked_then_fused(search(kb, q, u, rewrite=True, top_k=DEPTH)),
}


def _reranked_then_fused(run) -> list[Hit]:  # noqa: ANN001 - a SearchRun
    """The reranked top 5 followed by the rest of the fused list, so metrics past 5 stay comparable."""
    head = run.stages.get("reranked", [])
    seen = {h.chunk.chunk_id for h in head}
    return head + [h for h in run.stages["fused"] if h.chunk.chunk_id not in seen]


def retrieval_questions(questions: Sequence[Question] | None = None) -> list[Question]:
    return [q for q in (questions or course().questions) if q.type in RETRIEVAL_TYPES and q.gold_doc_ids]


def retrieval_table(kb, questions: Sequence[Question] | None = None,  # noqa: ANN001 - a KnowledgeBase
                    stages: Sequence[str] = tuple(STAGES)) -> pd.DataFrame:
    """One row per (stage, question): hit@3, Recall@5, MRR@10, nDCG@10 against the gold documents."""
    rows = []
    for q in retrieval_questions(questions):
        for stage in stages:
            ranked = unique_docs(h.chunk.doc_id for h in STAGES[stage](kb, q.question, q.user))
            rows.append({"pipeline": stage, "id": q.id, "type": q.type, "composite": q.type in COMPOSITE_TYPES,
                         **retrieval_metrics(ranked, q.gold_doc_ids)})
    return pd.DataFrame(rows)


def retrieval_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Mean metrics per stage, over all questions and over the composite ones."""
    metrics = ["hit@3", "recall@5", "mrr@10", "ndcg@10"]
    order = list(dict.fromkeys(table["pipeline"]))
    overall = table.groupby("pipeline")[metrics].mean()
    composite = table[table["composite"]].groupby("pipeline")[metrics].mean().add_suffix(" (composite)")
    return overall.join(composite).loc[order].round(3)


def answer_pipelines() -> dict[str, Callable[[Question], object]]:
    """The three answering modes of the course, keyed by name."""
    from .agent import agentic_rag
    from .pipeline import simple_rag
    from .reflection import reflective_rag

    return {"simple": lambda q: simple_rag(q.question, q.user),
            "agentic": lambda q: agentic_rag(q.question, q.user),
            "reflect": lambda q: reflective_rag(q.question, q.user)}


def answer_table(modes: Sequence[str], questions: Sequence[Question] | None = None,
                 progress: bool = False) -> pd.DataFrame:
    pipelines = answer_pipelines()
    questions = list(questions or course().questions)
    return pd.concat([evaluate_answers(questions, pipelines[m], m, progress) for m in modes], ignore_index=True)


def router_accuracy(questions: Sequence[Question] | None = None) -> dict[str, float]:
    """Share of factual questions routed to single-shot, and of composite ones routed to the agent."""
    from .routing import route_question

    questions = list(questions or course().questions)
    factual = [q for q in questions if q.type == "factual"]
    composite = [q for q in questions if q.composite]
    return {
        "factual → simple": sum(route_question(q.question) == "simple" for q in factual) / max(1, len(factual)),
        "composite → agentic": sum(route_question(q.question) == "agentic" for q in composite) / max(1, len(composite)),
    }


def _shares(frame: pd.DataFrame) -> dict[str, float]:
    """Share correct per answering mode."""
    return frame.groupby("pipeline")["correct"].mean().round(3).to_dict()


def split_table(answers: pd.DataFrame) -> pd.DataFrame:
    """Share correct per question type (plus composite and all) × mode × split, dev and test side by side."""
    composite = answers[answers["type"].isin(COMPOSITE_TYPES)].assign(type="(composite)")
    everything = answers.assign(type="(all)")
    frame = pd.concat([answers, composite, everything], ignore_index=True)
    table = frame.pivot_table(index="type", columns=["pipeline", "split"], values="correct", aggfunc="mean")
    return table.round(3)


def evaluation_report(modes: Sequence[str] = ("simple", "agentic"), limit: int | None = None,
                      progress: bool = False, questions: Sequence[Question] | None = None) -> dict:
    """Everything ``python -m ragcourse eval`` prints, as plain data, per split and over all questions.

    ``questions`` replaces the course's set (e.g. a fresh set read with ``corpus.load_questions``) so every set is
    scored through the same code path.
    """
    from .index import get_kb

    questions = list(questions or course().questions)[:limit] if limit else list(questions or course().questions)
    retrieval = retrieval_summary(retrieval_table(get_kb(), questions))
    split_of = {q.id: q.split for q in questions}
    answers = answer_table(modes, questions, progress)
    answers["split"] = answers["id"].map(split_of)
    composite = answers[answers["type"].isin(COMPOSITE_TYPES)]
    splits = list(dict.fromkeys(q.split for q in questions))
    return {
        "questions": len(questions),
        "questions per split": {s: sum(q.split == s for q in questions) for s in splits},
        "retrieval": retrieval.reset_index().to_dict(orient="records"),
        "accuracy": _shares(answers),
        "accuracy (composite)": _shares(composite),
        "accuracy by split": {s: _shares(answers[answers["split"] == s]) for s in splits},
        "accuracy (composite) by split": {s: _shares(composite[composite["split"] == s]) for s in splits},
        "correct (composite) by split": {s: composite[composite["split"] == s].groupby("pipeline")["correct"]
                                         .agg(lambda c: f"{int(c.sum())}/{len(c)}").to_dict() for s in splits},
        "accuracy per type": by_type(answers, "correct").reset_index().to_dict(orient="records"),
        "accuracy per type and split": [
            {"type": t, **{f"{m} {s}": v for (m, s), v in row.items()}} for t, row in split_table(answers).iterrows()],
        "leaks": int(answers["violations"].sum()),
        "mean llm calls": answers.groupby("pipeline")["llm_calls"].mean().round(2).to_dict(),
        "mean tokens": answers.groupby("pipeline")["tokens"].mean().round(0).to_dict(),
        "router": {k: round(v, 3) for k, v in router_accuracy(questions).items()},
    }


def print_report(report: dict) -> None:
    """The report as readable tables on a terminal: dev and test side by side, then the totals."""
    print(f"{report['questions']} questions (" + ", ".join(f"{s} {n}" for s, n in report["questions per split"].items())
          + ")\n\nRetrieval (documents, mean over questions with gold documents):")
    print(pd.DataFrame(report["retrieval"]).set_index("pipeline").to_string())
    print("\nAnswers: share correct (all must_include present, nothing restricted), per type and split")
    print(pd.DataFrame(report["accuracy per type and split"]).set_index("type").to_string(na_rep="-"))
    print("\ncomposite correct by split: " + "; ".join(
        f"{s}: " + ", ".join(f"{m} {v}" for m, v in row.items()) for s, row in report["correct (composite) by split"].items()))
    for key in ("accuracy", "accuracy (composite)", "mean llm calls", "mean tokens", "router"):
        print(f"\n{key}: " + ", ".join(f"{k} {v}" for k, v in report[key].items()))
    print(f"\nleaks (must_not_include items in any output): {report['leaks']}")
