"""When not to go agentic: send simple questions to single-turn RAG and composite ones to the agent.

The agent is slower (several model calls instead of one), costlier and less predictable, so a
question that one search answers should not pay for it. The rule router uses two signals:

* **keywords** from the article series — compare, comparison, analyze, reason, why,
  difference, change, and in Chinese 对比, 比较, 分析, 原因, 为什么, 差异, 变化 — plus a few cues the
  course adds: arithmetic ("by how much", "percentage points", "combined"), comparatives
  ("higher"), causes ("caused", "drove"), reviews of many clauses or contracts ("clauses",
  "which of our") and questions for another system (orders, shipments, deliveries);
* **length** — a long question usually asks several things. The articles use 30 characters,
  but that sends nearly every question to the agent: "What is the company's address?" is
  already 30 characters, and the course's simple factual questions are 30–102 characters long
  (median about 65). The course uses :data:`LENGTH_THRESHOLD` = 110 characters, above every
  factual question of the evaluation set and below most multi-hop ones, which run to 157.

``route_question(question, use_llm=True)`` asks the model instead (``prompts.ROUTER_SYSTEM``),
at the price of one extra call per question; an unclear reply falls back to the rules.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from .results import RagResult, Step, Usage

#: Questions longer than this go to the agent (see the module docstring for why not 30).
LENGTH_THRESHOLD = 110
#: The articles' keywords (English and the Chinese original), matched as word stems / substrings.
KEYWORDS_EN = ("compare", "comparison", "analyze", "reason", "why", "difference", "change")
KEYWORDS_ZH = ("对比", "比较", "分析", "原因", "为什么", "差异", "变化")
_KEYWORDS = re.compile(r"\b(compar\w*|analy[sz]\w*|reasons?|why|differ\w*|chang\w*)\b", re.I)
#: Cues the course adds, by what they signal; each is a regular expression over the question.
COURSE_CUES: dict[str, str] = {
    "arithmetic": r"\bby how (?:much|many)\b|\bhow much (?:higher|lower|more|less)\b|\bby what percentage\b|"
                  r"\bpercentage points?\b|\bcombined\b|\bin total\b|\btotal (?:revenue|bookings|value)\b|"
                  r"\bgrowth\b|\bvs\.?\b|\bversus\b",
    "comparison": r"\b(?:higher|highest|lower|lowest|larger|largest|smaller|smallest)\b",
    "cause": r"\bcaused?\b|\bdr(?:o|i)ve\b|\bdrivers?\b|\bled to\b",
    "contract review": r"\bclauses?\b|\bunfavou?rable\b|\bwhich of our\b",
    "another system": r"\borders?\b|\bshipments?\b|\bshipped\b|\bdeliver(?:y|ed)\b|\btracking\b|\barrived?\b|"
                      r"\bin transit\b",
}
ROUTES = ("simple", "agentic")


@dataclass(frozen=True)
class Route:
    """A routing decision and the evidence for it (shown in the trace and the notebook)."""

    route: str
    reason: str
    usage: Usage = field(default_factory=Usage, compare=False)


def route_by_rules(question: str) -> Route:
    """Keywords first (they name the reason), then the course's cues, then the length rule."""
    text = question.strip()
    match = _KEYWORDS.search(text) or next((w for w in KEYWORDS_ZH if w in text), None)
    if match:
        return Route("agentic", f"keyword {match.group(0) if isinstance(match, re.Match) else match!r}")
    for signal, pattern in COURSE_CUES.items():
        cue = re.search(pattern, text, re.I)
        if cue:
            return Route("agentic", f"{signal} cue {cue.group(0)!r}")
    if len(text) > LENGTH_THRESHOLD:
        return Route("agentic", f"{len(text)} characters > {LENGTH_THRESHOLD}")
    return Route("simple", f"no keyword or cue, {len(text)} characters <= {LENGTH_THRESHOLD}")


def route_by_llm(question: str, client: Any = None) -> Route:
    """Ask the model to classify the question; an unclear reply falls back to the rules."""
    from .calls import complete
    from .prompts import ROUTER_SYSTEM

    call = complete("router", [{"role": "system", "content": ROUTER_SYSTEM}, {"role": "user", "content": question}],
                    client=client)
    usage = call.usage
    reply = (call.message.content or "").strip().lower()
    found = [r for r in ROUTES if r in reply]
    if len(found) == 1:
        return Route(found[0], f"the model said {reply[:40]!r}", usage)
    fallback = route_by_rules(question)
    return Route(fallback.route, f"unclear model reply {reply[:40]!r}; rules: {fallback.reason}", usage)


def route_question(question: str, *, use_llm: bool = False, client: Any = None) -> str:
    """``"simple"`` (one retrieval, one answer) or ``"agentic"`` (the ReAct loop)."""
    return (route_by_llm(question, client) if use_llm else route_by_rules(question)).route


def rag(question: str, user_id: str | None = None, *, use_llm: bool = False, client: Any = None) -> RagResult:
    """Route, then answer with ``simple_rag`` or ``agentic_rag``; the trace starts with the routing decision."""
    from .agent import agentic_rag
    from .calls import open_ledger
    from .pipeline import simple_rag

    tick = time.perf_counter()
    with open_ledger(client) as ledger:  # the router's call is counted below, with the answer's calls
        decision = route_by_llm(question) if use_llm else route_by_rules(question)
        seconds = time.perf_counter() - tick
        answer = simple_rag if decision.route == "simple" else agentic_rag
        result = answer(question, user_id, client=ledger.client)
    result.trace.insert(0, Step(kind="note", tool="router", args={"route": decision.route},
                                result=f"routed to {decision.route}: {decision.reason}",
                                tokens=decision.usage.total_tokens, seconds=seconds))
    result.usage.merge(decision.usage)
    result.seconds += seconds
    return result
