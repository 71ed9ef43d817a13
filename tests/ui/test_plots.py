"""The plot builders the wizard and the PDF report share: data, labels, in-place updates."""

from __future__ import annotations

import numpy as np

from advisor.catalog.profile_check import load_profile
from advisor.profile import IntraLink
from tests.support.ui import EXAMPLES, projection_recommend
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.plots.buy_vs_rent import breakeven_point
from ui.plots.speedup import typical_range_data
from ui.results.better_link import better_link_profile
from ui.window.recompute import better_link_projection


def _example(fragment):
    return load_profile(next(p for p in EXAMPLES if fragment in p.stem))


def test_speedup_plot_has_band_ideal_typical_range_and_better_link(qtbot):
    profile = _example("medium-model")
    rec = projection_recommend(profile)
    better, link = better_link_projection(profile, rec.projection.gpus)
    plot = speedup_plot(rec, profile, "en", better=better, better_link=link)
    qtbot.addWidget(plot)
    items = plot.advisor_items
    np.testing.assert_allclose(items["projected"].getData()[1], rec.projection.speedup)
    ideal_x, ideal_y = items["ideal"].getData()
    np.testing.assert_allclose(ideal_x, ideal_y)
    assert ideal_x[-1] >= 8
    xs, ys = items["typical"].getData()
    np.testing.assert_allclose(xs, [4, 4, 8, 8])
    np.testing.assert_allclose(ys, [2.5, 3.5, 4, 6])  # F01
    assert link == "nvlink"
    better_y = items["better"].getData()[1]
    assert np.all(better_y >= np.asarray(rec.projection.speedup) - 1e-9)  # F25: never slower
    legend = [label.text for _, label in plot.advisor_legend.items]
    assert "Same workload on NVLink" in legend and "Article's typical range (F01)" in legend


def test_builders_update_an_existing_widget_in_place(qtbot):
    small, large = _example("small-dataset"), _example("large-model")
    plot = speedup_plot(projection_recommend(small), small, "en")
    qtbot.addWidget(plot)
    curve = plot.advisor_items["projected"]
    rec = projection_recommend(large)
    assert speedup_plot(rec, large, "zh", plot=plot) is plot
    assert plot.advisor_items["projected"] is curve
    np.testing.assert_allclose(curve.getData()[0], rec.projection.gpus)
    assert "预计加速比" in plot.getPlotItem().titleLabel.text
    assert not plot.advisor_items["better"].isVisible()  # no better link given


def test_report_can_ask_the_builder_to_project_the_better_link(qtbot):
    profile = _example("medium-model")
    plot = speedup_plot(projection_recommend(profile), profile, "en", compute_better=True)
    qtbot.addWidget(plot)
    rec = projection_recommend(profile)
    assert plot.advisor_items["better"].isVisible()
    np.testing.assert_allclose(plot.advisor_items["better"].getData()[0], rec.projection.gpus)


def test_cost_plot_keeps_zero_costs_off_the_log_axis(qtbot):
    profile = _example("medium-model")
    rec = projection_recommend(profile)
    plot = cost_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    items = plot.advisor_items
    np.testing.assert_allclose(items["per_run"].getData()[0], rec.costs.gpus)
    assert items["best"].value() == rec.costs.best_value_gpus
    assert "USD" in plot.getPlotItem().getAxis("left").labelText or \
        "CNY" in plot.getPlotItem().getAxis("left").labelText


def test_buy_vs_rent_marks_the_break_even(qtbot):
    profile = _example("medium-model")
    rec = projection_recommend(profile)
    plot = buy_vs_rent_plot(rec, profile, "zh")
    qtbot.addWidget(plot)
    bvr = rec.costs.buy_vs_rent
    point = breakeven_point(bvr)
    items = plot.advisor_items
    if point is None:
        assert items["note"].textItem.toPlainText() == "规划周期内不会回本"
        assert not items["breakeven"].isVisible()
    else:
        xs, ys = items["breakeven"].getData()
        assert xs[0] == bvr.breakeven_months
        assert items["breakeven_line"].value() == bvr.breakeven_months
        assert "回本点" in items["breakeven_line"].label.format


def test_better_link_steps_up_and_stops_at_the_top():
    profile = _example("medium-model")
    assert better_link_profile(profile).hardware.intra_link == IntraLink.nvlink
    top = _example("large-model")  # NVSwitch inside, InfiniBand HDR between machines
    faster = better_link_profile(top)
    assert faster.hardware.intra_link == IntraLink.nvswitch
    assert faster.hardware.inter_link.value == "infiniband_ndr"
    hardware = top.hardware.model_copy(update={"inter_link": faster.hardware.inter_link})
    assert better_link_profile(top.model_copy(update={"hardware": hardware})) is None


def test_typical_range_is_the_articles():
    xs, ys = typical_range_data()
    assert list(zip(xs[::2], ys[::2], ys[1::2], strict=True)) == [(4, 2.5, 3.5), (8, 4, 6)]
