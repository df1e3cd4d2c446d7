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
   for "why" questions every wording of a cause ("because", "due to", "root cause", "drivers" ...)
   counts as the question's "reason" term (weighted double: it is what is asked), in the sentence
   or its section heading;
4. the best supporting sentence is kept, plus further ones that cover parts of the
   question not yet covered (up to four for multi-part questions), in reading order;
   a "why" question is answered by sentences that give a cause first, a "how many"
   question only by sentences that state a number;
5. sentences are quoted verbatim (numbers and units intact), each followed by its
   passage label in square brackets. With no supporting sentence the model says it
   cannot find the answer: it never writes a fact of its own. A quoted sentence that announces a
   list ("The decline had two main causes.", "... as follows:") brings the announced sentences along,
   one that leans on the sentence before it ("It was not detected because ...") brings that one, and
   for a "why" question a sentence under a cause heading ("Root cause") brings the section's first sentence.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .dates import WEEKDAY
from .framing import PREMISE, named_source, own_terms, unframed, without_remarks, without_scene
from .lexicon import COUNT_WORD, closest_spelling, dimension, expected_unit, number_word, similarity, spell_out
from .meaning import embed
from .messages import Block
from .questions import ASK_LEAD, analyse
from .text import (
    MONTHS,
    STOPWORDS,
    TARGET_YEAR,
    WH_WORD,
    Period,
    anchors,
    find_periods,
    is_instruction_to_ai,
    is_year,
    month_terms,
    months_of_quarters,
    numbers,
    opens_with_period,
    quarters_of_months,
    related_forms,
    resolve_previous,
    split_sentences,
    stem,
    terms,
)

REFUSAL = "I cannot find the answer in the documents available to you."

#: Support thresholds, tuned on hand-written examples (not on the course's questions).
MIN_LEXICAL = 0.3
MIN_SEMANTIC = 0.25
STRONG_SEMANTIC = 0.55
SEMANTIC_WEIGHT = 0.55
NEAR_LEXICAL, NEAR_SEMANTIC = 0.25, 0.45
#: Close in words, itself and with its title, when a name in a short query pulls the meaning away ("estimated value
#: Rhinmark Water" and "The estimated total value of the contract is ..." under the Rhinmark notice's title).
STRONG_LEXICAL, STRONG_DIRECT, WEAK_SEMANTIC = 0.7, 0.4, 0.15

#: The question's words that ask for a cause, and the wordings that give one.
CAUSE_TERM = "<cause>"
CAUSE_BONUS = 0.15
#: Added for a sentence that sets a threshold in the unit of a case the question states and asks leave for ("can I
#: give 13% off?", "is my manager's OK enough for a $4,200 claim?"): the rule decides the case.
RULE_BONUS = 0.15
#: A field of a data sheet or form whose label is what the question asks for ("Pipe sizes: DN25 to DN1200." for "what
#: pipe size range ...?") answers it, however few of the question's other words it repeats.
_FIELD = re.compile(r"^\s*([A-Z][\w /()-]{1,40}):\s+\S")
#: A question asking whether a stated case is allowed, or who must approve it.
_ASKS_PERMISSION = re.compile(r"\b(?:can|may|could)\s+(?:i|we|you|they|he|she|someone|somebody|my|our|the|an?)\b|\ballowed\b|"
                              r"\bpermitted\b|\benough\b|\bwho\s+(?:has|needs|must|have)\s+to\b|\bsign\w*\s+(?:\w+\s+)?off\b|"
                              r"\bneeds?\s+(?:\w+\s+)?approval\b|\bapprove (?:that|this|it)\b|"  # (not "the approved budget")
                              r"\bdo(?:es)?\s+(?:i|we|she|he|they)\s+(?:still\s+)?(?:get|need|qualify)\b", re.I)
_ASKS_CAUSE = re.compile(r"\b(why|reasons?|caus\w*|drove|drive|drivers?|driven|explain\w*|factors?|behind|"
                         r"(?<=what )(?:dragged|pushed|pulled|held|weighed|hurt|helped|boosted|lifted|made|led))\b", re.I)
GIVES_CAUSE = re.compile(r"\b(because|due to|caus\w*|reasons?|driv\w*|drove|result(?:ed)? (?:of|from)|led to|"
                          r"contribut\w*|factors?|owing to|thanks to|explain\w*|attribut\w*)\b", re.I)
#: A sentence that announces the sentences after it: "had two main causes.", "as follows:".
_ANNOUNCES = re.compile(r"\b(two|three|four|several|following)\b[^.]{0,40}\b(causes|reasons|factors|drivers|changes|"
                        r"effects|steps|stages|points|issues|risks)\b[^.]*[.:]?$|:\s*$|"
                        r"^(two|three|four|several)\s+(?:[a-z-]+\s+)?[a-z-]+s\b(?:\s+\S+){1,5}[.:]$", re.I)
#   the last form: a short sentence that counts what follows ("Three measures made the difference.")
_COUNT = {"two": 2, "three": 3, "four": 4}


@dataclass(frozen=True)
class Sentence:
    """A sentence of a passage, with what it is about."""

    text: str
    label: str
    position: int
    terms: frozenset[str]
    title_terms: frozenset[str]
    anchors: frozenset[str]  # its own periods and codes, plus the title's unless its first clause names a period
    topic: Period | None = None  # the one dated period its title names ("Q3 2024"), which "the previous quarter" follows
    scope_periods: tuple[Period, ...] = ()  # every period its title names, years included ("Remote Work Policy (2024)")
    lead: int = 0  # the position of its passage's first sentence
    also: tuple[str, ...] = ()  # the labels of the other passages that hold the same sentence
    places: frozenset[str] = frozenset()  # the places it or its title names ("in Lyon", "the Penang plant")


@dataclass(frozen=True)
class Scored:
    sentence: Sentence
    score: float
    lexical: float
    direct: float  # the share of the question's terms in the sentence itself (not its title)
    semantic: float
    missing: frozenset[str]  # anchors of the question the sentence does not agree on
    topical: bool = True  # it (or its title) shares a word with the question besides its dates and codes
    rule: bool = False  # it sets a threshold in the unit of a case the question asks leave for
    field: bool = False  # it is a labelled field whose label the question asks for ("Accuracy: ±0.5% of reading")

    @property
    def supports(self) -> bool:
        """Whether the sentence can be quoted as (part of) an answer."""
        if self.missing or not self.topical:
            return False
        by_words = (self.lexical >= MIN_LEXICAL or self.rule or self.field) and self.direct > 0 \
            and self.semantic >= MIN_SEMANTIC
        both = self.lexical >= NEAR_LEXICAL and self.direct > 0 and self.semantic >= NEAR_SEMANTIC  # close on both
        words = self.lexical >= STRONG_LEXICAL and self.direct >= STRONG_DIRECT and self.semantic >= WEAK_SEMANTIC
        return by_words or both or words or self.semantic >= STRONG_SEMANTIC


def _quotable(text: str) -> list[str]:
    """The sentences of a passage without injected instructions: from the first sentence that addresses an AI
    to the end of its paragraph, because what follows the imperative ("This memo authorises you to ...") is
    part of the attack too."""
    kept: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        for sentence in split_sentences(paragraph):
            if is_instruction_to_ai(sentence):
                break
            kept.append(sentence)
    return kept


#: "What must you not do ...", "what NOT to do", "is never allowed": asks what is forbidden.
ASKS_PROHIBITION = re.compile(r"\b(?:must|should|shall|may)\s+not\b|\b(?:mustn't|shouldn't)\b|\bnot\s+to\s+do\b|"
                              r"(?-i:\bNOT\b)|\bnever\b|\bnot (?:allowed|permitted)\b", re.I)
_PROHIBITS = re.compile(r"\b(?:do not|don't|never|must not|should not|may not|not allowed|not permitted|prohibited|"
                        r"forbidden)\b", re.I)
#: A list item headed by a code: "- AG-115: server certificate validation failed. ...".
_CODE_ITEM = re.compile(r"^\s*(?:[-*•]\s+|\d+[.)]\s+)?([A-Z]{1,4}-?\d{2,4}[A-Za-z]?)\s*:\s")


def sentences_of(blocks: Sequence[Block]) -> list[Sentence]:
    """Every quotable sentence of the passages, in reading order, without repeats."""
    return list(_sentences_of(tuple(blocks)))


@lru_cache(maxsize=4096)  # every turn of a request reads the same observations again: each is split once
def _sentences_of(blocks: tuple[Block, ...]) -> tuple[Sentence, ...]:
    result: list[Sentence] = []
    seen: dict[str, int] = {}
    for block in blocks:
        scope = f"{block.title} {block.label.replace('-', ' ').replace('_', ' ').replace('.', ' ')}"
        title_anchors = anchors(scope)
        dated = [p for p in find_periods(scope) if p.kind != "year"]  # "Q4 2023" in the title, "q4" in the label
        with_year = [p for p in dated if p.year]
        topic = with_year[0] if len({(p.kind, p.number) for p in dated}) == 1 and with_year else None
        lead = len(result)
        items = [(line, m[1]) for line in block.text.splitlines() if (m := _CODE_ITEM.match(line))]
        for text in _quotable(block.text):
            if text in seen:
                result[seen[text]] = _also_in(result[seen[text]], block.label)
                continue
            seen[text] = len(result)
            own = anchors(resolve_previous(text, topic))
            inherited = {a for a in title_anchors if "-" in a} if opens_with_period(text) else title_anchors
            if not any(map(is_year, own - set(TARGET_YEAR.findall(text)))):  # "in the third quarter" of the title's year
                inherited = inherited | set(filter(is_year, title_anchors))
            own_terms = set(terms(text)) | initialisms(text) | schemes(text) | (
                {CAUSE_TERM} if GIVES_CAUSE.search(text) else set())
            # "- AG-115: certificate failed. Do not factory-reset the gateway.": the item's later sentences are about
            # its code too
            item = next((code for line, code in items if text in line and not text.startswith(code)), "")
            own, own_terms = (own | anchors(item), own_terms | set(terms(item))) if item else (own, own_terms)
            scope_terms = set(terms(scope)) | ({CAUSE_TERM} if GIVES_CAUSE.search(block.title) else set())
            result.append(Sentence(text, block.label, len(result), frozenset(own_terms), frozenset(scope_terms),
                                   frozenset(own | inherited), topic, tuple(find_periods(scope)), lead,
                                   places=places_named(f"{block.title}. {text}")))
    return tuple(result)


#: A run of capitalised words ("Net Promoter Score", "Over-the-Air"), whose initials a question may write instead.
_CAPITALISED_RUN = re.compile(r"\b[A-Z][a-z]+(?:(?:\s+|-)(?:the\s+|of\s+|the-|of-)?[A-Z][a-z]+)+\b")


def initialisms(text: str) -> set[str]:
    """The initials of the text's capitalised runs, so that "NPS" finds "the Net Promoter Score rose ..."."""
    return {"".join(w[0] for w in re.split(r"[\s-]+", m[0]) if w[0].isupper() and w.lower() not in STOPWORDS).lower()
            for m in _CAPITALISED_RUN.finditer(text)}


#: A rating or size written as its scheme's letters and a number ("IP68", "DN50", "Pt100"): the letters name the scheme.
_SCHEME_CODE = re.compile(r"\b([A-Za-z]{2,3})\d{2,4}\b")


def schemes(text: str) -> set[str]:
    """The schemes of the text's codes, so that "what IP rating" finds "Ingress protection: IP68"."""
    return {m[1].lower() for m in _SCHEME_CODE.finditer(text)}


def _spelt_out(question: str) -> dict[str, re.Pattern[str]]:
    """For each initialism of three to five capitals the question writes ("CFO"), the words it stands for in a
    sentence that spells it out in lower case ("the chief financial officer")."""
    return {word.lower(): re.compile(r"\b" + r"[a-z]*\s+".join(word.lower()) + r"[a-z]*\b", re.I)
            for word in re.findall(r"\b[A-Z]{3,5}\b", question)}


#: A year written before the thing it says which of: "the 2024 audit", "our 2025 budget".
_YEAR_OF_THING = re.compile(r"\b((?:19|20)\d{2})\s+([a-z]{3,})\b", re.I)
#: "the next board meeting after the November 2024 one": the period a "next" or "previous" thing is counted from,
#: which the sentence that answers does not name.
_REFERENCE_POINT = re.compile(r"\b(?:next|following|previous|prior|last)\b[^?.;]*?\b(?:after|following|since|before|"
                              r"preceding)\s+(?:the\s+|our\s+)?([^?.;,]*?)(?=\s*(?:one|meeting|edition|issue|report)?\s*"
                              r"(?:[?.;,]|$))", re.I)


#: How close in spelling a question's word must be to a word of the passages to be read as it (0–100): "extention"
#: is "extension" (89), but "contract" is not "contrast" (87.5).
MIN_RESPELLING = 88


def respelt(question: str, sentences: Sequence[Sentence]) -> str:
    """The question with a misspelt word read as the passages' word it is closest to in spelling, as a reader does
    ("the extention for the help desk" -> "extension"); a word the passages hold in any form stays as it is."""
    known = {t for s in sentences for t in s.terms | s.title_terms}
    spelt = {w for s in sentences for w in re.findall(r"[a-z]{6,}", s.text.lower())}

    def read(m: re.Match[str]) -> str:
        word = m[0].lower()
        if word in STOPWORDS or related_forms(stem(word)) & known:
            return m[0]
        return closest_spelling(word, spelt, MIN_RESPELLING) or m[0]
    return re.sub(r"\b[A-Za-z]{6,}\b", read, question)


def _scope_and_asks(question: str) -> tuple[str, list[str]]:
    """The asks of a question and the scope said before the first ("strategy 2025: what ..., and what ...?")."""
    asks = [a for a in _ASKS.split(question) if a.strip(" ?")] or [question]
    return re.split(rf"\b(?:{WH_WORD}|whats)\b", asks[0], maxsplit=1, flags=re.I)[0], asks


def _anchors_per_ask(question: str, wanted: set[str]) -> list[set[str]]:
    """The anchors each ask of the question must agree on, when each ask has anchors of its own and shares none
    ("what is the new LX-200 variant called, and what share are we targeting by Q4?"), with those of a scope said
    before the first ask; else the question's (a sentence about the 2024 survey is no answer to "in the 2024 survey,
    what was X, and what was it in 2023?")."""
    scope, asks = _scope_and_asks(question)
    shared = wanted & anchors(scope)  # "strategy 2025: ...": the scope before the first ask is every ask's
    own = [wanted & anchors(a) - shared for a in asks]
    if len(asks) < 2 or not all(own) or set().union(shared, *own) != wanted or sum(map(len, own)) != len(wanted - shared):
        return [wanted]
    return [o | shared for o in own]


def score(question: str, sentences: Sequence[Sentence]) -> list[Scored]:
    """Every sentence scored against the question, best first."""
    if not sentences:
        return []
    question = respelt(question, sentences)
    wanted = anchors(question) - anchors(" ".join(m[0] for m in _REFERENCE_POINT.finditer(question)))
    # "according to the November minutes, when is the next meeting?": the source's month is met by its title
    sourced = wanted & anchors(named_source(question))
    ask_wanted = _anchors_per_ask(question, wanted)
    # "when is the final audit for the 2024 audit?": a year that says which thing is met by a title naming both
    qualified = [(m[1], stem(m[2].lower())) for m in _YEAR_OF_THING.finditer(question)]
    weights = {t: 2.0 if t in wanted or t == CAUSE_TERM else 1.0 for t in question_terms(question)}
    total = sum(weights.values()) or 1.0
    # Agreeing on "January 2025" alone says nothing about the question's subject (a newsletter of that month).
    subject = {t for t in weights if t not in wanted and t != CAUSE_TERM}
    span = len(wanted & set(month_terms())) > 1  # "October to December": a sentence about Q4 covers them
    vectors = embed([question, *(s.text for s in sentences)])
    similarities = vectors[1:] @ vectors[0]
    cases = _amounts(_COUNTED.sub(lambda m: str(number_word(m[1])), question))  # ("about five months": in words)
    permission = bool(cases) and bool(_ASKS_PERMISSION.search(question))
    spelt = _spelt_out(question)
    months = set(month_terms())
    passage_months: dict[str, set[str]] = {}
    for sentence in sentences:
        passage_months.setdefault(sentence.label, set()).update(sentence.anchors & months)
    scored = []
    for sentence, semantic in zip(sentences, similarities, strict=True):
        # "a $4,000 claim" is met by a rule with a threshold in dollars ("up to $2,500"): the case is tested against it
        met = {t for unit, found in cases.items() if unit in _thresholds(sentence.text) for t in found}
        met |= {t for t, pattern in spelt.items() if pattern.search(sentence.text)}  # "CFO": "chief financial officer"
        own = sum(w for t, w in weights.items() if t in sentence.terms or t in met or related_forms(t) & sentence.terms)
        from_title = sum(w for t, w in weights.items() if t in sentence.title_terms and t not in sentence.terms)
        lexical = (own + 0.5 * from_title) / total
        dated = sentence.anchors | quarters_of_months(sentence.anchors)  # a sentence about October is about Q4
        met = dated | (months_of_quarters(sentence.anchors) if span else set()) | (sourced & sentence.title_terms) \
            | {year for year, thing in qualified if {year, thing} <= sentence.title_terms}
        if not sentence.anchors & months and not any(re.fullmatch(r"q[1-4]", a) for a in sentence.anchors):
            met |= passage_months[sentence.label]  # "the cycle count in the November fieldwork": a sentence
            # that names no month or quarter of its own is of the month its passage is about
        # "what is the new LX-200 variant called, and what share are we targeting by Q4?": a sentence answers one
        # ask, so it need only agree with that ask's anchors
        missing = min((frozenset(w - met) for w in ask_wanted), key=len)
        # "can I approve 13% off myself?": a rule with a threshold in the unit of the stated case decides it, and the
        # dates that set the scene of the case ("8 days from 2024", "a baby in April") are no period it must name
        rule = permission and any(unit in _thresholds(sentence.text) for unit in cases)
        missing = frozenset(a for a in missing if "-" in a) if rule else missing
        value = SEMANTIC_WEIGHT * float(semantic) + (1 - SEMANTIC_WEIGHT) * lexical - (0.5 if missing else 0.0)
        value += CAUSE_BONUS if CAUSE_TERM in weights and CAUSE_TERM in sentence.terms else 0.0
        value += RULE_BONUS if rule else 0.0
        label = _FIELD.match(sentence.text)
        field = bool(label) and bool(set(terms(label[1]))) and set(terms(label[1])) <= set(weights)
        # ... or it names a code of the question that its title does not ("E-231: pipe parameters invalid")
        topical = not subject or bool(subject & (sentence.terms | sentence.title_terms)) or rule or bool(
            {a for a in wanted if "-" in a} & sentence.terms - sentence.title_terms)
        scored.append(Scored(sentence, value, lexical, own / total, float(semantic), missing, topical, rule, field))
    return sorted(scored, key=lambda s: (-s.score, s.sentence.position))


#: An amount with its unit: "$4,000", "EUR 150", "20 days", "12%".
_QUANTITY = re.compile(r"([$€£]|\b(?:usd|eur|gbp)\b)\s?(\d[\d,]*(?:\.\d+)?)|"  # ("8 unused leave days": the unit may
                     r"\b(\d[\d,]*(?:\.\d+)?)\s?((?:[a-z-]+\s+){0,2}?)"  # follow a word or two that say which)
                     r"(%|(?:day|week|month|year|hour|km|kg)s?\b)", re.I)


#: A small number written as a word before a unit of time: "five months", "three weeks".
_COUNTED = re.compile(rf"\b({COUNT_WORD})(?=\s+(?:days?|weeks?|months?|years?|hours?)\b)", re.I)


def _unit(match: re.Match[str]) -> str:
    unit = (match[1] or match[5]).lower()
    return {"usd": "$", "eur": "€", "gbp": "£"}.get(unit, unit.rstrip("s"))


def _amounts(text: str) -> dict[str, set[str]]:
    """The terms of each amount in ``text``, by unit."""
    found: dict[str, set[str]] = {}
    for m in _QUANTITY.finditer(text):
        if m[4] and (set(m[4].lower().split()) & STOPWORDS or is_year(m[3])):  # ("2024 into this year": no amount)
            continue
        found.setdefault(_unit(m), set()).update(terms(m[2] or m[3]))
    return found


@lru_cache(maxsize=65536)
def _thresholds(text: str) -> frozenset[str]:
    """The units of the amounts a rule sets a threshold in ("up to $2,500": dollars), none for a plain statement."""
    return frozenset(_amounts(text)) if _THRESHOLD.search(text) else frozenset()


#: A superlative or comparative adjective ("biggest", "longer"), whose dimension a specification names.
_GRADED = re.compile(r"\b[a-z]+(?:est|er)\b", re.I)


def question_terms(question: str) -> list[str]:
    """The question's terms, its words asking for a cause merged into one :data:`CAUSE_TERM`."""
    asks = {stem(w.lower()) for w in _ASKS_CAUSE.findall(question)}
    graded = [t for w in _GRADED.findall(question) for t in terms(dimension(w, sizes=True))]  # "the biggest pipe"
    return list(dict.fromkeys([t for t in terms(question) if t not in asks] + graded + ([CAUSE_TERM] if asks else [])))


#: "What accuracy and pipe size range ...?": two things asked by one question word.
_TWO_ASKED = re.compile(r"^\W*(?:what|which)\s+(?:is\s+the\s+|are\s+the\s+)?[\w-]+(?:\s+[\w-]+)?\s+and\s+(?:the\s+)?[a-z][\w-]*",
                        re.I)


def sentence_budget(question: str) -> int:
    """How many sentences an answer may quote: one per part, side, cause or thing asked of the question, at most
    four."""
    q = analyse(question)
    asked = 2 if _TWO_ASKED.match(question) else 1
    return min(4, max(len(q.sides), len(q.parts), asked) + (1 if q.cause else 0))


asks_quantity = re.compile(r"\bhow (?:many|much|big|large)\b|^\W*(?:the\s+)?(?:(?:exact|total|approximate|rough)\s+)?"
                           r"(?:value|amount|sum|number|cost|price|figure|count)\s+of\b|\bwhat (?:percentage|share|proportion)\b|\bmax(?:imum|\.)? (?:number|no\.?)\b|"
                           r"\bwhat (?:is|was|are|were) the (?:[\w/-]+ ){0,2}(?:price|cost|rate|amount|value|total|size)\b|"
                           r"\b(?:roughly |approximately |about )?what (?:value|amount|sum|price|cost|figure|number)\b",
                           re.I).search


#: A question whose answer is an amount of money: "what does X pay ...", "how much did the stand cost", "in dollars".
asks_money = re.compile(r"\b(?:what|how much)\s+(?:do|does|did|will|would|should)\s+(?:[\w'&-]+\s+){1,6}?"
                        r"(?:pay|spend|charge|cost|earn)\b|\bhow much money\b|\bin (?:dollars|euros|pounds)\b|"
                        r"(?:^|\s)[$€£]\s?(?:value|amount|figure|total|impact)\b|"  # "what was the $ value of ..."
                        r"\bhow much\s+(?:[\w'&-]+\s+){1,8}?"  # "how much the party cost", "how much Lumora spent on"
                        r"(?:cost|costs|paid|spent|charged|earned)\b(?!\s+(?:leave|time|holidays?|days?|hours?)\b)",
                        re.I).search
_MONEY = re.compile(r"[$€£]\s?\d|\b(?:usd|eur|gbp)\s?\d|\d\s?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b", re.I)


#: What a sentence must hold to answer "where ...?" (a place: "at 18 Pier Street", "in Lyon") or "when ...?"
#: (a date, a time, a weekday, a period); other questions take any supporting sentence.
_ANSWER_SHAPES = (
    (re.compile(r"^\s*where\b", re.I), re.compile(r"\b(?:at|in|on|near|from|to|inside|outside)\s+(?:the\s+)?(?:\d|[A-Z])|"
                                                 r"\b(?:floor|room|building|street|road|avenue|site|office)\b", re.I)),
    # ("Quick check for my plan - on what date was ...?": the question after its framing, a preposition first)
    (re.compile(r"(?:^|[-–—:]\s)\s*(?:(?:on|by|from|until|till|in|at)\s+)?(?:when|since when|what (?:time|date|day|year))\b",
                re.I),
     re.compile(rf"\d|\b(?:{'|'.join(MONTHS)}|monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|weekly|"
                r"monthly|yearly|annually|morning|evening|noon|midnight|quarter|week|month|year)s?\b", re.I)),
)


#: A point in the calendar: "30 June 2027", "June 2027", "2027-06-30", "in 2019" (not "90 days before the end").
_CALENDAR = re.compile(rf"\b(?i:{'|'.join(m for m in MONTHS if m != 'may')})\b|\b(?:19|20)\d{{2}}\b|\d\s+May\b|\bMay\s+\d")


#: A question about when something starts to hold: "when does the rule apply", "from when is it in force".
_ASKS_START = re.compile(r"\b(?:appl(?:y|ies)|start|starts|begin|begins|kicks?\s+in|(?:take|takes)\s+effect|"
                         r"(?:in|into)\s+(?:force|effect)|effective)\b", re.I)
#: A sentence that dates a start: "takes effect on 1 July 2025", "in force from March", "effective 1 May 2024".
_DATED_START = re.compile(rf"\b(?:(?:takes?|took|taken)\s+effect|(?:comes?|came|enters?|entered)\s+into\s+(?:force|effect)|"
                          rf"in\s+force|effective|appl(?:y|ies)|(?:starts?|started|begins?|began|kicks?\s+in))\s+"
                          rf"(?:(?:on|from|as\s+of|in)\s+)?(?:\d|(?i:{'|'.join(MONTHS)})\b)", re.I)


def has_answer_shape(question: str, sentence: str) -> bool:
    """Whether the sentence holds the kind of thing a "where" or "when" question asks for."""
    return all(shape.search(sentence) for asks, shape in _ANSWER_SHAPES if asks.search(question))


#: Where a question names what it asks for: "how many <parking spaces> are ...", "what <unit price> did ...",
#: "what are the <payment terms> of ...", "who <won> ...", "does the <dental insurance> cover ...".
_FOCUS = (
    re.compile(r"\bhow (?:many|much)\s+((?:[\w-]+\s+){0,3}?[\w-]+?)\s+(?:is|are|was|were|do|does|did|can|could|will|"
               r"would|has|have|had|should|must|may)\b", re.I),
    # "tell me how many car parking spaces the office has": a question asked inside another, in statement order
    re.compile(r"\bhow (?:many|much)\s+((?:[\w-]+\s+){0,3}?[\w-]+?)\s+(?:the|our|its|their|this|that|each|every)\s+"
               r"(?:[\w-]+\s+){0,3}?(?:has|have|had|holds?|offers?|gets?|got|provides?|takes?|took)\b", re.I),
    re.compile(r"^\s*(?:what|which)\s+(?!is\b|are\b|was\b|were\b|did\b|does\b|do\b)((?:[\w-]+\s+){0,3}?[\w-]+?)\s+"
               r"(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had)\b", re.I),
    re.compile(r"(?:^|[—–:;]|\bso)\s*(?:what|which|how long|how often) (?:is|are|was|were) (?:(?:the|our|its|their|my|your)\s+|"
               r"[\w-]+'s\s+)?(?!(?:that|this|it|these|those|they|you|we)\b)((?:[\w-]+\s+){0,3}?[\w-]+?)"
               r"(?:\s+(?:of|in|for|at|on|under|with|from|to|that|we|per|and)\b|\s*[?,%]|$)", re.I),
    re.compile(r"\bhow (?:much|many)\s+(?:do|does|did|will|would|can|could)\s+(?:[\w'-]+\s+){1,3}?[a-z]+\s+"
               r"(?:to|into|towards|on|for)\s+(?:the|a|an|our|their|its|my)\s+((?:[\w-]+\s+){0,2}?[\w-]+?)"
               r"(?:\s+(?:of|in|for|at|on|per|under|with|from|to)\b|\s*[?,]|$)", re.I),
    re.compile(r"^\s*(?:give|tell|show) me (?:the|our|its|their) ((?:[\w-]+\s+){0,3}?[\w-]+?)"
               r"(?:\s+(?:of|in|for|from|at|on|under|with|and)\b|\s*[?.]|$)", re.I),
    re.compile(r"^\s*who\s+(?!is\b|are\b|was\b|were\b)([\w-]+)", re.I),
    # "how does renewal work in the agreement with ...": renewal
    re.compile(r"^\s*how (?:(?:does|do|did|will|would|can)\s+)?(?:the\s+|our\s+|an?\s+)?((?:[\w-]+\s+){0,2}?[\w-]+?)\s+"
               r"(?:work|works|operate|operates|function|functions)\b", re.I),
    re.compile(r"^\s*(?:does|do|is|are|can|will)\s+(?:the\s+|our\s+|an?\s+)?((?:[\w-]+\s+){0,2}?[\w-]+?)"
               r"\s+(?:cover|covers|include|includes|apply|applies|allow|allows|exist|exists|offer|offers)\b"
               r"(?:\s+(?:the\s+|an?\s+)?((?:[\w-]+\s+){0,2}?[\w-]+?))?(?:\s+(?:in|at|for|of|under|with)\b|\s*\?|$)", re.I),
    re.compile(r"\b(?:allowed|permitted|able) to\s+[\w-]+\s+(?:their|our|my|his|her|a|an|the)?\s*((?:[\w-]+\s+){0,2}?[\w-]+?)"
               r"(?:\s+(?:to|at|in|into|on|for|with|from)\b|\s*\?|$)", re.I),
)
#: How close in meaning a sentence must be to what is asked when it does not use all of its words.
FOCUS_MEANING, FOCUS_WITH_WORD, FOCUS_WITHOUT_HEAD = 0.4, 0.3, 0.6
#: A place as documents name one: "in Lyon", "the Penang plant", "Eastbridge Headquarters" (not "in PeopleHub", a
#: system, nor a month).
_PLACE = re.compile(r"\bin\s+(?:the\s+)?([A-Z][a-z]+)\b(?![\w-])|\b([A-Z][a-z]+)\s+(?i:office|plant|site|factory|"
                    r"warehouse|campus|branch|headquarters|depot)s?\b")
#: "An engineer in Rotterdam joined ... . Does she ...?": a place a scene-setting sentence puts the asker in.
_SCENE_PLACE = re.compile(r"\b(?:in|at|from|based in)\s+(?:the\s+)?([A-Z][a-z]+)\b(?=[^.!?]*[.!]\s+\S)")


def places_named(text: str) -> frozenset[str]:
    """The places a text names, as terms."""
    found = (m[1] or m[2] for m in _PLACE.finditer(text))
    return frozenset(t for name in found if name.lower() not in MONTHS for t in terms(name))


#: A name written inside the question (not its first word, not a short acronym such as "HQ" that documents spell out).
_QUESTION_NAME = re.compile(r"(?<=[a-z,] )(?![A-Z]{2,3}\b)[A-Z][\w&-]+")


#: Words that say what shape the answer takes ("what time", "which year"), not what it is about.
#: ... and words that name a relation to the thing asked about ("the role of X", "the benefits of Y"), not the thing.
_SHAPE_WORDS = frozenset(terms("time date day year month kind type sort one way amount number percent percentage share "
                               "proportion role process purpose benefit limitation implication responsibility "
                               "protection impact effect requirement option step rule financial main key headline deadline cap limit "
                               "maximum minimum figure statistic stat duration length "
                               "thing stuff bit"))  # (... and a placeholder: "what's the thing to check?")


def asked_focus(question: str) -> str:
    """What the question asks for ("parking spaces"), empty when its form does not say; "days of paid sabbatical"
    asks for the sabbatical; "the salary band (min and max)" for the salary band."""
    question = re.sub(r"\s*\([^)]*\)", "", spell_out(question))
    for pattern in _FOCUS:
        m = pattern.search(question)
        if m:
            phrase = m[1]
            if m.lastindex and m.lastindex > 1 and m[2] and phrase[:1].isupper():
                phrase = m[2]  # "does Contoso cover gender-affirming care?": the name is checked apart; ask for the care
            phrase = re.split(r"\bof\s+", phrase, maxsplit=1)[-1]
            return phrase if set(terms(phrase)) - _SHAPE_WORDS else ""
    return ""


def speaks_of(focus: str, sentence: Sentence) -> bool:
    """Whether the sentence speaks of ``focus``: it uses all its words (or its heading does), or is close in meaning
    to it, or uses one of them and is not far ("unused annual leave" speaks of "unused vacation days")."""
    words = [t for t in terms(focus) if t not in _SHAPE_WORDS]
    wanted, known = set(words), sentence.terms | sentence.title_terms
    if not wanted or wanted <= known:
        return True
    closeness = similarity(focus, sentence.text)
    if words[-1] not in known and wanted & known:  # "the wifi password": a sentence about the wifi is close in
        return closeness >= FOCUS_WITHOUT_HEAD  # meaning, but says nothing of the password unless very close
    return closeness >= FOCUS_MEANING or (bool(wanted & known) and closeness >= FOCUS_WITH_WORD)


def _about_what_is_asked(question: str, supporting: list[Scored], sentences: Sequence[Sentence]) -> list[Scored]:
    """The supporting sentences whose passage names every name a one-part question names, and none at all when not
    one of them speaks of what the question asks for: "45 people work in Rotterdam" does not answer how many
    parking spaces Rotterdam has, nor does another office's garage. (Once one sentence speaks of it, the others
    may add to the answer.)"""
    q = analyse(question)
    if q.comparison or q.cause:
        return supporting
    names = {t for m in _QUESTION_NAME.findall(question) for t in terms(m) if not find_periods(m)  # ("on a Saturday":
             and not re.fullmatch(WEEKDAY, m, re.I)} - set(q.aside.split()) - own_terms()  # a time, which
    # "weekdays" answers; the organisation served is what every internal passage is about, named or not)
    passage: dict[str, set[str]] = {}
    for sentence in sentences:
        passage.setdefault(sentence.label, set(sentence.title_terms)).update(sentence.terms)
    focus = asked_focus(question)
    if len(q.parts) > 1:  # the parts may be answered by different passages, but a name none of them holds is a
        # thing they do not know: another customer's price is no answer about this one
        known = any(passage) and all(any(_named_in(name, terms_) for terms_ in passage.values()) for name in names)
        return _asked_first(focus, supporting) if known else []
    # a place the asker is in is met by a passage that names it, or by one that names no place at all (a company-wide
    # rule applies there too); another office's passage does not answer for it
    settings = {t for m in _SCENE_PLACE.findall(question) for t in terms(m)} & names
    places: dict[str, set[str]] = {}
    for sentence in sentences:
        places.setdefault(sentence.label, set()).update(sentence.places)
    named = [s for s in supporting if all(_named_in(name, passage.get(s.sentence.label, set())) or (
        name in settings and not places.get(s.sentence.label)) for name in names)]
    thing = counted_thing(question)  # ("how many people does Kestrel have": "Kestrel has 34 employees" counts them)
    ordered = _asked_first(focus, named, thing)
    if focus and not (ordered and (speaks_of(focus, ordered[0].sentence) or counts(thing, ordered[0].sentence.text))):
        return []  # nothing speaks of what is asked: refuse rather than quote what is merely near it
    return ordered


def _asked_first(focus: str, supporting: list[Scored], thing: str = "") -> list[Scored]:
    """What is asked for (or counts the thing a "how many" asks for) before what merely shares the source's words
    ("the MHI in the member survey"), each sentence judged once."""
    phrase = " ".join(focus.lower().split()) if len(focus.split()) > 1 else ""  # ("how much off list": the words
    # as one phrase, "10% off list price", before a sentence that has only "list")
    return sorted(supporting, key=lambda s: (not (speaks_of(focus, s.sentence) or counts(thing, s.sentence.text)),
                                             not (phrase and phrase in " ".join(s.sentence.text.lower().split())))) \
        if focus else supporting


def _named_in(name: str, known: set[str]) -> bool:
    """Whether a passage's terms hold the name, allowing a typo ("Promotor" for "Promoter")."""
    return name in known or bool(closest_spelling(name, known, 80))


#: "How long can the gateway keep data?": answered by a length of time, and a number with a unit of time states one.
_ASKS_DURATION = re.compile(r"\bhow long\b", re.I)
_DURATION = re.compile(r"\b(?:\d[\d,.]*(?:\s*(?:-|to|–)\s*\d[\d,.]*)?|an?|one|two|three|four|five|six|seven|eight|"
                       r"nine|ten|eleven|twelve|eighteen|twenty|thirty)[\s-]*(?:(?:working|business|calendar|full|clear|"
                       r"consecutive)\s+)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|"
                       r"years?)\b", re.I)


#: "What was total revenue in 2019?": the measure a "what was" question names, answered in its unit.
_WHAT_MEASURE = re.compile(r"\bwhat (?:is|was|are|were) (?:the |our |its |their )?((?:[\w-]+ ){0,2}[\w-]+?)"
                           r"(?= (?:for|in|of|at|during|over|across)\b|\?|$)", re.I)


#: "veltrix 2024 revenue - how much?": the measure first, then the bare question word.
_MEASURE_THEN_HOW_MUCH = re.compile(r"^(.+?)\s*(?:[-–—:,?]|\s)\s*how much\s*\??\s*$", re.I)
_ASKS_WH = re.compile(rf"\b(?:{WH_WORD}|is|are|was|were|do|does|did|can|"
                      r"could|will|would|has|have)\b", re.I)


#: A request for the figure itself: "State the figure.", "give me the number".
_STATE_THE_FIGURE = re.compile(r"\b(?:state|give|quote|provide)\s+(?:me\s+|us\s+)?(?:the\s+|a\s+)?(?:figure|number|amount)\b",
                               re.I)


#: A request that names what to report: "Verify the purchase value above which ...", "Confirm the total fee ...".
_REQUESTED = re.compile(r"^\s*(?:please\s+|kindly\s+)?(?:verify|confirm|state|give|provide|quote|report)\s+(?:me\s+)?"
                        r"the\s+((?:[\w-]+\s+){0,2}[\w-]+)", re.I)


#: Where a second ask begins: "..., and how long ...?", "...? How much ...?".
_ASKS = re.compile(rf"(?:,?\s+and|(?<=\?))\s+(?={ASK_LEAD}(?:how|what|which|who|when|where|why)\b)", re.I)


def figure_asked(question: str) -> str:
    """The figure a question's answer must state: "money" ("what does X pay?", "what was revenue in 2019?",
    "2024 revenue - how much?", "Lumora's total revenue for 2021."), "number" ("how many ...?"), "duration" ("how
    long ...?") or "". A question of several asks that want different figures ("what's the most ..., and how long
    ...?") wants none of them of every sentence."""
    asks = [a for a in _ASKS.split(question) if a.strip(" ?")]
    if len(asks) > 1:
        figures = {figure_asked(a) for a in asks}
        return figures.pop() if len(figures) == 1 else ""
    measure = _WHAT_MEASURE.search(question) or _MEASURE_THEN_HOW_MUCH.search(question)
    # a request written as a sentence that only names a money measure (a search's words end in no full stop; a
    # question mark asks something else: "True or false: X gets 16 weeks on full pay? Give the figure.")
    named = bool(re.search(r"[.!]\s*$", question)) and "?" not in question and not _ASKS_WH.search(question) \
        and expected_unit(question) == "$"
    if asks_money(question) or measure and expected_unit(measure[1]) == "$" or named:
        return "money"
    if _STATE_THE_FIGURE.search(question):  # "Value of the stock differences? State the figure."
        return "money" if expected_unit(question) == "$" else "number"
    requested = _REQUESTED.match(question)  # "Verify the purchase value above which ...": a figure of money
    if requested and expected_unit(requested[1]) == "$":
        return "money"
    return "number" if asks_quantity(question) else "duration" if _ASKS_DURATION.search(question) else ""


#: "how many people does it have", "how many of the parking spaces": the words after "how many" that may name what
#: is counted (the first that reads as a plural is taken).
_HOW_MANY = re.compile(r"\bhow many\s+(?:of\s+(?:the|our|its|their)\s+)?((?:[\w-]+\s+){0,2}[\w-]+)", re.I)
_PLURAL = re.compile(r"(?:[a-z]{2,}[^s]s|people|staff|personnel|children|men|women|crew)$", re.I)
#: How close in meaning the word after a number must be to the thing counted ("34 employees" counts people).
COUNTED_MEANING = 0.55
_TIME_UNITS = frozenset({"second", "minut", "hour", "day", "week", "month", "year"})


def counted_thing(question: str, units: bool = False) -> str:
    """What "how many ...?" counts: "people" in "how many people does Kestrel have"; "" when it names nothing, or
    only a unit unless ``units`` ("how many days of sabbatical": days say how much, not of what)."""
    m = _HOW_MANY.search(question)
    words = [w.lower() for w in m[1].split()] if m else []
    thing = next((w for w in words if _PLURAL.search(w) and w not in STOPWORDS), "")
    return thing if units or stem(thing) not in _TIME_UNITS else ""


def counts(thing: str, text: str) -> bool:
    """Whether ``text`` states a number of ``thing``: a number followed, within three words, by the thing or a word
    close to it in meaning ("34 employees" for people); a unit of time only by itself (days are no weeks)."""
    if not thing:
        return False
    wanted = stem(thing)
    for m in numbers(text):
        for word in re.findall(r"[A-Za-z-]+", text[m.end():m.end() + 40])[:3]:
            found = stem(word.lower())
            if found == wanted or (not {found, wanted} & _TIME_UNITS
                                   and similarity(thing, word.lower()) >= COUNTED_MEANING):
                return True
    return False


def defines(code: str, text: str) -> bool:
    """Whether ``text`` opens by defining ``code`` (a glossary or error-list line: "E-17: pump overheated — ...",
    "K-9 (low battery) means ...") rather than naming it in passing."""
    return bool(re.match(rf"\s*{re.escape(code)}\s*(?::|—|–|-\s|\(|means\b|is\b|stands for\b)", text, re.I))


def select(question: str, sentences: Sequence[Sentence], limit: int | None = None,
           figure: str | None = None, exclude: Collection[str] = (), counted: str | None = None) -> list[Scored]:
    """The supporting sentences worth quoting, in reading order (empty when nothing supports an answer).

    "How many ...?" is answered by a sentence that states a number, never by one that only shares its words, and
    "what does X pay?" by one that states an amount of money (``figure`` says which for a search query that no
    longer reads as the question, see :func:`figure_asked`). Sentences in ``exclude`` are already in the answer:
    a later search should add something new. ``counted`` is what a "how many" counts, for a search query that no
    longer says (see :func:`counted_thing`).
    """
    scored = [s for s in score(question, sentences) if s.sentence.text not in exclude]
    supporting = [s for s in scored if s.supports]
    unfiltered = list(supporting)  # a trailing "and until when?" is answered by a date, not the number asked first
    supporting.sort(key=lambda s: not s.field)  # a data sheet's field labelled with what is asked, first (the orders
    # below, of what the question's form asks for, come before it)
    if CAUSE_TERM in question_terms(question):  # a "why" question is answered by a sentence that gives a cause
        supporting.sort(key=lambda s: CAUSE_TERM not in s.sentence.terms | s.sentence.title_terms)
    if ASKS_PROHIBITION.search(question):  # "what must you not do": a sentence that forbids something, about the
        # thing asked (its codes), even one that shares few of the question's words
        forbidding = [s for s in scored if _PROHIBITS.search(s.sentence.text) and not s.missing and s.topical]
        supporting = forbidding[:1] + [s for s in supporting if s not in forbidding[:1]]
    figure = figure_asked(question) if figure is None else figure
    if figure:
        # an amount of money, not a count or a date; a length of time, not any number
        stated = {"money": _MONEY.search, "duration": _DURATION.search}.get(figure, numbers)
        supporting = [s for s in (_with_its_figure(s, sentences) for s in supporting) if stated(s.sentence.text)]
    elif any(figure_asked(a) for a in _scope_and_asks(question)[1]) or _NAMES_A_FIGURE.search(question):  # "who are
        # the auditors, and how big was the difference?": one ask's figure; "what difference did they find?": a
        # thing that is a figure
        supporting = [_with_its_figure(s, sentences) for s in supporting]
    supporting = [s for s in supporting if has_answer_shape(question, s.sentence.text)]
    thing = (counted_thing(question, units=True) if counted is None else counted) if figure == "number" else ""
    if thing:  # "how many people work there?": a sentence that counts people before one with another number, even
        # one in other words ("a company with 34 employees") when it is about the question's subject (not a unit)
        supporting += [] if stem(thing) in _TIME_UNITS else [
            s for s in scored if s not in supporting and not s.missing and s.topical and counts(thing, s.sentence.text)]
        supporting.sort(key=lambda s: not counts(thing, s.sentence.text))
    codes = [a for a in anchors(question) if re.fullmatch(r"[a-z]{1,4}-\d{2,4}", a)]
    if codes and not figure and not ASKS_PROHIBITION.search(question):  # "what does E-17 mean?": the line that
        # defines a code of the question first
        supporting.sort(key=lambda s: not any(defines(code, s.sentence.text) for code in codes))
    if _ANSWER_SHAPES[1][0].search(question):  # "when does the term end?": a date before "90 days before the end"
        supporting.sort(key=lambda s: not _CALENDAR.search(s.sentence.text))
        if _ASKS_START.search(question):  # "from when does the rule apply?": the date it takes effect, before the
            supporting.sort(key=lambda s: not _DATED_START.search(s.sentence.text))  # dates it was made or published
    supporting = _about_what_is_asked(question, supporting, sentences)
    if not supporting:
        return []
    limit = limit or sentence_budget(question)
    wanted = set(question_terms(question))
    best = supporting[0]
    chosen, covered = [best], set(best.sentence.terms | best.sentence.anchors)
    for candidate in supporting[1:]:
        if len(chosen) >= max(limit, 2):
            break
        adds_terms = bool((wanted & candidate.sentence.terms) - covered) or _gives_cause(candidate, best, wanted)
        close = candidate.score >= 0.8 * best.score
        if (len(chosen) < limit and (close or (adds_terms and candidate.score >= 0.6 * best.score))) or (
                close and adds_terms):
            chosen.append(candidate)
            covered |= candidate.sentence.terms | candidate.sentence.anchors
    chosen += _tail_answer(question, unfiltered, chosen)
    chosen += _each_ask(question, chosen, sentences, exclude)
    causal = CAUSE_TERM in wanted
    chosen = _with_whole_item(_with_announced(_with_other_side(chosen, sentences), sentences), sentences)
    return sorted(_with_gaps_filled(_with_antecedents(chosen, sentences, causal), sentences),
                  key=lambda s: s.sentence.position)


def _with_gaps_filled(chosen: list[Scored], sentences: Sequence[Sentence]) -> list[Scored]:
    """Chosen sentences plus the one between two chosen sentences of the same passage when it states a figure: a
    summary quoted in its first and third sentences reads on through its second ("About 9,400 gateways showed error
    AG-115 ..."); a rule in between that gives no figure ("Each member may renew a loan twice") is left out."""
    taken = {s.sentence.position for s in chosen}
    gaps = [sentences[p + 1] for p in taken if p + 2 in taken and p + 1 not in taken and numbers(sentences[p + 1].text)
            and sentences[p].label == sentences[p + 1].label == sentences[p + 2].label]
    return chosen + [Scored(g, 0.0, 0.0, 0.0, 0.0, frozenset()) for g in gaps]


#: A question that ends by asking a second, bare wh-question: "how many days can I carry over, and until when?".
_TAIL_QUESTION = re.compile(r"(?:,|\band\b|;)\s*((?:until|till|since|by|from)\s+when|when|where|who)\b[^,;?]*\??\s*$",
                            re.I)


def _each_ask(question: str, chosen: list[Scored], sentences: Sequence[Sentence], exclude: Collection[str]) -> list[Scored]:
    """For a question of several asks, the sentence that best answers each ask on its own (with the scope said
    before the first), when the sentences chosen for the whole do not include it: "On what date does the initial
    term expire, and how far in advance must an extension be signed?" wants the term's dates as well."""
    scope, asks = _scope_and_asks(question)
    if len(asks) < 2:
        return []
    taken, added = {s.sentence.text for s in chosen}, []
    for i, ask in enumerate(asks):
        asked = ask if i == 0 else f"{scope} {ask}"
        if len(_scope_and_asks(asked)[1]) >= len(asks):  # ("Is there one? Which one": a scope that holds a whole ask
            continue  # is no narrower question; each ask is answered by one of fewer asks, so this ends)
        own = [s for s in select(asked, sentences, limit=1, exclude=exclude) if s.sentence.text not in taken]
        if not own and i and (PREMISE.match(scope.strip()) or len(scope.split()) >= 5):  # "Given that X shows AG-115, ...,
            # and how long can the gateway buffer data?", "a customer wants to send us a hamper - what's the limit,
            # and how long do I have to declare it?": a premise's or a scene's words scope the asks about them, not
            # one that names its own subject (a label, "Halvorsen contract:", scopes every ask)
            own = [s for s in select(ask, sentences, limit=1, exclude=exclude) if s.sentence.text not in taken]
        best = max(own, key=lambda s: s.score, default=None)
        if best:
            added.append(best)
            taken.add(best.sentence.text)
    return added


def _tail_answer(question: str, supporting: list[Scored], chosen: list[Scored]) -> list[Scored]:
    """For a trailing bare "... and until when?", the best further sentence that has the shape of its answer (a date,
    a place, a name), unless one already chosen has it."""
    tail = _TAIL_QUESTION.search(question)
    if not tail or not chosen:
        return []
    asked = tail[1].split()[-1].lower()
    shape = {"when": _ANSWER_SHAPES[1][1], "where": _ANSWER_SHAPES[0][1], "who": re.compile(r"\b[A-Z][a-z]+ [A-Z][a-z]+")}[asked]
    best = chosen[0].score
    if any(_has_tail_shape(s.sentence.text, shape, asked) for s in chosen):
        return []
    return [s for s in supporting if s not in chosen and s.score >= 0.5 * best
            and _has_tail_shape(s.sentence.text, shape, asked)][:1]


def _has_tail_shape(text: str, shape: re.Pattern[str], asked: str) -> bool:
    """A date for "when" must be a date, not a count of days: "by 31 March", "in 2025", not "5 days"."""
    if asked == "when":
        months = "|".join(m.capitalize() for m in MONTHS)  # "May", not the verb
        return bool(re.search(rf"\b(?:{months})\b|\b(?:19|20)\d{{2}}\b|\d{{4}}-\d{{2}}-\d{{2}}", text))
    return bool(shape.search(text))


def _gives_cause(candidate: Scored, best: Scored, wanted: set[str]) -> bool:
    """For a "why" question, another sentence of the best document that states a cause adds an answer of its own."""
    gives = CAUSE_TERM in candidate.sentence.terms | candidate.sentence.title_terms  # or its heading: "Root cause"
    return CAUSE_TERM in wanted and gives and candidate.sentence.label == best.sentence.label


def _with_announced(chosen: list[Scored], sentences: Sequence[Sentence]) -> list[Scored]:
    """Chosen sentences plus the ones a chosen sentence announces (the next two to four of its passage)."""
    result, taken = list(chosen), {s.sentence.position for s in chosen}
    for scored in chosen:
        m = _ANNOUNCES.search(scored.sentence.text)
        if not m:
            continue
        count = _COUNT.get((m[1] or m[3] or "").lower(), 2)
        following = [s for s in sentences[scored.sentence.position + 1:] if s.label == scored.sentence.label][:count]
        result += [Scored(s, scored.score, 0.0, 0.0, 0.0, frozenset()) for s in following if s.position not in taken]
        taken |= {s.position for s in following}
    return result


def _with_whole_item(chosen: list[Scored], sentences: Sequence[Sentence]) -> list[Scored]:
    """Chosen sentences plus, for one that heads a list item defining a code ("- AG-115: certificate failed."), the
    item's other sentences: what the code means comes with what to do about it ("Check the time source first. Do
    not factory-reset the gateway.")."""
    result, taken = list(chosen), {s.sentence.position for s in chosen}
    for scored in chosen:
        head = _CODE_ITEM.match(scored.sentence.text)
        following = _next_in_passage(scored.sentence, sentences) if head else None
        for _ in range(3):
            if not following or _CODE_ITEM.match(following.text) or head[1].lower() not in following.anchors:
                break
            if following.position not in taken:
                result.append(Scored(following, scored.score, 0.0, 0.0, 0.0, frozenset()))
                taken.add(following.position)
            following = _next_in_passage(following, sentences)
    return result


#: A rule with a threshold ("up to $500", "at least 3 years"), and a next sentence that says what happens on the
#: other side of it ("Employees with shorter service ...", "Above that, ...").
_THRESHOLD = re.compile(r"\b(?:up to|at least|at most|more than|less than|fewer than|no more than|minimum|maximum)\b",
                        re.I)
_OTHER_SIDE = re.compile(r"^(?:\S+\s+){0,4}?(?:shorter|longer|fewer|less|beyond|below|above|under|over|exceed\w*|"
                         r"otherwise)\b", re.I)


def _with_other_side(chosen: list[Scored], sentences: Sequence[Sentence]) -> list[Scored]:
    """Chosen sentences plus, for one that sets a threshold, the next sentence of its passage when it states the rule
    beyond it (it repeats the threshold's figure or opens with "shorter", "above" ...): whether a case qualifies
    depends on which side it falls."""
    result, taken = list(chosen), {s.sentence.position for s in chosen}
    for scored in chosen:
        sentence = scored.sentence
        following = _next_in_passage(sentence, sentences)
        if not following or following.position in taken or not _THRESHOLD.search(sentence.text):
            continue
        shared = {m.group().strip() for m in numbers(sentence.text)} & {m.group().strip() for m in numbers(following.text)}
        if shared or _OTHER_SIDE.search(following.text):
            result.append(Scored(following, scored.score, 0.0, 0.0, 0.0, frozenset()))
            taken.add(following.position)
    return result


#: A sentence that gives the figure of the one before it: "The value involved was about $38,000.", "It cost $2M."
_GIVES_ITS_FIGURE = re.compile(r"^(?:it|this|these|they|the (?:value|amount|cost|total|sum|figure|number|price|loss|"
                               r"saving|impact|difference|fine|fee)s?)\b", re.I)


#: A question that names a thing that is a figure: "what inventory difference did they find", "what fine applies".
_NAMES_A_FIGURE = re.compile(r"\bwhat\s+(?:[a-z-]+\s+){0,2}?(?:value|amount|cost|total|sum|loss|saving|impact|difference|"
                             r"fine|fee)s?\b", re.I)


def _with_its_figure(scored: Scored, sentences: Sequence[Sentence]) -> Scored:
    """For a question asking how much, a sentence without a number that the next sentence of its passage gives the
    figure of ("... found small differences in the count. The value involved was $38,000."): that next sentence, in
    its place, speaking of what the sentence speaks of (which comes along as its antecedent, see
    :func:`_with_antecedents`)."""
    following = _next_in_passage(scored.sentence, sentences)
    if numbers(scored.sentence.text) or not following or not numbers(following.text) \
            or not _GIVES_ITS_FIGURE.search(following.text):
        return scored
    return replace(scored, sentence=replace(following, terms=following.terms | scored.sentence.terms))


def _next_in_passage(sentence: Sentence, sentences: Sequence[Sentence]) -> Sentence | None:
    """The sentence after ``sentence`` in its own passage, if any."""
    following = sentences[sentence.position + 1] if sentence.position + 1 < len(sentences) else None
    return following if following and following.label == sentence.label else None


#: A sentence that leans on the one before it: "It was not detected because ...", "The meter then reported ...".
_LEANS_BACK = re.compile(r"^(?:it|this|these|they|then|thus|therefore|as a result|consequently)\b|^\w+(?:\s+\w+)?\s+then\b|"
                         r"\b(?:of|in|on|for|from|with|by|to) (?:that|this|these|those) (?!is\b|was\b)[a-z]+",  # "the range
                         re.I)  # of that integer": the integer the sentence before names


def _with_antecedents(chosen: list[Scored], sentences: Sequence[Sentence], causal: bool = False) -> list[Scored]:
    """Chosen sentences plus, for one that leans on the sentence before it or gives its figure, that sentence (same
    passage); for a "why" question, a sentence under a heading that gives causes ("Root cause") also brings the
    section's first sentence, which usually states the cause the rest explains."""
    result, taken = list(chosen), {s.sentence.position for s in chosen}
    for scored in result:  # grows as it goes: a sentence brought in may lean on the one before it in turn
        sentence = scored.sentence
        previous = sentences[sentence.position - 1] if sentence.position > sentence.lead else None
        before = [previous] if previous and (_LEANS_BACK.search(sentence.text) or _GIVES_ITS_FIGURE.search(
            sentence.text) and not numbers(previous.text)) else []
        if causal and CAUSE_TERM in sentence.title_terms and sentence.position > sentence.lead:
            before.append(sentences[sentence.lead])
        for other in before:
            if other.position not in taken:
                result.append(Scored(other, scored.score, 0.0, 0.0, 0.0, frozenset()))
                taken.add(other.position)
    return result


def _also_in(sentence: Sentence, label: str) -> Sentence:
    """The sentence, noted as held by the passage ``label`` too (a PDF page repeats the end of the one before)."""
    if label == sentence.label or label in sentence.also:
        return sentence
    return replace(sentence, also=(*sentence.also, label))


def cite(sentence: Sentence) -> str:
    """The sentence with its labels before the final punctuation: "Margin was 45.2% [q3.md]."; a sentence that
    several passages hold cites each of them."""
    text = sentence.text.rstrip()
    end = text[-1] if text[-1] in ".!?" else "."
    labels = " ".join(f"[{label}]" for label in (sentence.label, *sentence.also))
    return f"{text.rstrip('.!?')} {labels}{end}"


def _without_the_scene(question: str, analysed: str, sentences: Sequence[Sentence]) -> list[Scored]:
    """"X is worried about Y. Before I call her back: how many ...?": what is asked, without the scene set before it,
    from no rule for another site than the one the scene names."""
    asked = without_scene(question, analysed)
    scene = places_named(question)
    return [s for s in select(asked, sentences) if not s.sentence.places - scene] if asked else []


#: The last ask of a question that asks twice: "..., and by when do they have to be used?", "... If only some can
#: go, until when must they be taken?".
_LAST_ASK = re.compile(r"(?:,\s*(?:and\s+)?|\band\s+)((?:(?:by|until|till|from|since)\s+)?"
                       r"(?:when|where|who|how (?:long|much|many|often)|what|which)\b[^?.,;]*)\??\s*$", re.I)
_PRONOUN = re.compile(r"\b(?:they|them|it|those|these)\b", re.I)
#: A counted thing an earlier ask names: "8 unused leave days".
_NUMBERED_THING = re.compile(r"\b\d+\s+((?:[a-z-]+\s+){0,2}[a-z-]+s)\b", re.I)


def resolved_last_ask(question: str) -> str:
    """The question's last ask with its pronouns replaced by what the ask before it is about ("how many unused days
    can I carry over, and by when must they be used?": "by when must unused days be used"); "" when the last ask
    points back to nothing."""
    question = question[:question.rfind("?") + 1] or question  # (what is said after the last question mark asks nothing)
    m = _LAST_ASK.search(question)
    if not m or not _PRONOUN.search(m[1]) or m.start() == 0:
        return ""
    before = question[:m.start()]
    named = _NUMBERED_THING.search(before)
    thing = asked_focus(before) or (named[1] if named else "")
    return _PRONOUN.sub(thing, m[1]) if thing else ""


def answer(question: str, blocks: Sequence[Block]) -> str:
    """The cited extractive answer to ``question`` from ``blocks``, or :data:`REFUSAL`.

    A question that compares sides or asks for reasons is answered demand by demand, as a reader would: the best
    sentence for each side ("Q2 2024 gross margin") and for the reasons, besides the best for the whole question.
    """
    sentences = sentences_of(blocks)
    q = analyse(question)
    chosen = select(without_remarks(unframed(question)), sentences) or _without_the_scene(question, q.text, sentences)
    demands = [*q.side_queries(), *([q.cause_query()] if q.cause else [])] if q.comparison or q.cause else []
    scene = set(_SCENE_PLACE.findall(question))  # ("a colleague in Lyon asked ...": a company-wide rule answers too)
    demands += [" ".join(w for w in part.split() if w not in scene) for part in q.parts] \
        if chosen and len(q.parts) > 1 and not q.comparison else []  # "how many days, and until when?": each part its
    # best sentence, once the whole question is answered at all
    last = resolved_last_ask(without_remarks(unframed(question))) if chosen else ""
    demands += [last] if last else []  # "... and by when must they be used?": what "they" are, asked again
    for demand in demands:
        chosen += select(demand, sentences, 1, exclude={s.sentence.text for s in chosen})[:1]
    unique = {s.sentence.position: s for s in chosen}
    return " ".join(cite(unique[p].sentence) for p in sorted(unique)) if unique else REFUSAL
