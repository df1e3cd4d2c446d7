"""Reading the parts of a chat request: context passages, labelled fields, the user's question.

The course's prompts put passages in blocks that start with ``[label] title`` (see
``prompts.format_context``) and name their other inputs with ``Question:``, ``Answer:``
and the like. Other prompts label passages their own way, and this module reads those too,
as a model would: ``[D4] text`` on one line, ``Source: x`` lines, numbered paragraphs
(``1. text``, ``(2) text``), JSON records from a tool, or plain paragraphs (numbered
``1``, ``2`` ... in reading order). One request uses one form: the first form found decides,
so a numbered list inside a ``[label]`` block stays part of its block.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_BLOCK_START = re.compile(r"^\[([^\[\]\n]+)\][ \t]*(.*)$", re.M)
_SOURCE_LINE = re.compile(r"^[ \t]*(?:source|document|doc|file|reference|id)[ \t]*(?:#|no\.?)?[ \t]*:[ \t]*(\S.*?)[ \t]*$",
                          re.I | re.M)
_NUMBERED = re.compile(r"^[ \t]*(?:\((\d{1,3})\)|(\d{1,3})[.)]|#(\d{1,3})|(?:passage|document|doc|source|chunk)"
                       r"[ \t]+(\d{1,3})[ \t]*[:.-])[ \t]*(.*)$", re.I | re.M)
#: JSON fields that hold a record's text, and those that name it.
_TEXT_KEYS = ("text", "content", "passage", "snippet", "body", "chunk", "page_content")
_LABEL_KEYS = ("label", "source", "id", "doc_id", "document", "file", "filename", "url", "title", "name")


@dataclass(frozen=True)
class Block:
    """One context passage: its citation label, its title and its text."""

    label: str
    title: str
    text: str


def content_text(message: dict[str, Any]) -> str:
    """A message's text, whether ``content`` is a string or a list of parts."""
    content = message.get("content") or ""
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


def system_text(messages: list[dict[str, Any]]) -> str:
    return "\n".join(content_text(m) for m in messages if m.get("role") in ("system", "developer"))


def last_user_text(messages: list[dict[str, Any]]) -> str:
    return next((content_text(m) for m in reversed(messages) if m.get("role") == "user"), "")


_TITLE_WORDS = {"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}


def _is_sentence(line: str) -> bool:
    """A first line that reads as a sentence ("The bakery opened in 2011.") is text, not a title: it ends like a
    sentence and has lowercase words besides the little ones a Title Case heading keeps ("Report of the Board")."""
    words = line.split()
    lowercase = [w for w in words[1:] if w[:1].islower() and w.lower() not in _TITLE_WORDS]
    return bool(re.search(r"[.!?][\"')\]]?$", line.strip())) and len(words) >= 4 and bool(lowercase)


def _bracketed(text: str) -> list[Block]:
    """``[label] title`` + text blocks, or ``[label] text`` on one line; text before the first block is ignored."""
    starts = list(_BLOCK_START.finditer(text))
    blocks = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        first, body = m[2].strip(), text[m.end():end].strip()
        if not body or _is_sentence(first):
            first, body = "", f"{first}\n{body}".strip()
        if body:
            blocks.append(Block(m[1].strip(), first, body))
    return blocks


def _sourced(text: str) -> list[Block]:
    """Paragraphs that name their source on a line of their own (``Source: handbook.pdf``), before or after."""
    blocks = []
    for paragraph in re.split(r"\n[ \t]*\n", text):
        m = _SOURCE_LINE.search(paragraph)
        body = _SOURCE_LINE.sub("", paragraph).strip() if m else ""
        if m and body:
            blocks.append(Block(m[1].strip("[]()\"' "), "", body))
    return blocks


def _numbered(text: str) -> list[Block]:
    """Numbered passages: ``1. text``, ``2) text``, ``(3) text``, ``Passage 4: text``, each up to the next."""
    starts = list(_NUMBERED.finditer(text))
    if len(starts) < 2 and not re.match(r"\s*(?:passage|document|doc|source|chunk)\b", text, re.I):
        return []  # one "1." is more likely a sentence than a list of passages
    blocks = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        body = f"{m[5]}\n{text[m.end():end]}".strip()
        if body:
            blocks.append(Block(next(g for g in m.groups()[:4] if g), "", body))
    return blocks


def _records(text: str) -> list[Block]:
    """JSON records a tool returned: a list (or ``{"results": [...]}``) of objects with a text field."""
    try:
        value = json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return []
    if isinstance(value, dict):
        value = next((v for v in value.values() if isinstance(v, list)), [value])
    blocks = []
    for number, record in enumerate(value if isinstance(value, list) else [], 1):
        if not isinstance(record, dict):
            continue
        body = next((str(record[k]) for k in _TEXT_KEYS if record.get(k)), "")
        label = next((str(record[k]) for k in _LABEL_KEYS if record.get(k) and str(record[k]) != body), str(number))
        if body:
            title = str(record.get("title", "")) if label != record.get("title") else ""
            blocks.append(Block(label, title, body))
    return blocks


def parse_blocks(text: str) -> list[Block]:
    """The labelled passages in ``text``, in the first form that is present (see the module's docstring)."""
    for reader in (_bracketed, _records, _sourced, _numbered):
        blocks = reader(text)
        if blocks:
            return blocks
    return []


def paragraphs(text: str) -> list[Block]:
    """Unlabelled passages: each paragraph (or, in a text without blank lines, each line) numbered 1, 2, ..."""
    parts = [p.strip() for p in re.split(r"\n[ \t]*\n" if "\n\n" in text.strip() else r"\n", text)]
    return [Block(str(number), "", part) for number, part in enumerate(filter(None, parts), 1)]


#: Field names the course's prompts use; a field's value runs until the next of them.
FIELDS = ("Context", "Conversation", "Question", "Answer", "Grades", "Passages used", "Earlier queries", "Previous queries",
          "Queries tried",
          "Queries", "Scores")
_FIELD_START = re.compile(rf"(?:^|\n)(?:{'|'.join(FIELDS)}):", re.I)


def field(text: str, name: str) -> str:
    """The value of the last ``Name:`` field in ``text`` (up to the next known field or the end)."""
    starts = list(re.finditer(rf"(?:^|\n){re.escape(name)}:", text, re.I))
    if not starts:
        return ""
    begin = starts[-1].end()
    if name.lower() == "context":  # passages may contain anything: they end where the (last) question begins
        rest = text[begin:]
        end = rest.rfind("\n\nQuestion:")
        end = rest.rfind("\n\nAnswer:") if end < 0 else end
        return (rest[:end] if end >= 0 else rest).strip()
    following = _FIELD_START.search(text, begin)
    return text[begin:following.start() if following else len(text)].strip()


#: Names a prompt gives its passages and its question ("Context:", "Documents:", "Question:", "Q:").
CONTEXT_NAMES = ("Context", "Documents", "Passages", "Sources", "Search results", "Retrieved passages", "Excerpts",
                 "Notes", "Information")
QUESTION_NAMES = ("Question", "Query", "Q")
_CONTEXT_START = re.compile(rf"(?:^|\n)[ \t]*(?:{'|'.join(CONTEXT_NAMES)})[ \t]*:[ \t]*", re.I)
_QUESTION_START = re.compile(rf"(?:^|\n)[ \t]*(?:{'|'.join(QUESTION_NAMES)})[ \t]*:[ \t]*", re.I)
#: A line that introduces material below it: "Use the following information:", "Here are the documents:".
_INTRODUCES = re.compile(r"\b(?:context|information|documents?|passages?|excerpts?|notes|sources?|below|following)\b"
                         r"[^\n]*:[ \t]*$", re.I | re.M)


@dataclass(frozen=True)
class Request:
    """What a chat request asks the model to answer, and the passages it gives to answer from."""

    question: str
    passages: list[Block]


def _split_question(text: str) -> tuple[str, str]:
    """(question, rest) of a user message: a ``Question:`` field, else the last paragraph (or line) that asks
    something, else the last paragraph."""
    fields = list(_QUESTION_START.finditer(text))
    if fields:
        last = fields[-1]
        return text[last.end():].strip(), text[:last.start()]
    parts = [p for p in re.split(r"\n[ \t]*\n", text.strip()) if p.strip()]
    if len(parts) == 1 and "?" in parts[0] and "\n" in parts[0]:
        parts = [p for p in parts[0].split("\n") if p.strip()]  # "passage\npassage\nWhat ...?"
    asking = [i for i, p in enumerate(parts) if p.rstrip().endswith("?")]
    index = asking[-1] if asking else len(parts) - 1
    return (parts[index].strip() if parts else ""), "\n\n".join(parts[:index] + parts[index + 1:])


def _context_of(text: str) -> str | None:
    """The value of a ``Context:`` (or ``Documents:`` ...) field: up to the last question field, or the end."""
    starts = list(_CONTEXT_START.finditer(text))
    if not starts:
        return None
    rest = text[starts[-1].end():]
    questions = list(_QUESTION_START.finditer(rest))
    return (rest[:questions[-1].start()] if questions else rest).strip()


def _passages(text: str) -> list[Block]:
    """Labelled passages, else plain paragraphs (without "(no passages)"-style notes)."""
    blocks = parse_blocks(text)
    return blocks or [b for b in paragraphs(text) if not re.fullmatch(r"\(.*\)", b.text)]


def read_request(messages: list[dict[str, Any]]) -> Request:
    """The question and its passages, wherever the request put them, as a model would read it.

    The question is the last user message's ``Question:`` field or its last asking paragraph. Passages come
    from a ``Context:``-like field (the user's, else the system's), else from labelled passages in any message,
    else from the user message's other paragraphs, else from what the system prompt introduces ("... the
    following notes:").
    """
    question, rest = _split_question(last_user_text(messages))
    system = system_text(messages)
    for text in (last_user_text(messages), system):
        context = _context_of(text)
        if context is not None:
            return Request(question, _passages(context))
    others = [content_text(m) for m in messages if m.get("role") in ("user", "system", "developer")][:-1]
    for blocks in (parse_blocks(rest), *(_bracketed(t) or _sourced(t) for t in others)):  # a system prompt's
        if blocks:  # numbered rules are not passages
            return Request(question, blocks)
    if rest.strip():
        return Request(question, _passages(rest))
    introduced = list(_INTRODUCES.finditer(system))
    return Request(question, _passages(system[introduced[-1].end():]) if introduced else [])


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: one spelling per value (ids and cassette keys use it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def tables(block: Block) -> list[list[list[str]]]:
    """The markdown tables of a passage's text, each a list of rows of cells (the heading row first)."""
    found: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*block.text.splitlines(), ""]:
        if line.strip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(re.fullmatch(r":?-{2,}:?", c) for c in cells):
                current.append(cells)
        elif current:
            found.append(current)
            current = []
    return found
