"""Setups compared: time per run against cost per month, both on log axes, the Pareto front
drawn through its points, the points labelled (the answers always, then front points
"★ #option · N GPUs" in bold, as the table's "#" column numbers the options, and the others
"#option", where there is room) and every one clickable (its details) with a tooltip.

The same builder draws the wizard's compare page and the PDF's chart. Owned setups are blue
circles, rented ones orange squares; points on the front are large and dark, the others small
and pale (a dominated point is never an answer: ``advisor.compare``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP, QPointF, QRectF
from PySide6.QtGui import QFontMetricsF

from advisor.text.i18n import Text
from ui.plots.style import (
    BLUE,
    GREEN,
    ORANGE,
    RED,
    currency_label,
    ink,
    new_plot,
    pen,
    quiet_ink,
    relabel,
    show_message,
    t,
)

_TITLE = QT_TRANSLATE_NOOP("Plots", "Time per run against cost per month")
_X = QT_TRANSLATE_NOOP("Plots", "Hours per run (log scale)")
_Y = QT_TRANSLATE_NOOP("Plots", "Cost per month (%1, log scale)")
_FRONT = QT_TRANSLATE_NOOP("Plots", "Pareto front")
_OWN = QT_TRANSLATE_NOOP("Plots", "Own")
_RENT = QT_TRANSLATE_NOOP("Plots", "Rent")
_BEATEN = QT_TRANSLATE_NOOP("Plots", "Dominated")
_EMPTY = QT_TRANSLATE_NOOP("Plots", "No setup compared can run this job at a known price.")
_GPUS = QT_TRANSLATE_NOOP("Plots", "%1 GPUs")
# a point's label (issue 34: "16·64" said neither what 16 nor what 64 was): the option's number
# in the table's "#" column and the GPUs; ★: on the Pareto front, as the page's legend says
_FRONT_LABEL = QT_TRANSLATE_NOOP("Plots", "★ #%1 · %2 GPUs")
_FRONT_LABEL_ONE = QT_TRANSLATE_NOOP("Plots", "★ #%1 · 1 GPU")
_LABEL = QT_TRANSLATE_NOOP("Plots", "#%1")
# the y axis's title where the full one does not fit the axis's height (review D7.1: at
# 1024 x 576 "Cost per month (CNY, log scale)" lost its end); its ticks still say the scale
_Y_SHORT = Text(en="Cost a month ({money})", zh="每月费用（{money}）")
PALE = "#b8c4d6"
LABEL_GAP_PX = 2  # the least space between two labels
# where a label may sit around its point, in order (TextItem anchors: (0, 1) above right)
ANCHORS_FRONT = ((0, 1), (0, 0), (1, 1), (1, 0))
ANCHORS_OTHER = ((0, 0), (0, 1), (1, 0), (1, 1))


@dataclass
class LabelPlan:
    """A point's label, placed (or left out) by ``place_labels`` at the plot's size."""

    x: float  # log10 hours
    y: float  # log10 cost a month
    text: str
    front: bool
    answer: bool
    item: Any = None  # its TextItem, made when first placed
PALE_ORANGE = "#f1c9a5"


def numbers(result: Any) -> dict[str, int]:
    return {o.id: i for i, o in enumerate(result.options, start=1)}


def plotted(result: Any) -> list[tuple[str, Any]]:
    """(option id, point) of every point that can run at a known price."""
    return [(o.id, p) for o in result.options for p in o.points if p.fits and p.priced
            and p.run_hours > 0 and p.cost_per_month > 0]


def _decade_ticks(low: float, high: float, label) -> list[tuple[float, str]]:
    span = high - low
    steps = range(1, 10) if span <= 1 else (1, 2, 5) if span <= 2.5 else (1,)
    out = []
    for d in range(math.floor(low), math.ceil(high) + 1):
        for m in steps:
            p = d + math.log10(m)
            if low - 1e-9 <= p <= high + 1e-9:
                out.append((p, label(m * 10.0 ** d)))
    return out


def _hours(value: float) -> str:
    return f"{value:g}"


def _money(value: float) -> str:
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= limit:
            return f"{value / limit:g}{suffix}"
    return f"{value:g}"


def compare_plot(result: Any, lang: str, *, plot: pg.PlotWidget | None = None,
                 selected: tuple[str, int] | None = None, quiet: bool = False) -> pg.PlotWidget:
    """The chart of ``result`` (an ``advisor.compare.Comparison``); ``plot.advisor_points``
    maps each drawn spot to its (option id, GPUs), and ``plot.advisor_clicked`` (a list of
    callbacks) hears a click on one. ``quiet``: only the front's labels (print)."""
    plot, created = new_plot(plot)
    items = plot.advisor_items
    if created:
        items["front"] = pg.PlotDataItem(pen=pen(GREEN, 2, dashed=True))
        items["own"] = pg.ScatterPlotItem(symbol="o", size=11, brush=BLUE, pen=pg.mkPen("w"))
        items["rent"] = pg.ScatterPlotItem(symbol="s", size=10, brush=ORANGE,
                                           pen=pg.mkPen("w"))
        items["beaten"] = pg.ScatterPlotItem(symbol="o", size=7, brush=PALE, pen=None)
        items["selected"] = pg.ScatterPlotItem(symbol="o", size=20, brush=None,
                                               pen=pg.mkPen(RED, width=2.5))
        for name in ("front", "beaten", "own", "rent", "selected"):
            plot.addItem(items[name])
        plot.advisor_labels = []  # type: ignore[attr-defined]
        if not hasattr(plot, "advisor_clicked"):  # the page may have subscribed already
            plot.advisor_clicked = []  # type: ignore[attr-defined]
        plot.advisor_tips = {}  # type: ignore[attr-defined]
        for name in ("own", "rent", "beaten"):
            items[name].opts["hoverable"] = True
            items[name].opts["tip"] = lambda x, y, data, widget=plot: \
                widget.advisor_tips.get(tuple(data), "")
        for name in ("own", "rent", "beaten"):
            items[name].sigClicked.connect(
                lambda _item, spots, *_a, widget=plot: _clicked(widget, spots))
        # labels and the y axis's title fitted again whenever the plot's size changes
        plot.getPlotItem().getViewBox().sigResized.connect(
            lambda _view, widget=plot: fit_to_size(widget))
    points = plotted(result)
    for label in plot.advisor_labels:
        plot.removeItem(label)
    plot.advisor_labels = []
    plot.advisor_label_plan = []  # type: ignore[attr-defined]
    money = currency_label(lang, result.currency)
    plot.advisor_y_labels = (t(lang, _Y).replace("%1", money),  # type: ignore[attr-defined]
                             _Y_SHORT.get(lang).format(money=money), money)
    if not points:
        for name in items:
            items[name].setVisible(False)
        relabel(plot, t(lang, _TITLE), t(lang, _X), t(lang, _Y).replace("%1", money), [])
        show_message(plot, t(lang, _EMPTY))
        fit_to_size(plot)
        return plot
    show_message(plot, None)
    for name in items:
        items[name].setVisible(True)
    number = numbers(result)
    spots: dict[str, list[dict]] = {"own": [], "rent": [], "beaten": []}
    answered = {(a.point.option, a.point.gpus) for a in result.answers if a.point}
    # the answers' labels first (always shown), then the front's, then the others'
    ordered = sorted(points, key=lambda e: ((e[0], e[1].gpus) not in answered,
                                            not e[1].on_front))
    plan = []
    for option_id, p in ordered:
        x, y = math.log10(p.run_hours), math.log10(p.cost_per_month)
        best = p.on_front
        group = ("own" if p.deployment == "own" else "rent") if best else "beaten"
        spots[group].append({"pos": (x, y), "data": (option_id, p.gpus),
                             "tip": _tip(result, option_id, p, lang),
                             "brush": None if best else
                             (PALE if p.deployment == "own" else PALE_ORANGE)})
        answer = (option_id, p.gpus) in answered
        if quiet and not (best or answer):
            continue  # print: the front's and the answers' labels only
        plan.append(LabelPlan(x, y, point_label(number[option_id], p.gpus, best, lang), best,
                              answer))
    plot.advisor_label_plan = plan  # type: ignore[attr-defined]
    for group, data in spots.items():
        items[group].setData([s["pos"][0] for s in data], [s["pos"][1] for s in data],
                             data=[s["data"] for s in data],
                             brush=[s["brush"] or (BLUE if group == "own" else ORANGE)
                                    for s in data])
        plot.advisor_tips.update({s["data"]: s["tip"] for s in data})  # type: ignore
    plot.advisor_points = {s["data"]: s["pos"] for data in spots.values()  # type: ignore
                           for s in data}
    front = sorted((p.run_hours, p.cost_per_month) for _, p in points if p.on_front)
    items["front"].setData([math.log10(h) for h, _ in front],
                           [math.log10(c) for _, c in front])
    mark = plot.advisor_points.get(selected) if selected else None
    items["selected"].setData([mark[0]] if mark else [], [mark[1]] if mark else [])
    xs = np.array([math.log10(p.run_hours) for _, p in points])
    ys = np.array([math.log10(p.cost_per_month) for _, p in points])
    _axes(plot, xs, ys)
    relabel(plot, t(lang, _TITLE), t(lang, _X), t(lang, _Y).replace("%1", money), [
        ("front", t(lang, _FRONT)), ("own", t(lang, _OWN)), ("rent", t(lang, _RENT)),
        ("beaten", t(lang, _BEATEN))])
    fit_to_size(plot)
    return plot


def fit_to_size(plot: pg.PlotWidget) -> None:
    """The labels that fit the plot's size now, and a y axis title as long as fits."""
    place_labels(plot)
    fit_y_title(plot)


def place_labels(plot: pg.PlotWidget) -> None:
    """Each label beside its point where it overlaps no label placed before it, in pixels at
    the plot's size (review D7.1: "★ #15 · 8 GPUs" sat over "#12"). The plan is in priority
    order, the answers' labels first, then the front's, then the others': a label with no
    free place around its point is left out (its tooltip and a click still say what it is),
    except an answer's, drawn where it overlaps least."""
    plan = getattr(plot, "advisor_label_plan", [])
    view = plot.getPlotItem().getViewBox()
    bounds = view.sceneBoundingRect()
    if not plan or bounds.width() < 1 or bounds.height() < 1:
        return
    taken: list[QRectF] = []
    for entry in plan:
        label = entry.item if entry.item is not None else _make_label(plot, entry)
        # the text's own box: the item's less the document's margin, which may overlap
        margin = label.textItem.document().documentMargin() - 1
        size = label.textItem.boundingRect().adjusted(margin, margin, -margin, -margin)
        at = view.mapViewToScene(QPointF(entry.x, entry.y))
        boxes = [QRectF(at.x() - ax * size.width(), at.y() - ay * size.height(),
                        size.width(), size.height())
                 for ax, ay in (ANCHORS_FRONT if entry.front else ANCHORS_OTHER)]
        # beside the point, else moved just inside the plot (a point at its edge)
        tries = [box for box in boxes if bounds.contains(box)] + \
            [_inside(box, bounds) for box in boxes]
        choice = next((box for box in tries
                       if not any(box.intersects(other) for other in taken)), None)
        if choice is None and entry.answer:  # an answer is always labelled
            choice = min(tries, key=lambda box: sum(box.intersects(o) for o in taken))
        label.setVisible(choice is not None)
        if choice is None:
            continue
        taken.append(choice.adjusted(-LABEL_GAP_PX, -LABEL_GAP_PX, LABEL_GAP_PX,
                                     LABEL_GAP_PX))
        if tuple(label.anchor) != (0, 0):
            label.setAnchor((0, 0))
        label.setPos(view.mapSceneToView(choice.topLeft() - QPointF(margin, margin)))


def _inside(box: QRectF, bounds: QRectF) -> QRectF:
    """``box`` moved the least that puts it inside ``bounds`` (where it is the smaller)."""
    dx = max(bounds.left() - box.left(), min(0.0, bounds.right() - box.right()))
    dy = max(bounds.top() - box.top(), min(0.0, bounds.bottom() - box.bottom()))
    return box.translated(dx, dy)


def _make_label(plot: pg.PlotWidget, entry: LabelPlan) -> pg.TextItem:
    label = pg.TextItem(entry.text, color=ink(plot) if entry.front
                        else quiet_ink(plot, "#8a93a3"), anchor=(0, 1) if entry.front else (0, 0))
    if entry.front:
        font = label.textItem.font()
        font.setBold(True)
        label.setFont(font)
    label.setPos(entry.x, entry.y)
    plot.addItem(label, ignoreBounds=True)
    plot.advisor_labels.append(label)
    entry.item = label
    return label


def shown_labels(plot: pg.PlotWidget) -> list[pg.TextItem]:
    """The point labels drawn now (those with no room are hidden)."""
    return [label for label in plot.advisor_labels if label.isVisible()]


def fit_y_title(plot: pg.PlotWidget) -> None:
    """The y axis's title, shortened where the full one is longer than the axis is high
    (its end was cut off on a small screen)."""
    titles = getattr(plot, "advisor_y_labels", None)
    if not titles:
        return
    axis = plot.getPlotItem().getAxis("left")
    room = axis.geometry().height()
    if room < 1:
        return
    metrics = QFontMetricsF(axis.label.font())
    title = next((text for text in titles if metrics.horizontalAdvance(text) + 8 <= room),
                 titles[-1])
    if axis.labelText != title:
        plot.getPlotItem().setLabel("left", title)


def point_label(number: int, gpus: int, on_front: bool, lang: str) -> str:
    """A point's label: "★ #3 · 64 GPUs" on the front, "#3" elsewhere (its tooltip says
    more)."""
    if not on_front:
        return t(lang, _LABEL).replace("%1", str(number))
    text = t(lang, _FRONT_LABEL_ONE) if gpus == 1 else t(lang, _FRONT_LABEL)
    return text.replace("%1", str(number)).replace("%2", str(gpus))


def _tip(result: Any, option_id: str, p: Any, lang: str) -> str:
    """The tooltip: which option, how many GPUs, time and money."""
    from advisor.costs.money import money

    label = result.option(option_id).label.get(lang)
    gpus = t(lang, _GPUS).replace("%1", str(p.gpus))
    return f"{label}\n{gpus} · {p.run_hours:,.1f} h · {money(p.cost_per_month, result.currency)}"


def _axes(plot: pg.PlotWidget, xs: np.ndarray, ys: np.ndarray) -> None:
    item = plot.getPlotItem()
    x_low, x_high = float(xs.min()), float(xs.max())
    y_low, y_high = float(ys.min()), float(ys.max())
    x_pad = max(x_high - x_low, 0.3) * 0.08
    y_pad = max(y_high - y_low, 0.3) * 0.08
    # room on the right and at the top for the labels
    item.setXRange(x_low - x_pad, x_high + 3 * x_pad, padding=0)
    item.setYRange(y_low - y_pad, y_high + 2 * y_pad, padding=0)
    item.getAxis("bottom").setTicks([_decade_ticks(x_low - x_pad, x_high + 3 * x_pad,
                                                   _hours), []])
    item.getAxis("left").setTicks([_decade_ticks(y_low - y_pad, y_high + 2 * y_pad,
                                                 _money), []])


def _clicked(plot: pg.PlotWidget, spots: Any) -> None:
    if not len(spots):
        return
    key = spots[0].data()
    for callback in list(getattr(plot, "advisor_clicked", [])):
        callback(key)
