"""The Northwind benchmark: ``ingest`` → ``ask`` on six real benefit-plan PDFs nobody on the course wrote.

The dataset (263 pages, 50 questions whose truths cite ``[File.pdf#page=N]``) comes from the
public azure-search-openai-demo repository; see its README in the shared dataset folder for
the source, the licence, the split (even lines dev, odd lines test) and the metrics measured
here. It is never copied into the project: ``RAGCOURSE_NORTHWIND`` names its folder, else
``../shared/datasets/northwind`` beside the project is used.

Metrics, per question, then averaged:

* *page any@k*: a truth (file, page) is among the first k distinct pages of the first search
  (reranked top 5, then the rest of the fused list);
* *cited*: a truth page is among the answer's citations;
* *citations matched*: the share of the truth's citations written the same way in the answer
  (the source project's own metric), strict, and lenient (the truth page or the next one: the
  truth labels a passage by the page it starts on).

Each answer that misses is also counted by why (:func:`miss`): no truth page among the passages it
was given, or one given but another page cited, or only some of the truth pages cited — so a change
can be judged by the failures it moves, not only by a mean.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .config import PROJECT_ROOT
from .errors import CourseError

_CITATION = re.compile(r"\[([^\[\]#]+?\.pdf)#page=(\d+)\]")
#: Who asks: the PDFs are ingested for every employee.
USER, GROUP = "emp_alice", "all_staff"
#: The source project's published citations-matched band for its own demo (GPT-4-class model, commercial search).
PUBLISHED = (0.44, 0.54)


@dataclass(frozen=True)
class NorthwindQuestion:
    """One line of ground_truth.jsonl: the question, its truth citations and its split."""

    line: int
    question: str
    truth: tuple[tuple[str, int], ...]

    @property
    def split(self) -> str:
        return "dev" if self.line % 2 == 0 else "test"


def northwind_folder() -> Path:
    """``RAGCOURSE_NORTHWIND``, else ``../shared/datasets/northwind`` beside the project; CourseError if absent."""
    folder = Path(os.environ.get("RAGCOURSE_NORTHWIND") or PROJECT_ROOT.parent / "shared" / "datasets" / "northwind")
    if not (folder / "ground_truth.jsonl").is_file() or not (folder / "pdfs").is_dir():
        raise CourseError(f"No Northwind dataset at {folder}: set RAGCOURSE_NORTHWIND to the folder that holds "
                          "ground_truth.jsonl and pdfs/.")
    return folder.expanduser().resolve()


def citations(text: str) -> list[tuple[str, int]]:
    """The ``[File.pdf#page=N]`` citations of a text, in order, each once."""
    return list(dict.fromkeys((name, int(page)) for name, page in _CITATION.findall(text)))


def load_questions(folder: Path) -> list[NorthwindQuestion]:
    questions = []
    for line, row in enumerate(folder.joinpath("ground_truth.jsonl").read_text(encoding="utf-8").splitlines()):
        if row.strip():
            data = json.loads(row)
            questions.append(NorthwindQuestion(line, data["question"], tuple(citations(data["truth"]))))
    return questions


def any_at(pages: Sequence[tuple[str, int]], truth: Sequence[tuple[str, int]], k: int) -> float:
    """1.0 when a truth page is among the first ``k`` distinct pages."""
    return float(bool(set(list(dict.fromkeys(pages))[:k]) & set(truth)))


def matched(answer: str, truth: Sequence[tuple[str, int]], lenient: bool = False) -> float:
    """The share of truth citations the answer writes the same way (lenient: or with the next page)."""
    written = set(citations(answer))
    hits = [(name, page) in written or (lenient and (name, page + 1) in written) for name, page in truth]
    return sum(hits) / len(hits) if hits else 0.0


#: Why an answer misses its truth citations, the first that applies, in this order (see :func:`miss`).
MISSES = ("all matched", "partly: another truth page given, not cited", "partly: another truth page not given",
          "truth page given, another cited", "not given, the next page was", "not given")


def miss(truth: Sequence[tuple[str, int]], given: set[tuple[str, int]], answer: str) -> str:
    """Why an answer misses its truth citations, one of :data:`MISSES`; ``given`` holds the pages of every passage
    the answer was written from (all searches of an agentic run)."""
    written = set(citations(answer))
    if set(truth) <= written:
        return MISSES[0]
    if set(truth) & written:
        return MISSES[1] if (set(truth) - written) & given else MISSES[2]
    if set(truth) & given:
        return MISSES[3]
    return MISSES[4] if {(name, page + 1) for name, page in truth} & given else MISSES[5]


def _first_search_pages(kb, query: str) -> list[tuple[str, int]]:  # noqa: ANN001 - a KnowledgeBase
    from .report import _reranked_then_fused
    from .retrieval import search

    run = search(kb, query, USER)  # what a search_knowledge_base call runs: rewrite, hybrid, rerank
    return [(h.chunk.source, h.chunk.page or 0) for h in _reranked_then_fused(run)]


def score_question(kb, q: NorthwindQuestion, mode: str) -> dict[str, float | str]:  # noqa: ANN001 - a KnowledgeBase
    """Every metric of one question answered in ``mode`` (``simple`` or ``agentic``), and why it misses."""
    from .agent import agentic_rag
    from .pipeline import simple_rag

    result = simple_rag(q.question, USER, kb=kb) if mode == "simple" else agentic_rag(q.question, USER)
    first = next((s.args.get("searched") or s.args.get("query") for s in result.trace
                  if s.tool == "search_knowledge_base"), q.question)
    pages = _first_search_pages(kb, first or q.question)
    cited = {(c.source, c.page) for c in result.citations}
    given = {(p.source, p.page or 0) for step in result.trace for p in step.passages or ()}
    return {"miss": miss(q.truth, given, result.answer),"any@3": any_at(pages, q.truth, 3), "any@5": any_at(pages, q.truth, 5),
            "cited": float(bool(cited & set(q.truth))),
            "matched": matched(result.answer, q.truth), "matched lenient": matched(result.answer, q.truth, True),
            "seconds": result.seconds}


def summarise(rows: Sequence[dict[str, float | str]]) -> dict:
    """Means of the metrics, the median latency and how many answers miss for each reason, over some questions."""
    out: dict = {key: round(statistics.fmean(r[key] for r in rows), 2) for key in rows[0]
                 if key not in ("seconds", "miss")}
    out["latency median s"] = round(statistics.median(r["seconds"] for r in rows), 2)
    if "miss" in rows[0]:
        counts = Counter(r["miss"] for r in rows)
        out["misses"] = {reason: counts[reason] for reason in MISSES if counts[reason]}
    return out


def run_northwind(folder: Path | None = None, *, modes: Sequence[str] = ("simple", "agentic"),
                  progress: bool = False) -> dict:
    """Ingest the PDFs into a fresh knowledge base, answer every question in each mode, score dev/test/all."""
    from .index import _course_kb, get_kb
    from .ingest import ingest_paths
    from .retrieval import search

    folder = folder or northwind_folder()
    questions = load_questions(folder)
    previous = os.environ.get("RAGCOURSE_KB")
    with tempfile.TemporaryDirectory() as kb_dir:
        try:
            report = ingest_paths([folder / "pdfs"], [GROUP], kb_dir=kb_dir, progress=progress)
            os.environ["RAGCOURSE_KB"] = kb_dir  # the agent's tools search get_kb(): make it this one
            _course_kb.cache_clear()
            kb = get_kb()
            result: dict = {"ingest": {"seconds": report["seconds"], "pages": report["documents"],
                                       "chunks": len(kb.chunks)}}
            for q in questions:  # warm: the query vectors and sentence vectors come from the cache from here on
                search(kb, q.question, USER, rewrite=False)
            ms = []
            for q in questions:
                tick = time.perf_counter()
                search(kb, q.question, USER, rewrite=False)
                ms.append((time.perf_counter() - tick) * 1000)
            result["search ms"] = {"median": round(statistics.median(ms), 1), "p95": round(sorted(ms)[47], 1)}
            for mode in modes:
                rows = []
                for i, q in enumerate(questions, start=1):
                    rows.append((q.split, score_question(kb, q, mode)))
                    if progress:
                        print(f"Northwind {mode}: {i}/{len(questions)}", file=sys.stderr, end="\r")
                result[mode] = {split: summarise([r for part, r in rows if split in (part, "all")])
                                for split in ("dev", "test", "all")}
        finally:
            if previous is None:
                os.environ.pop("RAGCOURSE_KB", None)
            else:
                os.environ["RAGCOURSE_KB"] = previous
            _course_kb.cache_clear()
    return result


def format_table(r: dict) -> str:
    """The README's Northwind table: each metric for simple and agentic, dev | test | all."""
    modes = [m for m in ("simple", "agentic") if m in r]
    names = [("any@3", "truth page in the first 3 pages"), ("any@5", "truth page in the first 5 pages"),
             ("cited", "the answer cites a truth page"), ("matched", "citations matched, strict"),
             ("matched lenient", "citations matched, lenient (or the next page)"),
             ("latency median s", "latency per question, median (s)")]
    header = "| figure | " + " | ".join(f"{m} dev | {m} test | {m} all" for m in modes) + " |"
    lines = [header, "| --- |" + " --- |" * (3 * len(modes))]
    for key, label in names:
        cells = [str(r[m][split][key]) for m in modes for split in ("dev", "test", "all")]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "Why answers miss their truth citations (questions, dev | test):"]
    lines += [f"- {m}: " + "; ".join(f"{reason} {r[m]['dev'].get('misses', {}).get(reason, 0)} | "
                                     f"{r[m]['test'].get('misses', {}).get(reason, 0)}" for reason in MISSES)
              for m in modes]
    low, high = PUBLISHED
    lines += ["", f"Ingest: {r['ingest']['pages']} pages, {r['ingest']['chunks']} chunks in {r['ingest']['seconds']} s. "
              f"Search (hybrid + rerank, warm, no rewrite): median {r['search ms']['median']} ms, "
              f"p95 {r['search ms']['p95']} ms. Published citations matched for the source project's own demo: "
              f"{low}–{high}."]
    return "\n".join(lines)
