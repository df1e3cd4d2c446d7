"""The agent's tools: their OpenAI function schemas, the search cache, and the ToolBox that runs them.

The calculator itself lives in :mod:`ragcourse.calculator`; it is re-exported here because the
notebooks reach it as ``tools.calculate``, ``tools.seed_filter`` and ``tools.filtered_eval_flaw``.

Two rules shape this module. First, the model only *proposes* tool calls; the program
executes them, and the program — never the model — decides whose permissions apply: the
ToolBox is built for the session's user, and any argument that names another user is
ignored and written into the trace. Second, a tool never raises into the agent loop for
bad input: malformed JSON, unknown tools and refused expressions come back to the model
as an observation it can correct, because a crash teaches the model nothing.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .bm25 import tokenize

# Re-exported for the notebooks (``tools.seed_filter(...)``) and older imports.
from .calculator import CalculationError as CalculationError
from .calculator import _power as _power  # notebook 06 prints its source
from .calculator import calculate
from .calculator import evaluate as evaluate
from .calculator import filtered_eval_flaw as filtered_eval_flaw
from .calculator import seed_filter as seed_filter
from .errors import CourseError
from .privacy import WebScreen, course_carriers, screen_for
from .prompts import format_context
from .results import Passage

if TYPE_CHECKING:
    from .web import WebSearchProvider

# --------------------------------------------------------------------------- schemas


def _function(name: str, description: str, properties: dict[str, dict[str, str]],
              required: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(required),
                       "additionalProperties": False}}}


#: The OpenAI function schemas the agent offers. The descriptions are prompts: they tell the model
#: *when* to use each tool and how specific a query should be.
TOOL_SCHEMAS: list[dict[str, Any]] = [
    _function(
        "search_knowledge_base",
        "Search the company's internal documents that the current user may read: financial reports, budgets, "
        "sales reports, policies, contracts, minutes. Use it for every fact about the company. Ask for ONE "
        "specific fact per call and name the period and the subject, e.g. 'annual leave days for part-time "
        "staff' or 'reasons for the 2023 change to the leave policy' — not 'HR information'. Returns passages with labels to cite.",
        {"query": {"type": "string", "description": "A specific search query for one fact."}},
        ("query",),
    ),
    _function(
        "calculate",
        "Evaluate an arithmetic expression exactly. Use it for every subtraction, sum, ratio or percentage "
        "instead of doing arithmetic yourself. Numbers, + - * / ( ), ** and percentages ('12%', '12% of 50'); "
        "no variables or units. Example: '120 - 95.5'.",
        {"expression": {"type": "string", "description": "The arithmetic expression, e.g. '12.5 * 4'."}},
        ("expression",),
    ),
    _function(
        "get_order_status",
        "Look up customer orders and their shipments in the order-management system, which the documents do "
        "not contain: order date, product, amount, order status, carrier, tracking number, expected and actual "
        "delivery date. Use it for questions about orders, deliveries and shipments. Only the customers the "
        "current user may see are searched.",
        {
            "customer": {"type": "string", "description": "Customer name or id, e.g. 'Acme Bakery' or "
                         "'C-0042'; leave empty for all customers you can see."},
            "order_id": {"type": "string", "description": "An order id such as 'ORD-00123', if known."},
            "product": {"type": "string", "description": "Only orders of this product, e.g. 'KX-50'; the reply "
                        "adds up units and amounts of the orders it lists."},
            "placed_after": {"type": "string", "description": "Earliest order date, inclusive: YYYY-MM-DD or a "
                             "phrase such as 'last week' or 'this month'."},
            "placed_before": {"type": "string", "description": "Latest order date, inclusive: YYYY-MM-DD or a "
                              "phrase such as 'last week'."},
            "status": {"type": "string", "description": "Only orders or shipments with this status: open, "
                       "shipped, in_transit, delayed, delivered, cancelled or returned."},
        },
        (),
    ),
    _function(
        "web_search",
        "Search public web pages: news, market reports, competitors' announcements, regulators. Use it only for "
        "public information that internal documents cannot hold, e.g. 'average price of an industrial "
        "oven 2024'. The query leaves the company: write it from the question's public terms only — never "
        "customer names, order details or figures from internal documents.",
        {"query": {"type": "string", "description": "A specific query about public information."}},
        ("query",),
    ),
]


# --------------------------------------------------------------------------- executing tool calls

SearchFunction = Callable[[str, str], list[Passage]]  # (query, user_id) → passages the user may read
OrdersFunction = Callable[..., str]  # (user_id, **arguments) → a text report


@dataclass
class Observation:
    """The result of one tool call: what the model reads, and what the trace records besides."""

    content: str
    args: dict[str, Any] = field(default_factory=dict)
    passages: list[Passage] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: bool = False
    cached: bool = False


class SearchCache:
    """A bounded LRU cache of search results.

    The key is ``(tool, normalised query, scope)``, where the scope of an internal search is
    ``kb.cache_key(user)`` — the user *and* the permission and content versions. A cache keyed by
    the query alone would hand one user's results to the next (the articles' warning), and one that
    ignored the permission version would keep serving a document after access to it was revoked.
    """

    def __init__(self, max_entries: int = 1024) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[tuple[str, str, str], list[Passage]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: tuple[str, str, str]) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[tuple[str, str, str]]:
        return iter(list(self._entries))

    def get(self, key: tuple[str, str, str]) -> list[Passage] | None:
        if key in self._entries:
            self._entries.move_to_end(key)
            return list(self._entries[key])
        return None

    def put(self, key: tuple[str, str, str], passages: list[Passage]) -> None:
        self._entries[key] = list(passages)
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


#: The process-wide cache of the course's own searches (safe to share: the key carries user and permissions).
SEARCH_CACHE = SearchCache()

#: Tools whose results are internal text: nothing read from them may go out in a web query.
_INTERNAL_TOOLS = ("search_knowledge_base", "get_order_status")

#: Argument names a model might use to choose whose permissions apply.
_IDENTITY_ARGUMENT = re.compile(r"user|^as_|as_user|role|identity|account|impersonat|behalf|acting|login|principal|"
                                r"group|permission|clearance", re.I)


#: A knowledge-base query made only of a one-part question's words, and of at least this share of them, restates
#: the question, and the question is searched instead.
RESTATES = 0.8
#: A question in several parts: a second question after "and" ("..., and what is its address?") or a second sentence.
_SECOND_PART = re.compile(r"\b(?:and|also|then)\s+(?:what|which|who|whose|when|where|why|how|is|are|does|do|did|"
                          r"can|should|will)\b|[.?!]\s+\S", re.I)


def restates(query: str, question: str) -> bool:
    """Whether ``query`` is a one-part question in fewer words ("protection Contoso offer balance billing").

    Such key words embed worse than the sentence they come from (Northwind dev: the truth page's vector rank fell
    from 1 to 5-11), and BM25 scores the same terms either way. The search for one part of a question in several
    parts holds most of its words too, but the question's other part would pull in passages about that, so it is
    searched as written.
    """
    words, asked = set(tokenize(query)), set(tokenize(question))
    return (bool(words) and words <= asked and len(words) >= RESTATES * len(asked)
            and not _SECOND_PART.search(question.strip()))


def normalise_query(query: str) -> str:
    """Lower-case, single spaces, no surrounding punctuation: "Q3  gross margin?" and "q3 gross margin" are one key."""
    return " ".join(re.sub(r"[^\w%.\-/]+", " ", query.lower()).split())


def course_search(query: str, user_id: str, asked: str = "") -> list[Passage]:
    """The knowledge-base search of notebooks 03 and 05 (permission filter inside), imported only when used."""
    from .pipeline import search_knowledge_base

    return search_knowledge_base(query, user_id, asked=asked)


def _course_scope(user_id: str) -> str:
    from .index import get_kb

    return get_kb().cache_key(user_id)


def _course_orders(user_id: str, **arguments: str | None) -> str:
    from .orders import get_order_status

    return get_order_status(user_id, **arguments)


def _course_users() -> dict[str, str]:
    from .corpus import course

    return {u.user_id: u.name for u in course().users.values()}


class ToolBox:
    """Runs the model's tool calls for one session user.

    ``search``, ``web`` and ``orders`` default to the course's knowledge base, the configured web
    search (:func:`ragcourse.web.get_web_search`) and the orders database; tests and notebooks pass their own. The course's search
    shares :data:`SEARCH_CACHE` (its scope is ``kb.cache_key(user)``); a custom ``search`` gets a
    private cache unless ``cache`` and ``scope`` are given, since its results may depend on more
    than the user.
    """

    def __init__(self, user_id: str, *, search: SearchFunction | None = None, web: WebSearchProvider | None = None,
                 orders: OrdersFunction | None = None, cache: SearchCache | None = None,
                 scope: Callable[[str], str] | None = None, known_users: Mapping[str, str] | None = None) -> None:
        self.user_id = user_id
        self._search = search or self._course_search
        self._asked_in_key = search is None  # the course's search reads the question, so its cache key holds it
        self._scope = scope or (_course_scope if search is None else str)
        self.cache = cache if cache is not None else (SEARCH_CACHE if search is None else SearchCache())
        self._web = web
        self._orders = orders or _course_orders
        self._known_users = known_users
        self._seen: set[tuple[str, str, str]] = set()
        self._handlers: dict[str, Callable[[dict[str, str]], Observation]] = {
            "search_knowledge_base": self._search_knowledge_base, "calculate": self._calculate,
            "get_order_status": self._get_order_status, "web_search": self._web_search,
        }
        self._parameters = {s["function"]["name"]: s["function"]["parameters"] for s in TOOL_SCHEMAS}
        self._course_orders = orders is None
        self.web_screen: WebScreen | None = None
        self.question = ""

    def begin(self, question: str, organisation: str | None = None) -> None:
        """A new question: web queries may carry its public terms (and the organisation's name), and nothing
        from the internal text this question's tool calls will read (see :mod:`ragcourse.privacy`)."""
        self.question = question
        carriers = course_carriers() if self._course_orders else []
        self.web_screen = screen_for(question, private_names=None if self._course_orders else frozenset(),
                                     public_names=[*carriers, *([organisation] if organisation else [])])

    def _course_search(self, query: str, user_id: str) -> list[Passage]:
        """The course's search, told the question the query was written for: it names the document that a query
        for one part of the question leaves out."""
        return course_search(query, user_id, asked=self.question)

    def _web_screen(self) -> WebScreen:
        if self.web_screen is None:
            self.begin("")
        return self.web_screen

    def execute(self, name: str, arguments: str | None) -> Observation:
        """Run one tool call; every problem becomes an observation that tells the model what to fix."""
        if name not in self._handlers:
            return Observation(f"Error: there is no tool named {name!r}. Available tools: "
                               f"{', '.join(self._handlers)}.", error=True)
        try:
            raw = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            return Observation(f"Error: the arguments of {name} are not valid JSON ({exc.msg} at character "
                               f"{exc.pos}). Call {name} again with a JSON object.", {"raw": arguments}, error=True)
        if not isinstance(raw, dict):
            return Observation(f"Error: the arguments of {name} must be a JSON object, not {type(raw).__name__}.",
                               {"raw": arguments}, error=True)
        args, notes = self._screen(name, raw)
        missing = [p for p in self._parameters[name]["required"] if not args.get(p)]
        if missing:
            return Observation(f"Error: {name} needs a non-empty {missing[0]!r} argument.", args, notes=notes,
                               error=True)
        try:
            observation = self._handlers[name](args)
        except CourseError as exc:
            observation = Observation(f"Error: {exc}", error=True)
        if name in _INTERNAL_TOOLS and not observation.error:
            self._web_screen().see(observation.content)
        observation.args, observation.notes = {**args, **observation.args}, notes + observation.notes
        return observation

    def _screen(self, name: str, raw: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
        """Keep the schema's arguments (as text); drop the rest, and note every attempt to name a user."""
        properties = self._parameters[name]["properties"]
        args: dict[str, str] = {}
        notes: list[str] = []
        for key, value in raw.items():
            if key not in properties:
                why = "tools always run as the session's user" if _IDENTITY_ARGUMENT.search(key) else "not a parameter"
                notes.append(f"ignored argument {key}={value!r} ({why}: {self.user_id})")
            elif value is not None and not isinstance(value, dict | list):
                args[key] = str(value).strip()
        known = self._known_users if self._known_users is not None else _course_users()
        for key, value in args.items():
            for other, full_name in known.items():
                if other != self.user_id and re.search(rf"\b({re.escape(other)}|{re.escape(full_name)})\b", value,
                                                       re.I):
                    notes.append(f"argument {key}={value!r} names user {other}; ignored: the tool runs as "
                                 f"{self.user_id}")
        return args, notes

    def _cached_search(self, tool: str, query: str, scope: str, run: Callable[[], list[Passage]],
                       asked: str = "") -> Observation:
        """De-duplication: a search seen before for the same scope (and question ``asked``, when the search reads
        it) is answered from the cache."""
        key = (tool, normalise_query(query) + (f" | asked: {normalise_query(asked)}" if asked else ""), scope)
        repeated = key in self._seen
        self._seen.add(key)
        passages = self.cache.get(key)
        cached = passages is not None
        if passages is None:
            passages = run()
            self.cache.put(key, passages)
        content = format_context(passages) if passages else f"No results for {query!r}."
        notes = []
        if repeated:
            notes.append(f"repeated {tool}({query!r}) in this run: answered from the cache")
            content = "You already ran this search; the result is unchanged. Use it or answer.\n\n" + content
        elif cached:
            notes.append(f"{tool}({query!r}) answered from the cache (scope {scope})")
        return Observation(content, passages=passages, notes=notes, cached=cached)

    def _search_knowledge_base(self, args: dict[str, str]) -> Observation:
        query = self.question if self.question and restates(args["query"], self.question) else args["query"]
        observation = self._cached_search("search_knowledge_base", query, self._scope(self.user_id),
                                          lambda: self._search(query, self.user_id),
                                          self.question if self._asked_in_key else "")
        if query != args["query"]:
            observation.args["searched"] = query
        return observation

    def _web_search(self, args: dict[str, str]) -> Observation:
        from .web import check_enabled, get_web_search

        if self._web is None:
            self._web = get_web_search()
        web = self._web
        check_enabled(web)
        query, removed = self._web_screen().screen(args["query"])
        notes = [f"web query screened: removed {', '.join(removed)} (internal or private terms)"] if removed else []
        if not query.strip():
            return Observation("Web search skipped: the query held only internal or private terms. Search the "
                               "web with the question's public words only.", {"sent": ""}, notes=notes, error=True)
        observation = self._cached_search("web_search", query, f"public:{web.name}", lambda: web.search(query))
        observation.args, observation.notes = {"sent": query}, notes + observation.notes
        return observation

    def _calculate(self, args: dict[str, str]) -> Observation:
        content = calculate(args["expression"])
        return Observation(content, error=content.startswith("Cannot calculate"))

    def _get_order_status(self, args: dict[str, str]) -> Observation:
        return Observation(self._orders(self.user_id, **args))
