"""Layout-aware PDF reading on PDFs made in the test: headings, hyphens, running headers, tables, bad pages.

The documents are a shipping firm's manual, invented here; a fake embedder keeps torch out.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from reportlab.pdfgen import canvas

from ragcourse.index import FOLDER_KB_NAME, KnowledgeBase
from ragcourse.ingest import ingest_paths
from ragcourse.pdflayout import layout_pages

HEADER = "Harbour Line Shipping - Operations Manual"
ROWS = [("Container", "Weight", "Port"), ("C-114", "12.5 t", "Rotterdam"), ("C-220", "8.1 t", "Lisbon")]


def manual_pdf() -> bytes:
    """Three pages, each with the same running header and a page-number footer."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    pdf.setTitle("Operations manual")

    def page(lines: list[tuple[str, float, str]], number: int) -> None:
        pdf.setFont("Helvetica", 9)
        pdf.drawString(72, 800, HEADER)
        pdf.drawString(290, 30, str(number))
        y = 740.0
        for font, size, text in lines:
            pdf.setFont(font, size)
            pdf.drawString(72, y, text)
            y -= size + 6 if size > 11 else 14
        pdf.showPage()

    body = "Helvetica", 11
    page([("Helvetica-Bold", 18, "Loading Procedures"),
          (*body, "Every crane shift starts with a safety check of the hooks and the cables."),
          (*body, "The crane operator confirms the deliv-"),
          (*body, "ery window with the harbour master before the first lift."),
          (*body, "Loose cargo is strapped down on the quay, never on board.")], 1)
    page([(*body, "Night lifts need a second signaller on the quay at all times."),
          ("Helvetica-Bold", 14, "Container Weights")], 2)
    pdf.setFont("Helvetica", 9)
    pdf.drawString(72, 800, HEADER)
    pdf.drawString(290, 30, "3")
    pdf.setFont("Helvetica", 11)
    for i, row in enumerate(ROWS):  # a page with only a table
        for x, cell in zip((72, 250, 400), row):
            pdf.drawString(x, 740 - 16 * i, cell)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.fixture
def kb(tmp_path: Path) -> KnowledgeBase:
    (tmp_path / "manual.pdf").write_bytes(manual_pdf())
    embedder = FakeEmbedder("fake-layout")
    report = ingest_paths([tmp_path / "manual.pdf"], ["all_staff"], kb_dir=tmp_path / "kb", progress=False,
                          embedder=embedder)
    assert report["documents"] == 3 and report["skipped"] == {}
    return KnowledgeBase.open(FOLDER_KB_NAME, tmp_path / "kb", embedder=embedder)


def chunk_with(kb: KnowledgeBase, words: str):  # noqa: ANN201 - a Chunk
    return next(c for c in kb.chunks.values() if words in c.text)


def test_headings_hyphens_running_headers_and_pages(kb: KnowledgeBase) -> None:
    first = chunk_with(kb, "safety check")
    assert (first.page, first.heading) == (1, "Loading Procedures")
    assert "confirms the delivery window with the harbour master" in first.text  # the line-break hyphen joined
    paragraph = first.text.split("\n\n")[0]
    assert "Every crane shift" in paragraph and "\n" not in paragraph  # wrapped lines are one paragraph
    second = {(c.page, c.heading) for c in kb.chunks.values() if "second signaller" in c.text}
    assert second == {(1, "Loading Procedures"), (2, "Loading Procedures")}  # page 2 opens by continuing page 1's
    assert all(HEADER not in c.text and HEADER not in c.heading for c in kb.chunks.values())
    assert all(c.text.strip() not in {"1", "2", "3"} for c in kb.chunks.values())  # page-number footers dropped


def test_a_table_only_page_keeps_its_rows_whole_under_the_running_section(kb: KnowledgeBase) -> None:
    table = chunk_with(kb, "C-114")
    assert table.page == 3
    assert table.heading == "Loading Procedures — Container Weights"
    assert table.text.splitlines() == ["| " + " | ".join(row) + " |" for row in ROWS]


def test_a_hyphen_the_document_writes_elsewhere_is_kept() -> None:
    def lines(*texts: str) -> list[tuple[str, float, str]]:
        return [(text, 11.0, "/Serif") for text in texts]

    pages = [FakePage(lines("Members see an in-network doctor first.", "Ask for an in-",
                            "network clinic, or a pre-", "approved one.", "Claims are filed yearly."))]
    text = layout_pages(pages).pages[0].markdown
    assert "Ask for an in-network clinic, or a preapproved one." in text


class FakePage:
    """Stands in for a pypdf page: feeds (text, size, font) lines to the text visitor, 14 points apart; an empty
    text leaves a blank line (a paragraph break)."""

    def __init__(self, lines: list[tuple[str, float, str]]) -> None:
        self.lines = lines

    def extract_text(self, visitor_text) -> str:  # noqa: ANN001 - the visitor callback
        for i, (text, size, font) in enumerate(self.lines):
            if text:
                visitor_text(text + "\n", [1, 0, 0, 1, 0, 0], [1, 0, 0, 1, 72, 700 - 14 * i], {"/BaseFont": font}, size)
        return ""


def test_fonts_without_sizes_still_give_bold_headings_and_say_so() -> None:
    pages = [FakePage([("Route planning", 0.0, "/Sans-Bold"), ("Ships leave at dawn.", 0.0, "/Sans"),
                       ("Tides decide the hour.", 0.0, "/Sans")])]
    layout = layout_pages(pages)
    assert not layout.sized
    assert layout.pages[0].markdown.splitlines()[0] == "# Route planning"


def test_scanned_page_is_left_out_with_one_line_and_the_rest_is_ingested(tmp_path: Path, capsys) -> None:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    pdf.drawString(72, 720, "Pallets are stacked three high in bay four.")
    pdf.showPage()
    pdf.rect(72, 400, 300, 200, fill=1)  # an image-only page, like a scan without OCR
    pdf.showPage()
    pdf.drawString(72, 720, "Forklift keys hang in the dispatch office.")
    pdf.showPage()
    pdf.save()
    (tmp_path / "bays.pdf").write_bytes(buffer.getvalue())

    report = ingest_paths([tmp_path / "bays.pdf"], ["all_staff"], kb_dir=tmp_path / "kb", progress=True,
                          embedder=FakeEmbedder("fake-scan"))

    assert report["documents"] == 2 and report["skipped"] == {}
    [(name, notes)] = report["partly"].items()
    assert notes == ["page 2: no text layer (a scan or a picture): run OCR on it to include it"]
    assert f"{name}: page 2: no text layer" in capsys.readouterr().err


def test_a_thousand_page_pdf_is_read_with_progress_and_keeps_what_was_ingested(tmp_path: Path, capsys) -> None:
    embedder = FakeEmbedder("fake-big")
    (tmp_path / "first.txt").write_text("The ferry timetable changes in October.\n")
    ingest_paths([tmp_path / "first.txt"], ["all_staff"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    for number in range(1, 1001):
        pdf.drawString(72, 720, f"Berth {number} is assigned to vessel V{number}.")
        pdf.showPage()
    pdf.save()
    (tmp_path / "berths.pdf").write_bytes(buffer.getvalue())

    report = ingest_paths([tmp_path / "berths.pdf"], ["all_staff"], kb_dir=tmp_path / "kb", progress=True,
                          embedder=embedder)

    assert (report["files"], report["documents"]) == (2, 1001)
    assert "Reading berths.pdf" in capsys.readouterr().err  # a page progress bar for a long PDF
    kb = KnowledgeBase.open(FOLDER_KB_NAME, tmp_path / "kb", embedder=embedder)
    assert kb.chunks["berths-p1000:000"].text == "Berth 1000 is assigned to vessel V1000."
    assert any(c.doc_id == "first" for c in kb.chunks.values())


def test_a_breadcrumb_under_a_heading_becomes_its_parent_section() -> None:
    body = [(f"Line {n} of the claims procedure for damaged crates.", 11.0, "/Serif") for n in range(3)]
    pages = [FakePage([("Cargo Insurance", 11.0, "/Serif-Bold"), ("POLICIES - Cargo Insurance", 11.0, "/Serif"),
                       *body])]
    markdown = layout_pages(pages).pages[0].markdown
    assert markdown.splitlines()[:3] == ["# Policies", "## Cargo Insurance", ""]
    assert "POLICIES - Cargo Insurance" not in markdown


def test_a_section_continued_on_the_next_page_is_cited_by_the_page_it_starts_on() -> None:
    first = FakePage([("Kennel rules", 16.0, "/Sans-Bold"), ("Dogs are walked twice a day by the", 11.0, "/Sans")])
    second = FakePage([("volunteer on duty, whatever the weather.", 11.0, "/Sans"), ("Feeding", 16.0, "/Sans-Bold"),
                       ("Puppies eat four small meals.", 11.0, "/Sans")])
    one, two = layout_pages([first, second]).pages
    assert one.markdown.endswith("Dogs are walked twice a day by the volunteer on duty, whatever the weather.")
    assert "volunteer on duty, whatever the weather." in two.markdown  # where a reader finds it, too
    assert two.markdown.splitlines()[-1] == "Puppies eat four small meals."


def test_a_page_that_opens_a_section_also_ends_the_page_before() -> None:
    first = FakePage([("Kennel rules", 16.0, "/Sans-Bold"), ("Dogs are walked twice a day.", 11.0, "/Sans")])
    second = FakePage([("Feeding", 16.0, "/Sans-Bold"), ("Puppies eat four small meals.", 11.0, "/Sans"),
                       ("Grooming", 16.0, "/Sans-Bold"), ("Long coats are brushed daily.", 11.0, "/Sans")])
    third = FakePage([("Visits", 16.0, "/Sans-Bold"), ("Visitors come on Sundays.", 11.0, "/Sans")])
    one, two, three = layout_pages([first, second, third]).pages
    assert one.markdown.endswith("Puppies eat four small meals.")  # a passage running over the break starts on 1
    assert "Puppies eat four small meals." in two.markdown and "Grooming" not in one.markdown
    assert "Visits" not in two.markdown  # a heading alone is no opening worth copying


def test_a_page_that_only_continues_a_section_keeps_its_own_text() -> None:
    first = FakePage([("Kennel rules", 16.0, "/Sans-Bold"), ("Dogs are walked twice a day.", 11.0, "/Sans")])
    second = FakePage([("Cats stay indoors.", 11.0, "/Sans")])
    one, two = layout_pages([first, second]).pages
    assert two.markdown.endswith("Cats stay indoors.") and "Cats" not in one.markdown


def test_a_short_title_line_standing_alone_in_body_type_is_a_heading() -> None:
    def body(*texts: str) -> list[tuple[str, float, str]]:
        return [(text, 11.0, "/Sans") for text in texts]

    page = FakePage(body("Loading docks open at six and close at ten, every", "day of the week, and the yard",
                         "gate opens with the docks, closes with them,", "and stays shut on the public",
                         "holidays the port authority", "announces.", "", "CUSTOMS CLEARANCE", "",
                         "Every container needs a signed manifest before it", "leaves the yard, and the",
                         "manifest travels with it to the ship, where the", "first officer signs it",
                         "again.", "", "Late Arrivals", "", "Trucks that miss their slot",
                         "wait for the next free bay.", "", "Drivers stay with their truck.", "",
                         "Night Shift Rules apply", "after ten.", "", "Location: North Quay", "",
                         "The quay office keeps the spare keys."))
    lines = layout_pages([page, FakePage(body("Keys are returned to the gate."))]).pages[0].markdown.splitlines()
    assert "# CUSTOMS CLEARANCE" in lines and "## Late Arrivals" in lines  # capitals: a chapter; Title Case below
    assert "Drivers stay with their truck." in lines  # a sentence standing alone is text
    assert "Night Shift Rules apply after ten." in lines  # a title-like line inside a paragraph is text
    assert "Location: North Quay" in lines  # a "Label: value" field is text


def test_a_lone_capitals_line_in_body_type_never_outranks_a_larger_heading() -> None:
    def body(*texts: str) -> list[tuple[str, float, str]]:
        return [(text, 11.0, "/Sans") for text in texts]

    page = FakePage([("VEHICLES", 14.0, "/Sans-Bold"), ("Tyres", 11.0, "/Sans-Bold"),
                     *body("Tyres are checked for tread depth and pressure before", "every trip by the driver."),
                     ("", 11.0, "/Sans"), *body("NOTE"), ("", 11.0, "/Sans"),
                     *body("Winter tyres go on in November and come off in March", "at the depot."),
                     ("Brakes", 11.0, "/Sans-Bold"),
                     *body("Brake pads are replaced every twenty thousand", "kilometres at the latest."),
                     ("", 11.0, "/Sans"), *body("VEHICLES"), ("", 11.0, "/Sans"),
                     *body("Every vehicle carries a first aid kit and a", "warning triangle.")])
    markdown = layout_pages([page]).pages[0].markdown
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings == ["# VEHICLES", "## Tyres", "## NOTE", "## Brakes", "# VEHICLES"]  # NOTE is no chapter


def test_a_page_of_short_paragraphs_is_read_with_the_documents_line_spacing() -> None:
    def body(*texts: str) -> list[tuple[str, float, str]]:
        return [(text, 11.0, "/Sans") for text in texts]

    first = FakePage(body("Bicycles are lent for a day at a time and come back", "to the rack by the main gate,",
                          "where the porter checks the brakes, the lights and", "the tyres before the next loan,",
                          "and writes down any scratch or dent he finds", "in the loan book kept at the lodge."))
    second = FakePage(body("Bikes returned after six pay a small fee.", "", "Exceptions", "",
                           "Members of staff pay nothing.", "", "Lost keys cost the price of a new lock."))
    lines = layout_pages([first, second]).pages[1].markdown.splitlines()
    assert "## Exceptions" in lines  # alone on its page, though every line there is a paragraph of its own
    assert "Members of staff pay nothing." in lines  # not run together with the line before


def test_a_line_that_restates_the_chapter_under_a_heading_is_no_body_text() -> None:
    body = [(f"Line {n} of how a rejected claim for a dented bumper is appealed.", 11.0, "/Serif") for n in range(3)]
    page = FakePage([("APPEALS", 14.0, "/Serif-Bold"), *body, ("Appeal Levels", 11.0, "/Serif-Bold"),
                     ("APPEALS", 11.0, "/Serif"), ("Appeal Levels", 11.0, "/Serif"), *body])
    lines = layout_pages([page]).pages[0].markdown.splitlines()
    assert lines[-3:-1] == ["## Appeal Levels", ""] and lines[-1].startswith("Line 0 of how")
