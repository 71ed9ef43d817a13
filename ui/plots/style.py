"""Shared look of the plots: readable pens, one legend per plot; white for print (the PDF
report), the palette's base and text on screen (``on_screen``: a dark theme gives dark plots,
issue 34)."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QColor, QPalette

from ui.app.theme import blend, follow_palette, readable
from ui.app.translation import tr_lang

pg.setConfigOptions(antialias=True, background="w", foreground="#222222")

BLUE = "#1f5fbf"
BAND = (31, 95, 191, 50)
GREY = "#888888"
ORANGE = "#e07b00"
GREEN = "#2e8b3e"
RED = "#b3261e"
PURPLE = "#7a3fb0"

LEGEND_COLUMNS = 3
LEGEND_ROW_PX = 26
LEGEND_WIDTH_PX = 540

_CURRENCY = {
    "CNY": QT_TRANSLATE_NOOP("Plots", "CNY"),
    "USD": QT_TRANSLATE_NOOP("Plots", "USD"),
    "EUR": QT_TRANSLATE_NOOP("Plots", "EUR"),
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
        widget.advisor_legend = outside_legend(widget)  # type: ignore[attr-defined]
    return widget, not widget.advisor_items


def on_screen(plot: pg.PlotWidget | None = None) -> pg.PlotWidget:
    """A plot for the window (not for print): its background is the palette's base, its axes,
    titles, legend and notes the palette's text, now and whenever the palette changes."""
    widget = new_plot(plot)[0]
    # what a plot shows is in its tab's words and tables too: Tab passes it by, rather than
    # stopping on a view that shows no focus
    widget.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    follow_palette(widget, apply_palette)
    return widget


def ink(plot: pg.PlotWidget) -> str:
    """The colour of a plot's text: the palette's on screen, the print's dark grey else."""
    color = getattr(plot, "advisor_ink", None)
    return color.name() if color is not None else "#222222"


def quiet_ink(plot: pg.PlotWidget, light: str = "#555555") -> str:
    """Secondary text in a plot (a note, a point's label): ``light`` for print, the
    palette's text moved towards its base on screen (still readable)."""
    color = getattr(plot, "advisor_ink", None)
    if color is None:
        return light
    base = plot.backgroundBrush().color()
    return readable(blend(color, base, 0.35), base).name()


def tinted(plot: pg.PlotWidget, color: str) -> str:
    """A text colour of a plot (a note, a line's label): as given for print, made readable on
    the palette's base on screen (green on a dark plot is lightened)."""
    if getattr(plot, "advisor_ink", None) is None:
        return color
    return readable(color, plot.backgroundBrush().color()).name()


def apply_palette(plot: pg.PlotWidget) -> None:
    """Background, axes, title, legend and note in the plot's palette (``on_screen``)."""
    palette = plot.palette()
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    plot.advisor_ink = QColor(text)  # type: ignore[attr-defined]
    plot.setBackground(base)
    item = plot.getPlotItem()
    for side in ("left", "bottom", "top", "right"):
        axis = item.getAxis(side)
        axis.setPen(text)
        axis.setTextPen(text)
    title = item.titleLabel
    if title.text:
        title.setText(title.text, color=text.name())
    else:
        title.setAttr("color", text.name())
    legend = plot.advisor_legend
    legend.setLabelTextColor(text)
    for _sample, label in legend.items:
        label.setText(label.text)
    note = getattr(plot, "advisor_message", None)
    if note is not None:
        note.setColor(quiet_ink(plot))


def outside_legend(plot: pg.PlotWidget) -> pg.LegendItem:
    """A legend in its own row under the x axis: it never covers a curve, a marker's label
    or a note, whatever corner the data leave free."""
    item = plot.getPlotItem()
    legend = pg.LegendItem(offset=None, colCount=LEGEND_COLUMNS, horSpacing=18,
                           frame=False)
    item.legend = legend  # PlotItem.addLegend would now return this one
    item.layout.addItem(legend, 4, 1)
    item.layout.setRowStretchFactor(4, 0)
    legend.setVisible(False)  # until it has entries
    return legend


def _text_px(text: str) -> int:
    """A generous estimate of a legend entry's width: wide CJK glyphs count double."""
    return 44 + sum(13 if ord(ch) > 0x2E7F else 7 for ch in text)


def legend_columns(texts: list[str], width_px: float) -> int:
    """As many columns (up to three) as fit in ``width_px``: entries fill the rows left to
    right, each column as wide as its widest entry (one long entry does not make every column
    as wide as itself)."""
    for columns in range(LEGEND_COLUMNS, 1, -1):
        widths = [max((_text_px(t) for t in texts[c::columns]), default=0)
                  for c in range(columns)]
        if sum(widths) + 18 * (columns - 1) <= width_px:
            return columns
    return 1


def legend_rows(plot: pg.PlotWidget) -> int:
    """Rows the plot's legend takes (0 when hidden)."""
    legend = plot.advisor_legend
    count = len(legend.items) if legend.isEnabled() else 0
    return -(-count // legend.columnCount) if count else 0


def fit_legend(legend: pg.LegendItem) -> None:
    """Reserve the legend's height in the plot's layout (a layout row does not grow to fit a
    LegendItem by itself)."""
    count = len(legend.items) if legend.isEnabled() else 0  # a hidden legend takes no room
    legend.setVisible(count > 0)
    rows = -(-count // legend.columnCount) if count else 0
    height = rows * LEGEND_ROW_PX + 8 if rows else 0
    legend.setMinimumHeight(height)
    legend.setMaximumHeight(height)


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
        # The report draws plots 600 px wide; the wizard's are wider: plan for the narrower.
        legend_item.setColumnCount(legend_columns([text for _, text in visible],
                                                  LEGEND_WIDTH_PX))
        for name, text in visible:
            legend_item.addItem(plot.advisor_items[name], text)
        fit_legend(legend_item)


def set_curve(item: pg.PlotDataItem, x: Any, y: Any) -> None:
    """New data for a curve, skipped when it is the same (setData re-lays out the item)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    old = getattr(item, "advisor_data", None)
    if old is not None and old[0].shape == x.shape and np.array_equal(old[0], x) \
            and np.array_equal(old[1], y):
        return
    item.advisor_data = (x, y)
    item.setData(x, y)


def set_view(plot: pg.PlotWidget, x_range: tuple[float, float],
             y_range: tuple[float, float]) -> None:
    """Both axes' ranges in one re-layout (two ``setXRange``/``setYRange`` calls re-lay out
    the view, its axes and every curve twice), skipped when unchanged (issue 34: the live
    preview's redraw)."""
    view = plot.getPlotItem().getViewBox()
    wanted = [[float(x_range[0]), float(x_range[1])], [float(y_range[0]), float(y_range[1])]]
    if view.viewRange() == wanted and not any(view.autoRangeEnabled()):
        return
    view.setRange(xRange=wanted[0], yRange=wanted[1], padding=0)


def set_line_label(line: pg.InfiniteLine, text: str) -> None:
    """An InfiniteLine's label, re-laid out only when its text changes."""
    if line.label.format != text:
        line.label.setFormat(text)


# a tick label needs about this share of the axis to itself: "1 2 3 4 5 6 7 8" crammed into
# the first sixteenth of a 1-128 axis touch each other
TICK_SPACING = 0.06


def tick_values(values: list[float]) -> list[float]:
    """The GPU counts labelled on the x axis: every count up to 8 (on an axis up to 16), then
    powers of two and the largest, leaving out those that would sit closer than ``TICK_SPACING`` of the axis to the
    one before (or to the largest, which is always labelled), so no two labels touch."""
    largest = max(values, default=1.0)
    power_of_two = {v for v in values if (int(v) & (int(v) - 1)) == 0}
    # every count up to 8 only on a short axis; on a long one, the powers of two
    candidates = sorted(power_of_two | ({v for v in values if v <= 8} if largest <= 16 else set()))
    gap = TICK_SPACING * max(largest, 1.0)
    shown: list[float] = []
    for value in candidates:
        if value == largest:
            continue
        if (not shown or value - shown[-1] >= gap) and largest - value >= gap:
            shown.append(value)
    return [*shown, largest]


def integer_ticks(plot: pg.PlotWidget, values: list[float]) -> None:
    """GPU counts on the x axis (``tick_values``); the axis is re-laid out only when they
    change."""
    ticks = [[(v, f"{v:g}") for v in tick_values(values)]]
    if getattr(plot, "advisor_ticks", None) != ticks:
        plot.advisor_ticks = ticks  # type: ignore[attr-defined]
        plot.getPlotItem().getAxis("bottom").setTicks(ticks)


def hide_legend(plot: pg.PlotWidget) -> None:
    """No legend at all (a small preview): its row takes no room."""
    legend = plot.advisor_legend
    legend.setEnabled(False)
    fit_legend(legend)


def _money_tick(value: float) -> str:
    """1, 50, 2k, 10k, 1.5M: short enough that a log axis never crowds."""
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return f"{value / limit:g}{suffix}"
    return f"{value:g}"


def log_axis(plot: pg.PlotWidget, values: Any, headroom: float = 0.15) -> None:
    """Readable ticks and the range of a log y axis (pyqtgraph's own minor labels pile up):
    each decade, with 2× and 5× between them when the data span two decades or less, every
    1…9× when they span one or less. The range runs from the tick under the smallest value to
    the tick over the largest, so a tick is always shown, plus ``headroom`` (a fraction of the
    range) on top where the markers' labels sit above the data."""
    data = np.asarray(values, dtype=float)
    data = data[np.isfinite(data) & (data > 0)]
    item = plot.getPlotItem()
    axis = item.getAxis("left")
    if data.size == 0:
        axis.setTicks(None)
        item.enableAutoRange(axis="y")
        return
    low, high = float(np.log10(data.min())), float(np.log10(data.max()))
    span = high - low
    steps = range(1, 10) if span <= 1 else (1, 2, 5) if span <= 2 else (1,)
    positions = [(d + np.log10(m), m * 10.0 ** d) for d in range(int(np.floor(low)),
                                                              int(np.ceil(high)) + 1)
                 for m in steps]
    bottom = max((p for p, _ in positions if p <= low + 1e-9), default=low)
    top = min((p for p, _ in positions if p >= high - 1e-9), default=high)
    shown = [(float(p), _money_tick(v)) for p, v in positions
             if bottom - 1e-9 <= p <= top + 1e-9]
    axis.setTicks([shown, []])
    extent = max(top - bottom, 0.3)
    item.setYRange(bottom - 0.03 * extent, top + headroom * extent, padding=0)


def show_message(plot: pg.PlotWidget, text: str | None) -> None:
    """A centred sentence instead of empty axes (with ``text``), or the axes back (None).

    An empty plot with 0–1 axes reads as data ("0.3 GPUs"); the axes and their grid are hidden
    while the message shows."""
    item = plot.getPlotItem()
    note = getattr(plot, "advisor_message", None)
    if note is None:
        if text is None:
            return
        note = pg.TextItem(color=quiet_ink(plot), anchor=(0.5, 0.5))
        note.setTextWidth(300)  # wraps in the smallest plot (the preview's 300 px)
        item.addItem(note, ignoreBounds=True)
        plot.advisor_message = note  # type: ignore[attr-defined]
    shown = text is not None
    for side in ("left", "bottom"):
        item.showAxis(side, not shown)
    if not shown and note.isVisible():
        # The message pinned both axes to 0–1: give the data their range back, or a plot
        # shown after the message stays squeezed into 0–1 (the diagnosis plot did).
        item.enableAutoRange()
    note.setVisible(shown)
    if shown:
        if note.textItem.toPlainText() != text:  # centred lines, not ragged-left
            note.setHtml(f'<div align="center">{html.escape(text)}</div>')
        item.setXRange(0, 1, padding=0)
        item.setYRange(0, 1, padding=0)
        note.setPos(0.5, 0.5)
