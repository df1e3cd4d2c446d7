"""Layout-aware PDF reading: a PDF's pages as Markdown with headings, paragraphs and table rows.

A PDF has no headings or paragraphs, only positioned runs of text in fonts. This module
rebuilds what chunking needs from those runs:

* **headings** from font size and weight: a line set larger than the body text, or a short
  bold line, is a heading; larger sizes are higher levels. A short line in body type that stands
  alone (a blank line above and below) and reads as a title — Title Case or capitals, no sentence
  end — is a heading too: documents typed in one font mark sections that way ("Cost Savings",
  "HOW PROVIDERS AFFECT YOUR COSTS"). Body type never outranks a larger font: capitals rank with bold
  type, Title Case below it, and a line that restates a heading of the path returns to that heading.
  Without the rule such a section's chunks carried the previous section's path (Northwind dev: simple
  page any@3 0.64 → 0.72); with capitals as the top level a lone "HIPAA" or "NOTE" put every later
  section of its document under it (Northwind: 37 sections under "HIPAA"). A "PARENT: Heading"
  breadcrumb line right below a heading names its parent section and is not body text;
* the **section path carries over** page breaks: a page that continues a section starts
  with that section's headings, so every chunk knows where it is (one document per page
  keeps page numbers exact);
* a **passage is cited by the page it starts on**: the opening of a page (a chunk and a half at most: the rest
  of the previous page's section, up to the page's first heading, or else the new section it opens)
  is copied to the end of the page before, so a sentence cut by the page break is whole again and a
  passage that runs over the break is labelled with the page where it begins — the convention of
  the source project's truths, whose passages are cut by length, not by section (Northwind dev,
  agentic: citations matched 0.36 → 0.52 strict when a continued section moved back; copying every
  page's opening, 0.52 → 0.64). The text stays on its own page too, where a reader finds it: an
  answer that quotes a sentence both passages hold cites both;
* **line-break hyphens** are joined: "deliv-/ery" becomes "delivery", but "in-/network"
  stays "in-network" when the document writes it hyphenated elsewhere;
* **running headers and footers** (a line at the top or bottom of most pages, page
  numbers aside) are dropped, and so are bare page numbers;
* **table rows** (runs on one line far apart) stay one line, ``| cell | cell |``, so the
  chunker keeps a row whole.

Why pypdf's text visitor and not pdfminer.six or pdfplumber: measured on the six Northwind
PDFs (263 pages, machine busy), pypdf with the visitor read everything in 28.5 s, pdfminer.six's
layout analysis in 56.3 s; both give the font name and size of every run and neither joins
hyphens or finds headings by itself, so the rules here are needed either way. pypdf is
already a dependency (MIT/BSD), so the faster reader costs no new package.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: Markdown heading levels used for font-size headings; a bold body-size line gets the level below them.
MAX_LEVELS = 3
#: A line this far (in body-font sizes) right of the previous run on the same line starts a new table cell.
CELL_GAP = 2.5
#: Share of the top or bottom lines of a document's pages a repeated line must reach to be a running header.
RUNNING_SHARE = 0.5
#: About this many characters of a page's opening are copied to the end of the page before: a chunk and a half, the
#: middle of the range that did best on Northwind dev (agentic citations matched: 800 → 0.58, 1,100 to 1,500 → 0.64).
CARRY_BACK_CHARS = 1200
_BOLD = re.compile(r"bold|black|heavy|semibold|demi|,b\b", re.I)
_BULLET = re.compile(r"^(?:[•◦▪‣\-*–]\s|\(?\d{1,2}[.)]\s|[a-z][.)]\s)")
_PAGE_NUMBER = re.compile(r"^(?:page\s*)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)
_WORD_HYPHEN = re.compile(r"([A-Za-z]+)-$")


@dataclass
class Line:
    """One line of a page: its text (cells joined by " | " when it is a table row) and its font."""

    text: str
    size: float
    bold: bool
    y: float
    cells: list[str] = field(default_factory=list)

    @property
    def is_row(self) -> bool:
        return len(self.cells) > 1


@dataclass(frozen=True)
class LayoutPage:
    """One page as Markdown, its section path restated at the top; empty when the page has no text layer."""

    page: int
    markdown: str


@dataclass(frozen=True)
class Layout:
    """The pages of one PDF; ``sized`` is False when its fonts carry no size (headings then come from bold alone)."""

    pages: list[LayoutPage]
    sized: bool


def _matrix(a: Sequence[float], b: Sequence[float]) -> tuple[float, ...]:
    """The product of two PDF text matrices (a·b), the position and scale of a run on the page."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def page_lines(page: Any) -> list[Line]:
    """The lines of a pypdf page in reading order, with each line's largest font and its table cells."""
    runs: list[list[tuple[str, float, bool, float, float]]] = [[]]  # per line: (text, size, bold, x, y)

    def visit(text: str, cm: Sequence[float], tm: Sequence[float], font: Any, font_size: float) -> None:
        m = _matrix(tm, cm) if tm and cm else (1, 0, 0, 1, 0, 0)
        size = abs(font_size * (m[3] or m[0])) if font_size else 0.0
        name = str((font or {}).get("/BaseFont", "")) if hasattr(font, "get") else ""
        for i, part in enumerate(text.split("\n")):
            if i:
                runs.append([])
            if part:
                runs[-1].append((part, round(size, 1), bool(_BOLD.search(name)), m[4], m[5]))

    page.extract_text(visitor_text=visit)
    merged: list[list[tuple[str, float, bool, float, float]]] = []
    for parts in (p for p in runs if any(run[0].strip() for run in p)):
        before = merged[-1] if merged else None
        if before and abs(before[-1][4] - parts[0][4]) < 2 and parts[0][3] > before[-1][3]:
            before.extend(parts)  # a run on the same baseline, further right: the next cell of a table row
        else:
            merged.append(list(parts))
    lines = []
    for parts in merged:
        written = [p for p in parts if p[0].strip()]
        size = max(p[1] for p in written)
        cells = _cells(written, size)
        text = " ".join(cells) if len(cells) > 1 else "".join(p[0] for p in parts)
        lines.append(Line(" ".join(text.split()), size, all(p[2] for p in written), written[0][4], cells))
    return lines


def _cells(parts: Sequence[tuple[str, float, bool, float, float]], size: float) -> list[str]:
    """Runs on one line that stand far apart (more than :data:`CELL_GAP` font sizes) are table cells."""
    cells = [parts[0][0]]
    end = parts[0][3] + 0.5 * (size or 10) * len(parts[0][0])  # half an em per character: a rough width
    for text, _, _, x, _ in parts[1:]:
        if x - end > CELL_GAP * (size or 10):
            cells.append(text)
        else:
            cells[-1] += text
        end = max(end, x + 0.5 * (size or 10) * len(text))
    return [" ".join(c.split()) for c in cells if c.strip()]


def _key(text: str) -> str:
    """A line's identity for header detection: page numbers and dates vary from page to page."""
    return re.sub(r"\d+", "#", text.lower()).strip()


def running_lines(pages: Sequence[list[Line]], edge: int = 2) -> set[str]:
    """Keys of lines that sit among the first or last ``edge`` lines of at least half of the pages."""
    if len(pages) < 3:
        return set()
    seen: Counter[str] = Counter()
    for lines in pages:
        seen.update({_key(line.text) for line in lines[:edge] + lines[-edge:]})
    return {key for key, count in seen.items() if count >= max(3, RUNNING_SHARE * len(pages))}


def _heading_levels(pages: Sequence[list[Line]]) -> tuple[float, dict[float, int]]:
    """The body font size (most characters) and a Markdown level for each larger size, biggest first."""
    sizes: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            sizes[line.size] += len(line.text)
    known = [s for s in sizes if s > 0]
    if not known:
        return 0.0, {}
    body = max(known, key=lambda s: sizes[s])
    larger = sorted((s for s in known if s >= body + 1), reverse=True)
    return body, {s: min(i + 1, MAX_LEVELS) for i, s in enumerate(larger)}


def _is_heading(line: Line, body: float, levels: dict[float, int]) -> int:
    """The heading level of a line, 0 for body text: larger than the body font, or short, bold and not a sentence."""
    text = line.text
    if line.is_row or len(text) > 100 or _BULLET.match(text) or not re.search(r"[A-Za-z]", text):
        return 0
    if line.size in levels:
        return levels[line.size]
    sentence_like = text.rstrip().endswith((".", ",", ";")) or len(text) > 80
    if line.bold and not sentence_like and (not body or line.size >= body - 0.5):
        return min(len(set(levels.values())) + 1, MAX_LEVELS + 1)
    return 0


def _join_lines(previous: str, line: str, vocabulary: Counter[str]) -> str:
    """Join a wrapped line; a line-break hyphen goes unless the document writes that word with its hyphen."""
    match = _WORD_HYPHEN.search(previous)
    if match and line[:1].islower():
        head = match.group(1)
        tail = re.match(r"[a-z]+", line).group(0)  # type: ignore[union-attr]
        hyphenated, joined = f"{head}-{tail}".lower(), f"{head}{tail}".lower()
        if vocabulary[hyphenated] > vocabulary[joined]:
            return previous + line
        return previous[:-1] + line
    return f"{previous} {line}"


def _vocabulary(pages: Sequence[list[Line]]) -> Counter[str]:
    """Words written inside lines (not at a line end), hyphenated ones included, to judge line-break hyphens."""
    words: Counter[str] = Counter()
    for lines in pages:
        for line in lines:
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", line.text.rstrip("-")))
    return words


def _breadcrumb(lines: Sequence[Line], i: int, heading: str) -> tuple[str, int]:
    """A "PARENT: Heading" or "PARENT - Heading" line (maybe wrapped) right after a heading: (the parent, lines
    it takes), or ("", 0)."""
    if i < len(lines) and lines[i].text.lower() == heading.lower():
        return "", 1  # the heading said twice, once in body type
    separator = next((sep for sep in (": ", " - ", " – ") if i < len(lines) and sep in lines[i].text), None)
    if separator is None:
        return "", 0
    parent, _, rest = lines[i].text.partition(separator)
    target, used = " ".join(heading.split()).lower(), 1
    rest = rest.strip()
    while target.startswith(rest.lower()) and rest.lower() != target and i + used < len(lines):
        rest = f"{rest} {lines[i + used].text}".strip()
        used += 1
    parent = parent.lstrip("#").strip()
    if rest.lower() != target or not parent:
        return "", 0
    return parent.title() if parent.isupper() else parent, used


def layout_pages(pages: Sequence[Any], progress: Callable[[int], None] | None = None) -> Layout:
    """Every page of a pypdf reader as Markdown; a page without text comes back with empty Markdown."""
    lines_per_page = []
    for page in pages:
        lines_per_page.append(page_lines(page))
        if progress:
            progress(1)
    running = running_lines(lines_per_page)
    body, levels = _heading_levels(lines_per_page)
    writer = _Writer(body, levels, _vocabulary(lines_per_page), _line_gap(lines_per_page))
    written: list[_Page] = []
    for lines in lines_per_page:
        edges = {id(line) for line in lines[:2] + lines[-2:]}
        kept = [ln for ln in lines if not (id(ln) in edges and (_key(ln.text) in running
                                                                  or _PAGE_NUMBER.match(ln.text)))]
        kept = kept or lines  # a page whose only line repeats on every page (a form, a label) is content
        written.append(writer.page(kept) if kept else _Page())
    for before, after in zip(written, written[1:]):
        if before.blocks and after.path:  # pages before a document's first heading (a cover) take nothing
            before.carry(after.opening(CARRY_BACK_CHARS))
    return Layout([LayoutPage(number, page.markdown) for number, page in enumerate(written, start=1)], sized=body > 0)


@dataclass
class _Page:
    """One page's Markdown blocks while a PDF is read: ``lead`` blocks continue the previous page's section."""

    blocks: list[str] = field(default_factory=list)
    path: str = ""  # the section path restated at the top
    lead: int = 0

    def opening(self, limit: int) -> list[str]:
        """The first blocks, at least one and about ``limit`` characters: the lead blocks that continue the previous
        page's section, or, when the page opens with a heading, the start of that section; never every block of the
        page (a page that only continues a section is its own passage). They stay on this page too."""
        taken = 0
        while taken < min(self.lead or len(self.blocks), len(self.blocks) - 1) and (
                taken == 0 or sum(map(len, self.blocks[:taken + 1])) <= limit):
            taken += 1
        while taken and self.blocks[taken - 1].startswith("#"):  # a heading without its text says nothing
            taken -= 1
        return self.blocks[:taken]

    def carry(self, blocks: list[str]) -> None:
        """Append the next page's opening; a paragraph that starts in lower case finishes this page's last one."""
        if blocks and blocks[0][:1].islower() and not self.blocks[-1].startswith(("#", "|")):
            self.blocks[-1] = f"{self.blocks[-1]} {blocks.pop(0)}"
        self.blocks += blocks

    @property
    def markdown(self) -> str:
        return "\n\n".join([self.path, *self.blocks] if self.path and self.blocks else self.blocks)


@dataclass
class _Writer:
    """Writes pages one after the other, carrying the section path from each page to the next."""

    body: float
    levels: dict[float, int]
    vocabulary: Counter[str]
    gap: float  # the usual line spacing inside a paragraph
    path: list[tuple[int, str]] = field(default_factory=list)

    def page(self, lines: Sequence[Line]) -> _Page:
        """One page as Markdown blocks: the path so far, then headings, paragraphs, lists and table rows."""
        path = "\n".join(f"{'#' * level} {name}" for level, name in self.path)
        blocks: list[str] = []
        lead: int | None = None  # blocks before the page's first heading
        paragraph: list[str] = []
        cover = all(self._level(line) for line in lines)  # a title page names the document, not a section
        last_y: float | None = None
        gap = self.gap
        i = 0
        while i < len(lines):
            line, level = lines[i], self._level(lines[i])
            if not level and not cover and _alone(lines, i, gap) and _title_like(line.text):
                level = self._plain_level(line.text)
            i += 1
            if level:
                _close(blocks, paragraph)
                lead = len(blocks) if lead is None else lead
                name = line.text.lstrip("#").strip()  # a heading typed as Markdown in the source: "## Services"
                if cover:
                    blocks.append(name)
                    continue
                parent, used = _breadcrumb(lines, i, name)
                used = used or self._restated_above(lines, i, level, name)
                self._enter(level, name, parent)
                written = self.path[-2:] if parent else self.path[-1:]
                blocks.append("\n".join(f"{'#' * lv} {title}" for lv, title in written))
                i, last_y = i + used, None
                continue
            text = line.text.lstrip("#").strip() or line.text
            near = last_y is not None and abs(last_y - line.y) <= 1.5 * gap
            previous = paragraph[-1] if paragraph else None
            if line.is_row:  # consecutive rows form one block: the chunker keeps a table's rows together
                if previous is not None and not previous.startswith("|"):
                    _close(blocks, paragraph)
                paragraph.append("| " + " | ".join(line.cells) + " |")
            elif previous is not None and (previous.startswith("|") or not near):
                _close(blocks, paragraph)
                paragraph.append(text)
            elif previous is None or _BULLET.match(text):
                paragraph.append(text)  # list items keep their own lines, in one block
            else:
                paragraph[-1] = _join_lines(previous, text, self.vocabulary)
            last_y = line.y
        _close(blocks, paragraph)
        return _Page(blocks, path, len(blocks) if lead is None else lead)

    def _level(self, line: Line) -> int:
        return _is_heading(line, self.body, self.levels)

    def _plain_level(self, text: str) -> int:
        """A heading in body type: the level of the heading it restates ("IMPORTANT PLAN INFORMATION" under that
        chapter), else capitals rank with bold type and Title Case below it. Body type never outranks a larger font:
        a lone "NOTE" or "HIPAA" ranked as the top level had put every later section of the document under it."""
        restated = [lv for lv, name in self.path if name.casefold() == text.casefold()]
        if restated:
            return restated[-1]
        bold = min(len(set(self.levels.values())) + 1, MAX_LEVELS + 1)
        return bold if text.isupper() else bold + 1

    def _restated_above(self, lines: Sequence[Line], i: int, level: int, heading: str) -> int:
        """How many lines after a heading only restate where it is: its chapter's name ("COMPLAINTS AND APPEALS"
        under "Appeal Levels"), then perhaps the heading again; they are not body text."""
        above = {name.casefold() for lv, name in self.path if lv < level}
        if i >= len(lines) or lines[i].text.rstrip(":").casefold() not in above:
            return 0
        return 2 if i + 1 < len(lines) and lines[i + 1].text.casefold() == heading.casefold() else 1

    def _enter(self, level: int, heading: str, parent: str) -> None:
        """The path after a heading; a breadcrumb's parent takes the level above it."""
        if parent:
            above = max(level - 1, 1)
            level = max(level, above + 1)
            path = [(lv, name) for lv, name in self.path if lv < above] + [(above, parent)]
        else:
            path = [(lv, name) for lv, name in self.path if lv < level]
        self.path = [*path, (level, heading)]


#: Words Title Case leaves in lower case ("Coordination of Benefits").
_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with",
                          "vs"})


def _title_like(text: str) -> bool:
    """A short line in Title Case or capitals without a sentence's end: "Cost Savings", "HOW TO APPEAL"; not a
    "Label: value" field ("Location: Head Office")."""
    text = text.strip()
    words = re.findall(r"[A-Za-z][\w'’-]*", text)
    if not words or len(words) > 8 or len(text) > 70 or text.endswith((".", ",", ";", ":", "?", "!")) or \
            ": " in text or _BULLET.match(text):
        return False
    return all(w[0].isupper() or w.lower() in _SMALL_WORDS for w in words) and words[0][0].isupper()


def _alone(lines: Sequence[Line], i: int, gap: float) -> bool:
    """Whether line ``i`` stands apart from the lines before and after it (a paragraph of one line)."""
    far = [abs(lines[j].y - lines[i].y) > 1.5 * gap for j in (i - 1, i + 1) if 0 <= j < len(lines)]
    return all(far) and not lines[i].is_row


def _close(blocks: list[str], paragraph: list[str]) -> None:
    if paragraph:
        blocks.append("\n".join(paragraph))
        paragraph.clear()


def _line_gap(pages: Sequence[Sequence[Line]]) -> float:
    """The usual distance between two lines of a paragraph in this document (the median of the gaps on all its
    pages). Per page, a page of one-line bullets and short paragraphs has the paragraph gap as its median: its
    paragraphs ran together and no title line there stood alone (Northwind: 25 of 104 pages of each plan)."""
    gaps = [abs(a.y - b.y) for lines in pages for a, b in zip(lines, lines[1:]) if 0 < abs(a.y - b.y) < 60]
    return statistics.median(gaps) if gaps else 14.0
