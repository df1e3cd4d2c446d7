"""Stand-ins shared by several test files."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np


class FakeEmbedder:
    """Deterministic unit vectors seeded by a hash of the text; records every text, so tests can count the work
    (and skip loading torch)."""

    def __init__(self, name: str = "fake-hash-16", dim: int = 16) -> None:
        self.name, self.dim = name, dim
        self.texts: list[str] = []

    def load(self) -> None:
        """Nothing to load."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        rows = [np.random.default_rng(int(hashlib.sha256(t.encode()).hexdigest()[:12], 16)).standard_normal(self.dim)
                for t in texts]
        vectors = np.array(rows, dtype=np.float32).reshape(len(texts), self.dim)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True).clip(1e-12)
