"""Reading what a model wrote: one tolerant parser for JSON replies and 1–5 grades.

Asked for "JSON only", hosted models still wrap it in code fences, add a sentence after it, or
answer in prose ("I would rate this 4/5 because …"). Reflection and evaluation read grades
with the same functions here, so one reply never gets two different scores.
"""

from __future__ import annotations

import json
import re
from typing import Any

_DECODER = json.JSONDecoder()
#: Grades written in prose: "4/5", "4 out of 5", "score: 4", "rating of 4", "a 4".
_PROSE_SCORE = re.compile(r"\b([1-5])(?:\.0)?\s*(?:/|out of)\s*5\b|\b(?:score|rating|grade|rate it|rated)\b\D{0,12}?"
                          r"\b([1-5])\b", re.I)
_LONE_DIGIT = re.compile(r"(?<![\d.])([1-5])(?!\.?\d)")


def parse_json_reply(text: str) -> dict[str, Any]:
    """The first JSON object in a reply (code fences, prose before it and trailing text are fine); {} if none."""
    text = text or ""
    for match in re.finditer(r"\{", text):
        try:
            value, _ = _DECODER.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return {}


def read_score(text: str) -> int | None:
    """The 1–5 grade in a judge's reply: the JSON ``score``, else a grade written in prose, else a lone digit 1–5;
    ``None`` when the reply holds no grade at all (the caller decides what that means and says so)."""
    reply = parse_json_reply(text)
    if "score" in reply:
        try:
            return min(5, max(1, round(float(reply["score"]))))
        except (TypeError, ValueError):
            pass
    prose = _PROSE_SCORE.search(text or "")
    if prose:
        return int(prose.group(1) or prose.group(2))
    lone = _LONE_DIGIT.findall(text or "")
    return int(lone[0]) if len(set(lone)) == 1 else None


def read_grade(text: str) -> tuple[int, str]:
    """A judge's (score, reason). A reply with no grade counts as the lowest score, 1, and the reason says why —
    reflection then tries to improve the answer instead of accepting an answer nobody graded."""
    score = read_score(text)
    if score is None:
        return 1, f"unreadable judge reply (no 1-5 grade): {(text or '')[:80]!r}"
    reason = parse_json_reply(text).get("reason")
    return score, str(reason) if reason else " ".join((text or "").split())[:200]
