"""Split documents into chunks that follow the Markdown structure.

A chunk is one section (or a piece of a long section) and always knows its heading,
because a paragraph like "It rose to 45.2%." is useless without "Q3 2024 — Gross
margin" next to it. Long sections are cut at paragraph, then line or sentence
boundaries, never inside a word unless one sentence is longer than a whole chunk; the
last sentences of a piece are repeated at the start of the next (the overlap), so a
fact that straddles the cut is still whole in one of them.

Chunk ids are ``{doc_id}:{position:03d}``: the same text always gives the same ids,
which is what lets the index update only what changed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .corpus import Document
from .results import Passage

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
#: Separator between the levels of a heading path, e.g. "Terms — Liability".
HEADING_SEPARATOR = " — "


@dataclass(frozen=True)
class Chunk:
    """A piece of a document: the unit that is embedded, BM25-indexed, retrieved and cited."""

    chunk_id: str
    doc_id: str
    position: int
    title: str
    heading: str
    text: str
    source: str
    allowed_groups: tuple[str, ...] = ()
    date: str = ""
    page: int | None = None

    @property
    def context(self) -> str:
        """Title and heading path: where in the document this text comes from."""
        return f"{self.title}{HEADING_SEPARATOR}{self.heading}" if self.heading else self.title

    @property
    def embed_text(self) -> str:
        """What is embedded AND BM25-indexed: the heading context makes short sections findable."""
        return f"{self.context}\n{self.text}"

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.embed_text.encode("utf-8")).hexdigest()

    def passage(self, score: float = 0.0) -> Passage:
        """The chunk as a prompt sees it; the title carries the heading so the model sees the same context."""
        return Passage(chunk_id=self.chunk_id, doc_id=self.doc_id, source=self.source, title=self.context,
                       text=self.text, score=score, page=self.page)


def split_sentences(text: str) -> list[str]:
    """Sentences of a text: each line on its own (a table row or list item is one), cut at ".", "!" or "?"
    followed by a capital or a digit."""
    return [s for line in text.splitlines() for s in _SENTENCE_END.split(" ".join(line.split())) if s]


def _sections(body: str, title: str) -> list[tuple[str, str]]:
    """(heading path, text) per Markdown section; a top heading that repeats the title is not part of the path."""
    sections: list[tuple[str, str]] = []
    path: list[tuple[int, str]] = []
    lines: list[str] = []

    def close() -> None:
        text = "\n".join(lines).strip()
        if text:
            sections.append((HEADING_SEPARATOR.join(name for _, name in path), text))
        lines.clear()

    in_code = False
    for line in body.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        match = None if in_code else _HEADING.match(line)
        if not match:
            lines.append(line)
            continue
        close()
        level, name = len(match.group(1)), match.group(2).strip()
        path = [(lvl, n) for lvl, n in path if lvl < level]
        if not (level == 1 and name == title):
            path.append((level, name))
    close()
    return sections


def _units(paragraph: str, size: int) -> list[str]:
    """A too-long paragraph as pieces that may be packed: table/list lines, else sentences, else word runs."""
    lines = [ln for ln in paragraph.splitlines() if ln.strip()]
    structured = len(lines) > 1 and all(ln.lstrip()[:1] in "|-*+" or ln.lstrip()[:1].isdigit() for ln in lines)
    pieces = lines if structured else split_sentences(" ".join(lines))
    units: list[str] = []
    for piece in pieces:
        while len(piece) > size:  # one sentence longer than a chunk: cut at the last space before the limit
            cut = piece.rfind(" ", 0, size)
            cut = cut if cut > 0 else size
            units.append(piece[:cut].strip())
            piece = piece[cut:].strip()
        if piece:
            units.append(piece)
    return units


def _pack(text: str, size: int, overlap: int) -> list[str]:
    """Greedily pack paragraphs (or their units) into pieces of at most ``size`` characters, with overlap."""
    if len(text) <= size:
        return [text]
    units: list[tuple[str, str]] = []  # (text, separator that precedes it)
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = paragraph.strip()
        if not paragraph:
            continue
        parts = [paragraph] if len(paragraph) <= size else _units(paragraph, size)
        sep_within = "\n" if paragraph.lstrip()[:1] in "|-*+" else " "
        units.extend((part, "\n\n" if i == 0 else sep_within) for i, part in enumerate(parts))

    pieces: list[str] = []
    current: list[tuple[str, str]] = []

    def length(items: list[tuple[str, str]]) -> int:
        return sum(len(t) + len(s) for t, s in items)

    for unit in units:
        if current and length(current) + len(unit[0]) + len(unit[1]) > size:
            pieces.append(_join(current))
            carried: list[tuple[str, str]] = []
            for item in reversed(current):  # the overlap: whole trailing units, at most `overlap` characters
                if length(carried) + len(item[0]) > overlap:
                    break
                carried.insert(0, item)
            current = carried if length(carried) + len(unit[0]) + len(unit[1]) <= size else []
        current.append(unit)
    if current:
        pieces.append(_join(current))
    return pieces


def _join(items: list[tuple[str, str]]) -> str:
    return "".join(sep + text for sep, text in items).strip()


def chunk_document(doc: Document, size: int = 800, overlap: int = 120) -> list[Chunk]:
    """Chunks of one document: one per section, long sections cut into pieces of at most ``size`` characters."""
    if size <= 0 or not 0 <= overlap < size:
        raise ValueError(f"chunk size must be positive and overlap in [0, size); got size={size}, overlap={overlap}")
    texts = [(heading, piece) for heading, text in _sections(doc.text, doc.title) for piece in _pack(text, size, overlap)]
    return [
        Chunk(chunk_id=f"{doc.doc_id}:{position:03d}", doc_id=doc.doc_id, position=position, title=doc.title,
              heading=heading, text=text, source=doc.source, allowed_groups=tuple(doc.allowed_groups),
              date=doc.date.isoformat(), page=doc.page)
        for position, (heading, text) in enumerate(texts)
    ]
