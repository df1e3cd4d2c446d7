"""Judges: relevance and groundedness scores (1-5) computed from measurable overlap.

* **Relevance** is the weighted share of the question's content terms the answer covers
  (years, quarters and codes count double), lowered when a part of a multi-part question
  is not addressed at all. A refusal scores 2 ("does not answer"), unless the prompt
  includes context and nothing in it supports an answer: then declining is right (4).
* **Groundedness** is the share of the answer's sentences that the context supports: a
  sentence is supported when its numbers all occur in the context and its content terms
  mostly do (or it restates a context sentence by meaning); a correct calculation over
  numbers from the context counts as supported. A refusal makes no claim, so it is grounded.

Both map a share to a score: >= 0.85 -> 5, >= 0.65 -> 4, >= 0.45 -> 3, >= 0.2 -> 2, else 1.
"""

from __future__ import annotations

import json
import re

from .answering import GIVES_CAUSE, select, sentences_of
from .messages import field, parse_blocks
from .questions import CUE_WORDS, analyse
from .text import anchors, is_refusal, numbers, split_sentences, terms

_CITATION = re.compile(r"\s*\[[^\[\]]+\]")
_CITATION_LABEL = re.compile(r"\[([^\[\]]+)\]")
_CALCULATION = re.compile(r"(-?\d[\d.,]*)\s*([-+*/])\s*(-?\d[\d.,]*)\s*=\s*(-?\d[\d.,]*)")


def to_score(share: float) -> int:
    return next(score for score, floor in ((5, 0.85), (4, 0.65), (3, 0.45), (2, 0.2), (1, 0.0)) if share >= floor)


def _as_json(score: int, reason: str) -> str:
    return json.dumps({"score": score, "reason": reason})


def relevance(prompt: str) -> str:
    """Relevance of the ``Answer:`` to the ``Question:`` in ``prompt``, as judge JSON."""
    question, answer = field(prompt, "Question"), field(prompt, "Answer")
    if is_refusal(answer):
        blocks = parse_blocks(field(prompt, "Context"))
        if blocks and not select(question, sentences_of(blocks)):
            return _as_json(4, "The answer correctly says the context does not contain the answer.")
        return _as_json(2, "The answer declines to answer the question.")
    wanted = anchors(question)
    instructions = {t for w in CUE_WORDS for t in terms(w)}  # "compare", "why", "reasons": how to answer, not what
    weights = {t: 2.0 if t in wanted else 1.0 for t in terms(question) if t not in instructions or t in wanted}
    sources = " ".join(re.sub(r"[-_.]", " ", label) for label in _CITATION_LABEL.findall(answer))
    covered_terms = set(terms(answer)) | set(terms(sources))  # "[budget-2025.md]" says which year it is about
    covered = [t for t in weights if t in covered_terms]
    share = sum(weights[t] for t in covered) / (sum(weights.values()) or 1.0)
    unanswered = _unanswered(question, answer, covered_terms)
    score = min(to_score(share), 3) if unanswered else to_score(share)
    missing = [t for t in weights if t not in covered_terms]
    reason = f"The answer covers {len(covered)} of {len(weights)} key terms of the question"
    reason += f" (missing: {', '.join(missing[:5])})." if missing else "."
    if unanswered:
        reason += f" It does not address: {unanswered[0]}."
    return _as_json(score, reason)


def _unanswered(question: str, answer: str, covered_terms: set[str]) -> list[str]:
    """What a question demands and the answer leaves out: a part, a compared side, the reasons it asks for."""
    q = analyse(question)
    gaps = [p for p in q.parts if len(q.parts) > 1 and not set(terms(p)) & covered_terms]
    gaps += [side for side in q.sides if len(q.sides) > 1 and not anchors(side) | set(terms(side)) <= covered_terms]
    if q.cause and not GIVES_CAUSE.search(_CITATION.sub("", answer)):
        gaps.append("the reasons")
    return gaps


def _calculation_holds(sentence: str, context_numbers: set[float]) -> bool:
    m = _CALCULATION.search(sentence)
    if not m:
        return False
    a, op, b, result = float(m[1].replace(",", "")), m[2], float(m[3].replace(",", "")), float(m[4].replace(",", ""))
    value = {"-": a - b, "+": a + b, "*": a * b, "/": a / b if b else float("nan")}[op]
    return abs(value - result) < 0.05 + abs(result) * 0.001 and {a, b} <= context_numbers


def _number_set(text: str) -> set[float]:
    values = set()
    for m in numbers(text):
        digits = re.sub(r"[^\d.]", "", m[0].replace(",", "")).rstrip(".")
        if digits:
            values.add(float(digits))
    return values


def groundedness(prompt: str) -> str:
    """Groundedness of the ``Answer:`` in the ``Context:`` of ``prompt``, as judge JSON."""
    answer = field(prompt, "Answer")
    context = field(prompt, "Context")
    if is_refusal(answer) and len(split_sentences(answer)) <= 1:
        return _as_json(5, "The answer makes no claim beyond the context: it says the answer is not there.")
    context_terms, context_numbers = set(terms(context)), _number_set(context)
    claims = [s for s in split_sentences(_CITATION.sub("", answer)) if not is_refusal(s)]
    if not claims:
        return _as_json(3, "The answer makes no checkable claim.")
    supported = [c for c in claims if _supported(c, context_terms, context_numbers)]
    share = len(supported) / len(claims)
    reason = f"{len(supported)} of {len(claims)} answer sentences are supported by the context."
    if len(supported) < len(claims):
        unsupported = next(c for c in claims if c not in supported)
        reason += f" Unsupported: \"{unsupported[:80]}\"."
    return _as_json(to_score(share), reason)


def _supported(claim: str, context_terms: set[str], context_numbers: set[float]) -> bool:
    if _calculation_holds(claim, context_numbers):
        return True
    claim_terms = set(terms(claim)) - {t for t in terms(claim) if re.fullmatch(r"[\d.]+", t)}
    share = len(claim_terms & context_terms) / len(claim_terms) if claim_terms else 1.0
    return _number_set(claim) <= context_numbers and share >= 0.7
