"""Owning vs renting: cumulative cost over the months, the break-even marked (F31)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP

from ui.plots.style import (
    BLUE,
    GREEN,
    ORANGE,
    currency_label,
    new_plot,
    pen,
    relabel,
    set_curve,
    set_line_label,
    show_message,
    t,
    tinted,
)

_TITLE = QT_TRANSLATE_NOOP("Plots", "Buy vs rent, %1 GPUs")
_TITLE_ONE = QT_TRANSLATE_NOOP("Plots", "Buy vs rent, 1 GPU")
_TITLE_NONE = QT_TRANSLATE_NOOP("Plots", "Buy vs rent")
_CANNOT_RUN = QT_TRANSLATE_NOOP("Plots", "No GPU count considered can run this job")
_X = QT_TRANSLATE_NOOP("Plots", "Months")
_Y = QT_TRANSLATE_NOOP("Plots", "Cumulative cost (%1)")
_OWN = QT_TRANSLATE_NOOP("Plots", "Own (buy)")
_CLOUD = QT_TRANSLATE_NOOP("Plots", "Cloud (rent)")
_BREAKEVEN = QT_TRANSLATE_NOOP("Plots", "Break-even: %1 months")
_NO_BREAKEVEN = QT_TRANSLATE_NOOP("Plots", "No break-even in this period")
_NOT_COMPARED = QT_TRANSLATE_NOOP(
    "Plots", "Buy vs rent: not compared (a price is missing). Set %1 to compare.")


def breakeven_point(bvr: Any) -> tuple[float, float] | None:
    """(month, cumulative cost) where owning starts to win, on the plotted curves."""
    if bvr.breakeven_months is None:
        return None
    month = float(bvr.breakeven_months)
    cost = float(np.interp(month, bvr.months, bvr.own_cumulative))
    return month, cost


def note_position(bvr: Any) -> tuple[float, float]:
    """Halfway along the months, halfway between the two curves: the gap the curves leave
    (the legend sits under the plot, so nothing else is there)."""
    months = np.asarray(bvr.months, dtype=float)
    if months.size == 0:
        return 0.0, 0.0
    middle = float((months.min() + months.max()) / 2)
    own = float(np.interp(middle, months, bvr.own_cumulative))
    cloud = float(np.interp(middle, months, bvr.cloud_cumulative))
    return middle, (own + cloud) / 2


def title(gpus: int, lang: str) -> str:
    """"Buy vs rent, 1 GPU" / "…, 4 GPUs"; no count when none can run the job (0)."""
    if not gpus:
        return t(lang, _TITLE_NONE)
    return t(lang, _TITLE_ONE) if gpus == 1 else t(lang, _TITLE).replace("%1", str(gpus))


def compared(costs: Any) -> bool:
    """Whether owning and renting can be compared: both sides priced (as ``gpu-advisor costs``
    says, "not compared (a price is missing)" otherwise) and a count that runs (F31)."""
    return bool(costs.buy_vs_rent.gpus) and getattr(costs, "own_priced", True) \
        and getattr(costs, "cloud_priced", True)


def buy_vs_rent_plot(rec: Any, profile: Any, lang: str, *,
                     plot: pg.PlotWidget | None = None) -> pg.PlotWidget:
    plot, created = new_plot(plot)
    items = plot.advisor_items
    if created:
        items["own"] = pg.PlotDataItem(pen=pen(BLUE, 2.5))
        items["cloud"] = pg.PlotDataItem(pen=pen(ORANGE, 2.5))
        items["breakeven_line"] = pg.InfiniteLine(angle=90, movable=False,
                                                  pen=pen(GREEN, 1.5, True), label="",
                                                  labelOpts={"position": 0.95,
                                                             "color": tinted(plot, GREEN)})
        items["breakeven"] = pg.ScatterPlotItem(size=12, brush=GREEN, pen="w", symbol="o")
        items["note"] = pg.TextItem(color=tinted(plot, GREEN), anchor=(0.5, 0.5))
        for name in ("own", "cloud", "breakeven_line", "breakeven", "note"):
            plot.addItem(items[name])
    bvr = rec.costs.buy_vs_rent
    months = np.asarray(bvr.months, dtype=float)
    # 0 GPUs: no count costed can run the job; a missing price: owning or renting is not costed.
    runs = compared(rec.costs)
    set_curve(items["own"], months if runs else [], bvr.own_cumulative if runs else [])
    set_curve(items["cloud"], months if runs else [], bvr.cloud_cumulative if runs else [])
    point = breakeven_point(bvr)
    if point is not None and runs:
        month, cost = point
        items["breakeven"].setData([month], [cost])
        items["breakeven_line"].setValue(month)
        set_line_label(items["breakeven_line"], t(lang, _BREAKEVEN).replace("%1", f"{month:.1f}"))
        if items["note"].textItem.toPlainText():
            items["note"].setText("")
    else:
        items["breakeven"].setData([], [])
        note = t(lang, _NO_BREAKEVEN) if runs else ""
        if items["note"].textItem.toPlainText() != note:
            items["note"].setText(note)
        if runs:
            items["note"].setPos(*note_position(bvr))
    shown = point is not None and runs
    items["breakeven_line"].setVisible(shown)
    items["breakeven"].setVisible(shown)
    items["note"].setVisible(runs)
    if not runs:
        field = ("economics.gpu_price" if not getattr(rec.costs, "own_priced", True)
                 else "economics.cloud_price_per_gpu_hour")
        money = currency_label(lang, rec.costs.currency)
        # No count in the title: with a price missing it is no best value to compare at.
        relabel(plot, title(0, lang), t(lang, _X), t(lang, _Y).replace("%1", money), [])
        # After relabel: setting an axis label shows that axis again.
        show_message(plot, t(lang, _NOT_COMPARED).replace("%1", field) if bvr.gpus
                     else t(lang, _CANNOT_RUN))
        return plot
    show_message(plot, None)
    plot.enableAutoRange(axis="x")
    values = [*bvr.own_cumulative, *bvr.cloud_cumulative] or [0.0]
    low, high = min(values), max(values)
    extent = max(high - low, abs(high) * 0.1, 1.0)
    plot.setYRange(low - 0.04 * extent, high + 0.15 * extent, padding=0)  # label headroom
    money = currency_label(lang, rec.costs.currency)
    relabel(plot, title(bvr.gpus, lang), t(lang, _X),
            t(lang, _Y).replace("%1", money),
            [("own", t(lang, _OWN)), ("cloud", t(lang, _CLOUD))])
    return plot
