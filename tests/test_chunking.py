import datetime as dt

import pytest

from ragcourse.chunking import Chunk, chunk_document
from ragcourse.corpus import Document


def doc(text: str, doc_id: str = "fin-q3", title: str = "Q3 report") -> Document:
    return Document(doc_id=doc_id, title=title, text=text, source=f"docs/{doc_id}.md", date=dt.date(2024, 10, 18),
                    allowed_groups=("all_staff", "finance"))


REPORT = """# Q3 report

Intro before any section.

## Gross margin
Gross margin was 45.2%, up from 42.1%.

## Outlook
### Risks
A competitor launched a cheaper meter.
"""


def test_each_section_keeps_its_heading_path_and_the_document_metadata():
    chunks = chunk_document(doc(REPORT))
    assert [(c.heading, c.text) for c in chunks] == [
        ("", "Intro before any section."),
        ("Gross margin", "Gross margin was 45.2%, up from 42.1%."),
        ("Outlook — Risks", "A competitor launched a cheaper meter."),
    ]
    first = chunks[1]
    assert first.chunk_id == "fin-q3:001" and first.position == 1
    assert first.allowed_groups == ("all_staff", "finance") and first.date == "2024-10-18"
    assert first.embed_text == "Q3 report — Gross margin\nGross margin was 45.2%, up from 42.1%."
    passage = first.passage(0.5)
    assert (passage.label, passage.title, passage.score) == ("fin-q3.md", "Q3 report — Gross margin", 0.5)


def test_ids_and_hashes_are_stable_and_follow_the_content():
    a, b = chunk_document(doc(REPORT)), chunk_document(doc(REPORT))
    assert [(c.chunk_id, c.content_hash) for c in a] == [(c.chunk_id, c.content_hash) for c in b]
    changed = chunk_document(doc(REPORT.replace("45.2%", "45.3%")))
    assert [c.content_hash == d.content_hash for c, d in zip(a, changed, strict=True)] == [True, False, True]


def test_long_sections_are_cut_at_sentences_with_overlap():
    sentences = [f"Sentence number {i} talks about topic {i}." for i in range(40)]
    chunks = chunk_document(doc("## Long\n" + " ".join(sentences)), size=200, overlap=60)
    assert len(chunks) > 5
    assert all(len(c.text) <= 200 and c.heading == "Long" for c in chunks)
    for c in chunks:  # never cut inside a sentence
        assert c.text.startswith("Sentence number") and c.text.endswith(".")
    for before, after in zip(chunks, chunks[1:], strict=False):  # the last sentence of a piece opens the next one
        assert after.text.split(". ")[0] + "." in before.text
    covered = " ".join(c.text for c in chunks)
    assert all(s in covered for s in sentences)


def test_tables_are_cut_between_rows_and_headings_inside_code_are_text():
    table = "\n".join(["| period | bookings |", "|---|---|"] + [f"| month {i} | ${i}.0M |" for i in range(60)])
    chunks = chunk_document(doc(f"## Bookings\n{table}\n\n```\n# not a heading\n```"), size=300, overlap=0)
    rows = [line for c in chunks for line in c.text.splitlines() if line.startswith("| month ")]
    assert rows == [f"| month {i} | ${i}.0M |" for i in range(60)]
    assert chunks[-1].heading == "Bookings" and "# not a heading" in chunks[-1].text


def test_bad_sizes_are_rejected():
    with pytest.raises(ValueError):
        chunk_document(doc(REPORT), size=100, overlap=100)


def test_the_course_corpus_gives_at_least_400_chunks():
    from ragcourse.corpus import course

    chunks = [c for d in course().documents.values() for c in chunk_document(d)]
    assert len(chunks) >= 400
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    assert all(isinstance(c, Chunk) and c.text.strip() for c in chunks)
