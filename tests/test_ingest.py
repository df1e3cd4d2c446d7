"""Ingesting your own files: page-level PDF documents, one message per bad file, nothing ever lost.

Every PDF is generated inside the test with reportlab. A deterministic fake embedder keeps
these tests free of torch, except the end-to-end test, which runs the real command line.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from fakes import FakeEmbedder
from pypdf import PdfWriter
from reportlab.pdfgen import canvas

from ragcourse.errors import CourseError
from ragcourse.index import FOLDER_KB_NAME, KnowledgeBase
from ragcourse.ingest import ingest_paths
from ragcourse.retrieval import keyword_search

FACT = "The visitor parking code at the Eastbridge gate is 4417."
QUESTION = "What is the visitor parking code at the Eastbridge gate?"
HANDBOOK = ["Welcome to Lumora. This handbook explains how the offices work.", FACT,
            "Expense claims are filed in the finance portal within 30 days."]



def pdf_bytes(pages: Sequence[str | None], title: str = "Staff handbook") -> bytes:
    """A PDF with one page per entry; ``None`` is a page with only a drawing, like a scan without OCR."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    pdf.setTitle(title)
    for text in pages:
        if text is None:
            pdf.rect(72, 400, 300, 200, fill=1)
        else:
            pdf.drawString(72, 720, text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def encrypted_pdf_bytes() -> bytes:
    writer = PdfWriter(clone_from=io.BytesIO(pdf_bytes(["Salary bands for 2025."])))
    writer.encrypt("secret")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def write_broken_pdfs(folder: Path, prefix: str = "") -> dict[str, str]:
    """One file per kind of problem → a phrase its message must contain."""
    write(folder / f"{prefix}locked.pdf", encrypted_pdf_bytes())
    write(folder / f"{prefix}truncated.pdf", pdf_bytes(HANDBOOK)[:700])
    write(folder / f"{prefix}empty.pdf", b"")
    write(folder / f"{prefix}scanned.pdf", pdf_bytes([None, None]))
    return {f"{prefix}locked.pdf": "encrypted", f"{prefix}truncated.pdf": "damaged or truncated",
            f"{prefix}empty.pdf": "empty file", f"{prefix}scanned.pdf": "no text layer: run OCR first"}


def messages_by_name(report: dict) -> dict[str, str]:
    return {Path(path).name: message for path, message in report["skipped"].items()}


def open_kb(folder: Path, embedder: FakeEmbedder) -> KnowledgeBase:
    return KnowledgeBase.open(FOLDER_KB_NAME, folder, embedder=embedder)


def found_doc_ids(kb: KnowledgeBase, query: str, user: str = "emp_alice") -> list[str]:
    return [hit.chunk.doc_id for hit in keyword_search(kb, query, user, k=3)]


@pytest.fixture
def embedder() -> FakeEmbedder:
    return FakeEmbedder("fake-ingest")


def test_a_folder_of_mixed_files_becomes_documents_with_page_level_citations(tmp_path, embedder):
    docs = tmp_path / "docs"
    write(docs / "handbook.pdf", pdf_bytes(HANDBOOK))
    write(docs / "notes" / "kickoff.md", "---\ntitle: Kickoff notes\ndate: 2024-11-04\n---\n## Decisions\nShip in May.\n")
    write(docs / "faq.html", "<html><head><title>IT FAQ</title><style>p {}</style></head><body><h1>VPN</h1>"
                             "<p>Use the <b>Aurora</b> VPN profile.</p><script>track()</script></body></html>")
    write(docs / "readme.txt", "Plain text works too.\n")
    write(docs / ".hidden.txt", "Hidden files are left out.\n")

    report = ingest_paths([docs], ["engineering"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)

    assert (report["files"], report["skipped"], report["kept"]) == (4, {}, {})
    assert report["documents"] == 6 and report["chunks_embedded"] == len(embedder.texts) > 0
    kb = open_kb(tmp_path / "kb", embedder)
    documents = {d["doc_id"]: d for d in kb.documents()}
    assert set(documents) == {"handbook-p1", "handbook-p2", "handbook-p3", "notes-kickoff", "faq", "readme"}
    assert (documents["handbook-p2"]["source"], documents["handbook-p2"]["title"]) == ("handbook.pdf", "Staff handbook")
    assert documents["notes-kickoff"]["title"] == "Kickoff notes" and documents["faq"]["title"] == "IT FAQ"
    assert documents["faq"]["allowed_groups"] == ["engineering"]
    faq = next(c for c in kb.chunks.values() if c.doc_id == "faq")
    assert (faq.heading, faq.text) == ("VPN", "Use the Aurora VPN profile.")

    hit = keyword_search(kb, "visitor parking code", "emp_alice", k=1)[0]
    assert hit.chunk.doc_id == "handbook-p2" and FACT in hit.chunk.text
    assert hit.chunk.passage().label == "handbook.pdf#page=2"
    assert keyword_search(kb, "visitor parking code", "fin_bob") == []  # not in "engineering"


def test_each_broken_pdf_gets_its_own_message_and_nothing_ingested_is_lost(tmp_path, embedder, capsys):
    docs = tmp_path / "docs"
    write(docs / "handbook.pdf", pdf_bytes(HANDBOOK))
    expected = write_broken_pdfs(docs)
    write(docs / "slides.pptx", b"PK\x03\x04 not a supported type")
    expected["slides.pptx"] = "unsupported file type '.pptx'"

    first = ingest_paths([docs], ["all_staff"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)

    messages = messages_by_name(first)
    assert set(messages) == set(expected)
    for name, phrase in expected.items():
        assert phrase in messages[name], (name, messages[name])
    assert first["files"] == 1 and first["documents"] == 3

    later = tmp_path / "later"
    expected_later = write_broken_pdfs(later, prefix="new-")
    embedder.texts.clear()
    second = ingest_paths([later], ["all_staff"], kb_dir=tmp_path / "kb", progress=True, embedder=embedder)

    assert set(messages_by_name(second)) == set(expected_later)
    stderr = capsys.readouterr().err
    assert all(f"{path}: {message}" in stderr for path, message in second["skipped"].items())
    assert (second["files"], second["documents"], second["deleted"], second["chunks_embedded"]) == (1, 3, 0, 0)
    assert found_doc_ids(open_kb(tmp_path / "kb", embedder), "visitor parking code")[0] == "handbook-p2"


@pytest.mark.parametrize("damage", ["delete", "truncate"])
def test_a_file_that_breaks_after_ingestion_keeps_its_last_good_version(tmp_path, embedder, damage):
    handbook = write(tmp_path / "docs" / "handbook.pdf", pdf_bytes(HANDBOOK))
    ingest_paths([handbook], ["all_staff"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)
    if damage == "delete":
        handbook.unlink()
    else:
        handbook.write_bytes(handbook.read_bytes()[:500])
    other = write(tmp_path / "docs" / "other.txt", "Badges are renewed every January.\n")

    report = ingest_paths([other], ["all_staff"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)

    assert list(report["kept"]) == [str(handbook.resolve())]
    assert "previous version stays" in report["kept"][str(handbook.resolve())]
    assert (report["files"], report["documents"], report["deleted"]) == (2, 4, 0)
    kb = open_kb(tmp_path / "kb", embedder)
    assert found_doc_ids(kb, "visitor parking code")[0] == "handbook-p2"
    assert found_doc_ids(kb, "badges renewed")[0] == "other"


def test_a_second_run_embeds_nothing_new_and_applies_changed_groups(tmp_path, embedder):
    docs = tmp_path / "docs"
    write(docs / "handbook.pdf", pdf_bytes(HANDBOOK))
    ingest_paths([docs], ["engineering"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)
    embedder.texts.clear()

    again = ingest_paths([docs], ["engineering"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)
    assert (again["added"], again["modified"], again["chunks_embedded"], embedder.texts) == (0, 0, 0, [])

    regrouped = ingest_paths([docs], ["finance"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)
    assert (regrouped["permissions_only"], regrouped["chunks_embedded"]) == (3, 0)
    kb = open_kb(tmp_path / "kb", embedder)
    assert found_doc_ids(kb, "visitor parking code", "fin_bob")[0] == "handbook-p2"
    assert found_doc_ids(kb, "visitor parking code", "emp_alice") == []


def test_two_files_that_would_share_document_ids_are_refused(tmp_path, embedder):
    write(tmp_path / "docs" / "notes.md", "# Notes\nFirst.\n")
    write(tmp_path / "docs" / "notes.txt", "Second.\n")
    report = ingest_paths([tmp_path / "docs"], ["all_staff"], kb_dir=tmp_path / "kb", progress=False,
                          embedder=embedder)
    assert report["files"] == 1
    assert "would overwrite those of" in messages_by_name(report)["notes.txt"]


def test_bad_arguments_stop_with_one_line(tmp_path, embedder, monkeypatch):
    monkeypatch.delenv("RAGCOURSE_KB", raising=False)
    with pytest.raises(CourseError, match="Unknown group 'accounting': use one of all_staff"):
        ingest_paths([tmp_path], ["accounting"], kb_dir=tmp_path / "kb", progress=False, embedder=embedder)
    with pytest.raises(CourseError, match="No knowledge-base folder"):
        ingest_paths([tmp_path], ["all_staff"], progress=False, embedder=embedder)
    report = ingest_paths([tmp_path / "missing.pdf"], ["all_staff"], kb_dir=tmp_path / "kb", progress=False,
                          embedder=embedder)
    assert messages_by_name(report) == {"missing.pdf": "no such file or folder"}


@pytest.mark.slow
def test_the_command_line_answers_from_an_ingested_pdf_citing_its_page(tmp_path):
    """End to end with the real embedder and the offline model: ``ask --kb`` cites ``handbook.pdf#page=2``."""
    write(tmp_path / "docs" / "handbook.pdf", pdf_bytes(HANDBOOK))
    write_broken_pdfs(tmp_path / "docs")
    env = {**os.environ, "RAGCOURSE_CACHE": str(tmp_path / "cache"), "RAGCOURSE_PROVIDER": "offline",
           "RAGCOURSE_EMBEDDINGS": "local"}
    env.pop("RAGCOURSE_KB", None)

    def run(*args: str) -> dict:
        done = subprocess.run([sys.executable, "-m", "ragcourse", *args, "--kb", str(tmp_path / "kb"), "--json"],
                              capture_output=True, text=True, env=env, timeout=600)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    ingested = run("ingest", str(tmp_path / "docs"), "--groups", "all_staff")
    assert ingested["files"] == 1 and len(ingested["skipped"]) == 4

    answer = run("ask", QUESTION, "--mode", "simple", "--user", "emp_alice")
    assert "4417" in answer["answer"]
    assert any(c["source"].endswith("handbook.pdf") and c["page"] == 2 for c in answer["citations"]), answer["citations"]


def test_the_organisation_named_at_ingest_is_stored_with_the_kb_and_named_in_prompts(tmp_path, embedder,
                                                                                       monkeypatch):
    from ragcourse.index import organisation_name
    from ragcourse.prompts import NEUTRAL_ORGANISATION, answer_messages

    notes = tmp_path / "notes.md"
    notes.write_text("# Bakery rota\n\nThe ovens are lit at 4 am by the early shift.\n")
    ingest_paths([notes], ["all_staff"], kb_dir=tmp_path / "plain", progress=False, embedder=embedder)
    ingest_paths([notes], ["all_staff"], kb_dir=tmp_path / "named", progress=False, embedder=embedder,
                 organisation="Crumbfield Bakery")
    monkeypatch.setenv("RAGCOURSE_KB", str(tmp_path / "plain"))
    assert organisation_name() is None
    assert NEUTRAL_ORGANISATION in answer_messages("When are the ovens lit?", [], organisation_name())[0]["content"]
    monkeypatch.setenv("RAGCOURSE_KB", str(tmp_path / "named"))
    assert organisation_name() == "Crumbfield Bakery" == open_kb(tmp_path / "named", embedder).organisation
    system = answer_messages("When are the ovens lit?", [], organisation_name())[0]["content"]
    assert "Crumbfield Bakery" in system and "Lumora" not in system
    with pytest.raises(CourseError, match="one non-empty line"):
        ingest_paths([notes], ["all_staff"], kb_dir=tmp_path / "named", progress=False, embedder=embedder,
                     organisation="  ")
