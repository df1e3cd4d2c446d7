"""Days between two dates, and a deadline counted back from a date: arithmetic on the calendar.

The calculator adds and divides numbers; "how many days before the fair opens is the cutoff?" and "by when must
notice be given, 180 days before the end of a term ending 31 January 2027?" need the calendar instead. A model does
this in its head; the offline model reads the dates its passages state and counts:

* a date is written "14 February 2025", "February 14, 2025" or "2025-02-14"; "from 18 to 20 March 2025" is a span
  whose first day is when something opens and whose last is when it ends;
* a notice period is written "at least 180 days before the end of the term", "no later than six months before
  expiry": the deadline is that long before the term's last day.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

from .lexicon import COUNT_WORD, number_word
from .text import MONTHS

_MONTH = "|".join(m.capitalize() for m in MONTHS)
_YEAR = r"((?:19|20)\d{2})"
_DAY_MONTH_YEAR = re.compile(rf"\b(\d{{1,2}})(?:\s*(?:to|–|-)\s*(\d{{1,2}}))?\s+({_MONTH})\s+{_YEAR}\b")
_MONTH_DAY_YEAR = re.compile(rf"\b({_MONTH})\s+(\d{{1,2}}),\s+{_YEAR}\b")
_ISO = re.compile(r"\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b")
#: A date as written, for other modules' patterns: "1 March 2024", "March 1, 2024", "March 2024", "2024-03-01".
WRITTEN_DATE = (rf"(?:\d{{1,2}}\s+(?:{_MONTH})\s+(?:19|20)\d{{2}}|(?:{_MONTH})\s+(?:\d{{1,2}},?\s+)?(?:19|20)\d{{2}}|"
                r"(?:19|20)\d{2}-\d{2}-\d{2})")
#: "from 1 February 2024 to 31 January 2027", "until 31 October 2026": the second date, or the one after "until",
#: is where something ends.
_ENDS = re.compile(r"\b(?:to|until|till|through|ends?(?:\s+on)?|expires?(?:\s+on)?)\s+$", re.I)
_STARTS = re.compile(r"\b(?:from|since|starting(?:\s+on)?|opens?(?:\s+on)?|begins?(?:\s+on)?)\s+$", re.I)
#: "at least 180 days before the end of the then-current term", "no later than six months before expiry".
_BEFORE_END = re.compile(rf"\b(\d+|{COUNT_WORD})\s+(days?|weeks?|months?)(?:['’]s?)?\s+(?:(?:written\s+)?notice\s+)?"
                         r"before\s+(?:the\s+)?(?:end|expiry|expiration|termination)\b", re.I)


@dataclass(frozen=True)
class Dated:
    """A date a text states, and whether it starts or ends a span ("from 18 to 20 March": the 18th starts it)."""

    day: date
    role: str  # "start", "end" or ""
    text: str  # as written, for the answer


def dates_in(text: str) -> list[Dated]:
    """Every date ``text`` states, in order, with its role in a span."""
    found: list[tuple[int, Dated]] = []
    for m in _DAY_MONTH_YEAR.finditer(text):
        month, year = MONTHS.index(m[3].lower()) + 1, int(m[4])
        before = text[max(0, m.start() - 20):m.start()]
        ending = "end" if _ENDS.search(before) else "start" if _STARTS.search(before) else ""
        if m[2]:  # "18 to 20 March 2025": both days of the span
            found.append((m.start(), Dated(date(year, month, int(m[1])), "start", f"{m[1]} {m[3]} {m[4]}")))
            found.append((m.start() + 1, Dated(date(year, month, int(m[2])), "end", f"{m[2]} {m[3]} {m[4]}")))
        else:
            found.append((m.start(), Dated(date(year, month, int(m[1])), ending, m[0])))
    for m in _MONTH_DAY_YEAR.finditer(text):
        found.append((m.start(), Dated(date(int(m[3]), MONTHS.index(m[1].lower()) + 1, int(m[2])), "", m[0])))
    for m in _ISO.finditer(text):
        found.append((m.start(), Dated(date(int(m[1]), int(m[2]), int(m[3])), "", m[0])))
    ordered = [d for _, d in sorted(found, key=lambda pair: pair[0])]
    # "from 1 July 2025" alone starts nothing the text ends: only a span has a first day
    return [Dated(d.day, "", d.text) if d.role == "start" and not any(e.role == "end" for e in ordered[i + 1:]) else d
            for i, d in enumerate(ordered)]


def notice_period(text: str) -> tuple[int, str] | None:
    """(180, "days") for "at least 180 days before the end of the term"; None when ``text`` sets no such period."""
    m = _BEFORE_END.search(text)
    if not m:
        return None
    count = int(m[1]) if m[1].isdigit() else number_word(m[1])
    return (count, m[2].lower().rstrip("s") + "s") if count else None


def counted_back(day: date, count: int, unit: str) -> date:
    """The date ``count`` days, weeks or months before ``day`` (a month back keeps the day where the month has it)."""
    if unit.startswith("month"):
        months = day.year * 12 + day.month - 1 - count
        year, month = divmod(months, 12)
        return date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))
    return day - timedelta(days=count * (7 if unit.startswith("week") else 1))


def written(day: date) -> str:
    """A date as the course's documents write it: "4 August 2026"."""
    return f"{day.day} {MONTHS[day.month - 1].capitalize()} {day.year}"
