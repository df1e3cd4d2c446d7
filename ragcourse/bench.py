"""``python -m ragcourse bench``: every performance figure the README quotes, from one command.

Speed is measured here, never asserted in tests: a benchmark reports what this machine
did, a timed test would only make CI flaky. The Markdown table this prints is what the
README's Results section reproduces, with the date and the machine.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from .config import PROJECT_ROOT, get_settings
from .errors import CourseError

NOTEBOOKS = PROJECT_ROOT / "notebooks"


def median_p95(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"median": round(statistics.median(ordered), 2),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)}


def timed(func: Callable[[], object], repeat: int) -> list[float]:
    """Milliseconds of ``repeat`` calls."""
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        out.append((time.perf_counter() - start) * 1000)
    return out


def course_execution(cache: Path) -> dict[str, float]:
    """Seconds to execute each of the six notebooks, in order, with ``cache`` as the course cache, and the total.

    Each notebook runs in a new kernel, as in JupyterLab or under nbval: its figure is the kernel's start and every
    cell. The kernels are driven from this process (nbclient), so no converter process is started per notebook.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    env = {**os.environ, "RAGCOURSE_CACHE": str(cache)}
    seconds: dict[str, float] = {}
    for notebook in sorted(NOTEBOOKS.glob("0*.ipynb")):
        cells = nbformat.read(notebook, as_version=4)
        client = NotebookClient(cells, timeout=900, resources={"metadata": {"path": str(NOTEBOOKS)}})
        start = time.perf_counter()
        try:
            client.execute(env=env)
        except CellExecutionError as error:
            raise CourseError(f"{notebook.name} failed to execute: open it in JupyterLab and run it to see why.") \
                from error
        seconds[notebook.stem] = round(time.perf_counter() - start, 1)
    seconds["total"] = round(sum(seconds.values()), 1)
    return seconds


def index_figures() -> dict[str, float]:
    """Build the course index from nothing (no cached vectors), then update one changed document."""
    from dataclasses import replace

    from .corpus import course
    from .embeddings import CachedEmbedder, get_embedder
    from .index import KnowledgeBase

    docs = dict(course().documents)
    with tempfile.TemporaryDirectory() as tmp:
        embedder = CachedEmbedder(get_embedder().inner, Path(tmp) / "vectors.sqlite")
        embedder.inner.load()  # before the clock starts: a build embeds; it does not load torch
        kb = KnowledgeBase.open("bench", root=Path(tmp) / "kb", embedder=embedder)
        start = time.perf_counter()
        report = kb.sync(docs)
        rebuild = time.perf_counter() - start
        first = sorted(docs)[0]
        docs[first] = replace(docs[first], text=docs[first].text + "\n\nA sentence added for the benchmark.\n")
        update = kb.sync(docs)
    return {"chunks": len(kb.chunks), "full build s": round(rebuild, 2),
            "build rate chunks/s": round(report.chunks_embedded / rebuild, 1),
            "one-document update s": round(update.seconds, 3), "chunks re-embedded": update.chunks_embedded,
            "update speed-up ×": round(rebuild / max(update.seconds, 1e-9), 1)}


def retrieval_figures(kb, questions) -> dict[str, dict[str, float]]:  # noqa: ANN001
    """Median and p95 ms per stage of hybrid + rerank (and of the rewriting stage, offline model)."""
    from .retrieval import search

    stages: dict[str, list[float]] = {}
    for q in questions:
        search(kb, q.question, q.user, rewrite=False)  # warm the query-embedding cache: we time retrieval
    for q in questions:
        for stage, ms in search(kb, q.question, q.user, rewrite=False).timings.items():
            stages.setdefault(stage, []).append(ms)
        stages.setdefault("rewrite", []).append(search(kb, q.question, q.user, rewrite=True).timings["rewrite"])
    return {stage: median_p95(values) for stage, values in stages.items()}


def permission_figures(kb, questions) -> dict[str, dict[str, float]]:  # noqa: ANN001
    """What the filter inside retrieval costs: vector + BM25 with and without the user's document set."""
    from .embeddings import embed

    vectors = embed([q.question for q in questions])
    with_filter, without = [], []
    for q, vector in zip(questions, vectors):
        def filtered() -> None:  # what retrieval does: the ACL join, then both retrievers restricted to it
            visible = kb.visible_doc_ids(q.user)  # noqa: B023
            kb.store.query(vector, 20, visible)  # noqa: B023
            kb.bm25.search(q.question, 20, kb.bm25.chunk_ids_of(visible))  # noqa: B023

        with_filter += timed(filtered, 3)
        without += timed(lambda: (kb.store.query(vector, 20), kb.bm25.search(q.question, 20)), 3)  # noqa: B023
    return {"with filter": median_p95(with_filter), "without filter": median_p95(without)}


def model_figures(kb) -> dict[str, dict[str, float]]:  # noqa: ANN001
    """Offline model latency per call: an answer over 5 chunks, and one agent decision."""
    from .corpus import course
    from .llm import chat_model, get_client
    from .prompts import AGENT_SYSTEM, answer_messages
    from .retrieval import search
    from .tools import TOOL_SCHEMAS

    client, model = get_client(), chat_model()
    question = "What was the gross margin in the third quarter of 2024?"
    passages = [h.passage for h in search(kb, question, "emp_alice", rewrite=False, top_k=5).stages["fused"][:5]]
    answer = answer_messages(question, passages, course().company)
    agent = [{"role": "system", "content": AGENT_SYSTEM.format(company=course().company, today=course().today,
                                                               example="fin-2024-q3.md")},
             {"role": "user", "content": "Compare the Q3 and Q2 2024 gross margins."}]
    client.chat.completions.create(model=model, messages=answer)  # warm caches: we time the model, not loading
    return {
        "answer over 5 chunks": median_p95(timed(lambda: client.chat.completions.create(
            model=model, messages=answer), 30)),
        "agent decision": median_p95(timed(lambda: client.chat.completions.create(
            model=model, messages=agent, tools=TOOL_SCHEMAS, tool_choice="auto"), 30)),
    }


def scifact_figures() -> dict | None:
    """SciFact with its knobs chosen on the train split, measured on test (None without the data)."""
    from .beir import run_scifact, scifact_folder

    try:
        folder = scifact_folder()
    except CourseError:
        return None
    return run_scifact(folder, select_on="train", progress=False)


def install_figures(venv: Path = Path(sys.prefix)) -> dict[str, float | None]:
    """Size of the environment running the benchmark, and how long ``make setup`` took to build it (the
    Makefile writes ``.install-seconds`` into the environment; None for one it did not build)."""
    size = sum(f.lstat().st_size for f in venv.rglob("*") if f.is_file() or f.is_symlink())
    seconds = venv / ".install-seconds"
    return {"size GB": round(size / 1e9, 2),
            "setup s": float(seconds.read_text()) if seconds.exists() else None}


def northwind_figures() -> dict | None:
    """The Northwind benchmark (:mod:`ragcourse.northwind`), or None when its dataset is not beside the project."""
    from .northwind import northwind_folder, run_northwind

    try:
        folder = northwind_folder()
    except CourseError:
        return None
    return run_northwind(folder)


def collect(quick: bool = False) -> dict:
    """Run every benchmark; ``quick`` skips course execution and SciFact (the two slow ones)."""
    from .corpus import course
    from .index import get_kb
    from .report import evaluation_report, retrieval_questions

    kb = get_kb()
    questions = retrieval_questions()
    result: dict = {
        "date": dt.date.today().isoformat(),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "model": get_settings().chat_model, "questions": len(course().questions),
        "index": index_figures(),
        "retrieval ms (hybrid + rerank)": retrieval_figures(kb, questions),
        "permission filter ms": permission_figures(kb, questions),
        "offline model ms": model_figures(kb),
        "evaluation": evaluation_report(modes=("simple", "agentic", "reflect")),
        "install": install_figures(),
    }
    if not quick:
        with tempfile.TemporaryDirectory() as cache:
            result["course execution s"] = {"cold": course_execution(Path(cache)),
                                            "warm": course_execution(Path(cache))}
        result["scifact"] = scifact_figures()
        result["northwind"] = northwind_figures()
    return result


def markdown(r: dict) -> str:
    """The README's Results section: one table of figures, then the evaluation and SciFact tables."""
    rows = []
    if "course execution s" in r:
        runs = r["course execution s"]
        rows += [("Whole course, 6 notebooks, cold cache", f"{runs['cold']['total']} s"),
                 ("Whole course, 6 notebooks, warm cache", f"{runs['warm']['total']} s"),
                 ("Per notebook, warm", ", ".join(f"{name[:2]}: {t} s" for name, t in runs["warm"].items()
                                                  if name != "total"))]
    if "install" in r:
        setup = r["install"]["setup s"]
        rows.append(("Environment (`make setup`)", f"{r['install']['size GB']} GB installed"
                     + (f", set up in {setup / 60:.1f} min" if setup is not None else ", setup time not recorded")))
    ix = r["index"]
    rows += [("Index build (course, no cached vectors)", f"{ix['chunks']} chunks in {ix['full build s']} s "
                                                         f"({ix['build rate chunks/s']} chunks/s)"),
             ("Incremental update, one changed document", f"{ix['one-document update s']} s, "
                                                          f"re-embedded chunks: {ix['chunks re-embedded']} "
                                                          f"({ix['update speed-up ×']}× faster than a rebuild)")]
    for stage, v in r["retrieval ms (hybrid + rerank)"].items():
        rows.append((f"Retrieval stage: {stage}", f"median {v['median']} ms, p95 {v['p95']} ms"))
    for name, v in r["permission filter ms"].items():
        rows.append((f"Vector + BM25 {name}", f"median {v['median']} ms, p95 {v['p95']} ms"))
    for name, v in r["offline model ms"].items():
        rows.append((f"Offline model: {name}", f"median {v['median']} ms, p95 {v['p95']} ms"))
    ev = r["evaluation"]
    for key in ("accuracy", "accuracy (composite)"):
        rows.append((f"Answers correct, {key.replace('accuracy', 'all').strip()}",
                     ", ".join(f"{k} {v:.0%}" for k, v in ev[key].items())))
    rows.append(("Router", ", ".join(f"{k} {v:.0%}" for k, v in ev["router"].items())))
    rows.append(("Mean LLM calls / tokens per question",
                 ", ".join(f"{k} {ev['mean llm calls'][k]} / {int(ev['mean tokens'][k])}" for k in ev["mean tokens"])))
    lines = [f"Measured on {r['date']} ({r['machine']}, model {r['model']}) by `python -m ragcourse bench`.", "",
             "| figure | value |", "| --- | --- |", *[f"| {a} | {b} |" for a, b in rows], "",
             "Retrieval on the evaluation set (documents; questions that have gold documents):", "",
             "| stage | hit@3 | Recall@5 | MRR@10 | nDCG@10 | Recall@5 (composite) | nDCG@10 (composite) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    lines += [f"| {s['pipeline']} | {s['hit@3']:.3f} | {s['recall@5']:.3f} | {s['mrr@10']:.3f} | {s['ndcg@10']:.3f} "
              f"| {s['recall@5 (composite)']:.3f} | {s['ndcg@10 (composite)']:.3f} |" for s in ev["retrieval"]]
    if r.get("scifact"):
        from .beir import describe, format_table

        lines += ["", "SciFact (BEIR, 5,183 abstracts). " + describe(r["scifact"]), "",
                  format_table(r["scifact"]["results"])]
    if r.get("northwind"):
        from .northwind import format_table as northwind_table

        lines += ["", "Northwind (six real benefit-plan PDFs, 50 questions; dev = even lines, test = odd lines):", "",
                  northwind_table(r["northwind"])]
    return "\n".join(lines)


def run_bench(as_json: bool = False, quick: bool = False, northwind_only: bool = False) -> dict:
    """Collect, print (Markdown or JSON) and keep a copy in the cache for the README.

    ``northwind_only`` runs the Northwind benchmark alone (it takes minutes: every question in two modes).
    """
    if northwind_only:
        from .northwind import format_table, run_northwind

        result = run_northwind(progress=not as_json)
        print(json.dumps(result, indent=2) if as_json else format_table(result))
        return result
    result = collect(quick)
    (get_settings().cache_dir / "bench.json").write_text(json.dumps(result, indent=2))
    print(json.dumps(result, indent=2) if as_json else markdown(result))
    return result
