"""Projected speed-up vs GPU count: band, ideal line, the article's typical range, and the
same workload on a better link."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QT_TRANSLATE_NOOP

from advisor.scaling.parameters import load_params
from advisor.verdict.memory_limit import counts_at_limit, estimate_applies
from ui.plots.style import (
    BAND,
    BLUE,
    GREEN,
    GREY,
    ORANGE,
    RED,
    hide_legend,
    integer_ticks,
    new_plot,
    pen,
    relabel,
    set_curve,
    set_line_label,
    set_view,
    t,
    tinted,
)
from ui.results.better_link import better_link_text
from ui.window.recompute import better_link_projection

# F01 (4 GPUs 2.5–3.5×, 8 GPUs 4–6×), the range most setups land in; F04 is inside it.
TYPICAL_RANGE = ((4, 2.5, 3.5), (8, 4.0, 6.0))

_TITLE = QT_TRANSLATE_NOOP("Plots", "Projected speed-up")
_X = QT_TRANSLATE_NOOP("Plots", "GPUs")
_Y = QT_TRANSLATE_NOOP("Plots", "Speed-up vs one GPU (×)")
_Y_SHORT = QT_TRANSLATE_NOOP("Plots", "Speed-up (×)")  # the preview's short axis
_PROJECTED = QT_TRANSLATE_NOOP("Plots", "Projected")
_BAND = QT_TRANSLATE_NOOP("Plots", "Likely range")
_IDEAL = QT_TRANSLATE_NOOP("Plots", "Ideal (linear)")
_TYPICAL = QT_TRANSLATE_NOOP("Plots", "Article's typical range (F01)")
_BETTER = QT_TRANSLATE_NOOP("Plots", "Same workload on %1")
_CHOSEN = QT_TRANSLATE_NOOP("Plots", "Recommended: %1")
_NO_FIT = QT_TRANSLATE_NOOP("Plots", "Does not fit in memory")
# counts whose memory is within the estimate's spread of the card's limit (issue 31)
_AT_LIMIT = QT_TRANSLATE_NOOP("Plots", "Memory at the card's limit (may or may not fit)")
# A count past the projected ones: a note, as a marker there would squash the curves to the left.
_CHOSEN_BEYOND = QT_TRANSLATE_NOOP("Plots", "Recommended: %1 GPUs (beyond this chart)")


def typical_range_data(up_to: float = float("inf")) -> tuple[np.ndarray, np.ndarray]:
    """Vertical bars as pairs of points: x = [4, 4, 8, 8], y = [low, high, low, high]; only the
    bars at counts up to ``up_to`` (the chart's last count: no bar at 8 for a 4-GPU machine)."""
    shown = [(n, low, high) for n, low, high in TYPICAL_RANGE if n <= up_to]
    xs = np.array([n for n, _, _ in shown for _ in (0, 1)], dtype=float)
    ys = np.array([v for _, low, high in shown for v in (low, high)], dtype=float)
    return xs, ys


def split_by_fit(gpus: Any, values: Any, fits: Any) -> tuple[np.ndarray, np.ndarray,
                                                             np.ndarray, np.ndarray]:
    """(x, y) where the model fits and (x, y) where it does not: a count that cannot hold the
    model is not a point of the curve (the CLI marks it; here it is a hollow cross)."""
    x, y = np.asarray(gpus, dtype=float), np.asarray(values, dtype=float)
    ok = np.asarray(fits, dtype=bool) if len(fits) == len(x) else np.ones(len(x), dtype=bool)
    return x[ok], y[ok], x[~ok], y[~ok]


def speedup_plot(rec: Any, profile: Any, lang: str, *, better: Any | None = None,
                 better_link: str | None = None, plot: pg.PlotWidget | None = None,
                 compute_better: bool = False, keep_better: bool = False,
                 compact: bool = False) -> pg.PlotWidget:
    """``better``: the Projection on a faster link (``better_link`` what changed,
    ``ui.results.better_link.better_link_name``); with ``compute_better`` and no ``better``,
    it is projected here (the report does this); ``keep_better`` leaves the current
    better-link curve while a new one is computed; ``compact`` draws no title and no legend
    (a small preview)."""
    if better is None and compute_better:
        found = better_link_projection(profile, list(rec.projection.gpus))
        better, better_link = found if found is not None else (None, None)
    plot, created = new_plot(plot)
    items = plot.advisor_items
    if created:
        items["band_low"] = pg.PlotDataItem(pen=pen(BLUE, 0.5))
        items["band_high"] = pg.PlotDataItem(pen=pen(BLUE, 0.5))
        items["band"] = pg.FillBetweenItem(items["band_low"], items["band_high"], brush=BAND)
        items["ideal"] = pg.PlotDataItem(pen=pen(GREY, 1.5, dashed=True))
        items["typical"] = pg.PlotDataItem(pen=pen(ORANGE, 7), connect="pairs")
        items["better"] = pg.PlotDataItem(pen=pen(GREEN, 2, dashed=True), symbol="t",
                                          symbolBrush=GREEN, symbolPen=None, symbolSize=7)
        items["projected"] = pg.PlotDataItem(pen=pen(BLUE, 2.5), symbol="o", symbolBrush=BLUE,
                                             symbolPen="w", symbolSize=8)
        # counts where the model does not fit: where the curve would be, but not on it
        items["no_fit"] = pg.PlotDataItem(pen=None, symbol="x", symbolBrush=RED,
                                          symbolPen=pg.mkPen(RED, width=1.5), symbolSize=11)
        # ... and counts whose memory is within the estimate's spread of the limit: a ring
        items["at_limit"] = pg.PlotDataItem(pen=None, symbol="o", symbolBrush=None,
                                            symbolPen=pg.mkPen(ORANGE, width=2), symbolSize=18)
        items["chosen"] = pg.InfiniteLine(angle=90, movable=False, pen=pen(GREEN, 1, True),
                                          label="", labelOpts={"position": 0.95,
                                                               "color": tinted(plot, GREEN)})
        items["chosen_note"] = pg.TextItem(color=tinted(plot, GREEN), anchor=(0, 0))
        for name in ("band_low", "band_high", "band", "ideal", "typical", "better",
                     "projected", "no_fit", "at_limit", "chosen"):
            plot.addItem(items[name])
        plot.addItem(items["chosen_note"], ignoreBounds=True)
    projection = rec.projection
    gpus = np.asarray(projection.gpus, dtype=float)
    fits = list(projection.fits)
    x_fit, low_fit, _, _ = split_by_fit(gpus, projection.speedup_low, fits)
    _, high_fit, _, _ = split_by_fit(gpus, projection.speedup_high, fits)
    _, mid_fit, x_out, mid_out = split_by_fit(gpus, projection.speedup, fits)
    set_curve(items["band_low"], x_fit, low_fit)
    set_curve(items["band_high"], x_fit, high_fit)
    set_curve(items["projected"], x_fit, mid_fit)
    set_curve(items["no_fit"], x_out, mid_out)
    items["no_fit"].setVisible(bool(len(x_out)))
    # where the measured spread speaks for the profile (language models, memory estimated)
    limit = counts_at_limit(projection, load_params()) \
        if profile is not None and estimate_applies(profile) else []
    at = {n for n, _, _ in limit}
    x_limit = [float(n) for n in projection.gpus if n in at]
    y_limit = [float(v) for n, v in zip(projection.gpus, projection.speedup, strict=True)
               if n in at]
    set_curve(items["at_limit"], x_limit, y_limit)
    items["at_limit"].setVisible(bool(x_limit))
    # The axis ends at the largest count projected (a 4-GPU machine's chart stops at 4); a
    # verdict beyond it is a note.
    x_max = float(gpus.max())
    beyond = float(rec.verdict.gpus) > x_max
    ideal_x = np.array(sorted({1.0, *gpus.tolist(), x_max}))
    set_curve(items["ideal"], ideal_x, ideal_x)
    typical_x, typical_y = typical_range_data(x_max)
    set_curve(items["typical"], typical_x, typical_y)
    items["typical"].setVisible(bool(len(typical_x)))
    if better is not None:
        bx, by, _, _ = split_by_fit(better.gpus, better.speedup, list(better.fits))
        set_curve(items["better"], bx, by)
        plot.advisor_better_link = better_link  # type: ignore[attr-defined]
    elif keep_better:
        better_link = getattr(plot, "advisor_better_link", None)
    else:
        set_curve(items["better"], [], [])
        plot.advisor_better_link = None  # type: ignore[attr-defined]
    items["better"].setVisible(bool(better is not None or (keep_better and better_link)))
    # No "Recommended: N" when the model fits on no count of this hardware (nothing is).
    runnable = bool(getattr(rec.verdict, "runnable", True))
    items["chosen"].setVisible(runnable and not beyond)
    chosen_x = min(float(rec.verdict.gpus), x_max)
    if items["chosen"].value() != chosen_x:  # moving the line re-lays out its label
        items["chosen"].setValue(chosen_x)
    set_line_label(items["chosen"], t(lang, _CHOSEN).replace("%1", str(rec.verdict.gpus)))
    note = t(lang, _CHOSEN_BEYOND).replace("%1", str(rec.verdict.gpus)) \
        if runnable and beyond else ""
    if items["chosen_note"].textItem.toPlainText() != note:
        items["chosen_note"].setText(note)
    items["chosen_note"].setVisible(bool(note))
    # The label sits in the headroom above the data and the ideal line's end (at most
    # 1/1.4 of the preview's height, 1/1.15 of the full plot's), clear of both and of the
    # preview's top edge.
    position = 0.85 if compact else 0.95
    if items["chosen"].label.orthoPos != position:
        items["chosen"].label.setPosition(position)
    integer_ticks(plot, gpus.tolist())
    # Every line stays inside the axes: the ideal line's end (x_max, x_max), the band, the
    # article's bars drawn, the better link and the counts that do not fit.
    better_y = items["better"].getData()[1] if items["better"].isVisible() else None
    y_max = max(x_max, float(np.max(projection.speedup_high)),
                *(typical_y.tolist() or [0.0]),
                *(np.asarray(better_y).tolist() if better_y is not None else [0.0]))
    y_top = y_max * (1.4 if compact else 1.15)  # the label's headroom
    set_view(plot, (0.5, x_max + 0.5), (0, y_top))
    # Top left: every curve starts at (1, 1) and stays under the ideal line, so the corner
    # is empty (top right is where the ideal and better-link lines end).
    items["chosen_note"].setPos(0.6, y_top * 0.99)
    link_text = better_link_text(better_link, lang)
    if compact:
        hide_legend(plot)
    relabel(plot, "" if compact else t(lang, _TITLE), t(lang, _X),
            t(lang, _Y_SHORT if compact else _Y), [
        ("projected", t(lang, _PROJECTED)),
        ("band_high", t(lang, _BAND)),
        ("no_fit", t(lang, _NO_FIT)),
        ("at_limit", t(lang, _AT_LIMIT)),
        ("ideal", t(lang, _IDEAL)),
        ("typical", t(lang, _TYPICAL)),
        ("better", t(lang, _BETTER).replace("%1", link_text)),
    ])
    return plot
