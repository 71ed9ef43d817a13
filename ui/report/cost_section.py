"""Costs: per run and per month for each GPU count, the buy-vs-rent break-even (F31), and the
prices and assumptions behind them (the cost model's own notes, in the report's language)."""

from __future__ import annotations

import math

from advisor.costs.result import CostReport
from advisor.verdict.result import Recommendation
from ui.report import labels as L
from ui.report.formatting import esc, figure, hours, mark_row, money, number, table
from ui.report.plot_images import PlotImage


def _per_run_rows(rec: Recommendation, lang: str) -> list[list[str]]:
    c = rec.costs
    rows = []
    for i, n in enumerate(c.gpus):
        cloud = money(c.cloud_cost_per_run[i], c.currency) if c.cloud_priced else "—"
        row = [str(n), hours(c.run_hours[i], lang), number(c.gpu_hours_per_run[i], 1),
               number(c.energy_kwh_per_run[i], 1), cloud,
               money(c.own_cost_per_run[i], c.currency),
               money(c.migration_cost_per_run[i], c.currency),
               money(c.cost_per_run[i], c.currency) if c.mode_priced else "—"]
        rows.append(mark_row([esc(cell) for cell in row], n == rec.verdict.gpus))
    return rows


def _per_month_rows(rec: Recommendation) -> tuple[list[str], list[list[str]]]:
    """Columns for the purchase price and power draw appear when the cost model gives them."""
    c = rec.costs
    with_capex = len(c.capex) == len(c.gpus) and c.own_priced
    with_power = len(c.power_w) == len(c.gpus)
    rows = []
    for i, n in enumerate(c.gpus):
        row = [str(n)]
        if with_capex:
            row.append(money(c.capex[i], c.currency))
        if with_power:
            row.append(f"{number(round(c.power_w[i]))} W")
        # A count that cannot hold the model has no time value: "—", as in the CLI.
        runs, priced = fits_at(c, i), c.mode_priced  # priced: renting has a cloud price
        # The signed time value (negative: slower than the baseline), as the CLI table shows
        # it, so the columns add up: net = time value - (cost/month - the baseline's).
        signed = c.time_value_per_month if len(c.time_value_per_month) == len(c.gpus) \
            else c.time_saved_value_per_month
        row.append(money(c.cost_per_month[i], c.currency) if priced else "—")
        if not getattr(c, "time_value_given", True):  # no value on time: no net value
            extra = c.cost_per_month[i] - (c.baseline_cost_per_month or 0.0)
            to_pay = c.day_value_to_pay(n) if runs and priced and extra > 0 else None
            row += [money(extra, c.currency) if runs and priced else "—",
                    money(float(math.ceil(to_pay)), c.currency) if to_pay is not None else "—"]
        else:
            row += [money(signed[i], c.currency) if runs else "—",
                    money(c.net_value_per_month[i], c.currency) if runs and priced else "—"]
        rows.append(mark_row([esc(cell) for cell in row], n == rec.verdict.gpus))
    return [k for k, on in (("capex", with_capex), ("power", with_power)) if on], rows


def fits_at(costs: CostReport, index: int) -> bool:
    """Whether the count at ``index`` can run the job (older reports have no ``fits``)."""
    return not costs.fits or index >= len(costs.fits) or costs.fits[index]


def fits_count(costs: CostReport, n: int | None) -> bool:
    """Whether ``n`` GPUs can run the job; None or 0 is the cost model's "no count can"."""
    if not n:
        return False
    return n not in costs.gpus or fits_at(costs, costs.gpus.index(n))


def _compared(rec: Recommendation) -> bool:
    """Owning vs renting is drawn only with both sides priced and a setup that runs."""
    c = rec.costs
    return (fits_count(c, c.buy_vs_rent.gpus) and c.own_priced and c.cloud_priced
            and getattr(rec.verdict, "runnable", True))


def _month_header(extra: list[str], lang: str, valued: bool = True) -> list[str]:
    names = (L.COST_HEAD_MONTH if valued else L.COST_HEAD_MONTH_UNVALUED).get(lang).split("|")
    optional = {"capex": L.CAPEX_H.get(lang), "power": L.POWER_H.get(lang)}
    return [esc(h) for h in names[:1] + [optional[k] for k in extra] + names[1:]]


def _assumptions(rec: Recommendation, lang: str) -> list[str]:
    c = rec.costs
    if c.assumption_texts:  # the cost model's own notes already say which price is missing
        return [t.get(lang) for t in c.assumption_texts]
    notes = list(c.assumptions)
    if not c.own_priced:
        notes.insert(0, L.OWN_NOT_PRICED.get(lang))
    if not c.cloud_priced:
        notes.insert(0, L.CLOUD_NOT_PRICED.get(lang))
    return notes


def costs_html(rec: Recommendation, lang: str, images: dict[str, PlotImage],
               breakeven: str, deadline_given: bool) -> str:
    c = rec.costs
    mode = L.MODE.get(c.mode)
    intro = L.COST_MODE.get(lang).format(mode=mode.get(lang) if mode else c.mode,
                                         currency=c.currency)
    valued = getattr(c, "time_value_given", True)
    best = L.BEST_VALUE if valued else L.CHEAPEST
    lines = [L.BEST_VALUE_UNPRICED.get(lang) if not c.mode_priced
             else best.get(lang).format(gpus=L.gpus(c.best_value_gpus, lang))
             if fits_count(c, c.best_value_gpus) else L.NO_COUNT_RUNS.get(lang)]
    if c.fits and not all(c.fits):
        lines.append(L.NOT_FITTING_ROWS.get(lang))
    if c.deadline_gpus is not None:
        lines.append(L.DEADLINE_GPUS.get(lang).format(gpus=c.deadline_gpus))
    elif deadline_given:
        lines.append(L.DEADLINE_NONE.get(lang))
    per_run_head = [esc(h) for h in L.COST_HEAD_RUN.get(lang).split("|")]
    extra, month_rows = _per_month_rows(rec)
    month_head = _month_header(extra, lang, valued)
    base = getattr(rec, "baseline_gpus", 1)
    if not valued:
        if base not in (None, 1):  # the extra cost is against the smallest count that runs
            month_head[-2] = esc(L.EXTRA_COST_VS.get(lang).format(vs=L.gpus(base, lang)))
    elif base is None:  # no count can run the job
        month_head[-1] = esc(L.NET_VALUE_NONE_H.get(lang))
    elif base != 1:  # the net value is compared with the smallest count that runs
        month_head[-1] = esc(L.NET_VALUE_VS_H.get(lang).format(gpus=L.gpus(base, lang)))
    parts = [f'<h2 class="pagebreak">{esc(L.H_COSTS.get(lang))}</h2>', f"<p>{esc(intro)}</p>",
             figure(images.get("cost"), L.PLOT_COST.get(lang)),
             f"<h3>{esc(L.PER_RUN.get(lang))}</h3>", table(per_run_head, _per_run_rows(rec, lang)),
             f"<h3>{esc(L.PER_MONTH.get(lang))}</h3>",
             table(month_head, month_rows),
             "".join(f"<p>{esc(line)}</p>" for line in lines),
             # Its own page: a page break would otherwise part the heading from the plot.
             f'<h3 class="pagebreak">{esc(L.BREAKEVEN.get(lang))}</h3>',
             # No curves when a price is missing or nothing runs: the sentence below says why.
             figure(images.get("buy_vs_rent"),
                    L.PLOT_BUY_RENT.get(lang).format(gpus=L.gpus(c.buy_vs_rent.gpus, lang)))
             if _compared(rec) else "",
             f"<p>{esc(breakeven)}</p>"]
    notes = _assumptions(rec, lang)
    if notes:
        items = "".join(f"<li>{esc(note)}</li>" for note in notes)
        parts.append(f"<h3>{esc(L.ASSUMPTIONS.get(lang))}</h3><ul>{items}</ul>")
    return "".join(parts)
