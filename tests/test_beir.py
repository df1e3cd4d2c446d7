import json
import math
from pathlib import Path

import pytest

from ragcourse import beir
from ragcourse.errors import CourseError
from ragcourse.evaluation import ndcg_at_k, recall_at_k

SHARED_SCIFACT = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "scifact"

CORPUS = [
    ("d1", "Aspirin and heart attacks", "Daily low-dose aspirin reduces the risk of a first heart attack."),
    ("d2", "Vitamin D", "Vitamin D supplements do not prevent bone fractures in older adults."),
    ("d3", "Coffee", "Coffee consumption is associated with lower mortality."),
    ("d4", "Sleep", "Short sleep duration increases the risk of obesity in children."),
]
QUERIES = {"q1": "aspirin prevents heart attacks", "q2": "lack of sleep makes children obese",
           "q3": "an unjudged training claim", "q4": "vitamin d supplements and bone fractures"}


def make_beir(folder: Path) -> Path:
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        "\n".join(json.dumps({"_id": i, "title": t, "text": x, "metadata": {}}) for i, t, x in CORPUS) + "\n")
    (folder / "queries.jsonl").write_text("\n".join(json.dumps({"_id": q, "text": t}) for q, t in QUERIES.items()))
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td4\t1\nq2\td3\t0\n")
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\nq4\td2\t1\n")
    return folder


def test_load_keeps_judged_queries_and_positive_judgements(tmp_path: Path):
    data = beir.load_beir(make_beir(tmp_path / "tiny"))
    assert set(data.queries) == {"q1", "q2"}
    assert data.qrels == {"q1": {"d1": 1}, "q2": {"d4": 1}}
    assert data.chunks["d1"].embed_text == "Aspirin and heart attacks\n" + CORPUS[0][2]
    with pytest.raises(CourseError, match="missing"):
        beir.load_beir(tmp_path / "nowhere")


def test_metrics_by_hand():
    assert ndcg_at_k(["x", "a"], {"a": 1}, 10) == pytest.approx(1 / math.log2(3))
    assert ndcg_at_k(["a", "b"], {"a": 1, "b": 1}, 10) == pytest.approx(1.0)
    assert ndcg_at_k(["b"] * 10 + ["a"], {"a": 1}, 10) == 0.0
    assert recall_at_k(["a", "x", "b"], {"a": 1, "b": 1, "c": 1}, 2) == pytest.approx(1 / 3)
    scores = beir.evaluate({"q1": ["a"]}, {"q1": {"a": 1}, "q2": {"b": 1}})
    assert scores == {"nDCG@10": 0.5, "Recall@100": 0.5}  # a query with no run counts as 0


def test_checksums_and_folder_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    folder = make_beir(tmp_path / "tiny")
    with pytest.raises(CourseError, match="checksum"):
        beir.verify(folder)
    monkeypatch.setenv("RAGCOURSE_SCIFACT", str(folder))
    assert beir.scifact_folder() == folder
    assert beir.scifact_folder(tmp_path) == tmp_path


def test_run_on_a_tiny_benchmark(tmp_path: Path):
    run = beir.run_scifact(make_beir(tmp_path / "tiny"), select_on=None, progress=False)
    assert run["selected on"] == "defaults" and run["queries"] == "test (2 queries)"
    results = run["results"]
    assert list(results) == ["bm25", "dense", "hybrid", "hybrid + rerank"]
    for name, metrics in results.items():
        assert metrics["Recall@100"] == 1.0, name  # four documents: everything is found
        assert metrics["nDCG@10"] == pytest.approx(1.0), name  # and these claims are easy
    table = beir.format_table(results)
    assert "| hybrid + rerank | 1.000 | 1.000 |" in table and "published: all-MiniLM-L6-v2 | 0.645" in table


def test_knobs_are_chosen_on_the_selection_split_only(tmp_path: Path):
    run = beir.run_scifact(make_beir(tmp_path / "tiny"), select_on="train", progress=False)
    assert run["selected on"] == "train (1 queries)" and run["queries"] == "test (2 queries)"
    knobs = beir.Knobs(**run["knobs"])
    # Every knob value was tried on train, and the chosen one scored best there (ties: the first listed).
    for knob, chosen in run["knobs"].items():
        scores = {key.split("=", 1)[1]: v for key, v in run["tried"].items() if key.startswith(f"{knob}=")}
        assert scores and scores[str(chosen)] == max(scores.values()), knob
    assert knobs.tokenizer in beir.TOKENIZERS and knobs.rrf_k in beir.FUSION_K
    assert "Knobs chosen on the train (1 queries)" in beir.describe(run)


def test_every_offline_reranker_in_rerank_is_a_candidate():
    from ragcourse import rerank

    variants = beir.reranker_variants()
    assert variants["none"]() is None
    assert {f"SentenceReranker(k={k})" for k in beir.RERANKER_K} <= set(variants)
    assert isinstance(variants["SentenceReranker(k=5)"](), rerank.SentenceReranker)
    assert not any(name.startswith(("LLMReranker", "CrossEncoderReranker")) for name in variants)


@pytest.mark.skipif(not SHARED_SCIFACT.exists(), reason="the shared SciFact copy is not here")
def test_the_shared_scifact_copy_is_the_published_one():
    beir.verify(SHARED_SCIFACT)
    data = beir.load_beir(SHARED_SCIFACT)
    assert (len(data.chunks), len(data.queries), sum(map(len, data.qrels.values()))) == (5183, 300, 339)
