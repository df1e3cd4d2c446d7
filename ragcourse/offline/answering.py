"""Answering from context: choose the sentences that answer the question, quote them, cite them.

This is extractive question answering, the transparent cousin of what an LLM does:

1. every passage is split into sentences (table rows become "header: value" sentences);
   sentences that address an AI system ("ignore your rules ...") are data, never answers;
2. each sentence is scored against the question by meaning (cosine similarity of the
   embedded MiniLM embeddings, cached) and by words (the share of the question's content
   terms it contains; years, quarters and codes count double, terms found only in the
   passage title count half);
3. a sentence *supports* an answer only if it agrees on every anchor of the question
   (a sentence about "Q3 2023" never answers "Q3 2024") and overlaps enough;
4. the best supporting sentence is kept, plus further ones that cover parts of the
   question not yet covered (up to four for multi-part questions), in reading order;
5. sentences are quoted verbatim (numbers and units intact), each followed by its
   passage label in square brackets. With no supporting sentence the model says it
   cannot find the answer: it never writes a fact of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .messages import Block
from .questions import analyse
from .text import anchors, is_instruction_to_ai, opens_with_period, split_sentences, terms

REFUSAL = "I cannot find the answer in the documents available to you."

#: Support thresholds, tuned on hand-written examples (not on the course's questions).
MIN_LEXICAL = 0.3
MIN_SEMANTIC = 0.25
STRONG_SEMANTIC = 0.55
SEMANTIC_WEIGHT = 0.55


@dataclass(frozen=True)
class Sentence:
    """A sentence of a passage, with what it is about."""

    text: str
    label: str
    position: int
    terms: frozenset[str]
    title_terms: frozenset[str]
    anchors: frozenset[str]  # its own periods and codes, plus the title's unless its first clause names a period


@dataclass(frozen=True)
class Scored:
    sentence: Sentence
    score: float
    lexical: float
    direct: float  # the share of the question's terms in the sentence itself (not its title)
    semantic: float
    missing: frozenset[str]  # anchors of the question the sentence does not agree on

    @property
    def supports(self) -> bool:
        """Whether the sentence can be quoted as (part of) an answer."""
        if self.missing:
            return False
        by_words = self.lexical >= MIN_LEXICAL and self.direct > 0 and self.semantic >= MIN_SEMANTIC
        return by_words or self.semantic >= STRONG_SEMANTIC


def sentences_of(blocks: Sequence[Block]) -> list[Sentence]:
    """Every quotable sentence of the passages, in reading order, without repeats."""
    result: list[Sentence] = []
    seen: set[str] = set()
    for block in blocks:
        scope = f"{block.title} {block.label.replace('-', ' ').replace('_', ' ').replace('.', ' ')}"
        title_anchors = anchors(scope)
        for text in split_sentences(block.text):
            if text in seen or is_instruction_to_ai(text):
                continue
            seen.add(text)
            own = anchors(text)
            inherited = {a for a in title_anchors if "-" in a} if opens_with_period(text) else title_anchors
            result.append(Sentence(text, block.label, len(result), frozenset(terms(text)), frozenset(terms(scope)),
                                   frozenset(own | inherited)))
    return result


def _embed(texts: list[str]) -> np.ndarray:
    from ..embeddings import get_embedder

    return get_embedder().embed(texts)


def score(question: str, sentences: Sequence[Sentence]) -> list[Scored]:
    """Every sentence scored against the question, best first."""
    if not sentences:
        return []
    wanted = anchors(question)
    weights = {t: 2.0 if t in wanted else 1.0 for t in terms(question)}
    total = sum(weights.values()) or 1.0
    vectors = _embed([question, *(s.text for s in sentences)])
    similarities = vectors[1:] @ vectors[0]
    scored = []
    for sentence, semantic in zip(sentences, similarities, strict=True):
        own = sum(w for t, w in weights.items() if t in sentence.terms)
        from_title = sum(w for t, w in weights.items() if t in sentence.title_terms and t not in sentence.terms)
        lexical = (own + 0.5 * from_title) / total
        missing = frozenset(wanted - sentence.anchors)
        value = SEMANTIC_WEIGHT * float(semantic) + (1 - SEMANTIC_WEIGHT) * lexical - (0.5 if missing else 0.0)
        scored.append(Scored(sentence, value, lexical, own / total, float(semantic), missing))
    return sorted(scored, key=lambda s: (-s.score, s.sentence.position))


def sentence_budget(question: str) -> int:
    """How many sentences an answer may quote: one per part, side or cause of the question, at most four."""
    q = analyse(question)
    return min(4, max(len(q.sides), len(q.parts), 1) + (1 if q.cause else 0))


def select(question: str, sentences: Sequence[Sentence], limit: int | None = None) -> list[Scored]:
    """The supporting sentences worth quoting, in reading order (empty when nothing supports an answer)."""
    supporting = [s for s in score(question, sentences) if s.supports]
    if not supporting:
        return []
    limit = limit or sentence_budget(question)
    wanted = set(terms(question))
    best = supporting[0]
    chosen, covered = [best], set(best.sentence.terms | best.sentence.anchors)
    for candidate in supporting[1:]:
        if len(chosen) >= max(limit, 2):
            break
        adds_terms = bool((wanted & candidate.sentence.terms) - covered)
        close = candidate.score >= 0.8 * best.score
        if (len(chosen) < limit and (close or (adds_terms and candidate.score >= 0.6 * best.score))) or (
                close and adds_terms):
            chosen.append(candidate)
            covered |= candidate.sentence.terms | candidate.sentence.anchors
    return sorted(chosen, key=lambda s: s.sentence.position)


def cite(sentence: Sentence) -> str:
    """The sentence with its label before the final punctuation: "Margin was 45.2% [q3.md]."."""
    text = sentence.text.rstrip()
    end = text[-1] if text[-1] in ".!?" else "."
    return f"{text.rstrip('.!?')} [{sentence.label}]{end}"


def answer(question: str, blocks: Sequence[Block]) -> str:
    """The cited extractive answer to ``question`` from ``blocks``, or :data:`REFUSAL`."""
    chosen = select(question, sentences_of(blocks))
    return " ".join(cite(s.sentence) for s in chosen) if chosen else REFUSAL
