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
    t,
)

_TITLE = QT_TRANSLATE_NOOP("Plots", "Buy vs rent, %1 GPUs")
_X = QT_TRANSLATE_NOOP("Plots", "Months")
_Y = QT_TRANSLATE_NOOP("Plots", "Cumulative cost (%1)")
_OWN = QT_TRANSLATE_NOOP("Plots", "Own (buy)")
_CLOUD = QT_TRANSLATE_NOOP("Plots", "Cloud (rent)")
_BREAKEVEN = QT_TRANSLATE_NOOP("Plots", "Break-even: %1 months")
_NO_BREAKEVEN = QT_TRANSLATE_NOOP("Plots", "No break-even in this period")


def breakeven_point(bvr: Any) -> tuple[float, float] | None:
    """(month, cumulative cost) where owning starts to win, on the plotted curves."""
    if bvr.breakeven_months is None:
        return None
    month = float(bvr.breakeven_months)
    cost = float(np.interp(month, bvr.months, bvr.own_cumulative))
    return month, cost


def buy_vs_rent_plot(rec: Any, profile: Any, lang: str, *,
                     plot: pg.PlotWidget | None = None) -> pg.PlotWidget:
    plot, created = new_plot(plot)
    items = plot.advisor_items
    if created:
        items["own"] = pg.PlotDataItem(pen=pen(BLUE, 2.5))
        items["cloud"] = pg.PlotDataItem(pen=pen(ORANGE, 2.5))
        items["breakeven_line"] = pg.InfiniteLine(angle=90, movable=False,
                                                  pen=pen(GREEN, 1.5, True), label="",
                                                  labelOpts={"position": 0.9, "color": GREEN})
        items["breakeven"] = pg.ScatterPlotItem(size=12, brush=GREEN, pen="w", symbol="o")
        items["note"] = pg.TextItem(color=GREEN, anchor=(0, 0))
        for name in ("own", "cloud", "breakeven_line", "breakeven", "note"):
            plot.addItem(items[name])
    bvr = rec.costs.buy_vs_rent
    months = np.asarray(bvr.months, dtype=float)
    set_curve(items["own"], months, bvr.own_cumulative)
    set_curve(items["cloud"], months, bvr.cloud_cumulative)
    point = breakeven_point(bvr)
    if point is not None:
        month, cost = point
        items["breakeven"].setData([month], [cost])
        items["breakeven_line"].setValue(month)
        set_line_label(items["breakeven_line"], t(lang, _BREAKEVEN).replace("%1", f"{month:.1f}"))
        if items["note"].textItem.toPlainText():
            items["note"].setText("")
    else:
        items["breakeven"].setData([], [])
        if items["note"].textItem.toPlainText() != t(lang, _NO_BREAKEVEN):
            items["note"].setText(t(lang, _NO_BREAKEVEN))
        top = max(max(bvr.own_cumulative, default=0.0), max(bvr.cloud_cumulative, default=0.0))
        items["note"].setPos(float(months.min()) if months.size else 0.0, top)
    items["breakeven_line"].setVisible(point is not None)
    items["breakeven"].setVisible(point is not None)
    plot.enableAutoRange()
    money = currency_label(lang, rec.costs.currency)
    relabel(plot, t(lang, _TITLE).replace("%1", str(bvr.gpus)), t(lang, _X),
            t(lang, _Y).replace("%1", money),
            [("own", t(lang, _OWN)), ("cloud", t(lang, _CLOUD))])
    return plot
