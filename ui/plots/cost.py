"""Cost per run and per month vs GPU count (log scale: a month of sweeps dwarfs one run),
with the value of the time saved and the best-value count marked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP

from ui.plots.style import (
    BLUE,
    GREEN,
    ORANGE,
    PURPLE,
    RED,
    currency_label,
    integer_ticks,
    log_axis,
    new_plot,
    pen,
    relabel,
    set_curve,
    set_line_label,
    show_message,
    t,
    tinted,
)

_TITLE = QT_TRANSLATE_NOOP("Plots", "Cost by number of GPUs")
_X = QT_TRANSLATE_NOOP("Plots", "GPUs")
_Y = QT_TRANSLATE_NOOP("Plots", "Cost (%1, log scale)")
_PER_RUN = QT_TRANSLATE_NOOP("Plots", "Cost per run")
_PER_MONTH = QT_TRANSLATE_NOOP("Plots", "Cost per month")
# the one-off move to multi-GPU is in every cost from two GPUs (advisor/costs/model.py): the
# line's jump from one GPU to two is mostly that move, so its label says so
_PER_MONTH_MOVE = QT_TRANSLATE_NOOP("Plots", "Cost per month (with the one-off move to "
                                              "multi-GPU spread over %1 months)")
_VALUE = QT_TRANSLATE_NOOP("Plots", "Value of time saved per month")
_BEST = QT_TRANSLATE_NOOP("Plots", "Best value: %1")
# what a day saved is worth not said: the figures count it as nothing, so the count is the
# cheapest, not the best value (rules/README.md, "What time is worth")
_CHEAPEST = QT_TRANSLATE_NOOP("Plots", "Cheapest: %1 (time not valued)")
_NO_FIT = QT_TRANSLATE_NOOP("Plots", "Does not fit in memory")
_NO_CLOUD_PRICE = QT_TRANSLATE_NOOP(
    "Plots", "No cloud price is known for this GPU, so renting it cannot be costed. Enter the "
             "cloud price of one GPU an hour (%1) on the hardware page to see the costs.")
_CURVES = ("per_run", "per_month", "value_saved", "no_fit", "best")


def positive(values: list[float]) -> np.ndarray:
    """Zeros and negatives cannot sit on a log axis: they become gaps (NaN)."""
    array = np.asarray(values, dtype=float)
    return np.where(array > 0, array, np.nan)


def runnable(costs: Any) -> np.ndarray:
    """Per GPU count, whether the job can run there (the projection's fits; all when unknown)."""
    fits = list(getattr(costs, "fits", []) or [])
    if len(fits) != len(costs.gpus):
        return np.ones(len(costs.gpus), dtype=bool)
    return np.asarray(fits, dtype=bool)


def cost_plot(rec: Any, profile: Any, lang: str, *,
              plot: pg.PlotWidget | None = None) -> pg.PlotWidget:
    plot, created = new_plot(plot)
    items = plot.advisor_items
    if created:
        plot.setLogMode(x=False, y=True)
        items["per_run"] = pg.PlotDataItem(pen=pen(BLUE, 2.5), symbol="o", symbolBrush=BLUE,
                                           symbolPen="w", connect="finite")
        items["per_month"] = pg.PlotDataItem(pen=pen(ORANGE, 2.5), symbol="s",
                                             symbolBrush=ORANGE, symbolPen="w",
                                             connect="finite")
        items["value_saved"] = pg.PlotDataItem(pen=pen(PURPLE, 2, dashed=True), symbol="d",
                                               symbolBrush=PURPLE, symbolPen=None,
                                               connect="finite")
        # counts that cannot hold the model: their costs are hypothetical, so hollow markers
        # off the lines (the CLI and the report print "—" for their value)
        items["no_fit"] = pg.PlotDataItem(pen=None, symbol="x", symbolBrush=RED,
                                          symbolPen=pg.mkPen(RED, width=1.5), symbolSize=11)
        items["best"] = pg.InfiniteLine(angle=90, movable=False, pen=pen(GREEN, 1, True),
                                        label="",
                                        labelOpts={"position": 0.95,
                                                   "color": tinted(plot, GREEN)})
        for name in _CURVES:
            plot.addItem(items[name])
    costs = rec.costs
    if not getattr(costs, "mode_priced", True):
        return _unpriced(plot, costs, lang)
    show_message(plot, None)
    for name in ("per_run", "per_month"):
        items[name].setVisible(True)
    gpus = np.asarray(costs.gpus, dtype=float)
    fits = runnable(costs)
    per_run, per_month = positive(costs.cost_per_run), positive(costs.cost_per_month)
    set_curve(items["per_run"], gpus[fits], per_run[fits])
    set_curve(items["per_month"], gpus[fits], per_month[fits])
    out = ~fits
    set_curve(items["no_fit"], np.concatenate([gpus[out], gpus[out]]),
              np.concatenate([per_run[out], per_month[out]]))
    items["no_fit"].setVisible(bool(out.any()))
    # A count that cannot hold the model saves no time: no point (the CLI and report say "—").
    saved = np.where(fits, positive(costs.time_saved_value_per_month), np.nan)
    has_value = bool(np.any(np.isfinite(saved)))
    set_curve(items["value_saved"], gpus if has_value else [], saved if has_value else [])
    items["value_saved"].setVisible(has_value)
    best = costs.best_value_gpus
    has_best = bool(best) and best in costs.gpus and bool(fits[costs.gpus.index(best)])
    items["best"].setVisible(has_best)
    if has_best:
        items["best"].setValue(best)
        marker = _BEST if getattr(costs, "time_value_given", True) else _CHEAPEST
        set_line_label(items["best"], t(lang, marker).replace("%1", str(best)))
    integer_ticks(plot, gpus.tolist())
    # The marker's label sits in the headroom above every curve.
    log_axis(plot, [*costs.cost_per_run, *costs.cost_per_month,
                    *(saved[np.isfinite(saved)].tolist())])
    plot.setXRange(float(gpus.min()) - 0.5, float(gpus.max()) + 0.5, padding=0)
    money = currency_label(lang, costs.currency)
    relabel(plot, t(lang, _TITLE), t(lang, _X), t(lang, _Y).replace("%1", money), [
        ("per_run", t(lang, _PER_RUN)),
        ("per_month", _per_month_label(costs, lang)),
        ("value_saved", t(lang, _VALUE)),
        ("no_fit", t(lang, _NO_FIT)),
    ])
    return plot


def _per_month_label(costs: Any, lang: str) -> str:
    horizon = float(getattr(costs, "horizon_months", 0.0) or 0.0)
    moved = any(v > 0 for v in getattr(costs, "migration_cost_per_run", []) or [])
    if not (moved and horizon > 0):
        return t(lang, _PER_MONTH)
    return t(lang, _PER_MONTH_MOVE).replace("%1", f"{horizon:g}")


def _unpriced(plot: pg.PlotWidget, costs: Any, lang: str) -> pg.PlotWidget:
    """Renting with no cloud price: the "costs" would hold the one-off move alone and the best
    value would be arbitrary, so no curve and no marker, only what to fill in (the CLI and the
    report print "—")."""
    for name in _CURVES:
        plot.advisor_items[name].setVisible(False)
    money = currency_label(lang, costs.currency)
    relabel(plot, t(lang, _TITLE), t(lang, _X), t(lang, _Y).replace("%1", money), [])
    # After relabel: setting an axis label shows that axis again.
    show_message(plot, t(lang, _NO_CLOUD_PRICE).replace("%1", "economics.cloud_price_per_gpu_hour"))
    return plot
