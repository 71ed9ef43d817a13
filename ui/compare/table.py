"""The compare page's table: one row per option and GPU count that matters (those on the front,
the rule verdict's, the smallest and the largest: ``advisor.compare.text.shown_points``)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP

from advisor.compare.text import answered_counts, shown_points
from advisor.costs.money import money
from ui.app.translation import tr_lang

TABLE_COLUMNS = (
    QT_TRANSLATE_NOOP("ComparePage", "#"),
    QT_TRANSLATE_NOOP("ComparePage", "Option"),
    QT_TRANSLATE_NOOP("ComparePage", "GPUs"),
    QT_TRANSLATE_NOOP("ComparePage", "Speed-up (band)"),
    QT_TRANSLATE_NOOP("ComparePage", "Hours per run"),
    QT_TRANSLATE_NOOP("ComparePage", "Cost per run"),
    QT_TRANSLATE_NOOP("ComparePage", "Cost per month"),
    QT_TRANSLATE_NOOP("ComparePage", "Owning pays above"),
    QT_TRANSLATE_NOOP("ComparePage", "Status"),
)
_FRONT = QT_TRANSLATE_NOOP("Compare", "★ on the front")
_DOMINATED = QT_TRANSLATE_NOOP("Compare", "dominated by %1")
_SAME = QT_TRANSLATE_NOOP("Compare", "same as %1")
_NO_FIT = QT_TRANSLATE_NOOP("Compare", "does not fit")
_NO_PRICE = QT_TRANSLATE_NOOP("Compare", "no price")
_AT = QT_TRANSLATE_NOOP("Compare", "[%1] at %2 GPUs")
_AT_ONE = QT_TRANSLATE_NOOP("Compare", "[%1] at 1 GPU")
_HOURS_A_MONTH = QT_TRANSLATE_NOOP("Compare", "%1 h a month")
NA = "—"


def tr(lang: str, text: str) -> str:
    return tr_lang(lang, "Compare", text)


def ref_text(result: Any, ref: Any, lang: str) -> str:
    """An option at a count, its number written "#1" as the table's "#" column and the plot's
    labels write it (the catalog's "[%1]" becomes "#1" in both languages)."""
    number = {o.id: i for i, o in enumerate(result.options, start=1)}
    text = tr(lang, _AT_ONE if ref.gpus == 1 else _AT).replace("%2", str(ref.gpus))
    n = str(number[ref.option])
    return text.replace("[%1]", f"#{n}").replace("%1", n)


def status_text(result: Any, p: Any, lang: str) -> str:
    if not p.fits:
        return tr(lang, _NO_FIT)
    if not p.priced:
        return tr(lang, _NO_PRICE)
    if p.on_front:
        return tr(lang, _FRONT)
    if p.same_as is not None:
        return tr(lang, _SAME).replace("%1", ref_text(result, p.same_as, lang))
    if p.dominated_by is not None:
        return tr(lang, _DOMINATED).replace("%1", ref_text(result, p.dominated_by, lang))
    return NA


FRONT_MARK = "★"  # the page's legend: "★ = on the Pareto front"


def table_rows(result: Any, lang: str) -> list[tuple[tuple[str, int], list[str], bool]]:
    """((option id, GPUs), cells, on the front?) for every row. A row on the front carries the
    ★ in its first cell ("★ 3"), where it is in sight however narrow the window (the Status
    column, which says it too, may be scrolled out of view); the page also sets it in bold."""
    out = []
    cur = result.currency
    for number, option in enumerate(result.options, start=1):
        for p in shown_points(option, answers=answered_counts(result, option)):
            ok = p.fits and p.priced
            band = f"{p.speedup:.2f}× ({p.speedup_low:.2f}–{p.speedup_high:.2f})" if p.fits \
                else NA
            pays = NA if p.breakeven_hours_per_month is None else \
                tr(lang, _HOURS_A_MONTH).replace("%1", f"{p.breakeven_hours_per_month:,.0f}")
            out.append(((option.id, p.gpus), [
                f"{FRONT_MARK} {number}" if p.on_front else str(number), option.label.get(lang), str(p.gpus), band,
                f"{p.run_hours:,.1f}", money(p.cost_per_run, cur) if ok else NA,
                money(p.cost_per_month, cur) if ok else NA, pays,
                status_text(result, p, lang)], p.on_front))
    return out
