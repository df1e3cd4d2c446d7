"""SciFact, a public benchmark with published results, run through the course's retrieval stack.

The course's own evaluation set is small and written for the course; a public benchmark
shows that the same code holds up against numbers others have published (BEIR's
SciFact: 5,183 scientific abstracts, 300 test claims). It is a benchmark, not a test:
embedding the abstracts takes minutes on a laptop (once — the vectors are cached).

    python -m ragcourse.beir [path/to/scifact]

The data is read from ``path``, else ``RAGCOURSE_SCIFACT``, else the cache (downloading
the public BEIR archive there on first use and checking every file's sha256).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import sys
import tempfile
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .bm25 import BM25Index
from .chunking import Chunk
from .config import PROJECT_ROOT, get_settings
from .embeddings import embed
from .errors import CourseError
from .evaluation import ndcg_at_k, recall_at_k
from .retrieval import Hit, rrf, to_hits
from .store import VectorStore

SCIFACT_URL = "https://public.ukp.informatik.tu-darmstadt.de/thakur/BEIR/datasets/scifact.zip"
#: sha256 of the files the benchmark reads (the BEIR SciFact release).
SCIFACT_SHA256 = {
    "corpus.jsonl": "d289bf5d711d1d6b0c9fba52b90e45a76e0b0e9f173fd3ff49cd098588de2581",
    "queries.jsonl": "4816ec1e0b1e4a3beed2b701eee2ece822626128c17564f315279af1ad25cd23",
    "qrels/test.tsv": "0864bb985e0ca2367ba217977e72004d549054b2b06666ed9d4825ac7c21284c",
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


def run_scifact(path: Path | None = None, *, split: str = "test", progress: bool = True,
                reranker: object | None = None) -> dict[str, dict[str, float]]:
    """nDCG@10 and Recall@100 of BM25, dense, hybrid (RRF) and hybrid + rerank on a BEIR split.

    Documents go through the same classes as the course's knowledge base (Chunk,
    VectorStore in a temporary Chroma folder, BM25Index); their vectors come from the
    embedding cache after the first run.
    """
    from .rerank import default_reranker

    data = load_beir(scifact_folder(path), split)
    chunks = list(data.chunks.values())
    vectors = [embed([c.embed_text for c in part]) for part in _progress(
        [chunks[i:i + 256] for i in range(0, len(chunks), 256)], "embedding abstracts", progress)]
    bm25 = BM25Index(chunks)
    reranker = reranker or default_reranker()
    query_ids = list(data.queries)
    query_vectors = embed([data.queries[q] for q in query_ids])
    lists: dict[str, dict[str, list[Hit]]] = {"bm25": {}, "dense": {}, "hybrid": {}, "hybrid + rerank": {}}
    with tempfile.TemporaryDirectory() as tmp:
        store = VectorStore("scifact", path=Path(tmp))
        store.upsert(chunks, np.concatenate(vectors))
        for qid, vector in zip(query_ids, _progress(query_vectors, "searching", progress), strict=True):
            query = data.queries[qid]
            dense = to_hits(store.query(vector, DEPTH), data.chunks, "vector")
            keyword = to_hits(bm25.search(query, DEPTH), data.chunks, "bm25")
            fused = rrf([dense, keyword])
            lists["bm25"][qid], lists["dense"][qid], lists["hybrid"][qid] = keyword, dense, fused
            lists["hybrid + rerank"][qid] = reranker.rerank(query, fused[:RERANK_DEPTH]) + fused[RERANK_DEPTH:]
    return {name: evaluate({q: [h.chunk.doc_id for h in hits] for q, hits in runs.items()}, data.qrels)
            for name, runs in lists.items()}


def format_table(results: Mapping[str, Mapping[str, float]], anchors: Mapping[str, float] = ANCHORS) -> str:
    """A Markdown table of our numbers, then the published anchors."""
    lines = ["| configuration | nDCG@10 | Recall@100 |", "| --- | --- | --- |"]
    lines += [f"| {name} | {m['nDCG@10']:.3f} | {m['Recall@100']:.3f} |" for name, m in results.items()]
    lines += [f"| published: {name} | {score:.3f} | |" for name, score in anchors.items()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m ragcourse.beir [folder]``: print the benchmark table."""
    args = list(sys.argv[1:] if argv is None else argv)
    print(format_table(run_scifact(Path(args[0]) if args else None)))


if __name__ == "__main__":
    main()
