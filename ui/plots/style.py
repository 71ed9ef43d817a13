"""Shared look of the plots: white background, readable pens, one legend per plot."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt

from ui.translation import tr_lang

pg.setConfigOptions(antialias=True, background="w", foreground="#222222")

BLUE = "#1f5fbf"
BAND = (31, 95, 191, 50)
GREY = "#888888"
ORANGE = "#e07b00"
GREEN = "#2e8b3e"
RED = "#b3261e"
PURPLE = "#7a3fb0"

_CURRENCY = {
    "CNY": QT_TRANSLATE_NOOP("Plots", "CNY"),
    "USD": QT_TRANSLATE_NOOP("Plots", "USD"),
}


def t(lang: str, text: str) -> str:
    """A plot string (context "Plots") in ``lang``."""
    return tr_lang(lang, "Plots", text)


def currency_label(lang: str, currency: str) -> str:
    source = _CURRENCY.get(currency)
    return t(lang, source) if source else currency


def pen(color: str, width: float = 2.0, dashed: bool = False) -> Any:
    style = Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine
    return pg.mkPen(color=color, width=width, style=style)


def new_plot(plot: pg.PlotWidget | None = None) -> tuple[pg.PlotWidget, bool]:
    """(widget, needs items?) — a white plot with grid and legend, or the one to update."""
    widget = plot if plot is not None else pg.PlotWidget()
    if not hasattr(widget, "advisor_items"):
        widget.setMinimumSize(320, 220)
        widget.showGrid(x=True, y=True, alpha=0.25)
        widget.getPlotItem().setMenuEnabled(False)
        widget.advisor_items = {}  # type: ignore[attr-defined]
        widget.advisor_legend = widget.addLegend(offset=(10, 10))  # type: ignore[attr-defined]
    return widget, not widget.advisor_items


def relabel(plot: pg.PlotWidget, title: str, x_label: str, y_label: str,
            legend: list[tuple[str, str]]) -> None:
    """Titles and the legend in the current language (legend: (item name, shown text)).

    Labels and legends are the costly part of a redraw (each is a rich-text layout), so they
    are rebuilt only when their text or the set of visible curves changed."""
    visible = tuple((name, text) for name, text in legend
                    if name in plot.advisor_items and plot.advisor_items[name].isVisible())
    item = plot.getPlotItem()
    axes = (title, x_label, y_label)
    if getattr(plot, "advisor_axes", None) != axes:
        plot.advisor_axes = axes  # type: ignore[attr-defined]
        item.setTitle(title or None, size="11pt")
        item.setLabel("bottom", x_label)
        item.setLabel("left", y_label)
    if getattr(plot, "advisor_legend_entries", None) != visible:
        plot.advisor_legend_entries = visible  # type: ignore[attr-defined]
        legend_item = plot.advisor_legend
        legend_item.clear()
        for name, text in visible:
            legend_item.addItem(plot.advisor_items[name], text)


def set_curve(item: pg.PlotDataItem, x: Any, y: Any) -> None:
    """New data for a curve, skipped when it is the same (setData re-lays out the item)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    old = getattr(item, "advisor_data", None)
    if old is not None and old[0].shape == x.shape and np.array_equal(old[0], x) \
            and np.array_equal(old[1], y):
        return
    item.advisor_data = (x, y)
    item.setData(x, y)


def set_line_label(line: pg.InfiniteLine, text: str) -> None:
    """An InfiniteLine's label, re-laid out only when its text changes."""
    if line.label.format != text:
        line.label.setFormat(text)


def integer_ticks(plot: pg.PlotWidget, values: list[float]) -> None:
    """GPU counts on the x axis: all of them up to 8, then powers of two and the largest."""
    largest = max(values, default=1.0)
    shown = sorted({v for v in values if v <= 8 or (int(v) & (int(v) - 1)) == 0} | {largest})
    plot.getPlotItem().getAxis("bottom").setTicks([[(v, f"{v:g}") for v in shown]])
