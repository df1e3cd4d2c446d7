"""SciFact, a public benchmark with published results, run through the course's retrieval stack.

The course's own evaluation set is small and written for the course; a public benchmark
shows that the same code holds up against numbers others have published (BEIR's
SciFact: 5,183 scientific abstracts, 300 test claims). It is a benchmark, not a test:
embedding the abstracts takes minutes on a laptop (once — the vectors are cached).

Every setting that is chosen rather than given (BM25 tokenizer, RRF constant, reranker) is
chosen on the 809 train claims; the test claims are measured once, with that choice.

    python -m ragcourse.beir [path/to/scifact]

The data is read from ``path``, else ``RAGCOURSE_SCIFACT``, else the cache (downloading
the public BEIR archive there on first use and checking every file's sha256).
"""

from __future__ import annotations

import csv
import hashlib
import inspect
import io
import json
import os
import sys
import tempfile
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .bm25 import BM25Index, tokenize
from .chunking import Chunk
from .config import PROJECT_ROOT, get_settings
from .embeddings import embed
from .errors import CourseError
from .evaluation import ndcg_at_k, recall_at_k
from .retrieval import RRF_K, Hit, rrf, to_hits
from .store import VectorStore

if TYPE_CHECKING:
    from .rerank import Reranker

SCIFACT_URL = "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip"
#: sha256 of the files the benchmark reads (the BEIR SciFact release).
SCIFACT_SHA256 = {
    "corpus.jsonl": "d289bf5d711d1d6b0c9fba52b90e45a76e0b0e9f173fd3ff49cd098588de2581",
    "queries.jsonl": "4816ec1e0b1e4a3beed2b701eee2ece822626128c17564f315279af1ad25cd23",
    "qrels/test.tsv": "0864bb985e0ca2367ba217977e72004d549054b2b06666ed9d4825ac7c21284c",
    "qrels/train.tsv": "a53f2114831916c096b6c37d9e54da68cef4efdcdbd5ed46533601af972acf1d",
}
#: Published nDCG@10 on the test split, to print next to ours (see the dataset's README for sources).
ANCHORS = {"BM25 (Anserini, flat)": 0.679, "BM25 (BEIR paper, multifield)": 0.665, "all-MiniLM-L6-v2": 0.645}
#: Candidates per retriever: Recall@100 needs 100, and the reranker re-scores the fused top ``RERANK_DEPTH``.
DEPTH = 100
RERANK_DEPTH = 20


@dataclass(frozen=True)
class BeirData:
    """A BEIR dataset: documents as chunks (one per abstract), queries with judgements, by id."""

    chunks: dict[str, Chunk]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


def _read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_beir(folder: Path, split: str = "test") -> BeirData:
    """Read ``corpus.jsonl``, ``queries.jsonl`` and ``qrels/<split>.tsv``; keeps only the judged queries."""
    folder = Path(folder)
    for name in ("corpus.jsonl", "queries.jsonl", f"qrels/{split}.tsv"):
        if not (folder / name).exists():
            raise CourseError(f"{folder / name} is missing: point to a BEIR-format folder (corpus, queries, qrels).")
    qrels: dict[str, dict[str, int]] = {}
    with (folder / "qrels" / f"{split}.tsv").open(encoding="utf-8") as f:
        rows = csv.reader(f, delimiter="\t")
        next(rows, None)  # header: query-id corpus-id score
        for query_id, doc_id, score in rows:
            if int(score) > 0:
                qrels.setdefault(query_id, {})[doc_id] = int(score)
    chunks = {}
    for row in _read_jsonl(folder / "corpus.jsonl"):
        doc_id = str(row["_id"])
        chunks[doc_id] = Chunk(chunk_id=doc_id, doc_id=doc_id, position=0, title=row.get("title", "").strip(),
                               heading="", text=row.get("text", "").strip(), source=f"scifact/{doc_id}")
    queries = {str(r["_id"]): r["text"] for r in _read_jsonl(folder / "queries.jsonl") if str(r["_id"]) in qrels}
    return BeirData(chunks=chunks, queries=queries, qrels=qrels)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(folder: Path) -> None:
    """Check the benchmark's files against :data:`SCIFACT_SHA256`: a changed file would change every number."""
    for name, expected in SCIFACT_SHA256.items():
        if _sha256(folder / name) != expected:
            raise CourseError(f"{folder / name} does not match its published checksum: delete {folder} and retry.")


def download_scifact(dest: Path) -> Path:
    """Download the public BEIR SciFact archive into ``dest``, check it, and return the dataset folder."""
    import httpx

    folder = dest / "scifact"
    print(f"Downloading SciFact from {SCIFACT_URL} ...", file=sys.stderr)
    try:
        response = httpx.get(SCIFACT_URL, follow_redirects=True, timeout=120)
        response.raise_for_status()
    except httpx.HTTPError as exc:
        raise CourseError(f"Cannot download SciFact ({exc}): download {SCIFACT_URL} and set RAGCOURSE_SCIFACT.") from None
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=dest) as tmp:  # extract aside, so a failed check leaves nothing half-done
        zipfile.ZipFile(io.BytesIO(response.content)).extractall(tmp)
        verify(Path(tmp) / "scifact")
        (Path(tmp) / "scifact").rename(folder)
    return folder


def scifact_folder(path: Path | None = None) -> Path:
    """Where SciFact is: ``path``, else ``RAGCOURSE_SCIFACT``, else a workshop copy in ``../shared/datasets``
    next to the project, else the cache (downloaded on first use)."""
    if path is not None or os.environ.get("RAGCOURSE_SCIFACT"):
        return Path(path or os.environ["RAGCOURSE_SCIFACT"]).expanduser()
    shared = PROJECT_ROOT.parent / "shared" / "datasets" / "scifact"
    if (shared / "corpus.jsonl").exists():
        return shared
    cached = get_settings().cache_dir / "datasets"
    return cached / "scifact" if (cached / "scifact" / "corpus.jsonl").exists() else download_scifact(cached)


def evaluate(runs: Mapping[str, Sequence[str]], qrels: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    """Mean nDCG@10 and Recall@100 over the judged queries (a query with no result counts as 0)."""
    ids = list(qrels)
    return {"nDCG@10": sum(ndcg_at_k(runs.get(q, []), qrels[q], 10) for q in ids) / len(ids),
            "Recall@100": sum(recall_at_k(runs.get(q, []), qrels[q], 100) for q in ids) / len(ids)}


def _progress(items: Sequence, desc: str, show: bool):  # noqa: ANN202 - a tqdm or the sequence itself
    if not show:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, leave=False)


#: BM25 tokenizers to choose from: the course's (Snowball stems) and the same without stemming.
TOKENIZERS: dict[str, Callable[[str], list[str]]] = {"stemmed": tokenize, "unstemmed": partial(tokenize, stem=False)}
#: RRF constants to choose from (the articles' 60 and one smaller and one larger).
FUSION_K = (20, 60, 120)
#: Rank-fusion constants tried for a reranker that fuses its own signals (one with a ``k`` parameter).
RERANKER_K = (5, 10, 30, 60)


@dataclass(frozen=True)
class Knobs:
    """The SciFact settings that are chosen, not given: BM25 tokenizer, RRF constant, reranker (by name)."""

    tokenizer: str = "stemmed"
    rrf_k: int = RRF_K
    reranker: str = "default"


def reranker_variants() -> dict[str, Callable[[], Reranker | None]]:
    """Every reranker ``ragcourse.rerank`` offers that runs offline without a setting, by name, plus "none".

    Read from the module, not listed here, so a reranker added there is tried too: each class named
    ``...Reranker`` that can be made without arguments (a cross-encoder needs a model folder and the LLM
    reranker a chat model: neither is a benchmark of the retrieval stack), once per ``k`` in :data:`RERANKER_K`
    when it takes one.
    """
    from . import rerank

    variants: dict[str, Callable[[], Reranker | None]] = {"none": lambda: None}
    for name, cls in sorted(vars(rerank).items()):
        if not (isinstance(cls, type) and name.endswith("Reranker") and name != "LLMReranker"
                and not getattr(cls, "_is_protocol", False)
                and callable(getattr(cls, "rerank", None))):
            continue
        params = inspect.signature(cls).parameters
        if any(p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) for p in params.values()):
            continue
        if "k" in params:
            variants.update({f"{name}(k={k})": partial(cls, k=k) for k in RERANKER_K})
        else:
            variants[name] = cls
    return variants


class Retrievers:
    """Dense and BM25 retrieval over one corpus, built once and shared by the selection split and the test split."""

    def __init__(self, chunks: Mapping[str, Chunk], folder: Path, progress: bool) -> None:
        self.chunks, self.progress = chunks, progress
        items = list(chunks.values())
        vectors = [embed([c.embed_text for c in part]) for part in _progress(
            [items[i:i + 256] for i in range(0, len(items), 256)], "embedding abstracts", progress)]
        self.store = VectorStore("scifact", path=folder)
        self.store.upsert(items, np.concatenate(vectors))
        self._bm25: dict[str, BM25Index] = {}

    def dense(self, queries: Mapping[str, str]) -> dict[str, list[Hit]]:
        ids = list(queries)
        vectors = embed([queries[q] for q in ids])
        return {q: to_hits(self.store.query(v, DEPTH), self.chunks, "vector")
                for q, v in zip(ids, _progress(vectors, "dense search", self.progress), strict=True)}

    def keyword(self, queries: Mapping[str, str], tokenizer: str) -> dict[str, list[Hit]]:
        if tokenizer not in self._bm25:
            self._bm25[tokenizer] = BM25Index(list(self.chunks.values()), TOKENIZERS[tokenizer])
        index = self._bm25[tokenizer]
        return {q: to_hits(index.search(text, DEPTH), self.chunks, "bm25") for q, text in queries.items()}


def _scores(runs: Mapping[str, Sequence[Hit]], qrels: Mapping[str, Mapping[str, int]]) -> dict[str, float]:
    return evaluate({q: [h.chunk.doc_id for h in hits] for q, hits in runs.items()}, qrels)


def _reranked(fused: Mapping[str, list[Hit]], queries: Mapping[str, str], reranker: Reranker | None,
              ) -> dict[str, list[Hit]]:
    if reranker is None:
        return dict(fused)
    return {q: reranker.rerank(queries[q], hits[:RERANK_DEPTH]) + hits[RERANK_DEPTH:] for q, hits in fused.items()}


def select_knobs(retrievers: Retrievers, data: BeirData) -> tuple[Knobs, dict[str, float]]:
    """Choose the knobs on ``data`` (the train split), one at a time, each by nDCG@10 of the stage it changes:
    the tokenizer by BM25 alone, the RRF constant by the fused list, the reranker by the reranked list.
    Returns the choice and every tried setting's nDCG@10 (named ``knob=value``), so the choice can be checked."""
    tried: dict[str, float] = {}
    dense = retrievers.dense(data.queries)
    keyword = {}
    for name in TOKENIZERS:
        keyword[name] = retrievers.keyword(data.queries, name)
        tried[f"tokenizer={name}"] = _scores(keyword[name], data.qrels)["nDCG@10"]
    tokenizer = max(TOKENIZERS, key=lambda n: tried[f"tokenizer={n}"])
    fused = {}
    for k in FUSION_K:
        fused[k] = {q: rrf([dense[q], keyword[tokenizer][q]], k=k) for q in data.queries}
        tried[f"rrf_k={k}"] = _scores(fused[k], data.qrels)["nDCG@10"]
    rrf_k = max(FUSION_K, key=lambda k: tried[f"rrf_k={k}"])
    variants = reranker_variants()
    for name, make in variants.items():
        tried[f"reranker={name}"] = _scores(_reranked(fused[rrf_k], data.queries, make()), data.qrels)["nDCG@10"]
    reranker = max(variants, key=lambda n: tried[f"reranker={n}"])
    return Knobs(tokenizer, rrf_k, reranker), {k: round(v, 4) for k, v in tried.items()}


def run_split(retrievers: Retrievers, data: BeirData, knobs: Knobs) -> dict[str, dict[str, float]]:
    """nDCG@10 and Recall@100 of BM25, dense, hybrid (RRF) and hybrid + rerank with ``knobs`` on one split."""
    from .rerank import default_reranker

    dense = retrievers.dense(data.queries)
    keyword = retrievers.keyword(data.queries, knobs.tokenizer)
    fused = {q: rrf([dense[q], keyword[q]], k=knobs.rrf_k) for q in data.queries}
    reranker = default_reranker() if knobs.reranker == "default" else reranker_variants()[knobs.reranker]()
    lists = {"bm25": keyword, "dense": dense, "hybrid": fused,
             "hybrid + rerank": _reranked(fused, data.queries, reranker)}
    return {name: _scores(runs, data.qrels) for name, runs in lists.items()}


def run_scifact(path: Path | None = None, *, split: str = "test", select_on: str | None = "train",
                progress: bool = True) -> dict:
    """The benchmark: knobs chosen on ``select_on`` (the course's defaults if None), then ``split`` measured once.

    Returns ``{"selected on", "queries", "knobs", "tried", "results"}``; ``results`` maps each configuration
    (bm25, dense, hybrid, hybrid + rerank) to nDCG@10 and Recall@100. Documents go through the same classes
    as the course's knowledge base (Chunk, VectorStore in a temporary Chroma folder, BM25Index); their vectors
    come from the embedding cache after the first run.
    """
    folder = scifact_folder(path)
    data = load_beir(folder, split)
    with tempfile.TemporaryDirectory() as tmp:
        retrievers = Retrievers(data.chunks, Path(tmp), progress)
        knobs, tried, selection = Knobs(), {}, None
        if select_on is not None:
            selection = load_beir(folder, select_on)
            knobs, tried = select_knobs(retrievers, selection)
        results = run_split(retrievers, data, knobs)
    return {"selected on": f"{select_on} ({len(selection.queries)} queries)" if selection else "defaults",
            "queries": f"{split} ({len(data.queries)} queries)", "knobs": asdict(knobs), "tried": tried,
            "results": results}


def format_table(results: Mapping[str, Mapping[str, float]], anchors: Mapping[str, float] = ANCHORS) -> str:
    """A Markdown table of our numbers, then the published anchors."""
    lines = ["| configuration | nDCG@10 | Recall@100 |", "| --- | --- | --- |"]
    lines += [f"| {name} | {m['nDCG@10']:.3f} | {m['Recall@100']:.3f} |" for name, m in results.items()]
    lines += [f"| published: {name} | {score:.3f} | |" for name, score in anchors.items()]
    return "\n".join(lines)


def describe(result: Mapping) -> str:
    """One line: which split chose the knobs, what they are, which split the table measures."""
    knobs = ", ".join(f"{k} {v}" for k, v in result["knobs"].items())
    return f"Knobs chosen on the {result['selected on']}: {knobs}; measured on the {result['queries']}."


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m ragcourse.beir [folder]``: choose the knobs on train, print the test table."""
    args = list(sys.argv[1:] if argv is None else argv)
    result = run_scifact(Path(args[0]) if args else None)
    print(describe(result), "", format_table(result["results"]), sep="\n")


if __name__ == "__main__":
    main()
