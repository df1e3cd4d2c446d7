"""Tool calling: a ReAct policy written as rules, re-derived from the conversation at every turn.

The server keeps no state: each request carries the question, the earlier tool calls
and their observations (``role: "tool"`` messages), and the policy recomputes what is
still missing:

1. **independent look-ups**, emitted together as parallel ``tool_calls``: one search per
   side (and measure) of a comparison or per part of the question, the reasons when the
   direction of the change is stated, the orders tool for order or shipment status, the
   web tool for public, market or regulator information;
2. **dependent steps**, once those observations are in: the calculator on the two
   numbers found for the compared sides (later minus earlier; one calculation per
   measure), the search for the reasons of the change (again once its direction is
   known), one search per cause that a found sentence lists ("the causes were A, B and
   C"), the web for a question about a named thing that no internal search could
   answer, and one re-phrased search for a side whose number is still missing, but only
   while observations keep adding passages not seen before and no other search of the
   round may bring it (every search re-sends all observations: tokens add up);
3. **the answer**, when nothing is missing or nothing new can be tried, or at once when
   told that steps or tokens are exhausted: cited sentences from the observations (each
   later search adds sentences not quoted yet; for "how did X change" also the sentences
   that state a change), the calculation, and a note of what could not be found.

An identical call (same tool, same arguments) is never made twice.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property
from typing import Any

from .. import prompts
from .answering import (
    ASKS_PROHIBITION,
    GIVES_CAUSE,
    REFUSAL,
    Sentence,
    asked_focus,
    asks_quantity,
    counted_thing,
    counts,
    figure_asked,
    score,
    select,
    sentences_of,
    speaks_of,
)
from .currency import currency_of, find_rate, mentions, symbol_of
from .dates import fill_years, today_from
from .daycount import counted_back, dates_in, notice_period, written
from .describing import descriptions, named, resolve, title_party
from .lexicon import (
    COUNT_WORD,
    MONEY_MEASURES,
    correct,
    dictated,
    expected_unit,
    number_word,
    similarity,
)
from .messages import Block, canonical_json, content_text, parse_blocks, system_text
from .observations import (
    MIN_MEANING,
    ConvertedQuantity,
    Quantity,
    SummedQuantity,
    calculation_result,
    compose,
    find_quantity,
    own_stretch,
    quoted,
    range_end,
    summed,
    table_count,
)
from .questions import (
    AGGREGATE_WORDS,
    AGREEMENT_WORD,
    CUE_WORDS,
    DECREASE_WORDS,
    INCREASE_WORDS,
    MOVE_WORDS,
    SPREAD,
    STANDARD_LEVEL,
    VERSION_WORDS,
    Question,
    analyse,
    asked_clause,
    asked_word,
    asks_orders,
    clause_words,
    from_to,
    key_phrase,
    months_of,
    share_asked,
)
from .text import (
    MONTHS,
    RELATIVE_SIDE,
    STOPWORDS,
    Period,
    anchors,
    find_periods,
    is_year,
    nearest_period,
    number_value,
    numbers,
    plain_number,
    stem,
    terms,
    unit_of,
)
from .toolbox import CUSTOMER_KEY, Tool, classify, customer_name, order_arguments, record_ids, text_arguments

#: "how many of the 180 parking spaces are NOT part of the lottery": a whole (stated, or else found in the documents),
#: the things it counts, and the part that is left out.
_NOT_AMONG = re.compile(r"\bhow many (?:of (?:the|our|its|their|those|these)?\s*)?(?:(?P<whole>\d[\d,]*)\s+)?(?:[a-z-]+\s+){0,2}?"
                        r"(?P<thing>[a-z-]+s)\b[^?]*?\b(?:are|were|is|was)\s*(?:[a-z]+\s+and\s+)?(?:not|n't)\s+"
                        r"(?P<rest>[^?,;]+)", re.I)  # ("how many spaces are reserved and not in the lottery")
#: A count before the things it counts: "130 spaces", "12 spaces with chargers".
_COUNTED_NOUN = re.compile(r"\b(\d[\d,]*)\s+(?:[a-z-]+\s+)?([a-z-]+s)\b", re.I)


_NAME_BEFORE_NOUN = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w-]+(?:\s+[A-Z][\w-]+)*)\s+([a-z][\w-]+)(?:\s+([a-z][\w-]+))?")
#   (the noun may follow one word of its own: "the Rotterdam sales office" names an office)
#: A name with a noun phrase in apposition: "FlowTech Europe 2024, the trade fair for ..." names a trade fair.
_APPOSITIVE = re.compile(r"\b([A-Z][\w&/-]*(?:\s+(?:[A-Z][\w&/-]*|\d{4}))*),\s+(?:the|an?|our)\s+((?:[a-z][\w-]*\s+){0,2}"
                         r"[a-z][\w-]*)\b")
_ASKS_CHANGE = re.compile(r"\bchang\w*|\bdiffer\w*", re.I)
_STATES_CHANGE = re.compile(r"\b(?:now|instead of|up from|down from|replac\w*|no longer|previously|formerly|"
                            r"(?:increased|reduced|raised|lowered|changed|rises|rose|falls|fell|goes|went|moves) from)\b",
                            re.I)
#: A name or code after the first word: "Quorra Metrics", "EMSB", "EUR/USD" (months are dates, not names).
_NAMED = re.compile(rf"(?<!^)(?<![.?!] )\b(?!(?:{'|'.join(m.capitalize() for m in MONTHS)}|Q[1-4])\b)[A-Z][\w&/-]+")
#: A question whose first part asks for a cause: its "it" is the thing it names, not a name an answer gives.
_ASKS_WHY_FIRST = re.compile(r"\s*(?:why|how come|what (?:\w+ )?caused)\b", re.I)
_NAME_RUN = re.compile(r"[A-Z][\w&/-]*(?:\s+[A-Z][\w&/-]*)*")
#: A section heading that announces causes: "What drove the improvement", "Why it happened", "Root cause".
_CAUSE_HEADING = re.compile(rf"^\s*(?:what|why|how)\b|{GIVES_CAUSE.pattern}|\bmade the difference\b", re.I)
#: The question words whose answer has a shape of its own (a date, a place), kept for a part searched by a name.
_WHEN_WHERE = re.compile(r"(?:^|[,;:?—–-]\s*|\band\s+)(when|where|until when|by when)\b", re.I)  # asking, not
# relating: "the city where our head office is" asks no place
#: Words that single one thing out of many: "the biggest order", "the most satisfied customers".
_SUPERLATIVE = re.compile(r"\b(?:largest|biggest|highest|lowest|smallest|greatest|most|least|best|worst|top)\b", re.I)
#: "raw-material costs added 1.9 points": a part of a change and how much of it that part made.
_COMPONENT = re.compile(r"([a-z][a-z -]{2,40}?)\s+(?:added|contributed|took away|subtracted|explain(?:s|ed)?)\s+(?:about\s+)?"
                        r"(\d+(?:\.\d+)?)\s+(?:percentage\s+)?points\b", re.I)
#: "contributed about 1.1 points": a sentence that gives a part of the change its figure.
_POINTS = re.compile(r"\b\d+(?:\.\d+)?\s+(?:percentage\s+)?points\b", re.I)
#: "8 × Aurora gateway ·": a record's count of a thing, the thing's name up to the next field.
_LISTED_THING = re.compile(r"(?<![\w.])(\d[\d,]*)\s*[×x]\s+((?:[A-Za-z][\w-]*\s+){0,2}[A-Za-z][\w-]*)\s*(?:·|$)", re.M)
#: "420 × PX-7" in a listed record: how many of which thing.
_LISTED_UNITS = re.compile(r"(?<![\w.])(\d[\d,]*)\s*[×x]\s+([A-Za-z][\w-]*)")
#: "how far below the current list price", "higher than the contract price": what a figure is held against.
_COMPARAND = re.compile(r"\b(?:than|below|above|under|over|vs\.?|versus|against|compared (?:with|to))\s+(?:the\s+|our\s+)?"
                        r"(?P<other>[^,?;.]+?)(?=\s+(?:was|is|were|are|did|does|do)\b|[,?;.]|$)", re.I)
#: A question about a fall: "which region took the harder hit", "lost more", "dropped further".
_FALL = re.compile(r"\b(?:fell|fall|falls|drop\w*|declin\w*|lost|lose|loses|hit|shr[iau]nk\w*|decreas\w*|down|slump\w*|"
                   r"worse)\b", re.I)
#: Words that say a price is today's: "the current list price".
_NOW_WORDS = re.compile(r"(?:current|new|latest|today'?s|present)$", re.I)
#: "$499,800.00" in a listed record: what it cost.
_LISTED_AMOUNT = re.compile(r"\$([\d,]+(?:\.\d+)?)")
#: "that code", "which code was it": the earlier answer meant is a code, which mixes letters and digits ("AG-115").
_POINTS_TO_CODE = re.compile(r"\b(?:that|this|the same|which|what)\s+(?:[a-z]+\s+)?(?:code|number|id)\b", re.I)
_CODE = re.compile(r"(?=[\w/-]*\d)(?=[\w/-]*[A-Za-z])[\w/-]+")
#: A question that sets what is now against what was before: "now vs the old one-off amount", "old vs new".
_OLD_AND_NEW = re.compile(r"\b(?:now|new|current|today)\b.*\b(?:old|previous|former|earlier|one-off|before)\b|\bbefore\b.*\bafter\b|"
                          r"\b(?:old|previous|former|earlier)\b.*\b(?:new|now|current)\b", re.I)
#: "roughly what % saving", "a ballpark percentage": a percentage asked for in whole points.
_ROUGHLY = re.compile(r"\b(?:roughly|approximately|approx|ballpark|round(?:ed)? to (?:a |the nearest )?(?:whole|percent))\b",
                      re.I)
#: The question grammar's own words: no passage need contain them, so they are never "unknown" names.
_GRAMMAR_TERMS = frozenset(stem(w) for w in CUE_WORDS | INCREASE_WORDS | DECREASE_WORDS | AGGREGATE_WORDS | MOVE_WORDS)
#: A records tool's reply that lists nothing: "No orders matching ...", "[]", "0 results".
_NOTHING_FOUND = re.compile(r"^\s*(?:\[\s*\]|no\b|nothing\b|none\b|0\s)|\bno (?:[\w-]+ ){0,2}(?:matching|found)\b", re.I)
#: Units of measurement written after a figure: "+65 °C", "12 mm", "4.5 kg", "3 bar".
_MEASURE_UNIT = r"\s*(°[CF]|mm|cm|km|m|kg|g|t|bar|psi|kW|kWh|MW|MWh|V|mA|A|Hz|kHz|ms|s|h|l|L|m³|m3|dB|ppm|rpm)(?![\w²³])"
#: "By when must notice be given?", "the latest date on which notice may be served": a deadline is asked.
_ASKS_DEADLINE = re.compile(r"\bby when\b|\blatest (?:possible )?(?:date|day)\b|\bdeadline\b|\bsign-by\b|"
                            r"\bwhen (?:must|should|do|does|would|will|can|is)\b[^?]*\b(?:notice|notify|inform|tell|"
                            r"sign|cancel|terminate|talks?)\b", re.I)
#: "how many days before the fair opens is the cutoff?", "how many days after the order went in did it arrive?":
#: the days between the thing asked about and an anchor event.
_DAYS_BETWEEN = re.compile(r"\bhow many (?:calendar )?days\s+(?:before|after)\s+(?P<anchor>.+?)\s+(?:is|was|are|"
                           r"were|did|does|do|will|would)\s+[^?,;]+", re.I)
_OPENS = re.compile(r"\b(?:opens?|opening|starts?|begins?|kicks? off)\b", re.I)
_CLOSES = re.compile(r"\b(?:ends?|closes?|closing|finish(?:es)?)\b", re.I)
#: "the total over the three-year initial term", "over 5 years": a yearly figure times the years.
_OVER_YEARS = re.compile(rf"\bover\s+(?:the\s+|a\s+|its\s+|their\s+|our\s+)?(\d+|{COUNT_WORD})[- ]years?\b", re.I)
_YEARLY = re.compile(r"\bannual(?:ly)?\b|\byearly\b|\bper year\b|\ba year\b|\brun[- ]rate\b", re.I)
_IN_MILLIONS = re.compile(r"\bin\s+(?:\$\s?m|\$?\s?millions?|m\$)\b|\$M\b", re.I)
#: A figure written with its unit, which a question may quote to have it checked: "about 20%", "$4,370".
_CHECKED_FIGURE = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?(?:[MKk]\b)?|(?<![\d.,])\d[\d,]*(?:\.\d+)?\s?%")
#: "Does that reconcile to ...", "is that in line with ...", "does it tie to ...": a figure held up to be checked.
_CHECKS = re.compile(r"\b(?:reconcile|tie|ties|square|match|agree|consistent|in line)\b[^?]*?(?:[$€£]\s?\d|\d\s?%)", re.I)
_PERCENT_WORD = r"(?:%|\bper\s?cent\b|\bpercentage\b)"
#: "how many % below our price", "by what percentage is it higher", "how much cheaper in percent": which way the
#: percent is asked, and so what it is a percent of.
_PERCENT_DIRECTION = re.compile(
    rf"{_PERCENT_WORD}\s+(?P<dir>below|under|cheaper|lower|less|above|higher|more|dearer)\b|"
    rf"\b(?:what|how many|how much)\s+{_PERCENT_WORD}(?!\s+points?\b)[^?;]*?\b"
    r"(?P<dir2>below|cheaper|lower|less|above|higher|more|dearer)\b|"
    rf"\b(?P<dir3>cheaper|lower|less|higher|more|dearer)\b[^?;]*?\b(?:in|as an?)\s+{_PERCENT_WORD}(?!\s+points?\b)", re.I)
_BELOW_WORDS = frozenset({"below", "under", "cheaper", "lower", "less"})
#: "the gap as a percentage of the LX-200 price", "... of the highest fee".
_AS_PERCENT_OF = re.compile(rf"\bas\s+(?:an?\s+)?(?:{_PERCENT_WORD}|share|proportion|fraction)\s+of\s+"
                            r"(?:the\s+|our\s+|their\s+|its\s+)?(?P<of>[^,;?]+)", re.I)
_BASIS_POINTS = re.compile(r"\bbasis points?\b|\bbps\b", re.I)
_LEFT = re.compile(r"\b(?:left|remaining|remain|still available|to go|still to (?:be \w+|\w+)|outstanding|yet to|"
                   r"not yet \w+)\b", re.I)  # ("still to be called off", "not yet delivered")
#: "price per meter", "what did they pay per LX-200", "the unit price": an amount shared out over the units.
_PER_UNIT = re.compile(r"\bper\s+(?!(?:cent|annum|year|quarter|month|week|day|hour|night|person|head|the|our|your|their|"
                       r"its|a|an)\b)[A-Za-z][\w-]*|"
                       r"\bunit (?:price|cost)\b", re.I)
_ASKS_VALUE = re.compile(r"\b(?:value|amount|worth|revenue|spend|spent|dollars?|\$)\b", re.I)
_LISTS_CAUSES = re.compile(r"\b(?:causes|reasons|drivers|factors) (?:were|are|included?)\s+(.+?)[.:]?$", re.I)
VALVES = (prompts.OUT_OF_STEPS, prompts.OUT_OF_TOKENS, "Do not call any more tools")


@dataclass
class Call:
    """A tool call made earlier in the conversation, with its observation once it arrived."""

    name: str
    args: dict[str, Any]
    round: int
    result: str | None = None

    @property
    def key(self) -> str:
        return f"{self.name}:{canonical_json(self.args)}"

    @property
    def text(self) -> str:
        """The free-text argument (query or expression)."""
        return next((str(v) for v in self.args.values() if isinstance(v, str)), "")


@dataclass(frozen=True)
class Records:
    """What records another system listed add up to, and how the question uses that sum."""

    kind: str        # "sum", "left" (of a count the question states), "share" (of a figure in the documents), ...
    expression: str  # for the calculator: "420 + 504 + 420", "850 - 464", "1344 / 2100 * 100"
    listed: str      # the sum as written: "1,344 × PX-7", "$2,204,990"
    other: str = ""  # the stated count or the documents' figure, as written: "850", "2,100", "$9.3M"
    # (for penalties, "asked" when the delay is the one the question sets, not the records' own)
    source: Sentence | None = None  # the sentence that gives the documents' figure

    def line(self, result: str, calculation: str) -> str:
        """The answer's first sentence: the sum, what is left, or the share."""
        if self.kind == "left":
            return f"{self.listed} already ordered of {self.other} leaves {result} ({calculation})."
        if self.kind == "share":
            cited = f" [{self.source.label}]" if self.source else ""
            return f"The listed records come to {self.listed}, {result}% of {self.other}{cited} ({calculation})."
        if self.kind == "penalty":  # "ORD-7 (3 days late: 1 week at 2% of $8,700 = $174); ... come to $406"
            cited = f" [{self.source.label}]" if self.source else ""
            late = {"asked": "With the delay asked about", "ceiling": "At most"}.get(self.other, "Delivered late")
            # ("had it come 10 days late", "the most we could owe on it")
            return f"{late}: {self.listed}{cited}. The penalties come to ${result} ({calculation})."
        if self.kind == "per unit":
            return f"{self.listed} comes to ${result} per {self.other} ({calculation})."
        if self.kind == "against":  # "$801,540 for 183 × LX-200, per unit against $5,459 [list.md]: -19.8%"
            cited = f" [{self.source.label}]" if self.source else ""
            unit = "%" if self.expression.endswith("* 100") else ""  # (a percent of the price, else a difference)
            return f"{self.listed}, per unit against {self.other}{cited}: {result}{unit} ({calculation})."
        return f"The listed records add up to {self.listed} ({calculation})."


@dataclass(frozen=True)
class Decision:
    """Either tool calls to make (name, arguments) or the final answer."""

    tool_calls: list[tuple[str, dict[str, Any]]]
    content: str | None = None


def _is_valve(text: str) -> bool:
    return any(valve in text for valve in VALVES)


#: The words that call a document one a question can name as its source.
_DOCUMENT_WORD = rf"(?:{AGREEMENT_WORD}|policy|policie|manual|handbook|guide|checklist)"
#: A document a part names as its source: "their contract", "the travel policy", "the manual".
_NAMES_DOCUMENT = re.compile(rf"\b{_DOCUMENT_WORD}s?\b", re.I)


#: "A, B and C should be flagged as amber": what a standard flags, and at which level.
_FLAGGED_AS = re.compile(r"^(?P<items>.+?)\s+(?:should|must|shall|are|is|will)\s+be\s+(?:flagged|marked|rated|treated|"
                         r"classed)\s+(?:as\s+)?(?:an?\s+)?(?P<level>amber|red|green)\b", re.I)
#: Where a flagged item's condition starts: "payment terms | longer than 60 days", "warranties | starting at ...".
_QUALIFIER = re.compile(r"\s+(?:longer|shorter|more|less|fewer|above|below|over|under|beyond|exceeding|starting|"
                        r"from|for|without|with|instead|than|at|after|before)\b", re.I)
#: "the lead time set in their contract", "the discount under the agreement": a thing a named document sets.
_DOCUMENT_SETS = re.compile(rf"((?:[\w-]+\s+){{1,3}}?)(?:(?:set|stated|agreed|specified|defined|promised|required|"
                            rf"given|written)\s+)?(?:in|by|under)\s+(?:their|the|its|our|his|her)\s+"
                            rf"({_DOCUMENT_WORD}s?)\b", re.I)


#: "delivered within the lead time", "on time", "how long did delivery take": the days from order to delivery.
_ASKS_DELIVERY_TIME = re.compile(r"\b(?:lead|delivery)[- ]times?\b|\b(?:delivered|arrived?|shipped) (?:with)?in\b|"
                                 r"\bon time\b|\blate\b", re.I)
_PLACED = re.compile(r"\bplaced (\d{4}-\d{2}-\d{2})\b")
_DELIVERED = re.compile(r"\bdelivered on (\d{4}-\d{2}-\d{2})\b")
#: "delivered on 2024-07-02 (expected 2024-06-29: 3 days late)": a record of a late delivery.
_LATE = re.compile(r"\bdelivered on (\d{4}-\d{2}-\d{2}) \(expected (\d{4}-\d{2}-\d{2})")
#: "had it been delivered ten days after the promised date", "if it shows up 8 days late": a delay the question sets.
_STATED_DELAY = re.compile(rf"\b(\d+(?:\.\d+)?|{COUNT_WORD})\s+(day|week)s?\s+(?:late|overdue|behind|after\b|past\b)", re.I)
#: "what penalty would we owe for the late deliveries?": a sum a late-delivery clause sets.
_ASKS_PENALTY = re.compile(r"\b(?:penalt(?:y|ies)|liquidated damages|damages|deduct\w*|owe\w*|exposure)\b", re.I)
#: "would they be entitled to damages", "are we owed a penalty": whether a sum is due, not what a clause says.
_ASKS_ENTITLED = re.compile(r"\b(?:entitled|owed?|due)\b[^?]*\b(?:penalt(?:y|ies)|damages)\b", re.I)
_ASKS_LATE = re.compile(r"\blate\b|\bdelay\w*|\bafter (?:the |their |its )?(?:promised|expected|agreed)", re.I)


#: Plurals that are other words: "6 people" at "$90 per person".
_IRREGULAR_PLURALS = {stem(plural): stem(one) for plural, one in (("people", "person"), ("men", "man"), ("women", "woman"),
                                                                   ("children", "child"), ("feet", "foot"))}


def _one_thing(counted: list[str], rated: list[str]) -> bool:
    """Whether a counted thing and a thing priced per one are the same ("people" and "person")."""
    return bool(counted) and [_IRREGULAR_PLURALS.get(t, t) for t in counted] == [_IRREGULAR_PLURALS.get(t, t) for t in rated]


def _in_days(text: str) -> str:
    """A delay written in weeks and days, or in weeks and a half, in days: "3 weeks and 2 days" -> "23 days",
    "3 and a half weeks" -> "24.5 days" (so a rate per week counts its full or begun weeks)."""
    def count(word: str) -> int:
        return int(word) if word.isdigit() else number_word(word)

    text = re.sub(rf"\b(\d+|{COUNT_WORD})\s+weeks?\s+and\s+(\d+|{COUNT_WORD})\s+days?\b",
                  lambda m: f"{7 * count(m[1]) + count(m[2])} days", text, flags=re.I)
    return re.sub(rf"\b(\d+|{COUNT_WORD})\s+and\s+a\s+half\s+weeks?\b", lambda m: f"{7 * count(m[1]) + 3.5:g} days",
                  text, flags=re.I)


def _weekly_rate(text: str) -> tuple[float, bool, bool, int] | None:
    """The percent per week a late-delivery clause sets (read either way round, see :func:`_rates`), whether only
    full weeks count, whether a part of a week counts as one, and where the rate ends (its cap follows); ``None``
    when the text sets none."""
    rate = next((r for r in _rates(text) if r[1].endswith("%") and terms(r[2])[:1] == ["week"]), None)
    if not rate:
        return None
    full_only = bool(re.search(r"\b(?:full|whole|complete)\s+weeks?\b", text, re.I))
    return float(rate[1].rstrip("%")), full_only, bool(_WEEK_BEGUN.search(text)), text.find(rate[0]) + len(rate[0])


#: Words that make a share one of counted things: "of the contracted volume", "do those units represent".
_COUNTED_SHARE = frozenset(terms("units volume quantity number count"))
#: A question about the most that can be owed: "the cap", "the maximum", "at most", "the most we could owe".
_ASKS_CEILING = re.compile(r"\b(?:ceiling|cap|capped|maximum|max|at most|limit|exposure|the most (?=(?:we|they|you|it)\b))\b",
                           re.I)
_PENALTY_CAP = re.compile(r"\b(?:maximum|max\.?|capped\s+at|cap\s+of|not\s+(?:to\s+)?exceed\w*|up\s+to)\s+(?:of\s+)?"
                          r"(\d+(?:\.\d+)?)%", re.I)
#: The id a listed record opens with: "- ORD-24861 · Sable Rail · placed ...".
_RECORD_ID = re.compile(r"^\s*(?:[-*•]\s*)?([\w-]*\d[\w-]*)")


def _set_duration(phrase: str, sentence: Sentence) -> tuple[int, str, Sentence] | None:
    """The duration a sentence sets for ``phrase``: "a lead time of 4 weeks" -> (4, "weeks", sentence); "of two
    months" -> (2, "months", sentence). (Working days are no calendar days: they are not read.)"""
    m = re.search(rf"\b{re.escape(phrase)}\s+(?:of\s+)?(?:up to\s+|at most\s+)?(\d+|{COUNT_WORD})\s+"
                  r"(days?|weeks?|months?)\b", sentence.text, re.I)
    count = (int(m[1]) if m[1].isdigit() else number_word(m[1])) if m else None
    return (count, m[2], sentence) if m and count else None


def _with_names(query: str, *names: str) -> str:
    """The query with each name it does not already hold put first: "Sable Rail PX-7 share of the contract"."""
    missing = [name for name in names if name and name.lower() not in query.lower()]
    return " ".join([*missing, query])


def _question(messages: list[dict[str, Any]]) -> tuple[int, str]:
    """The index and text of the user's question: the last user message that is not a valve notice."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        text = content_text(message)
        if message.get("role") == "user":
            for valve in VALVES:
                text = text.replace(valve, "")
            if text.strip():
                return index, dictated(text.strip())  # ("the LX 200 order": as typed, "the LX-200 order")
    return 0, ""


def _calls(messages: list[dict[str, Any]]) -> list[Call]:
    """Earlier tool calls in order, each with its observation."""
    by_id: dict[str, Call] = {}
    calls: list[Call] = []
    round_number = 0
    for message in messages:
        if message.get("role") == "assistant" and message.get("tool_calls"):
            round_number += 1
            for tool_call in message["tool_calls"]:
                function = tool_call.get("function", {})
                try:
                    args = json.loads(function.get("arguments") or "{}")
                except json.JSONDecodeError:
                    args = {"raw": function.get("arguments")}
                call = Call(function.get("name", ""), args, round_number)
                by_id[tool_call.get("id", "")] = call
                calls.append(call)
        elif message.get("role") == "tool" and message.get("tool_call_id") in by_id:
            by_id[message["tool_call_id"]].result = content_text(message)
    return calls


class Policy:
    """The rule-based ReAct policy for one request."""

    def __init__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> None:
        index, typed = _question(messages)
        self.tools = classify(tools)
        every = _calls(messages[index + 1:])
        self.made = {c.key for c in every}  # (an identical call is never made twice)
        # "the Ohio utility": a party described, not named, is searched for first, on its own; the name found stands
        # in its place, and that search only names: its passages are no evidence for the answer
        search = self.tools.get("search")
        self.described = descriptions(typed) if search else []
        naming = {d: next((c for c in every if c.name == search.name and c.text == d.query), None)
                  for d in self.described}
        self.question_text = named(typed, {d.phrase: resolve(d, parse_blocks(c.result or "")) for d, c in naming.items()
                                           if c})
        self.calls = [c for c in every if c not in naming.values()]
        self.today: date | None = today_from(system_text(messages) + "\n" + self.question_text)
        self.q: Question = analyse(self.question_text, self.today)
        if not self.q.orders and self._record_ids:
            self.q = replace(self.q, orders=True)  # ("... on ORD-24826": an id written like the tool's own example)
        self.must_answer = not tools or not self.question_text or any(_is_valve(content_text(m)) for m in messages[index:])
        self.must_answer |= any(_is_valve(content_text(m)) for m in messages if m.get("role") == "system")

    @cached_property
    def _record_ids(self) -> list[str]:
        """The record ids the question names, written like the orders tool's own example; worked out once."""
        return record_ids(self.tools["orders"], self.question_text) if "orders" in self.tools else []

    # -- what to call -----------------------------------------------------------------------------------------
    def _first_round(self) -> list[tuple[Tool, dict[str, Any]]]:
        q, search, orders, web = self.q, self.tools.get("search"), self.tools.get("orders"), self.tools.get("web")
        unnamed = [d.query for d in self.described if f"{search.name}:{canonical_json(text_arguments(search, d.query))}"
                   not in self.made]
        if unnamed:  # (a search with the description's words would be made again with the name: tokens add up)
            return [(search, text_arguments(search, query)) for query in dict.fromkeys(unnamed)]
        planned: list[tuple[Tool, dict[str, Any]]] = []
        arguments = order_arguments(orders, self.question_text, self.today) if orders and q.orders else {}
        records = self._record_ids if orders and q.orders else []
        if len(records) > 1:  # "Compare ORD-24853 with ORD-24862": each record by its own id
            planned += [(orders, order_arguments(orders, self.question_text, self.today, record)) for record in records]
        elif orders and q.orders:
            planned.append((orders, arguments))
            named = next((key for key in arguments if CUSTOMER_KEY.search(key)), None)
            if named and any(c.name == orders.name and c.args == arguments and _lists_nothing(c.result)
                             for c in self.calls):
                # "Quick account check: which of my customers ...": a capitalised word that named no customer
                planned.append((orders, {k: v for k, v in arguments.items() if k != named}))
        if search and not (orders and q.orders and not q.comparison and not q.cause):
            planned += [(search, text_arguments(search, query)) for query in q.searches()]
            planned += [(search, text_arguments(search, query)) for query in affected_side(self.question_text)]
        elif search:  # a part not about orders ("... of the volume in their agreement") is in the documents
            customer = customer_name(self.question_text)
            # (with the customer's name and the product the records were asked for: "what share of the quantity in
            # its contract?" is the quantity of that product in that customer's contract)
            product = next((str(v) for k, v in arguments.items() if re.search(r"product|item|sku|model", k, re.I)), "")
            # "... and did it arrive within the lead time their contract sets?": the order is in the records, and a
            # part that names a document asks what the document says too, by the part's own words
            searched = [(search, text_arguments(search, _with_names(part, customer, product))) for part in q.parts
                        if not asks_orders([part]) or _NAMES_DOCUMENT.search(part) and (
                            part in q.referring or not any(r in part for r in q.referring))]
            planned += searched
            if self.comparand and not searched:  # "... below the current list price": the price is in the documents
                planned.append((search, text_arguments(search, self.comparand)))
            if q.operation == "share" and not searched:
                # "what percentage of the contract value is that?": the whole the records are a share of is written
                # in the documents, even when every part also speaks of the orders
                planned.append((search, text_arguments(search, f"{customer} {q.subject}".strip())))
            if orders and any(c.name == orders.name and _lists_nothing(c.result)
                              for c in self.calls):  # the records hold nothing: a report may say it ("our
                # biggest order in January 2024"), and a later part asks about what it names
                planned += [(search, text_arguments(search, part)) for part in q.parts
                            if asks_orders([part]) and part not in q.referring]
        if search and q.reviewed:  # "which clauses should be marked amber under the checklist?": each thing the
            # checklist flags so, looked up in the agreement
            planned += [(search, text_arguments(search, f"{q.reviewed} {item}")) for item in self._flagged_items()]
        if search and orders and self.document_query:  # ("... within the lead time set in their contract?")
            planned.append((search, text_arguments(search, self.document_query)))
        # the records know nobody of that name ("Veltrix's shipments"): another company's figures are published
        asked = [c for c in self.calls if orders and c.name == orders.name and c.result is not None]
        unknown = len(asked) >= 2 and all(_lists_nothing(c.result) for c in asked) and bool(customer_name(
            self.question_text))  # (not even without the name: nobody's records hold it)
        if web and (q.public or unknown):
            planned.append((web, text_arguments(web, q.query)))
            # ("the new EMSB rule": a document not ours, named by the question, may be public)
            planned += [(web, text_arguments(web, query)) for query, ours in q.source_queries() if not ours]
        rates = web or search
        if q.conversion and rates:  # a rate is published on its own page: looked up by its own words, and so is
            # a price in another currency, often only on its maker's page (the thing priced in it is named first)
            planned.append((rates, text_arguments(rates, q.conversion.rate)))
            planned += [(web, text_arguments(web, q.side_query(side, q.subject))) for side in q.sides[:1] if web]
        if not planned and search:
            planned.append((search, text_arguments(search, q.query or q.text)))
        return planned

    @cached_property
    def _passage_blocks(self) -> list[Block]:
        """Every passage the searches of the documents and of the web returned so far, in the order they came."""
        searches = {tool.name for role, tool in self.tools.items() if role in ("search", "web")}
        return [b for c in self.calls if c.result and c.name in searches for b in parse_blocks(c.result)]

    @cached_property
    def _passage_sentences(self) -> list[Sentence]:
        """The sentences of those passages, search by search."""
        searches = {tool.name for role, tool in self.tools.items() if role in ("search", "web")}
        return [s for c in self.calls if c.result and c.name in searches for s in sentences_of(parse_blocks(c.result))]

    def quantities(self, measure: str | None = None) -> dict[str, Quantity]:
        """The number found for each compared side of ``measure`` (the subject), over every observation so far."""
        blocks = self._passage_blocks  # public pages count too: a competitor's figure is often only on its own page
        sourced = [b for b in blocks if self.q.source and set(terms(self.q.source)) <= set(terms(b.title))]
        blocks = sourced or blocks  # "the 2023 and the 2024 travel policy on ...": each figure from that document
        operation = self._for_measure(measure).q.operation if measure else self.q.operation
        unit = "%" if operation == "percentage-point change" else None  # "the difference in points"
        counting = operation == "sum" and bool(asks_quantity(self.q.text))  # "how many days do A and B add up to?"
        found = {side: (counting and table_count(side, blocks))  # (a side listed as a table's rows: counted)
                 or (self.q.monthly and self._monthly(side, measure or self.q.subject, blocks, unit))  # (else the
                 or find_quantity(side, measure or self.q.subject, blocks, self._unlike(side), unit)  # quarter's own)
                 for side in self.q.sides}
        extreme = self.q.extreme_of(measure or self.q.subject)
        if extreme and not any(find_periods(side) for side in self.q.sides):  # "the top temperature of each": a
            found |= {side: end for side in self.q.sides  # thing's range, not a period's figure
                      if (end := range_end(side, measure or self.q.subject, blocks, extreme))}
        found = {side: quantity for side, quantity in found.items() if quantity}
        if self.q.conversion:
            return self._converted(found, measure or self.q.subject, blocks)
        wanted = unit or expected_unit(measure or self.q.subject)
        if wanted and len({x.unit for x in found.values()}) > 1 and any(x.unit.startswith(wanted) for x in found.values()):
            # "$2.45M" for one year and "4.1%" for the other: the side read in another unit than the measure's
            # (a cost is money) is not found, so it is searched again
            found = {side: x for side, x in found.items() if x.unit.startswith(wanted)}
        return found

    def _converted(self, found: dict[str, Quantity], measure: str, blocks: list[Block]) -> dict[str, Quantity]:
        """Two sides' amounts in two currencies, when the question asks for a conversion: the one not in the wanted
        currency (the rate's second: "EUR/USD" gives dollars) converted at the rate the question names, read from a
        table of rates in the passages; unchanged when no such rate was found. The side the question says is priced
        in the other currency ("the VX-9's list price in euros") takes its amount as written in that currency."""
        conversion = self.q.conversion
        said = mentions(self.question_text, conversion.source) if conversion and conversion.source else []
        rate_at = self.question_text.lower().find(conversion.rate.lower()) if conversion else -1
        said = [at for at in said if not rate_at <= at < rate_at + len(conversion.rate)] if rate_at >= 0 else said  # (the
        # rate's own "EUR/USD" says which pair, not which thing is priced in euros)
        placed = {side: self.question_text.lower().find(side.lower()) for side in self.q.sides}
        placed = {side: at for side, at in placed.items() if at >= 0}
        if conversion and not said and self.q.sides and self.q.sides[0] in placed:  # the currency unsaid: the thing
            said = [placed[self.q.sides[0]]]  # priced first is the one converted (see ``currency.compared_in``)
        if said and placed:
            side = min(placed, key=lambda s: min(abs(placed[s] - at) for at in said))
            stating = [Block(b.label, b.title, " ".join(s.text for s in sentences_of([b]) if any(
                currency_of(m[0]) == conversion.source for m in numbers(s.text)))) for b in blocks]
            written = find_quantity(side, measure, [b for b in stating if b.text], self._unlike(side), "")
            found = {**found, side: written} if written else found
        currencies = {side: currency_of(x.text) for side, x in found.items()}
        if not conversion or conversion.target not in currencies.values() or len(set(currencies.values()) - {""}) != 2:
            return found
        converted = dict(found)
        for side, amount in found.items():
            currency = currencies[side]
            rate = find_rate(blocks, currency, conversion.target, conversion) if currency not in ("", conversion.target) \
                else None
            if not rate:
                continue
            table = [s for s in sentences_of(blocks) if s.label == rate.label]
            source = next((s for s in table if rate.written in s.text), table[0] if table else amount.sentence)
            factor = Quantity(side, rate.written, float(rate.written), "", source)
            value = amount.value / factor.value if rate.inverted else amount.value * factor.value
            sign = "÷" if rate.inverted else "×"
            written = f"{symbol_of(conversion.target)}{value:,.2f}"
            converted[side] = ConvertedQuantity(
                side, f"{amount.text} {sign} {rate.written} = {written}", value,
                "$" if conversion.target == "USD" else "", amount.sentence, (amount, factor), rate.operator,
                f"the {rate.pair} rate of {rate.column}")
        return converted

    @staticmethod
    def _monthly(side: str, measure: str, blocks: list[Block], unit: str | None) -> Quantity | None:
        """A summed side's figure: a quarter's three months (or a year's quarters, "Q1 2024 + Q2 2024") added up,
        when each piece's figure was found, in one unit."""
        pieces = months_of(side)
        known = [q for month in pieces if (q := find_quantity(month, measure, blocks, frozenset(), unit))]
        one_each = len({(q.sentence.text, q.text) for q in known}) == len(pieces) > 1 and len({q.unit for q in known}) == 1
        return summed(side, known) if one_each else None

    def _unlike(self, side: str) -> frozenset[str]:
        """For a side that names nothing of its own ("the current one"), the anchors of the other sides."""
        if set(terms(side)) - RELATIVE_SIDE:
            return frozenset()
        return frozenset(a for other in self.q.sides if other != side for a in anchors(other))

    def _for_measure(self, measure: str) -> Policy:
        """This policy as if only ``measure`` were asked, with that ask's own operation ("revenue growth in %, and
        how many points did the margin move?": a percent change, then a point change); itself when they agree."""
        operation = dict(zip(self.q.measures, self.q.operations, strict=True)).get(measure, self.q.operation) \
            if self.q.operations else self.q.operation
        if operation == self.q.operation:
            return self
        own = object.__new__(Policy)  # (what was worked out for the whole question is worked out again)
        own.__dict__ = {k: v for k, v in self.__dict__.items() if not isinstance(getattr(Policy, k, None), cached_property)}
        own.q = replace(self.q, operation=operation, percent=operation == "percent change")
        return own

    def _flagged_items(self) -> list[str]:
        """The things a standard's search found it flags at the level the question asks ("Payment terms longer than
        60 days, unrestricted set-off rights and ... should be flagged as amber" -> "payment terms", "set-off
        rights", ...), each as a search's words."""
        levels = STANDARD_LEVEL.findall(self.q.text)
        search = self.tools.get("search")
        if not levels or not search:
            return []
        level = levels[-1].lower()
        items: list[str] = []
        for call in self.calls:
            if call.name != search.name or not call.result or not call.text.endswith(f" {level}"):
                continue
            for sentence in sentences_of(parse_blocks(call.result)):
                flagged = _FLAGGED_AS.search(sentence.text)
                if flagged and flagged["level"].lower() == level:
                    items += [key_phrase(_QUALIFIER.split(item, maxsplit=1)[0]) for item in re.split(  # "deposits
                        r",\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+", flagged["items"])]  # above 6 months": deposits
        return list(dict.fromkeys(item for item in items if item))

    @cached_property
    def document_sets(self) -> tuple[str, str]:
        """(document, thing) for "the lead time set in their contract": ("contract", "lead time"); empty strings when
        the question names no thing a document sets."""
        sets = _DOCUMENT_SETS.search(self.question_text)
        if not sets and _ASKS_ENTITLED.search(self.question_text) and _ASKS_LATE.search(self.question_text):
            return "contract", "lead time"  # "damages for late delivery of its September order": late against the
            # time the agreement gives for delivery
        return (sets[2], key_phrase(sets[1])) if sets else ("", "")

    @cached_property
    def document_query(self) -> str:
        """For "... delivered within the lead time set in their contract?": what the document sets, to search in it
        by its own words with the customer's name ("Sable Rail contract lead time"), besides the whole part (whose
        words about the order find reports of the order); "" when the question names no such thing."""
        document, thing = self.document_sets
        return f"{customer_name(self.question_text)} {document} {thing}".strip() if self.q.orders and thing else ""

    @cached_property
    def across_pairs(self) -> dict[str, tuple[Quantity, Quantity]]:
        """For "which region fell more between Sep and Dec, A or B?": each name's number in the earlier and in the
        later period, for the names both were found for (a name in the measure binds its clause's number)."""
        if not self.q.across:
            return {}
        earlier, later = sorted(self.q.sides, key=lambda side: find_periods(side)[0].sort_key())
        pairs = {}
        for name in self.q.across:
            found = [find_quantity(side, f"{name} {self.q.subject}".strip(), self._passage_blocks, self._unlike(side))
                     for side in (earlier, later)]
            if found[0] and found[1] and found[0].unit == found[1].unit and found[0].sentence.text != found[1].sentence.text:
                pairs[name] = (found[0], found[1])
        return pairs

    @property
    def monthly_average(self) -> str:
        """For "total bookings Q4, the monthly avg, and the % drop vs Q3?": the first quarter's months averaged
        ("(15.9 + 14.6 + 13.8) / 3"), once its months were summed; "" when no monthly average is asked."""
        if not (self.q.monthly and _MONTHLY_AVERAGE.search(self.q.text)):
            return ""
        first = self._summed_first
        return f"{first.plain} / {len(first.parts)}" if first else ""

    @cached_property
    def _summed_first(self) -> SummedQuantity | None:
        """The first side's quarter as the sum of its months, for whichever measure found it."""
        return next((x for quantities in self.measured_quantities().values()
                     if isinstance(x := quantities.get(self.q.sides[0]), SummedQuantity)), None)

    def across_expressions(self) -> dict[str, str]:
        """Each name's change between the two periods, for the calculator (in percent when asked so)."""
        return {name: f"({b.plain} - {a.plain}) / {a.plain} * 100" if self.q.percent else f"{b.plain} - {a.plain}"
                for name, (a, b) in self.across_pairs.items()}

    @cached_property
    def side_shares(self) -> dict[str, tuple[Quantity, Quantity]]:
        """For "what share of the capex budget is the Penang item in 2024 vs 2025?": each period's part and whole,
        found apart (the share is worked out within each period, not between them)."""
        q = self.q
        if q.operation != "share" or len(q.share_of) != 2 or len(q.sides) < 2 or not all(find_periods(s) for s in q.sides):
            return {}
        found = {}
        for side in q.sides:
            part, whole = (find_quantity(side, words, self._passage_blocks, self._unlike(side)) for words in q.share_of)
            if part and whole and part.unit == whole.unit and 0 < part.value < whole.value:
                found[side] = (part, whole)
        return found if len(found) == len(q.sides) else {}

    def share_expressions(self) -> dict[str, str]:
        """Each period's share, for the calculator."""
        return {side: f"{part.plain} / {whole.plain} * 100" for side, (part, whole) in self.side_shares.items()}

    def _share_line(self, call: Call) -> str:
        """One period's share in words: "2024: $5.1M of $9.2M, 55.4% (5.1 / 9.2 * 100 = ...) [a.md]"."""
        side = next(s for s, e in self.share_expressions().items() if e == call.text)
        part, whole = self.side_shares[side]
        result = _grouped(_rounded(calculation_result(call.result or ""), 1))
        labels = " ".join(f"[{label}]" for label in dict.fromkeys((part.sentence.label, whole.sentence.label)))
        return f"{side}: {part.text} of {whole.text}, {result}% ({call.result.strip()}) {labels}."

    def _across_lines(self, call: Call) -> str:
        """One name's change in words: "Northern Europe: from $3.9M (September 2024) to $2.6M (December 2024), a
        change of -33.3% (...) [a.md] [b.md]"."""
        name = next(n for n, e in self.across_expressions().items() if e == call.text)
        a, b = self.across_pairs[name]
        result = _grouped(_rounded(calculation_result(call.result or ""), 1 if self.q.percent else 2))
        unit = "%" if self.q.percent else ""
        labels = " ".join(f"[{label}]" for label in dict.fromkeys((a.sentence.label, b.sentence.label)))
        return (f"{name}: from {a.text} ({a.side}) to {b.text} ({b.side}), a change of {result}{unit} "
                f"({call.result.strip()}) {labels}.")

    def _across_verdict(self) -> list[str]:
        """Which name changed more, once each name's change is worked out: the larger fall when the question asks
        about a drop, else the larger rise."""
        expressions = self.across_expressions()
        done = {c.text: _value(calculation_result(c.result or "")) for c in self.calls
                if c.text in expressions.values() and calculation_result(c.result or "")}
        changes = {name: done[e] for name, e in expressions.items() if e in done}
        if len(changes) < 2:
            return []
        falling = bool(_FALL.search(self.q.text))
        ranked = sorted(changes, key=lambda n: changes[n], reverse=not falling)
        unit = "%" if self.q.percent else ""
        word = "fell more" if falling else "rose more"
        first, second = ranked[0], ranked[1]
        return [f"{first} {word}: {changes[first]:,.1f}{unit} against {changes[second]:,.1f}{unit} for {second}."]

    def source_sentences(self) -> list[Sentence]:
        """For a question that names two documents ("will the interval our manual recommends still be enough once
        the new EMSB rule applies?"): from each document's passages, the two sentences closest to the question
        (with a number first when it asks for one). Each document speaks for itself: a regulator's rule names no
        product of ours, so the question's codes are asked only of our own documents' passages."""
        codes = {a for a in anchors(self.q.text) if not find_periods(a)}
        chosen: list[Sentence] = []
        for source, ours in sorted(self.q.sources, key=lambda s: not s[1]):  # ours first: the others are read
            # for what they say of the same thing (a sentence sharing words with ours: "every 24 months")
            words = set(terms(source)) - {"new", "old", "current", "latest"}
            blocks = [b for b in self._passage_blocks
                      if 2 * len(words & set(terms(f"{b.title} {b.label.replace('-', ' ')}"))) >= len(words)]
            named = [b for b in blocks if codes and codes <= anchors(f"{b.title} {b.text}")]
            blocks = named if ours and named else blocks
            scored = [s for s in score(self.question_text, sentences_of(blocks)) if s.topical and s.sentence.text
                      not in {c.text for c in chosen}]  # (the whole question: its scene says which case applies)
            said = {t for c in chosen for t in c.terms} - set(terms(self.question_text))
            scored.sort(key=lambda s: (not (self.q.answer_type != "fact" or numbers(s.sentence.text)),
                                       -s.score - 0.1 * len(said & s.sentence.terms)))
            chosen += [s.sentence for s in scored[:2]]
        return chosen

    def measured_quantities(self) -> dict[str, dict[str, Quantity]]:
        """For each measure the question compares, the number found for each side."""
        return {measure: self.quantities(measure) for measure in self.q.measured} if self.q.comparison else {}

    def calculation(self, quantities: dict[str, Quantity]) -> str | None:
        """The calculator expression for one measure's numbers, by the question's operation: their total, average,
        the extreme side's lead, a share or ratio, else their difference (or percent change)."""
        found = [quantities[side] for side in self.q.sides if side in quantities]
        operation = self.q.operation
        if not operation:
            return None  # ("A vs B: when does each term end?": dates, nothing to work out)
        if operation in ("average", "max", "min") and len(found) == len(self.q.sides) > 2 \
                and len({(x.sentence.text, x.text) for x in found}) == len(found) and len({x.unit for x in found}) == 1:
            if operation == "average":
                return f"({' + '.join(x.plain for x in found)}) / {len(found)}"
            ranked = sorted(found, key=lambda x: x.value, reverse=operation == "max")
            if SPREAD.search(self.q.text):  # "how big is the spread": the largest against the smallest
                top, bottom = (ranked[0], ranked[-1]) if operation == "max" else (ranked[-1], ranked[0])
                named = _AS_PERCENT_OF.search(self.q.text)  # ("... in dollars and as a percentage of the highest")
                if named:
                    base = bottom if re.search(r"\b(?:lowest|smallest|cheapest|least)\b", named["of"], re.I) else top
                    return f"({top.plain} - {bottom.plain}) / {base.plain} * 100"
                return f"{top.plain} - {bottom.plain}"
            return f"{ranked[0].plain} - {ranked[1].plain}" if operation == "max" else f"{ranked[1].plain} - {ranked[0].plain}"
        pair = self.ordered_pair(quantities)
        return self.total_expression(quantities) or (self.expression(pair, self._percent_base(quantities)) if pair
                                                      else None)

    def _percent_base(self, quantities: dict[str, Quantity]) -> Quantity | None:
        """What a percent difference is a percent of, when the question says: the side "as a percentage of" names (by
        its words; "the highest" is the larger), the larger when one is asked "% below" or "cheaper" than the other,
        the smaller when "% above" or "more"; else None (the earlier or second value)."""
        found = [quantities[side] for side in self.q.sides if side in quantities]
        if not self.q.percent or len(found) != 2:
            return None
        smaller, larger = sorted(found, key=lambda x: x.value)
        named = _AS_PERCENT_OF.search(self.q.text)
        if named:
            if re.search(r"\b(?:lowest|smallest|lower|smaller|cheapest|least)\b", named["of"], re.I):
                return smaller
            words = set(terms(named["of"]))
            fits = sorted((len(words & set(terms(side))), side) for side in self.q.sides if side in quantities)
            if fits[-1][0] > fits[0][0] and not re.search(r"\b(?:highest|largest|biggest|higher|larger|dearest|most)\b",
                                                          named["of"], re.I):
                return quantities[fits[-1][1]]
            return larger
        direction = next(((m["dir"] or m["dir2"] or m["dir3"]).lower() for m in _PERCENT_DIRECTION.finditer(self.q.text)),
                         "")
        if direction:
            return larger if direction in _BELOW_WORDS else smaller
        return None

    def ordered_pair(self, quantities: dict[str, Quantity]) -> tuple[Quantity, Quantity] | None:
        """The two quantities to compare: later minus earlier for periods, else first minus second."""
        sides = [s for s in self.q.sides if s in quantities]
        if len(sides) < 2:
            return None
        if len({(quantities[s].sentence.text, quantities[s].text) for s in sides}) < len(sides):
            return None  # one number found for two sides: it cannot be both
        if len({quantities[s].unit for s in sides}) > 1:
            return None  # "$250,000" and "12 months" are not two values of one thing
        if "now" in sides and self.change_pair and quantities["now"].value == number_value(self.change_pair[1]):
            return None  # "the new allowance vs 2023's" read the old value for now: the sentence that replaces the old
            # value gives the new one
        periods = [find_periods(s)[:1] for s in sides]
        if self.q.choice or all(periods) and any(_within(a[0], b[0]) for a in periods for b in periods if a != b):
            # "which month had more": the larger minus the smaller answers "by how much"
            # a quarter against its year (actual Q3 vs the year's budget) has no "later": the gap is what is asked
            sides.sort(key=lambda s: quantities[s].value, reverse=True)
            # "how much more than the lowest of the three": the largest against the smallest, not the runner-up
            return quantities[sides[0]], quantities[sides[-1] if SPREAD.search(self.q.text) else sides[1]]
        if all(periods):
            sides.sort(key=lambda s: find_periods(s)[0].sort_key())
            return quantities[sides[-1]], quantities[sides[0]]
        current = [s for s in sides if _CURRENT_SIDE.search(s)]  # "the old 2023 policy vs the current one": now first
        if len(sides) == 2 and len(current) == 1:
            return quantities[current[0]], quantities[next(s for s in sides if s != current[0])]
        return quantities[sides[0]], quantities[sides[1]]

    def total_expression(self, quantities: dict[str, Quantity]) -> str | None:
        """The sum of every side's number, once all were found (for "total ... combined" questions)."""
        if self.q.operation != "sum" or len(quantities) < len(self.q.sides):
            return None
        return " + ".join(quantities[side].plain for side in self.q.sides)

    def expression(self, pair: tuple[Quantity, Quantity], base: Quantity | None = None) -> str:
        """Two sides' numbers combined: a percent change (of ``base`` when the question names it, else of the second),
        a share of the larger, a ratio, else a difference."""
        a, b = pair
        if self.q.operation in ("share", "ratio"):
            part, whole = sorted(pair, key=lambda x: x.value)
            return f"{part.plain} / {whole.plain} * 100" if self.q.operation == "share" else f"{whole.plain} / {part.plain}"
        if self.q.operation == "percentage-point change" and _BASIS_POINTS.search(self.q.text):
            return f"({a.plain} - {b.plain}) * 100"  # "in basis points": a hundredth of a percentage point
        return f"({a.plain} - {b.plain}) / {(base or b).plain} * 100" if self.q.percent else f"{a.plain} - {b.plain}"

    def _made_progress(self) -> bool:
        """Whether the latest round of observations brought passages not seen before."""
        last = max((c.round for c in self.calls), default=0)
        seen_before = {b.label for c in self.calls if c.round < last and c.result for b in parse_blocks(c.result)}
        latest = {b.label for c in self.calls if c.round == last and c.result for b in parse_blocks(c.result)}
        return bool(latest - seen_before)

    def _quoted_sentences(self, limit: int) -> list[Sentence]:
        """The sentences each search so far (of the documents or the web) would quote for its own query, in the order
        they were found."""
        searches = {tool.name for role, tool in self.tools.items() if role in ("search", "web")}
        return [sentence for call in self.calls if call.result and call.name in searches
                for sentence in quoted(call.text, call.result, limit)]

    @cached_property
    def change_pair(self) -> tuple[str, str] | None:
        """The new and the old value of a quoted "from $5,150 to $5,459" (or against plan, or replaced), as written."""
        for sentence in self._quoted_sentences(2):
            pair = from_to(sentence.text) or _against_plan(sentence.text) or _replaced(sentence.text)
            if pair:
                return pair
        return None

    def change_expression(self) -> str | None:
        """For "by how much (in percent) did X go up?": "new - old", or the relative change, from the change pair."""
        pair = self.change_pair
        if not pair:
            return None
        new, old = (plain_number(number_value(x)) for x in pair)
        return f"({new} - {old}) / {old} * 100" if self.q.percent else f"{new} - {old}"

    @cached_property
    def portion(self) -> tuple[str, str, str] | None:
        """For "how many $M of Q2 revenue came from subscriptions?": the share a quoted sentence gives the part ("about
        14% of revenue"), the whole amount of the asked period whose own words name the whole best ("revenue of
        $45.6M"), and the calculator expression "14 / 100 * 45.6"."""
        if not self.q.share_of:
            return None
        part, whole = (set(terms(words)) - anchors(words) for words in self.q.share_of)
        sentences = self._quoted_sentences(3)
        shares = [(len(part & set(terms(s.text))), m[0].strip()) for s in sentences
                  for m in self._amounts_in_period(s.text, "%")]
        amounts = [(len(whole & set(terms(own_stretch(s.text, m)))), number_value(m[0]), m[0].strip())
                   for s in sentences for m in self._amounts_in_period(s.text) if unit_of(m[0]).startswith("$")]
        share, total = max(shares, default=None), max(amounts, default=None)
        if not share or not total or not share[0] or not total[0]:
            return None
        return share[1], total[2], f"{plain_number(number_value(share[1]))} / 100 * {plain_number(total[1])}"

    def _amounts_in_period(self, text: str, unit: str = "") -> list[re.Match[str]]:
        """The amounts of a sentence (its percentages with ``unit`` "%"), without those its own words date to another
        period ("$9.4M in September", "17% in Q3")."""
        asked = {(p.kind, p.number) for p in self.q.periods}
        years = {p.year for p in self.q.periods if p.year}  # ("$13.1 billion by 2030" is no 2023 figure)
        found = numbers(text)
        return [m for i, m in enumerate(found) if (unit_of(m[0]) == "%") == (unit == "%") and not (asked and any(
            (p.kind, p.number) not in asked and p.kind != "year" or p.kind == "year" and years and p.year not in years
            for p in _own_periods(text, m, found[i + 1:])))]

    def share_expression(self) -> str | None:
        """For "what share of the total goes to X?": the part is the amount whose own words (the words after it, then
        before it) share most with the question; the whole is the largest amount of its sentence when that sentence
        says it holds a whole and its parts ("$8M budget includes $2M for ..."), else the largest amount the quoted
        sentences state (the total often stands in a sentence of its own)."""
        wanted = set(terms(self.q.text))
        sentences = self._quoted_sentences(3)
        amounts = self._amounts_in_period
        if self.q.share_of:
            named = _named_share([(s.text, m) for s in sentences for m in amounts(s.text)], *self.q.share_of)
            if named:
                return named

        for sentence in sentences:
            found = amounts(sentence.text)
            if len(found) >= 2 and len({unit_of(m[0]) for m in found}) == 1 and _WHOLE_AND_PARTS.search(sentence.text):
                pair = _part_of_whole([(sentence.text, i, found) for i in range(len(found))], wanted)
                if pair:
                    return pair
        found = [(sentence.text, i, matches) for sentence in sentences for matches in [amounts(sentence.text)]
                 for i in range(len(matches))]
        return _part_of_whole(found, wanted) if len({unit_of(f[2][f[1]][0]) for f in found}) == 1 else None

    def later_shares(self) -> list[str]:
        """For "what share of X did A use, and what fraction of A's use did B cover?": each later ask's own share, its
        part and whole named by that ask ("820 / 6600 * 100"), once the first share is worked out."""
        if self.q.operation != "share" or self.q.sides or len(self.q.parts) < 2:
            return []
        found = [(s.text, m) for s in self._quoted_sentences(3) for m in self._amounts_in_period(s.text)]
        shares = [_named_share(found, *pair) for part in self.q.parts[1:] if (pair := share_asked(asked_clause(self.q.text, part)))]
        return [e for e in dict.fromkeys(shares) if e and e != self.share_expression()]

    def rate_expression(self, product: tuple[str, str, str, str] | None = None) -> str | None:
        """For "what would all 420 gateways bring in?": the count the question states times the rate a quoted
        sentence gives per that thing ("$1,650 per gateway per year") -> "420 * 1650". A count of what the question
        itself asks per ("the fee per month over 3 months") is not multiplied: the rate is the answer."""
        product = product or self._rate_product
        if not product:
            return None
        count = number_word(product[0]) or number_value(product[0])  # "three weeks late"
        expression = f"{plain_number(count)} * {plain_number(number_value(product[1]))}"
        value = self._value_stated
        return f"{expression} / 100 * {plain_number(_in_dollars(value))}" if value and unit_of(product[1]) == "%" else expression

    @cached_property
    def term_expression(self) -> str:
        """For "the annual fee for all 240 gateways, and the total over the three-year term?": the yearly product,
        once calculated, times the years ("420000 * 3"); "" otherwise."""
        years = _OVER_YEARS.search(self.q.text)
        rate = self.rate_expression() if years and _YEARLY.search(self.q.text) else None
        done = next((c for c in self.calls if rate and c.text == rate and c.result), None)
        if not (years and done):
            return ""
        count = int(years[1]) if years[1].isdigit() else number_word(years[1])
        return f"{plain_number(_value(calculation_result(done.result or '')))} * {count}"

    @cached_property
    def _spoken_text(self) -> str:
        """The whole question, scene included, with its numbers in figures ("two hundred forty gateways": 240) and
        its short forms in full ("6 ppl": 6 people)."""
        return correct(self.question_text)

    @property
    def _value_stated(self) -> str:
        """The one sum of money the question states ("a $50,000 order ... three weeks late"): what a percentage
        rate is taken of; empty when it states none or several."""
        found = [m[0] for m in numbers(self._spoken_text) if unit_of(m[0]).startswith("$")]
        return found[0] if len(found) == 1 else ""

    @cached_property
    def _rate_product(self) -> tuple[str, str, str, str] | None:
        """The count, the rate and the thing counted ("240", "$1,750", "gateway") that ``rate_expression`` multiplies,
        and how a count in days became weeks ("17 days is 3 weeks or part of a week; ", else "")."""
        return next(iter(self._rate_products), None)

    @cached_property
    def _rate_products(self) -> list[tuple[str, str, str, str]]:
        """Each thing the question counts with its rate (see ``_rate_product``): "the 1,150 meters at the unit price,
        plus the fees for all 240 gateways" multiplies twice."""
        return self._rates_in(self._quoted_sentences(3))

    @property
    def more_rate_expressions(self) -> list[str]:
        """The products of the question's other counted things, each in money, after the first (``rate_expression``)."""
        return [e for product in self._rate_products[1:] if unit_of(product[1]).startswith("$")
                and (e := self.rate_expression(product))]

    @cached_property
    def side_rates(self) -> dict[str, tuple[str, tuple[str, str, str, str], str]]:
        """For "a $500k order lands 10 days late - the penalty under A vs under B?": per side, the expression of the
        rate its own agreement sets times the question's count and sum, and that product (see ``_rate_product``)."""
        things = self._every_side_things
        if not (self.q.comparison and (self._value_stated or things)):
            return {}
        found = {}
        for side in self.q.sides:
            blocks = self._own_blocks(side)  # only the side's own passages: another agreement's rate is not its rate
            if not self._value_stated:  # "every gateway under A and under B": each side's count times its own rate
                product = next((p for thing in things if blocks and (p := _count_and_rate(thing, blocks))), None)
                if product:
                    found[side] = (f"{product[0]} * {plain_number(number_value(product[1]))}", product, blocks[0].label)
                continue
            product = self._rate_in(sentences_of(blocks)) if blocks else None
            if product and unit_of(product[1]) == "%":
                count = number_word(product[0]) or number_value(product[0])
                found[side] = (f"{plain_number(count)} * {plain_number(number_value(product[1]))} / 100 * "
                               f"{plain_number(_in_dollars(self._value_stated))}", product, blocks[0].label)
        return found if len({expression for expression, _, _ in found.values()}) == len(found) else {}

    @cached_property
    def _every_side_things(self) -> list[str]:
        """"every gateway" in a question that compares or adds up parties and states no sum to take a rate of: the
        things counted in full ("gateway")."""
        return [m[1].lower().removesuffix("s") for m in _EVERY.finditer(self.question_text)] \
            if self.q.comparison and not self._value_stated else []

    def _rates_counted(self, quantities: dict[str, Quantity]) -> bool:
        """Whether each found figure is a rate per the thing the question counts in full ("$1,750 per gateway" when
        every gateway is asked about): multiplied by its count, not compared or added as it stands."""
        things = {t for thing in self._every_side_things for t in terms(thing)[:1]}
        return bool(things and quantities) and all(any(
            r[1] == x.text and set(terms(r[2])[:1]) & things for r in _rates(x.sentence.text))
            for x in quantities.values())

    @property
    def side_rates_total(self) -> str:
        """For "the A and B contracts' subscriptions combined": the sides' products added up, once each is known."""
        products = [expression for expression, _, _ in self.side_rates.values()]
        return " + ".join(products) if self.q.total and len(products) == len(self.q.sides) >= 2 else ""

    def _own_blocks(self, side: str) -> list[Block]:
        """A side's own passages: those of the documents whose titles name it ("Oakridge" in "oakridge late delivery
        penlaty", the section's words aside), else those whose text says it ("our standard position")."""
        words = set(terms(side))
        named = [b for b in self._passage_blocks if words <= set(terms(b.title))]
        if named:
            return named
        documents = {b.label: set(terms(b.title.rsplit(" — ", 1)[0])) for b in self._passage_blocks}
        owned = [b for b in self._passage_blocks if words & documents[b.label]]
        return owned or [b for b in self._passage_blocks if side.lower() in b.text.lower()]

    def _rate_in(self, sentences: list[Sentence]) -> tuple[str, str, str, str] | None:
        """The first rate of ``sentences`` per a thing the question counts, with that count (see ``_rate_product``)."""
        return next(iter(self._rates_in(sentences)), None)

    def _rates_in(self, sentences: list[Sentence]) -> list[tuple[str, str, str, str]]:
        """Per thing the question counts, the first rate of ``sentences`` per that thing, with that count, in the
        order the sentences give them."""
        per = {t for m in re.finditer(r"\bper\s+([a-z][a-z-]+)", self.q.text, re.I) for t in terms(m[1])[:1]}
        counted = _in_days(re.sub(r"(\d)\s+(?:full|whole|complete|entire)\s+", r"\1 ", self._spoken_text))  # ("3 full
        # weeks"; "3 weeks and 2 days" is 23 days)
        counts = [(m[1], terms(m[2])[:1]) for m in _COUNTED.finditer(counted)  # (or the scene before it:
                  # "A $40,000 refit finished 3 weeks late. What can they charge?")
                  if not is_year(m[1]) and not set(terms(m[2])[:1]) & per] or self._counts_of_every or self._listed_counts
        found: dict[str, tuple[str, str, str, str]] = {}
        for sentence in sentences if counts else []:
            for rate in _rates(sentence.text):
                for count, thing in counts:
                    if not thing or thing[0] in found:
                        continue
                    if _one_thing(thing, terms(rate[2])[:1]):
                        listed = self._listed_things.get(thing[0], []) if counts == self._listed_counts else []
                        found[thing[0]] = count, rate[1], rate[2], ("the records list " + ", ".join(  # "ORD-1 (6), ..."
                            f"{name} ({plain_number(n)})" for name, n in listed) + "; ") if listed else ""
                    elif thing == ["day"] and terms(rate[2])[:1] == ["week"]:  # "17 days late" at a rate per week:
                        days = number_word(count) or number_value(count)  # whole weeks, and a week begun counts
                        begun = bool(_WEEK_BEGUN.search(sentence.text))  # when the rate says "or part of a week"
                        weeks = plain_number(math.ceil(days / 7) if begun else days // 7)
                        kind = ("week" if weeks == "1" else "weeks") + (" or part of a week" if begun else "")
                        kind = kind if begun else f"full {kind}"
                        found[thing[0]] = weeks, rate[1], rate[2], f"{count} days is {weeks} {kind}; "
        return list(found.values())

    @cached_property
    def _listed_things(self) -> dict[str, list[tuple[str, float]]]:
        """"cedar valley's open gateway order - what would the subscription on those cost?": per thing the records
        list ("8 × Aurora gateway"), each record's id and count, over the records that were not cancelled, when they
        are all one buyer's (the field after the record's id)."""
        items = self.listed_items()
        if len({item.split("·")[1].strip() if "·" in item else "" for item in items}) > 1:
            return {}  # records of several customers (an unfiltered list) are no one's count
        found: dict[str, list[tuple[str, float]]] = {}
        for item in items:
            for m in _LISTED_THING.finditer(item):
                thing = terms(m[2].split()[-1])[:1]
                if thing:
                    found.setdefault(thing[0], []).append((item.lstrip(" -*•").split("·")[0].strip(), number_value(m[1])))
        return found

    @property
    def _listed_counts(self) -> list[tuple[str, list[str]]]:
        """How many of each thing the records list, added up (see ``_listed_things``)."""
        return [(plain_number(sum(n for _, n in listed)), [thing]) for thing, listed in self._listed_things.items()]

    @cached_property
    def _counts_of_every(self) -> list[tuple[str, list[str]]]:
        """"If every gateway in the deal is on the subscription": how many gateways the documents found give, in a
        passage about what the rate is about (the rate's own document, or a title with the same name: a count for
        the whole fleet is not one customer's); worked out once per request."""
        found, blocks = [], self._passage_blocks
        for every in _EVERY.finditer(self.q.text):
            labels = {s.label for s in self._quoted_sentences(3) for rate in _rates(s.text)
                      if terms(rate[2])[:1] == terms(every[1])[:1]}
            names = {t for b in blocks if b.label in labels for t in terms(" ".join(_NAME_WORD.findall(b.title)))}
            counted = _counted_as(every[1])
            found += [(m[1], terms(every[1])[:1]) for b in blocks
                      if b.label in labels or names & set(terms(" ".join(_NAME_WORD.findall(b.title))))
                      for m in counted.finditer(b.text) if not is_year(m[1])][:1]
        return found

    def counting_search(self) -> str:
        """The search for how many of the things the question counts with "every" ("Sable Rail gateways"), when
        a rate per that thing is found but not their number."""
        every = _EVERY.search(self.q.text)
        labels = [s.label for s in self._quoted_sentences(3) for rate in _rates(s.text)
                  if every and terms(rate[2])[:1] == terms(every[1])[:1]]
        if not labels or self._counts_of_every:
            return ""
        blocks = self._passage_blocks
        titles = [b.title for b in blocks if b.label == labels[0]]  # "Supply agreement — Harbor Mills": the rate's
        named = customer_name(self.question_text)  # own document, when the question names its party otherwise
        shared = {t for b in blocks if b.label != labels[0] for t in terms(b.title)}  # ("— Pricing", a section that
        owner = named if not titles or set(terms(named)) <= set(terms(titles[0])) else " ".join(dict.fromkeys(  # other
            w for w in _NAME_WORD.findall(titles[0]) if not set(terms(w)) <= shared))  # documents have too, is none)
        return f"{owner} {every[1].removesuffix('s')}s".strip()

    def listed_items(self, bought: bool = True) -> list[str]:
        """The records another system listed, a bullet line and its indented lines each; with ``bought``, cancelled
        ones are left out (they add nothing to what was ordered)."""
        items = self._listed
        return [item for item in items if not re.search(r"\bcancel", item, re.I)] if bought else list(items)

    @cached_property
    def _listed(self) -> tuple[str, ...]:
        """Every listed record, read once per request: a web page's bullet list is no record."""
        documents = {t.name for role, t in self.tools.items() if role in ("search", "web", "calculator")}
        items: list[str] = []
        for call in self.calls:
            if not call.result or call.name in documents:
                continue
            current: list[str] = []
            for line in [*call.result.splitlines(), ""]:
                if current and (re.match(r"\s+\S", line) and not re.match(r"\s*[-*•]\s", line)):
                    current.append(line)
                    continue
                if current:
                    items.append("\n".join(current))
                current = [line] if re.match(r"\s*[-*•]\s", line) else []
        return tuple(items)

    def remainder_expression(self) -> str | None:
        """For "how many of the 40 lockers are not part of the rota?": the stated whole less the count a quoted
        sentence gives the part named ("32 lockers are assigned by the rota"): "40 - 32". Without a stated whole
        ("how many of the lockers ..."), the whole is the largest count of those things the passages give."""
        found = self._remainder
        return f"{plain_number(found[0])} - {plain_number(found[1])}" if found else None

    @cached_property
    def _remainder(self) -> tuple[float, float, str] | None:
        """(whole, part, the whole as written) for :meth:`remainder_expression`; worked out once per request."""
        asked = _NOT_AMONG.search(self.question_text)
        if not asked:
            return None
        noun, rest = stem(asked["thing"].lower()), set(terms(asked["rest"])) - {"part"}
        counted = [(number_value(m[1]), m[1], sentence) for sentence in sentences_of(self._passage_blocks)
                   for m in _COUNTED_NOUN.finditer(sentence.text) if stem(m[2].lower()) == noun]
        whole = (number_value(asked["whole"]), asked["whole"]) if asked["whole"] else max(
            ((value, text) for value, text, _ in counted), default=(0.0, ""))
        part = next((value for value, _, sentence in counted if rest & sentence.terms and 0 < value < whole[0]), None)
        return (whole[0], part, whole[1]) if part is not None else None

    def listed_total(self) -> str | None:
        """For "what was the total value of the orders ...": the sum of the amounts a tool listed, one per item."""
        if not self.q.total:
            return None
        amounts = [m[1] for item in self.listed_items() if (m := _LISTED_AMOUNT.search(item))]
        return " + ".join(plain_number(number_value(a)) for a in amounts) if len(amounts) > 1 else None

    @cached_property
    def records(self) -> Records | None:
        """What the listed records add up to, used as the question asks: how many are left of a count it states
        ("850 - 464"), or what share they are of a figure the documents give ("1344 / 2100 * 100"), else their
        sum ("how many units ...")."""
        items = self._by_stated_amount(self.listed_items())
        penalties = self._penalties(items) if _ASKS_PENALTY.search(self.question_text) and _ASKS_LATE.search(
            self.question_text) else None
        if penalties:
            return penalties
        units = [(number_value(m[1]), m[2]) for item in items if (m := _LISTED_UNITS.search(item))]
        amounts = [number_value(m[1]) for item in items if (m := _LISTED_AMOUNT.search(item))]
        one = len(items) == len(units) == len(amounts) == 1
        against = self._documented_price() if one and _PER_UNIT.search(self.q.text) else None
        if against:  # "how far below the current list price was the unit price on that order, in percent?"
            value, written, sentence = against
            per_unit = f"{plain_number(amounts[0])} / {plain_number(units[0][0])}"
            expression = f"({per_unit} - {plain_number(value)}) / {plain_number(value)} * 100" if self.q.percent \
                else f"{per_unit} - {plain_number(value)}"
            return Records("against", expression, f"${amounts[0]:,.0f} for {units[0][0]:,.0f} × {units[0][1]}",
                           written, sentence)
        same = len(items) == len(units) == len(amounts) >= 1 and len({p for _, p in units}) == 1
        if (self.q.operation in ("ratio", "average") or re.search(r"\bunit (?:price|cost)\b", self.q.text, re.I)) \
                and same and _PER_UNIT.search(self.q.text):
            # "what's the price per meter on that order?": the one record's amount over its units; over several
            # records of one product ("the average price per unit"), their amounts over their units
            amount, count = sum(amounts), sum(u for u, _ in units)
            expression = (f"({' + '.join(plain_number(a) for a in amounts)}) / "
                          f"({' + '.join(plain_number(u) for u, _ in units)})") if len(amounts) > 1 else \
                f"{plain_number(amount)} / {plain_number(count)}"
            return Records("per unit", expression, f"${amount:,.0f} for {count:,.0f} × {units[0][1]}", units[0][1])
        by_value = bool(_ASKS_VALUE.search(self.q.text))
        if not items or not by_value and len({p for _, p in units}) != 1:
            return None
        values = amounts if by_value else [u for u, _ in units]
        total = sum(values)
        listed = f"${total:,.2f}".replace(".00", "") if by_value else f"{total:,.0f} × {units[0][1]}"
        stated = [m[0] for m in numbers(self.q.text) if not is_year(m[0]) and unit_of(m[0]) != "%"]
        if _LEFT.search(self.q.text) and len(stated) == 1:
            return Records("left", f"{plain_number(number_value(stated[0]))} - {plain_number(total)}", listed,
                           stated[0])
        if _LEFT.search(self.q.text) and not stated and not by_value:  # "... vs the contract quantity: how many to come?"
            whole = self._whole_of_records(units[0][1])
            return Records("left", f"{plain_number(whole[0])} - {plain_number(total)}", listed, whole[1],
                           whole[2]) if whole else None
        if self.q.operation == "share":
            if by_value and units and len({p for _, p in units}) == 1 and _COUNTED_SHARE & set(
                    terms(" ".join(self.q.share_of))):
                # ("how many units and what value ..., and what share of the contracted volume are those units?")
                total, listed = sum(u for u, _ in units), f"{sum(u for u, _ in units):,.0f} × {units[0][1]}"
                by_value = False
            whole = self._whole_of_records("" if by_value else units[0][1])
            return Records("share", f"{plain_number(total)} / {plain_number(whole[0])} * 100", listed, whole[1],
                           whole[2]) if whole else None
        if len(items) > 1 and asks_quantity(self.q.text):
            return Records("sum", " + ".join(plain_number(v) for v in values), listed)
        return None

    def _penalties(self, items: list[str]) -> Records | None:
        """For "which deliveries came late, and what penalty would that mean?": each listed late delivery's penalty
        under the rate a searched clause sets (a part of a week counted as a week where the clause says so, and no
        more than its cap), and their sum; ``None`` when no clause sets a weekly rate or nothing came late."""
        clause = next(((s, m) for s in self._passage_sentences if (m := _weekly_rate(s.text))), None)
        if not clause:
            return None
        sentence, (per_week, full_only, part_counts, end) = clause
        cap = _PENALTY_CAP.search(sentence.text[end:])
        stated = _STATED_DELAY.search(_in_days(self._spoken_text))  # "had ORD-7 come ten days late": that delay, for
        # the records the question names by id (a "$500,000 order" it supposes is none of the listed ones)
        # "if it had shipped really late, what's the most we could have owed?": the cap, on the order listed
        ceiling = cap and not stated and len(items) == 1 and _ASKS_CEILING.search(self.question_text)
        terms, lines = [], []
        for item in items:
            late, amount, order = _LATE.search(item), _LISTED_AMOUNT.search(item), _RECORD_ID.match(item)
            if ceiling and not late and amount and order:  # (a late one owes what its delay costs, its cap said too)
                value, most = number_value(amount[1]), float(cap[1])
                terms.append(f"{plain_number(value)} * {plain_number(most)} / 100")
                lines.append(f"{order[1]} ({plain_number(most)}% of ${value:,.0f} = ${value * most / 100:,.0f})")
                continue
            if not ((late or stated and order and order[1] in self.question_text) and amount and order):
                continue
            if stated:
                days = (number_word(stated[1]) or number_value(stated[1])) * (7 if stated[2].lower() == "week" else 1)
            else:
                days = (date.fromisoformat(late[1]) - date.fromisoformat(late[2])).days
            weeks = int(-(-days // 7) if part_counts or not full_only else days // 7)  # (only full weeks when it says so)
            percent = min(per_week * weeks, float(cap[1]) if cap else float("inf"))
            if percent <= 0:
                continue
            value = number_value(amount[1])
            terms.append(f"{plain_number(value)} * {plain_number(percent)} / 100")
            capped = f"; at most {plain_number(float(cap[1]))}%, ${value * float(cap[1]) / 100:,.0f}" if cap and \
                _ASKS_CEILING.search(self.question_text) else ""
            lines.append(f"{order[1]} ({days} day{'s' if days != 1 else ''} late: {weeks} week{'s' if weeks != 1 else ''}"
                         f" at {plain_number(per_week)}% of ${value:,.0f} = ${value * percent / 100:,.0f}{capped})")
        other = "asked" if stated else "ceiling" if ceiling and not any(_LATE.search(item) for item in items) else ""
        return Records("penalty", " + ".join(terms), "; ".join(lines), other, sentence) if terms else None

    def _by_stated_amount(self, items: list[str]) -> list[str]:
        """"A $1.3M LX-200 order ... what unit price did they pay on that order?": of several listed records, the one
        whose amount the question states (rounded as it is written); all of them when it states none or fits none."""
        stated = [_in_dollars(m[0]) for m in numbers(self.question_text) if unit_of(m[0]).startswith("$")]
        if len(items) < 2 or not stated:
            return items
        close = [item for item in items if (m := _LISTED_AMOUNT.search(item))
                 and any(abs(number_value(m[1]) - value) <= 0.05 * value for value in stated)]
        return close if len(close) == 1 else items

    @cached_property
    def comparand(self) -> str:
        """What a question holds a record's figure against ("how far below the current list price was the unit price
        on that order?": "current list price"), when it names a price of the documents; else ""."""
        m = _COMPARAND.search(self.q.text)
        return key_phrase(m["other"]) if m and self.q.orders and MONEY_MEASURES & set(terms(m["other"])) else ""

    def _documented_price(self) -> tuple[float, str, Sentence] | None:
        """The documents' price the comparand names ("the current RB-40 list price"), read from the searches so far
        as the dollar amount its code's clause gives for the measure (the new one of a "from $X to $Y" change);
        ``None`` when the comparand names no code or no such amount was found."""
        search = self.tools.get("search")
        blocks = [b for c in self.calls if search and c.name == search.name and c.result for b in parse_blocks(c.result)]
        named = " ".join(w for w in self.comparand.split() if anchors(w) and not find_periods(w))  # "RB-40"
        measure = " ".join(w for w in self.comparand.split() if w not in named.split() and not _NOW_WORDS.match(w))
        found = find_quantity(named, measure, blocks, unit="$") if named and measure else None
        if not found or found.unit != "$":
            return None
        change = from_to(found.sentence.text)  # "rises from $48 to $50": the current price is the new one
        if change and number_value(change[1]) == found.value:
            return number_value(change[0]), change[0], found.sentence
        return found.value, found.text, found.sentence

    def _whole_of_records(self, product: str) -> tuple[float, str, Sentence] | None:
        """The documents' figure the listed records are a share of: the quantity written before the product
        ("2,100 PX-7 transmitters"), or for a value the dollar amount the question's words describe ("an estimated
        value of $9.3M", in dollars), with the figure as written and its sentence."""
        search = self.tools.get("search")
        sentences = [s for c in self.calls if search and c.name == search.name and c.result
                     for s in sentences_of(parse_blocks(c.result))]
        if product:
            pattern = re.compile(rf"(?<![\w.$])(\d[\d,]*)\s+(?:[\w-]+\s+){{0,2}}?{re.escape(product)}\b", re.I)
            found = [(number_value(m[1]), m[1], s) for s in sentences for m in pattern.finditer(s.text)]
            return found[0] if found else None
        wanted = set(terms(self.q.text))
        dollars = [(len(wanted & set(terms(own_stretch(s.text, m)))), m[0].strip(), s) for s in sentences
                   for m in numbers(s.text) if unit_of(m[0]).startswith("$")]
        best = max(dollars, key=lambda d: d[0], default=None)
        return (_in_dollars(best[1]), best[1], best[2]) if best and best[0] else None

    def bridge_period(self) -> str:
        """The period of the bridging event, read from the date nearest the event's words where it was found."""
        kind, event = self.q.bridge
        found = [s for c in self.calls if c.text == event and c.result for s in quoted(event, c.result, 1)]
        if not found:
            return ""
        period = nearest_period(found[0].text, set(terms(event)))
        if period and not period.year:
            period = fill_years([period], self.today)[0]
        if not period or period.kind == "year" or (kind == "month" and period.kind != "month"):
            return str(period.year) if period and period.year else ""
        if kind == "quarter" and period.kind == "month":
            period = Period(period.year, "quarter", (period.number - 1) // 3 + 1)
        return period.text if kind != "year" else str(period.year)

    @cached_property
    def referent(self) -> str:
        """The name an earlier part's answer gives: a proper name before one of that part's nouns ("Penang plant");
        worked out once per request."""
        first = [p for p in self.q.parts if p not in self.q.referring][:1]
        coded = bool(_POINTS_TO_CODE.search(self.q.text))  # "what does the manual say about that code?"
        who = bool(re.match(r"\s*who\b", self.q.text, re.I))  # "who placed it?": a party, not a product code
        for call in self.calls:
            if not first or call.text != first[0] or not call.result:
                continue
            wanted = set(terms(first[0]))
            every = sentences_of(parse_blocks(call.result))
            ranked = sorted(select(first[0], every, 2), key=lambda x: -x.score)
            found = [scored.sentence for scored in ranked]  # the best answer first: its name is the one meant
            labels = {s.label for s in found}  # the answer's passages, best sentence first
            for sentence in dict.fromkeys([*found, *(s for s in every if s.label in labels)]):
                for m in _APPOSITIVE.finditer(sentence.text):  # "FlowTech 2024, the trade fair for ...": the fair
                    if set(terms(m[2])) & wanted and m[1].lower() not in self.question_text.lower():
                        return m[1]
            if coded:  # a code has letters and digits: the first sentence that gives one, however it ranks
                found = [s for s in dict.fromkeys([*found, *every])
                         if any(_CODE.fullmatch(m[0]) for m in _NAMED.finditer(s.text))]
            if _SUPERLATIVE.search(first[0]):  # "the biggest order": the sentence that says which is the biggest
                found = [s for s in found if _SUPERLATIVE.search(s.text)] or found
            for sentence in found:
                for m in _NAME_BEFORE_NOUN.finditer(sentence.text):
                    if {stem(m[2].lower()), stem((m[3] or m[2]).lower())} & wanted \
                            and m[1].lower() not in self.question_text.lower() \
                            and not (who and re.search(r"\d", m[1])):
                        return _with_opening(sentence.text, m.start(1), m[1])
            candidates: list[tuple[int, str]] = []  # (distance to an asked word, name), over the quoted sentences
            for sentence in found:  # else the name or code the answer gives, next to what the part asked for
                text = sentence.text
                asked = [m.span() for m in re.finditer(r"[\w-]+", text) if set(terms(m[0])) & wanted]
                for m in _NAMED.finditer(text):
                    name = _with_opening(text, m.start(), _NAME_RUN.match(text, m.start())[0])
                    before = re.search(r"([A-Z][\w&/-]*)\s$", text[:m.start()])
                    first_word = (before[1] if before else name).split()[0]  # "Veltrix Sensors" is the Veltrix asked of
                    if name.lower() in self.question_text.lower() or find_periods(name) or \
                            first_word.lower() not in STOPWORDS and first_word in self.question_text.split() or \
                            text[:m.start()].count("(") > text[:m.start()].count(")") or coded and not _CODE.fullmatch(name) \
                            or who and re.search(r"\d", name):
                        continue
                    outside = [a for a, b in asked if not m.start() <= a < m.start() + len(name)]
                    candidates.append((min((abs(m.start() - a) for a in outside), default=len(text)), name))
            beside = [c for c in candidates if c[0] <= 12]  # "error AG-115"; else the best sentence's first name
            if candidates:
                return min(beside)[1] if beside else candidates[0][1]
            titles = {block.label: block.title for block in parse_blocks(call.result)}
            for sentence in found:  # "This agreement is governed by Danish law": the agreement's title names the party
                name = title_party(titles.get(sentence.label, ""))
                if name and name.lower() not in self.question_text.lower():
                    return name
        return ""

    @cached_property
    def _largest_component(self) -> str:
        """The largest of the parts a found passage splits the change into ("raw-material costs added 1.9 points,
        product mix added 0.7 points"), for a "why" question."""
        search = self.tools.get("search")
        parts = [(number_value(m[2]), m[1].strip()) for c in self.calls if search and c.result and c.name == search.name
                 for m in _COMPONENT.finditer(c.result)] if self.q.cause else []
        return max(parts)[1] if len(parts) >= 2 else ""

    @property
    def _component_query(self) -> str:
        """The search for what the largest part of the change was made of (its own section explains it)."""
        return f"{self._largest_component} {self.q.subject}" if self._largest_component else ""

    def _reasons_found(self) -> bool:
        """Whether a search for the reasons already brought sentences that give them (then once is enough)."""
        reasons = self.q.cause_query()
        return any(c.text == reasons and c.result and quoted(reasons, c.result, 1) for c in self.calls)

    def _second_round(self) -> list[tuple[Tool, dict[str, Any]]]:
        return self._web_fallback() + self._dependent_calls()

    def _web_fallback(self) -> list[tuple[Tool, dict[str, Any]]]:
        """A question the internal documents do not answer may be public (a competitor's launch, a regulator's
        rule): each internal search that found nothing to quote is tried once on the web."""
        search, web = self.tools.get("search"), self.tools.get("web")
        if not (search and web):
            return []
        searched = [c for c in self.calls if c.name == search.name and c.result is not None]
        measured = self.measured_quantities()  # (a comparison whose every side has its number inside is answered:
        answered = bool(measured) and all(len(found) == len(self.q.sides) for found in measured.values())
        unknown = set() if answered else self._unknown_terms(searched)  # its odd words are no public thing)
        names = self._names() + [frozenset({t}) for t in unknown]
        quotes = [self._quote(c, 3) for c in searched]
        owned = [[name for name in names if name <= set(terms(c.text))] or (names if _NAMED.search(c.text) else [])
                 for c in searched]  # "Q2 2024 revenue", the whole of a share, names no one: not judged by names

        def naming(own: list[frozenset[str]], sentences: list[Sentence]) -> list[Sentence]:
            return [s for s in sentences if not own or any(name <= s.terms | s.title_terms for name in own)]

        # a near miss that never names the asked thing is no answer
        empty = [c for c, own, found in zip(searched, owned, quotes, strict=True) if not naming(own, found)]
        # "the harbour holiday in the city where our head office is": the city was found inside; its holiday, if
        # no passage speaks of it, may be public
        unspoken = [c for c, found in zip(searched, quotes, strict=True) if self._unspoken_part(c, found)]
        if _NAMED.search(self.question_text) or names:
            # ... and a passage that names the thing but says nothing of the asked measure ("Veltrix launched the X"
            # for "how many X did Veltrix ship") is a near miss too: its own reports may say it
            measure = set(terms(self.q.subject)) - set().union(*names) - _GRAMMAR_TERMS
            missed = [c for c, own, found in zip(searched, owned, quotes, strict=True) if c not in empty and measure
                      and not any(measure & s.terms for s in naming(own, found))]
            return [(web, text_arguments(web, text)) for text in dict.fromkeys(c.text for c in empty + missed + unspoken)]
        # "total bookings in December" is internal: a question naming nobody goes out only when nothing inside
        # answered it, even in other words ("greyfield research: size of the segment?"), once, with its key terms
        if not searched or len(empty) < len(searched) or self._reformulated():
            return [(web, text_arguments(web, c.text)) for c in unspoken]
        return [(web, text_arguments(web, self.q.query))]

    def _unspoken_part(self, call: Call, found: list[Sentence]) -> bool:
        """Whether ``call`` searched a part that points back with the name the first part's answer gave, and no
        sentence it found holds half of that part's own words (those the first part does not share)."""
        part = next((p for p in self.q.referring if self.referent and call.text == f"{self.referent} {p}"), "")
        first = {t for p in self.q.parts if p not in self.q.referring for t in terms(p)}
        wanted = {t for t in terms(part) if not find_periods(t)} - first - _GRAMMAR_TERMS
        return bool(wanted) and not any(2 * len(wanted & (s.terms | s.title_terms)) >= len(wanted) for s in found)

    def _unknown_terms(self, searched: list[Call]) -> set[str]:
        """The question's own words (a lower-case name: "rhinmark", "quorra gdansk") that no passage of any internal
        search contains, in its text or title: what the documents never mention is likely public."""
        if not searched or self.q.orders or re.search(r"\b(?:our|ours|we|us|my|mine|i)\b", self.q.text, re.I):
            return set()  # "which of our contracts ...": about the company's own things, however worded
        seen = {t for c in searched for block in parse_blocks(c.result or "")
                for t in terms(f"{block.title} {block.text}")}
        asked = {t for t in terms(self.q.text) if t.isalpha() and len(t) >= 5} - _GRAMMAR_TERMS  # "total", "lower"
        return asked - seen if seen else set()  # nothing found at all: other words are tried first

    def _names(self) -> list[frozenset[str]]:
        """The terms of each name the question gives ("Rhinmark Water Authority"); a month, or a single word that is
        capitalised only because it opens a sentence ("Compare ...", "Which ..."), is no name."""
        text = self.q.text
        runs = [[w for w in m[0].split() if w.lower() not in STOPWORDS and w.lower() not in MONTHS]
                for m in _NAME_RUN.finditer(text)
                if " " in m[0] or not re.search(r"(?:^|[.!?:]\s+)$", text[:m.start()])]
        return [frozenset(terms(" ".join(run))) for run in runs if run and terms(" ".join(run))
                and not find_periods(" ".join(run))]

    def _named_causes(self) -> list[tuple[Tool, dict[str, Any]]]:
        """A found sentence that lists causes ("The causes were a weaker market, a new competitor and internal
        factors") is followed up: one search per cause, for its details."""
        search = self.tools.get("search")
        if not (search and self.q.cause):
            return []
        period = self.q.period_phrase
        items = [item for c in self.calls if c.text.startswith("reasons for") and c.result
                 for sentence in quoted(c.text, c.result, 3) if (m := _LISTS_CAUSES.search(sentence.text))
                 for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", m[1])]
        queries = [" ".join(filter(None, [key_phrase(item), period])) for item in items if len(items) > 1]
        return [(search, text_arguments(search, query)) for query in dict.fromkeys(queries) if query][:4]

    def _dependent_calls(self) -> list[tuple[Tool, dict[str, Any]]]:
        return (self._named_causes() + self._causes_of_listed() + self._owner_of_listed() + self._causes_in_document()
                + self._next_steps() + self._reformulated())

    def _owner_of_listed(self) -> list[tuple[Tool, dict[str, Any]]]:
        """"One shipment is delayed: whose is it, and what penalty does their contract set?": when the other system
        listed one record and the question named no customer, the parts not about orders are searched with the name
        the record gives first (its customer)."""
        search = self.tools.get("search")
        items = self.listed_items()
        if not (search and self.tools.get("orders") and len(items) == 1) or customer_name(self.question_text):
            return []
        asked = self.question_text.lower()
        names = [m[0] for m in _NAME_RUN.finditer(items[0].splitlines()[0]) if len(m[0]) > 3 and not re.search(r"\d", m[0])
                 and m[0].lower() not in asked and not find_periods(m[0])]
        return [(search, text_arguments(search, f"{names[0]} {part}")) for part in self.q.parts
                if names and not asks_orders([part])]

    def _causes_in_document(self) -> list[tuple[Tool, dict[str, Any]]]:
        """A "why" question whose search for the reasons found a document: the causes often stand in a section of
        their own ("What drove the improvement", "Root cause") that shares none of the question's words, and the
        first sentence that gives a cause ("because the certificate had expired") is seldom the cause behind it, so
        that document is searched once more for its causes, by its title."""
        search, query = self.tools.get("search"), self._document_cause_query
        return [(search, text_arguments(search, query))] if search and query else []

    @cached_property
    def _document_cause_query(self) -> str:
        """The search for the causes within the document the search for the reasons found (see
        :meth:`_causes_in_document`), worked out once per request."""
        search = self.tools.get("search")
        if not (search and self.q.cause) or self.q.orders:  # an order's delay is explained by its carrier's notice
            return ""
        # once the search for the reasons came back, the document it found is searched for its causes
        reasons = [c for c in self.calls if c.name == search.name and c.result and c.text.startswith("reasons for")]
        found = [(s, c.result) for c in reasons for s in quoted(c.text, c.result, 3)]
        if not found:
            return ""
        titles = {block.label: block.title for _, result in found for block in parse_blocks(result)}
        title = titles.get(found[0][0].label, "")
        document = title.rsplit(" — ", 1)[0] if title.count(" — ") >= 2 else title  # without the section heading
        change = {"increase": "improvement increase", "decline": "decline drop"}.get(self.q.direction, "")
        return " ".join(f"{key_phrase(document)} why causes reasons {change}".split()) if document else ""

    def _causes_of_listed(self) -> list[tuple[Tool, dict[str, Any]]]:
        """"Which shipment is late, and why?": the other system listed what is late; the reasons are sought with the
        names it gave that the question did not (a carrier, a site), in the documents and on the web."""
        orders = self.tools.get("orders")
        if not (orders and self.q.cause):
            return []
        items = self.listed_items(bought=False)  # "why was it cancelled?" asks about a cancelled one too
        if re.search(r"\b(?:latest|newest|most recent|last)\b", self.question_text, re.I):
            items = items[:1]  # "my latest order": the first of a list that is newest first
        if not items or len(items) > 3:
            return []  # nothing listed, or too many items to explain each
        lines = [line for item in items for line in item.splitlines()]
        asked = self.question_text.lower()
        names = [m[0] for line in lines for m in _NAME_RUN.finditer(line) if len(m[0]) > 3
                 and not any(w in asked for w in m[0].lower().split())  # "Oakridge Chemicals" when asked about Oakridge
                 and not re.search(r"\d", m[0]) and not find_periods(m[0])]
        states = [w for w in ("delay", "cancel", "return") if any(w in line.lower() for line in lines)]  # "delayed"
        # what happened to the records (else the question's words) is what a notice about them says
        happened = states or key_phrase(self.q.subject).split()[:4]
        # a party the records list with its account id ("Oakridge Chemicals (C-1004)") is a customer: a public notice
        # about the carrier's delay does not name it
        private = {m[1] for line in lines for m in re.finditer(r"([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)\s+\([A-Z]{1,3}-\d+\)", line)}
        searches = [(self.tools.get("search"), names), (self.tools.get("web"), [n for n in names if n not in private])]
        return [(tool, text_arguments(tool, " ".join([*dict.fromkeys(named), *happened]))) for tool, named in searches
                if tool and named]

    def _reformulated(self) -> list[tuple[Tool, dict[str, Any]]]:
        """One search again in other words when no search so far found anything to quote: the whole question's
        terms, else its measure and period alone (a narrower wording may have missed the passage)."""
        search = self.tools.get("search")
        if not search or self.q.comparison:
            return []
        first = [c for c in self.calls if c.name == search.name and c.result is not None]
        if not first or any(quoted(self._unscoped(c.text), c.result, 1, self.figure) for c in first):
            return []
        done = {c.text for c in self.calls}
        options = [self.q.query, " ".join(filter(None, [self.q.subject, self.q.period_phrase]))]
        return [(search, text_arguments(search, query)) for query in options if query and query not in done][:1]

    def _next_steps(self) -> list[tuple[Tool, dict[str, Any]]]:
        q, search, calculator = self.q, self.tools.get("search"), self.tools.get("calculator")
        if q.bridge:
            period = self.bridge_period()
            return [(search, text_arguments(search, f"{period} {part}")) for part in q.parts] if period and search else []
        planned: list[tuple[Tool, dict[str, Any]]] = []
        if q.referring and search:
            # "its address": searched with the name the first part's answer gave, else with the first part's words
            first = next((p for p in q.parts if p not in q.referring), "")
            # "why did X fail, and why did testing not catch it?": "it" is X, the first part's subject, not a name in
            # its answer (an answer of reasons names no thing)
            scope = first if _ASKS_WHY_FIRST.match(q.text) else self.referent or first
            planned = [(search, text_arguments(search, f"{scope} {part}")) for part in q.referring] if scope else []
        if not q.comparison:
            expression = None
            if calculator:
                changed = self.change_expression() if q.amount or q.operation in ("percent change", "difference") \
                    else None  # "how many months shorter than the old limit?": "from 36 to 24 months"
                records = self.records  # (a record's unit price against a documented price before that price's
                # own change: "list price from $48 to $50")
                held = records.expression if records and records.kind == "against" else None
                expression = held or changed or (records.expression if records else None) or (
                    self.share_expression() if q.operation == "share" else self.portion[2] if self.portion
                    else self.rate_expression() or self.listed_total() or self.remainder_expression())
            counting = self.counting_search() if calculator and search and not expression else ""
            planned += [(search, text_arguments(search, counting))] if counting else []
            planned += [(calculator, text_arguments(calculator, self.term_expression))] if self.term_expression else []
            # "how many crates has X ordered, and what would storage for all of them cost?": the records' count,
            # then the rate per crate times it
            rated = self.rate_expression() if calculator and expression and self._rate_product \
                and self._rate_product[3].startswith("the records list") else None
            later = self.later_shares() if calculator and expression else []
            # "how many spaces are not in the lottery, and what percent go to it?": the remainder too, whatever
            # the first figure worked out
            remainder = self.remainder_expression() if calculator and expression else None
            # "the 1,150 meters at the unit price, plus the fees if all 240 gateways are on it": each product
            more = self.more_rate_expressions if calculator and expression and expression == self.rate_expression() else []
            return planned + [(calculator, text_arguments(calculator, e))
                              for e in dict.fromkeys([expression, rated, *more, *later, remainder]) if e]
        done = self.made
        if any(f"{t.name}:{canonical_json(a)}" not in done for t, a in planned):
            return planned  # "..., and what is that per month?": searched first, then the numbers are combined
        if q.across:  # each name's change between the periods, worked out one by one
            return [(calculator, text_arguments(calculator, e)) for e in self.across_expressions().values()] \
                if calculator else []
        if self.side_shares:  # each period's share of its own whole
            return [(calculator, text_arguments(calculator, e)) for e in self.share_expressions().values()] \
                if calculator else []
        measured = self.measured_quantities()
        pair = self.ordered_pair(measured[q.measured[0]])
        replaced = self.change_expression() if calculator and not pair and (
            _OLD_AND_NEW.search(q.text) or "now" in q.sides) else None  # ("the new X vs the one in 2023": now too)
        if replaced:  # "how much more is it now vs the old one-off amount?": one sentence gives both
            return [(calculator, text_arguments(calculator, replaced))]
        planned = [(calculator, text_arguments(calculator, x.conversion)) for quantities in measured.values()
                   for x in quantities.values() if calculator and isinstance(x, ConvertedQuantity)]  # shown first
        planned += [
            (calculator, text_arguments(calculator, expression)) for measure, quantities in measured.items()
            if calculator and not self._rates_counted(quantities)
            and (expression := self._for_measure(measure).calculation(quantities))]
        planned += [(calculator, text_arguments(calculator, expression)) for expression, _, _ in self.side_rates.values()
                    if calculator]  # "a $500k order 10 days late: the penalty under A vs under B"
        planned += [(calculator, text_arguments(calculator, self.side_rates_total))] if calculator and \
            self.side_rates_total else []
        planned += [(search, text_arguments(search, f"{side} {thing}s")) for side in q.sides
                    if search and side not in self.side_rates and (quantity := next(
                        (qs[side] for qs in measured.values() if side in qs), None)) and self._rates_counted({side: quantity})
                    for thing in self._every_side_things[:1]]  # "every gateway" of A: how many gateways A has
        planned += [(calculator, text_arguments(calculator, self.monthly_average))] if calculator and \
            self.monthly_average else []
        if search and q.cause and not q.direction and not self._reasons_found():
            direction = ("increase" if pair[0].value > pair[1].value else "decline") if pair else ""
            planned.append((search, text_arguments(search, q.cause_query(direction))))
        if search and self._component_query and self._largest_component.lower() not in " ".join(
                b.title for b in self._passage_blocks).lower():  # (its own section not found yet)
            # "raw-material costs added 1.9 points, product mix 0.7 ...": what the largest part was made of
            planned.append((search, text_arguments(search, self._component_query)))
        if search and self._made_progress() and not any(f"{t.name}:{canonical_json(a)}" not in done
                                                         for t, a in planned if t is search):
            # a missing number is looked up again only when no other search (the reasons) may bring it
            planned += [(search, text_arguments(search, self._searched_again(measure, side)))
                        for measure, quantities in measured.items() for side in q.sides if side not in quantities]
        return planned

    def _searched_again(self, measure: str, side: str) -> str:
        """The words to look for a side's missing number with once more: the measure and the side, unless those are
        the words its first search used, reordered; then with the noun the question writes after the side, which
        the measure's key phrase may have dropped ("the full-year cost of the 2024 increase"), or, for a measure of
        an agreement's clause, with the clause's usual words ("payment period": "payment terms pay invoice")."""
        again = f"{measure} {side}"
        if set(terms(again)) != set(terms(self.q.side_query(side, measure))):
            return again
        clause = clause_words(measure) if re.search(rf"\b{AGREEMENT_WORD}s?\b", self.question_text, re.I) else ""
        if clause:  # "the respective payment periods" of agreements: the payment clause, in its usual words
            return " ".join(dict.fromkeys(f"{side} {measure} {clause}".split()))
        noun = re.search(rf"\b{re.escape(side)}\s+([a-z][\w-]+)", self.question_text, re.I)
        return f"{side} {noun[1]} {measure}" if noun and terms(noun[1]) and not set(terms(noun[1])) & set(
            terms(measure)) else again

    def next_calls(self) -> list[tuple[Tool, dict[str, Any]]]:
        """The calls still worth making; empty when it is time to answer."""
        if self.must_answer:
            return []
        done = self.made
        first = [(t, a) for t, a in self._first_round() if f"{t.name}:{canonical_json(a)}" not in done]
        if first:  # a calculation whose numbers are already found need not wait for the remaining searches
            # (a conversion waits for its rate, which a later search of this round may bring)
            ready = [(t, a) for t, a in self._next_steps() if t.role == "calculator"] if self.calls \
                and not self.q.conversion else []
            return first + [(t, a) for t, a in ready if f"{t.name}:{canonical_json(a)}" not in done]
        second = self._second_round()
        return [(t, a) for t, a in second if f"{t.name}:{canonical_json(a)}" not in done]

    # -- the answer ---------------------------------------------------------------------------------------------
    def answer(self) -> str:
        """Cited sentences from every observation, the calculation, and what could not be found."""
        q, roles = self.q, {tool.name: role for role, tool in self.tools.items()}
        sentences, extra, missing, lead = [], [], [], []  # lead: the computed answer, said first
        measured = self.measured_quantities()
        side_queries = set(q.side_queries())
        for measure, quantities in measured.items():
            for side in q.sides:
                # the side's number, and the sentence that best answers its search (often the comparison in words)
                query = q.side_query(side, measure)
                found = [s for c in self.calls if c.text == query and c.result
                         for s in quoted(self._unscoped(query), c.result, 1)]
                # "Severity: SEV-1": a field of the side's own document, named by the measure, is its value
                own = {b.label for b in self._own_blocks(side)} if side not in quantities else set()
                field = _field_for(measure, [s for c in self.calls if c.text == query and c.result and own
                                             for s in sentences_of(parse_blocks(c.result)) if s.label in own])
                sentences += [quantities[side].sentence] if side in quantities else [field] if field else []
                sentences += found[:1]
                if side not in quantities and not field and (not found or "figure" in q.answer_type and not q.cause):
                    # a sentence about the side without its figure does not answer "how much" (a "why" is
                    # answered by its reasons: the figures only set the scene)
                    missing.append(query)
        sentences += self.change_sentences(side_queries, {s.text for s in sentences})
        from_sources = self.source_sentences()
        sentences += from_sources
        complete = q.comparison and all(len(quantities) == len(q.sides) for quantities in measured.values())
        answered: set[str] = set()  # what the web (or the documents) answered under one query is not missing
        current = {self._for_measure(m).calculation(qs) for m, qs in measured.items()} - {None}
        kept = current | {x.conversion for qs in measured.values() for x in qs.values() if isinstance(x, ConvertedQuantity)} \
            | {e for e, _, _ in self.side_rates.values()} | {self.side_rates_total} - {""} \
            | set(self.across_expressions().values()) \
            | set(self.share_expressions().values()) | ({self.monthly_average} - {""})
        worked = [c.text for c in self.calls if roles.get(c.name) == "calculator"]
        superseded = {t for t in worked if t not in kept and any(later in current for later in worked)} \
            if q.comparison else set()  # (a comparison's figure worked out again once a better number was found)
        for call in self.calls:
            role = roles.get(call.name)
            if not call.result or call.text in side_queries:
                continue
            if role in ("search", "web"):
                limit = 3 if call.text.startswith("reasons") or q.reviewed else 2
                chosen = self._quote(call, limit, {s.text for s in sentences})
                if q.cause and call.text == self._document_cause_query:  # the section headed as the causes
                    chosen = sentences_of([b for b in parse_blocks(call.result) if _CAUSE_HEADING.search(
                        b.title.rsplit(" — ", 1)[-1])])[:4] or chosen
                if call.text == self._component_query:  # the part's own section: what it was made of, with figures
                    chosen = [x for x in sentences_of([b for b in parse_blocks(call.result) if self._largest_component.lower()
                                                       in b.title.lower()]) if _POINTS.search(x.text)] or chosen
                if q.cause and role == "web":  # a news page's headline sums up what happened and why
                    sentences += _headlines(call.result, {s.label for s in chosen or self._quote(call, limit)})
                chosen += _from_other_pages(self._unscoped(call.text), call.result, chosen, self.figure_for(call.text))
                sentences += chosen
                if chosen or self._quote(call, 1):
                    answered.add(call.text)
                elif not complete and not call.text.startswith(tuple(f"{m} {s}" for m in q.measured for s in q.sides)):
                    missing.append(call.text)  # (once every side's figure is found, a further search missed nothing)
            elif role == "calculator":
                if call.text in superseded:
                    continue  # worked out before a later search brought the number that replaced one of its own
                line = self._calculation_line(call, measured)
                lead.append(self._cited(line[:1].upper() + line[1:], measured))  # "primary caregiver (20) is ..."
                records = self.records
                if records and records.source and call.text == records.expression:  # the figure it is a share of
                    sentences.append(records.source)
            elif call.result.strip() and not (_lists_nothing(call.result) and any(
                    c.name == call.name and c.result and not _lists_nothing(c.result) for c in self.calls)):
                # an empty reply says nothing once another call of that tool listed something
                extra.append(f"The {call.name} tool reports: {_shorten(call.result, 1500)}")
        lead = self._reviewed_lines() + self._across_verdict() + lead + self._referent_line(sentences) \
            + self._calendar_lines(sentences) + self._delivery_lines(sentences)
        sentences += self._operand_sentences(sentences)
        sentences += self._checked_sentences(sentences) if _CHECKS.search(q.text) else []
        missing = [m for m in missing if m not in answered and not from_sources]  # (each named document answered)
        plain = not (lead or q.comparison or q.cause)
        clauses = [q.text] if plain and len(q.parts) < 2 else [  # each part's own, for several
            clause for part in q.parts if plain and (clause := asked_clause(q.text, part))]
        for clause in clauses:
            focus, thing = asked_focus(clause), counted_thing(clause)  # ("how many people": "34 employees" counts)
            if focus and sentences and not any(speaks_of(focus, s) or counts(thing, s.text) for s in sentences):
                missing.append(focus)  # "the password for the guest wifi": the network's name is no password
        if missing:
            extra.append(f"I could not find {'; '.join(dict.fromkeys(missing))} in the documents available to you.")
        return compose(sentences, [e for e in extra if e], [line for line in lead if line]) or REFUSAL

    def _reviewed_lines(self) -> list[str]:
        """For a review of agreements: each agreement reviewed, by its document's title, which carries its kind and
        its reference ("Master Supply Agreement — Harbour Cranes Ltd (HC-2024-7)"), so the findings can be filed."""
        if not self.q.reviewed:
            return []
        wanted, lines, seen = set(terms(self.q.reviewed)), [], set()
        for block in self._passage_blocks:
            party = set(terms(title_party(block.title)))
            if block.label in seen or not party or len(party & wanted) < min(2, len(party)):
                continue
            seen.add(block.label)
            document = " — ".join(re.split(r"\s+—\s+", block.title)[:2])
            lines.append(f"Reviewed: {document} [{block.label}].")
        return lines

    def _delivery_lines(self, sentences: list[Sentence]) -> list[str]:
        """For "was it delivered within the lead time?": each listed order's days from placing to delivery, held
        against the time the quoted documents set for what the question names ("a lead time of 4 weeks")."""
        if not _ASKS_DELIVERY_TIME.search(self.question_text) or (self.records and self.records.kind == "penalty"):
            return []  # (the penalties already say which deliveries came late, and by how much)
        phrase = self.document_sets[1]
        limit = next((d for s in sentences if phrase for d in [_set_duration(phrase, s)] if d), None)
        lines = []
        for item in self.listed_items()[:5]:
            placed, delivered = _PLACED.search(item), _DELIVERED.search(item)
            if not (placed and delivered and (order := _RECORD_ID.match(item))):
                continue
            start, end = (date.fromisoformat(x[1]) for x in (placed, delivered))
            days = (end - start).days
            line = f"{order[1]} was delivered {days} days after it was placed ({written(start)} to {written(end)})"
            if limit:
                count, unit, sentence = limit
                allowed = (counted_back(start, -count, unit) - start).days  # (a month as the calendar has it)
                verdict = "within" if days <= allowed else "beyond"
                line += f", {verdict} the {phrase} of {count} {unit} ({allowed} days) [{sentence.label}]"
            lines.append(line + ".")
        return lines

    def _calendar_lines(self, sentences: list[Sentence]) -> list[str]:
        """Arithmetic on the dates the quoted sentences state: the deadline a notice period sets before a term's
        end ("by when must we give notice?"), or the days between two dated events ("how many days before the fair
        opens is the cutoff?")."""
        found = self._passage_sentences
        if _ASKS_DEADLINE.search(self.question_text):
            named = {t for name in _NAME_WORD.findall(self.question_text) for t in terms(name)}  # (the agreement the
            for notice in [*sentences, *(s for s in found if named & s.title_terms)]:  # question names, if not quoted)
                period = notice_period(notice.text)
                ends = [(len(notice.terms & s.terms), -i, d) for i, s in enumerate(found) if s.label == notice.label
                        for d in dates_in(s.text) if d.role == "end"]  # the term's last day, in the same document
                if period and ends:
                    end = max(ends, key=lambda e: e[:2])[2]
                    count, unit = period
                    return [f"{count} {unit if count != 1 else unit[:-1]} before {end.text} is "
                            f"{written(counted_back(end.day, count, unit))} [{notice.label}]."]
        asked = _DAYS_BETWEEN.search(self.question_text)
        quoted_dates = [(d, s) for s in sentences for d in dates_in(s.text)]  # the thing asked about is quoted; the
        dated = quoted_dates + [(d, s) for s in found for d in dates_in(s.text)]  # event it is counted to may not be
        if not asked or not quoted_dates or len({d.day for d, _ in dated}) < 2:
            return []
        anchor_words = set(terms(asked["anchor"]))
        role = "start" if _OPENS.search(asked["anchor"]) else "end" if _CLOSES.search(asked["anchor"]) else ""
        anchor, anchor_sentence = max(dated, key=lambda p: (p[0].role == role if role else 0,
                                                             len(anchor_words & (p[1].terms | p[1].title_terms))))
        thing_words = set(terms(self.question_text)) - anchor_words
        others = [(d, s) for d, s in quoted_dates if d.day != anchor.day]
        if not others:
            return []
        thing, thing_sentence = max(others, key=lambda p: len(thing_words & (p[1].terms | p[1].title_terms)))
        days = (anchor.day - thing.day).days
        relation = "before" if days >= 0 else "after"
        labels = " ".join(f"[{label}]" for label in dict.fromkeys((thing_sentence.label, anchor_sentence.label)))
        return [f"{thing.text} is {abs(days)} day{'s' if abs(days) != 1 else ''} {relation} {anchor.text} {labels}."]

    def _operand_sentences(self, sentences: list[Sentence]) -> list[Sentence]:
        """For each number a calculation used that no quoted sentence states, the found sentence that states it: a
        reader checks "6.5 / 47.9" against the sentence giving the $6.5M."""
        calculator = self.tools.get("calculator")
        stated = {number_value(m[0]) for s in sentences for m in numbers(s.text)}
        found = self._passage_sentences
        added: list[Sentence] = []
        for call in self.calls:
            if not (calculator and call.name == calculator.name and call.result):
                continue
            for operand in re.findall(r"\d+(?:\.\d+)?", call.text):
                value = float(operand)
                if value in stated:
                    continue
                source = next((s for s in found if any(number_value(m[0]) == value for m in numbers(s.text))), None)
                if source:
                    added.append(source)
                    stated |= {number_value(m[0]) for m in numbers(source.text)}
        return added

    def _checked_sentences(self, sentences: list[Sentence]) -> list[Sentence]:
        """For a figure the question quotes to be checked ("does that reconcile to the 'about 20%' quoted in X?"),
        the found sentence that states it, when no quoted sentence does: the reader sees where it comes from."""
        quoted_figures = [m[0] for m in _CHECKED_FIGURE.finditer(self.q.text)]
        added: list[Sentence] = []
        for figure in quoted_figures:
            if any(figure in s.text for s in [*sentences, *added]):
                continue
            source = next((s for s in self._passage_sentences if re.search(rf"(?<![\d.,]){re.escape(figure)}", s.text)),
                          None)
            added += [source] if source else []
        return added

    def _referent_line(self, sentences: list[Sentence]) -> list[str]:
        """"Which one is it, and ...?": the name the first part's search found, said first when no quoted sentence
        says it (it came from a passage's title), cited to that passage."""
        name = self.referent if self.q.referring else ""  # ("What caused X, and why did it drag on?" names X itself)
        if not name or _ASKS_WHY_FIRST.match(self.q.text) or any(name.lower() in s.text.lower() for s in sentences):
            return []
        labels = [b.label for c in self.calls if c.result for b in parse_blocks(c.result) if name in b.title]
        return [f"It is {name} [{labels[0]}]."] if labels else []

    def _cited(self, line: str, measured: dict[str, dict[str, Quantity]]) -> str:
        """A calculation line with the sources of the numbers it used: "... (45.2 - 42.1 = 3.1) [q3.md] [q2.md]."."""
        labels = [part.sentence.label for quantities in measured.values() for x in quantities.values()
                  if x.text in line for part in getattr(x, "parts", ()) or (x,)]  # a sum cites each month
        labels = [label for label in labels if f"[{label}]" not in line]  # (a line that cites its source already)
        if not line or not labels:
            return line
        return line.rstrip(".") + " " + " ".join(f"[{label}]" for label in dict.fromkeys(labels)) + "."

    def change_sentences(self, side_queries: set[str], exclude: set[str], limit: int = 3) -> list[Sentence]:
        """For "how did X change between A and B?": the sentences of the sides' passages that state a change
        ("now $750 every three years", "3 days instead of 2"), best match first."""
        if not (self.q.comparison and _ASKS_CHANGE.search(self.question_text)):
            return []
        blocks = [b for c in self.calls if c.text in side_queries and c.result for b in parse_blocks(c.result)]
        subject = set(terms(self.q.subject))
        stated = [s for s in sentences_of(blocks) if _STATES_CHANGE.search(s.text) and s.text not in exclude
                  and subject & (s.terms | s.title_terms)]
        ranked = score(self.q.query, stated)
        return [s.sentence for s in ranked[:limit]]

    @property
    def figure(self) -> str:
        """For a one-part "how many ...?" or "what does X pay?" question, the figure only a sentence that states one
        answers ("number", "money"), else ""."""
        q = self.q
        return "" if q.comparison or q.cause or len(q.parts) > 1 else figure_asked(self.question_text)

    def figure_for(self, query: str) -> str:
        """The figure a search's sentences must state: the question's, else, for one part of a several-part question
        of fact, the figure that part's own clause asks for ("what is the revenue target" is answered in money)."""
        q = self.q
        if self.figure or q.comparison or q.referring or len(q.parts) < 2 or query not in q.parts:
            return self.figure  # (a search for "X, and by when do I take them?" answers both parts; "why did X
            # fall, and how many accounts were affected?": the second part is answered by a count)
        clause = asked_clause(q.text, query)
        return figure_asked(clause) if clause else ""

    def _named_part(self, call: Call) -> tuple[str, str]:
        """(name, part) when ``call`` searched a referring part with the name an earlier answer gave, or one aspect of
        a reviewed agreement ("Sable Rail contract payment terms": the aspect, in the passages naming Sable Rail)."""
        q = self.q
        if q.reviewed and call.text.startswith(f"{q.reviewed} ") and call.text != q.query:
            party = " ".join(w for w in q.reviewed.split() if not re.fullmatch(AGREEMENT_WORD, w, re.I))
            return party, call.text[len(q.reviewed):].strip() if party else ""
        name = self.referent if q.referring else ""
        return name, next((p for p in q.referring if name and call.text == f"{name} {p}"), "")

    def _quote(self, call: Call, limit: int, exclude: Collection[str] = ()) -> list[Sentence]:
        """The sentences a search's result gives for its query. A part searched with the name an earlier answer
        gave ("Halvorsen Marine when does the agreement run out") is answered by the part's own words, from the
        passages that name it, besides what the whole query finds: the sentence naming the parties matches the name,
        not what is asked."""
        assert call.result is not None
        found = quoted(self._unscoped(call.text), call.result, limit, self.figure_for(call.text), exclude,
                       counted_thing(asked_clause(self.q.text, call.text) or self.q.text))  # ("how many people")
        name, part = self._named_part(call)
        if not part:
            return found
        wanted = set(terms(name))
        blocks = [b for b in parse_blocks(call.result) if wanted <= set(terms(f"{b.title} {b.text}"))]
        candidates = sentences_of(blocks)
        # in a passage about something else (a list of actions, each with its owner), the sentences that name it;
        # in one about the name itself ("Lease agreement — A"), every sentence
        naming = [s for s in candidates if (wanted <= s.terms or wanted <= s.title_terms) and s.text not in exclude]
        others = {s.text for s in candidates if s not in naming} if naming else set()
        own = [s.sentence for s in select(self._unscoped(part), candidates, limit, self.figure_for(part),
                                          {*exclude, *others, *(s.text for s in found)})]
        asked = set(terms(part))
        if not own:  # "Action items: ... (owner: J. Brandt)": under a heading that is what the part asks, the item
            own = [s for s in naming if 2 * len(asked & s.title_terms) >= len(asked)][:1]  # naming the name
        return sorted([*found, *own], key=lambda s: (s.label, s.position)) if own else found

    def _unscoped(self, query: str) -> str:
        """What a search's sentences must answer: for a one-part question of fact the question itself (so what it asks
        for and the names it gives are checked, :func:`.answering.select`); else the query, without the source the
        question named (sentences need not repeat "according to" whom)."""
        q = self.q
        if q.cause and query == self._document_cause_query:  # the document's causes, for the question's change
            return q.cause_query()
        if query == self.document_query:  # what the named document sets, by its own words
            return query
        asked = _WHEN_WHERE.findall(q.text)
        if q.referring and asked and any(query.endswith(part) for part in q.referring):
            query = f"{asked[-1]} {query}"  # "... — when does their term run out?": a date answers it
        elif len(q.parts) > 1 and (word := asked_word(q.text, query)):
            query = f"{word} {query}"  # "when the initial term ends, and how much notice ...?": the first needs a date
        plain = not (q.comparison or q.cause or q.referring or q.bridge or q.reviewed or q.source or q.operation)
        if plain and len(q.parts) == 1:  # a calculation quotes its inputs by their own searches
            # (with the codes the scene named when the question points back to them: "A unit shows K-9. What does
            # this code mean?" is answered about K-9)
            codes = [w for w in query.split() if any("-" in a for a in anchors(w)) and w.lower() not in q.text.lower()]
            query = " ".join([q.text, *codes]) if _POINTS_BACK.search(q.text) else q.text
        elif q.source:
            query = " ".join(query.replace(q.source, " ").split())
        if ASKS_PROHIBITION.search(asked_clause(q.text, query)):  # "... say you must not do when you see that code"
            query = f"{query} must not"
        if q.owner:  # "X is claiming penalties. What rate does their contract set?": the passages must name X
            owner = set(q.owner.split())
            query = f"{' '.join(w for w in query.rstrip(' ?').split() if w not in owner)} of {q.owner}"
        records = set(self._record_ids)
        if records:  # an order's id is in the records, never in a document: a document's sentence need not name it
            query = " ".join(w for w in query.split() if w.strip("?,.;:'’s") not in records)
        orders = self.tools.get("orders")
        if q.orders and orders and any(c.name == orders.name for c in self.calls) and not q.comparison:
            # "sable rail's 504-unit px-7 order in oct - did it make their contract lead time?": the size, the product
            # and the month pick the order in the records; the agreement's clause need not name them
            for period in find_periods(query):
                query = query.replace(period.text, " ")
            query = " ".join(w for w in query.split() if not any(re.search(r"\d", a) for a in anchors(w)))
        return query

    def _calculation_line(self, call: Call, measured: dict[str, dict[str, Quantity]]) -> str:
        """The calculation in words, for the measure whose numbers it used."""
        if call.text in self.across_expressions().values() and calculation_result(call.result or ""):
            return self._across_lines(call)
        if call.text == self.monthly_average and calculation_result(call.result or ""):
            first = self._summed_first
            value = _grouped(_rounded(calculation_result(call.result or ""), 1))
            return f"{self.q.sides[0]} averaged {first.unit[:1]}{value}{first.unit[1:]} a month ({call.result.strip()})."
        if call.text in self.share_expressions().values() and calculation_result(call.result or ""):
            return self._share_line(call)
        asked = _NOT_AMONG.search(self.question_text)
        if asked and self._remainder and call.text == self.remainder_expression() and calculation_result(call.result or ""):
            left = _grouped(_rounded(calculation_result(call.result or ""), 1))  # "50 of the 180 spaces are not ..."
            whole = self._remainder[2]
            return f"{left} of the {whole} {asked['thing']} are not {asked['rest'].strip()} ({call.result.strip()})."
        converted = next((x for quantities in measured.values() for x in quantities.values()
                          if isinstance(x, ConvertedQuantity) and x.conversion == call.text), None)
        if converted and calculation_result(call.result or ""):  # "€3,990 at the EUR/USD rate of 31 Dec 2024 ..."
            amount, rate = converted.parts
            return (f"{amount.text} at {converted.rate_name} ({rate.text}) is {converted.text.rsplit(' = ', 1)[1]} "
                    f"({call.result.strip()}).")
        measure, quantities = next(((m, qs) for m, qs in measured.items()
                                    if self._for_measure(m).calculation(qs) == call.text), (self.q.subject, {}))
        own = self._for_measure(measure)
        if own is not self:  # worked out with that measure's own operation
            return own._calculation_line(call, measured)
        decimals = 1 if self.q.percent or self.q.operation == "share" else 2
        decimals = 0 if decimals == 1 and _ROUGHLY.search(self.q.text) else decimals  # "roughly what % is that?"
        if self.q.operation == "average" and quantities:  # an average of "$15.9M"s is "$14.8M", not "$14.77M"
            decimals = max(1, *(len(x.plain.partition(".")[2]) for x in quantities.values()))
        result = _grouped(_rounded(calculation_result(call.result or ""), decimals))
        if decimals == 1 and "." not in result and _value(calculation_result(call.result or "") or result) != _value(result):
            result = f"{result}.0"  # 11.97 to one place is "12.0", not the exact-looking "12"
        pair = self.ordered_pair(quantities)

        def label(side: str) -> str:
            return f"{self.q.label(side)} {measure}" if len(measured) > 1 else self.q.label(side)

        if result and self.total_expression(quantities):
            parts = [f"{label(side)} ({quantities[side].text})" for side in self.q.sides]
            units = {quantities[side].unit for side in self.q.sides}
            unit = units.pop() if len(units) == 1 else ""
            value = f"{unit[:1]}{result}{unit[1:]}" if unit.startswith("$") else f"{result}{unit}"
            return f"The total of {', '.join(parts[:-1])} and {parts[-1]} is {value} ({call.result.strip()})."
        records = self.records
        if result and records and call.text == records.expression:
            return records.line(result, call.result.strip())
        side = next((side for side, (expression, _, _) in self.side_rates.items() if expression == call.text), "")
        if result and side:  # "Sable Rail: 10 days is 2 weeks or part of a week; 2 × 2% per week of $500k ..."
            _, (count, rate, thing, weeks), label = self.side_rates[side]
            total = _money(_value(calculation_result(call.result or "")), "$")
            of = f" of {self._value_stated}" if unit_of(rate) == "%" else ""
            return (f"Under {side}: {weeks}{count} × {rate} per {thing}{of} comes to {total} "
                    f"({call.result.strip()}) [{label}].")
        if result and call.text == self.side_rates_total:  # "together $502,800 a year"
            return f"Together that comes to {_money(_value(calculation_result(call.result or '')), '$')} ({call.result.strip()})."
        product = next((p for p in self._rate_products if call.text == self.rate_expression(p)), None)
        if result and product and unit_of(product[1])[:1] in ("$", "%"):
            count, rate, thing, weeks = product  # "240 × $1,750 per gateway comes to $420,000"
            total = _value(calculation_result(call.result or ""))
            count = count if count[:1].isdigit() else str(number_word(count))
            # "3 × 2% per week of $50,000 comes to $3,000"; "17 days is 3 weeks or part of a week; 3 × 2% per week ..."
            of = f" of {self._value_stated}" if unit_of(rate) == "%" and self._value_stated else ""
            value = _money(total, "$") if of else f"{result}%" if unit_of(rate) == "%" else _money(total, unit_of(rate))
            return f"{weeks[:1].upper()}{weeks[1:]}{count} × {rate} per {thing}{of} comes to {value} ({call.result.strip()})."
        if result and call.text == self.term_expression:  # "over the three-year term": "$1.26M" when asked in $M
            years = call.text.rsplit("*", 1)[1].strip()
            total = _value(calculation_result(call.result or ""))
            value = _money(total / 1e6, "$M") if _IN_MILLIONS.search(self.q.text) else _money(total, "$")
            return f"Over {years} years that comes to {value} ({call.result.strip()})."
        if result and call.text == self.listed_total():
            count = call.text.count("+") + 1
            return f"The total of the {count} items listed is ${_value(result):,.2f} ({call.result.strip()})."
        if result and self.portion and call.text == self.portion[2]:  # written to the whole's precision: "$6.4M"
            share, whole, _ = self.portion
            places = len(re.sub(r"\D", "", whole.partition(".")[2]))
            value = float(_rounded(calculation_result(call.result or ""), places))
            return f"{share} of {whole} is {_money(value, unit_of(whole))} ({call.result.strip()})."
        if result and self.q.operation in ("average", "max", "min") and len(quantities) > 2:
            return self._across_sides_line(call, result, quantities, label)
        change = self.change_pair if result and not pair and self.q.percent else None
        if change and call.text == self.change_expression():
            new, old = change  # "from $214 to $161": the change in money, then in percent
            if not unit_of(new).startswith("$"):
                return f"From {old} to {new} is a change of {result}% ({call.result.strip()})."
            return (f"From {old} to {new} is a change of {_money(number_value(new) - number_value(old), unit_of(new))}, "
                    f"or {result}% ({call.result.strip()}).")
        change = self.change_pair if result and not pair and not self.q.percent else None
        if change and call.text == self.change_expression():  # "3,700 units against a plan of 2,500"
            new, old = change
            gap = number_value(new) - number_value(old)
            amount = _money(abs(gap), unit_of(new)) if unit_of(new).startswith("$") else _grouped(
                _rounded(str(abs(gap)), 2))
            return f"{new} is {amount} {'more' if gap > 0 else 'less'} than {old} ({call.result.strip()})."
        if not result or not pair:
            unit = "%" if self.q.percent or self.q.operation == "share" else ""
            return f"The calculation gives {result}{unit} ({call.result.strip()})." if result else ""
        if self.q.operation in ("share", "ratio"):
            part, whole = sorted(pair, key=lambda x: x.value)
            if self.q.operation == "share":
                return (f"{label(part.side)} ({part.text}) is {result}% of {label(whole.side)} ({whole.text}) "
                        f"({call.result.strip()}).")
            return (f"{label(whole.side)} ({whole.text}) is {result} times {label(part.side)} ({part.text}) "
                    f"({call.result.strip()}).")
        a, b = pair
        unit = "%" if self.q.percent else (" percentage points" if a.unit == b.unit == "%" else "")
        if unit == " percentage points" and call.text == f"({a.plain} - {b.plain}) * 100":
            result, unit = _grouped(_rounded(calculation_result(call.result or ""), 0)), " basis points"
        counted = "" if unit or a.unit or b.unit else _counted_noun(a) or _counted_noun(b)  # "3 days" against "2":
        if counted:  # both are days
            a, b = (replace(x, text=f"{x.text} {counted}") for x in (a, b))
            unit = f" {counted.removesuffix('s') if _value(result) == 1 else counted}"
        written = {_measure_unit(x) for x in (a, b)}
        if not (unit or a.unit or b.unit) and len(written) == 1 and "" not in written:  # "+65 °C" and "+60 °C": a
            unit = f" {written.pop()}"  # difference of 5 °C
        if not self.q.percent and a.unit == b.unit and a.unit.startswith("$"):  # money stays money: "$1,089"
            result, unit = _money(_value(result), a.unit, _places((a, b))), ""
        relation = "higher" if a.value > b.value else "lower" if a.value < b.value else "the same as"
        result = result if self.q.percent else result.removeprefix("-")  # "lower than B: a difference of 600"
        change = "a change" if self.q.percent else "a difference"
        if self.q.percent and a.unit == b.unit and a.unit.startswith("$"):  # "the drop in $M and as a fraction"
            result = f"{_money(round(a.value - b.value, 6), a.unit, _places((a, b)))}, or {result}"
        elif self.q.percent and a.unit == b.unit == "":  # "the beat in units and in %": 1,200 units, or 48%
            result = f"{_grouped(_rounded(str(round(a.value - b.value, 6)), 2))}, or {result}"
        ranked = sorted((quantities[s] for s in self.q.sides if s in quantities), key=lambda x: -x.value)
        order = f" From highest to lowest: {', '.join(f'{label(x.side)} ({x.text})' for x in ranked)}." if (
            self.q.choice and len(ranked) > 2) else ""  # "rank the four quarters ...": the whole order
        return (f"{label(a.side)} ({a.text}) is {relation} than {label(b.side)} ({b.text}): {change} of {result}{unit} "
                f"({call.result.strip()}).{order}")


    def _across_sides_line(self, call: Call, result: str, quantities: dict[str, Quantity], label: Any) -> str:
        """An average of several sides, or the side with the largest (smallest) value and its lead over the next."""
        found = [quantities[side] for side in self.q.sides if side in quantities]
        listed = ", ".join(f"{label(x.side)} ({x.text})" for x in found[:-1]) + f" and {label(found[-1].side)} ({found[-1].text})"
        unit = found[0].unit
        value = f"{unit[:1]}{result}{unit[1:]}" if unit.startswith("$") else f"{result}{unit}"
        if self.q.operation == "average":  # the total first: "add up to $44.3M", then the average
            places = max(len(x.plain.partition(".")[2]) for x in found)
            total = f"{sum(x.value for x in found):,.{places}f}"
            total = f"{unit[:1]}{total}{unit[1:]}" if unit.startswith("$") else f"{total}{unit}"
            return f"{listed} add up to {total}; their average is {value} ({call.result.strip()})."
        ranked = sorted(found, key=lambda x: x.value, reverse=self.q.operation == "max")
        if SPREAD.search(self.q.text):  # "... and how big is the spread?": the top and the bottom
            ordered = sorted(found, key=lambda x: -x.value)
            top, bottom = ordered[0], ordered[-1]
            if "/" in call.text:  # "... as a percentage of the highest": the gap, then its share
                gap = round(top.value - bottom.value, 6)
                gap_text = _money(gap, unit) if unit.startswith("$") else f"{_grouped(_rounded(str(gap), 2))}{unit}"
                of = "lowest" if call.text.endswith(f"/ {bottom.plain} * 100") else "highest"
                value = f"{gap_text}, or {_grouped(_rounded(result.replace(',', ''), 1))}% of the {of}"
            return (f"{label(top.side)} has the highest value ({top.text}) and {label(bottom.side)} the "
                    f"lowest ({bottom.text}), a spread of {value}; compared: {listed} ({call.result.strip()}).")
        word = "highest" if self.q.operation == "max" else "lowest"
        return (f"{label(ranked[0].side)} has the {word} value ({ranked[0].text}), {value} "
                f"{'more' if self.q.operation == 'max' else 'less'} than {label(ranked[1].side)} ({ranked[1].text}); "
                f"compared: {listed} ({call.result.strip()}).")


#: What a count is counted in, written after its number: "3 days per week", "45 people work there".
_COUNT_NOUN = r"(days|weeks|months|years|hours|minutes|people|employees|staff|units)\b"


def _counted_noun(quantity: Quantity) -> str:
    """The noun a bare count is written with in its sentence ("days" for "up to 3 days per week"), else ""."""
    m = re.search(rf"(?<![\w.,$€£]){re.escape(quantity.text)}\s+{_COUNT_NOUN}", quantity.sentence.text, re.I)
    return m[1].lower() if m else ""


#: "the monthly avg", "the average per month": a quarter's months averaged.
_MONTHLY_AVERAGE = re.compile(r"\bmonthly\s+(?:avg|average)|\b(?:avg|average)\s+(?:per|a|each)\s+month|\b(?:avg|average)\s+monthly\b",
                              re.I)
#: "420 gateways": a count the question states; "$1,650 per gateway": a rate per one of those things.
#: "every gateway", "all the depots", "at the full contracted gateway count": a count the question leaves to the
#: documents.
_EVERY = re.compile(r"\b(?:every|each|all(?:\s+(?:the|our|their|of the))?|full(?:\s+contract(?:ed)?)?(?=\s+[a-z][a-z-]+\s+"
                    r"(?:counts?|numbers?|quantit(?:y|ies))\b))\s+([a-z](?:[a-z-]*\d+[a-z]*|[a-z-]+))", re.I)
#: A side that is the present one: "the current one", "now", "the new policy".
_CURRENT_SIDE = re.compile(r"\b(?:current|now|new|latest|today)\b", re.I)
_NAME_WORD = re.compile(r"\b[A-Z][\w-]+")
#: "3 weeks", "1,150 LX-200s": a count and the thing counted, a word or a code.
_COUNTED = re.compile(rf"(?<![\w.$€£-])(\d[\d,]*(?:\.\d+)?|{COUNT_WORD})\s+([a-z](?:[a-z-]*\d+[a-z]*|[a-z-]+))", re.I)
#: "For each week of delay, the yard pays 2% of the value": the thing counted first, then its rate.
_FOR_EACH = re.compile(r"\b(?:for|per)\s+(?:each|every)\s+(?:(?:full|whole|complete|calendar)\s+)?([a-z][a-z-]+)\b[^.;\d]*?"
                       r"([$€£]?\d[\d,]*(?:\.\d+)?%?)", re.I)


#: "Severity: SEV-1.", "Period of impact: 5 to 8 November": a field of a record, its label and its value.
_FIELD = re.compile(r"([A-Z][A-Za-z-]*(?: [a-z][a-z-]*){0,3}):\s")
#: A field's label that is not as close in meaning to the measure as a sentence must be (``MIN_MEANING``: "duration"
#: and "Period of impact") is read when it is nearly so and clearly closer than any other label of the side's fields.
MIN_FIELD_MEANING, FIELD_MARGIN = 0.3, 0.1


def _field_for(measure: str, sentences: list[Sentence]) -> Sentence | None:
    """The field among ``sentences`` whose label is the measure ("Severity: ..." for "severity") or, failing that,
    clearly the closest to it in meaning."""
    fields = [(m[1], s) for s in sentences if (m := _FIELD.match(s.text))]
    named = next((s for label, s in fields if label.lower() == measure.lower()), None)
    if named or not fields:
        return named
    first = {label: s for label, s in reversed(fields)}  # (a label given twice: its first field)
    scored = sorted(((similarity(label, measure), s) for label, s in first.items()), key=lambda f: -f[0])
    best, runner_up = scored[0][0], scored[1][0] if len(scored) > 1 else 0.0
    close = best >= MIN_MEANING or best >= MIN_FIELD_MEANING and best - runner_up >= FIELD_MARGIN
    return scored[0][1] if close else None


def _counted_as(thing: str) -> re.Pattern[str]:
    """A count of ``thing`` as documents write it, a few words between ("240 Aurora gateways"), not a rate ("$1,750 per
    gateway")."""
    return re.compile(rf"(?<![\w.$€£-])(\d[\d,]*)\s+(?:(?!per\b)[\w-]+\s+){{0,4}}?"
                      rf"{re.escape(thing.lower().removesuffix('s'))}s?\b", re.I)


def _count_and_rate(thing: str, blocks: list[Block]) -> tuple[str, str, str, str] | None:
    """How many of ``thing`` one party's passages state and the rate they set per one ("240 Aurora gateways",
    "$1,750 per gateway"), as ``_rate_product`` gives them; None unless both are there."""
    word = terms(thing)[:1]
    rate = next((r for s in sentences_of(blocks) for r in _rates(s.text) if terms(r[2])[:1] == word), None)
    count = next((m[1] for b in blocks for m in _counted_as(thing).finditer(b.text) if not is_year(m[1])), None)
    return (plain_number(number_value(count)), rate[1], rate[2], "") if rate and count else None


def _rates(text: str) -> list[tuple[str, str, str]]:
    """Every (whole match, rate, thing it is counted per) of a sentence, written either way round, or as one thing's
    unit price."""
    return [(m[0], m[1], m[2]) for m in _PER.finditer(text)] + [(m[0], m[2], m[1]) for m in _FOR_EACH.finditer(text)] \
        + [(m[0], m[2], m[1]) for m in _UNIT_PRICE.finditer(text)]


#: "The K-9 unit price is fixed at $420": a price per one K-9.
_UNIT_PRICE = re.compile(r"\b([A-Za-z][\w-]*)\s+unit\s+(?:price|cost)\s+(?:is\s+|of\s+)?(?:fixed\s+|set\s+)?(?:at\s+)?"
                         r"([$€£]\d[\d,]*(?:\.\d+)?)")


#: "for each week or part of a week": a week begun counts as a whole one.
_WEEK_BEGUN = re.compile(r"\bpart of a week\b|\bpart(?:ial)? weeks? (?:count|counts|is|are)\b", re.I)
#: "$1,650 per gateway", "2% of the value of the late order per week": a rate and what it is counted per.
_PER = re.compile(r"([$€£]?\d[\d,]*(?:\.\d+)?%?)\s*(?:[a-z$€£']+\s+){0,7}?(?:per|for (?:each|every))(?:\s+(?:full|whole|"
                  r"complete|calendar))?\s+([a-z][a-z-]+)", re.I)  # ("per full week": per week)

#: A sentence that states a whole together with its parts.
_WHOLE_AND_PARTS = re.compile(r"\b(?:of which|out of|includes?|including|comprises?|comprising|made up of|in total|"
                              r"in all|altogether|split into|divided into)\b|"
                              r"\d\s+of\s+(?:the\s+|all\s+|our\s+|its\s+)?\d", re.I)  # ("214 of the 1,180 meters")


def _part_of_whole(found: list[tuple[str, int, list[re.Match[str]]]], wanted: set[str]) -> str | None:
    """``part / whole * 100`` from amounts (sentence, index, the sentence's amounts): the whole the largest, the
    part the best described by ``wanted``; None when nothing describes a part."""
    if len(found) < 2:
        return None
    whole = max(found, key=lambda f: number_value(f[2][f[1]][0]))
    fits = {n: _described_by(text, matches, i, wanted) for n, (text, i, matches) in enumerate(found)
            if (text, i) != whole[:2] and number_value(matches[i][0]) > 0}
    best = max(fits, key=fits.__getitem__, default=None)
    if best is None or fits[best] <= 0:
        return None
    part, total = found[best][2][found[best][1]][0], whole[2][whole[1]][0]
    return f"{plain_number(number_value(part))} / {plain_number(number_value(total))} * 100"


#: Words that place a figure in its period rather than say what it is: "year-end", "month-end", "opening".
_WHEN_IN_PERIOD = frozenset(terms("year end month quarter week start opening closing beginning"))


def _named_share(found: list[tuple[str, re.Match[str]]], part: str, whole: str) -> str | None:
    """``part / whole * 100`` when the question names both: the whole is the amount whose own stretch of its sentence
    names the whole's words best (its sentence counts a quarter, the whole's first word — the one that narrows it,
    "ferry" in "ferry fuel" — a half more; the larger amount wins a tie), the part the smaller amount that counts the
    same thing, named best by the part's words (a tie goes to the stretch closest in meaning)."""
    def fit(text: str, match: re.Match[str], words: set[str]) -> float:
        return len(words & set(terms(own_stretch(text, match)))) + 0.25 * len(words & set(terms(text)))

    # the year scopes the whole and "year-end" dates it: neither names it ("year-end cash" is cash)
    named = [t for t in terms(whole) if t not in anchors(whole) and t not in _WHEN_IN_PERIOD]
    whole_words, part_words = set(named), set(terms(part))
    scored = [(fit(text, m, whole_words) + 0.5 * bool(set(named[:1]) & set(terms(own_stretch(text, m)))),
               number_value(m[0]), text, m) for text, m in found]
    best_whole = max(scored, key=lambda x: x[:2], default=None)
    if not best_whole or best_whole[0] <= 0:
        return None
    _, total, total_text, total_match = best_whole
    counted = _counted(total_text, total_match)
    parts = [(fit(text, m, part_words), similarity(part, own_stretch(text, m)), number_value(m[0]))
             for text, m in found if 0 < number_value(m[0]) < total and _counted(text, m) & counted]
    best_part = max(parts, default=None)
    if not best_part or best_part[0] <= 0 and len(parts) > 1:  # (one smaller amount counting the same thing is the
        return None  # part even in other words: "214 of the 1,180 meters ... were affected" for "hit by the fault")
    return f"{plain_number(best_part[2])} / {plain_number(total)} * 100"


def _counted(text: str, match: re.Match[str]) -> set[str]:
    """What a number counts, to tell a part of a whole from other figures: its unit ("$M"), else the stems of the
    two words after it ("820 MWh" and "6,600 MWh"; "130 spaces" and "180 parking spaces"). A number hyphenated to
    its word ("a 600-kilowatt installation") describes a thing; it counts nothing."""
    unit = unit_of(match[0])
    if unit or text[match.end():match.end() + 1] == "-":
        return {unit} if unit else set()
    whole = _OF_WHOLE.match(text, match.end())  # "214 of the 1,180 meters": the part counts what its whole counts
    end = whole.end() if whole else match.end()
    return set(terms(" ".join(re.findall(r"[\w-]+", text[end:])[:2])))


#: "this code", "these units", "that error": a thing named before the question.
_POINTS_BACK = re.compile(r"\b(?:this|these|those)\s+[a-z]+|\bthat\s+(?:code|error|one)\b", re.I)
#: "... of the 1,180 meters" after a number: the whole it is a part of.
_OF_WHOLE = re.compile(r"\s+of\s+(?:the\s+|all\s+|our\s+|its\s+)?\d[\d,]*(?:\.\d+)?")


def _against_plan(text: str) -> tuple[str, str] | None:
    """An outcome and the plan it is measured against, stated in one sentence: "shipped 3,700 units, ahead of its
    plan of 2,500 units" -> ("3,700", "2,500"); None unless exactly two amounts of one unit, one of them a plan."""
    found = numbers(text)
    if len(found) != 2 or unit_of(found[0][0]) != unit_of(found[1][0]):
        return None
    planned = [i for i, m in enumerate(found)
               if set(re.findall(r"[a-z]+", text[found[i - 1].end() if i else 0:m.start()].lower())) & VERSION_WORDS
               - {"actual", "actuals", "reported"}]
    if len(planned) != 1:
        return None
    return found[1 - planned[0]][0], found[planned[0]][0]


def _replaced(text: str) -> tuple[str, str] | None:
    """The new amount and the old one of a sentence that says one replaces the other: "the one-time $400 allowance
    is replaced by an allowance of $750" -> ("$750", "$400"); "now $55 instead of $40" -> ("$55", "$40")."""
    found = [m for m in numbers(text) if not is_year(m[0].strip())]
    if len(found) != 2 or unit_of(found[0][0]) != unit_of(found[1][0]):
        return None
    between = text[found[0].end():found[1].start()]
    if re.search(r"\b(?:(?:is|are|was|were|will be|has been|have been) replaced (?:by|with)|gives way to)\b", between):
        return found[1][0], found[0][0]
    if re.search(r"\b(?:replaces|replacing|instead of|in place of)\b", between):
        return found[0][0], found[1][0]
    return None


def _described_by(text: str, found: list[re.Match[str]], i: int, wanted: set[str]) -> float:
    """How well the words around the i-th number of ``text`` match ``wanted``: the words after it (up to the next
    number) count fully, the words before it (from the previous number) half: "$4.6M for test stations"."""
    after = text[found[i].end():found[i + 1].start() if i + 1 < len(found) else len(text)]
    before = text[found[i - 1].end() if i else 0:found[i].start()]
    return len(wanted & set(terms(after))) + 0.5 * len(wanted & set(terms(before)))


def _within(inner: Period, outer: Period) -> bool:
    """Whether ``inner`` lies inside ``outer`` (Q3 2024 inside 2024)."""
    return outer.kind == "year" and inner.kind != "year" and inner.year == outer.year


def _with_opening(text: str, start: int, name: str) -> str:
    """A name with the capitalised word that opens the sentence before it: "Oakridge Chemicals", not "Chemicals"."""
    opening = re.fullmatch(r"([A-Z][\w&/-]+) ", text[:start])
    return f"{opening[1]} {name}" if opening and opening[1].lower() not in STOPWORDS else name


def _lists_nothing(result: str | None) -> bool:
    """Whether a tool's reply came back and lists no record."""
    return result is not None and bool(_NOTHING_FOUND.search(result[:200]))


def _headlines(result: str, labels: set[str]) -> list[Sentence]:
    """The headline of each web page quoted ("Ice and a terminal strike hold up road freight"), as a sentence."""
    pages = {b.label: b.title.split(" — ")[0] for b in parse_blocks(result) if b.label in labels}
    return [s for label, title in pages.items() if title for s in sentences_of([Block(label, title, f"{title}.")])[:1]]


def _own_periods(text: str, match: re.Match[str], later: list[re.Match[str]]) -> list[Period]:
    """The periods a number belongs to: those written between it and the next number ("from 14% in Q2 to 17% in Q3"),
    else those of its own stretch of the sentence."""
    stretch = own_stretch(text, match)
    end = min([text.find(stretch, max(0, match.end() - len(stretch))) + len(stretch), *(m.start() for m in later)])
    return find_periods(text[match.end():end]) or find_periods(stretch)


def _measure_unit(quantity: Quantity) -> str:
    """The unit of measurement its sentence writes after the figure ("+1,320 °C" -> "°C"); "" when none."""
    m = re.search(_MEASURE_UNIT.removeprefix(r"\s*") + "$", quantity.text) or re.search(
        re.escape(quantity.text) + _MEASURE_UNIT, quantity.sentence.text)  # ("1,280 °C", the top of a range)
    return m[1] if m else ""


def _money(value: float, unit: str, places: int = 0) -> str:
    """A sum of money as written beside its unit: "$1,089", "-$1.3M", "$1,089.50"; to ``places`` decimals when
    the figures it comes from are all written so ("$192.0M" and "$178.0M" differ by "$14.0M")."""
    money = f"{abs(value):,.{places}f}" if places else f"{abs(value):,.2f}".replace(".00", "")
    money = money.rstrip("0") if unit[1:] and "." in money and not places else money  # "$0.5M", but "$1,089.50"
    return f"{'-' if value < 0 else ''}${money}{unit[1:]}"


def _places(quantities: Sequence[Quantity]) -> int:
    """The decimals the figures are all written with when they keep a trailing zero to show it ("$192.0M",
    "$178.0M": 1); else 0, and the result is written as short as it goes ("$2.45M" - "$1.95M" is "$0.5M")."""
    decimals = [m[1] if (m := re.search(r"\.(\d+)", x.text)) else "" for x in quantities]
    padded = len({len(d) for d in decimals}) == 1 and any(d.endswith("0") for d in decimals)
    return len(decimals[0]) if padded else 0


def _in_dollars(quantity: str) -> float:
    """"$9.3M" -> 9300000.0: amounts in one unit before they are divided."""
    scale = {"M": 1e6, "bn": 1e9, "k": 1e3}.get(unit_of(quantity).lstrip("$"), 1)
    return number_value(quantity) * scale


def _rounded(result: str, decimals: int) -> str:
    """A calculator result as an answer writes it, to ``decimals`` places at most."""
    try:
        value = float(result.replace(",", ""))
    except ValueError:
        return result
    return plain_number(round(value, decimals))


def _grouped(number: str) -> str:
    """A plain result written as answers write large numbers: "693000" -> "693,000" (small ones stay as they are)."""
    whole, dot, fraction = number.partition(".")
    digits = whole.lstrip("-")
    if not digits.isdigit() or len(digits) < 4:
        return number
    return f"{whole[:len(whole) - len(digits)]}{int(digits):,}{dot}{fraction}"


def _value(number: str) -> float:
    return float(number.replace(",", ""))


def _shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


_AFFECTS = re.compile(r"\bhow (?:does|do|did|will|would|can|could|might) (?P<cause>.+?) (?:affect|impact|influence|"
                      r"relate to)s? (?P<effect>.+?)[?.!]*$", re.I)


def affected_side(question: str) -> list[str]:
    """A search for what "how does X affect Y?" asks about, without X's words: the question's own search is pulled
    to X, whose words it mostly holds, while the answer needs the passage that says what Y is."""
    relation = _AFFECTS.search(question)
    if not relation:
        return []
    cause = {w.lower() for w in key_phrase(relation["cause"]).split()}
    effect = [w for w in key_phrase(relation["effect"]).split() if w.lower() not in cause]
    return [" ".join(effect)] if effect else []


def decide(messages: list[dict[str, Any]], tools: list[dict[str, Any]], tool_choice: str = "auto",
           parallel: bool = True) -> Decision:
    """The next step of the agent: tool calls (several when independent and allowed) or the answer; with
    ``tool_choice="none"`` the answer. (``model`` honours "required" and a named tool on top of this.)"""
    policy = Policy(messages, tools)
    planned = [] if tool_choice == "none" else policy.next_calls()
    if planned:
        chosen = planned if parallel else planned[:1]
        return Decision([(tool.name, args) for tool, args in chosen])
    return Decision([], policy.answer())


def _from_other_pages(query: str, result: str, chosen: list[Sentence], figure: str) -> list[Sentence]:
    """The best supporting sentence of each PDF page (``#page=`` label) of a search's result that no chosen sentence
    cites yet: a page break cuts a document where the layout does, not where the subject does, so an answer spread
    over pages needs a quote from each, and the best two sentences overall often come from one page."""
    blocks = parse_blocks(result)
    cited = {label for s in chosen for label in (s.label, *s.also)}
    taken = {s.text for s in chosen}
    extra: list[Sentence] = []
    for label in dict.fromkeys(b.label for b in blocks if "#page=" in b.label and b.label not in cited):
        found = select(query, sentences_of([b for b in blocks if b.label == label]), 1, figure, taken)
        best = max(found, key=lambda s: s.score, default=None)
        if best:
            extra.append(best.sentence)
            taken.add(best.sentence.text)
    return extra
