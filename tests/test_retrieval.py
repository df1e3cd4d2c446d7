import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from ragcourse.bm25 import BM25Index
from ragcourse.chunking import Chunk, chunk_document
from ragcourse.corpus import Document
from ragcourse.embeddings import embed
from ragcourse.errors import CourseError
from ragcourse.retrieval import (
    MAX_QUERY_CHARS,
    Hit,
    SearchRun,
    clean_query,
    demote_unnamed_siblings,
    keyword_search,
    prefer_current,
    rrf,
    search,
    vector_search,
    weighted_fusion,
    with_other_pages,
    with_section_continuations,
)
from ragcourse.store import VectorStore

DOCS = {
    "fin-q3": ("Q3 2024 report", ["all_staff"], "## Gross margin\nGross margin in Q3 2024 was 45.2%, up from 42.1% in Q2,"
               " mainly because raw-material costs fell.\n\n## Revenue\nRevenue was $47.9M."),
    "fin-q2": ("Q2 2024 report", ["all_staff"], "## Gross margin\nGross margin in Q2 2024 was 42.1%.\n\n## Revenue\n"
               "Revenue was $45.6M."),
    "comp-2025": ("Compensation plan 2025", ["executives"], "## Salary increase\nThe overall salary increase rate for "
                  "2025 is 4.8%, effective 1 April."),
    "contract-sable": ("Sable Rail contract", ["all_staff"], "## Liability\nContract LUM-C-2023-014 caps liability at"
                       " twelve months of fees."),
    "travel": ("Travel policy", ["all_staff"], "## Hotels\nEmployees may book hotels up to $180 per night when they "
               "travel for business."),
}
USERS = {"alice": {"all_staff"}, "dan": {"all_staff", "executives"}, "nobody": set()}


class TinyKB:
    """A stand-in for index.KnowledgeBase: real chunks, a real Chroma store and BM25, groups from a dict."""

    def __init__(self, path: Path) -> None:
        self.documents = {doc_id: Document(doc_id=doc_id, title=title, text=text, source=f"docs/{doc_id}.md",
                                           date=dt.date(2024, 10, 1), allowed_groups=tuple(groups))
                          for doc_id, (title, groups, text) in DOCS.items()}
        chunks = [c for d in self.documents.values() for c in chunk_document(d)]
        self.chunks = {c.chunk_id: c for c in chunks}
        self.store = VectorStore("tiny", path=path)
        self.store.upsert(chunks, embed([c.embed_text for c in chunks]))
        self.bm25 = BM25Index(chunks)

    def visible_doc_ids(self, user_id: str) -> frozenset[str]:
        return frozenset(d for d, doc in self.documents.items() if USERS[user_id] & set(doc.allowed_groups))

    def cache_key(self, user_id: str) -> str:
        return f"{user_id}@test"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> TinyKB:
    return TinyKB(tmp_path_factory.mktemp("kb"))


def doc_ids(hits: list[Hit]) -> list[str]:
    return [h.chunk.doc_id for h in hits]


def test_vector_search_finds_paraphrases(kb: TinyKB):
    hits = vector_search(kb, "how much may I spend on accommodation on a work trip", "alice", k=3)
    assert doc_ids(hits)[0] == "travel" and hits[0].ranks == {"vector": 1}
    assert hits[0].score == hits[0].scores["vector"] > hits[1].score


def test_keyword_search_finds_exact_codes(kb: TinyKB):
    hits = keyword_search(kb, "LUM-C-2023-014", "alice", k=3)
    assert doc_ids(hits) == ["contract-sable"]


@pytest.mark.parametrize("retriever", [vector_search, keyword_search])
def test_restricted_chunks_are_never_candidates(kb: TinyKB, retriever):
    question = "salary increase rate 2025 4.8%"
    assert "comp-2025" not in doc_ids(retriever(kb, question, "alice", k=50))
    assert doc_ids(retriever(kb, question, "dan", k=1)) == ["comp-2025"]
    assert retriever(kb, question, "nobody", k=50) == []


def test_permission_is_applied_before_top_k(kb: TinyKB):
    """Post-filtering would return nothing here: the single best match is restricted."""
    hits = vector_search(kb, "What is this year's salary increase rate?", "alice", k=1)
    assert len(hits) == 1 and hits[0].chunk.doc_id != "comp-2025"


def hit(chunk_id: str, score: float, retriever: str, rank: int) -> Hit:
    doc_id, position = chunk_id.split(":")
    chunk = Chunk(chunk_id=chunk_id, doc_id=doc_id, position=int(position), title="t", heading="", text=chunk_id,
                  source=f"docs/{doc_id}.md")
    return Hit(chunk, score, {retriever: rank}, {retriever: score})


def paged(chunk_id: str, page: int | None) -> Hit:
    doc_id, position = chunk_id.split(":")
    chunk = Chunk(chunk_id=chunk_id, doc_id=doc_id, position=int(position), title="t", heading="", text=chunk_id,
                  source=f"{doc_id}.pdf", page=page)
    return Hit(chunk, 1.0, {}, {})


def test_a_repeated_page_brings_in_the_next_page_not_yet_held():
    """A lighthouse manual: two passages of page 4 kept, so page 9 (next new page) joins; page 4's third waits."""
    ranked = [paged("lamp:001", 4), paged("lamp:002", 4), paged("lamp:003", 2), paged("lamp:004", 4),
              paged("lamp:005", 2), paged("lamp:006", 9), paged("lamp:007", 11)]
    kept = with_other_pages(ranked[:3], ranked)
    assert [h.chunk.chunk_id for h in kept] == ["lamp:001", "lamp:002", "lamp:003", "lamp:006"]
    distinct = [ranked[0], ranked[2], ranked[5]]
    assert with_other_pages(distinct, ranked) == distinct


def test_passages_without_pages_are_never_extended():
    ranked = [paged("notes:000", None), paged("notes:001", None), paged("notes:002", None)]
    assert with_other_pages(ranked[:2], ranked) == ranked[:2]


def test_when_the_reranked_five_hold_no_other_page_the_fused_list_gives_one():
    """A lighthouse manual: all five reranked passages are on page 4; the fused list behind them has page 12."""
    reranked = [paged(f"lamp:00{i}", 4) for i in range(5)]
    fused = [reranked[1], reranked[0], paged("lamp:009", 12), *reranked[2:]]
    run = SearchRun(query="lamp", queries=["lamp"], hits=reranked[:3], stages={"reranked": reranked, "fused": fused})
    assert [h.chunk.page for h in with_other_pages(run.hits, run.ranked)] == [4, 4, 4, 12]


def test_a_section_cut_by_a_page_break_brings_in_the_next_pages_first_piece():
    """A beekeeping guide: 'Swarm control' ends page 6 and goes on at the top of page 7, so a hit on it brings in
    page 7's first chunk; 'Hive tools' ends before page 6 does, so a hit on it brings in nothing; nor does a page
    the reader may not see."""
    def piece(page: int, position: int, heading: str, text: str, group: str = "beekeepers") -> Chunk:
        return Chunk(chunk_id=f"bees-p{page}:{position:03d}", doc_id=f"bees-p{page}", position=position, title="Guide",
                     heading=heading, text=text, source="bees.pdf", allowed_groups=(group,), page=page)

    guide = [piece(6, 0, "Hive tools", "A smoker calms the colony."),
             piece(6, 1, "Swarm control", "Swarm cells along the bottom of a frame mean the colony plans to"),
             piece(7, 0, "Swarm control", "leave within days: split the hive before the cells are capped."),
             piece(7, 1, "Honey harvest", "Harvest when most cells are capped."),
             piece(8, 0, "Honey harvest", "Extract at room temperature.", group="staff")]
    kb = SimpleNamespace(chunks={c.chunk_id: c for c in guide})
    everything = {c.doc_id for c in guide}
    swarm, tools, harvest = Hit(guide[1], 2.0), Hit(guide[0], 1.0), Hit(guide[3], 1.5)
    assert [h.chunk.chunk_id for h in with_section_continuations(kb, [swarm, tools], everything)] == [
        "bees-p6:001", "bees-p6:000", "bees-p7:000"]
    assert with_section_continuations(kb, [tools], everything) == [tools]
    assert with_section_continuations(kb, [harvest], everything - {"bees-p8"}) == [harvest]
    assert with_section_continuations(kb, [harvest], everything)[-1].chunk.chunk_id == "bees-p8:000"


def test_rrf_sums_reciprocal_ranks():
    vector = [hit("a:000", 0.9, "vector", 1), hit("b:000", 0.8, "vector", 2)]
    bm25 = [hit("b:000", 12.0, "bm25", 1), hit("c:000", 3.0, "bm25", 2)]
    fused = rrf([vector, bm25])
    assert [h.chunk.chunk_id for h in fused] == ["b:000", "a:000", "c:000"]
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert fused[0].ranks == {"vector": 2, "bm25": 1} and fused[0].scores == {"vector": 0.8, "bm25": 12.0}
    assert fused[2].score == pytest.approx(1 / 62)
    assert vector[1].score == 0.8  # inputs are not changed


def test_weighted_fusion_normalises_each_list():
    vector = [hit("a:000", 0.9, "vector", 1), hit("b:000", 0.5, "vector", 2)]
    bm25 = [hit("b:000", 30.0, "bm25", 1), hit("c:000", 10.0, "bm25", 2)]
    fused = weighted_fusion([vector, bm25], [0.3, 0.7])
    assert [(h.chunk.chunk_id, round(h.score, 6)) for h in fused] == [("b:000", 0.7), ("a:000", 0.3), ("c:000", 0.0)]
    with pytest.raises(ValueError):
        weighted_fusion([vector], [0.5, 0.5])


def test_search_runs_every_stage(kb: TinyKB):
    run = search(kb, "Q3 2024 gross margin", "alice", rewrite=False)
    assert doc_ids(run.hits)[0] == "fin-q3" and len(run.hits) == 3
    assert set(run.stages) == {"vector", "bm25", "fused", "rerank input", "reranked"}
    assert len(run.stages["reranked"]) == 5 and run.hits == run.stages["reranked"][:3]
    assert {"embed", "vector", "bm25", "fusion", "rerank", "total"} <= set(run.timings)
    assert all(ms >= 0 for ms in run.timings.values()) and run.usage.llm_calls == 0
    assert [p.label for p in run.passages][0] == "fin-q3.md"


class FakeLLM:
    """An OpenAI-style client whose chat model always rewrites into the same queries."""

    def __init__(self, reply: str) -> None:
        self.requests: list[dict] = []

        def create(**kwargs):
            self.requests.append(kwargs)
            usage = SimpleNamespace(prompt_tokens=50, completion_tokens=10)
            return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=reply))], usage=usage)

        self.chat = SimpleNamespace(completions=SimpleNamespace(create=create))


def test_search_with_rewriting_runs_every_query(kb: TinyKB, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("ragcourse.llm.chat_model", lambda settings=None: "fake", raising=False)
    client = FakeLLM("1. Q3 2024 gross margin\n2. Q2 2024 gross margin\n")
    run = search(kb, "Compare the margins of the last two quarters", "alice", client=client, top_k=5)
    assert run.queries == ["Compare the margins of the last two quarters", "Q3 2024 gross margin",
                           "Q2 2024 gross margin"]
    assert {"vector:3", "bm25:3"} <= set(run.stages) and run.usage.total_tokens == 60
    assert {"fin-q3", "fin-q2"} <= set(doc_ids(run.hits))
    assert "Today is" in client.requests[0]["messages"][0]["content"]


def test_bad_queries(kb: TinyKB):
    for empty in ("", "   \n\t"):
        with pytest.raises(CourseError, match="empty"):
            search(kb, empty, "alice", rewrite=False)
    huge = "gross margin " * 10_000
    assert len(clean_query(huge)) == MAX_QUERY_CHARS
    assert doc_ids(search(kb, huge, "alice", rewrite=False).hits)[0] in {"fin-q3", "fin-q2"}
    other_script = search(kb, "毛利率是多少？", "alice", rewrite=False)
    assert "comp-2025" not in doc_ids(other_script.hits) and other_script.stages["bm25"] == []
    assert search(kb, "gross margin", "nobody", rewrite=False).hits == []


def test_query_vectors_are_unit_length():
    assert np.linalg.norm(embed(["a query"])[0]) == pytest.approx(1.0, abs=1e-5)


def _dated_hit(doc_id: str, date: str) -> Hit:
    chunk = Chunk(chunk_id=f"{doc_id}:000", doc_id=doc_id, position=0, title=doc_id, heading="", text="x",
                  source=f"docs/{doc_id}.md", date=date)
    return Hit(chunk, 1.0)


def test_the_newer_version_wins_unless_the_old_year_is_asked_for() -> None:
    old, new, other = _dated_hit("policy-2023", "2023-02-01"), _dated_hit("policy-2024", "2024-06-01"), \
        _dated_hit("memo", "2024-01-01")
    successors = {"policy-2023": "policy-2024"}
    order = [h.chunk.doc_id for h in prefer_current([old, other, new], successors, "remote days per week")]
    assert order == ["memo", "policy-2024", "policy-2023"]
    asked = [h.chunk.doc_id for h in prefer_current([old, other, new], successors, "the 2023 remote policy")]
    assert asked == ["policy-2023", "memo", "policy-2024"]
    alone = [h.chunk.doc_id for h in prefer_current([old, other], successors, "remote days")]
    assert alone == ["policy-2023", "memo"]  # the successor is not a candidate (e.g. not readable): keep the old


def _sibling_kb() -> SimpleNamespace:
    """Two ferry operator rule books that share most words, and an unrelated canteen menu."""
    texts = {("cargo", "Harbour Line Cargo Rules"): ["Harbour Line takes cargo bookings until noon.",
                                                   "Harbour Line weighs every pallet at the gate."],
             ("passenger", "Harbour Line Passenger Rules"): ["Harbour Line takes passenger bookings until ten.",
                                                           "Harbour Line boards families first."],
             ("menu", "Canteen Menu"): ["Soup is served from noon until two."]}
    chunks = [Chunk(chunk_id=f"{doc}:{i:03d}", doc_id=doc, position=i, title=title, heading="", text=text,
                    source=f"docs/{doc}.md") for (doc, title), lines in texts.items() for i, text in enumerate(lines)]
    return SimpleNamespace(chunks={c.chunk_id: c for c in chunks}, bm25=BM25Index(chunks))


def test_a_query_that_names_one_of_two_sibling_documents_puts_the_other_behind() -> None:
    kb = _sibling_kb()
    hits = [Hit(c, 1.0) for c in sorted(kb.chunks.values(), key=lambda c: c.doc_id != "passenger")]

    def order(query: str) -> list[str]:
        return list(dict.fromkeys(h.chunk.doc_id for h in demote_unnamed_siblings(kb, query, hits)))

    assert order("How late does Harbour Line Cargo take bookings?") == ["cargo", "menu", "passenger"]
    assert order("Does Harbour Line take bookings on Sundays?") == ["passenger", "cargo", "menu"]  # both say it
    assert order("Compare Harbour Line Cargo and Harbour Line Passenger bookings") == ["passenger", "cargo", "menu"]


def test_a_query_for_one_part_of_a_question_keeps_the_document_the_question_names() -> None:
    kb = _sibling_kb()
    hits = [Hit(c, 1.0) for c in sorted(kb.chunks.values(), key=lambda c: c.doc_id != "passenger")]
    asked = "How late does Harbour Line Cargo take bookings, and what is weighed at the gate?"
    order = list(dict.fromkeys(h.chunk.doc_id for h in demote_unnamed_siblings(kb, "weighed at the gate", hits, asked)))
    assert order == ["cargo", "menu", "passenger"]
    assert demote_unnamed_siblings(kb, "weighed at the gate", hits, "What is weighed?") == hits  # nothing named


def test_a_query_that_names_its_document_by_one_word_is_not_steered_by_the_question() -> None:
    kb = _sibling_kb()
    hits = [Hit(c, 1.0) for c in sorted(kb.chunks.values(), key=lambda c: c.doc_id != "passenger")]
    asked = "Harbour Line Cargo or Passenger: which takes bookings later, and by how long?"
    assert demote_unnamed_siblings(kb, "passenger bookings until", hits, asked) == hits
