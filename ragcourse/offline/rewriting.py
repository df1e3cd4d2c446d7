"""Query rewriting and routing: standalone search queries, and "simple" or "agentic".

Rewriting (one query per line, at most *n*):

1. relative dates become absolute with the prompt's "Today is ..." ("last week" ->
   "2025-01-13 to 2025-01-19", "our Q3" -> "Q3 2024");
2. a follow-up that leans on the conversation ("and Q2?", "what about its price?")
   borrows what it lacks from the previous user turn: the subject when it names only a
   period or item, the items (codes, names, periods) when it uses a pronoun;
3. the first line is the standalone question's key terms, the next lines its
   sub-queries (one per compared side, part or cause) when there are at least two of them,
   without repeats (a lone sub-query is a near-repeat that only adds noise); a single query
   also gets a variant with its quarters written out ("Q2 2024 revenue" -> "revenue second
   quarter of 2024"), because documents spell periods both ways and keyword search
   matches only the spelling it is given.

Routing calls a question "agentic" when its analysis finds more than one search, a
comparison, reasons, a calculation, or another system (orders, web); else "simple".
"""

from __future__ import annotations

import re
from typing import Any

from .dates import today_from
from .messages import content_text, field
from .questions import NOT_MEASURED, analyse, key_phrase
from .text import anchors, terms

_REFERENCE = re.compile(r"\b(it|its|that|this|these|those|they|them|their|same|there|what about|how about|and for)\b",
                        re.I)


def _turns(messages: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """The question to rewrite and the earlier user turns (from chat history or a "Conversation:" field)."""
    last = next((content_text(m) for m in reversed(messages) if m.get("role") == "user"), "")
    question = field(last, "Question") or last.strip()
    earlier = [content_text(m) for m in messages if m.get("role") == "user"][:-1]
    conversation = field(last, "Conversation")
    earlier += [re.sub(r"^(?:user|human|q)\s*:\s*", "", line, flags=re.I) for line in conversation.splitlines()
                if re.match(r"^(?:user|human|q)\s*:", line, re.I)]
    return question, earlier


def standalone(question: str, previous: str) -> str:
    """``question`` made understandable without the conversation, using the previous user turn."""
    if not previous:
        return question
    mine, theirs = analyse(question), analyse(previous)
    own_subject = set(terms(mine.subject)) - anchors(mine.subject)
    if not own_subject:  # "And Q2?": the previous question's subject with this turn's items
        return f"{key_phrase(question)} {theirs.subject}".strip()
    if _REFERENCE.search(question):  # "what about its price?": the previous turn's items with this subject
        items = [w for w in key_phrase(previous).split() if anchors(w) or w[:1].isupper()]
        missing = [w for w in items if w.lower() not in question.lower()]
        return f"{' '.join(missing)} {key_phrase(question)}".strip()
    return question


def rewrite(messages: list[dict[str, Any]], limit: int) -> str:
    """The rewritten queries, one per line."""
    system = "\n".join(content_text(m) for m in messages if m.get("role") == "system")
    question, earlier = _turns(messages)
    today = today_from(system)
    q = analyse(standalone(question, earlier[-1] if earlier else ""), today)
    # ("..., and what was the year-on-year change?": a part with no word of its own finds anything that changed)
    parts = [x for x in dict.fromkeys(q.searches()) if x and x != q.query and key_phrase(x, NOT_MEASURED)]
    queries = [q.query, *parts] if len(parts) >= 2 else [q.query, spelled_out(q.query)]  # one sub-query is no split
    return "\n".join([x for x in queries if x][:max(limit, 1)])


_ORDINAL_WORDS = ("first", "second", "third", "fourth")


def spelled_out(query: str) -> str:
    """The query with "Q3 2024" written as "third quarter of 2024", moved to the end (empty if it names no quarter)."""
    found = re.findall(r"\bQ([1-4])(?: ((?:19|20)\d{2}))?\b", query)
    if not found:
        return ""
    rest = re.sub(r"\bQ[1-4](?: (?:19|20)\d{2})?\b", " ", query)
    periods = [f"{_ORDINAL_WORDS[int(n) - 1]} quarter" + (f" of {year}" if year else "") for n, year in found]
    return " ".join([*rest.split(), *periods])


def route(question: str) -> str:
    """ "agentic" for composite questions and other systems, else "simple"."""
    q = analyse(question)
    composite = len(q.searches()) > 1 or q.comparison or q.cause or q.orders or q.public or q.percent
    return "agentic" if composite else "simple"
