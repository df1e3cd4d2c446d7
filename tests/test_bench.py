"""The benchmark's report: statistics and the Markdown table the README reproduces."""

from __future__ import annotations

from ragcourse.bench import markdown, median_p95

FIGURES = {
    "date": "2026-11-30", "machine": "Linux x86_64, 2 cores", "model": "ragcourse-offline",
    "course execution s": {"cold": {"01_minimal_rag": 30.0, "total": 30.0},
                           "warm": {"01_minimal_rag": 12.5, "total": 12.5}},
    "index": {"chunks": 527, "full build s": 20.0, "build rate chunks/s": 26.4, "one-document update s": 0.5,
              "chunks re-embedded": 1, "update speed-up ×": 40.0},
    "retrieval ms (hybrid + rerank)": {"total": {"median": 7.5, "p95": 20.0}},
    "permission filter ms": {"with filter": {"median": 4.7, "p95": 9.0}},
    "offline model ms": {"answer over 5 chunks": {"median": 8.0, "p95": 12.0}},
    "evaluation": {"accuracy": {"simple": 0.5, "agentic": 0.75}, "accuracy (composite)": {"simple": 0.25},
                   "router": {"factual → simple": 1.0}, "mean llm calls": {"simple": 2.0},
                   "mean tokens": {"simple": 600.0},
                   "retrieval": [{"pipeline": "bm25", "hit@3": 0.9, "recall@5": 0.91, "mrr@10": 0.8, "ndcg@10": 0.82,
                                  "recall@5 (composite)": 0.89, "ndcg@10 (composite)": 0.8}]},
}


SCIFACT = {"selected on": "train (809 queries)", "queries": "test (300 queries)",
           "knobs": {"tokenizer": "stemmed", "rrf_k": 60, "reranker": "none"}, "tried": {},
           "results": {"bm25": {"nDCG@10": 0.69, "Recall@100": 0.92}}}


def test_median_and_p95() -> None:
    assert median_p95([5.0, 1.0, 3.0]) == {"median": 3.0, "p95": 5.0}
    assert median_p95(list(map(float, range(1, 101)))) == {"median": 50.5, "p95": 96.0}


def test_markdown_table_carries_every_figure() -> None:
    table = markdown(FIGURES)
    assert table.startswith("Measured on 2026-11-30 (Linux x86_64, 2 cores, model ragcourse-offline)")
    for text in ("| Whole course, 6 notebooks, warm cache | 12.5 s |", "527 chunks in 20.0 s (26.4 chunks/s)",
                 "40.0× faster than a rebuild", "median 7.5 ms, p95 20.0 ms", "agentic 75%",
                 "| bm25 | 0.900 | 0.910 | 0.800 | 0.820 | 0.890 | 0.800 |"):
        assert text in table, text
    assert "SciFact" not in table  # no data, no table


def test_install_and_scifact_rows_name_what_they_measure(tmp_path) -> None:
    from ragcourse.bench import install_figures

    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "blob").write_bytes(b"x" * 1000)
    (tmp_path / ".install-seconds").write_text("150\n")
    assert install_figures(tmp_path) == {"size GB": 0.0, "setup s": 150.0}
    table = markdown({**FIGURES, "install": {"size GB": 1.9, "setup s": 150.0}, "scifact": SCIFACT})
    assert "| Environment (`make setup`) | 1.9 GB installed, set up in 2.5 min |" in table
    assert "Knobs chosen on the train (809 queries): tokenizer stemmed, rrf_k 60, reranker none; measured on " \
           "the test (300 queries)." in table
    assert "| bm25 | 0.690 | 0.920 |" in table
