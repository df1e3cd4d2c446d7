from ragcourse.chunking import Chunk
from ragcourse.periods import Periods, contradictions, periods_in
from ragcourse.retrieval import Hit, demote_other_periods


def _chunk(doc_id: str, title: str, heading: str = "Gross margin", text: str = "Gross margin was 40%.") -> Chunk:
    return Chunk(chunk_id=f"{doc_id}:000", doc_id=doc_id, position=0, title=title, heading=heading, text=text,
                 source=f"docs/{doc_id}.md")


def test_periods_in_reads_years_quarters_and_months() -> None:
    assert periods_in("Gross margin in Q3 2024") == Periods(frozenset({2024}), frozenset({3}))
    assert periods_in("the third quarter of 2023 and the 2nd quarter") == Periods(frozenset({2023}), frozenset({2, 3}))
    assert periods_in("bookings in October 2024") == Periods(frozenset({2024}), months=frozenset({10}))
    assert periods_in("History 2009–2024").years == {2009, 2024}
    # codes, larger numbers and the verb "may" are not periods
    assert not periods_in("contract LUM-C-2023-014 may end; part 12024")
    assert periods_in("on 1 May 2024").months == {5}


def test_only_another_period_of_a_kind_the_query_names_contradicts() -> None:
    chunks = [_chunk("a", "Report — Q3 2024"), _chunk("b", "Report — Q3 2023"), _chunk("c", "Budget 2024"),
              _chunk("d", "Code of Conduct"), _chunk("e", "Bridge — Q2 to Q3 2024")]
    assert contradictions("gross margin Q3 2024", chunks) == [False, True, False, False, False]


def test_other_periods_are_demoted_before_reranking() -> None:
    hits = [Hit(_chunk("r-2023-q3", "Report — Q3 2023"), 1.0), Hit(_chunk("policy", "Travel policy"), 0.9),
            Hit(_chunk("r-2024-q3", "Report — Q3 2024"), 0.8), Hit(_chunk("r-2024-q2", "Report — Q2 2024"), 0.7)]
    order = [h.chunk.doc_id for h in demote_other_periods("gross margin Q3 2024", hits)]
    assert order == ["policy", "r-2024-q3", "r-2023-q3", "r-2024-q2"]
    assert demote_other_periods("gross margin", hits) == hits  # no period named: nothing moves


def test_a_quarter_without_a_year_means_the_latest() -> None:
    chunks = [_chunk("r-2023-q3", "Report — Q3 2023"), _chunk("r-2024-q3", "Report — Q3 2024"),
              _chunk("r-2024-q2", "Report — Q2 2024")]
    assert contradictions("our Q3 gross margin", chunks) == [True, False, True]
    assert contradictions("our Q3 and Q2 gross margins", chunks) == [True, False, False]

