"""Words the question grammar knows, matched the forgiving way a reader does.

The grammar of :mod:`.questions` is written with a few dozen function words ("compare",
"budgeted", "average", "quarter"). A learner types "budgetted", "avrage" or "Quater";
:func:`correct` maps such a word onto the grammar word it is closest to in spelling
(rapidfuzz's normalised Indel similarity), and leaves every other word alone: names,
products and subject words are never "corrected".

:func:`similarity` and :func:`closest` compare meanings with the course's embedding model:
the operation of a question that asks for a figure but names no operation the grammar knows
(compared with each operation's description), and a measure written in other words than the
document ("private car" for "own vehicle").
Both use the embedding function the model was handed (:mod:`.meaning`), remembered per text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from functools import lru_cache

import numpy as np
from rapidfuzz import fuzz, process

from . import meaning
from .text import MONTHS, STOPWORDS, stem, terms, word_set

#: The grammar's own words: what a typo is corrected to (and nothing else is).
GRAMMAR_WORDS = word_set("""
compare compared comparison difference different increase increased decrease decreased percentage percent
points average averaged combined total budget budgeted planned forecast actual quarter quarters month
months between versus which highest lowest largest smallest biggest greatest share proportion ratio reasons
because explain happened received delivered shipped postponed cancelled approved
""") | frozenset(MONTHS) | word_set("first second third fourth")

#: How close in spelling a word must be to a grammar word to be read as it (0–100).
MIN_SPELLING = 87


def closest_spelling(word: str, words: Collection[str], cutoff: float = MIN_SPELLING) -> str:
    """The word of ``words`` closest to ``word`` in spelling (rapidfuzz's normalised Indel similarity, 0–100); ""
    when none reaches ``cutoff``."""
    match = process.extractOne(word, words, scorer=fuzz.ratio, score_cutoff=cutoff)
    return match[0] if match else ""


@lru_cache(maxsize=4096)
def _corrected_word(word: str) -> str:
    lowered = word.lower()
    if len(lowered) < 5 or lowered in GRAMMAR_WORDS or lowered in STOPWORDS or not lowered.isalpha():
        return word
    match = closest_spelling(lowered, GRAMMAR_WORDS)
    if not match or match == lowered + "s":  # "reason" is not a misspelt "reasons" ("decembers" is "december")
        return word
    return match


#: Short forms that analysts type ("avg monthly cost", "pct of revenue", "capex").
ABBREVIATIONS = {"avg": "average", "pct": "percent", "qty": "quantity", "yr": "year", "yrs": "years",
                 "qtr": "quarter", "capex": "capital expenditure", "opex": "operating expenses",
                 "approx": "approximately", "dept": "department", "mgr": "manager", "mgmt": "management",
                 "cust": "customer", "fw": "firmware", "gw": "gateway", "mfg": "manufacturing", "max": "maximum",
                 "op": "operating", "temp": "temperature", "hrs": "hours", "mins": "minutes", "gm": "gross margin",
                 "rev": "revenue", "adj": "adjustment", "ref": "reference", "yoy": "year-on-year", "ytd": "year-to-date",
                 "cert": "certificate", "certs": "certificates", "config": "configuration", "spec": "specification",
                 "specs": "specifications", "hq": "headquarters", "nps": "Net Promoter Score",
                 "csat": "customer satisfaction", "qoq": "quarter-on-quarter", "sla": "service level agreement",
                 "lds": "liquidated damages", "wfh": "work from home", "pto": "paid time off", "infra": "infrastructure",
                 "mtg": "meeting", "msa": "master agreement", "u": "you", "ur": "your",
                 "arr": "annual recurring revenue", "tech": "technical", "ppl": "people", "pax": "people"}
#: Short forms read in full only as typed in lower case and standing alone: chat's "can u", not "a U-bend" or "Grade U".
_LOWER_ONLY = frozenset({"u", "ur"})


#: Short forms that also name a version or a reference when a label follows: "rev B", "spec 2.1", "ref ORD-881".
_LABELLED = frozenset({"rev", "ref", "spec"})
_LABEL_AFTER = re.compile(r"\.?\s+(?:[A-Z]\b|\d[\w.-]*|[A-Z]{2,}-?\d)")


#: "what's", "what’s" and "whats" spelt out, so that one grammar reads them and "what is" alike.
_CONTRACTION = re.compile(r"\b(what|who|where|how|which|when)['’]?s\b", re.I)


#: A code spoken with a space, as dictation writes it: "LX 200", "ORD 24840", "AG 115" (the documents write "LX-200").
#: Periods ("Q3 2024", "FY 2024"), currencies ("USD 5,000"), a score ("NPS 40"), "A 3-year term" and the notations
#: written closed ("DN 600" is "DN600", "IP 68" is "IP68") are no such codes.
_SPOKEN_CODE = re.compile(r"\b(?!(?:Q|H|FY|CY|USD|EUR|GBP|MYR|NPS)\s)([A-Z]{2,4}|(?![AI]\b)[A-Z])\s(\d{1,5})\b(?![.,]\d|\s*%|-)")
_CLOSED_NOTATION = frozenset({"DN", "IP", "PN", "M"})
#: A question run on from the sentence before it, as dictation writes it: "... was delayed Why is it ...?",
#: "... compare with Q3 2023 Give the delta ...": a capitalised question word or request after a word.
_RUN_ON = re.compile(r"(?<=[a-z\d%)])\s+(?=(?:Why|What|How|Which|Who|Whose|When|Where|Is|Are|Was|Were|Does|Do|Did|Can|"
                     r"Could|Should|Has|Have|Give|Show|Break|Take|Tell|List)\s+[a-z\d$'])")  # (not "What Is It")


def dictated(text: str) -> str:
    """``text`` as typed rather than dictated: codes joined ("LX 200" -> "LX-200"), run-on questions set apart."""
    text = _SPOKEN_CODE.sub(lambda m: f"{m[1]}{'' if m[1] in _CLOSED_NOTATION else '-'}{m[2]}", text)
    return _RUN_ON.sub(". ", text)


def spell_out(text: str) -> str:
    """``text`` with question-word contractions written in full ("Where's the depot?" -> "Where is the depot?")."""
    return _CONTRACTION.sub(r"\1 is", text)


_AGREEMENT_TAG = re.compile(r"((?:^|(?<=[.!?]\s))(?!(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|"
                            r"what|which|who|whom|whose|when|where|why|how)\b)[^.!?]*?)[,\s]+(?:right|correct|no|yeah|"
                            r"isn't it|didn't it|wasn't it|aren't they|don't they)\s*\?", re.I)


def correct(text: str) -> str:
    """``text`` with misspelt or abbreviated grammar words fixed ("the budgetted cost" -> "the budgeted cost")."""
    text = spell_out(text)
    text = re.sub(rf"\b({'|'.join(ABBREVIATIONS)})\b\.?", lambda m: m[0] if m[1].lower() in _LABELLED and _LABEL_AFTER.match(
        text, m.end()) or m[1].lower() in _LOWER_ONLY and (not m[1].islower() or text[m.end():m.end() + 1] in "-'’")
        else ABBREVIATIONS[m[1].lower()], text, flags=re.I)
    text = re.sub(r"\bno\.\s+of\b", "number of", text, flags=re.I)  # "max no. of devices"
    text = re.sub(r"\bw/o(?=\s)", "without", re.sub(r"\bw/(?=\s)", "with", text, flags=re.I), flags=re.I)  # chat's "w/"
    # "the cap went up, right?": a tag after a statement asks for agreement, not a question of its own ("is that
    # right?" is a question)
    text = _AGREEMENT_TAG.sub(r"\1?", text)
    # "EV charging bays" (an "EV" in a finance text is enterprise value: only a vehicle's things make it a vehicle)
    text = re.sub(r"\bEVs?\b(?=\s+(?:charg\w*|bays?|cars?|points?|spaces?|batter(?:y|ies)|fleet)\b)", "electric-vehicle",
                  text, flags=re.I)
    text = re.sub(r"\b(?:u+m+|u+h+|erm|uhm|hm+)\b,?\s*", "", text, flags=re.I)  # a dictated "so um what ..."
    # "..., and also how much is ...?": "also" before a second question adds nothing to what is asked
    text = re.sub(r"\band\s+also\s+(?=(?:how|what|which|who|when|where|why|is|are|was|were|does|do|did|can|has|have)\b)",
                  "and ", text, flags=re.I)
    return dictated(re.sub(r"[A-Za-z]+", lambda m: _corrected_word(m[0]), spoken_numbers(text)))  # ("LX two hundred")


_UNITS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                      "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                                      "seventeen", "eighteen", "nineteen"))}
_TENS = {w: 10 * i for i, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"),
                                         start=2)}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORD = rf"(?:{'|'.join([*_TENS, *_UNITS, *_SCALES])})"
_SPOKEN = re.compile(rf"\b{_NUMBER_WORD}(?:(?:[\s-]+|\s+and\s+){_NUMBER_WORD})*\b", re.I)
_SPOKEN_QUARTER = re.compile(r"\bQ\s*(one|two|three|four)\b", re.I)


#: A count a question may write as a word: "three weeks late".
COUNT_WORD = "|".join(w for w, n in _UNITS.items() if 2 <= n <= 12)


def number_word(word: str) -> int | None:
    """"three" -> 3: a small number written as a word ("three weeks late")."""
    return _UNITS.get(word.lower())


def spoken_numbers(text: str) -> str:
    """Numbers said rather than written, as a dictated question has them: "four hundred twenty gateways" -> "420
    gateways", "twenty twenty-four" -> "2024", "Q three" -> "Q3". Small numbers alone ("the two offices") stay words."""
    def number(m: re.Match[str]) -> str:
        words = [w for w in re.split(r"[\s-]+", m[0].lower()) if w != "and"]
        if not set(words) & {*_TENS, *_SCALES}:
            return m[0]
        chunks = []  # "twenty twenty-four": two two-digit chunks make a year
        for word in words:
            if word in _UNITS and chunks and chunks[-1][1] and chunks[-1][0] % 10 == 0 and _UNITS[word] < 10:
                chunks[-1] = (chunks[-1][0] + _UNITS[word], False)  # "twenty-four"
            elif word in _TENS or word in _UNITS:
                chunks.append((_TENS.get(word, _UNITS.get(word, 0)), word in _TENS))
            else:
                chunks.append((-_SCALES[word], False))
        if len(chunks) == 2 and chunks[0][0] in (19, 20) and 10 <= chunks[1][0] <= 99:
            return str(chunks[0][0] * 100 + chunks[1][0])
        total = current = 0
        for value, _ in chunks:
            if value == -100:
                current = (current or 1) * 100
            elif value == -1000:
                total, current = total + (current or 1) * 1000, 0
            else:
                current += value
        return str(total + current)

    text = _SPOKEN_QUARTER.sub(lambda m: f"Q{_UNITS[m[1].lower()]}", text)
    return _SPOKEN.sub(number, text)


#: Measures that business writing names in several ways; the embedding model does not know all of them are one.
SAME_MEASURE = (("order intake", "bookings", "orders"), ("revenue", "sales", "turnover", "top-line"),
                ("headcount", "employees", "staff", "people", "persons"), ("salary", "pay"), ("profit", "earnings", "bottom-line"),
                ("spending", "expenditure"), ("customers", "clients"))


def same_measure(subject: str) -> list[str]:
    """``subject`` with a measure it names written in each of its other usual words: "LX-200 order intake" ->
    ["LX-200 bookings", "LX-200 orders"]."""
    words = subject.split()
    stems = [stem(w.lower()) for w in words]
    variants = []
    for group in SAME_MEASURE:
        for phrase in group:
            wanted = {stem(w) for w in phrase.split()}
            if wanted <= set(stems):
                kept = [w for w, s in zip(words, stems, strict=True) if s not in wanted]
                variants += [" ".join([*kept, other]) for other in group if other != phrase]
                break
    return variants


def one_word_per_measure(subject: str) -> str:
    """``subject`` with a measure written once: "people persons" -> "people" (two of its usual words, asked twice)."""
    kept: list[str] = []
    for word in subject.split():
        group = next((g for g in SAME_MEASURE if stem(word.lower()) in {stem(w) for w in g}), ())
        if not (group and any(stem(k.lower()) in {stem(w) for w in group} for k in kept)):
            kept.append(word)
    return " ".join(kept)


#: Gradable adjectives whose dimension has a name of another stem: "hotter" asks for a temperature.
_DIMENSIONS = {"hot": "temperature", "cold": "temperature", "warm": "temperature", "cool": "temperature",
               "heavy": "weight", "light": "weight", "expensive": "price", "cheap": "price", "costly": "price",
               "fast": "speed", "quick": "speed", "slow": "speed", "wide": "width", "narrow": "width",
               "deep": "depth", "shallow": "depth"}
#: ... and those that usually compare the thing itself ("which was bigger?": more of the measure already named), but
#: in a specification name its size or length ("the biggest pipe": the pipe size).
_SIZES = {"big": "size", "large": "size", "small": "size", "long": "length", "short": "length"}
#: Adjective endings and the noun ending of the quality they name: accurate -> accuracy, reliable -> reliability.
_QUALITY_ENDINGS = (("ate", "acy"), ("able", "ability"), ("ible", "ibility"), ("ient", "iency"))


def dimension(adjective: str, sizes: bool = False) -> str:
    """The measure a gradable adjective compares: "hotter" -> "temperature"; by its ending, a guess written beside
    the adjective, since not every "-ate" word has an "-acy" ("more accurate" -> "accurate accuracy"); empty when
    the word is no such adjective, so the caller keeps it. With ``sizes``, "biggest" is a size and "longer" a length."""
    word = adjective.lower()
    bases = [word]
    grade = re.match(r"(\w+?)(i?)(er|est)$", word)  # heavier, cheapest, wider, hotter
    if grade:
        stem_ = grade[1] + ("y" if grade[2] else "")
        bases += [stem_, stem_ + "e", stem_[:-1] if len(stem_) > 2 and stem_[-1] == stem_[-2] else stem_]
    named = _DIMENSIONS | (_SIZES if sizes else {})
    for base in bases:
        if base in named:
            return named[base]
    for ending, noun in _QUALITY_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 3:
            return f"{word} {word[: -len(ending)] + noun}"
    return ""


#: Measures counted in money, and measures that are a percentage: a number in the other unit is not their value.
MONEY_MEASURES = frozenset(terms("revenue sales bookings intake orders cost costs price prices spend spending value "
                                 "budget income profit expenses expenditure fee fees salary pay capex opex"))
PERCENT_MEASURES = frozenset(terms("margin rate share percentage percent yield growth churn utilisation utilization accuracy "
                                   "tolerance uptime availability"))


def expected_unit(subject: str) -> str:
    """"$" for a measure of money ("LX-200 order intake"), "%" for a rate ("gross margin"), else "" (unknown)."""
    words = set(terms(subject))
    if words & PERCENT_MEASURES:
        return "%"
    return "$" if words & MONEY_MEASURES else ""


#: Words a sentence uses for the same kind of limit: a "cap" is as often written "up to a maximum of".
SAME_HEAD = (frozenset(terms("cap capped maximum max limit ceiling")), frozenset(terms("minimum min floor")))


def limit_words(words: set[str]) -> set[str]:
    """Every word for the limit that ``words`` (terms) ask about, empty when they ask about none."""
    return set().union(*(group for group in SAME_HEAD if group & words))


def similarity(a: str, b: str) -> float:
    """Cosine of two texts' meanings (-1 to 1)."""
    if not (a and b):
        return 0.0
    first, second = meaning.embed_remembered([a, b])
    return float(first @ second)


def closest(phrase: str, options: Sequence[str], minimum: float = 0.5) -> tuple[int, float]:
    """The index of the option closest in meaning to ``phrase`` and its cosine (index -1 below ``minimum``)."""
    if not phrase or not options:
        return -1, 0.0
    similarities = np.array([similarity(option, phrase) for option in options])
    best = int(similarities.argmax())
    return (best if similarities[best] >= minimum else -1), float(similarities[best])
