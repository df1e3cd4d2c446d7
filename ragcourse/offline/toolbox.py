"""Understanding the tools a request offers, from their names and descriptions only.

The offline model knows four kinds of tool, and recognises them the way a reader would:
by the words in the tool's name and description ("knowledge base", "calculate",
"shipment", "public web" ...). Whatever a tool is called, the best-matching tool of each
kind is used, and its JSON-schema parameters are filled by their names and descriptions
(a "query", an "expression", a "customer", a start or end "date").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from .dates import period_range, relative_range
from .text import STOPWORDS

#: Words that reveal each kind of tool; a hit in the tool's name counts double.
ROLE_WORDS: dict[str, tuple[str, ...]] = {
    "search": ("knowledge base", "knowledge", "internal", "company document", "documents", "policies", "reports",
               "intranet", "search"),
    "calculator": ("calculat", "arithmetic", "math", "expression", "compute", "evaluat", "formula"),
    "orders": ("order", "shipment", "shipping", "delivery", "deliveries", "logistic", "tracking", "carrier"),
    "web": ("web", "internet", "public", "online", "news", "external", "market"),
}


@dataclass(frozen=True)
class Tool:
    """An offered function tool and the kind the offline model takes it for."""

    name: str
    role: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)

    @property
    def properties(self) -> dict[str, Any]:
        return self.parameters.get("properties", {}) or {}


def _role_score(role: str, name: str, description: str) -> int:
    name_words = name.replace("_", " ").replace("-", " ").lower()
    text = description.lower()
    return sum(2 * (w in name_words) + (w in text) for w in ROLE_WORDS[role])


def classify(tools: list[dict[str, Any]]) -> dict[str, Tool]:
    """The best tool for each role among the offered function tools (roles without a tool are absent).

    Roles are handed out best match first, one tool per role and one role per tool: "web_search" reads as a
    search tool too, but once the knowledge base has taken that role it is still the best web tool.
    """
    pairs = []
    for index, spec in enumerate(tools):
        function = spec.get("function", spec)
        name, description = function.get("name", ""), function.get("description", "") or ""
        pairs += [(_role_score(role, name, description), -index, role, function) for role in ROLE_WORDS]
    chosen: dict[str, Tool] = {}
    taken: set[str] = set()
    for score, _, role, function in sorted(pairs, key=lambda pair: pair[:2], reverse=True):
        name = function.get("name", "")
        if score == 0 or role in chosen or name in taken:
            continue
        chosen[role] = Tool(name, role, function.get("description", "") or "", function.get("parameters", {}) or {})
        taken.add(name)
    return chosen


def _main_text_parameter(tool: Tool) -> str | None:
    """The parameter that takes the free text (a query or an expression)."""
    props = tool.properties
    for key in props:
        if re.search(r"query|question|expression|expr|formula|text|search|keywords|input", key, re.I):
            return key
    required = [k for k in tool.parameters.get("required", []) if props.get(k, {}).get("type", "string") == "string"]
    return required[0] if required else next(iter(props), None)


def text_arguments(tool: Tool, text: str) -> dict[str, Any]:
    """Arguments for a search or calculator tool: the text goes into its query/expression parameter."""
    key = _main_text_parameter(tool)
    return {key: text} if key else {}


def customer_name(question: str) -> str:
    """A customer named in the question: a run of capitalised words that is not the sentence's first word."""
    skip = {"Has", "Have", "Did", "Is", "Was", "When", "Where", "What", "Which", "Our", "The", "Monday", "Tuesday",
            "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "I"}
    for m in re.finditer(r"\b[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*", question):
        run = m[0].split()
        opens = not question[:m.start()].strip() or re.search(r"[.!?]\s*$", question[:m.start()])
        if opens and run[0].lower() in STOPWORDS:
            run = run[1:]  # capitalised only because it opens the sentence: "How many orders did ..."
        words = [w for w in run if w not in skip]
        if words and not re.fullmatch(r"Q[1-4]|[A-Z]+-\d+", words[0]):
            return " ".join(words).removesuffix("'s").removesuffix("'")
    return ""


def order_arguments(tool: Tool, question: str, today: date | None) -> dict[str, Any]:
    """Arguments for an orders tool, each filled from the question by what the parameter's name says."""
    span = (relative_range(question, today) if today else None) or period_range(question)
    code = re.search(r"\b[A-Z]{2,}-?\d{3,}\b", question)
    args: dict[str, Any] = {}
    for key, schema in tool.properties.items():
        words = f"{key} {schema.get('description', '')}".lower()
        kind = schema.get("type", "string")
        if re.search(r"customer|client|account|company|buyer", key, re.I) and customer_name(question):
            args[key] = customer_name(question)
        elif re.search(r"order.?id|order.?number|^id$|reference", key, re.I) and code:
            args[key] = code[0]
        elif span and re.search(r"start|from|since|after|begin", words) and "date" in words:
            args[key] = span[0].isoformat()
        elif span and re.search(r"\bend|\bto\b|until|before", words) and "date" in words:
            args[key] = span[1].isoformat()
        elif span and kind == "integer" and "day" in words:
            args[key] = (today - span[0]).days if today else 7
        elif re.search(r"status|state", key, re.I) and (value := _status(schema, question)):
            args[key] = value
        elif re.search(r"query|question|text|description", key, re.I):
            args[key] = question
    return args


def _status(schema: dict[str, Any], question: str) -> str:
    """The status value the question asks for, among those the parameter lists ("in transit" -> "in_transit");
    "not shipped yet" asks for no status."""
    listed = schema.get("enum") or re.findall(r"[a-z]+(?:_[a-z]+)*", (schema.get("description", "") or "").split(":")[-1])
    lowered = question.lower()
    for value in listed:
        m = re.search(rf"(\bnot\s+(?:yet\s+)?)?\b{re.escape(value.replace('_', ' '))}\b", lowered)
        if m and not m[1]:
            return value
    return ""
