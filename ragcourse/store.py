"""The vector store: one Chroma collection of chunk vectors, searched by cosine similarity.

Two rules keep it offline and correct:

* vectors are always passed in (``embeddings=`` / ``query_embeddings=``) — Chroma's
  default embedding function would download a model, so the collection gets one that
  refuses to run;
* the permission filter is part of the query (``where={"doc_id": {"$in": [...]}}``),
  so chunks the user may not read are never candidates — filtering afterwards would
  both leak and starve the top-k.

The same class talks to an embedded database (``PersistentClient`` in the cache) or to
a Chroma server (``HttpClient``) when a URL is given, e.g. ``RAGCOURSE_CHROMA_URL``.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import numpy as np


def _import_chromadb() -> None:
    """Import chromadb without the IRI grammar jsonschema builds on import when ``rfc3987-syntax`` is installed
    (JupyterLab brings it): that grammar was two thirds of chromadb's import time (97 s → 34 s on a machine
    loaded twentyfold; a notebook pays the import once per kernel). Chroma checks no IRIs; the package is hidden
    only while jsonschema loads, so an ``import rfc3987_syntax`` later still works."""
    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        return  # too late to skip the grammar, or it is already paid for
    sys.modules["rfc3987_syntax"] = None  # type: ignore[assignment]  # makes its import fail: jsonschema skips it
    try:
        import chromadb  # noqa: F401
    finally:
        del sys.modules["rfc3987_syntax"]


_import_chromadb()
import chromadb  # noqa: E402 - after the import above, this only binds the name
from chromadb.api.types import Documents, EmbeddingFunction, Embeddings  # noqa: E402
from chromadb.config import Settings as ChromaSettings  # noqa: E402

from .chunking import Chunk  # noqa: E402
from .errors import CourseError  # noqa: E402

#: Chroma's page size for reading ids and metadata (it caps how much one request returns).
_PAGE = 5000
#: Chunks checked per query call, and how many hits each check reads, when looking for chunks search cannot find.
_CHECK_BATCH = 500
_CHECK_DEPTH = 10


class ExplicitEmbeddings(EmbeddingFunction[Documents]):
    """Stands in for Chroma's default embedding function, which would download an ONNX model."""

    def __init__(self) -> None:
        pass

    def __call__(self, input: Documents) -> Embeddings:
        raise CourseError("The vector store embeds nothing itself: pass vectors from ragcourse.embeddings.")

    @staticmethod
    def name() -> str:
        return "ragcourse-explicit"

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> ExplicitEmbeddings:
        return ExplicitEmbeddings()

    def get_config(self) -> dict[str, Any]:
        return {}

    def default_space(self) -> str:
        return "cosine"


def _client(path: Path | None, url: str | None) -> chromadb.api.ClientAPI:
    settings = ChromaSettings(anonymized_telemetry=False)
    if url:
        parsed = urlparse(url if "://" in url else f"http://{url}")
        if not parsed.hostname:
            raise CourseError(f"Chroma URL {url!r} has no host: use e.g. http://127.0.0.1:8000.")
        ssl = parsed.scheme == "https"
        return chromadb.HttpClient(host=parsed.hostname, port=parsed.port or (443 if ssl else 8000), ssl=ssl,
                                   settings=settings)
    if path is None:
        raise CourseError("The vector store needs a folder (path=) or a Chroma server URL (url=).")
    path.mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(path), settings=settings)


def _metadata(chunk: Chunk) -> dict[str, str | int]:
    """Chroma metadata accepts only scalars: groups become a comma string, a missing page is left out."""
    meta: dict[str, str | int] = {
        "doc_id": chunk.doc_id, "title": chunk.title, "heading": chunk.heading, "source": chunk.source,
        "date": chunk.date, "allowed_groups": ",".join(chunk.allowed_groups), "position": chunk.position,
    }
    if chunk.page is not None:
        meta["page"] = chunk.page
    return meta


#: HNSW candidates per query. Chroma's default (100) leaves borderline ranks to chance: the same query could rank a
#: document 14th in one process and miss it in the next. For collections of a few thousand chunks a wide search
#: is still fast, and a notebook's output no longer changes from run to run.
EF_SEARCH = 1000
#: Similarities equal to this many digits are a tie, broken by chunk id. Chroma returns tied (or float-noise close)
#: chunks in the order its index happens to hold them, which depends on how the index was built; sorting by id makes
#: a notebook's ranking the same for a fresh index and an updated one.
TIE_DIGITS = 6


class VectorStore:
    """A Chroma collection of chunk vectors in cosine space, keyed by chunk id."""

    def __init__(self, name: str, path: Path | None = None, url: str | None = None) -> None:
        if len(name) < 3:
            raise CourseError(f"Collection name {name!r} is too short: Chroma needs at least 3 characters.")
        self.name = name
        try:
            self._client = _client(path, url)
            self._collection = self._client.get_or_create_collection(
                name, configuration={"hnsw": {"space": "cosine", "ef_search": EF_SEARCH}},
                embedding_function=ExplicitEmbeddings())
            if (self._collection.configuration.get("hnsw") or {}).get("ef_search", EF_SEARCH) < EF_SEARCH:
                self._collection.modify(configuration={"hnsw": {"ef_search": EF_SEARCH}})  # made before this setting
        except (ValueError, ConnectionError) as exc:
            where = url or path
            raise CourseError(f"Cannot open the vector store at {where} ({exc}): check the path or the server.") from None

    def upsert(self, chunks: Sequence[Chunk], vectors: np.ndarray) -> None:
        """Insert or replace chunks with their vectors (one row of ``vectors`` per chunk)."""
        if len(chunks) != len(vectors):
            raise ValueError(f"{len(chunks)} chunks but {len(vectors)} vectors")
        for start in range(0, len(chunks), _PAGE):
            part = chunks[start:start + _PAGE]
            self._collection.upsert(
                ids=[c.chunk_id for c in part],
                embeddings=np.asarray(vectors[start:start + _PAGE], dtype=np.float32),
                documents=[c.text for c in part],
                metadatas=[_metadata(c) for c in part],
            )

    def set_allowed_groups(self, doc_id: str, groups: Sequence[str]) -> None:
        """Change a document's groups in the metadata only: permissions must not cost a re-embedding."""
        found = self._collection.get(where={"doc_id": doc_id}, include=["metadatas"])
        if not found["ids"]:
            return
        metadatas = [{**meta, "allowed_groups": ",".join(groups)} for meta in found["metadatas"]]
        self._collection.update(ids=found["ids"], metadatas=metadatas)

    def delete(self, chunk_ids: Sequence[str]) -> None:
        for start in range(0, len(chunk_ids), _PAGE):
            self._collection.delete(ids=list(chunk_ids[start:start + _PAGE]))

    def ids(self) -> set[str]:
        ids: set[str] = set()
        offset = 0
        while True:
            page = self._collection.get(include=[], limit=_PAGE, offset=offset)["ids"]
            ids.update(page)
            if len(page) < _PAGE:
                return ids
            offset += _PAGE

    def count(self) -> int:
        return self._collection.count()

    def relink_unfound(self) -> list[str]:
        """Write again every chunk that a search with its own vector does not find; returns their ids.

        After deletes and updates, Chroma's HNSW graph can lose a live record: ``get`` still returns it, but no
        query ever will (chroma-core/chroma#7758). Deleting and adding it again links it into the graph anew.
        """
        unfound: list[str] = []
        total = self.count()
        k = min(_CHECK_DEPTH, total)
        for start in range(0, total, _PAGE):
            page = self._collection.get(include=["embeddings"], limit=_PAGE, offset=start)
            for at in range(0, len(page["ids"]), _CHECK_BATCH):
                ids, vectors = page["ids"][at:at + _CHECK_BATCH], page["embeddings"][at:at + _CHECK_BATCH]
                found = self._collection.query(query_embeddings=vectors, n_results=k, include=["distances"])
                for cid, hits, distances in zip(ids, found["ids"], found["distances"], strict=True):
                    # k copies of the same vector can fill the list without this one: that is a tie, not a loss
                    if cid not in hits and not (len(hits) == k and distances[-1] < 1e-6):
                        unfound.append(cid)
        if unfound:
            rows = self._collection.get(ids=unfound, include=["embeddings", "documents", "metadatas"])
            self._collection.delete(ids=unfound)
            self._collection.add(ids=rows["ids"], embeddings=rows["embeddings"], documents=rows["documents"],
                                 metadatas=rows["metadatas"])
        return sorted(unfound)

    def query(self, vector: np.ndarray, k: int, doc_ids: Collection[str] | None = None) -> list[tuple[str, float]]:
        """(chunk id, cosine similarity), best first; ``doc_ids`` restricts the search inside the query."""
        if k <= 0 or (doc_ids is not None and not doc_ids):
            return []
        where = {"doc_id": {"$in": sorted(doc_ids)}} if doc_ids is not None else None
        result = self._collection.query(query_embeddings=[np.asarray(vector, dtype=np.float32)], n_results=k,
                                        where=where, include=["distances"])
        hits = [(cid, 1.0 - float(dist)) for cid, dist in zip(result["ids"][0], result["distances"][0], strict=True)]
        return sorted(hits, key=lambda hit: (-round(hit[1], TIE_DIGITS), hit[0]))
