"""The records every pipeline returns, so notebooks, the CLI and tests read one shape."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Passage:
    """A retrieved chunk as a prompt sees it: its text and where it came from."""

    chunk_id: str
    doc_id: str
    source: str
    title: str
    text: str
    score: float = 0.0
    page: int | None = None

    @property
    def label(self) -> str:
        """The citation label the prompts ask for, e.g. ``fin-2024-q3.md`` or ``report.pdf#page=2``."""
        name = self.source.rsplit("/", 1)[-1]
        return f"{name}#page={self.page}" if self.page else name


@dataclass(frozen=True)
class Citation:
    doc_id: str
    source: str
    page: int | None = None


@dataclass
class Usage:
    """LLM calls and tokens, summed over a run (the token-budget valve reads it)."""

    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def add(self, usage: Any) -> None:
        """Add one response's ``usage`` (an OpenAI ``CompletionUsage`` or ``None``)."""
        self.llm_calls += 1
        if usage is not None:
            self.prompt_tokens += usage.prompt_tokens or 0
            self.completion_tokens += usage.completion_tokens or 0

    def merge(self, other: Usage) -> None:
        """Add another run's usage (e.g. the query rewriting inside a search)."""
        self.llm_calls += other.llm_calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens

    def as_dict(self) -> dict[str, int]:
        return {"llm_calls": self.llm_calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "total_tokens": self.total_tokens}


@dataclass
class Step:
    """One step of a run: a retrieval, a model call, a tool call, a judgement or a note."""

    kind: str  # "retrieve" | "llm" | "tool" | "judge" | "reflect" | "answer" | "note"
    tool: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    result: str = ""
    passages: list[Passage] = field(default_factory=list)
    tokens: int = 0
    seconds: float = 0.0
    messages: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RagResult:
    """What ``simple_rag``, ``agentic_rag`` and the reflection loop return."""

    question: str
    user: str
    mode: str
    model: str
    answer: str
    citations: list[Citation] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    trace: list[Step] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def retrieved_doc_ids(self) -> list[str]:
        """Every document whose text entered a prompt during the run, in first-seen order."""
        seen: dict[str, None] = {}
        for step in self.trace:
            for p in step.passages:
                seen.setdefault(p.doc_id, None)
        return list(seen)

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``python -m ragcourse ask --json``."""
        return {
            "question": self.question, "user": self.user, "mode": self.mode, "model": self.model,
            "answer": self.answer, "citations": [asdict(c) for c in self.citations],
            "retrieved_doc_ids": self.retrieved_doc_ids,
            "steps": [{"kind": s.kind, "tool": s.tool, "args": s.args} for s in self.trace],
            "usage": self.usage.as_dict(), "seconds": round(self.seconds, 3),
        }


_CITATION = re.compile(r"\[([^\[\]]+?)\]|【([^【】]+?)】|\(([^()]+?)\)")
_PREFIX = re.compile(r"^(?:source|document|doc|ref|see)\s*:\s*", re.I)


def _citation_keys(p: Passage) -> set[str]:
    """Every way a model writes a passage's label: the label, the path, the file name, with or without its
    extension, and the document id — hosted models do not copy labels exactly."""
    name = p.source.rsplit("/", 1)[-1]
    keys = {p.label, p.source, name, name.rsplit(".", 1)[0], p.doc_id}
    return {k.lower() for k in keys if k}


def extract_citations(answer: str, passages: list[Passage]) -> list[Citation]:
    """The passages an answer cites, in order, matched by document whatever the label's form ([q3.md], [docs/q3.md],
    [q3], 【q3.md】, (q3.md)); a page-labelled passage (``report.pdf#page=2``) is matched by its exact label first.
    Labels that match no passage are ignored."""
    by_label = {p.label.lower(): p for p in passages}
    by_key: dict[str, Passage] = {}
    for p in passages:
        for key in _citation_keys(p):
            by_key.setdefault(key, p)
    found: dict[tuple[str, int | None], Citation] = {}
    for match in _CITATION.finditer(answer):
        inside = next(group for group in match.groups() if group is not None)
        for part in re.split(r"[,;]", inside):
            label = _PREFIX.sub("", part.strip().strip("'\"` ")).lower()
            p = by_label.get(label) or by_key.get(label)
            if p is not None:
                found.setdefault((p.doc_id, p.page), Citation(p.doc_id, p.source, p.page))
    return list(found.values())
