"""Nothing internal leaves in a web query: the screen, the opt-in for real providers, and the whole evaluation set.

A *fragment* of internal text, in these tests, is any of:

* a customer's name word or an order, customer or shipment id from the orders database (a carrier's name is not:
  carriers are public companies, and their own notices explain a delayed shipment);
* a number or a name (a token with a digit or a capital letter) that occurs in an internal document or an
  order record, not in the public-web snapshot, and is not a term of the question (periods such as 2024,
  Q3 or March are allowed: public sources are dated by them);
* a run of four words that occurs in an internal document or an order record, not in the public-web
  snapshot, and not in the question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragcourse.agent import agentic_rag
from ragcourse.config import PROJECT_ROOT, get_settings
from ragcourse.corpus import course
from ragcourse.errors import CourseError
from ragcourse.privacy import (
    FRAGMENT_WORDS,
    course_carriers,
    course_private_names,
    fragments,
    is_sensitive,
    screen_for,
    tokens,
)
from ragcourse.results import Passage
from ragcourse.tools import ToolBox
from ragcourse.web import OfflineWebSearch, set_web_search

BAKERY = ("Our wholesale price for Crumbfield Cafe is 2.35 per loaf, agreed in March 2024 with Mara Voss. "
          "The rye starter is fed twice a day in the back kitchen.")


def test_the_screen_keeps_public_terms_and_drops_internal_numbers_names_and_fragments() -> None:
    screen = screen_for("What do bakeries charge for sourdough in 2024?", [BAKERY], private_names=frozenset({"crumbfield"}),
                        public_names=["Golden Crust Bakery"])
    sent, removed = screen.screen("Crumbfield Cafe sourdough price 2.35 Mara Voss 2024 Golden Crust")
    assert sent == "sourdough price 2024 Golden Crust"
    assert set(removed) == {"Crumbfield", "Cafe", "2.35", "Mara", "Voss"}
    sent, removed = screen.screen("rye starter is fed twice a day bakery trends")
    assert sent == "bakery trends" and "starter" in removed
    assert screen.screen("ORD-00123 status")[0] == "status"  # ids never go out, even unread


def test_a_carrier_may_go_out_but_the_customer_of_its_shipment_never_does() -> None:
    carrier = course_carriers()[0]
    screen = ToolBox("sales_erin")
    screen.begin("why is my parcel late?")
    customer = next(iter(course_private_names()))
    screen.web_screen.see(f"- ORD-1 · {customer.title()} · shipped by {carrier}: delayed")
    sent, removed = screen.web_screen.screen(f"{customer.title()} {carrier} delay")
    assert sent == f"{carrier} delay" and removed == [customer.title()]


class Recorder:
    """A local web search that keeps every query it is sent."""

    name = "recorded-snapshot"
    local = True

    def __init__(self) -> None:
        self.inner = OfflineWebSearch()
        self.queries: list[str] = []

    def search(self, query: str, k: int = 3) -> list[Passage]:
        self.queries.append(query)
        return self.inner.search(query, k)


class Remote:
    name = "a-real-search-api"

    def search(self, query: str, k: int = 3) -> list[Passage]:
        raise AssertionError("a remote web search ran without RAGCOURSE_WEB_SEARCH=on")


def test_a_real_web_provider_is_off_until_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    tools = ToolBox("emp_alice", search=lambda q, u: [], web=Remote(), orders=lambda user, **a: "",
                    known_users={})
    observation = tools.execute("web_search", '{"query": "bakery trends"}')
    assert observation.error and "RAGCOURSE_WEB_SEARCH=on" in observation.content
    monkeypatch.setenv("RAGCOURSE_WEB_SEARCH", "sideways")
    get_settings.cache_clear()
    try:
        with pytest.raises(CourseError, match="RAGCOURSE_WEB_SEARCH='sideways' is not a switch"):
            get_settings()
    finally:
        monkeypatch.delenv("RAGCOURSE_WEB_SEARCH")
        get_settings.cache_clear()


def _internal_texts() -> list[str]:
    orders = sorted((PROJECT_ROOT / "data" / "orders").glob("*.csv"))
    return [d.text for d in course().documents.values()] + [Path(p).read_text(encoding="utf-8") for p in orders]


def test_no_outgoing_web_query_over_the_evaluation_set_carries_an_internal_fragment() -> None:
    internal, public = _internal_texts(), [page.text for page in course().web.values()]
    public_tokens = {w.lower() for text in public for w in tokens(text)}
    internal_tokens = {w.lower() for text in internal for w in tokens(text)} - public_tokens
    internal_runs = set().union(*(fragments(tokens(text)) for text in internal)) - set().union(
        *(fragments(tokens(text)) for text in public))
    private = course_private_names()
    company = {w.lower() for w in tokens(" ".join([course().company, *course_carriers()]))}
    recorder = Recorder()
    set_web_search(recorder)
    leaks = []
    try:
        for q in course().questions:
            start = len(recorder.queries)
            result = agentic_rag(q.question, q.user)
            sent = recorder.queries[start:]
            assert len(sent) <= sum(s.tool == "web_search" for s in result.trace)  # every query is a trace step
            asked = {w.lower() for w in tokens(q.question)} | company
            asked_runs = fragments(tokens(q.question))
            for query in sent:
                words = tokens(query)
                bad = [w for w in words if w.lower() in private or
                       (is_sensitive(w) and w.lower() in internal_tokens and w.lower() not in asked)]
                bad += [" ".join(run) for run in fragments(words, FRAGMENT_WORDS) if run in internal_runs
                        and run not in asked_runs]
                if bad:
                    leaks.append(f"{q.id}: {query!r} carries {bad}")
    finally:
        set_web_search(None)
    assert recorder.queries, "no question searched the web: the test would prove nothing"
    assert not leaks, "\n".join(leaks)
