"""The agent's tools: their OpenAI function schemas, a safe calculator, and the ToolBox that runs them.

Two rules shape this module. First, the model only *proposes* tool calls; the program
executes them, and the program — never the model — decides whose permissions apply: the
ToolBox is built for the session's user, and any argument that names another user is
ignored and written into the trace. Second, a tool never raises into the agent loop for
bad input: malformed JSON, unknown tools and refused expressions come back to the model
as an observation it can correct, because a crash teaches the model nothing.
"""

from __future__ import annotations

import ast
import json
import math
import operator
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import CourseError
from .prompts import format_context
from .results import Passage

if TYPE_CHECKING:
    from .web import WebSearchProvider

# --------------------------------------------------------------------------- calculator

#: Limits that keep every calculation instant: inputs this long, exponents this large or results
#: with this many digits are refused before any work is done.
MAX_EXPRESSION_CHARS = 200
MAX_EXPONENT = 1000
MAX_RESULT_DIGITS = 100
MAX_RESULT = 10.0**MAX_RESULT_DIGITS

_SYMBOLS = {"×": "*", "÷": "/", "−": "-", "–": "-", "^": "**"}
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_NUMBER = r"(\d+(?:\.\d*)?|\.\d+)"
_PERCENT_OF = re.compile(_NUMBER + r"\s*%\s*of\b", re.I)
# A "%" is a percent sign only when no operand follows it ("12%", "12% + 3"); "7 % 2" stays a (refused) modulo.
_PERCENT = re.compile(_NUMBER + r"\s*%(?!\s*[\d.(])")
_OPERATORS: dict[type[ast.AST], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_REFUSED_NODES = {
    ast.Name: "names such as {name!r} are not allowed: write the numbers themselves",
    ast.Attribute: "attribute access is not allowed",
    ast.Call: "function calls are not allowed",
    ast.Subscript: "indexing is not allowed",
    ast.Tuple: "a comma separates two values: write one expression (thousands separators need groups of 3 digits)",
}


class CalculationError(ValueError):
    """An expression the calculator refuses; the message says why in one line."""


def _normalise(expression: str) -> str:
    """Turn the ways people (and models) write arithmetic into Python syntax: ×, ÷, −, ^, 1,234, 12%, 12% of 50."""
    text = expression.strip()
    for symbol, python in _SYMBOLS.items():
        text = text.replace(symbol, python)
    text = _THOUSANDS.sub("", text)
    text = _PERCENT_OF.sub(r"(\1/100)*", text)
    return _PERCENT.sub(r"(\1/100)", text)


def _digits(value: float) -> float:
    """How many decimal digits ``abs(value)`` has before the point (log10), without computing it."""
    return math.log10(abs(value)) if value else 0.0


def _power(base: float, exponent: float) -> float:
    """``base ** exponent``, refused *before* computing when the exponent or the result would be too large."""
    if abs(exponent) > MAX_EXPONENT:
        raise CalculationError(f"the exponent {exponent:g} is too large (the limit is {MAX_EXPONENT})")
    if base and exponent > 0 and exponent * _digits(base) > MAX_RESULT_DIGITS:
        raise CalculationError(f"the result would have about {exponent * _digits(base):,.0f} digits "
                               f"(the limit is {MAX_RESULT_DIGITS})")
    if base < 0 and not float(exponent).is_integer():
        raise CalculationError("a negative number to a fractional power is not a real number")
    if base == 0 and exponent < 0:
        raise CalculationError("zero to a negative power is a division by zero")
    return base**exponent


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise CalculationError(f"only numbers are allowed, not {type(node.value).__name__} {node.value!r}")
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow):
            result = _power(left, right)
        elif isinstance(node.op, ast.Div) and right == 0:
            raise CalculationError("division by zero")
        else:
            result = _OPERATORS[type(node.op)](left, right)
        if abs(result) > MAX_RESULT or (isinstance(result, float) and not math.isfinite(result)):
            raise CalculationError(f"the result is larger than 1e{MAX_RESULT_DIGITS}")
        return result
    if isinstance(node, ast.BinOp):
        raise CalculationError(f"the operator {type(node.op).__name__} is not supported: use + - * / ** and %")
    for kind, message in _REFUSED_NODES.items():
        if isinstance(node, kind):
            raise CalculationError(message.format(name=getattr(node, "id", "")))
    raise CalculationError(f"{type(node).__name__} is not allowed in a calculation")


def evaluate(expression: str) -> float:
    """The value of an arithmetic expression, computed by walking its syntax tree (never ``eval``).

    Numbers, + − × ÷, parentheses, unary minus, ``**`` (or ``^``) within limits, ``12%`` (0.12) and
    ``12% of 50``. Everything else — names, attributes, calls, strings — is refused with a
    :class:`CalculationError`, and so is any power whose result would be huge, *before* it is computed.
    """
    if not expression.strip():
        raise CalculationError("the expression is empty")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CalculationError(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    try:
        tree = ast.parse(_normalise(expression), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise CalculationError(f"it is not a valid arithmetic expression ({getattr(exc, 'msg', exc)})") from None
    return _evaluate(tree)


def format_number(value: float) -> str:
    """A result as people write it: at most 10 significant digits, no trailing zeros (3.1, not 3.1000000000000014)."""
    if isinstance(value, int):
        return str(value)
    rounded = float(f"{value:.10g}")
    if rounded == 0:
        return "0"
    if 1e-6 <= abs(rounded) < 1e15:
        decimals = max(0, 9 - math.floor(math.log10(abs(rounded))))
        return f"{rounded:.{decimals}f}".rstrip("0").rstrip(".")
    return f"{rounded:.10g}"


def calculate(expression: str) -> str:
    """The calculator tool: ``"45.2 - 42.1 = 3.1"``, or a one-line refusal the model can act on."""
    try:
        return f"{expression.strip()} = {format_number(evaluate(expression))}"
    except CalculationError as exc:
        return f"Cannot calculate {expression.strip()[:80]!r}: {exc}."


# --------------------------------------------------------------------------- the articles' flawed calculator

#: The characters the articles' calculator keeps before calling ``eval``.
SEED_ALLOWED_CHARS = frozenset("0123456789.+-*/() ")
#: CPython stores 30 bits of an int in 4 bytes: log2(10) / 30 * 4 bytes per decimal digit.
_BYTES_PER_DIGIT = math.log2(10) / 30 * 4


@dataclass(frozen=True)
class FilteredEvalFlaw:
    """Why "keep only digits and operators, then ``eval``" is not safe: what the filter lets through."""

    expression: str
    filtered: str
    passes_filter: bool
    steps: tuple[str, ...]

    def __str__(self) -> str:
        verdict = "passes the filter unchanged" if self.passes_filter else f"is filtered to {self.filtered!r}"
        return "\n".join([f"{self.expression!r} {verdict}.", *self.steps])


def seed_filter(expression: str) -> str:
    """The articles' sanitiser: drop every character except digits, ``.+-*/()`` and spaces."""
    return "".join(ch for ch in expression if ch in SEED_ALLOWED_CHARS)


def filtered_eval_flaw(expression: str = "9**9**9**9") -> FilteredEvalFlaw:
    """Show, without evaluating it, how big a power tower that survives the filter would be.

    ``**`` is right-associative, so ``9**9**9**9`` is ``9**(9**(9**9))``. We follow the tower
    from the top and keep only logarithms: the digit count of each level is ``exponent ·
    log10(base)``. The calculator above refuses the same input at once, because it checks the
    size of every power before computing it.
    """
    filtered = seed_filter(expression)
    try:
        bases = [float(part) for part in filtered.replace(" ", "").split("**")]
    except ValueError:
        raise CourseError(f"{expression!r} is not a power tower like 9**9**9**9.") from None
    if len(bases) < 2 or any(b <= 1 for b in bases):
        raise CourseError(f"{expression!r} is not a power tower of numbers above 1, like 9**9**9**9.")
    value, log_digits = bases[-1], None  # the exact value while it is small, then log10(number of digits)
    steps = []
    for base in reversed(bases[:-1]):
        if log_digits is None and value * math.log10(base) < 15:
            value = base**value
            steps.append(f"{format_number(base)}**{format_number(bases[-1]) if len(steps) == 0 else '…'}"
                         f" = {format_number(value)}")
        elif log_digits is None:
            digits = value * math.log10(base)
            log_digits = math.log10(digits)
            memory = digits * _BYTES_PER_DIGIT
            steps.append(f"{format_number(base)}**… has about {digits:,.0f} digits"
                         + (f" (~{memory / 1e6:,.0f} MB as a Python int)" if memory >= 1e6 else ""))
        else:
            # digits(base**x) = x * log10(base), and x has 10**log_digits digits, so log10 of the new digit count
            # is about 10**log_digits: the size of the tower grows by one exponential per level.
            log_digits = 10**log_digits + math.log10(math.log10(base)) if log_digits < 300 else math.inf
            size = f"about 10^{log_digits:,.0f} digits" if math.isfinite(log_digits) else "too many digits to write"
            steps.append(f"{format_number(base)}**… has {size}: no computer can hold it, so eval() never returns")
    return FilteredEvalFlaw(expression, filtered, filtered == expression, tuple(steps))


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
        "specific fact per call and name the period and the metric, e.g. 'Q3 2024 gross margin' or 'reasons "
        "for the Q3 2024 gross margin increase' — not 'financial data'. Returns passages with labels to cite.",
        {"query": {"type": "string", "description": "A specific search query for one fact."}},
        ("query",),
    ),
    _function(
        "calculate",
        "Evaluate an arithmetic expression exactly. Use it for every subtraction, sum, ratio or percentage "
        "instead of doing arithmetic yourself. Numbers, + - * / ( ), ** and percentages ('12%', '12% of 50'); "
        "no variables or units. Example: '45.2 - 42.1'.",
        {"expression": {"type": "string", "description": "The arithmetic expression, e.g. '45.2 - 42.1'."}},
        ("expression",),
    ),
    _function(
        "get_order_status",
        "Look up customer orders and their shipments in the order-management system, which the documents do "
        "not contain: order date, product, amount, order status, carrier, tracking number, expected and actual "
        "delivery date. Use it for questions about orders, deliveries and shipments. Only the customers the "
        "current user may see are searched.",
        {
            "customer": {"type": "string", "description": "Customer name or id, e.g. 'Halvorsen Marine' or "
                         "'C-1001'; leave empty for all customers you can see."},
            "order_id": {"type": "string", "description": "An order id such as 'ORD-24871', if known."},
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
        "public information that internal documents cannot hold, e.g. 'Veltrix VX-9 launch price'. Never put "
        "confidential internal figures into the query.",
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

#: Argument names a model might use to choose whose permissions apply.
_IDENTITY_ARGUMENT = re.compile(r"user|^as_|as_user|role|identity|account|impersonat|behalf|acting|login|principal|"
                                r"group|permission|clearance", re.I)


def normalise_query(query: str) -> str:
    """Lower-case, single spaces, no surrounding punctuation: "Q3  gross margin?" and "q3 gross margin" are one key."""
    return " ".join(re.sub(r"[^\w%.\-/]+", " ", query.lower()).split())


def course_search(query: str, user_id: str) -> list[Passage]:
    """The knowledge-base search of notebooks 03 and 05 (permission filter inside), imported only when used."""
    from .pipeline import search_knowledge_base

    return search_knowledge_base(query, user_id)


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
        self._search = search or course_search
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
        observation.args, observation.notes = args, notes + observation.notes
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

    def _cached_search(self, tool: str, query: str, scope: str, run: Callable[[], list[Passage]]) -> Observation:
        """De-duplication: a search seen before for the same scope is answered from the cache."""
        key = (tool, normalise_query(query), scope)
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
        query = args["query"]
        return self._cached_search("search_knowledge_base", query, self._scope(self.user_id),
                                   lambda: self._search(query, self.user_id))

    def _web_search(self, args: dict[str, str]) -> Observation:
        if self._web is None:
            from .web import get_web_search

            self._web = get_web_search()
        web, query = self._web, args["query"]
        return self._cached_search("web_search", query, f"public:{web.name}", lambda: web.search(query))

    def _calculate(self, args: dict[str, str]) -> Observation:
        content = calculate(args["expression"])
        return Observation(content, error=content.startswith("Cannot calculate"))

    def _get_order_status(self, args: dict[str, str]) -> Observation:
        return Observation(self._orders(self.user_id, **args))
