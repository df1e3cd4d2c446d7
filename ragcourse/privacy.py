"""What may leave the company in a web query: the question's public terms, never internal text.

A web search sends its query to somebody else's server. A model that has just read an internal
report happily searches for "total value Sable Rail orders Q3 2024" — a customer's name and the
company's own figures, now in a search provider's logs. :class:`WebScreen` removes from every
outgoing query:

* **private names** — the customers and the order, customer and shipment ids of the orders
  database — even when the question itself names them (a carrier is a public company: its name
  may go out, so that its own notice about a delay can be found);
* **internal tokens** — a number or a name (a token with a digit or a capital letter) that
  appeared in internal text during the run (documents searched, order reports) and is not a term
  of the question; periods (2024, Q3, March) stay, they are how public sources are dated;
* **internal fragments** — any run of four words copied from internal text that the question
  does not contain.

What is left is what the question already said in public words. Every outgoing query, and what was
removed from it, is a step of the trace.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

#: Tokens as a query is split: words, numbers with . , % - /, ids such as ORD-24871.
_TOKEN = re.compile(r"[^\W_](?:[\w.,%/'-]*[^\W_%]|%)?|[^\W_]")
_IDS = re.compile(r"^(?:ord|c|shp|cust|inv)-\d+$", re.I)
_PERIOD = re.compile(r"^(?:(?:19|20)\d\d|fy\d{2,4}|q[1-4]|h[12]|jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                     r"june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$", re.I)
#: Length of a copied run of words that counts as a fragment of internal text.
FRAGMENT_WORDS = 4


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def is_sensitive(token: str) -> bool:
    """A number or a name: what identifies a customer, a product or a figure."""
    return bool(re.search(r"\d", token) or token[:1].isupper()) and not _PERIOD.match(token)


def fragments(words: list[str], n: int = FRAGMENT_WORDS) -> set[tuple[str, ...]]:
    low = [w.lower() for w in words]
    return {tuple(low[i:i + n]) for i in range(len(low) - n + 1)}


@dataclass
class WebScreen:
    """The public terms of one question and the internal text one run has read."""

    question: str = ""
    private_names: frozenset[str] = frozenset()
    public_names: frozenset[str] = frozenset()
    _internal_tokens: set[str] = field(default_factory=set)
    _internal_fragments: set[tuple[str, ...]] = field(default_factory=set)

    def see(self, text: str) -> None:
        """Remember internal text (a searched document, an order report) the run has read."""
        words = tokens(text)
        self._internal_tokens.update(w.lower() for w in words)
        self._internal_fragments |= fragments(words)

    def screen(self, query: str) -> tuple[str, list[str]]:
        """The query with private names, internal tokens and internal fragments removed, and what was removed."""
        question = {w.lower() for w in tokens(self.question)} | self.public_names
        asked = fragments(tokens(self.question))
        words = tokens(query)
        private = [w for w in words if w.lower() in self.private_names or _IDS.match(w)
                   or (is_sensitive(w) and w.lower() in self._internal_tokens and w.lower() not in question)]
        copied: set[int] = set()
        low = [w.lower() for w in words]
        for i in range(len(words) - FRAGMENT_WORDS + 1):
            run = tuple(low[i:i + FRAGMENT_WORDS])
            if run in self._internal_fragments and run not in asked:
                copied.update(j for j in range(i, i + FRAGMENT_WORDS) if low[j] not in question)
        removed = [w for i, w in enumerate(words) if w in private or i in copied]
        kept = [w for i, w in enumerate(words) if not (w in private or i in copied)]
        return " ".join(kept), removed


def course_private_names() -> frozenset[str]:
    """Every word of a customer's name and every id in the course's orders database (lower case)."""
    from .orders import connect

    with connect() as db:
        rows = db.execute("SELECT customer_id, name FROM customers").fetchall()
    return frozenset(w.lower() for cid, name in rows for w in [cid, *tokens(name)] if is_sensitive(w))


def course_carriers() -> list[str]:
    """The carriers of the course's shipments: public companies whose own notices explain a delay, so their names
    may go out (the customers and ids of the shipments never do)."""
    from .orders import connect

    with connect() as db:
        return [row[0] for row in db.execute("SELECT DISTINCT carrier FROM shipments WHERE carrier IS NOT NULL")]


def screen_for(question: str, internal: Iterable[str] = (), *, private_names: frozenset[str] | None = None,
               public_names: Iterable[str] = ()) -> WebScreen:
    """A screen for ``question`` that has already seen ``internal`` texts (course customers by default)."""
    screen = WebScreen(question, course_private_names() if private_names is None else private_names,
                       frozenset(w.lower() for name in public_names for w in tokens(name)))
    for text in internal:
        screen.see(text)
    return screen
