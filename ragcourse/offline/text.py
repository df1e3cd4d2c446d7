"""Text mechanics shared by every task of the offline model: sentences, terms, periods, numbers.

Everything here is general-purpose and works on text the model has never seen:

* sentences come from splitting on sentence ends and line breaks; Markdown table rows
  become "header: value" sentences, so a row keeps its meaning out of the table;
* terms are lower-cased, stop-word-free, Snowball-stemmed words (``margins`` -> ``margin``);
* periods are written in many ways ("Q3 2024", "2024 Q3", "third quarter of 2024", "Q3-24");
  :func:`normalise_periods` rewrites them all to "Q3 2024" *for matching only* (answers
  always quote the source verbatim);
* anchors are the terms a supporting sentence must not contradict: years, quarters,
  months and product codes. "Q3 2023" does not answer a question about "Q3 2024".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import Stemmer


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``: long word lists read better as a paragraph."""
    return frozenset(text.split())


STOPWORDS = word_set("""
pls please thanks thx
a about above after again against all also am an and any are as at be because been before being below between both
but by can could did do does doing down during each across throughout regarding concerning few for from further had has have having he her here hers him his
how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over
own same she should so some such than that the their theirs them then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you your yours please tell show give
find know let us company company's many much according get got make made use used using like per via vs versus
i'd i'm i've i'll we'd we're we've you'd you're didn't doesn't don't isn't wasn't weren't aren't hasn't haven't
hadn't can't couldn't won't wouldn't shouldn't went gone come
""")

#: The words that open a question about something ("what", "whether"), as a regex group.
WH_WORDS = "what|which|who|whom|whose|when|where|why|how|whether"
WH_WORD = rf"(?:{WH_WORDS})"
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MONTH_PREFIX = {m[:3]: i + 1 for i, m in enumerate(MONTHS)}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}

_YEAR = r"(?:19|20)\d{2}"
_QUARTER_PATTERNS = (
    (re.compile(rf"\b(first|second|third|fourth|1st|2nd|3rd|4th)[ -]quarter(?:\s+(?:of\s+)?(?:fy\s*)?({_YEAR}))?\b",
                re.I), lambda m: (_ORDINALS[m[1].lower()], m[2])),
    (re.compile(rf"\b(?:last|final)[ -]quarter\s+of\s+(?:fy\s*)?({_YEAR})\b", re.I), lambda m: (4, m[1])),
    (re.compile(rf"\b(?:fy\s*)?({_YEAR})\s*[-/ ]?\s*q([1-4])\b", re.I), lambda m: (int(m[2]), m[1])),
    (re.compile(rf"\bq([1-4])\s*(?:[-/' ]\s*|\s+of\s+)?(?:fy\s*)?({_YEAR})\b", re.I), lambda m: (int(m[1]), m[2])),
    (re.compile(r"\bq([1-4])\s*[-/']\s*(\d{2})\b", re.I), lambda m: (int(m[1]), "20" + m[2])),
    (re.compile(r"\bq([1-4])\b(?!-)", re.I), lambda m: (int(m[1]), None)),  # "q3" typed in lowercase
)
_MONTH_YEAR = re.compile(rf"\b({'|'.join(MONTHS)}|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?)"
                         rf"(?:\s+\d{{1,2}},?)?\s+({_YEAR})\b", re.I)
#: A month on its own, written out or abbreviated ("Oct", "Sept.").
_STANDALONE_MONTH = rf"\b({'|'.join(MONTHS)}|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?"
_STANDALONE_YEAR = re.compile(rf"(?<![\d.,$])\b({_YEAR})\b(?![.,]?\d)")
_WORD = re.compile(r"[a-z0-9]+(?:[.\-][a-z0-9]+)*")
_CODE = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9]+(?:-[a-z0-9]+)+$")

#: A quantity as written in a document: "$47.9M", "45.2%", "3,200 units", "6 percent" — not the "7" of "PX-7" nor a
#: version ("firmware 3.4.0").
NUMBER = re.compile(r"(?<![\w.])(?<![A-Za-z]-)[$€£]?\d(?:[\d,]*\d)?(?:\.\d+)?(?!\.\d)"  # (no version: "3.4.0")
                    r"(?:\s?(?:%|percent\b|percentage points?\b|pp\b|[mMkK]\b|bn\b|million\b|billion\b|thousand\b))?")

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9$])")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|no|approx|ca|dr|mr|ms|mrs|inc|ltd|co|st)\.$", re.I)
_BULLET = re.compile(r"^\s*(?:[-*+•]\s+|\d{1,2}[.)]\s+|#{1,6}\s+)")

_AI_INSTRUCTION = re.compile(
    r"\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|rules?|prompts?|guidelines?|above)\b"
    r"|\b(ai|llm|language model|chatbot|assistant|gpt)s?\b.{0,60}\b(must|should|shall|are instructed|reading this)\b"
    r"|\b(you are now|system prompt|jailbreak|as an ai)\b",
    re.I)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


@dataclass(frozen=True)
class Period:
    """A time period named in a text: a quarter, a month or a year (``year`` may be unknown)."""

    year: int | None
    kind: str  # "quarter" | "month" | "year"
    number: int = 0

    @property
    def text(self) -> str:
        if self.kind == "quarter":
            return f"Q{self.number} {self.year}" if self.year else f"Q{self.number}"
        if self.kind == "month":
            name = MONTHS[self.number - 1].capitalize()
            return f"{name} {self.year}" if self.year else name
        return str(self.year)

    def sort_key(self) -> tuple[int, int]:
        """Chronological order; months map into their quarter so "Q3" and "September" compare."""
        months = {"quarter": self.number * 3, "month": self.number, "year": 12}[self.kind]
        return (self.year or 0, months)


#: "from 42.1% in the second quarter of 2024 to 45.2% in the third": a later ordinal that leaves out "quarter of 2024".
_ELIDED_QUARTER = re.compile(rf"\b((?:first|second|third|fourth)[ -]quarter\s+(?:of\s+)?({_YEAR})\b(?:(?!\.\s)[^?;]){{0,60}}?"
                             r"\bthe\s+)(first|second|third|fourth)(?=\s*(?:[,?;)]|\.(?!\d)|$|\s+(?:and|or|but)\b))", re.I)


@lru_cache(maxsize=16384)  # the same passages are read on every turn: their words are worked out once
def normalise_periods(text: str) -> str:
    """Rewrite every quarter notation to "Q<n> <year>" so different spellings match (a quarter left out after an
    earlier one, "the second quarter of 2024 to the third", included)."""
    text = _ELIDED_QUARTER.sub(lambda m: f"{m[1]}{m[3]} quarter of {m[2]}", text)
    text = re.sub(r"\b([qQ][1-4])\s*(?:->|→|=>)\s*(?=[qQ][1-4]\b)", r"\1 to ", text)  # "q2->q3 2024"
    text = re.sub(rf"\b(end|mid|start|early|late)-({_YEAR})\b", r"\1 \2", text, flags=re.I)  # "end-2023 cash": a year
    for pattern, parts in _QUARTER_PATTERNS:
        text = pattern.sub(lambda m, parts=parts: _quarter_text(*parts(m)), text)
    return text


def _quarter_text(number: int, year: str | None) -> str:
    return f"Q{number} {year}" if year else f"Q{number}"


def period_mentions(text: str) -> list[tuple[int, int, Period]]:
    """Where ``text`` (already :func:`normalise_periods`-ed) names a period: (start, end, period), in order."""
    return list(_period_mentions(text))


#: "May she borrow ...?", "May I ...": the verb opening a question, not the month.
_MODAL_MAY = re.compile(r"\bMay(?=\s+(?:I|we|you|he|she|they|it|one|someone|anyone|everyone|staff|employees|members|"
                        r"a|an|the|my|our|your|his|her|their)\b)")


@lru_cache(maxsize=16384)
def _period_mentions(text: str) -> tuple[tuple[int, int, Period], ...]:
    found: list[tuple[int, int, Period]] = []
    for m in re.finditer(rf"\bQ([1-4])(?: ({_YEAR}))?\b", text):
        found.append((*m.span(), Period(int(m[2]) if m[2] else None, "quarter", int(m[1]))))
    for m in _MONTH_YEAR.finditer(text):
        found.append((*m.span(), Period(int(m[2]), "month", _MONTH_PREFIX[m[1][:3].lower()])))
    for pattern, kind in ((_STANDALONE_MONTH, "month"), (_STANDALONE_YEAR.pattern, "year")):
        for m in re.finditer(pattern, text, re.I):
            if m[0] in ("may", "mar") or _MODAL_MAY.match(text, m.start()):
                continue  # "employees may work ...", "scratches mar the finish": verbs, not months
            if not any(a <= m.start() < b for a, b, _ in found):
                period = (Period(None, "month", _MONTH_PREFIX[m[1][:3].lower()]) if kind == "month"
                          else Period(int(m[1]), "year"))
                found.append((*m.span(), period))
    return tuple(sorted(found, key=lambda item: item[0]))


def find_periods(text: str) -> list[Period]:
    """The periods a text names, in order of appearance, without repeats."""
    return list(dict.fromkeys(p for _, _, p in period_mentions(normalise_periods(text))))


_PREVIOUS = re.compile(r"\b(?:the\s+)?(?:previous|prior|preceding|last) (quarter|month)\b", re.I)


def resolve_previous(text: str, topic: Period | None) -> str:
    """"the previous quarter" written as the quarter before ``topic`` (the passage's period), for matching only."""
    if not topic or not topic.year or topic.kind not in ("quarter", "month"):
        return text

    def before(m: re.Match[str]) -> str:
        if m[1].lower() != topic.kind:
            return m[0]
        size = 4 if topic.kind == "quarter" else 12
        number, year = (topic.number - 1, topic.year) if topic.number > 1 else (size, topic.year - 1)
        return Period(year, topic.kind, number).text

    return _PREVIOUS.sub(before, text)


def nearest_period(text: str, wanted: set[str]) -> Period | None:
    """The period named closest to any of the ``wanted`` terms in ``text`` ("cut-over is scheduled for November")."""
    text = normalise_periods(text)
    positions = [m.start() for m in _WORD.finditer(text.lower()) if wanted & set(terms(m[0]))]
    mentions = period_mentions(text)
    if not mentions:
        return None
    if not positions:
        return mentions[0][2]
    return min(mentions, key=lambda m: min(abs(m[0] - p) for p in positions))[2]


_CLAUSE_BREAK = re.compile(r"[;:()]|,(?!\d{3})|\s(?:from|compared|versus|vs\.?|against|than|while|whereas)\s", re.I)


def clauses(sentence: str) -> list[str]:
    """A sentence cut at commas and contrast words: "margin rose to 45.2%", "from 42.1% in Q2 2024"."""
    return [c for c in _CLAUSE_BREAK.split(sentence) if c.strip()]


def clause_span(text: str, position: int) -> tuple[int, int] | None:
    """Where the clause holding ``text[position]`` starts and ends (see :func:`clauses`)."""
    offset = 0
    for clause in clauses(text):
        offset = text.find(clause, offset)
        if offset <= position < offset + len(clause):
            return offset, offset + len(clause)
        offset += len(clause)
    return None


#: A year named as a target ("postponed to 2025", "valid until 2026"): it dates the target, not the event.
TARGET_YEAR = re.compile(r"\b(?:to|until|till|into|through|by)\s+((?:19|20)\d{2})\b", re.I)


#: The words before a date that make it a cutoff on what is counted ("employees who joined before 1 October 2024"),
#: not the period a figure belongs to.
CUTOFF = r"\b(?:before|after|since|until|till|prior to)\s+(?:the\s+)?"
_CUTOFF_DATE = re.compile(rf"{CUTOFF}(?:\d{{1,2}}\s+)?(?:[A-Za-z]+\.?\s+)?(?:19|20)\d{{2}}\b", re.I)


def opens_with_period(sentence: str) -> bool:
    """Whether the sentence's first clause names a period (then that period, not the title's, is its topic); a
    target year ("moved to 2025") and a cutoff ("joined before 1 October 2023") do not."""
    parts = clauses(sentence)
    return bool(parts and find_periods(_CUTOFF_DATE.sub(" ", TARGET_YEAR.sub(" ", parts[0]))))


#: Sides that name no period or thing of their own: "the current one" is whichever version the other sides are not.
RELATIVE_SIDE = frozenset(_stemmer().stemWord(w) for w in ["current", "latest", "new", "now", "today", "present", "one", "ones"])


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word's stem; a product code in the plural is the code ("lx-200s" -> "lx-200")."""
    if re.fullmatch(r"[a-z0-9-]*\ds", word) and _CODE.match(word):
        return word[:-1]
    return _stemmer().stemWord(word)


def words(text: str) -> list[str]:
    """Lower-cased word tokens of ``text`` (periods normalised; codes like "lx-200" and "45.2" kept whole)."""
    return list(_words(text))


@lru_cache(maxsize=16384)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(normalise_periods(text).lower().replace("'s ", " ")))


def terms(text: str) -> list[str]:
    """Stemmed content words in order: what two texts must share to be about the same thing.

    A hyphenated compound counts as its parts ("salary-increase rate" is about "salary"); a code
    ("LX-200") stays whole.
    """
    return list(_terms(text))


#: Derivational endings a stem may carry beyond a related one: "pay" and "payment", "deliv" and "deliveri" (delivered,
#: delivery), "renew" and "renewal". Only these, so "term" is no "termin"; a short ending only after a root of four
#: letters or more, so "lab" is no "labor".
_DERIVED = ("ment", "ments", "eri", "er", "or", "abl", "al", "ion", "ing", "iti", "i")


@lru_cache(maxsize=16384)
def related_forms(term: str) -> frozenset[str]:
    """The stem and the stems of words derived from the same root by one ending of :data:`_DERIVED` (either way)."""
    def allowed(root: str, end: str) -> bool:
        return len(root) >= (3 if len(end) >= 3 else 4)

    forms = {term, *(term + end for end in _DERIVED if allowed(term, end))}
    forms |= {term[:-len(end)] for end in _DERIVED if term.endswith(end) and allowed(term[:-len(end)], end)}
    return frozenset(forms)


#: "Sep", "Dec": a month's short name is the month ("31 Dec 2024" answers "31 December 2024").
_MONTH_NAMES = {m[:3]: m for m in MONTHS if m != "may"} | {"sept": "september"}


@lru_cache(maxsize=16384)
def _terms(text: str) -> tuple[str, ...]:
    parts = [p for w in _words(text) for p in ([w] if "-" not in w or _CODE.match(w) else w.split("-"))]
    return tuple(stem(_MONTH_NAMES.get(w, w)) for w in parts if w not in STOPWORDS and len(w) > 1 or w.isdigit())


def anchors(text: str) -> set[str]:
    """The terms a supporting sentence must contain: years, quarters, months and product codes."""
    return set(_anchors(text))


@lru_cache(maxsize=16384)
def _anchors(text: str) -> frozenset[str]:
    found = set()
    for w in _words(text):
        if w in _MONTH_NAMES and re.search(rf"\d\s*{w}\b|\b{w}\.?\s*\d", text, re.I):  # "31 Dec 2024", "Sep 2024"
            w = _MONTH_NAMES[w]
        month = w in MONTHS and (w != "may" or any(not _MODAL_MAY.match(text, m.start())  # "may work" is the verb
                                                   for m in re.finditer(r"\bMay\b", text)))
        if re.fullmatch(_YEAR, w) or re.fullmatch(r"q[1-4]", w) or month or _CODE.match(w):
            found.add(stem(w))
    return frozenset(found)


@lru_cache(maxsize=1)
def month_terms() -> tuple[str, ...]:
    """The twelve month names as anchors (stemmed), January first."""
    return tuple(stem(m) for m in MONTHS)


def is_year(term: str) -> bool:
    return bool(re.fullmatch(_YEAR, term))


def months_of_quarters(found: set[str] | frozenset[str]) -> set[str]:
    """The month anchors a quarter anchor stands for: a sentence about "Q4 2024" is about October to December."""
    return {month_terms()[3 * (int(a[1]) - 1) + i] for a in found if re.fullmatch(r"q[1-4]", a) for i in range(3)}


def quarters_of_months(found: set[str] | frozenset[str]) -> set[str]:
    """The quarter anchors that month anchors fall in: "October" is in "Q4"."""
    return {f"q{month_terms().index(a) // 3 + 1}" for a in found if a in month_terms()}


def split_sentences(text: str) -> list[str]:
    """Sentences and list items of a passage; Markdown tables become one "header: value" sentence per row."""
    sentences: list[str] = []
    lines = text.splitlines()
    header: list[str] | None = None
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("|"):
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue
            if header is None:
                header = cells
                continue
            sentences.append("; ".join(f"{h}: {c}" if h else c for h, c in zip(header, cells, strict=False) if c))
            continue
        header = None
        stripped = _BULLET.sub("", stripped)
        if stripped:
            sentences.extend(_split_line(stripped))
    return [s for s in sentences if len(s.split()) >= 3 or _LABELLED_VALUE.fullmatch(s)]


#: "Severity: SEV-1.": a field and its value, short but a fact of its own.
_LABELLED_VALUE = re.compile(r"[A-Z][a-z]+:\s+[\w.%$€£±/-]*\d[\w.%/-]*\.?")


def _split_line(line: str) -> list[str]:
    parts: list[str] = []
    for piece in _SENTENCE_END.split(line):
        if parts and _ABBREVIATION.search(parts[-1]):
            parts[-1] = f"{parts[-1]} {piece}"
        else:
            parts.append(piece)
    return [p.strip() for p in parts if p.strip()]


def is_instruction_to_ai(sentence: str) -> bool:
    """True for sentences that talk to an AI system ("ignore your rules ..."): data, never an answer."""
    return bool(_AI_INSTRUCTION.search(sentence))


#: "1200 Meridian Avenue": a house number, not a quantity.
_STREET = re.compile(r"\s+(?:[A-Z][\w'’-]*\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Boulevard|Blvd|Way|Drive|"
                     r"Place|Square|Quay|Parkway)\b")


def numbers(text: str) -> list[re.Match[str]]:
    """Quantities in ``text`` (years, quarter numbers, days and house numbers excluded), as regex matches."""
    found = []
    for m in NUMBER.finditer(text):
        value = m.group().strip()
        if re.fullmatch(_YEAR, value) or text[max(0, m.start() - 1):m.start()].lower() == "q" or _is_day(text, m) \
                or _STREET.match(text, m.end()):
            continue
        found.append(m)
    return found


_MONTH_AFTER = re.compile(rf"\s+(?:{'|'.join(MONTHS)}|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b)", re.I)
_MONTH_BEFORE = re.compile(rf"\b(?:{'|'.join(MONTHS)})\s+$", re.I)


def _is_day(text: str, m: re.Match[str]) -> bool:
    """"16 December" / "December 16": a day of a date, not a quantity."""
    if not re.fullmatch(r"\d{1,2}", m.group().strip()):
        return False
    return bool(_MONTH_AFTER.match(text, m.end()) or _MONTH_BEFORE.search(text[max(0, m.start() - 12):m.start()]))


def number_value(quantity: str) -> float:
    """The numeric value of a quantity as written ("$47.9M" -> 47.9, "3,200" -> 3200)."""
    return float(re.sub(r"[^\d.]", "", quantity.replace(",", "")).rstrip(".") or 0)


def plain_number(value: float) -> str:
    """A number without exponent or trailing zeros: 135.8, 5459, -19.3."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def unit_of(quantity: str) -> str:
    """The unit of a quantity: "%", "$", "$M" or "" (so results are written in the same unit)."""
    q = quantity.lower()
    if "%" in q or "percent" in q:
        return "%"
    scale = next((s for s, keys in (("M", ("m", "million")), ("bn", ("bn", "billion")), ("k", ("k", "thousand")))
                  if any(re.search(rf"\d\s?{k}\b", q) for k in keys)), "")
    return ("$" if q.startswith("$") else "") + scale


def is_refusal(text: str) -> bool:
    """True when an answer says it cannot answer (the offline model's or a real model's wording)."""
    return bool(re.search(r"\b(cannot|can't|could not|couldn't|unable to|do not|don't)\b.{0,30}\b(find|answer|know|"
                          r"locate|determine)\b|\bnot (?:found|available|mentioned|contain)", text, re.I))
