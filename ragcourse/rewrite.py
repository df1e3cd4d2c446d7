"""Query rewriting: the chat model turns a question into standalone search queries.

Users ask "how did it change since last quarter?"; documents say "Q3 2024 gross
margin". The rewrite resolves references from the conversation, replaces relative
dates with absolute ones (the course's "today" is fixed), and may split a composite
question into several queries (multi-query) — each is searched, and RRF fuses all lists.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Any

from .prompts import REWRITE_SYSTEM
from .results import Usage

#: Most queries a rewrite may return: each one costs two retrievals.
MAX_QUERIES = 3
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)]|query\s*\d*:)\s*", re.I)


def parse_queries(text: str, n: int = MAX_QUERIES) -> list[str]:
    """The model's reply as queries: one per line, bullets/numbers/quotes removed, duplicates dropped."""
    queries: dict[str, str] = {}
    for line in (text or "").splitlines():
        query = _BULLET.sub("", line).strip().strip("\"'").strip()
        if query:
            queries.setdefault(query.lower(), query)
    return list(queries.values())[:n]


def rewrite_query(question: str, *, client: Any = None, history: Sequence[dict[str, str]] = (),
                  n: int = MAX_QUERIES, today: dt.date | None = None) -> tuple[list[str], Usage]:
    """Up to ``n`` search queries for ``question`` (the conversation ``history`` resolves references).

    Returns the queries and the LLM usage of the call (also counted in the open ledger, with a
    trace step); the caller keeps the original question as a query of its own, so an empty or
    poor rewrite loses nothing.
    """
    from .calls import complete, record_step

    if today is None:
        from .corpus import course

        today = course().today
    conversation = "\n".join(f"{m['role']}: {m['content']}" for m in history)
    user = f"Conversation:\n{conversation}\n\nQuestion: {question}" if conversation else question
    messages = [{"role": "system", "content": REWRITE_SYSTEM.format(today=today.isoformat(), n=n)},
                {"role": "user", "content": user}]
    call = complete("rewrite", messages, client=client, temperature=0)
    queries = parse_queries(call.message.content or "", n)
    record_step(call, " | ".join(queries) or "(no queries)")
    return queries, call.usage
