"""What a system prompt asks of an answer's form: how to cite, and what to say when the context lacks the answer.

A model reads its instructions; this module reads the two that change the words of an
extractive answer:

* **citations** -- an example after a word about citing ("cite sources like [D4]",
  "reference the passage as (Source: handbook)") gives the form: its brackets and any
  fixed prefix, with the example's label replaced by each passage's own. Without an
  example the form is ``[label]``, the course's own.
* **refusal** -- a quoted phrase in the sentence that says what to do without an answer
  ("... reply 'Not in the notes.'"), or its "say (that) you ..." clause turned to the first
  person ("say you don't know" -> "I don't know."). Without one, the model's own refusal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CITING = re.compile(r"\b(?:cit(?:e|es|ing|ation)\w*|referenc\w*|sources?|labels?|attribut\w*)\b", re.I)
#: A bracketed example label: "[D4]", "(Source: x)", "【3】", "{doc-2}" (no nested brackets, a short label).
_EXAMPLE = re.compile(r"(\[|\(|【|\{)([^\[\]()【】{}\n]{1,40})(\]|\)|】|\})")
_NO_ANSWER = re.compile(r"\b(?:not|no|cannot|can't|unable|lack\w*|missing|unknown|insufficient|doesn't|don't)\b", re.I)
_QUOTED = re.compile(r"[\"“']([^\"”'\n]{2,80}?)[\"”']")
_SAY_YOU = re.compile(r"\b(?:say|state|answer|reply|respond|admit|tell the user)\s+(?:that\s+)?(you\b[^.;\n]*?)"
                      r"(?:,?\s+(?:and|but|then)\s+(?:do not|don't|never)\b|[.;\n]|$)", re.I)
_FIRST_PERSON = ((r"\byou are\b", "I am"), (r"\byou're\b", "I'm"), (r"\byourself\b", "myself"),
                 (r"\byour\b", "my"), (r"\b(to|for|with|by|from|of|at)\s+you\b", r"\1 me"), (r"\byou\b", "I"))


@dataclass(frozen=True)
class AnswerForm:
    """How the prompt wants citations and refusals written."""

    opening: str = "["
    prefix: str = ""
    closing: str = "]"
    refusal: str | None = None

    def cite(self, label: str) -> str:
        return f"{self.opening}{self.prefix}{label}{self.closing}"


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"“'])|\n+", text) if s.strip()]  # not after "e.g. [D4]"


def citation_form(text: str) -> tuple[str, str, str]:
    """(opening, prefix, closing) of the first example label after a word about citing; ``("[", "", "]")`` if none."""
    for sentence in _sentences(text):
        about = _CITING.search(sentence)
        example = _EXAMPLE.search(sentence, about.end()) if about else None
        if example and re.search(r"[\d.:#_-]|[A-Z]", example[2]):  # "D4", "policy.md", "Source: x" -- not "(if any)"
            inner = example[2]
            cut = max(inner.rfind(": "), inner.rfind("#"), inner.rfind(" "))
            prefix = inner[:cut + 1] if cut >= 0 else ""
            if prefix.strip().endswith(":") or prefix.endswith("#") or not prefix.strip():
                return example[1], prefix, example[3]
            return example[1], "", example[3]
    return "[", "", "]"


def refusal_wording(text: str) -> str | None:
    """The words the prompt asks for when the answer is not in the context, or None if it gives none."""
    for sentence in _sentences(text):
        if not _NO_ANSWER.search(sentence):
            continue
        quoted = _QUOTED.search(sentence)
        if quoted and re.search(r"\b(?:say|reply|respond|answer|write|return|output)\b", sentence[:quoted.start()], re.I):
            return quoted[1].strip()
        say = _SAY_YOU.search(sentence)
        if say:
            clause = say[1].strip().rstrip(",")
            for pattern, replacement in _FIRST_PERSON:
                clause = re.sub(pattern, replacement, clause, flags=re.I)
            return clause[0].upper() + clause[1:] + "."
    return None


def answer_form(system: str) -> AnswerForm:
    """The answer form a system prompt asks for."""
    opening, prefix, closing = citation_form(system)
    return AnswerForm(opening, prefix, closing, refusal_wording(system))


def apply(answer: str, form: AnswerForm, labels: set[str], refusal: str) -> str:
    """The answer in the asked form: ``[label]`` citations rewritten, the model's refusal replaced by the asked one."""
    if form.refusal and answer.strip() == refusal:
        return form.refusal
    if form.refusal:  # "I could not find X in the documents available to you." keeps its content
        answer = answer.replace(refusal, form.refusal)
    if (form.opening, form.prefix, form.closing) == ("[", "", "]"):
        return answer
    return re.sub(r"\[([^\[\]\n]+)\]", lambda m: form.cite(m[1]) if m[1] in labels else m[0], answer)
