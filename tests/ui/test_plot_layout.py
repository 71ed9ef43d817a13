"""Plots stay readable at the size they are shown: legends outside the data area, marker labels
above the curves, few and short log-axis ticks, and room in the compact preview for its marker
label and axis title."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.ui import example, projection_recommend
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot


def _laid_out(qtbot, plot):
    qtbot.addWidget(plot)
    plot.resize(600, 340)
    plot.show()
    qtbot.waitExposed(plot)
    plot.grab()
    return plot


@pytest.mark.parametrize("builder", [speedup_plot, cost_plot, buy_vs_rent_plot])
def test_legend_sits_outside_the_data_area(qtbot, builder):
    profile = example("large-model")
    rec = projection_recommend(profile)
    plot = _laid_out(qtbot, builder(rec, profile, "zh"))
    legend = plot.advisor_legend
    view = plot.getPlotItem().getViewBox().sceneBoundingRect()
    assert legend.isVisible() and legend.items
    assert not legend.sceneBoundingRect().intersects(view)
    for _sample, label in legend.items:  # every entry is inside the widget, none cut off
        rect = label.sceneBoundingRect()
        assert rect.bottom() <= plot.height() and rect.right() <= plot.width() + 1


def test_marker_labels_sit_above_the_curves(qtbot):
    profile = example("large-model")
    rec = projection_recommend(profile)
    plot = _laid_out(qtbot, cost_plot(rec, profile, "en"))
    label = plot.advisor_items["best"].label
    top_of_data = max(np.nanmax(item.getData()[1]) for name, item in plot.advisor_items.items()
                      if name in ("per_run", "per_month", "value_saved") and item.isVisible())
    label_bottom = plot.getPlotItem().getViewBox().mapSceneToView(
        label.sceneBoundingRect().bottomLeft()).y()
    assert label_bottom >= np.log10(top_of_data) - 0.05


@pytest.mark.parametrize("values", [[8e5, 8.6e5, 9e5], [120.0, 45_000.0], [3.0, 2e7]])
def test_log_axis_ticks_are_few_and_readable(qtbot, values):
    import pyqtgraph as pg

    from ui.plots.style import log_axis

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.setLogMode(x=False, y=True)
    log_axis(plot, values)
    ticks = plot.getPlotItem().getAxis("left")._tickLevels
    major, minor = ticks
    assert not minor  # pyqtgraph's own minor labels ("9·10⁵ 8·10⁵ …") never appear
    assert 2 <= len(major) <= 10
    labels = [text for _, text in major]
    assert len(set(labels)) == len(labels) and all(len(text) <= 5 for text in labels)
    low, high = plot.getPlotItem().getViewBox().viewRange()[1]
    positions = [p for p, _ in major]
    assert low <= min(positions) and max(positions) <= high
    assert low <= np.log10(min(values)) and np.log10(max(values)) <= high


def test_preview_plot_leaves_room_for_its_marker_and_axis_title(qtbot, cases):
    rec, profile = cases["medium"]
    plot = speedup_plot(rec, profile, "en", compact=True)
    qtbot.addWidget(plot)
    chosen = plot.advisor_items["chosen"]
    assert chosen.isVisible() and chosen.label.orthoPos <= 0.85  # clear of the top edge
    top = plot.getPlotItem().viewRange()[1][1]
    assert top >= 1.2 * float(np.max(rec.projection.speedup_high))
    assert plot.getPlotItem().getAxis("left").labelText == "Speed-up (×)"
    full = speedup_plot(rec, profile, "en")
    qtbot.addWidget(full)
    assert full.getPlotItem().getAxis("left").labelText == "Speed-up vs one GPU (×)"
