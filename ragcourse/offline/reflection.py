"""Reflection: after a low score, choose a new internal search, a web search, or stop.

The decision is made from the prompt (``Question:``, ``Answer:``, the earlier queries
listed under ``Earlier queries:`` one per line, optionally ``Context:``):

1. questions about public, market or regulator matters go to the web, once;
2. otherwise the model tries internal queries in this order and takes the first that
   differs meaningfully from every earlier query (term overlap below 60 %): the
   question's key terms; the terms the answer is missing, with the question's anchors;
   the key terms with general synonyms ("reasons" -> "drivers causes"); the sub-queries
   of a composite question;
3. when every candidate repeats an earlier query, it stops and says what is missing.
"""

from __future__ import annotations

import json
import re

from .answering import GIVES_CAUSE
from .messages import field
from .questions import CUE_WORDS, analyse
from .text import anchors, stem, terms

#: General business synonyms, used to widen a query that found nothing.
SYNONYMS = {
    "reason": "drivers causes", "cause": "reasons drivers", "increase": "rise growth", "decline": "drop decrease",
    "drop": "decline decrease", "price": "pricing cost", "cost": "expense spending", "salary": "compensation pay",
    "employee": "staff personnel", "policy": "rules guideline", "complianc": "oversight regulation",
    "regul": "oversight authority", "revenu": "sales turnover", "sale": "bookings revenue", "margin": "profitability",
    "custom": "client account", "contract": "agreement terms", "approv": "authorise sign-off",
}


def earlier_queries(prompt: str) -> list[str]:
    """The queries tried so far, one per line under an "... queries:" field."""
    text = field(prompt, "Earlier queries") or field(prompt, "Previous queries") or field(prompt, "Queries tried") \
        or field(prompt, "Queries")
    return [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip() for line in text.splitlines() if line.strip()]


def _differs(query: str, earlier: list[str]) -> bool:
    mine = set(terms(query))
    for old in earlier:
        theirs = set(terms(old.split(":", 1)[-1]))
        if mine and len(mine & theirs) / len(mine | theirs) >= 0.6:
            return False
    return bool(mine)


def _with_synonyms(phrase: str) -> str:
    extra = [SYNONYMS[stem(w.lower())] for w in phrase.split() if stem(w.lower()) in SYNONYMS]
    return " ".join([phrase, *extra])


def gap_queries(question: str, answer: str) -> list[str]:
    """Searches for what the answer leaves out: a compared side it does not mention, the reasons it does not give."""
    q, covered = analyse(question), set(terms(answer))
    queries = [q.side_query(side, measure) for measure in q.measured for side in q.sides
               if len(q.sides) > 1 and not anchors(side) | set(terms(side)) <= covered]
    if q.cause and not GIVES_CAUSE.search(answer):
        queries.append(q.cause_query())
    return queries


def candidates(question: str, answer: str) -> list[str]:
    """Internal queries worth trying, most specific first: the gaps, then the question reworded."""
    q = analyse(question)
    key = q.query
    answered = set(terms(answer))
    missing = [w for w in key.split() if stem(w.lower()) not in answered]
    anchor_words = [w for w in key.split() if re.search(r"\d", w)]
    return [*gap_queries(question, answer), key, " ".join(dict.fromkeys([*anchor_words, *missing])),
            _with_synonyms(key), *q.searches()]


def decide(prompt: str) -> str:
    """The reflection JSON: {"reason", "action", "query"}."""
    question, answer = field(prompt, "Question"), field(prompt, "Answer")
    earlier = earlier_queries(prompt)
    q = analyse(question)
    web_tried = any(re.match(r"\s*web\b", e, re.I) for e in earlier)
    instructions = {t for w in CUE_WORDS for t in terms(w)}
    missing = [t for t in dict.fromkeys(terms(question)) if t not in set(terms(answer)) and t not in instructions]
    gaps = gap_queries(question, answer)
    why = (f"The answer does not cover {gaps[0]}." if gaps else
           f"The answer does not cover {', '.join(missing[:4])}." if missing
           else "The answer is not supported well enough by the passages.")
    if q.public and not web_tried:
        query = q.query
        if _differs(query, [e for e in earlier if re.match(r"\s*web\b", e, re.I)]):
            return json.dumps({"reason": f"{why} The question is about public or regulatory information.",
                               "action": "search_web", "query": query})
    for query in candidates(question, answer):
        if query and _differs(query, earlier):
            return json.dumps({"reason": f"{why} A different internal query may find it.",
                               "action": "search_internal", "query": query})
    return json.dumps({"reason": f"{why} Every useful query has been tried.", "action": "stop", "query": ""})
