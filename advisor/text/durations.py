"""Run times as people read them: minutes under an hour, hours under two days, then days, and
two times that are compared ("one GPU → four") in one unit.

"0.1 h on 1 GPU, 0.0 h on 8" hides a 5× difference, and "8.3 days → 25.1 hours" makes the
reader convert before comparing; both read at a glance as "6 min → 1 min" and
"8.3 days → 1.0 days" (each keeps its own unit only when the smaller would read as
nothing in the larger's: "200.0 days → 30 min").
"""

from __future__ import annotations

import math

from advisor.text.i18n import pick

MINUTES, HOURS, DAYS = "min", "h", "days"
_ORDER = (MINUTES, HOURS, DAYS)
_PER_HOUR = {MINUTES: 60.0, HOURS: 1.0, DAYS: 1.0 / 24.0}
_DECIMALS = {MINUTES: 0, HOURS: 1, DAYS: 1}
_WORDS = {MINUTES: ("min", "分钟"), HOURS: ("h", "小时"), DAYS: ("days", "天")}


def unit_for(hours: float) -> str:
    """The unit a single duration reads best in."""
    if hours < 1:
        return MINUTES
    return HOURS if hours < 48 else DAYS


def duration(hours: float | None, lang: str, unit: str | None = None) -> str:
    """``hours`` in ``unit`` (its own best unit when None): "45 min", "8.2 h", "3.5 days";
    "—" when unknown."""
    if hours is None or not math.isfinite(hours):
        return "—"
    unit = unit or unit_for(hours)
    value = hours * _PER_HOUR[unit]
    text = f"{value:,.{_DECIMALS[unit]}f}"
    en, zh = _WORDS[unit]
    if hours > 0 and float(text.replace(",", "")) == 0:  # a run is never "0 min" long
        return pick(lang, f"under 1 {en}" if unit == MINUTES else f"under 0.1 {en}",
                    f"不到 1 {zh}" if unit == MINUTES else f"不到 0.1 {zh}")
    return pick(lang, f"{text} {en}", f"{text} {zh}")


def shared_unit(*hours: float) -> str | None:
    """One unit for durations shown side by side: the largest one's, unless the smallest
    would read as less than half of it ("0.0 days"): then None, each in its own unit."""
    finite = [h for h in hours if h is not None and math.isfinite(h) and h > 0]
    if not finite:
        return None
    unit = unit_for(max(finite))
    if unit != MINUTES and min(finite) * _PER_HOUR[unit] < 0.5:
        return None
    return unit


def durations(lang: str, *hours: float) -> list[str]:
    """Several durations compared side by side, in one unit where they can share it."""
    unit = shared_unit(*hours)
    return [duration(h, lang, unit) for h in hours]
