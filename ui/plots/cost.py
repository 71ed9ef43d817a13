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
    currency_label,
    integer_ticks,
    new_plot,
    pen,
    relabel,
    set_curve,
    set_line_label,
    t,
)

_TITLE = QT_TRANSLATE_NOOP("Plots", "Cost by number of GPUs")
_X = QT_TRANSLATE_NOOP("Plots", "GPUs")
_Y = QT_TRANSLATE_NOOP("Plots", "Cost (%1, log scale)")
_PER_RUN = QT_TRANSLATE_NOOP("Plots", "Cost per run")
_PER_MONTH = QT_TRANSLATE_NOOP("Plots", "Cost per month")
_VALUE = QT_TRANSLATE_NOOP("Plots", "Value of time saved per month")
_BEST = QT_TRANSLATE_NOOP("Plots", "Best value: %1")


def positive(values: list[float]) -> np.ndarray:
    """Zeros and negatives cannot sit on a log axis: they become gaps (NaN)."""
    array = np.asarray(values, dtype=float)
    return np.where(array > 0, array, np.nan)


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
        items["best"] = pg.InfiniteLine(angle=90, movable=False, pen=pen(GREEN, 1, True),
                                        label="", labelOpts={"position": 0.92, "color": GREEN})
        for name in ("per_run", "per_month", "value_saved", "best"):
            plot.addItem(items[name])
    costs = rec.costs
    gpus = np.asarray(costs.gpus, dtype=float)
    set_curve(items["per_run"], gpus, positive(costs.cost_per_run))
    set_curve(items["per_month"], gpus, positive(costs.cost_per_month))
    saved = positive(costs.time_saved_value_per_month)
    has_value = bool(np.any(np.isfinite(saved)))
    set_curve(items["value_saved"], gpus if has_value else [], saved if has_value else [])
    items["value_saved"].setVisible(has_value)
    items["best"].setValue(costs.best_value_gpus)
    set_line_label(items["best"], t(lang, _BEST).replace("%1", str(costs.best_value_gpus)))
    integer_ticks(plot, gpus.tolist())
    plot.setXRange(float(gpus.min()) - 0.5, float(gpus.max()) + 0.5, padding=0)
    plot.enableAutoRange(axis="y")
    money = currency_label(lang, costs.currency)
    relabel(plot, t(lang, _TITLE), t(lang, _X), t(lang, _Y).replace("%1", money), [
        ("per_run", t(lang, _PER_RUN)),
        ("per_month", t(lang, _PER_MONTH)),
        ("value_saved", t(lang, _VALUE)),
    ])
    return plot
