"""Relative dates made absolute, from the "Today is ..." line the course's prompts carry.

Search engines cannot match "last week" or "our Q3" against dated documents, so the
offline model rewrites them the way a careful human would: "last week" is the previous
Monday-to-Sunday, "the last three months" are the three full months before this one,
and a quarter named without a year is the most recent such quarter that has ended.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .text import MONTHS, TARGET_YEAR, Period, find_periods, normalise_periods, period_mentions

_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "nine": 9, "twelve": 12}
_LAST_N_MONTHS = re.compile(r"\b(?:the\s+)?(?:last|past|previous)\s+(\d+|two|three|four|five|six|nine|twelve)\s+months\b",
                            re.I)


def today_from(text: str) -> date | None:
    """The date written after "Today is" (ISO format), if any."""
    m = re.search(r"\btoday is\b[^0-9]{0,20}(\d{4})-(\d{2})-(\d{2})", text, re.I)
    return date(int(m[1]), int(m[2]), int(m[3])) if m else None


def _month_start(day: date, back: int) -> date:
    index = day.year * 12 + day.month - 1 - back
    return date(index // 12, index % 12 + 1, 1)


def _month_end(start: date) -> date:
    return _month_start(start, -1) - timedelta(days=1)


def relative_range(text: str, today: date) -> tuple[date, date] | None:
    """The date range a relative expression in ``text`` means, e.g. "last week" -> (Mon, Sun) before today."""
    lowered = text.lower()
    monday = today - timedelta(days=today.weekday())
    if re.search(r"\blast week\b|\bprevious week\b", lowered):
        return monday - timedelta(days=7), monday - timedelta(days=1)
    if re.search(r"\bthis week\b", lowered):
        return monday, today
    if "yesterday" in lowered:
        return today - timedelta(days=1), today - timedelta(days=1)
    m = re.search(r"\b(?:last|past)\s+(\d+)\s+days\b", lowered)
    if m:
        return today - timedelta(days=int(m[1])), today - timedelta(days=1)
    m = _LAST_N_MONTHS.search(lowered)
    if m:
        n = int(_NUMBER_WORDS.get(m[1], m[1]))
        return _month_start(today, n), _month_start(today, 0) - timedelta(days=1)
    if re.search(r"\blast month\b|\bprevious month\b", lowered):
        start = _month_start(today, 1)
        return start, _month_end(start)
    if re.search(r"\bthis month\b", lowered):
        return _month_start(today, 0), today
    return None


#: "since June 2024", "after Q2 2024": the period opens a range that runs to today.
_SINCE = re.compile(r"\b(since|after)\s+(?:the\s+)?(?:(?:start|beginning|end)\s+of\s+(?:the\s+)?)?$", re.I)


#: "between June and December 2024", "from Q2 to Q4 2024": one span over both periods.
_FROM = re.compile(r"\b(?:between|from)\s+(?:the\s+)?$", re.I)
_UNTIL = re.compile(r"\s*(?:and|to|until|till|through|-|–)\s+(?:the\s+)?", re.I)


def _span(period: Period) -> tuple[date, date]:
    """The first and the last day of a dated period."""
    first, last = {"year": (1, 12), "quarter": (3 * period.number - 2, 3 * period.number),
                   "month": (period.number, period.number)}[period.kind]
    return date(period.year, first, 1), _month_end(date(period.year, last, 1))


_LISTED = re.compile(r"\s*(?:,\s*(?:and\s+)?|and|&)\s*", re.I)


def _consecutive(text: str, mentions: list[tuple[int, int, Period]]) -> list[Period]:
    """The first list of two or more quarters or months in a row ("Q3 and Q4 2024", "Q3 2024 and Q4 2024"), each
    dated by the year at its end; empty when there is none."""
    run: list[tuple[int, int, Period]] = []
    for mention in mentions:
        start, _, period = mention
        if run and (period.kind != run[-1][2].kind or period.number != run[-1][2].number + 1
                    or not _LISTED.fullmatch(text[run[-1][1]:start])):
            if len(run) >= 2:
                break
            run = []
        if period.kind in ("quarter", "month") and (not run or run[-1][2].year in (None, period.year)):
            run.append(mention)
        elif run and len(run) < 2:
            run = []
    year = run[-1][2].year if len(run) >= 2 else None
    return [Period(year, p.kind, p.number) for _, _, p in run] if year else []


#: "13-19 January 2025", "Mon 13 through Sun 19 Jan": a run of days within one month.
#: A day of the week, written out or short: "Monday", "Tues", "Thu.".
WEEKDAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?"
_DAY_OF = rf"(?:{WEEKDAY}\s+)?"
_DAY_SPAN = re.compile(rf"\b{_DAY_OF}(\d{{1,2}})(?:st|nd|rd|th)?\s*(?:-|–|to|through|thru|until|till)\s*{_DAY_OF}"
                       rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+({'|'.join(m[:3] for m in MONTHS)})[a-z]*\.?(?:\s+((?:19|20)\d{{2}}))?\b",
                       re.I)


def _day_span(text: str, today: date | None) -> tuple[date, date] | None:
    """The days of "13 through 19 Jan" (a yearless month is the latest such month that has begun)."""
    m = _DAY_SPAN.search(text)
    if not m or not (m[4] or today):
        return None
    month = [n[:3] for n in MONTHS].index(m[3].lower()) + 1
    year = int(m[4]) if m[4] else today.year if month <= today.month else today.year - 1
    try:
        first, last = date(year, month, int(m[1])), date(year, month, int(m[2]))
    except ValueError:  # "31-33 May": no such days
        return None
    return (first, last) if first <= last else None


def period_range(text: str, today: date | None = None) -> tuple[date, date] | None:
    """The dates of the first period ``text`` names with its year: "the fourth quarter of 2024" -> 1 Oct - 31 Dec;
    with ``today``, "since June 2024" -> 1 June 2024 to today and "after June 2024" -> 1 July 2024 to today; a run of
    days, "13-19 January 2025", is those days."""
    days = _day_span(text, today)
    if days:
        return days
    normalised = normalise_periods(expand_spans(text))
    mentions = period_mentions(normalised)
    for (start, end, first), (later, _, last) in zip(mentions, mentions[1:]):  # "between June and December 2024"
        if last.year and first.kind == last.kind != "year" and _FROM.search(normalised[:start]) \
                and _UNTIL.fullmatch(normalised[end:later]):
            first = first if first.year else Period(last.year if first.number <= last.number else last.year - 1,
                                                    first.kind, first.number)
            return _span(first)[0], _span(last)[1]
    run = _consecutive(normalised, mentions)
    if run:  # "in Q3 and Q4 2024" (the back half of 2024), "July, August and September 2024": one span
        return _span(run[0])[0], _span(run[-1])[1]
    found = next(((start, p) for start, _, p in mentions if p.year or today and p.kind != "year"), None)
    if found is None:
        return None
    start, period = found
    if not period.year:  # "since June", "my order from mid Jan": the latest such month that has begun
        first_month = 3 * period.number - 2 if period.kind == "quarter" else period.number
        period = Period(today.year if first_month <= today.month else today.year - 1, period.kind, period.number)
    span = _span(period)
    since = _SINCE.search(normalised[:start])
    if since and today and today > span[1]:
        return (span[0] if since[1].lower() == "since" else span[1] + timedelta(days=1)), today
    return span


def _months_phrase(start: date, end: date) -> str:
    names, day = [], start
    while day <= end:
        names.append((MONTHS[day.month - 1].capitalize(), day.year))
        day = _month_start(day, -1)
    if len({year for _, year in names}) == 1:
        months = [name for name, _ in names]
        listed = ", ".join(months[:-1]) + " and " + months[-1] if len(months) > 1 else months[0]
        return f"{listed} {names[0][1]}"
    return f"{names[0][0]} {names[0][1]} to {names[-1][0]} {names[-1][1]}"


def _quarter_of(day: date) -> tuple[int, int]:
    return (day.month - 1) // 3 + 1, day.year


_BEFORE_NAMED = re.compile(r"\b(?:the\s+)?(?:previous|prior|preceding) (quarter|month)\b|\bthe (quarter|month) before\b", re.I)
_YEAR_EARLIER = re.compile(r"\b(?:the\s+)?same (quarter|month|period)(?: of)? (?:a|one|the) year (?:earlier|before|ago)\b|"
                           r"\b(?:the\s+)?same (quarter|month|period) (?:of |in )?(?:the )?(?:previous|prior|last) year\b|"
                           r"\b(?:a|one) year (?:earlier|before|ago)\b|\b(?:the\s+)?year-ago (?:quarter|month|period)\b", re.I)


#: A year named on its own ("the 2020 refit"), and a year said relative to it after it ("than last year's").
_NAMED_YEAR = re.compile(r"(?<![\d-])\b((?:19|20)\d{2})\b(?!\s*[-–/]\s*\d)")
_YEAR_BEFORE = re.compile(r"\b((?:than|with|over|from|vs\.?|versus|to)\s+)(?:last|the previous|the prior|the preceding) "
                          r"year(['’]s)?\b|\bthe year before\b", re.I)


def anchor_relative(text: str) -> str:
    """Relative periods that follow a named one, resolved against it rather than today: in "Q1 2024 versus the
    previous quarter" that is Q4 2023, in "Q3 2024 compared to the same quarter a year earlier" Q3 2023."""
    year = _NAMED_YEAR.search(text)  # "the 2020 refit costs more than last year's": 2019's, not today's last year
    if year:  # (compared within its sentence: "We opened in 2019. What did we hire last year?" asks about today's)
        rest = re.split(r"(?<=[.!?])\s", text[year.end():], maxsplit=1)
        rest[0] = _YEAR_BEFORE.sub(lambda m: f"{m[1] or ''}{int(year[1]) - 1}{m[2] or ''}", rest[0])
        text = text[:year.end()] + " ".join(rest)
    named = [p for p in find_periods(text) if p.year and p.kind in ("quarter", "month")]
    if not named:
        return text
    anchor = named[0]

    def before(m: re.Match[str]) -> str:
        if (m[1] or m[2]).lower() != anchor.kind:
            return m[0]
        size = 4 if anchor.kind == "quarter" else 12
        number, year = (anchor.number - 1, anchor.year) if anchor.number > 1 else (size, anchor.year - 1)
        return Period(year, anchor.kind, number).text

    text = _BEFORE_NAMED.sub(before, text)
    return _YEAR_EARLIER.sub(lambda m: Period(anchor.year - 1, anchor.kind, anchor.number).text, text)


def resolve_relative(text: str, today: date) -> str:
    """``text`` with relative dates replaced by absolute ones ("last week" -> "2025-01-13 to 2025-01-19")."""
    q, year = _quarter_of(today)
    prev_q, prev_year = (q - 1, year) if q > 1 else (4, year - 1)
    prev_month = _month_start(today, 1)
    replacements = [
        (_LAST_N_MONTHS.pattern, lambda m: _months_phrase(*relative_range(m[0], today))),
        (r"\b(?:last|previous) week\b", lambda m: "{} to {}".format(*relative_range("last week", today))),
        (r"\bthis week\b", lambda m: "{} to {}".format(*relative_range("this week", today))),
        (r"\byesterday\b", lambda m: (today - timedelta(days=1)).isoformat()),
        (r"\b(?:last|previous) month\b", lambda m: f"{MONTHS[prev_month.month - 1].capitalize()} {prev_month.year}"),
        (r"\bthis month\b", lambda m: f"{MONTHS[today.month - 1].capitalize()} {today.year}"),
        (r"\b(?:last|previous) quarter\b(?!\s+of\s+(?:fy\s*)?(?:19|20)\d{2})",  # "the last quarter of 2023" is Q4 2023
         lambda m: f"Q{prev_q} {prev_year}"),
        (r"\bthis quarter\b", lambda m: f"Q{q} {year}"),
        (r"\b(?:last|previous) year(?:'?s\b)?\b", lambda m: str(today.year - 1) + ("'s" if m[0].endswith("s") else "")),
        # "since last June" in January 2025 is June 2024: the latest such month before this one
        (rf"\blast ({'|'.join(MONTHS)})\b(?<!may)|\blast (may)\b(?!\s+(?:i|we|you|they|he|she|it)\b)", lambda m: f"{(m[1] or m[2]).capitalize()} "
         f"{today.year if MONTHS.index((m[1] or m[2]).lower()) + 1 < today.month else today.year - 1}"),
        (r"\bthis year(?:'?s\b)?\b", lambda m: str(today.year) + ("'s" if m[0].endswith("s") else "")),
        (r"\btoday\b", lambda m: today.isoformat()),
    ]
    for pattern, replace in replacements:
        text = re.sub(pattern, replace, text, flags=re.I)
    return text


_ORDINAL_SPAN = re.compile(r"\b(?:the\s+)?(first|last|second)\s+(two|three|half)(?:\s+quarters)?\s+of\s+((?:19|20)\d{2})\b"
                           r"|\b(?:the\s+)?(first|second)\s+half\s+of\s+((?:19|20)\d{2})\b", re.I)
#: "the back half of 2024", "H1 2023", "H2 of 2024": a half-year is its two quarters.
_HALF = re.compile(r"\b(?:the\s+)?(?:(front|back|latter|later)\s+half\s+of\s+|H([12])\s+(?:of\s+)?)((?:19|20)\d{2})\b", re.I)


_ORDINAL = r"(first|second|third|fourth|1st|2nd|3rd|4th)"
#: "the second and the third quarter", "Q2 and the third quarter": two quarters sharing one noun.
_ORDINAL_PAIR = re.compile(rf"\b(?:the\s+)?{_ORDINAL}(?:\s+quarter)?\s*(?:,|\band\b|\bor\b|&|\bvs\.?|\bversus\b)\s*"
                           rf"(?:(?:in|for|during)\s+)?(?:the\s+)?{_ORDINAL}\s+quarters?\b", re.I)  # ("in the third
#   and in the fourth quarter")
#: "Q1, Q2 and Q3 2024": quarters listed before the one year they share.
_SHARED_YEAR = re.compile(r"\b(Q[1-4])\b(?!\s+(?:of\s+)?(?:19|20)\d{2})"
                          r"(?=(?:\s*(?:,|\band\b|&|\bor\b)\s*Q[1-4]\b)+\s+(?:of\s+)?((?:19|20)\d{2})\b)", re.I)
_QUARTER_NUMBER = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}


_MONTH_WORD = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|" \
              r"nov(?:ember)?|dec(?:ember)?)"
#: "Jan through June", "Oct-Dec", "March–May", "(Oct to Dec)": every month of the span, not just its two ends ("from
#: Oct to Dec" outside brackets names two months to compare).
_MONTH_SPAN = re.compile(rf"\b{_MONTH_WORD}\.?\s*(?:through|thru|until|till|[-–]|to(?=\s*(?:{_MONTH_WORD[1:]}\.?\s*\)))\s*"
                         rf"{_MONTH_WORD}\b", re.I)


def _every_month(m: re.Match[str]) -> str:
    first, last = (next(i for i, name in enumerate(MONTHS) if name.startswith(w.lower()[:3])) for w in (m[1], m[2]))
    names = [MONTHS[i % 12].capitalize() for i in range(first, last + 1 if last >= first else last + 13)]
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]


#: "Q1 through Q3", "Q2-Q4": every quarter of the span; "the first nine months of 2024" is Q1 to Q3.
_QUARTER_SPAN = re.compile(r"\bQ([1-4])\s*(?:through|thru|until|till|[-–])\s*Q([1-4])\b", re.I)
_MONTHS_OF_YEAR = re.compile(r"\b(?:the\s+)?first\s+(six|nine)\s+months\s+of\s+((?:19|20)\d{2})\b", re.I)


def _every_quarter(m: re.Match[str]) -> str:
    names = [f"Q{i}" for i in range(int(m[1]), int(m[2]) + 1)] or [f"Q{m[1]}"]
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]


#: "nov '24", "Q3 '23": a year written with its last two digits.
_SHORT_YEAR = re.compile(rf"\b({_MONTH_WORD[1:-1]}|Q[1-4])\.?\s*['’](\d{{2}})\b", re.I)
#: "FY25", "FY'24": a year by its last two digits; "30-Sep-24": a day, a month and such a year.
_FISCAL_YEAR = re.compile(r"\bFY\s?['’]?(\d{2})\b", re.I)
#: "the fiscal year 2024", "fiscal 2024", "FY 2024": the year itself (the company's year is the calendar year here).
_FISCAL_YEAR_IN_FULL = re.compile(r"\b(?:(?:the\s+)?fiscal(?:\s+year)?|FY)\s?((?:19|20)\d{2})\b", re.I)
_DASHED_DATE = re.compile(rf"\b(\d{{1,2}})-({_MONTH_WORD[1:-1]})-(\d{{2}})\b", re.I)
#: "Q2 revenue in 2024": a yearless quarter whose year follows its measure (not "Q3 sales in 2023 and 2024").
_YEAR_AFTER = re.compile(r"\b(Q[1-4])\b(?!\s*(?:of\s+)?(?:19|20)\d{2})((?:\s+[A-Za-z-]+){1,3}?)\s+in\s+((?:19|20)\d{2})\b"
                         r"(?!\s*(?:,|and|or|vs\.?|versus|to)\s*(?:19|20)\d{2})")


#: "in that quarter", "for that month": a period the question named before, pointed back to; "the same quarter 2023":
#: that quarter in another year.
_THAT_PERIOD = re.compile(r"\bthat\s+(quarter|month|year)\b(?!-)", re.I)  # (not "that year-end cash")
_SAME_PERIOD = re.compile(r"\bthe\s+same\s+(quarter|month)\s+(?:of\s+|in\s+)?((?:19|20)\d{2})\b", re.I)


def that_period(text: str) -> str:
    """"that quarter" replaced by the one quarter named before it ("the record results of Q3 2024, how does the margin
    in that quarter compare ..." -> "... in Q3 2024 ..."), "the same quarter 2023" by that quarter of 2023 ("Q3 2024
    compared with the same quarter 2023" -> "... with Q3 2023"); left as they are when none or several were named."""
    def before(m: re.Match[str]) -> list[Period]:
        return list(dict.fromkeys(p for p in find_periods(text[:m.start()]) if p.kind == m[1].lower()))

    def named(m: re.Match[str]) -> str:
        found = [p for p in before(m) if p.year]
        return found[0].text if len(found) == 1 else m[0]

    def same(m: re.Match[str]) -> str:
        found = {p.number for p in before(m)}
        return Period(int(m[2]), m[1].lower(), found.pop()).text if len(found) == 1 else m[0]

    return _SAME_PERIOD.sub(same, _THAT_PERIOD.sub(named, text))


def attach_years(text: str) -> str:
    """A year written after a quarter's measure moved next to the quarter: "Q2 revenue in 2024" -> "Q2 2024 revenue",
    so that "Q2 revenue in 2024 against Q2 of 2023" compares two quarters, not a quarter with a year."""
    return _YEAR_AFTER.sub(lambda m: f"{m[1]} {m[3]}{m[2]}", text)


def expand_spans(text: str) -> str:
    """Spans written out: "the first three quarters of 2024" -> "Q1 2024, Q2 2024 and Q3 2024", "the second and the third
    quarter" -> "Q2 and Q3", "Jan through March" -> "January, February and March"."""
    text = _SHORT_YEAR.sub(lambda m: f"{m[1]} 20{m[2]}", text)
    text = _FISCAL_YEAR.sub(lambda m: f"20{m[1]}", _FISCAL_YEAR_IN_FULL.sub(r"\1", text))  # "FY25", "fiscal 2024"
    text = _DASHED_DATE.sub(lambda m: f"{m[1]} {m[2]} 20{m[3]}", text)
    text = _HALF.sub(lambda m: "Q1 and Q2 " + m[3] if m[2] == "1" or (m[1] or "").lower() == "front" else "Q3 and Q4 " + m[3],
                     text)
    text = _MONTH_SPAN.sub(_every_month, text)
    text = _QUARTER_SPAN.sub(_every_quarter, text)
    text = _MONTHS_OF_YEAR.sub(lambda m: f"Q1, Q2 and Q3 {m[2]}" if m[1].lower() == "nine" else f"Q1 and Q2 {m[2]}", text)
    text = _ORDINAL_PAIR.sub(lambda m: f"Q{_QUARTER_NUMBER[m[1].lower()]} and Q{_QUARTER_NUMBER[m[2].lower()]}", text)

    def quarters(m: re.Match[str]) -> str:
        which, count, year = (m[1], m[2], m[3]) if m[1] else (m[4], "half", m[5])
        n = 2 if count.lower() in ("two", "half") else 3
        first = 1 if which.lower() == "first" else 5 - n
        names = [f"Q{i}" for i in range(first, first + n)]
        return f"{', '.join(names[:-1])} and {names[-1]} {year}"

    return _SHARED_YEAR.sub(lambda m: f"{m[1]} {m[2]}", _ORDINAL_SPAN.sub(quarters, text))  # (each its year, so a
    # later year in the question does not claim them: "Q1, Q2 and Q3 2024 against 2023")


def target_years(text: str) -> set[int]:
    """Years named as a target ("postponed to 2025", "valid until 2026"): they date the target, not the event."""
    return {int(y) for y in TARGET_YEAR.findall(text)}


def spread_over_years(periods: list[Period]) -> list[Period]:
    """One yearless quarter or month asked for several years is that period in each year: "Q3 margin, 2024 vs
    2023" compares Q3 2024 with Q3 2023, not the two whole years."""
    years = [p for p in periods if p.kind == "year"]
    within = [p for p in periods if p.kind != "year"]
    if len(years) < 2 or len(within) != 1 or within[0].year:
        return periods
    return [Period(y.year, within[0].kind, within[0].number) for y in years]


#: A clause that tells what happened ("what yield did the plant reach in September"), and one about a plan.
_HAPPENED = re.compile(r"\b(?:did|was|were|had|happened|reached|ended|fell|rose|grew)\b", re.I)
_PLANNED = re.compile(r"\b(?:budget\w*|plan(?:s|ned|ning)?|forecast\w*|target\w*|will|expect\w*|projected)\b", re.I)


def happened_periods(text: str) -> set[tuple[str, int]]:
    """The yearless months and quarters a question names in a clause about what happened: they have ended, even
    when the question names a coming year for something else ("the 2025 budget ..., and what did September bring?")."""
    found = set()
    for clause in re.split(r"[,;]|\band\b|\s[-–—]\s", text):
        if _HAPPENED.search(clause) and not _PLANNED.search(clause):
            found |= {(p.kind, p.number) for p in find_periods(clause) if not p.year and p.kind != "year"}
    return found


def _latest_ended(kind: str, number: int, today: date) -> Period:
    last_month = number * 3 if kind == "quarter" else number
    return Period(today.year if today.month > last_month else today.year - 1, kind, number)


def fill_years(periods: list[Period], today: date | None, targets: set[int] = frozenset(),
               happened: set[tuple[str, int]] = frozenset()) -> list[Period]:
    """Give yearless quarters and months a year: the question's own year (not a target year), else the latest one
    that has ended; one that ``happened`` never gets a year still to come."""
    years = [p.year for p in periods if p.year and p.year not in targets]
    filled = []
    for p in periods:
        if p.year or p.kind == "year":
            filled.append(p)
        elif years and not (today and (p.kind, p.number) in happened
                            and _latest_ended(p.kind, p.number, today).year < years[-1]):
            filled.append(Period(years[-1], p.kind, p.number))
        elif today:
            filled.append(_latest_ended(p.kind, p.number, today))
        else:
            filled.append(p)
    return list(dict.fromkeys(filled))
