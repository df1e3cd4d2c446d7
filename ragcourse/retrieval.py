"""The staged search pipeline of part 3: rewrite → vector + BM25 → RRF → rerank.

Every stage is a plain function over lists of :class:`Hit`, so a notebook can run one
stage at a time, look at its output and time it. :func:`search` chains them and keeps
each stage's hits and milliseconds in a :class:`SearchRun`.

Permissions are applied inside both retrievers (part 5): the user's visible documents
restrict the Chroma query and the set of chunks BM25 scores, so a restricted chunk
never becomes a candidate and never pushes a readable one out of the top-k.
"""

from __future__ import annotations

import re
import time
import weakref
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .bm25 import BM25Index, tokenize
from .chunking import Chunk
from .embeddings import embed
from .errors import CourseError
from .periods import contradictions
from .results import Passage, Usage
from .store import VectorStore

if TYPE_CHECKING:
    from .rerank import Reranker

#: Longest query the pipeline reads; the rest is cut. Embeddings read ~256 word pieces anyway, and a pasted
#: document as a "query" would make BM25 score thousands of terms for nothing.
MAX_QUERY_CHARS = 1000
#: The constant of Reciprocal Rank Fusion, as in the articles (and the original RRF paper).
RRF_K = 60
#: A word of a document's title tells it from a sibling document when at most this share of the sibling's chunks
#: use it. Northwind's two plan brochures: their distinct title words are in 0% of the other plan's chunks, the
#: insurer's name that one title holds ("Health") in 58% of the other's.
TITLE_WORD_RATE = 0.1


class SearchableKB(Protocol):
    """What the pipeline needs from a knowledge base (``ragcourse.index.KnowledgeBase`` is one)."""

    store: VectorStore
    bm25: BM25Index
    chunks: Mapping[str, Chunk]

    def visible_doc_ids(self, user_id: str) -> frozenset[str]: ...


@dataclass
class Hit:
    """A chunk in a result list; ``ranks``/``scores`` say where each retriever put it (ranks are 1-based)."""

    chunk: Chunk
    score: float
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)

    @property
    def passage(self) -> Passage:
        return self.chunk.passage(self.score)


@dataclass
class SearchRun:
    """One search: the queries actually run, the final hits, each stage's hits and milliseconds, LLM usage."""

    query: str
    queries: list[str]
    hits: list[Hit]
    timings: dict[str, float] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    stages: dict[str, list[Hit]] = field(default_factory=dict)

    @property
    def passages(self) -> list[Passage]:
        return [h.passage for h in self.hits]

    @property
    def ranked(self) -> list[Hit]:
        """Every candidate, best first: the reranked pool, then the fused list it was cut from (which repeats it).
        Where a page the reranked five lack is sought, the fused list still has one to give."""
        return [*self.stages.get("reranked", []), *self.stages.get("fused", [])]


def clean_query(query: str) -> str:
    """The query as the retrievers see it: stripped and cut to :data:`MAX_QUERY_CHARS`; empty is an error."""
    if not isinstance(query, str) or not query.strip():
        raise CourseError("The query is empty: type a question or a few keywords.")
    return " ".join(query.split())[:MAX_QUERY_CHARS]


def to_hits(pairs: Sequence[tuple[str, float]], chunks: Mapping[str, Chunk], retriever: str) -> list[Hit]:
    """(chunk id, score) pairs as hits; ids the chunk table does not know (a store out of sync) are dropped."""
    hits = [Hit(chunks[cid], score, {retriever: 0}, {retriever: score}) for cid, score in pairs if cid in chunks]
    for rank, hit in enumerate(hits, start=1):
        hit.ranks[retriever] = rank
    return hits


def _restriction(kb: SearchableKB, visible: Collection[str]) -> Collection[str] | None:
    """``visible``, or None when it holds every document of the index: a filter that keeps everything changes
    no result but made the vector query four times slower (Northwind, 958 chunks: 27 ms → 6 ms, machine busy)."""
    return None if {c.doc_id for c in kb.chunks.values()} <= set(visible) else visible


def _dense(kb: SearchableKB, vector: np.ndarray, visible: Collection[str], k: int, name: str) -> list[Hit]:
    if not visible:
        return []
    return to_hits(kb.store.query(vector, k, doc_ids=_restriction(kb, visible)), kb.chunks, name)


def _keyword(kb: SearchableKB, query: str, visible: Collection[str], k: int, name: str) -> list[Hit]:
    if not visible:
        return []
    index, allowed = kb.bm25, _restriction(kb, visible)
    return to_hits(index.search(query, k, allowed=None if allowed is None else index.chunk_ids_of(allowed)),
                   kb.chunks, name)


def vector_search(kb: SearchableKB, query: str, user_id: str, k: int = 20) -> list[Hit]:
    """Top-k chunks by cosine similarity among the documents ``user_id`` may read."""
    query = clean_query(query)
    return _dense(kb, embed([query])[0], kb.visible_doc_ids(user_id), k, "vector")


def keyword_search(kb: SearchableKB, query: str, user_id: str, k: int = 20) -> list[Hit]:
    """Top-k chunks by BM25 among the documents ``user_id`` may read."""
    return _keyword(kb, clean_query(query), kb.visible_doc_ids(user_id), k, "bm25")


def _merge(lists: Sequence[Sequence[Hit]], contribution: Any) -> list[Hit]:
    """Fuse lists: a chunk's score is the sum of ``contribution(list_index, rank, hit)`` over the lists it is in."""
    fused: dict[str, Hit] = {}
    for i, hits in enumerate(lists):
        for rank, hit in enumerate(hits, start=1):
            into = fused.setdefault(hit.chunk.chunk_id, Hit(hit.chunk, 0.0))
            into.score += contribution(i, rank, hit)
            into.ranks.update(hit.ranks)
            into.scores.update(hit.scores)
    return sorted(fused.values(), key=lambda h: (-h.score, h.chunk.chunk_id))


def rrf(lists: Sequence[Sequence[Hit]], k: int = RRF_K) -> list[Hit]:
    """Reciprocal Rank Fusion: score = Σ 1/(k + rank). Uses ranks only, so BM25 and cosine scales never meet."""
    return _merge(lists, lambda i, rank, hit: 1.0 / (k + rank))


def weighted_fusion(lists: Sequence[Sequence[Hit]], weights: Sequence[float]) -> list[Hit]:
    """Score fusion for comparison: each list's scores min-max normalised to [0, 1], then a weighted sum."""
    if len(lists) != len(weights):
        raise ValueError(f"{len(lists)} lists but {len(weights)} weights")
    bounds = []
    for hits in lists:
        values = [h.score for h in hits] or [0.0]
        bounds.append((min(values), max(values)))

    def contribution(i: int, rank: int, hit: Hit) -> float:
        low, high = bounds[i]
        return weights[i] * ((hit.score - low) / (high - low) if high > low else 1.0)

    return _merge(lists, contribution)


def demote_other_periods(query: str, hits: Sequence[Hit]) -> list[Hit]:
    """The hits with those whose title names another year, quarter or month than the query moved to the end.

    Vectors and BM25 barely tell "Q3 2023" from "Q3 2024"; this runs before the reranker so that
    the ``top_n`` it sees are not filled with last year's reports (see :mod:`ragcourse.periods`).
    """
    flags = contradictions(query, [h.chunk for h in hits])
    return [h for h, other in zip(hits, flags, strict=True) if not other] + \
        [h for h, other in zip(hits, flags, strict=True) if other]


@dataclass(frozen=True)
class TitleWords:
    """Per document title: its BM25 terms in order, how many chunks carry it and how many of those use each title
    word."""

    terms: dict[str, tuple[str, ...]]
    chunks: Counter[str]
    uses: dict[str, Counter[str]]

    @classmethod
    def of(cls, chunks: Iterable[Chunk]) -> TitleWords:
        chunks = list(chunks)
        terms = {c.title: _words(c.title) for c in chunks}
        words = {t for title in terms.values() for t in title}
        uses: dict[str, Counter[str]] = {title: Counter() for title in terms}
        for c in chunks:
            uses[c.title].update(words.intersection(tokenize(c.text)))
        return cls(terms, Counter(c.title for c in chunks), uses)

    def spelled(self, query_terms: Sequence[str], title: str) -> set[str]:
        """The query's words that are part of two or more of the title's words written one after the other."""
        pairs = set(zip(self.terms[title], self.terms[title][1:]))
        return {t for pair in zip(query_terms, query_terms[1:]) if pair in pairs for t in pair}

    def tells_apart(self, query_terms: Sequence[str], title: str, sibling: str) -> bool:
        """Whether the query spells part of ``title`` with a word that ``sibling``'s title lacks and its chunks
        rarely use; never for documents whose titles share no word (unrelated, not siblings)."""
        if not set(self.terms[title]) & set(self.terms[sibling]):
            return False
        own = self.spelled(query_terms, title) - set(self.terms[sibling])
        return any(self.uses[sibling][t] <= TITLE_WORD_RATE * self.chunks[sibling] for t in own)


def _words(text: str) -> tuple[str, ...]:
    """BM25 terms without digits: years, quarters and codes in titles are :mod:`ragcourse.periods`' business."""
    return tuple(t for t in tokenize(text) if not any(ch.isdigit() for ch in t))


_TITLE_WORDS: weakref.WeakKeyDictionary[BM25Index, TitleWords] = weakref.WeakKeyDictionary()


def title_words(kb: SearchableKB) -> TitleWords:
    """The knowledge base's :class:`TitleWords`, counted once per BM25 index (which is rebuilt when chunks change)."""
    if kb.bm25 not in _TITLE_WORDS:
        _TITLE_WORDS[kb.bm25] = TitleWords.of(kb.chunks.values())
    return _TITLE_WORDS[kb.bm25]


def demote_unnamed_siblings(kb: SearchableKB, query: str, hits: Sequence[Hit], asked: str = "") -> list[Hit]:
    """The hits with those from a document whose sibling the query names moved to the end.

    Sibling documents ("Harbour Line Cargo Rules", "Harbour Line Passenger Rules") say nearly the same sentences,
    so for "how late does Harbour Line Cargo take bookings?" both retrievers return both. A query that writes part
    of one title, with a word that tells it from the other, is about that document — unless it tells the other
    apart too, as a comparison does. Runs before the reranker, like :func:`demote_other_periods`.

    ``asked`` is the question an agent's query was written for: a query that writes no part of any title ("hospice
    care services", one part of a question about a named plan) is about the document the question names.
    """
    words = title_words(kb)
    titles = {h.chunk.title for h in hits}
    named = _words(query)
    if not any(words.spelled(named, t) for t in titles):
        if _names_one_alone(words, named, titles):  # "Brightwater agreement value": one side of a comparison
            return list(hits)
        named = _words(asked)
        if not any(words.spelled(named, t) for t in titles):
            return list(hits)  # neither writes part of any title: nothing to tell apart (most queries)
    other = {s for s in titles if any(words.tells_apart(named, t, s) and not words.tells_apart(named, s, t)
                                      for t in titles - {s})}
    return [h for h in hits if h.chunk.title not in other] + [h for h in hits if h.chunk.title in other]


def _names_one_alone(words: TitleWords, query_terms: Sequence[str], titles: set[str]) -> bool:
    """Whether the query writes a word that only some of the titles have ("brightwater"): it names its document
    itself, if not two words of it, so the question it was written for (which may name others) does not decide."""
    terms_of = [set(words.terms[t]) for t in titles]
    shared = set.intersection(*terms_of) if terms_of else set()
    return bool(set(query_terms) & (set().union(*terms_of) - shared))


def prefer_current(hits: Sequence[Hit], successors: Mapping[str, str], query: str) -> list[Hit]:
    """The newer version wins: a superseded document's hits move behind the rest when its successor is also
    a candidate — unless the query names the old version's year ("the 2023 travel policy"). Permissions are
    respected for free: a successor the user cannot read is never a candidate, so the old version stays.
    """
    present = {h.chunk.doc_id for h in hits}
    years = set(re.findall(r"\b(?:19|20)\d{2}\b", query))

    def stale(hit: Hit) -> bool:
        successor = successors.get(hit.chunk.doc_id)
        return successor in present and hit.chunk.date[:4] not in years

    return [h for h in hits if not stale(h)] + [h for h in hits if stale(h)]


def with_other_pages(hits: Sequence[Hit], ranked: Sequence[Hit]) -> list[Hit]:
    """``hits`` and, for each of them that repeats a page already among them, the next of ``ranked`` from a page not
    yet held: an answer that spans pages needs each of them, and a second passage of one page seldom adds the fact
    another page holds. Nothing kept is dropped; chunks without a page (Markdown, notes) count as distinct."""
    def page(hit: Hit) -> tuple[str, int] | None:
        return None if hit.chunk.page is None else (hit.chunk.doc_id, hit.chunk.page)

    held = {page(h) for h in hits} - {None}
    repeats = len([h for h in hits if page(h) is not None]) - len(held)
    extra = []
    for hit in ranked:
        if len(extra) == repeats:
            break
        if page(hit) is not None and page(hit) not in held:  # so never one of ``hits``
            extra.append(hit)
            held.add(page(hit))
    return [*hits, *extra]


def with_section_continuations(kb: SearchableKB, hits: Sequence[Hit], visible: Collection[str]) -> list[Hit]:
    """``hits`` and, for each hit whose section is the last on its page and goes on over the page break, the next
    page's first chunk: a page break cuts a section where the layout does, so the rest of what a passage says is
    often on a page that holds no query word. (The previous page, for a section that began there, was measured too
    and added nothing.) Only ``visible`` doc ids are added, each page once; chunks without a page or heading add none."""
    pages: dict[tuple[str, int], list[Chunk]] = {}
    if any(h.chunk.page is not None and h.chunk.heading for h in hits):
        for chunk in sorted(kb.chunks.values(), key=lambda c: c.position):
            if chunk.page is not None:
                pages.setdefault((chunk.source, chunk.page), []).append(chunk)
    held = {(h.chunk.source, h.chunk.page) for h in hits}
    extra: list[Hit] = []
    for hit in hits:
        chunk = hit.chunk
        if chunk.page is None or not chunk.heading:
            continue
        following = (chunk.source, chunk.page + 1)
        first = pages.get(following, [None])[0]
        if (following not in held and first is not None and first.doc_id in visible
                and pages[(chunk.source, chunk.page)][-1].heading == chunk.heading == first.heading):
            extra.append(Hit(first, hit.score))
            held.add(following)
    return [*hits, *extra]


@contextmanager
def _timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    timings[stage] = timings.get(stage, 0.0) + (time.perf_counter() - start) * 1000


def search(kb: SearchableKB, query: str, user_id: str, *, rewrite: bool = True, rerank: bool = True,
           candidates: int = 20, top_n: int = 5, top_k: int = 3, client: Any = None,
           reranker: Reranker | None = None, asked: str = "") -> SearchRun:
    """The full pipeline; returns the ``top_k`` hits and every stage's hits and timings (ms).

    With ``rewrite`` the model turns the question into up to three search queries; the
    original question is always searched too, so a poor rewrite cannot lose what the
    question itself finds. Each query runs both retrievers (``candidates`` each), RRF
    fuses all the lists, and the reranker (default: ``rerank.default_reranker()``) re-orders the fused
    ``top_n`` to keep ``top_k`` — after chunks whose titles name another period than the query, or that come
    from a sibling of the document the query names, have been moved behind the rest
    (:func:`demote_other_periods`, :func:`demote_unnamed_siblings`; ``asked``, the question behind an agent's
    query, names the document when the query does not).
    """
    from .rerank import default_reranker
    from .rewrite import rewrite_query

    start = time.perf_counter()
    query = clean_query(query)
    run = SearchRun(query=query, queries=[query], hits=[])
    timings = run.timings
    visible = kb.visible_doc_ids(user_id)
    if not visible:
        return run
    if rewrite:
        with _timed(timings, "rewrite"):
            rewritten, usage = rewrite_query(query, client=client)
        run.usage = usage
        run.queries = list(dict.fromkeys([query, *rewritten]))
    with _timed(timings, "embed"):
        vectors = embed(run.queries)
    lists: list[list[Hit]] = []
    for i, (q, vector) in enumerate(zip(run.queries, vectors, strict=True)):
        suffix = f":{i + 1}" if i else ""
        with _timed(timings, "vector"):
            dense = _dense(kb, vector, visible, candidates, "vector" + suffix)
        with _timed(timings, "bm25"):
            keyword = _keyword(kb, q, visible, candidates, "bm25" + suffix)
        run.stages["vector" + suffix], run.stages["bm25" + suffix] = dense, keyword
        lists += [dense, keyword]
    with _timed(timings, "fusion"):
        fused = prefer_current(rrf(lists), getattr(kb, "successors", {}), query)
    run.stages["fused"] = fused
    run.hits = fused[:top_k]
    if rerank and fused:
        with _timed(timings, "rerank"):
            pool = demote_unnamed_siblings(kb, query, demote_other_periods(query, fused), asked)[:top_n]
            reranked = (reranker or default_reranker()).rerank(query, pool)
        run.stages["rerank input"], run.stages["reranked"] = pool, reranked
        run.hits = reranked[:top_k]
    timings["total"] = (time.perf_counter() - start) * 1000
    return run

