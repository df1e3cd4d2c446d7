"""Periods named in text (years, quarters, months) and whether a chunk's document agrees with a query's.

Embeddings and BM25 both see "Q3 2023" and "Q3 2024" as near-identical: one token of
many differs. For a question about a period that token is the whole point, so the
pipeline compares the periods a query names with those its candidates' titles and
headings name, kind by kind: a quarterly report for another year *contradicts* a
question about Q3 2024, a report that names no quarter is merely silent about it.

A quarter or month without a year ("our Q3 gross margin") means the latest one: among
the candidates that agree on it, those from an older year count as contradicting.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .chunking import Chunk

_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
#: A year on its own, not inside a code such as LUM-C-2023-014 or a number such as 12024.
_YEAR = re.compile(r"(?<![\w-])((?:19|20)\d{2})(?![\w-])")
_QUARTER = re.compile(r"\bQ([1-4])\b|\b(first|second|third|fourth|1st|2nd|3rd|4th)[ -]quarter\b", re.IGNORECASE)
#: Month names are matched capitalised ("may" is a verb); "May" only next to a day or a year.
_MONTH = re.compile(r"\b(January|February|March|April|June|July|August|September|October|November|December)\b"
                    r"|\bMay(?=\s+\d)|(?<=\d\s)May\b")


@dataclass(frozen=True)
class Periods:
    """The years, quarters (1–4) and months (1–12) a text names."""

    years: frozenset[int] = frozenset()
    quarters: frozenset[int] = frozenset()
    months: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.years or self.quarters or self.months)

    def kinds(self) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
        return self.years, self.quarters, self.months


def periods_in(text: str) -> Periods:
    """The periods ``text`` names: "Q3 2024", "third quarter", "October 2024", "2009–2024"."""
    quarters = {int(m[1]) if m[1] else _ORDINALS[m[2].lower()] for m in _QUARTER.finditer(text)}
    months = {_MONTHS.index(m[0]) + 1 for m in _MONTH.finditer(text)}
    return Periods(frozenset(int(y) for y in _YEAR.findall(text)), frozenset(quarters), frozenset(months))


def chunk_periods(chunk: Chunk) -> Periods:
    """What a chunk's title and heading say about its period (its body may cite other periods in passing)."""
    return periods_in(chunk.context)


def _agrees(query: Periods, chunk: Periods) -> bool:
    """Whether the chunk names a period overlapping the query's for at least one kind."""
    return any(w & n for w, n in zip(query.kinds(), chunk.kinds(), strict=True))


def contradictions(query: str, chunks: Sequence[Chunk]) -> list[bool]:
    """Per chunk, whether its title or heading names another period than ``query`` does (all False if it names none).

    A chunk contradicts when it names only other periods of a kind the query names ("Q3 2023" for
    "Q3 2024"), or, when the query names a quarter or month but no year, when it is from an older
    year than the latest candidate that agrees on that quarter or month.
    """
    wanted = periods_in(query)
    if not wanted:
        return [False] * len(chunks)
    named = [chunk_periods(c) for c in chunks]
    latest = 0
    if not wanted.years:
        latest = max((max(p.years) for p in named if p.years and _agrees(wanted, p)), default=0)
    return [any(w and n and not w & n for w, n in zip(wanted.kinds(), p.kinds(), strict=True))
            or bool(p.years and max(p.years) < latest) for p in named]
