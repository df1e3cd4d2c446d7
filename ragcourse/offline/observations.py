"""Reading tool results: which number answers which side, and the final cited answer.

An observation of a search tool is a list of ``[label] title`` passages (the same shape
as the answer prompt's context), so the answering mechanics apply to it unchanged. For
a comparison the model also needs *the* number of each side. It takes the sentence that
mentions the subject ("gross margin") for the side's period, and in it the quantity
closest to the subject words whose clause names no other period ("45.2%, up from 42.1%
in Q2 2024" gives 45.2% for Q3 and 42.1% for Q2).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .answering import Sentence, cite, select, sentences_of
from .lexicon import expected_unit, limit_words, same_measure, similarity
from .messages import Block, parse_blocks, tables
from .text import (
    CUTOFF,
    RELATIVE_SIDE,
    Period,
    anchors,
    clause_span,
    clauses,
    find_periods,
    normalise_periods,
    number_value,
    numbers,
    period_mentions,
    plain_number,
    resolve_previous,
    stem,
    terms,
    unit_of,
)

#: The share of the subject's terms a sentence (with its title) must name for its number to count.
MIN_SUBJECT_SHARE = 0.5


@dataclass(frozen=True)
class Quantity:
    """The number found for one side of a comparison, with the sentence that states it."""

    side: str
    text: str        # as written, e.g. "45.2%"
    value: float
    unit: str
    sentence: Sentence

    @property
    def plain(self) -> str:
        """The number for a calculator expression: "45.2", "3200"."""
        return plain_number(self.value)


@dataclass(frozen=True)
class SummedQuantity(Quantity):
    """A quarter's figure as the sum of its months' ("$16.2M + $16.8M + $17.1M = $50.1M"): the calculator adds them
    inside the comparison's expression."""

    parts: tuple[Quantity, ...] = ()

    @property
    def plain(self) -> str:
        return f"({' + '.join(p.plain for p in self.parts)})"


@dataclass(frozen=True)
class ConvertedQuantity(Quantity):
    """An amount in another currency at a published rate ("€3,990 × 1.0389 = $4,145.21"): the calculator converts
    it inside the comparison's expression. ``parts`` are the amount and the rate, each cited from its own passage."""

    parts: tuple[Quantity, ...] = ()
    operator: str = "*"
    rate_name: str = ""  # "the EUR/USD rate of 31 Dec 2024"

    @property
    def plain(self) -> str:
        amount, rate = self.parts
        return f"({amount.plain} {self.operator} {rate.text})"

    @property
    def conversion(self) -> str:
        """The conversion alone, for the calculator: "3990 * 1.0389"."""
        return self.plain[1:-1]


def table_count(side: str, blocks: Sequence[Block]) -> Quantity | None:
    """How many there are of what a side names, counted as the rows of a table whose passage's title names them
    ("the local public holidays": the nine rows of "Public holidays in Eastbridge in 2025")."""
    wanted = set(terms(side))
    head = terms(side)[-1:] if wanted else []
    for block in blocks:
        title = set(terms(block.title))
        if not head or head[0] not in title or 2 * len(wanted & title) < len(wanted):
            continue
        for table in tables(block):
            if len(table) >= 3:  # a heading and at least two rows
                first = sentences_of([block])[:1]
                noun = side.split()[-1]
                return Quantity(side, f"{len(table) - 1} {noun}", float(len(table) - 1), "", first[0]) if first else None
    return None


def summed(side: str, parts: list[Quantity]) -> SummedQuantity:
    """The months' quantities of ``side`` added up, written in their own unit and precision."""
    decimals = max(len(p.plain.partition(".")[2]) for p in parts)
    value = round(sum(p.value for p in parts), decimals)
    unit = parts[0].unit
    amount = f"{value:,.{decimals}f}"
    total = f"${amount}{unit[1:]}" if unit.startswith("$") else f"{amount}{unit}"
    return SummedQuantity(side, f"{' + '.join(p.text for p in parts)} = {total}", value, unit, parts[0].sentence,
                          tuple(parts))


def _same_period(mentioned: list[Period], side: list[Period]) -> bool:
    """Whether a mentioned period is the side's, or a month inside the side's quarter ("95% in September" for Q3)."""
    return any(m.year in (None, s.year) and (m.kind == s.kind and m.number == s.number or m.kind == "month"
                                             and s.kind == "quarter" and (m.number - 1) // 3 + 1 == s.number)
               for m in mentioned for s in side)


_BINDS_FORWARD = re.compile(r"\s*(?:\w+\s+){0,2}?(?:in|for|during|at the end of|by the end of)\s+(?:the\s+)?$")
_RELATIVE_TO = re.compile(r"\s*(?:(?:or|,)\s*[$€£]?\d[\d,.]*\s*(?:%|[kmb]n?\b)?\s*)?"  # ("up $0.6M or 3.7% on July")
                          r"(?:on|over|from|versus|vs\.?|than|above|below|ahead of|behind|compared (?:with|to))\s+"
                          r"(?:the\s+)?$", re.I)  # "$0.3M above August": September's lead, not August's figure


def _number_periods(text: str, start: int, end: int) -> list[Period]:
    """The periods a number at ``text[start:end]`` belongs to (``text`` normalised).

    "$15.9M in October" binds forward; otherwise the number takes the nearest period named before it
    in its clause ("In Q3 2024, margin rose to 45.2%"), else one named after it, else the sentence's topic.
    """
    # "615 employees who joined before 1 October 2024": a cutoff date is a condition on what is counted, not the
    # period the number belongs to
    mentions = [m for m in period_mentions(text) if not _CUTOFF.search(text[max(0, m[0] - 30):m[0]])]
    first = clauses(text)[0] if clauses(text) else ""
    topic = [p for a, _, p in mentions if a < len(first)] if first and text.startswith(first) else \
        find_periods(first)
    for m_start, _, period in mentions:
        if m_start >= end and _BINDS_FORWARD.fullmatch(text[end:m_start]):
            return [period]
        if m_start >= end and _RELATIVE_TO.fullmatch(text[end:m_start]):  # "up 5.0% on Q2": a change, not Q2's value
            return topic
    span = clause_span(text, start)
    if span:
        inside = [(a, p) for a, _, p in mentions if span[0] <= a < span[1]]
        before = [p for a, p in inside if a < start]
        after = [p for a, p in inside if a >= end]
        if before or after:
            return before[-1:] if before else after[:1]
    return topic


_CUTOFF = re.compile(rf"{CUTOFF}(?:\d{{1,2}}\s+)?$", re.I)  # "joined before 1 October 2024", "hired after March"


#: "$1,800 per gateway": a number followed by the unit it is counted per.
#: "$4,600 per unit": a rate for one of whatever is counted, so it answers "per meter" and "per gateway" alike.
_ANY_UNIT = frozenset({"unit", "piece", "item"})
_PER_UNIT = re.compile(r"\s*(?:[\w-]+\s+)?per\s+([a-z]+)", re.I)
_BOUND = re.compile(r"\b(?:above|below|over|under|more than|less than|at least|at most|exceed(?:s|ed|ing)?)\s+$",
                    re.I)


def _at_limit(text: str, match: re.Match[str], limits: set[str]) -> bool:
    """For a limit asked about (``limits``: its words), whether the number is the one a limit word or "up to" leads
    to: "2% per week, up to a maximum of 20%" caps at 20%."""
    before = text[max(0, match.start() - 25):match.start()]
    return bool(limits) and (bool(limits & set(terms(before))) or bool(re.search(r"\bup to\s+$", before, re.I)))


def _is_bound(text: str, match: re.Match[str]) -> bool:
    """"above 94% in every week" is a threshold the value passed, not the value itself."""
    return bool(_BOUND.search(text[max(0, match.start() - 20):match.start()]))


def _period_fits(text: str, start: int, end: int, side_periods: list[Period], sentence: Sentence) -> bool:
    """Whether the number at ``text[start:end]`` belongs to the side's period (its own, else the passage's).

    A number with neither fits only a sentence that names the side's period somewhere — or, for a year, a
    sentence that names no period at all: the caller has checked that its title names that year ("Budget 2024").
    """
    own = _number_periods(text, start, end) or ([sentence.topic] if sentence.topic else [])
    named = own or list(sentence.scope_periods) or find_periods(text)
    if not named and all(p.kind == "year" for p in side_periods):
        return True
    return _same_period(named, side_periods)


def _is_share(text: str, end: int, hits: set[str]) -> bool:
    """"14% of revenue" is a share of the subject, not its value."""
    m = re.match(r"\s*of\s+(?:the\s+|our\s+|its\s+|total\s+)?([\w-]+)", text[end:])
    return bool(m and stem(m[1].lower()) in hits)


def find_quantity(side: str, subject: str, blocks: list[Block], unlike: frozenset[str] = frozenset(),
                  unit: str | None = None) -> Quantity | None:
    """The quantity the passages give for ``side`` (e.g. "Q3 2024") and ``subject`` (e.g. "gross margin"); a sentence
    with one of the ``unlike`` anchors (the other sides' periods) never gives it. The measure's words come first, then
    the same measure in its usual other words ("order intake" -> "bookings"), then the closest sentence in meaning.
    A number in the measure's ``unit`` (given, else known from its words) comes before one in another unit."""
    unit = expected_unit(subject) if unit is None else unit  # "order intake" is money: "20%" is something else
    return (_in_unit(side, subject, blocks, unlike, unit) if unit else None) or _in_unit(side, subject, blocks, unlike, "")


def _in_unit(side: str, subject: str, blocks: list[Block], unlike: frozenset[str], unit: str) -> Quantity | None:
    best: tuple[bool, float, Quantity] | None = None
    for words in (subject, *same_measure(subject)):
        found = _by_words(side, words, blocks, unlike, unit)
        if found and found[0] and found[1] == 1.0:
            return found[2]
        # "order intake" half met by "the largest orders were $0.7M": "bookings were $14.6M" meets all of it
        best = max(best, found, key=lambda f: (f[0], f[1]) if f else (False, -1.0)) if best else found
    if best and best[0]:
        return best[2]
    if best:  # named only by its title: a sentence that names the side itself, close in meaning, is better
        return _by_meaning(side, subject, blocks, named=True, unit=unit) or best[2]
    return _by_meaning(side, subject, blocks, unit=unit)


def _title_initials(blocks: list[Block]) -> dict[str, set[str]]:
    """Per passage, the initials of each name its title spells out: "Master Supply Agreement" is known as "MSA"."""
    found: dict[str, set[str]] = {}
    for block in blocks:
        found.setdefault(block.label, set()).update(_initials(block.title))
    return found


@lru_cache(maxsize=4096)
def _initials(title: str) -> frozenset[str]:
    """The initials of each run of capitalised words in a title, worked out once per title."""
    runs = re.findall(r"[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+", title)
    return frozenset(t for run in runs for t in terms("".join(w[0] for w in run.split())))


def _by_words(side: str, subject: str, blocks: list[Block], unlike: frozenset[str],
              unit: str = "") -> tuple[bool, float, Quantity] | None:
    """The best quantity of a sentence that shares the measure's words, whether it settles the side (it gives
    the rate the measure asks for, "$1,800 per gateway" for a per-gateway fee, or its sentence names the side
    itself, not only through its title), and the share of the measure's words its sentence holds."""
    side_anchors, subject_terms = anchors(side) | anchors(subject), set(terms(subject))  # "LX-200 bookings": its code
    side_periods = find_periods(side)
    side_words = set(terms(side)) - side_anchors - RELATIVE_SIDE if not side_periods else set()  # named: must be named
    subject_words = {_singular_word(w.lower()) for w in subject.split()}
    head = terms(subject)[-1:]  # "margin" in "gross margin": the number sits next to the head noun
    per = {stem(w.lower()) for w in re.findall(r"\bper[- ]([a-z]+)", subject, re.I)}  # "per-gateway fee": a rate
    # a named side ("VX-9") rather than a period; the measure's own word in it ("the VX-9 price") names no side
    name_terms = (set(terms(side)) - subject_terms or set(terms(side))) if not side_periods else set()
    code = anchors(side) if not side_periods else set()
    # a name in the measure ("Continental Europe bookings" in December) binds its clause's number like a named side
    owner = set(terms(" ".join(re.findall(r"\b[A-Z][a-z]+\b", subject)))) if side_periods else set()
    limits = limit_words(subject_terms)  # "cap" is met by "a maximum of"
    annual = bool(_ANNUAL.search(subject))
    best: tuple[tuple[float, ...], Quantity] | None = None
    short = _title_initials(blocks)
    for sentence in sentences_of(blocks):
        hits = subject_terms & (sentence.terms | (limits if limits & sentence.terms else set()))
        known = sentence.terms | sentence.title_terms | hits | short.get(sentence.label, set())
        # a sentence that names another side's period gives none of this side's, unless it names this side's period
        # itself ("Bookings in December were $13.8M, down from November"): then each number keeps its own period
        other_side = unlike & sentence.anchors and not (side_periods and side_anchors <= anchors(sentence.text))
        if not hits or not side_anchors <= sentence.anchors or not side_words <= known or other_side:
            continue
        if len(subject_terms & known) < MIN_SUBJECT_SHARE * len(subject_terms):
            continue  # "contract value $6.8M" is no answer about "liability terms"
        text = resolve_previous(normalise_periods(sentence.text), sentence.topic)
        tokens = list(re.finditer(r"[\w-]+", text))
        exact = len(subject_words & {_singular_word(w) for t in tokens for w in t[0].lower().split("-")}) / len(subject_words)
        # a limit asked for ("the cap on penalties") sits next to its own word, written "capped at" or "a maximum of"
        anchor_terms = limits & sentence.terms or set(head) & hits or hits
        positions = [m.start() for m in tokens if anchor_terms & set(terms(m[0]))]
        named = [m.start() for m in tokens if name_terms & set(terms(m[0]))]
        other = _other_owner(tokens, anchor_terms, set(terms(side)) | subject_terms)
        # the sentence itself names the side, not only its title; its code names it ("VX-9" for "Veltrix VX-9")
        own = side_words <= sentence.terms or bool(code) and code <= sentence.anchors or bool(
            side_words) and side_words <= sentence.title_terms and bool(_THERE.search(sentence.text))
        for match in numbers(text):
            basis = annual and _in_clause(text, match.start(), _ANNUAL)  # "$1.95M on an annual basis, or $1.46M in
            # 2024": a full-year figure asked for is the one its clause calls annual
            if side_periods and not _period_fits(text, match.start(), match.end(), side_periods, sentence):
                continue
            if unit and not unit_of(match[0]).startswith(unit):
                continue
            if named:  # "the VX-9 at $4,370, compared with $5,459 for the LX-200": a name binds its clause's number
                distance = min(abs(match.start() - p) for p in named)
                names = _names_clause(text, match.start(), name_terms) or bool(code) and _names_clause(
                    text, match.start(), code)  # ("the VX-9 at $4,370" names the Veltrix VX-9)
                rank = (own, basis, len(hits) / len(subject_terms), names,
                        -other, _at_limit(text, match, limits), exact,
                        -_is_share(text, match.end(), hits), _own_fit(text, match, subject_terms), -distance)
            else:
                distance = min((abs(match.start() - p) * (1 if match.start() > p else 1.5) for p in positions),
                               default=len(text))
                rank = (own, basis, len(hits) / len(subject_terms),
                        _names_clause(text, match.start(), owner) if owner else 1,
                        -other, _at_limit(text, match, limits), exact,
                        -_is_share(text, match.end(), hits), -_is_bound(text, match),
                        _names_next(text, match, subject_terms), _own_fit(text, match, subject_terms | anchor_terms),
                        -distance)
            rate = _PER_UNIT.match(text, match.end())
            rank = (bool(rate) and bool(per) and (stem(rate[1].lower()) in per or rate[1].lower() in _ANY_UNIT), *rank)
            signed = "±" if text[max(0, match.start() - 1):match.start()] == "±" else ""  # "±0.5%": a tolerance
            quantity = Quantity(side, signed + match[0].strip(), number_value(match[0]), unit_of(match[0]), sentence)
            if best is None or rank > best[0]:
                best = (rank, quantity)
    return (bool(best[0][0] or best[0][1]), best[0][3], best[1]) if best else None


#: A figure for a whole year: "on an annual basis", "full-year", "annualised", "per year".
_ANNUAL = re.compile(r"\b(?:annual(?:ly|ised|ized)?|full[- ]year|yearly|per year|a year)\b", re.I)


def _in_clause(text: str, position: int, pattern: re.Pattern[str]) -> bool:
    """Whether the clause of the number at ``position`` says what ``pattern`` says."""
    span = clause_span(text, position)
    return bool(span and pattern.search(text[span[0]:span[1]]))


#: "Roughly 35 people work there": a place named only by its section's title (not the "there" of "there are")
_THERE = re.compile(r"\b(?:there|here)\b(?!\s+(?:is|are|was|were|will|has|have|had|may|might|can|could|would|should|must|"
                    r"seems?|remains?)\b)", re.I)


#: How close in meaning a sentence must be to the measure when it shares no word with it ("own car" for "mileage").
MIN_MEANING = 0.4


def _by_meaning(side: str, subject: str, blocks: list[Block], named: bool = False, unit: str = "") -> Quantity | None:
    """The number of the side's sentence closest in meaning to ``subject``, for a measure written in other words
    than the documents use; in that sentence the number of the side's period (or next to the side's name).
    ``named``: only a sentence that names the side itself, compared with the side and the measure together
    ("Price was the lowest-rated area at 3.4" for "price score")."""
    side_anchors, side_periods = anchors(side) | anchors(subject), find_periods(side)
    side_words = set(terms(side)) - side_anchors if not side_periods else set()
    best: tuple[float, Quantity] | None = None
    for sentence in sentences_of(blocks):
        known = sentence.terms if named else sentence.terms | sentence.title_terms
        if not side_anchors <= sentence.anchors or not side_words <= known or not numbers(sentence.text):
            continue
        meaning = similarity(f"{side} {subject}" if named else subject, sentence.text)
        if meaning < MIN_MEANING or (best and meaning <= best[0]):
            continue
        if named and meaning <= similarity(side, sentence.text):
            continue  # the measure draws it no closer than the name alone: a sentence about the party (who it is,
            # where it is), not about the measure
        text = resolve_previous(normalise_periods(sentence.text), sentence.topic)
        for match in numbers(text):
            if side_periods and not _period_fits(text, match.start(), match.end(), side_periods, sentence):
                continue
            if unit and not unit_of(match[0]).startswith(unit):
                continue
            best = (meaning, Quantity(side, match[0].strip(), number_value(match[0]), unit_of(match[0]), sentence))
            break
    return best[1] if best else None


def _other_owner(tokens: list[re.Match[str]], head: set[str], asked: set[str]) -> bool:
    """Whether every mention of the measure belongs to a name or code the question did not ask about: "Aurora Cloud
    bookings were $2.3M" is not the month's bookings (a mention without such an owner is the plain measure)."""
    owned = []
    for index, token in enumerate(tokens):
        if not head & set(terms(token[0])):
            continue
        before = tokens[index - 1][0] if index else ""
        owner = bool(anchors(before)) or index > 1 and before[:1].isupper()  # a code, or a name after the first word
        owned.append(owner and not set(terms(before)) & asked and not find_periods(before))
    return bool(owned) and all(owned)


_OWN_BREAK = re.compile(r"[;:()]|,(?!\d{3})|\s(?:and|from|compared|versus|vs\.?|against|than|while|whereas|with)\s",
                        re.I)  # (not the comma of "1,280")


def own_stretch(text: str, match: re.Match[str]) -> str:
    """The number's own stretch of the sentence: up to the nearest "and", comma or contrast word on each side."""
    before = [m.end() for m in _OWN_BREAK.finditer(text, 0, match.start())]
    after = _OWN_BREAK.search(text, match.end())
    return text[before[-1] if before else 0:after.start() if after else len(text)]


def _names_next(text: str, match: re.Match[str], wanted: set[str]) -> bool:
    """Whether the words right after the number name the measure: "the $11.0M capital budget includes $4.6M for test
    stations" - the budget is $11.0M; the $4.6M is for something else."""
    following = re.match(r"\s+((?:(?!(?:and|or|but|for|of|in|on|at|to|from|with|by|than|the|an?)\b)[A-Za-z][\w-]*\s*){1,3})",
                         text[match.end():], re.I)  # (not "2.5% and a market adjustment": the next item's)
    return bool(following) and bool(wanted & set(terms(following[1])))


def _own_fit(text: str, match: re.Match[str], wanted: set[str]) -> int:
    """How many measure words stand in the number's own stretch of the sentence: in "a merit pool of 3.3% and a
    market adjustment of 0.8%" the market adjustment is 0.8%."""
    return len(wanted & set(terms(own_stretch(text, match))))


def _names_clause(text: str, position: int, name: set[str]) -> bool:
    """Whether the clause of the number at ``position`` names the side, every word of it ("Continental Europe
    $4.2M" names Continental Europe; "Northern Europe booked $2.6M" does not), or, when it names nobody, the clause
    before it does ("Penang, with roughly 290 staff")."""
    span = clause_span(text, position)
    if not span:
        return False
    clause = text[span[0]:span[1]]
    if not name <= set(terms(clause)) and span[0] and not re.search(r"\b[A-Z]|\d[A-Za-z]*-|-\d", clause[1:]):
        # "Penang, with roughly 290 staff": a clause that names nobody belongs to the name just before it
        before = next((found for p in range(span[0] - 1, -1, -1) if (found := clause_span(text, p))), None)
        clause = text[before[0]:before[1]] if before else clause
    return name <= set(terms(clause))


def _singular_word(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def calculation_result(observation: str) -> str:
    """The result of a calculator observation such as "45.2 - 42.1 = 3.1" (empty if it failed)."""
    m = re.search(r"=\s*(-?[\d.,]+)\s*$", observation.strip())
    return m[1] if m else ""


def quoted(query: str, observation: str, limit: int, figure: str | None = None,
           exclude: Collection[str] = (), counted: str | None = None) -> list[Sentence]:
    """The sentences of an observation that answer ``query`` (at most ``limit``), other than those in ``exclude``."""
    return [s.sentence for s in select(query, sentences_of(parse_blocks(observation)), limit, figure, exclude, counted)]


def compose(sentences: list[Sentence], extra: list[str], lead: Sequence[str] = ()) -> str:
    """The direct answer first (``lead``: the comparison and its computed figure), then the cited sentences that
    support it (each once), then extra lines (other systems, what could not be found)."""
    seen: dict[str, str] = {}
    for sentence in sentences:
        seen.setdefault(sentence.text, cite(sentence))
    return " ".join(dict.fromkeys([*lead, *seen.values(), *extra])).strip()


#: A stated range of a physical quantity: "-40 °C to +120 °C", "DN25 to DN1200", "10.5–42 V" (not money or a share,
#: whose "from X to Y" is a change).
_END = r"[+\-−]?(?:[A-Z]{1,3})?\d[\d,]*(?:\.\d+)?"
_RANGE = re.compile(rf"(?<![\w$€£.])({_END})(\s?°\s?[CF]|\s?[a-zA-Z/]{{1,4}}\b)?\s*(?:to|–|—)\s*({_END})(\s?°\s?[CF])?(?![\d%])")
#: Units that name the measure they count: a sentence in °C is about a temperature.
_UNIT_MEASURES = {"°": "temperature", "dn": "pipe size"}


def range_end(side: str, subject: str, blocks: list[Block], extreme: str) -> Quantity | None:
    """For "the top temperature of X" or "which goes colder": the upper (``extreme`` "max") or lower end of the
    range the best sentence about the side and the measure states, its sign kept ("-30 °C")."""
    wanted, named = set(terms(subject)), anchors(side) or set(terms(side))  # "LX-200 transmitter": its code
    best: tuple[int, Sentence, re.Match[str]] | None = None
    for sentence in sentences_of(blocks):  # the first sentence with the most of the measure's words wins a tie
        found = _RANGE.search(sentence.text)
        if not found or not named <= sentence.terms | sentence.title_terms:
            continue
        units = " ".join(measure for key, measure in _UNIT_MEASURES.items() if key in found[0].lower())
        overlap = len(wanted & (sentence.terms | sentence.title_terms | set(terms(units))))
        if overlap and (best is None or overlap > best[0]):
            best = (overlap, sentence, found)
    if not best:
        return None
    _, sentence, found = best
    end = (found[1] if extreme == "min" else found[3]).replace("−", "-")
    degrees = next((u.strip() for u in (found[4], found[2]) if u and u.strip().startswith("°")), "")
    value = float(re.sub(r"[^\d.\-]", "", end.replace(",", "")))
    return Quantity(side, f"{end} {degrees}".strip(), value, "", sentence)
