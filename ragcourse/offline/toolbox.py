"""Understanding the tools a request offers, from their schemas: descriptions and parameters, never names.

The offline model knows four roles a tool can play (:data:`ROLES`): searching internal
documents, calculating, looking up records such as orders, and searching the public web.
A tool's role is decided the way a reader of its schema would:

1. its description (or, without one, its parameters' descriptions) is compared by *meaning*
   with short descriptions of each kind of work (cosine similarity of the embedding model's
   vectors; both sides are remembered, so a request pays only for tools it has not sent before);
2. tools that look things up are told apart by *where* they look: the description's similarity
   to "the public internet" minus its similarity to "internal documents" adds to the web role
   and takes from the search role (MiniLM puts "search the internet" and "search our documents"
   close together; the difference of the two separates them);
3. its parameters add evidence of their own (:data:`PARAMETER_HINTS`): an ``expression``
   is for calculating, a ``customer`` or ``order_id`` for looking up records, a ``url``
   for the web, a free-text ``query`` for searching;
4. roles are handed out best match first, one tool per role and one role per tool; a tool
   that matches no role well is left alone, except that without any search tool the best
   tool with a free-text parameter is used to search.

The function's name plays no part: a tool called ``calc`` or ``zeta`` is what its schema says.
Its JSON-schema parameters are then filled by their names and descriptions (a "query", an
"expression", a "customer", a start or end "date").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import numpy as np

from .dates import WEEKDAY, expand_spans, period_range, relative_range, resolve_relative
from .framing import SOURCE_ASIDE
from .meaning import embed_remembered
from .text import STOPWORDS, find_periods, stem, word_set

#: Kinds of work, each in a few plain phrasings (compared by meaning with a tool's description).
WORK: dict[str, tuple[str, ...]] = {
    "finding": ("Search documents for a fact.", "Search the knowledge base.",
                "Find passages in a handbook, wiki, manual or internal files that answer a question.",
                "Retrieve relevant text for a query.", "Search the internet.",
                "Search the public web for news and websites."),
    "calculating": ("Calculate the result of a math expression.",
                    "Do arithmetic: add, subtract, multiply, divide numbers."),
    "records": ("Look up a customer's orders and their shipping or delivery status.",
                "Get a record from a database by its id, customer name, status or date."),
}
#: Where a finding tool looks: public (the web role) or internal (the search role).
PLACES: dict[str, tuple[str, ...]] = {
    "public": ("the public internet: web pages, online news, search engines", "the open web"),
    "internal": ("our own internal documents, files, handbook, wiki, archive", "private company records"),
}
ROLES = ("search", "calculator", "orders", "web")
#: Parameter names that are evidence for a role, and how much.
PARAMETER_HINTS: dict[str, tuple[str, float]] = {
    "search": (r"query|question|keywords?|search|topic|terms?", 0.1),
    "calculator": (r"expr(?:ession)?|formula|equation|math|calculation", 0.3),
    "orders": (r"customer|client|order|account|status|tracking|shipment|placed|booking|record_?id", 0.15),
    "web": (r"url|site|domain|website", 0.2),
}
#: Below this score a tool is not taken for a role.
MIN_ROLE_SCORE = 0.3


@dataclass(frozen=True)
class Tool:
    """An offered function tool and the kind the offline model takes it for."""

    name: str
    role: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def properties(self) -> dict[str, Any]:
        properties = self.parameters.get("properties", {}) if isinstance(self.parameters, dict) else {}
        return properties if isinstance(properties, dict) else {}


def function_of(spec: dict[str, Any]) -> dict[str, Any]:
    """The ``function`` part of a tool spec (or the spec itself, for the flat form some clients send)."""
    function = spec.get("function", spec) if isinstance(spec, dict) else {}
    return function if isinstance(function, dict) else {}


def _parameter_evidence(role: str, function: dict[str, Any]) -> float:
    pattern, weight = PARAMETER_HINTS[role]
    properties = Tool("", "", "", function.get("parameters") or {}).properties
    return weight if any(re.search(pattern, key, re.I) for key in properties) else 0.0


def _about(function: dict[str, Any]) -> str:
    """What the tool says it does: its description, or else its parameters' descriptions."""
    description = str(function.get("description") or "").strip()
    if description:
        return description
    properties = Tool("", "", "", function.get("parameters") or {}).properties
    return " ".join(str(p.get("description") or "") for p in properties.values() if isinstance(p, dict)).strip()


def _closeness(vectors: np.ndarray, phrases: tuple[str, ...]) -> np.ndarray:
    """Each vector's similarity to the closest of the phrases."""
    return (vectors @ embed_remembered(list(phrases)).T).max(axis=1)


def role_scores(tools: list[dict[str, Any]]) -> np.ndarray:
    """One row per tool, one column per role in :data:`ROLES`: meaning plus parameter evidence."""
    functions = [function_of(spec) for spec in tools]
    texts = [_about(f) for f in functions]
    scores = np.zeros((len(tools), len(ROLES)), dtype=np.float32)
    described = [i for i, text in enumerate(texts) if text]
    if described:
        vectors = embed_remembered([texts[i] for i in described])
        finding = _closeness(vectors, WORK["finding"])
        public = _closeness(vectors, PLACES["public"]) - _closeness(vectors, PLACES["internal"])
        scores[described] = np.stack([finding - public, _closeness(vectors, WORK["calculating"]),
                                      _closeness(vectors, WORK["records"]), finding + public], axis=1)
    for i, function in enumerate(functions):
        scores[i] += [_parameter_evidence(role, function) for role in ROLES]
    return scores


def classify(tools: list[dict[str, Any]]) -> dict[str, Tool]:
    """The best tool for each role among the offered function tools (roles without a tool are absent).

    Roles are handed out best match first, one tool per role and one role per tool: a web search reads as a
    search tool too, but once the knowledge base has taken that role it is still the best web tool.
    """
    if not tools:
        return {}
    scores = role_scores(tools)
    pairs = sorted(((float(scores[i, r]), -i, role, i) for i in range(len(tools)) for r, role in enumerate(ROLES)),
                   reverse=True)
    chosen: dict[str, Tool] = {}
    taken: set[int] = set()
    for value, _, role, i in pairs:
        if value < MIN_ROLE_SCORE or role in chosen or i in taken:
            continue
        chosen[role] = _tool(tools[i], role)
        taken.add(i)
    if "search" not in chosen:  # a tool that takes free text, whatever it says it does, is the best way to look
        free = [i for i in range(len(tools)) if i not in taken and _takes_text(_tool(tools[i], "search"))]
        if free:
            chosen["search"] = _tool(tools[max(free, key=lambda i: scores[i, 0])], "search")
    return chosen


def _tool(spec: dict[str, Any], role: str) -> Tool:
    function = function_of(spec)
    parameters = function.get("parameters") or {}
    return Tool(str(function.get("name", "")), role, str(function.get("description") or ""),
                parameters if isinstance(parameters, dict) else {})


def _main_text_parameter(tool: Tool) -> str | None:
    """The parameter that takes the free text (a query or an expression)."""
    props = tool.properties
    for key in props:
        if re.search(r"query|question|expression|expr|formula|text|search|keywords|input", key, re.I):
            return key
    required = [k for k in tool.parameters.get("required", []) or [] if isinstance(props.get(k), dict)
                and props[k].get("type", "string") == "string"]
    return required[0] if required else next(iter(props), None)


def _takes_text(tool: Tool) -> bool:
    key = _main_text_parameter(tool)
    return key is not None and isinstance(tool.properties[key], dict) and \
        tool.properties[key].get("type", "string") == "string"


def text_arguments(tool: Tool, text: str) -> dict[str, Any]:
    """Arguments for a search or calculator tool: the text goes into its query/expression parameter."""
    key = _main_text_parameter(tool)
    return {key: text} if key else {}


#: A parameter that names whose records to list: "customer", "client_id", "account".
CUSTOMER_KEY = re.compile(r"customer|client|account|company|buyer", re.I)


#: A capitalised word, with dots inside it or after a short abbreviation ("St. Ives"); "Chemicals." ends a sentence:
#: "... Chemicals. According to ...".
_CAPITALISED = r"[A-Z][\w&-]*(?:\.(?=\w)[\w&-]*)*(?:(?<=\b[A-Z][a-z])\.|(?<=\b[A-Z][a-z]{2})\.)?"


#: "has Brightwater Utilities ordered", "did Sable Rail buy": the name between the auxiliary and the verb of ordering.
_ORDERING_SUBJECT = re.compile(rf"\b(?:did|has|have|had|does|do|will)\s+({_CAPITALISED}(?:\s+{_CAPITALISED})*)\s+"
                               r"(?:order|buy|purchase|place|receive|book)\w*\b")


def customer_name(question: str) -> str:
    """A customer named in the question: a run of capitalised words that is not the sentence's first word (a single
    word that opens the sentence, "Sum up ...", "Brightwater ...", only when no other run names one); else the
    owner of the orders asked about, however it is written ("oakridge's latest order")."""
    skip = {"Has", "Have", "Did", "Is", "Was", "When", "Where", "What", "Which", "Our", "The", "I", "One", "Two", "Any",
            "Each", "Every", "All", "Some", "My", "Their", "Your", "For", "Whose"}
    opening = ""
    ordering = _ORDERING_SUBJECT.search(question)
    if ordering and ordering[1].split()[0] not in skip:  # "how many Aurora gateways has Brightwater Utilities
        # ordered?": who ordered, not what (not "did I order", "have Our ...")
        return ordering[1]
    for m in re.finditer(rf"\b{_CAPITALISED}(?:\s+{_CAPITALISED})*", question):
        run = m[0].split()
        opens = not question[:m.start()].strip() or re.search(r"[.!?]\s*$", question[:m.start()])
        if opens and run[0].lower() in STOPWORDS:
            run = run[1:]  # capitalised only because it opens the sentence: "How many orders did ..."
        words = [w for w in run if w not in skip and not re.fullmatch(WEEKDAY, w, re.I)]  # ("Mon 13 through Sun 19")
        code = next((i for i, w in enumerate(words) if re.search(r"\d", w)), None)
        words = words[:code] if code is not None else words  # "Sable Rail PX-7s": the customer, not the product
        if words and len(" ".join(words)) > 1 and not re.fullmatch(r"Q[1-4]|[A-Z]+-\d+", words[0]) \
                and not find_periods(words[0]):
            name = " ".join(words).removesuffix("'s").removesuffix("'")
            possessive = question[m.end():m.end() + 2] in ("'s", "’s")  # "Brightwater's finance director ..."
            if not (opens and len(run) == 1) or possessive:
                return name
            lowered = {stem(w) for w in re.findall(r"\b[a-z][\w-]*", question)}  # "Order intake ...: count of
            verb = re.match(rf"{re.escape(name)}\s+(?:a|an|the|we|you|I|that)\s", question)  # ("Say a $60,000 order
            # ...": a verb before its object)
            opening = opening or ("" if stem(name.lower()) in lowered or verb else name)  # orders": a word, not a name
    # "oakridge's latest order": whoever owns the orders, however it is written
    owner = _OWNER_OF_ORDERS.search(question)
    if opening or owner and owner[1].lower() not in STOPWORDS | _TIME_WORDS:
        return opening or owner[1]
    return _lowercase_customer(question)


#: Words around the orders that never name who placed them ("all", "open", "units", "last").
_NOT_A_NAME = word_set("""all open latest last recent newest next first pending delivered shipped cancelled delayed
total value count number units unit orders order shipments shipment deliveries delivery purchases purchase placed
amount status customer customers account accounts client clients our new big biggest largest""")
#: The nouns of what a buyer orders and receives.
_RECORDS = r"(?:orders?|shipments?|deliver(?:y|ies)|purchases?|parcels?|packages?|consignments?|invoices?)"
#: "did sable rail order", "orders from nordhavn ports", "oakridge chemicals orders": the buyer written in lowercase, by
#: its place around the verbs and nouns of ordering.
_LOWERCASE_BUYER = (
    # "cedar valley has an open gateway order": the buyer opens the sentence and has or placed the order
    re.compile(rf"^\W*((?:[a-z][\w&-]*\s+){{0,2}}[a-z][\w&-]*)\s+(?:has|have|had|placed|got)\s+(?:an?\s+|one\s+|"
               rf"its\s+|their\s+)?(?:[\w-]+\s+){{0,2}}{_RECORDS}\b"),
    re.compile(r"\b(?:did|has|have|had|does|do|will)\s+((?:[a-z][\w&-]*\s+){0,2}[a-z][\w&-]*)\s+"
               r"(?:order|buy|purchase|place|receive|get|book)\w*\b"),
    # "cedar valley procurement is querying the call-off they placed": the buyer's department speaks for it
    re.compile(r"^\W*((?:[a-z][\w&-]*\s+){0,2}[a-z][\w&-]*)\s+(?:procurement|purchasing|finance|accounts payable|"
               r"buyers?|ops)\s+(?:is|are|has|have|was|were|wants?|asked|asks|says?|said|emailed|called|team)\b"),
    re.compile(r"\b(?:ship|sen[dt]|deliver)\w*\s+(?:anything\s+|something\s+|much\s+)?to\s+(?:the\s+)?"
               r"((?:[a-z][\w&-]*\s+){0,2}[a-z][\w&-]*)"),
    re.compile(rf"\b{_RECORDS}\s+(?:placed\s+|sent\s+)?(?:from|for|by|to)\s+"
               r"(?:the\s+)?((?:[a-z][\w&-]*\s+){0,2}[a-z][\w&-]*)"),
    re.compile(r"\b(?:of|from|for|did|are|were|many|much|all|any)\s+(?:the\s+)?((?:[a-z][\w&-]*\s+){0,2}?[a-z][\w&-]*)"
               rf"\s+{_RECORDS}\b"))


def _lowercase_customer(question: str) -> str:
    """The buyer of a question written without capitals, read from where it stands ("did sable rail order"), its
    words trimmed of stopwords, times, codes and the vocabulary of ordering; "" when nothing is left."""
    def no_name(word: str) -> bool:
        return word in STOPWORDS | _TIME_WORDS | _NOT_A_NAME or bool(re.search(r"\d", word) or find_periods(word))

    lowered = question.lower()
    for pattern in _LOWERCASE_BUYER:
        for m in pattern.finditer(lowered):
            words = m[1].split()
            while words and no_name(words[0]):
                words = words[1:]
            cut = next((i for i, w in enumerate(words) if no_name(w)), len(words))
            if words[:cut]:
                return " ".join(words[:cut])
    return ""


#: "today's orders", "last month's shipments": a time owns nothing.
_TIME_WORDS = frozenset(["today", "yesterday", "tomorrow", "day", "week", "month", "quarter", "year", "weekend"])
_OWNER_OF_ORDERS = re.compile(r"\b([a-z][\w&-]+)['’]s\s+(?:(?:latest|last|most recent|newest|recent|open|next|first|big|"
                              r"biggest|large|largest|small|delayed|pending)\s+)?(?:\d[\d,]*[- ]units?\s+)?"
                              r"(?:[a-z]{1,4}-?\d[\w-]*\s+)?(?:orders?|shipments?|deliver(?:y|ies))\b", re.I)  # ("nordhavn's
#   LX-200 order", "sable rail's 504-unit px-7 order": its size and a product code may stand before the order)


def _codes(question: str) -> list[str]:
    """The codes a question writes ("LX-200", "ORD-24853"; "px7" as "PX7"), not periods ("Q4 FY24")."""
    return [m[0] if m[0][:2].isupper() else m[0].upper() for m in re.finditer(
        r"\b(?:[A-Z]{2,}|[a-z]{2,3})-?\d+[A-Za-z]?\b", question) if not find_periods(expand_spans(m[0]))]


def record_ids(tool: Tool, question: str) -> list[str]:
    """Every record id the question names ("compare ORD-24853 with ORD-24862"): each is looked up on its own."""
    id_key = next((key for key in tool.properties if re.search(_ID_KEY, key, re.I)), None)
    if not id_key:
        return []
    codes = _codes(question)
    found = [code for code in codes if _record_id(tool.properties[id_key], question, [code]) == code]
    first = _record_id(tool.properties[id_key], question, codes)
    return list(dict.fromkeys([first, *found])) if first and len(found) > 1 else [first] if first else []


def order_arguments(tool: Tool, question: str, today: date | None, record: str = "") -> dict[str, Any]:
    """Arguments for an orders tool, each filled from the question by what the parameter's name says (``record``:
    one of several record ids the question names, each asked on its own, by its id alone)."""
    question = SOURCE_ASIDE.sub(" ", question)  # ("(which covers June 2024 to January 2025)" dates no order)
    # ("placed last quarter": the quarter before today's, as the calendar names it)
    span = (relative_range(question, today) if today else None) or period_range(
        resolve_relative(question, today) if today else question, today)
    named = set(record_ids(tool, question)) if record else set()  # (the other ids are no product)
    codes = [c for c in _codes(question) if c not in named]
    args: dict[str, Any] = {}
    id_key = next((key for key in tool.properties if re.search(_ID_KEY, key, re.I)), None)
    record_id = record or (_record_id(tool.properties[id_key], question, codes) if id_key else "")
    # an order's id names the one record: its status and dates are what is asked ("which carrier shipped order X?"),
    # never a filter that could leave it out
    span = None if record_id else span
    for key, schema in tool.properties.items():
        words = f"{key} {schema.get('description', '')}".lower()
        kind = schema.get("type", "string")
        if CUSTOMER_KEY.search(key) and customer_name(question) and not record:
            args[key] = customer_name(question)
        elif key == id_key and record_id:
            args[key] = record_id
        elif re.search(r"product|item|sku|model", key, re.I) and (product := next(
                (c for c in codes if c != record_id), "")):
            args[key] = re.sub(r"(?<=\d)s$", "", product)  # "LX-200s": the product is "LX-200"
        elif span and re.search(r"start|from|since|after|begin", words) and "date" in words:
            args[key] = span[0].isoformat()
        elif span and re.search(r"\bend|\bto\b|until|before", words) and "date" in words:
            args[key] = span[1].isoformat()
        elif span and kind == "integer" and "day" in words:
            args[key] = (today - span[0]).days if today else 7
        elif re.search(r"status|state", key, re.I) and not record_id and (value := _status(schema, question)):
            args[key] = value
        elif re.search(r"query|question|text|description", key, re.I):
            args[key] = question
    return args


_ID_KEY = r"order.?id|order.?number|^id$|reference"


def _record_id(schema: dict[str, Any], question: str, codes: list[str]) -> str:
    """The code of the question that is a record id: one written like the parameter's own example ("such as
    'ORD-00123'"), or one the question calls an order ("order 5531-B"); a product code ("KX-50") is not one."""
    example = re.search(r"'([A-Za-z]+)-?\d", schema.get("description", "") or "")
    for code in codes:
        prefix = re.match(r"[A-Za-z]+", code)[0]
        if example and prefix.lower() == example[1].lower() or re.search(
                rf"\b(?:order|reference|ref|#)\s*(?:no\.?|number|id)?\s*{re.escape(code)}", question, re.I):
            return code
    return codes[0] if codes and not example else ""


#: How close in meaning a clause of the question must be to a status value ("running late" -> "delayed").
MIN_STATUS_MEANING = 0.55
#: "not", "never" and the contractions, with or without their apostrophe ("hasn't", "hasnt").
_NOT = r"\b(?:not|never|(?:has|have|had|is|are|was|were|do|does|did|ca|could|would|wo|should)n'?t)\b"
#: "net of any cancellations", "excluding returns": what follows is left out, never the records asked for.
_LEFT_OUT = r"\b(?:not counting|excluding|except|without|other than|apart from|ignoring|leaving out|net of)\s+(?:the\s+|any\s+)?"
_NEGATED = re.compile(rf"(?:{_NOT}\s+(?:yet\s+)?(?:been\s+|be\s+)?|{_LEFT_OUT}|\b(?:nothing|no|none)\s+)$")
#: "open orders included", "including the cancelled ones": a status counted among all the records, not a filter.
_ALSO_COUNTED = re.compile(r"\b(?:including|incl\.?|plus|as well as)\s+(?:the\s+|any\s+|all\s+)?$")
_COUNTED_TOO = re.compile(r"\s+(?:[a-z-]+\s+)?(?:included|too|as well|also counted|counted)(?=\s*(?:[,.;:)?!]|$))")
#: "has it arrived yet", "is the order delivered": the status is what is asked, not a filter.
_YES_NO = re.compile(r"\s*(?:(?:u+m+|u+h+|erm|so|oh|and)\s+)*(?:has|have|had|is|are|was|were|did|does|do|will)\s+"
                     r"(?:it|they|this|that|the|my|our|their)\b")  # (after a dictated "um")


#: A status word used as a verb with its object after it: "which carrier shipped it", "who delivered the order" (not
#: "delivered that week").
_DONE_TO = re.compile(r"\s+(?:it|them|the|their|its|our)\b")
#: "how was it shipped", "when were they delivered": how or when a record got there is asked, not a filter on status.
_ASKED_HOW = re.compile(r"\b(?:how|when|where|by whom)\s+(?:was|were|is|are|has|have|had|did|will)\s+"
                        r"(?:it|they|this|that|(?:the|their|its|our)\s+[\w-]+)\s+(?:been\s+|be\s+)?$")


def _status(schema: dict[str, Any], question: str) -> str:
    """The status value the question asks for, among those the parameter lists: named ("in transit" ->
    "in_transit"), else the one a clause of the question means ("running late" -> "delayed"). A negated status
    ("not shipped yet", "haven't been delivered") is never the one asked for."""
    listed = schema.get("enum") or re.findall(r"[a-z]+(?:_[a-z]+)*", (schema.get("description", "") or "").split(":")[-1])
    lowered = question.lower()
    negated = set()
    for value in listed:
        for m in re.finditer(rf"\b{re.escape(value.replace('_', ' '))}\b", lowered):
            if _NEGATED.search(lowered[:m.start()]):
                negated.add(value)
            elif _ALSO_COUNTED.search(lowered[:m.start()]) or _COUNTED_TOO.match(lowered[m.end():]):
                negated.add(value)  # ("open orders included, nothing cancelled": every record is counted)
            elif re.match(r"\s+yet\b", lowered[m.end():]) or re.search(r"\b(?:whether|if)\b[^,.;?]*$", lowered[:m.start()]):
                negated.add(value)  # "whether they have been delivered yet": the status is what is asked, not a filter
            elif _ASKED_HOW.search(lowered[:m.start()]) or _DONE_TO.match(lowered[m.end():]):
                negated.add(value)  # "how was it shipped?", "which carrier shipped it?": the carrier or date is
                # asked, not a filter
            elif re.search(r"\b(?:count|total|aggregate|sum|number)\b[^?]*\bhow many\b[^,;?]*$", lowered[:m.start()]):
                return ""  # "the count of orders, their total, and how many are delivered": counted among all the
                # records, not a filter on them
            else:
                return value
    if re.search(r"\bstatus(?:es)?\s+of\b|\bwhat(?:\s+is|'s|\s+are)\s+(?:the\s+|their\s+|its\s+)?status", lowered):
        return ""  # "which haven't arrived, and what's the status of each?": the status is the answer, no filter
    if re.search(r"\b(?:arrived|came|were delivered|was delivered|got there)\b[^,.;?]*\b(?:late|after)\b", lowered):
        return ""  # "which ones arrived after the promised date?": delivered records, not ones delayed on the way
    clauses = [c for c in re.split(r"[,;?]|\.\s|\bbut\b|\band\b|\bif\b|\s[-–—]\s", lowered) if c.strip()
               and not re.search(_NOT, c) and not re.search(_LEFT_OUT, c) and not _YES_NO.match(c) and not re.search(r"\byet\s*$", c)]  # "arrived yet?"
    described = set(re.findall(r"[a-z]+", (schema.get("description", "") or "").split(":")[0].lower()))  # "orders"
    records = "|".join(w.removesuffix("s") for w in described - STOPWORDS if w.endswith("s") and len(w) > 3)
    if not records or not re.search(rf"\b(?:{records})s\b|\b(?:which|any|all|every)\s+(?:[a-z-]+\s+)?(?:{records})\b",
                                    lowered):
        return ""  # "the delivery date of their order from 10 Jan": one record whose status is asked, none to filter
    words = [[w for w in re.findall(r"[a-z]+", c) if w not in STOPWORDS
              and not {w, w + "s", w.removesuffix("s")} & described] for c in clauses]
    pairs = list(dict.fromkeys(" ".join(ws[i:i + 2]) for ws in words for i in range(max(len(ws) - 1, 1)) if ws))
    options = [v for v in listed if v not in negated and v not in ("or", "and")]
    if not pairs or not options:
        return ""
    vectors = embed_remembered([*(v.replace("_", " ") for v in options), *pairs])
    cosines = vectors[len(options):] @ vectors[:len(options)].T
    row, column = np.unravel_index(int(cosines.argmax()), cosines.shape)
    return options[column] if cosines[row, column] >= MIN_STATUS_MEANING else ""


_ARITHMETIC = re.compile(r"[-+(]*\d[\d.,]*%?(?:\s*[-+*/×÷^]\s*[-+(]*\d[\d.,]*%?\)*)+")


def forced_arguments(tool: Tool, question: str, today: date | None) -> dict[str, Any]:
    """Arguments for a call the request insists on (``tool_choice`` "required" or the tool's name) when the policy
    had none to make: the question (or, for a calculator, the arithmetic written in it) in the free-text
    parameter, and every other parameter read from the question as for an orders tool."""
    args = order_arguments(tool, question, today) if tool.role == "orders" else {}
    arithmetic = _ARITHMETIC.search(question) if tool.role == "calculator" else None
    text = arithmetic[0].replace("×", "*").replace("÷", "/").replace(",", "") if arithmetic else question
    key = _main_text_parameter(tool)
    if key and key not in args and _takes_text(tool):
        args[key] = text
    return args
