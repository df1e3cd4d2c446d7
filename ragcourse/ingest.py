"""Bring your own documents: PDF, Markdown, plain text and HTML files into a knowledge base of their own.

A PDF becomes one document per page (``handbook-p2``), so an answer can cite ``handbook.pdf#page=2``.
Ingestion is incremental: a registry in the knowledge-base folder (``ingested.json``) remembers every
file ingested so far and its groups. Each run reads the registered files again plus the new ones and
syncs the union with the index, so an unchanged file costs no embedding and nothing ingested earlier
disappears — not even when its file has since been deleted or broken: the index keeps its last good
version (``KnowledgeBase.sync(failed=...)``) and the report says so.

One bad file (encrypted, damaged, empty, a scan without a text layer, an unknown type) gets one
line in the report and the others are still ingested: a folder of 300 PDFs must not fail on one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
import re
import sys
import time
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path

from .corpus import Document, parse_markdown
from .embeddings import Embedder
from .errors import CourseError

#: The file with everything ingested so far, inside the knowledge-base folder.
REGISTRY_NAME = "ingested.json"
#: A PDF with at least this many pages gets a progress bar of its own while it is read.
PAGES_WITH_PROGRESS = 50
_HTML_BLOCKS = {"p", "div", "br", "tr", "section", "article", "header", "footer", "ul", "ol", "table", "pre",
                "blockquote", "main", "nav", "aside", "dl", "dt", "dd", "hr", "figure", "figcaption"}
_HTML_HIDDEN = {"script", "style", "noscript", "template", "svg", "head"}


# ---------------------------------------------------------------- reading one file


class FileProblem(Exception):
    """Why one file cannot be ingested; the run goes on with the other files."""


@dataclass(frozen=True)
class Extract:
    """Text read from a file, or from one page of a PDF."""

    title: str
    text: str
    date: dt.date
    page: int | None = None
    note: str = ""  # what was left out of it, and why


def _slug(text: str) -> str:
    """A document-id-safe form of a path: ASCII lowercase letters, digits and hyphens."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def _title_from_name(path: Path) -> str:
    return re.sub(r"[_-]+", " ", path.stem).strip() or path.name


def _mtime_date(path: Path) -> dt.date:
    return dt.date.fromtimestamp(path.stat().st_mtime)


def _tidy(text: str) -> str:
    """Trailing spaces and runs of blank lines out: extracted text is full of both."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FileProblem("not UTF-8 text: save it as UTF-8 and ingest it again") from None


@contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs every repair it makes; those lines would tear the progress bar, and real failures raise."""
    logger = logging.getLogger("pypdf")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def _read_pdf(path: Path, raw: bytes, progress: bool = False) -> list[Extract]:
    """One extract per page, numbered from 1 like a PDF viewer, read with its layout (:mod:`ragcourse.pdflayout`).

    A page without text comes back empty with the reason, so the report can say which pages were left out.
    """
    import io

    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError
    from tqdm import tqdm

    from .pdflayout import layout_pages

    locked = FileProblem("encrypted with a password: save an unprotected copy and ingest that")
    with _quiet_pypdf():
        try:
            reader = PdfReader(io.BytesIO(raw))
            if reader.is_encrypted and not reader.decrypt(""):  # an owner password alone still allows reading
                raise locked
            pages = reader.pages
            show = progress and len(pages) >= PAGES_WITH_PROGRESS
            with tqdm(total=len(pages), desc=f"Reading {path.name}", unit="page", disable=not show,
                      file=sys.stderr, leave=False) as bar:
                layout = layout_pages(pages, progress=bar.update)
            meta = reader.metadata
            title = str((meta.title if meta else None) or "").strip() or _title_from_name(path)
            created = meta.creation_date if meta else None
        except FileNotDecryptedError:
            raise locked from None
        except DependencyError:
            raise FileProblem("encrypted with AES, which pypdf reads only with the package "
                              "'cryptography': pip install cryptography") from None
        except FileProblem:
            raise
        except Exception as exc:  # pypdf raises many exception types on malformed files, not only PdfReadError
            raise FileProblem(f"not a readable PDF, damaged or truncated ({exc}): export it again") from None
    texts = [(page.page, _tidy(page.markdown)) for page in layout.pages]
    if not any(text for _, text in texts):
        raise FileProblem("no text layer: run OCR first (e.g. ocrmypdf) and ingest the result")
    date = created.date() if created else _mtime_date(path)
    extracts = [Extract(title, text, date, page, "" if text else "no text layer (a scan or a picture): "
                        "run OCR on it to include it") for page, text in texts]
    if not layout.sized:
        extracts[0] = replace(extracts[0], note="its fonts carry no size: headings found from bold type only")
    return extracts


def _read_markdown(path: Path, raw: bytes, progress: bool = False) -> list[Extract]:
    """Front matter is optional; its ``title`` and ``date`` win over the first heading and the file's date."""
    text = _decode(raw)
    meta: dict = {}
    if text.startswith("---"):
        try:
            meta, text = parse_markdown(path)
        except CourseError as exc:
            raise FileProblem(str(exc).removeprefix(f"{path}: ")) from None
    heading = re.search(r"^#\s+(.+?)\s*#*\s*$", text, re.M)
    title = str(meta.get("title") or (heading.group(1) if heading else _title_from_name(path)))
    date = meta.get("date")
    if isinstance(date, dt.datetime):
        date = date.date()
    elif not isinstance(date, dt.date):
        try:
            date = dt.date.fromisoformat(str(date))
        except ValueError:
            date = _mtime_date(path)
    return [Extract(title, _tidy(text), date)]


def _read_text(path: Path, raw: bytes, progress: bool = False) -> list[Extract]:
    return [Extract(_title_from_name(path), _tidy(_decode(raw)), _mtime_date(path))]


class _HTMLText(HTMLParser):
    """Visible text of a page; headings become Markdown headings, so chunks keep their section."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._in_title = False
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in _HTML_HIDDEN:
            self._hidden += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.parts.append("\n\n" + "#" * int(tag[1]) + " ")
        elif tag == "li":
            self.parts.append("\n- ")
        elif tag in _HTML_BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in _HTML_HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif re.fullmatch(r"h[1-6]", tag) or tag in _HTML_BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._hidden:
            self.parts.append(re.sub(r"\s+", " ", data))

    def text(self) -> str:
        lines = (line.strip() for line in "".join(self.parts).split("\n"))
        return _tidy("\n".join(lines))


def _read_html(path: Path, raw: bytes, progress: bool = False) -> list[Extract]:
    parser = _HTMLText()
    parser.feed(_decode(raw))
    parser.close()
    title = re.sub(r"\s+", " ", parser.title).strip() or _title_from_name(path)
    return [Extract(title, parser.text(), _mtime_date(path))]


#: File types that can be ingested, by suffix.
READERS = {".pdf": _read_pdf, ".md": _read_markdown, ".markdown": _read_markdown, ".txt": _read_text,
           ".text": _read_text, ".html": _read_html, ".htm": _read_html}


def read_file(path: Path, entry: RegisteredFile, progress: bool = False) -> tuple[list[Document], list[str]]:
    """The documents of one file (one per PDF page) and one line per part left out and why.

    :class:`FileProblem` says why there are none.
    """
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise FileProblem(f"unsupported file type {path.suffix or '(none)'!r}: use {', '.join(sorted(READERS))}")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise FileProblem("deleted from disk") from None
    except OSError as exc:
        raise FileProblem(f"cannot be read ({exc.strerror or exc})") from None
    if not raw.strip():
        raise FileProblem("empty file")
    parts = reader(path, raw, progress)
    documents = [
        Document(doc_id=f"{entry.stem}-p{part.page}" if part.page else entry.stem, title=part.title, text=part.text,
                 source=entry.source, date=part.date, doc_type=path.suffix.lower().lstrip("."),
                 allowed_groups=entry.groups, page=part.page)
        for part in parts if part.text
    ]
    if not documents:
        raise FileProblem("no text in the file")
    notes = [f"page {part.page}: {part.note}" if part.page else part.note for part in parts if part.note]
    return documents, notes


# ---------------------------------------------------------------- the registry of ingested files


@dataclass(frozen=True)
class RegisteredFile:
    """One ingested file as the registry remembers it: its citation name and who may read it."""

    source: str
    groups: tuple[str, ...]

    @property
    def stem(self) -> str:
        """The prefix of its document ids: two files with the same stem would overwrite each other."""
        return _slug(self.source.rsplit(".", 1)[0]) or "doc-" + hashlib.sha256(self.source.encode()).hexdigest()[:8]


def load_registry(folder: Path) -> dict[str, RegisteredFile]:
    """Every file ingested into the knowledge base in ``folder``, by absolute path."""
    path = folder / REGISTRY_NAME
    if not path.exists():
        return {}
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
        return {name: RegisteredFile(row["source"], tuple(row["groups"])) for name, row in rows.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise CourseError(f"{path} is damaged ({exc.__class__.__name__}): restore it, or ingest into a new folder.") from None


def save_registry(folder: Path, files: Mapping[str, RegisteredFile]) -> None:
    """Write atomically: a crash mid-write must not lose the list of what the knowledge base holds."""
    partial = folder / (REGISTRY_NAME + ".tmp")
    rows = {name: {"source": entry.source, "groups": list(entry.groups)} for name, entry in files.items()}
    partial.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, folder / REGISTRY_NAME)


# ---------------------------------------------------------------- ingestion


def _kb_folder(kb_dir: str | Path | None) -> Path:
    value = kb_dir or os.environ.get("RAGCOURSE_KB")
    if not value:
        raise CourseError("No knowledge-base folder: pass kb_dir= (or --kb DIR), or set RAGCOURSE_KB.")
    folder = Path(value).expanduser().resolve()
    if folder.exists() and not folder.is_dir():
        raise CourseError(f"{folder} is a file: the knowledge base needs a folder.")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _check_groups(groups: Sequence[str], known: Mapping[str, str]) -> tuple[str, ...]:
    """The groups, deduplicated; documents without a known group would be invisible to everyone."""
    chosen = tuple(dict.fromkeys(g.strip() for g in groups if g.strip()))
    if not chosen:
        raise CourseError(f"Name at least one group allowed to read the documents: {', '.join(known)}.")
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise CourseError(f"Unknown group {unknown[0]!r}: use one of {', '.join(known)}.")
    return chosen


def _discover(paths: Sequence[str | Path], kb_folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """(file → its source name, path → problem): folders are walked recursively, hidden files left out."""
    found: dict[str, str] = {}
    problems: dict[str, str] = {}
    for given in paths:
        path = Path(given).expanduser().resolve()
        if path.is_file():
            found[str(path)] = path.name
        elif path.is_dir():
            for file in sorted(path.rglob("*")):
                relative = file.relative_to(path)
                hidden = any(part.startswith(".") for part in relative.parts)
                if file.is_file() and not hidden and not file.is_relative_to(kb_folder):
                    found[str(file)] = relative.as_posix()
        else:
            problems[str(path)] = "no such file or folder"
    return found, problems


def ingest_paths(paths: Sequence[str | Path], groups: Sequence[str], kb_dir: str | Path | None = None,
                 progress: bool = True, *, embedder: Embedder | None = None,
                 organisation: str | None = None) -> dict[str, object]:
    """Add files or folders to the knowledge base in ``kb_dir`` (default ``RAGCOURSE_KB``), readable by ``groups``.

    Returns the report: ``kb``, ``files`` (in the knowledge base), ``documents``, ``chunks_embedded``,
    ``sentences_embedded`` (for the sentence reranker, embedded now so that searching need not),
    ``skipped`` (new files that could not be ingested → why), ``partly`` (file → the parts left out of it, e.g.
    a scanned page, one line each), ``kept`` (earlier files that can no longer be
    read → why; their last good version stays searchable) and the counts of the index update.
    ``embedder`` replaces the configured one (tests use a fake; the knowledge base keeps one index per model).
    ``organisation`` names whose documents these are; it is stored with the knowledge base and the prompts
    use it (without one they say "the organisation whose documents you search").
    """
    from tqdm import tqdm

    from .config import get_settings
    from .corpus import course
    from .index import FOLDER_KB_NAME, KnowledgeBase, store_organisation

    started = time.perf_counter()
    folder = _kb_folder(kb_dir)
    if organisation is not None:
        store_organisation(folder, organisation)
    known = course()
    allowed = _check_groups(groups, known.groups)
    registry = load_registry(folder)
    found, skipped = _discover(paths, folder)

    def note(name: str, message: str) -> str:
        """Say a file's problem on stderr as it happens (above the progress bar); return it for the report."""
        if progress:
            tqdm.write(f"{name}: {message}", file=sys.stderr)
        return message

    for name, message in skipped.items():
        note(name, message)
    wanted = dict(registry)
    owners = {entry.stem: name for name, entry in registry.items()}
    for name, source in found.items():
        entry = RegisteredFile(source, allowed)  # a file ingested again takes the new groups
        owner = owners.setdefault(entry.stem, name)
        if owner != name:
            skipped[name] = note(name, f"its document ids would overwrite those of {owner}: rename one of the two")
            continue
        wanted[name] = entry

    ingested: dict[str, RegisteredFile] = {}
    documents: dict[str, Document] = {}
    kept: dict[str, str] = {}
    failed: dict[str, str] = {}  # source → why, for the index: it keeps the last good version of these
    partly: dict[str, list[str]] = {}  # file → the parts of it left out (a scanned page), one line each
    for name, entry in tqdm(wanted.items(), desc="Reading files", unit="file", disable=not progress, file=sys.stderr):
        try:
            found_documents, notes = read_file(Path(name), entry, progress)
        except FileProblem as exc:
            previous = registry.get(name)
            if previous is None:
                skipped[name] = note(name, str(exc))
            else:
                kept[name] = note(name, f"{exc}; its previous version stays in the knowledge base")
                failed[previous.source] = str(exc)
                ingested[name] = previous
            continue
        ingested[name] = entry
        documents.update((doc.doc_id, doc) for doc in found_documents)
        if notes:
            partly[name] = [note(name, line) for line in notes]

    save_registry(folder, ingested)  # before the sync: an interrupted sync then converges on the next run
    kb = KnowledgeBase.open(FOLDER_KB_NAME, folder, embedder=embedder, chroma_url=get_settings().chroma_url)
    kb.acl.load_course_users(known.users, known.groups)
    update = kb.sync(documents, failed=failed, progress=progress)
    sentences = 0
    if get_settings().reranker == "sentence" and embedder is None:  # a test's fake embedder has no reranker to feed
        from .rerank import prepare

        sentences = prepare(list(kb.chunks.values()), progress=progress)
    return {
        "kb": str(folder), "files": len(ingested), "documents": len(kb.documents()),
        "chunks_embedded": update.chunks_embedded, "sentences_embedded": sentences,
        "chunks_deleted": update.chunks_deleted,
        "added": len(update.added), "modified": len(update.modified), "deleted": len(update.deleted),
        "permissions_only": len(update.permissions_only),
        "skipped": skipped, "kept": kept, "partly": partly, "seconds": round(time.perf_counter() - started, 3),
    }
