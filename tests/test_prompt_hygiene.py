"""Prompts and tool descriptions carry no evaluation id, answer or question wording.

A real model follows the examples it is given: an example that names the order an evaluation question
asks about, or the exact web query another question needs, steers it to the answer and inflates the
score. The scan below reads every prompt template and every tool schema the course sends.
"""

from __future__ import annotations

import json
import re

from ragcourse import prompts
from ragcourse.corpus import course
from ragcourse.tools import TOOL_SCHEMAS

RUN = 5  # words in a row that count as copied wording
#: An order id, product code or customer id: letters and digits in one token (ORD-123, VX-9, C-1001).
_CODE = re.compile(r"^(?=.*[a-z])(?=.*\d)[a-z0-9]+(?:-[a-z0-9]+)+$")
_PERIOD = re.compile(r"^(?:q[1-4]|h[12]|fy)-?\d{0,4}$")


def _words(text: str) -> list[str]:
    return re.findall(r"[\w.%/-]+", text.lower())


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _words(text)
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


def _sent_text() -> str:
    templates = [value for name, value in vars(prompts).items() if name.isupper() and isinstance(value, str)]
    templates += [text for name, value in vars(prompts).items() if name.isupper() and isinstance(value, dict)
                  for text in value.values()]
    return "\n".join(templates) + "\n" + json.dumps(TOOL_SCHEMAS, ensure_ascii=False)


def evaluation_material_in(sent: str) -> list[str]:
    """Every evaluation id, gold document, specific answer item or copied run of wording found in ``sent``."""
    sent = sent.lower()
    sent_runs = _runs(sent)
    sent_words = " " + " ".join(_words(sent)) + " "
    found = []
    for q in course().questions:
        found += [f"{q.id}: id" for word in (q.id.lower(),) if word in sent]
        found += [f"{q.id}: gold document {d}" for d in q.gold_doc_ids if d.lower() in sent]
        # Specific answer items (a figure of two or more characters, or several words), matched as whole words:
        # "5.5" is not found in "95.5", and a lone "4" is too common to mean anything.
        specific = [item for item in (*q.must_include, *q.computed)
                    if (re.search(r"\d", item) and len(item.strip()) > 1) or " " in item.strip()]
        found += [f"{q.id}: answer item {item!r}" for item in specific
                  if f" {' '.join(_words(item))} " in sent_words]
        codes = {w for w in _words(q.question + " " + q.gold_answer) if _CODE.match(w) and not _PERIOD.match(w)}
        found += [f"{q.id}: id or code {code!r}" for code in sorted(codes) if f" {code} " in sent_words]
        found += [f"{q.id}: wording {' '.join(run)!r}" for run in (_runs(q.question) | _runs(q.gold_answer)) & sent_runs]
    return found


def test_no_prompt_or_tool_description_carries_evaluation_ids_answers_or_wording() -> None:
    found = evaluation_material_in(_sent_text())
    assert not found, "\n".join(found)


def test_the_scan_catches_a_planted_example() -> None:
    q = next(q for q in course().questions if q.gold_doc_ids and len(_words(q.question)) > RUN)
    planted = " ".join(_words(q.question)[:RUN])
    assert any("wording" in f for f in evaluation_material_in(_sent_text() + f" e.g. '{planted}'"))
    assert any("gold document" in f for f in evaluation_material_in(_sent_text() + f" [{q.gold_doc_ids[0]}.md]"))
