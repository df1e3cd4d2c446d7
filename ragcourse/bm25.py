"""Keyword search: BM25 (rank-bm25's ``BM25Okapi``) over the same chunks as the vector store.

Vectors find paraphrases; BM25 finds exact words — contract codes, product names,
figures — that an embedding blurs. Both index ``Chunk.embed_text`` under the same ids,
so their result lists can be fused.

The permission filter is inside the search: only the chunk ids the user may read are
scored, so a restricted chunk can never take a place in the top-k.
"""

from __future__ import annotations

import calendar
import math
import re
from collections.abc import Callable, Collection, Iterable, Sequence

import numpy as np
import Stemmer
from rank_bm25 import BM25Okapi

from .chunking import Chunk

#: English stop words: frequent words that carry no topic (a short list; BM25's IDF handles the rest).
_STOP_WORDS = """
a about above after again against all am an and any are as at be because been before being below between both
but by can could did do does doing down during each few for from further had has have having he her here hers
herself him himself his how i if in into is it its itself just me more most my myself no nor of off on once only
or other our ours ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where which while who
whom why will with would you your yours yourself yourselves
"""
STOP_WORDS = frozenset(_STOP_WORDS.split())

# A token is a CJK character (those scripts have no spaces), or a run of letters/digits that may be joined by
# "-", "." or "/" when more letters/digits follow: "lum-c-2023-014", "45.2", "e-214" and "24/7" stay whole.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|[^\W_]+(?:[-./][^\W_]+)*")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_stemmer = Stemmer.Stemmer("english")
#: A month's short name is the month: a table's "31 Dec 2024" matches a question's "31 December 2024".
_MONTH_NAMES = {m[:3].lower(): m.lower() for m in calendar.month_name[1:] if m != "May"} | {"sept": "september"}


def tokenize(text: str, stem: bool = True) -> list[str]:
    """BM25 terms of a text.

    Lower-cased; thousands separators dropped ("5,183" → "5183"); codes and decimals kept
    whole ("lum-c-2023-014", "45.2"), and a hyphenated word also gives its parts, so
    "raw-material" matches "raw material"; stop words removed; words Snowball-stemmed
    ("margins" → "margin") unless ``stem`` is false. Characters of CJK scripts are one term each.
    """
    stem_words = _stemmer.stemWords if stem else list
    terms: list[str] = []
    for token in _TOKEN.findall(_THOUSANDS.sub("", text.lower())):
        if "-" in token:
            parts = [p for p in token.split("-") if p and p not in STOP_WORDS]
            terms.append(token)
            terms.extend(stem_words(parts) if len(parts) > 1 else [])
        elif token not in STOP_WORDS:
            token = _MONTH_NAMES.get(token, token)
            terms.append(token if not stem or any(ch.isdigit() for ch in token) else _stemmer.stemWord(token))
    return terms


class LuceneBM25(BM25Okapi):
    """BM25Okapi with Lucene's IDF, log(1 + (N - n + 0.5) / (n + 0.5)), which is never zero or negative.

    rank-bm25's Okapi IDF is zero for a term in half of the chunks and clipped for more, so on a small
    collection "gross margin" can score nothing at all; Lucene (and Anserini's published runs) use this form.
    """

    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf = {word: math.log(1 + (self.corpus_size - n + 0.5) / (n + 0.5)) for word, n in nd.items()}


class BM25Index:
    """BM25 (k1=1.5, b=0.75) over ``tokenizer(chunk.embed_text)``; searches only the chunk ids it is allowed to."""

    def __init__(self, chunks: Sequence[Chunk], tokenizer: Callable[[str], list[str]] = tokenize) -> None:
        self.tokenizer = tokenizer
        self.chunk_ids = [c.chunk_id for c in chunks]
        self._position = {cid: i for i, cid in enumerate(self.chunk_ids)}
        self._by_doc: dict[str, list[str]] = {}
        for c in chunks:
            self._by_doc.setdefault(c.doc_id, []).append(c.chunk_id)
        self._bm25 = LuceneBM25([tokenizer(c.embed_text) for c in chunks]) if chunks else None

    def __len__(self) -> int:
        return len(self.chunk_ids)

    def chunk_ids_of(self, doc_ids: Iterable[str]) -> list[str]:
        """The chunk ids of some documents: how a user's visible documents become BM25's allowed set."""
        return [cid for doc_id in doc_ids for cid in self._by_doc.get(doc_id, ())]

    def search(self, query: str, k: int, allowed: Collection[str] | None = None) -> list[tuple[str, float]]:
        """(chunk id, BM25 score), best first; chunks that share no term with the query are not returned."""
        terms = self.tokenizer(query)
        if self._bm25 is None or not terms or k <= 0:
            return []
        if allowed is None:
            indices = np.arange(len(self.chunk_ids))
            scores = self._bm25.get_scores(terms)
        else:
            indices = np.array(sorted(self._position[cid] for cid in allowed if cid in self._position), dtype=int)
            if not len(indices):
                return []
            scores = np.asarray(self._bm25.get_batch_scores(terms, indices.tolist()))
        order = np.argsort(-scores, kind="stable")[:k]
        return [(self.chunk_ids[indices[i]], float(scores[i])) for i in order if scores[i] > 0]
