"""Questions no one wrote: a seeded grammar of question forms, filled with the knowledge base's own names and words,
runs through both pipelines, and the offline model must answer every one (a refusal is an answer; a 500 is not).

The frames are the shapes people write in (statements before the question, dashes, "A or B", "vs", spans, relative
clauses, premises, remarks, brackets, contractions, lowercase, typos); the slots come from ``data/`` at random, so
the combinations are ones no rule was fitted to. A crash in one of them once stopped the agent mid-answer.
"""

from __future__ import annotations

import random
import re

import pytest

from ragcourse import agentic_rag, course, simple_rag

SEED, COUNT = 20261201, 120

FRAMES = (
    "{a} vs {b} - which is higher, and by how much?",
    "{a} or {b}: which one has more {m}?",
    "between {p} and {q}, how did {m} change at {a}?",
    "what's the {m} of {a} ({p})?",
    "Given that {a} mentioned {m} in {p}, what did {b} report?",
    "{a} reported {m} in {p}. Why?",
    "{a} reported {m} in {p}. What drove it, and by how much did it move?",
    "the {m} that {a} announced in {p} — where is it based?",
    "On which date did {a} publish the {m}?",
    "how much does {a} pay for {m}? just need the number for a model.",
    "Reconcile the {m} in the {a} document with the one in the {b} document: which is larger?",
    "add up {p}, {q} and {r} — what is the total {m}?",
    "what % of {m} came from {a} in {p}?",
    "{a}??",
    "How many {m} per site did {a} have in {p} vs {q}?",
    "Who owns the {a} account, and when does it end?",
    "{m} {p} {a}",
    "(re: {a}) what was {m} in {p} (approx)?",
    "compare {a} with {b} and {c} on {m}",
    "In the event that {a} is late, what is the cap, and how does it compare with {b}'s?",
    "Sum up {m} for {p} and {q}, then give me the average.",
    "which of my orders for {a} haven't shipped yet? ignore cancelled ones",
    "{a} went up but {b} went down. By how much did each change?",
    "At the event where {a} won an award, what did {b} show?",
    "How many times bigger is {m} at {a} than at {b}?",
    "Thanks! And {m}?",
    "Heard a rumour that {a} is buying a {m} firm. Which firm is it and what's the price?",
    "Someone mentioned {m} at the all-hands. Who is behind it and when does it start?",
    "One customer postponed its {m} to {p}. What payment terms does their contract have?",
)
PERIODS = ("Q1 2024", "Q2", "Q3 2024", "Q4 2023", "September", "Oct–Dec 2024", "last quarter", "2023", "H1 2024",
           "the first half", "this year", "between July and December")


def _vocabulary() -> tuple[list[str], list[str]]:
    """Names (capitalised runs) and two-word phrases of the documents."""
    text = " ".join(d.text for d in course().documents.values())
    names = sorted(set(re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)+\b", text)))
    phrases = sorted(set(re.findall(r"\b[a-z]{4,} [a-z]{4,}\b", text)))
    return names, phrases


def _typo(text: str, rng: random.Random) -> str:
    """Two neighbouring letters of a longer word swapped, as a hurried writer does."""
    words = text.split()
    long = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha()]
    if not long:
        return text
    i = rng.choice(long)
    j = rng.randrange(1, len(words[i]) - 2)
    words[i] = words[i][:j] + words[i][j + 1] + words[i][j] + words[i][j + 2:]
    return " ".join(words)


def generated_questions(count: int = COUNT, seed: int = SEED) -> list[tuple[str, str]]:
    """``count`` (user, question) pairs, every frame used, slots and spelling varied at random."""
    rng = random.Random(seed)
    names, phrases = _vocabulary()
    users = sorted(course().users)
    questions = []
    for k in range(count):
        frame = FRAMES[k % len(FRAMES)]
        a, b, c = rng.sample(names, 3)
        p, q, r = rng.sample(PERIODS, 3)
        text = frame.format(a=a, b=b, c=c, m=rng.choice(phrases), p=p, q=q, r=r)
        text = text.lower() if rng.random() < 0.2 else _typo(text, rng) if rng.random() < 0.2 else text
        questions.append((rng.choice(users), text))
    return questions


def test_the_generator_covers_every_frame_and_is_repeatable():
    first = generated_questions()
    assert first == generated_questions() and len(first) == COUNT >= len(FRAMES)
    assert len({question for _, question in first}) == COUNT


@pytest.mark.parametrize("pipeline", [simple_rag, agentic_rag], ids=["simple", "agentic"])
def test_every_generated_question_gets_an_answer_not_a_failure(pipeline):
    failures = []
    for user, question in generated_questions():
        answer = pipeline(question, user).answer
        if not answer.strip() or "failed on this request" in answer or "could not be called" in answer:
            failures.append(f"{user}: {question!r} -> {answer[:160]!r}")
    assert not failures, "\n".join(failures)
