"""The knowledge base: chunks, vectors, BM25 and permissions, kept in step with the documents.

A knowledge base that must be rebuilt for every edited document cannot be run, so
``sync(documents)`` updates only what changed. A manifest (SQLite) remembers each
document's content hash and groups and each chunk's record and vector; comparing the
new documents with it sorts them into added, modified, deleted and permission-only
changes. Only chunks whose text is new are embedded; a permission-only change touches
metadata and the ACL, never the embedder; BM25 is rebuilt from the manifest's chunks,
so both retrievers always see the same chunk set.

An update may be killed half-way (a crash, Ctrl-C, a full disk). It stays safe because
of the write order, for each batch of documents:

1. a *pending* mark for the documents is committed to the manifest;
2. the ACL and then the vector store are changed;
3. one manifest transaction records the documents' new chunks and clears the marks.

The manifest is therefore the truth and the store and the ACL are derived from it. Every
sync starts by reconciling them with it: store chunks the manifest does not know are
deleted, chunks it knows that are missing (or belong to a pending document) are written
back from the manifest's vectors, and the ACL gets the manifest's groups. The normal
update then redoes the unfinished work, so a rerun converges: nothing lost, nothing
duplicated. (That holds for a killed process; after a power cut, only as far as Chroma's
own writes survive it.)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import numpy as np
from filelock import FileLock
from tqdm import tqdm

from . import chunking
from .acl import AccessControl
from .bm25 import BM25Index
from .chunking import Chunk, chunk_document
from .config import get_settings
from .corpus import Document, course, read_document
from .embeddings import Embedder, get_embedder
from .errors import CourseError
from .store import VectorStore

#: Texts per embedder call: large enough for an efficient batch, small enough for a lively progress bar.
EMBED_BATCH = 64
#: Chunks per store write: each write costs a disk sync, so documents are written together, a few hundred at a time.
WRITE_BATCH = 256

_SCHEMA = """
PRAGMA foreign_keys = ON;
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, source TEXT NOT NULL, title TEXT NOT NULL, date TEXT NOT NULL,
    content_hash TEXT NOT NULL, groups TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL REFERENCES documents ON DELETE CASCADE,
    content_hash TEXT NOT NULL, record TEXT NOT NULL, vector BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_by_doc ON chunks (doc_id);
CREATE INDEX IF NOT EXISTS chunks_by_hash ON chunks (content_hash);
CREATE TABLE IF NOT EXISTS pending (doc_id TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS failures (name TEXT PRIMARY KEY, error TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass
class UpdateReport:
    """What one ``sync`` did: document ids per kind of change, failures by file name, and the work done.

    ``chunks_embedded`` counts texts this index had no vector for; the embedder's own disk
    cache may still answer some of them (e.g. when the same corpus is indexed twice).
    """

    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    permissions_only: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    chunks_embedded: int = 0
    chunks_deleted: int = 0
    chunks_relinked: int = 0
    seconds: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.modified or self.deleted or self.permissions_only)

    def __str__(self) -> str:
        return (f"{len(self.added)} added, {len(self.modified)} modified, {len(self.deleted)} deleted, "
                f"{len(self.permissions_only)} permission-only, {len(self.failed)} failed; "
                f"{self.chunks_embedded} chunks embedded, {self.chunks_deleted} deleted"
                + (f", {self.chunks_relinked} relinked" if self.chunks_relinked else "") + f" in {self.seconds:.2f} s")


@dataclass
class _Plan:
    """The changes one sync will make, worked out before anything is written."""

    added: list[Document]
    modified: list[Document]
    deleted: list[str]
    permissions_only: list[Document]


class KnowledgeBase:
    """One knowledge base on disk: manifest, Chroma collection and ACL in ``root``, BM25 in memory.

    Each embedding model gets its own manifest and collection (``root/<model>/``): vectors of
    different models cannot be mixed, and switching back to a model finds its index intact.
    The ACL (``root/acl.sqlite``) is shared, because permissions do not depend on the model.
    """

    def __init__(self, name: str, root: Path, *, embedder: Embedder | None = None, chroma_url: str | None = None) -> None:
        self.name, self.root = name, Path(root)
        self.organisation = stored_organisation(self.root)
        self._embedder = embedder
        self.successors: dict[str, str] = {}  # superseded doc id → the doc that replaces it (set by sync)
        self.embedder_name = embedder.name if embedder is not None else get_settings().embedding_model
        model_dir = self.root / _slug(self.embedder_name)
        model_dir.mkdir(parents=True, exist_ok=True)
        self.acl = AccessControl(self.root / "acl.sqlite")
        self.store = VectorStore(f"{name}-{_slug(self.embedder_name)}", model_dir / "chroma", chroma_url)
        self._manifest = sqlite3.connect(model_dir / "manifest.sqlite", timeout=30, check_same_thread=False)
        self._manifest.executescript(_SCHEMA)
        # The thread lock guards this process's connection; the file lock keeps two processes (a notebook and
        # the test suite on the same cache) from updating one knowledge base at the same time.
        self._lock = threading.RLock()
        self._file_lock = FileLock(str(model_dir / "sync.lock"))
        self.chunks: dict[str, Chunk] = {}
        self.content_version = ""
        self._bm25: BM25Index | None = None
        self._load()

    @classmethod
    def open(cls, name: str = "course", root: Path | None = None, *, embedder: Embedder | None = None,
             chroma_url: str | None = None) -> KnowledgeBase:
        """Open (or create) a knowledge base; ``root`` defaults to ``<cache>/kb/<name>``."""
        return cls(name, root or get_settings().cache_dir / "kb" / name, embedder=embedder, chroma_url=chroma_url)

    # --- reading ---------------------------------------------------------------------------------------------------

    @property
    def embedder(self) -> Embedder:
        """The embedder, created on first use: opening a knowledge base must not cost a model load."""
        if self._embedder is None:
            self._embedder = get_embedder()
        return self._embedder

    @property
    def bm25(self) -> BM25Index:
        """BM25 over exactly the chunks in the vector store, rebuilt after a sync that changed them."""
        if self._bm25 is None:
            self._bm25 = BM25Index(list(self.chunks.values()))
        return self._bm25

    def visible_doc_ids(self, user_id: str) -> frozenset[str]:
        return self.acl.visible_doc_ids(user_id)

    def cache_key(self, user_id: str) -> str:
        """The key prefix of every cache: a result is reused only for the same user, permissions and content."""
        return f"{user_id}@acl{self.acl.version}@content{self.content_version}"

    def documents(self) -> list[dict[str, object]]:
        """The indexed documents with their groups and chunk counts, by id."""
        rows = self._read("SELECT d.doc_id, d.title, d.source, d.date, d.groups, COUNT(c.chunk_id) FROM documents d "
                          "LEFT JOIN chunks c ON c.doc_id = d.doc_id GROUP BY d.doc_id ORDER BY d.doc_id")
        return [{"doc_id": doc_id, "title": title, "source": source, "date": date, "allowed_groups": json.loads(groups),
                 "chunks": count} for doc_id, title, source, date, groups, count in rows]

    @property
    def failures(self) -> dict[str, str]:
        """Files the last sync could not read, by name, with the reason (they are retried on the next sync)."""
        return dict(self._read("SELECT name, error FROM failures ORDER BY name"))

    # --- updating --------------------------------------------------------------------------------------------------

    def sync(self, documents: Mapping[str, Document], *, failed: Mapping[str, str] | None = None,
             progress: bool = False) -> UpdateReport:
        """Make the index hold exactly ``documents``, doing only the work their changes need.

        ``failed`` names documents the caller could not read (file name → reason): they are
        reported, their last good version (if any) stays in the index, and they are recorded
        so the next sync tries them again. Running ``sync`` twice with the same documents
        does nothing the second time.
        """
        started = time.perf_counter()
        failed = dict(failed or {})
        with self._lock, self._file_lock:
            repaired = self._reconcile()
            plan = self._plan(documents, set(failed))
            fresh = {doc.doc_id: chunk_document(doc) for doc in plan.added + plan.modified}
            vectors, embedded = self._vectors([c for chunks in fresh.values() for c in chunks], progress)
            report = UpdateReport(added=[d.doc_id for d in plan.added], modified=[d.doc_id for d in plan.modified],
                                  deleted=plan.deleted, permissions_only=[d.doc_id for d in plan.permissions_only],
                                  failed=failed, chunks_embedded=embedded)
            report.chunks_deleted += self._delete_documents(plan.deleted)
            self._change_groups(plan.permissions_only)
            for batch in _batches(plan.added + plan.modified, fresh):
                report.chunks_deleted += self._write_documents(batch, fresh, vectors)
            if repaired or report.changed:  # the store was written: check that search still finds every chunk
                report.chunks_relinked = len(self.store.relink_unfound())
            with self._manifest:
                self._manifest.execute("DELETE FROM failures")
                self._manifest.executemany("INSERT INTO failures VALUES (?, ?)", failed.items())
                self._manifest.execute("INSERT OR REPLACE INTO meta VALUES ('chunker', ?)", (_chunker_version(),))
            self._load()
        # The newer version wins: retrieval orders a superseded document after its successor.
        self.successors = {d.supersedes: d.doc_id for d in documents.values() if d.supersedes in documents}
        report.seconds = time.perf_counter() - started
        return report

    def sync_folder(self, *folders: Path, groups: Mapping[str, str], progress: bool = False) -> UpdateReport:
        """Sync with the ``*.md`` documents of some folders; a file that cannot be read is reported, not fatal.

        ``groups`` are the known groups (``course().groups``) that documents may name.
        """
        documents: dict[str, Document] = {}
        failed: dict[str, str] = {}
        for folder in map(Path, folders):
            for path in sorted(folder.glob("*.md")):
                if path.name.lower() == "readme.md":
                    continue
                name = path.relative_to(folder.parent).as_posix()
                try:
                    doc = read_document(path, dict(groups), folder.parent)
                except CourseError as exc:
                    failed[name] = str(exc)
                    continue
                if doc.doc_id in documents:
                    failed[name] = f"duplicate id {doc.doc_id!r} (also in {documents[doc.doc_id].source})"
                    continue
                documents[doc.doc_id] = doc
        return self.sync(documents, failed=failed, progress=progress)

    def _plan(self, documents: Mapping[str, Document], failed_names: set[str]) -> _Plan:
        """Sort the documents into kinds of change by comparing them with the manifest."""
        known = {doc_id: (content_hash, tuple(json.loads(groups)), source) for doc_id, content_hash, groups, source
                 in self._read("SELECT doc_id, content_hash, groups, source FROM documents")}
        # Chunks are a function of the text AND the chunker: after an edit of chunking.py every document is
        # re-chunked (texts that did not change keep their vectors, so this costs little embedding).
        rechunk_all = self._meta("chunker") not in (None, _chunker_version())
        plan = _Plan([], [], [], [])
        for doc_id, doc in sorted(documents.items()):
            if doc_id not in known:
                plan.added.append(doc)
            elif rechunk_all or known[doc_id][0] != _document_hash(doc):
                plan.modified.append(doc)
            elif known[doc_id][1] != doc.allowed_groups:
                plan.permissions_only.append(doc)
        # A document whose file failed to read is not deleted: its last good version stays until it reads again.
        plan.deleted = sorted(d for d, (_, _, source) in known.items() if d not in documents and source not in failed_names)
        return plan

    def _vectors(self, chunks: Sequence[Chunk], progress: bool) -> tuple[dict[str, np.ndarray], int]:
        """Vectors by content hash: from the manifest when the text is known, else from the embedder."""
        hashes = sorted({c.content_hash for c in chunks})
        vectors: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), 500):
            part = hashes[start:start + 500]
            for content_hash, blob in self._read(
                    f"SELECT content_hash, vector FROM chunks WHERE content_hash IN ({_marks(part)})", part):
                vectors[content_hash] = np.frombuffer(blob, dtype=np.float32)
        texts = {c.content_hash: c.embed_text for c in chunks if c.content_hash not in vectors}
        new = list(texts)
        with tqdm(total=len(new), desc=f"Embedding {self.name}", unit="chunk", disable=not (progress and new)) as bar:
            for start in range(0, len(new), EMBED_BATCH):
                batch = new[start:start + EMBED_BATCH]
                vectors.update(zip(batch, self.embedder.embed([texts[h] for h in batch]), strict=True))
                bar.update(len(batch))
        return vectors, len(new)

    def _write_documents(self, docs: Sequence[Document], fresh: Mapping[str, list[Chunk]],
                         vectors: Mapping[str, np.ndarray]) -> int:
        """Add or replace some documents' chunks; only chunks that differ are written. Returns chunks deleted."""
        ids = [doc.doc_id for doc in docs]
        old = dict(self._read(f"SELECT chunk_id, record FROM chunks WHERE doc_id IN ({_marks(ids)})", ids))
        chunks = [c for doc_id in ids for c in fresh[doc_id]]
        records = {c.chunk_id: _record(c) for c in chunks}
        stale = sorted(set(old) - set(records))
        changed = [c for c in chunks if old.get(c.chunk_id) != records[c.chunk_id]]
        self._mark_pending(ids)
        for doc in docs:
            self.acl.set_document_groups(doc.doc_id, doc.allowed_groups)
        self.store.delete(stale)
        if changed:
            self.store.upsert(changed, np.stack([vectors[c.content_hash] for c in changed]))
        with self._manifest:
            self._manifest.executemany("INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?)", [
                (doc.doc_id, doc.source, doc.title, doc.date.isoformat(), _document_hash(doc),
                 json.dumps(doc.allowed_groups)) for doc in docs])
            self._manifest.execute(f"DELETE FROM chunks WHERE doc_id IN ({_marks(ids)})", ids)
            self._manifest.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?, ?)", [
                (c.chunk_id, c.doc_id, c.content_hash, records[c.chunk_id], vectors[c.content_hash].tobytes())
                for c in chunks])
            self._manifest.execute(f"DELETE FROM pending WHERE doc_id IN ({_marks(ids)})", ids)
        return len(stale)

    def _change_groups(self, docs: Sequence[Document]) -> None:
        """Permission-only changes: ACL and chunk metadata, no embedding."""
        ids = [doc.doc_id for doc in docs]
        self._mark_pending(ids)
        for doc in docs:
            self.acl.set_document_groups(doc.doc_id, doc.allowed_groups)
            self.store.set_allowed_groups(doc.doc_id, doc.allowed_groups)
        groups = {doc.doc_id: doc.allowed_groups for doc in docs}
        rows = self._read(f"SELECT record FROM chunks WHERE doc_id IN ({_marks(ids)})", ids)
        chunks = [_chunk(record) for (record,) in rows]
        with self._manifest:
            self._manifest.executemany("UPDATE documents SET groups = ? WHERE doc_id = ?",
                                       [(json.dumps(g), doc_id) for doc_id, g in groups.items()])
            self._manifest.executemany("UPDATE chunks SET record = ? WHERE chunk_id = ?", [
                (_record(replace(c, allowed_groups=groups[c.doc_id])), c.chunk_id) for c in chunks])
            self._manifest.execute(f"DELETE FROM pending WHERE doc_id IN ({_marks(ids)})", ids)

    def _delete_documents(self, doc_ids: Sequence[str]) -> int:
        """Remove documents: first from the ACL (unreadable at once), then their chunks. Returns chunks deleted."""
        chunk_ids = [row[0] for row in self._read(f"SELECT chunk_id FROM chunks WHERE doc_id IN ({_marks(doc_ids)})",
                                                  doc_ids)]
        self._mark_pending(doc_ids)
        for doc_id in doc_ids:
            self.acl.remove_document(doc_id)
        self.store.delete(chunk_ids)
        with self._manifest:
            self._manifest.execute(f"DELETE FROM documents WHERE doc_id IN ({_marks(doc_ids)})", doc_ids)
            self._manifest.execute(f"DELETE FROM pending WHERE doc_id IN ({_marks(doc_ids)})", doc_ids)
        return len(chunk_ids)

    def _reconcile(self) -> bool:
        """Bring the vector store and the ACL back to the manifest after an update that did not finish.

        Returns whether the store had to be written.
        """
        pending = {row[0] for row in self._read("SELECT doc_id FROM pending")}
        in_manifest = {row[0] for row in self._read("SELECT chunk_id FROM chunks")}
        in_store = self.store.ids()
        orphans = sorted(in_store - in_manifest)
        self.store.delete(orphans)
        rows = [row for row in self._read("SELECT chunk_id, doc_id, record, vector FROM chunks ORDER BY chunk_id")
                if row[0] not in in_store or row[1] in pending]
        if rows:
            self.store.upsert([_chunk(record) for _, _, record, _ in rows],
                              np.stack([np.frombuffer(vector, dtype=np.float32) for *_, vector in rows]))
        wanted = {doc_id: tuple(json.loads(groups)) for doc_id, groups in self._read("SELECT doc_id, groups FROM documents")}
        current = self.acl.document_groups()
        for doc_id in sorted(set(current) - set(wanted)):
            self.acl.remove_document(doc_id)
        for doc_id, groups in sorted(wanted.items()):
            if current.get(doc_id) != tuple(sorted(groups)):
                self.acl.set_document_groups(doc_id, groups)
        with self._manifest:
            self._manifest.execute("DELETE FROM pending")
        return bool(orphans or rows)

    # --- plumbing --------------------------------------------------------------------------------------------------

    def _load(self) -> None:
        """Read the chunk set from the manifest; BM25 and the content version follow it."""
        records = [row[0] for row in self._read("SELECT record FROM chunks ORDER BY chunk_id")]
        self.chunks = {chunk.chunk_id: chunk for chunk in map(_chunk, records)}
        digest = hashlib.sha256(self.embedder_name.encode())
        for record in records:
            digest.update(record.encode("utf-8"))
        # A hash, not a counter: the same content gives the same key in every run, and any change a new one.
        self.content_version = digest.hexdigest()[:12]
        self._bm25 = None

    def _mark_pending(self, doc_ids: Sequence[str]) -> None:
        """Step 1 of every write: committed before the ACL or the store is touched (see the module docstring)."""
        with self._manifest:
            self._manifest.executemany("INSERT OR IGNORE INTO pending VALUES (?)", [(d,) for d in doc_ids])

    def _meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def _read(self, sql: str, params: Iterable[object] = ()) -> list[tuple]:
        with self._lock:
            return self._manifest.execute(sql, tuple(params)).fetchall()


def _batches(docs: Sequence[Document], fresh: Mapping[str, list[Chunk]]) -> Iterator[list[Document]]:
    """Consecutive documents with about ``WRITE_BATCH`` chunks together: one store write per batch, not per document."""
    batch: list[Document] = []
    size = 0
    for doc in docs:
        batch.append(doc)
        size += len(fresh[doc.doc_id])
        if size >= WRITE_BATCH:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def _record(chunk: Chunk) -> str:
    """A chunk as canonical JSON: equal records mean nothing to write."""
    return json.dumps(asdict(chunk), sort_keys=True, ensure_ascii=False)


def _chunk(record: str) -> Chunk:
    return Chunk(**{key: tuple(value) if isinstance(value, list) else value for key, value in json.loads(record).items()})


def _document_hash(doc: Document) -> str:
    """Everything about a document except who may read it: a change of groups alone is not a content change."""
    fields = {key: value for key, value in asdict(doc).items() if key != "allowed_groups"}
    return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _chunker_version() -> str:
    return hashlib.sha256(Path(chunking.__file__).read_bytes()).hexdigest()[:16]


def _slug(text: str) -> str:
    """A name Chroma and file systems accept: lowercase letters, digits and inner hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "model"


#: The file in a knowledge base's folder that names the organisation whose documents it holds (``ingest --organisation``).
ORGANISATION_FILE = "organisation.txt"


def stored_organisation(root: Path) -> str | None:
    """The organisation stored with the knowledge base in ``root``, or None."""
    path = Path(root) / ORGANISATION_FILE
    name = path.read_text(encoding="utf-8").strip() if path.is_file() else ""
    return name or None


def store_organisation(root: Path, name: str) -> None:
    """Remember whose documents the knowledge base in ``root`` holds; prompts name it."""
    if not name.strip() or "\n" in name:
        raise CourseError("The organisation's name must be one non-empty line, e.g. --organisation \"Acme Ltd.\".")
    Path(root).mkdir(parents=True, exist_ok=True)
    (Path(root) / ORGANISATION_FILE).write_text(name.strip() + "\n", encoding="utf-8")


def organisation_name(kb: KnowledgeBase | None = None) -> str | None:
    """Whose documents are searched, for the prompts: the knowledge base's stored name; for the course's own
    documents ``company`` in ``data/course.yaml``; None (a neutral wording) for a folder ingested without a name."""
    if kb is not None and kb.organisation:
        return kb.organisation
    folder = os.environ.get("RAGCOURSE_KB")
    return stored_organisation(Path(folder)) if folder else course().company


#: Name of a knowledge base in a folder of its own (``python -m ragcourse ingest --kb FOLDER``).
FOLDER_KB_NAME = "kb"
_course_lock = threading.Lock()


@lru_cache(maxsize=1)
def _course_kb() -> KnowledgeBase:
    settings = get_settings()
    data = course()
    folder = os.environ.get("RAGCOURSE_KB")
    if folder:
        kb = KnowledgeBase.open(FOLDER_KB_NAME, Path(folder), chroma_url=settings.chroma_url)
        kb.acl.load_course_users(data.users, data.groups)
        return kb
    kb = KnowledgeBase.open("course", chroma_url=settings.chroma_url)
    kb.organisation = data.company
    kb.acl.load_course_users(data.users, data.groups)
    # A progress bar only on a terminal: in a notebook it would make a cold run's output differ from a warm one.
    kb.sync(data.documents, progress=not kb.chunks and sys.stderr.isatty())
    return kb


def get_kb() -> KnowledgeBase:
    """The course's knowledge base, synced with ``data/docs`` on first use, once per process.

    With ``RAGCOURSE_KB`` set (``--kb FOLDER`` on the command line) it is the knowledge base
    in that folder, as ``ingest`` left it. Users and groups come from ``data/course.yaml``.
    """
    with _course_lock:  # two threads asking first must not build it twice
        return _course_kb()
