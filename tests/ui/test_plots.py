"""The plot builders the wizard and the PDF report share: data, labels, in-place updates; counts
that cannot run get no time value, best-value marker or "Recommended" marker; a count beyond
the data is noted, not stretched to; a measured profile draws its measured curve and no
better-link curve."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.profile import IntraLink, Profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import ROOT
from tests.support.ui import (
    example,
    not_fitting_below,
    past_the_projection,
    projection_recommend,
    with_costs,
)
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.plots.buy_vs_rent import breakeven_point
from ui.plots.speedup import typical_range_data
from ui.results.better_link import better_link_profile
from ui.window.recompute import better_link_projection


def bridge_card() -> Profile:
    """Eight RTX 3090s on PCIe 4.0: cards with an NVLink bridge connector."""
    return load_profile(ROOT / "tests" / "profiles" / "scaling" / "typical-resnet50-rtx3090.yaml")


def test_speedup_plot_has_band_ideal_typical_range_and_better_link(qtbot):
    profile = bridge_card()
    rec = projection_recommend(profile)
    better, link = better_link_projection(profile, rec.projection.gpus)
    plot = speedup_plot(rec, profile, "en", better=better, better_link=link)
    qtbot.addWidget(plot)
    items = plot.advisor_items
    np.testing.assert_allclose(items["projected"].getData()[1], rec.projection.speedup)
    ideal_x, ideal_y = items["ideal"].getData()
    np.testing.assert_allclose(ideal_x, ideal_y)
    assert ideal_x[-1] == max(rec.projection.gpus) == 8
    xs, ys = items["typical"].getData()
    np.testing.assert_allclose(xs, [4, 4, 8, 8])
    np.testing.assert_allclose(ys, [2.5, 3.5, 4, 6])  # F01
    assert link == "nvlink_bridge"
    better_y = items["better"].getData()[1]
    assert np.all(better_y >= np.asarray(rec.projection.speedup) - 1e-9)  # F25: never slower
    legend = [label.text for _, label in plot.advisor_legend.items]
    assert "Same workload on NVLink bridge" in legend and "Article's typical range (F01)" in legend


def test_builders_update_an_existing_widget_in_place(qtbot):
    small, large = example("small-dataset"), example("large-model")
    plot = speedup_plot(projection_recommend(small), small, "en")
    qtbot.addWidget(plot)
    curve = plot.advisor_items["projected"]
    rec = projection_recommend(large)
    assert speedup_plot(rec, large, "zh", plot=plot) is plot
    assert plot.advisor_items["projected"] is curve
    fit = np.asarray(rec.projection.fits, dtype=bool)
    np.testing.assert_allclose(curve.getData()[0], np.asarray(rec.projection.gpus)[fit])
    assert "预计加速比" in plot.getPlotItem().titleLabel.text
    assert not plot.advisor_items["better"].isVisible()  # no better link given


def test_report_can_ask_the_builder_to_project_the_better_link(qtbot):
    profile = bridge_card()
    plot = speedup_plot(projection_recommend(profile), profile, "en", compute_better=True)
    qtbot.addWidget(plot)
    rec = projection_recommend(profile)
    assert plot.advisor_items["better"].isVisible()
    np.testing.assert_allclose(plot.advisor_items["better"].getData()[0], rec.projection.gpus)


def test_cost_plot_keeps_zero_costs_off_the_log_axis(qtbot):
    profile = example("medium-model")
    rec = projection_recommend(profile)
    plot = cost_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    items = plot.advisor_items
    np.testing.assert_allclose(items["per_run"].getData()[0], rec.costs.gpus)
    assert items["best"].value() == rec.costs.best_value_gpus
    assert "USD" in plot.getPlotItem().getAxis("left").labelText or \
        "CNY" in plot.getPlotItem().getAxis("left").labelText


def test_buy_vs_rent_marks_the_break_even(qtbot):
    profile = example("medium-model")
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
    assert better_link_profile(bridge_card()).hardware.intra_link == IntraLink.nvlink_bridge
    assert better_link_profile(example("medium-model")) is None  # RTX 4090: no NVLink at all
    top = example("large-model")  # NVSwitch inside, InfiniBand HDR between machines
    faster = better_link_profile(top)
    assert faster.hardware.intra_link == IntraLink.nvswitch  # already the top inside
    assert faster.hardware.inter_link.value == "infiniband_ndr"
    hardware = top.hardware.model_copy(update={"inter_link": faster.hardware.inter_link})
    assert better_link_profile(top.model_copy(update={"hardware": hardware})) is None


def test_typical_range_is_the_articles():
    xs, ys = typical_range_data()
    assert list(zip(xs[::2], ys[::2], ys[1::2], strict=True)) == [(4, 2.5, 3.5), (8, 4, 6)]


def test_cost_plot_draws_no_time_value_where_the_model_does_not_fit(qtbot):
    profile = example("medium-model")
    rec = not_fitting_below(projection_recommend(profile), 3)
    plot = cost_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    xs, ys = plot.advisor_items["value_saved"].getData()
    shown = {int(x) for x, y in zip(xs, ys, strict=True) if np.isfinite(y)}
    assert shown and min(shown) >= 3
    assert plot.advisor_items["best"].value() == 3


def test_no_best_value_marker_when_no_count_can_run(qtbot):
    from ui.results.verdict_card import best_value_text

    profile = example("medium-model")
    rec = with_costs(projection_recommend(profile),
                      fits=[False] * len(profile_counts(profile)), best_value_gpus=None)
    plot = cost_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert not plot.advisor_items["best"].isVisible()
    assert not plot.advisor_items["value_saved"].isVisible()
    assert best_value_text(rec.costs) == "—"


def profile_counts(profile):
    return projection_recommend(profile).costs.gpus


@pytest.mark.parametrize(("lang", "one", "none"), [
    ("en", "Buy vs rent, 1 GPU", "Buy vs rent"), ("zh", "自建与租用对比（1 卡）", "自建与租用对比")])
def test_buy_vs_rent_title_counts_properly(qtbot, lang, one, none):
    profile = example("medium-model")
    rec = projection_recommend(profile)
    rec = with_costs(rec, buy_vs_rent=rec.costs.buy_vs_rent.model_copy(update={"gpus": 1}))
    plot = buy_vs_rent_plot(rec, profile, lang)
    qtbot.addWidget(plot)
    assert plot.getPlotItem().titleLabel.text == one
    rec = with_costs(rec, buy_vs_rent=rec.costs.buy_vs_rent.model_copy(
        update={"gpus": 0, "breakeven_months": None}))
    buy_vs_rent_plot(rec, profile, lang, plot=plot)
    assert plot.getPlotItem().titleLabel.text == none


def test_no_better_link_curve_for_a_measured_profile(qtbot):
    profile = example("measured-4gpu")
    assert profile.measured is not None
    rec = recommend(profile)
    assert better_link_projection(profile, rec.projection.gpus) is None
    plot = speedup_plot(rec, profile, "en", compute_better=True)
    qtbot.addWidget(plot)
    assert not plot.advisor_items["better"].isVisible()
    # the wizard's curve is the measured one (advisor.verdict.projection_for)
    from advisor.verdict.projection_for import projection_for

    expected = projection_for(profile, rec.projection.gpus)
    np.testing.assert_allclose(plot.advisor_items["projected"].getData()[1], expected.speedup)


def test_no_recommended_marker_when_nothing_can_run(qtbot, cases):
    rec, profile = cases["unrunnable"]
    assert rec.verdict.runnable is False
    plot = speedup_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    assert not plot.advisor_items["chosen"].isVisible()
    # The same widget shows the marker again for a job that runs.
    rec, profile = cases["medium"]
    speedup_plot(rec, profile, "en", plot=plot)
    assert plot.advisor_items["chosen"].isVisible()


def test_speedup_plot_notes_a_count_beyond_the_data(qtbot, medium):
    rec, profile = medium
    plot = speedup_plot(past_the_projection(rec), profile, "en")
    qtbot.addWidget(plot)
    items = plot.advisor_items
    x1 = plot.getPlotItem().getViewBox().viewRange()[0][1]
    assert x1 <= max(8, max(rec.projection.gpus)) + 1  # not stretched to 64
    assert not items["chosen"].isVisible()
    note = items["chosen_note"]
    assert note.isVisible() and "64" in note.textItem.toPlainText()
    # A projected count: the marker again, no note.
    speedup_plot(rec, profile, "en", plot=plot)
    assert items["chosen"].isVisible() and not items["chosen_note"].isVisible()
    assert items["chosen"].value() == rec.verdict.gpus
