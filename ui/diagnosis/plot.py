"""Measured vs fitted vs ideal speed-up, with the refit's 80 % band and Amdahl's law alone.

Like the builders in ``ui.plots``: given ``plot=`` an existing widget it updates the items in
place, and keeps them in ``plot.advisor_items`` so tests and the report can read the data.
Labels come from ``advisor.text.i18n.Text`` (the page is told its language explicitly).
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from advisor.diagnosis.result import Diagnosis
from advisor.text.i18n import Text
from ui.plots.style import (
    BAND,
    BLUE,
    GREY,
    ORANGE,
    RED,
    integer_ticks,
    new_plot,
    pen,
    relabel,
    show_message,
)

LABELS = {
    "title": Text(en="Measured vs fitted speed-up", zh="实测与拟合加速比"),
    "x": Text(en="GPUs", zh="显卡数"),
    "y": Text(en="Speed-up vs one GPU (×)", zh="相对单卡的加速比（倍）"),
    "measured": Text(en="Measured", zh="实测"),
    "fitted": Text(en="Projection refitted", zh="重新拟合的预测"),
    "band_high": Text(en="80 % band", zh="80% 区间"),
    "ideal": Text(en="Ideal (linear)", zh="理想（线性）"),
    "amdahl": Text(en="Amdahl's law alone (F03)", zh="仅阿姆达尔定律（F03）"),
    # Before any data: a sentence, not empty axes with fractional GPU counts.
    "empty": Text(en="No measurements yet: enter or import measured throughputs to see them "
                     "against the projection here.",
                  zh="还没有实测数据：输入或导入实测吞吐量后，可在此与预测对比。"),
}
# The band's legend sample is its upper edge: a FillBetweenItem in a legend crashes pyqtgraph.
_ORDER = ("measured", "fitted", "band_high", "amdahl", "ideal")


def diagnosis_plot(d: Diagnosis | None, lang: str,
                   plot: pg.PlotWidget | None = None) -> pg.PlotWidget:
    """Without a diagnosis the plot stays empty: its items are hidden, never given empty data
    (painting a FillBetweenItem between empty curves crashes pyqtgraph)."""
    plot, created = new_plot(plot)
    items = plot.advisor_items
    if d is None:
        for item in items.values():
            item.setVisible(False)
        relabel(plot, LABELS["title"].get(lang), LABELS["x"].get(lang), LABELS["y"].get(lang),
                [])
        show_message(plot, LABELS["empty"].get(lang))  # after relabel, which shows the axes
        return plot
    if created:
        items["band_low"] = pg.PlotDataItem(pen=pen(BLUE, 0.5))
        items["band_high"] = pg.PlotDataItem(pen=pen(BLUE, 0.5))
        items["band"] = pg.FillBetweenItem(items["band_low"], items["band_high"], brush=BAND)
        items["ideal"] = pg.PlotDataItem(pen=pen(GREY, 1.5, dashed=True))
        items["amdahl"] = pg.PlotDataItem(pen=pen(ORANGE, 1.5, dashed=True))
        items["fitted"] = pg.PlotDataItem(pen=pen(BLUE, 2.5))
        items["measured"] = pg.PlotDataItem(pen=None, symbol="o", symbolBrush=RED,
                                            symbolPen="w", symbolSize=10)
        for name in ("band_low", "band_high", "band", "ideal", "amdahl", "fitted", "measured"):
            plot.addItem(items[name])
    show_message(plot, None)
    measured_x = np.asarray(d.measured.gpus, dtype=float)
    items["measured"].setData(measured_x, np.asarray(d.measured.speedup, dtype=float))
    xs = measured_x
    fit = d.fit
    if fit is not None:
        xs = np.asarray(fit.gpus, dtype=float)
        items["fitted"].setData(xs, np.asarray(fit.speedup, dtype=float))
        items["band_low"].setData(xs, np.asarray(fit.speedup_low, dtype=float))
        items["band_high"].setData(xs, np.asarray(fit.speedup_high, dtype=float))
        items["amdahl"].setData(xs, np.asarray(fit.amdahl_speedup, dtype=float))
    for name in ("fitted", "band_low", "band_high", "band", "amdahl"):
        items[name].setVisible(fit is not None)
    for name in ("measured", "ideal"):
        items[name].setVisible(True)
    ideal_x = np.array(sorted({1.0, *xs.tolist()}))
    integer_ticks(plot, ideal_x.tolist())
    # Keep the measured and fitted curves readable: the ideal line stops where it meets the
    # top of the axes (it never runs off them)
    data_top = max(max(d.measured.speedup), max(fit.speedup_high) if fit else 0.0)
    top = min(float(ideal_x[-1]), 1.6 * data_top)
    shown = np.array(sorted({*(x for x in ideal_x.tolist() if x <= top), top}))
    items["ideal"].setData(shown, shown)
    plot.getPlotItem().setYRange(0.0, top, padding=0.05)
    # Explicit, not auto: every count measured or fitted, whatever range was shown before.
    plot.getPlotItem().setXRange(float(ideal_x[0]) - 0.5, float(ideal_x[-1]) + 0.5, padding=0)
    relabel(plot, LABELS["title"].get(lang), LABELS["x"].get(lang), LABELS["y"].get(lang),
            [(name, LABELS[name].get(lang)) for name in _ORDER])
    return plot
