"""How old a catalog price is: its ``as_of`` read as a date, and the prices a report used that
are older than a year (the output warns about them: GPU prices move by the month).

``as_of`` is free text ("2026-11-09", "2025-11", "2026-Q1", "2024-H2 (published 2025-05-06)",
"2026", "early 2026", null). The date read is the end of the latest period it names (a price
"as of 2025" may be from December 2025), so a price is called old only when it surely is.
``GPU_ADVISOR_TODAY`` (YYYY-MM-DD) fixes today for reproducible outputs (docs, benchmarks).
"""

from __future__ import annotations

import calendar
import datetime as dt
import os
import re
from collections.abc import Iterable
from functools import lru_cache

from advisor.files.records import record
from advisor.text.i18n import Text

MAX_AGE_MONTHS = 12

_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:-(?:(\d\d)(?:-(\d\d))?|Q([1-4])|H([12])))?(?!\d)")


def as_of_date(text: object) -> dt.date | None:
    """The end of the latest period ``text`` names; None when it names none."""
    return None if text is None else _parse(str(text))


@lru_cache(maxsize=1024)
def _parse(text: str) -> dt.date | None:
    found: list[dt.date] = []
    for year, month, day, quarter, half in _DATE.findall(text):
        y = int(year)
        if day:
            found.append(_safe(y, int(month), int(day)))
        elif month:
            m = int(month)
            found.append(_safe(y, m, calendar.monthrange(y, min(max(m, 1), 12))[1]))
        elif quarter:
            m = int(quarter) * 3
            found.append(dt.date(y, m, calendar.monthrange(y, m)[1]))
        elif half:
            found.append(dt.date(y, 6, 30) if half == "1" else dt.date(y, 12, 31))
        else:
            found.append(dt.date(y, 12, 31))
    return max(found) if found else None


def _safe(year: int, month: int, day: int) -> dt.date:
    month = min(max(month, 1), 12)
    return dt.date(year, month, min(max(day, 1), calendar.monthrange(year, month)[1]))


def today() -> dt.date:
    fixed = os.environ.get("GPU_ADVISOR_TODAY", "").strip()
    if fixed:
        try:
            return dt.date.fromisoformat(fixed)
        except ValueError:
            pass
    return dt.date.today()


def months_between(earlier: dt.date, later: dt.date) -> float:
    return (later - earlier).days / (365.0 / 12.0)


@record
class PriceUse:
    """One catalog entry a report's figures rest on: what it prices, its id and date, and its
    confidence where the caller knows it (shown beside the date)."""

    what: Text
    entry: str
    as_of: str | None
    confidence: str | None = None

    def age_months(self, on: dt.date | None = None) -> float | None:
        date = as_of_date(self.as_of)
        return None if date is None else months_between(date, on or today())


def stale_warnings(uses: Iterable[PriceUse], on: dt.date | None = None,
                   max_months: int = MAX_AGE_MONTHS) -> list[Text]:
    """One line per kind of price (cloud offers, card prices, electricity ...) naming its
    entries older than ``max_months`` with their dates, then one for the undated ones; both
    languages, each entry once."""
    from advisor.catalog.entries import CONFIDENCE_WORDS, confidence_level

    on = on or today()
    old: dict[str, tuple[Text, list[Text]]] = {}
    undated: list[Text] = []
    seen: set[str] = set()
    for use in uses:
        if use.entry in seen or not use.entry:
            continue
        seen.add(use.entry)
        age = use.age_months(on)
        level = confidence_level(use.confidence)
        word = CONFIDENCE_WORDS[level] if level else None
        if age is None:
            undated.append(Text(en=use.entry + (f" (confidence {word.en})" if word else ""),
                                zh=use.entry + (f" (可信度{word.zh})" if word else "")))
        elif age > max_months:
            old.setdefault(use.what.en, (use.what, []))[1].append(Text(
                en=f"{use.entry} ({use.as_of}" + (f", confidence {word.en})" if word else ")"),
                zh=f"{use.entry} ({use.as_of}" + (f"，可信度{word.zh})" if word else ")")))
    out = [Text(en=f"{what.en} older than {max_months} months: "
                   f"{', '.join(i.en for i in items)}",
                zh=f"超过 {max_months} 个月的{what.zh}：{'、'.join(i.zh for i in items)}")
           for what, items in old.values()]
    if undated:
        out.append(Text(en=f"undated (age unknown): {', '.join(i.en for i in undated)}",
                        zh=f"没有日期（无法判断新旧）：{'、'.join(i.zh for i in undated)}"))
    return out
