"""A party named by what it is rather than by its name: "the Ohio utility", "the rail freight customer".

People name customers, suppliers and partners by place and trade as often as by name. Nothing in the question says
which party is meant, so the agent first searches the description itself. A passage that speaks of every part of the
description, in a document whose title names a party ("Supply Agreement — Harbour Cranes Ltd"), gives the name, and
the name then stands in the question where the description stood: the orders tool and every later search use it.
A description no passage matches that well stays as it was written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .framing import own_terms
from .lexicon import closest_spelling
from .messages import Block
from .text import STOPWORDS, terms, word_set

#: The nouns that name a party by its trade or its role.
_PARTIES = word_set("""customer client account utility operator district authority producer manufacturer company firm
plant port buyer distributor municipality council railway airline refinery mill works""")
#: The words for the role itself: every agreement calls its party "the Customer", so they single no party out.
_ROLES = frozenset(terms("customer client account"))
_DESCRIPTION = re.compile(r"\b(?:the|The)\s+(?P<place>[A-Z][a-z][\w-]*\s+)?(?P<trade>(?:[a-z][\w-]*\s+){0,3})"
                          rf"(?P<head>{'|'.join(sorted(_PARTIES))})\b(?![\w-])")
#: Legal forms after a company's name: the question, and the records, name the company without them.
_LEGAL_FORM = re.compile(r"[\s,]+(?:Inc|Ltd|LLC|plc|GmbH|AG|AS|A/S|SA|S\.A|BV|NV|Oy|AB|SpA|Pty|Co|Corp|Sdn Bhd)\.?$")
_NAME_RUN = re.compile(r"[A-Z][\w&/-]*(?:\s+[A-Z][\w&/-]*)*")


@dataclass(frozen=True)
class Description:
    """A party described in the question: the words as written ("the Ohio utility") and the search for it."""

    phrase: str
    query: str

    @property
    def wanted(self) -> list[str]:
        """The terms a passage must speak of: every word but the role ("customer" is every agreement's party)."""
        return [t for t in terms(self.query) if t not in _ROLES] or terms(self.query)


def descriptions(question: str) -> list[Description]:
    """The parties the question names by place and trade: "the Bergen vessel operator" (a place and a trade), "the
    rail freight customer" (a trade). A description needs words besides its noun, none of them a grammar word, a
    number or a superlative ("the biggest customer" is picked out by a measure, not described)."""
    found: list[Description] = []
    for m in _DESCRIPTION.finditer(question):
        place, trade = (m["place"] or "").strip(), m["trade"].split()
        words = [w for w in [place, *trade] if w]
        if not words or any(w.lower() in STOPWORDS or re.search(r"\d|est$", w) for w in words):
            continue
        if not place and m["head"] not in _ROLES and len(trade) < 2:
            continue  # "the main plant", "the water utility": one ordinary word describes no one party
        found.append(Description(m[0], " ".join([*words, m["head"]])))
    return found


def _speaks_of(wanted: Sequence[str], block: Block) -> float:
    """The share of ``wanted`` terms the passage holds, each as written or spelled a little differently ("German"
    for "Germany")."""
    held = set(terms(f"{block.title} {block.text}"))
    return sum(1 for t in wanted if t in held or closest_spelling(t, held)) / len(wanted)


def title_party(title: str) -> str:
    """The name a title gives after the document's kind: "Supply Agreement — Harbour Cranes Ltd (HC-7) — Fees" ->
    "Harbour Cranes Ltd"; a title without such a part gives none, nor does a section heading ("Leave Policy — Annual
    leave"): a name has two capitalised words at least."""
    parts = re.split(r"\s+[—–-]\s+|:\s+", title)
    named = _NAME_RUN.match(re.sub(r"\([^)]*\)", " ", parts[1]).strip()) if len(parts) > 1 else None
    words = named[0].split() if named else []
    return named[0] if len(words) > 1 and words[0].lower() not in STOPWORDS else ""


def resolve(description: Description, blocks: Sequence[Block]) -> str:
    """The name of the party the passages found for the description speak of, without its legal form; "" unless one
    party's passages hold at least two thirds of the description's words and more than any other party's. A party
    counts only when the passages' text names it (a newsletter's title is no party) and it is not the organisation
    the assistant serves."""
    texts = " ".join(b.text for b in blocks)
    best: dict[str, float] = {}
    for block in blocks:
        name = title_party(block.title)
        if not name or name.split()[0] not in texts or set(terms(name)) <= own_terms():
            continue
        best[name] = max(best.get(name, 0.0), _speaks_of(description.wanted, block))
    ranked = sorted(best.items(), key=lambda item: -item[1])
    if not ranked or ranked[0][1] < 2 / 3 or len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return ""
    return _LEGAL_FORM.sub("", ranked[0][0]).strip()


def named(question: str, names: dict[str, str]) -> str:
    """The question with each resolved description replaced by its party's name."""
    for phrase, name in names.items():
        if name:
            question = question.replace(phrase, name)
    return question
