"""Reading the parts of a chat request: context blocks, labelled fields, the user's question.

The course's prompts put passages in blocks that start with ``[label] title`` (see
``prompts.format_context``) and name their other inputs with ``Question:``, ``Answer:``
and the like; this module reads those shapes back from any text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_BLOCK_START = re.compile(r"^\[([^\[\]\n]+)\][ \t]*(.*)$", re.M)


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


def parse_blocks(text: str) -> list[Block]:
    """The ``[label] title`` + text blocks in ``text``; text before the first block is ignored."""
    starts = list(_BLOCK_START.finditer(text))
    blocks = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        body = text[m.end():end].strip()
        if body:
            blocks.append(Block(m[1].strip(), m[2].strip(), body))
    return blocks


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


def canonical_json(value: Any) -> str:
    """JSON with sorted keys and no spaces: one spelling per value (ids and cassette keys use it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
