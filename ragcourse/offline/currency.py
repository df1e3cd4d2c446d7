"""Money in another currency, converted at a published rate: "convert the euro price at the 31 Dec 2024 EUR/USD rate".

A question that asks for a conversion names the rate in a clause of its own ("at the October 2024 average EUR/USD
rate", "with the reference rate of 31 December 2024"). That clause is no part of what is compared, so the question is
read without it, and the clause is kept to find the rate: a table of rates lists currency pairs in its rows ("EUR/USD"
is dollars per euro) and dates or months in its columns. The calculator then multiplies the amount by the rate (or
divides, for the pair written the other way round) inside the comparison.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .messages import Block, tables

#: What a written amount's currency is: "€3,990", "EUR 150", "150 euros", "$5,459", "£20".
_SYMBOLS = {"€": "EUR", "$": "USD", "£": "GBP"}
_NAMES = {"euro": "EUR", "dollar": "USD", "pound": "GBP"}
_CODE = re.compile(r"\b([A-Z]{3})\b")
_PAIR = re.compile(r"\b([A-Z]{3})\s?/\s?([A-Z]{3})\b")
_LOWER_PAIR = re.compile(r"\b(eur|usd|gbp)\s?/\s?(eur|usd|gbp)\b", re.I)
_DATE = r"(?:\d{1,2}\s+[A-Za-z][a-z]{2,8}\.?(?:\s+\d{4})?|[A-Z][a-z]{2,8}\s+\d{1,2}(?:,?\s+\d{4})?|[A-Z][a-z]{2,8}\s+\d{4})"
#: "at the 31 Dec 2024 EUR/USD reference rate", "with the October 2024 monthly average EUR/USD rate", "using the
#: exchange rate of 31 December 2024": the rate a conversion uses (its own words, to be found in a table)
_RATE_CLAUSE = re.compile(
    rf"\s*\b(?i:at|with|using|by|applying)\s+(?:the|an?|that)\s+(?P<rate>[^,.;:?!()]{{0,60}}?(?:\b[A-Z]{{3}}\s?/\s?[A-Z]{{3}}|"
    rf"\b(?i:exchange|reference|fx|conversion|spot))\b[^,.;:?!()]{{0,30}}?\b(?i:rate)\b(?:\s+(?:of|on|for|from|as of)\s+"
    rf"(?:the\s+)?{_DATE})?)")
#: "convert it", "convert that to dollars": the verb of a conversion whose thing was named before it
_CONVERT_IT = re.compile(r",?\s*\b(?:and\s+)?convert(?:ed|ing)?\s+(?:it|them|that|this|those|these)\b"
                         r"(?:\s+(?:in)?to\s+(?:us\s+)?(?:dollars|euros|pounds|usd|eur|gbp))?", re.I)
_CONVERT = re.compile(r"\bconvert(?:ed|ing)?\b\s*", re.I)
_TARGET = re.compile(r"\bconvert\w*\b[^.?!;]{0,40}?\b(?:in)?to\s+(?:us\s+)?(dollars|euros|pounds|usd|eur|gbp)\b", re.I)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


@dataclass(frozen=True)
class Conversion:
    """What a conversion asks: the rate in the question's words, and the currency wanted ("" when not said)."""

    rate: str
    target: str = ""

    @property
    def source(self) -> str:
        """The currency converted from: the rate's other one ("EUR/USD" into dollars: euros), "" when not named."""
        pair = self.pair
        return (pair[0] if pair[1] == self.target else pair[1]) if pair else ""

    @property
    def pair(self) -> tuple[str, str] | None:
        """The currencies the rate names ("EUR/USD": EUR, USD), when it names them."""
        m = _PAIR.search(self.rate)
        return (m[1], m[2]) if m else None


@dataclass(frozen=True)
class Rate:
    """One published rate: its value as written, the row and column it was read from, and its passage."""

    written: str   # "1.0389"
    pair: str      # "EUR/USD" as the table writes it
    column: str    # "31 Dec 2024", "October"
    label: str     # the passage's citation label
    inverted: bool  # the table's pair is the wanted one the other way round: divide instead of multiply

    @property
    def operator(self) -> str:
        return "/" if self.inverted else "*"


def conversion_asked(question: str) -> tuple[str, Conversion | None]:
    """The question without the clause that names a conversion's rate, and the conversion (``None`` when it asks
    for none): "Convert it at the 31 Dec 2024 EUR/USD rate and tell me how much cheaper it is than B" reads as
    "Tell me how much cheaper it is than B", converting at the "31 Dec 2024 EUR/USD rate"."""
    question = _LOWER_PAIR.sub(lambda x: f"{x[1].upper()}/{x[2].upper()}", question)  # "eur/usd", typed in chat
    m = _RATE_CLAUSE.search(question)
    pair = _PAIR.search(m["rate"]) if m else None
    if not m or not pair and not re.search(r"\bconvert|\bexchange\b|\bfx\b", question, re.I):
        return question, None  # "interest at the central bank's reference rate plus 8 points" converts nothing
    target = _TARGET.search(question)
    wanted = pair[2] if pair else currency_of(target[1]) if target else ""  # "EUR/USD": dollars; "convert to euros"
    text = question[:m.start()] + question[m.end():]
    text = _CONVERT_IT.sub("", text)
    text = _CONVERT.sub("take ", text)  # "if I convert the euro price, ...": the price is still what is compared
    text = re.sub(r"\s+,", ",", re.sub(r",\s*,", ",", re.sub(r"\s{2,}", " ", text))).strip()
    text = re.sub(r"(^|[.!?]\s+)(?:and|then)\s+(\w)", lambda x: x[1] + x[2].upper(), text)  # "Convert it ... and tell me"
    return text[:1].upper() + text[1:], Conversion(m["rate"].strip(), wanted)


#: A priced thing's name: a product code, with the maker before it ("Veltrix VX-9"), or a name of capitalised words.
_NAME = re.compile(r"\b(?:[A-Z][a-z]+\s+)?[A-Z]{1,4}-?\d{1,4}[A-Za-z]?\b|\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")
#: What a converted amount is held against: "cheaper than X", "how far below X", "undercuts X", "vs X".
_AGAINST = re.compile(r"\b(?:than|below|under|above|over|undercuts?|vs\.?|versus|against|compared (?:with|to)|next to)\s",
                      re.I)
_MONEY = re.compile(r"\b(?:(?:list|unit|sale|selling|purchase|retail|net|gross|launch)\s+)?(?:price|cost|fee|value)\b", re.I)


def compared_in(text: str, conversion: Conversion) -> tuple[tuple[str, str], str] | None:
    """For "the VX-9's list price in euros ... how far below our LX-200 list price is it": the thing priced in the
    other currency (the name nearest that currency's mention), the thing it is held against (the first other name
    after "than", "below", "vs" ...), and the money measure nearest the mention ("list price"); ``None`` when the
    question does not name both."""
    said = mentions(text, conversion.source) if conversion.source else []
    runs: list[tuple[int, str]] = []
    for m in _NAME.finditer(text):  # "Veltrix VX-9 DN50", "the VX-9's DN50": one name, written in several pieces
        if runs and re.fullmatch(r"(?:['’]s)?\s*", text[runs[-1][0] + len(runs[-1][1]):m.start()]):
            runs[-1] = (runs[-1][0], re.sub(r"['’]s\b", "", text[runs[-1][0]:m.end()]))
        else:
            runs.append((m.start(), m[0]))
    cue = _AGAINST.search(text)
    measures = list(_MONEY.finditer(text))
    if not said and runs and cue:  # "what is the VX-9 list price in dollars, and how far below B is that?": the
        said = [at for at, _ in runs if at < cue.start()][:1]  # currency unsaid, the first thing priced is converted
    if not said or not runs or not cue or not measures:
        return None
    first = min(runs, key=lambda run: min(abs(run[0] - at) for at in said))[1]
    second = next((name for at, name in runs if at > cue.start() and name != first), "")
    measure = min(measures, key=lambda m: min(abs(m.start() - at) for at in said))[0].lower()
    return ((first, second), measure) if second else None


def mentions(text: str, currency: str) -> list[int]:
    """Where ``text`` names ``currency`` (its code, sign or name: "EUR", "€", "euros")."""
    names = [re.escape(c) for c in (currency, *(s for s, code in _SYMBOLS.items() if code == currency))]
    names += [rf"\b{name}s?\b" for name, code in _NAMES.items() if code == currency]
    return [m.start() for m in re.finditer("|".join(names), text, re.I)]


def symbol_of(currency: str) -> str:
    """The sign an amount in ``currency`` is written with ("USD" → "$"), else the code and a space."""
    return next((sign for sign, code in _SYMBOLS.items() if code == currency), f"{currency} ")


def currency_of(amount: str) -> str:
    """The currency code of a written amount or currency word ("€3,990" → "EUR"), "" when it names none."""
    stripped = amount.strip()
    if stripped[:1] in _SYMBOLS:
        return _SYMBOLS[stripped[:1]]
    lowered = stripped.lower()
    for name, code in _NAMES.items():
        if re.search(rf"\b{name}s?\b", lowered):
            return code
    code = _CODE.search(stripped.upper()) if len(stripped) <= 3 or re.search(r"\d", stripped) else None
    return code[1] if code and code[1] in _SYMBOLS.values() else ""


def _calendar(text: str) -> tuple[set[str], set[str]]:
    """The days and the months a date or a column heading names: "31 Dec 2024" → ({"31"}, {"dec"})."""
    lowered = text.lower()
    months = {m for m in _MONTHS if re.search(rf"\b{m}[a-z]*\b", lowered)}
    days = set(re.findall(r"\b([0-3]?\d)(?:st|nd|rd|th)?\b(?!\s*\d{2})", re.sub(r"\b(?:19|20)\d{2}\b", "", lowered)))
    return {d.lstrip("0") for d in days}, months


def find_rate(blocks: Sequence[Block], source: str, target: str, conversion: Conversion) -> Rate | None:
    """The rate converting ``source`` into ``target`` on the date (or in the month) the question names, read from a
    table of the passages; the table's last column when the question names no date; ``None`` when no table lists
    the pair, or none of its columns is the date asked for."""
    days, months = _calendar(conversion.rate)
    best: tuple[int, Rate] | None = None
    for block in blocks:
        for table in tables(block):
            heading = table[0]
            for row in table[1:]:
                pair = _PAIR.fullmatch(row[0].strip()) if row else None
                if not pair or {pair[1], pair[2]} != {source, target}:
                    continue
                for i, column in enumerate(heading[1:len(row)], start=1):
                    value = row[i].replace(",", "")
                    if not re.fullmatch(r"\d+(?:\.\d+)?", value):
                        continue
                    own_days, own_months = _calendar(column)
                    if months and not months & own_months or days and not days & own_days:
                        continue
                    fit = 2 * len(months & own_months) + len(days & own_days) + (i if not months else 0)
                    rate = Rate(row[i], row[0].strip(), column, block.label, inverted=pair[1] != source)
                    if best is None or fit > best[0]:
                        best = (fit, rate)
    return best[1] if best else None
