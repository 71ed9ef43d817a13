"""The compare page's details: the answers (nothing chosen yet) or one point in full, with
what dominates it and the option's rule verdict. HTML for a QTextBrowser."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP

from advisor.costs.money import money
from ui.compare.table import ref_text, status_text, tr

_ANSWERS = QT_TRANSLATE_NOOP("Compare", "Answers")
_ANSWER = {
    "fastest": QT_TRANSLATE_NOOP("Compare", "Fastest"),
    "cheapest": QT_TRANSLATE_NOOP("Compare", "Cheapest a month"),
    "deadline": QT_TRANSLATE_NOOP("Compare", "Meets the deadline, cheapest"),
    "budget": QT_TRANSLATE_NOOP("Compare", "Fastest within the monthly budget"),
    "net_value": QT_TRANSLATE_NOOP("Compare", "Best net value"),
}
_CLICK = QT_TRANSLATE_NOOP("Compare", "Click a point or a row to see its details.")
_WARNINGS = QT_TRANSLATE_NOOP("Compare", "Prices older than 12 months (check them)")
_NOTES = QT_TRANSLATE_NOOP("Compare", "Notes")
_ROWS = {
    "gpus": QT_TRANSLATE_NOOP("Compare", "GPUs"),
    "machines": QT_TRANSLATE_NOOP("Compare", "Machines"),
    "speedup": QT_TRANSLATE_NOOP("Compare", "Speed-up (band)"),
    "hours": QT_TRANSLATE_NOOP("Compare", "Time per run"),
    "runs": QT_TRANSLATE_NOOP("Compare", "Runs a month one set can do"),
    "run": QT_TRANSLATE_NOOP("Compare", "Cost per run"),
    "month": QT_TRANSLATE_NOOP("Compare", "Cost per month"),
    "capex": QT_TRANSLATE_NOOP("Compare", "Up front (cards, machines, tax)"),
    "capex_rent": QT_TRANSLATE_NOOP("Compare", "Buying the same instead (up front)"),
    "pays": QT_TRANSLATE_NOOP("Compare", "Owning pays above"),
    "net": QT_TRANSLATE_NOOP("Compare", "Net value a month"),
    "status": QT_TRANSLATE_NOOP("Compare", "Status"),
    "verdict": QT_TRANSLATE_NOOP("Compare", "The rules on this option"),
}
# a net value is measured against the comparison's baseline (your setup at its fewest GPUs);
# the option's own verdict says what its own is measured against (one GPU of that option)
_NET_OVER = QT_TRANSLATE_NOOP("Compare", "%1 over %2 (your setup at its fewest GPUs)")
_HOURS = QT_TRANSLATE_NOOP("Compare", "%1 h")
_HOURS_A_MONTH = QT_TRANSLATE_NOOP("Compare", "%1 h a month")
_OWN = QT_TRANSLATE_NOOP("Compare", "own")
_RENT = QT_TRANSLATE_NOOP("Compare", "rented")
_VERDICT_DOMINATED = QT_TRANSLATE_NOOP("Compare", "its own pick is dominated by %1: not "
                                                  "recommended")
NA = "—"


def esc(text: object) -> str:
    return html.escape(str(text))


def answers_html(result: Any, lang: str) -> str:
    parts = [f"<h3>{esc(tr(lang, _ANSWERS))}</h3><ul>"]
    for a in result.answers:
        title = tr(lang, _ANSWER[a.key])
        parts.append(f"<li><b>{esc(title)}</b>: {esc(a.why.get(lang))}</li>")
    parts.append(f"</ul><p>{esc(tr(lang, _CLICK))}</p>")
    parts += _list(tr(lang, _WARNINGS), [w.get(lang) for w in result.price_warnings])
    parts += _list(tr(lang, _NOTES), [n.get(lang) for n in result.notes])
    return "".join(parts)


def _list(title: str, lines: list[str]) -> list[str]:
    if not lines:
        return []
    return [f"<h4>{esc(title)}</h4><ul>", *(f"<li>{esc(line)}</li>" for line in lines),
            "</ul>"]


def _net_value(result: Any, p: Any, lang: str) -> str:
    if p.net_value_per_month is None:
        return NA
    value = money(p.net_value_per_month, result.currency)
    if result.baseline is None:
        return value
    return tr(lang, _NET_OVER).replace("%1", value).replace(
        "%2", ref_text(result, result.baseline, lang))


def point_html(result: Any, key: tuple[str, int], lang: str) -> str:
    option = result.option(key[0])
    p = option.point(key[1])
    if p is None:
        return answers_html(result, lang)
    cur = result.currency
    how = tr(lang, _OWN) if p.deployment == "own" else tr(lang, _RENT)
    rows = [
        ("gpus", f"{p.gpus} ({how})"),
        ("machines", str(p.nodes)),
        ("speedup", f"{p.speedup:.2f}× ({p.speedup_low:.2f}–{p.speedup_high:.2f})"
         if p.fits else NA),
        ("hours", tr(lang, _HOURS).replace("%1", f"{p.run_hours:,.1f}")),
        ("runs", f"{min(p.runs_per_month_capacity, 9999):,.1f}" if p.fits else NA),
        ("run", money(p.cost_per_run, cur) if p.priced else NA),
        ("month", money(p.cost_per_month, cur) if p.priced else NA),
        ("capex" if p.deployment == "own" else "capex_rent", money(p.capex, cur)),
        ("pays", NA if p.breakeven_hours_per_month is None else
         tr(lang, _HOURS_A_MONTH).replace("%1", f"{p.breakeven_hours_per_month:,.0f}")),
        ("net", _net_value(result, p, lang)),
        ("status", status_text(result, p, lang)),
    ]
    v = option.verdict
    if v is not None:
        text = v.headline.get(lang)
        if v.dominated_by is not None:
            text += " — " + tr(lang, _VERDICT_DOMINATED).replace(
                "%1", ref_text(result, v.dominated_by, lang))
        rows.append(("verdict", text))
    body = "".join(f"<tr><td><b>{esc(tr(lang, _ROWS[k]))}</b></td><td>{esc(value)}</td></tr>"
                   for k, value in rows)
    notes = [n.get(lang) for n in option.notes]
    return (f"<h3>{esc(option.label.get(lang))}</h3><table cellpadding='3'>{body}</table>"
            + "".join(_list(tr(lang, _NOTES), notes)))
