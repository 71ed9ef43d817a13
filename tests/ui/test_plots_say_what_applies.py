"""The plots draw only what applies to this hardware and say how it relates to the projection
(issue 19, items 2, 4 and 8): a better link these cards can have, counts that do not fit drawn
apart, an axis that ends at the machine's count with the ideal line inside it, the article's
bars only at counts shown, buy vs rent at the verdict's count, and a live plot that uses its
panel."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import PROFILES, ROOT
from tests.support.ui import example, make_window, not_fitting_below, projection_recommend
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.results.better_link import better_link_profile, better_link_text
from ui.window.recompute import better_link_projection


def _profile(name: str) -> Profile:
    return load_profile(PROFILES / "verdict" / f"{name}.yaml")


def _legend(plot) -> list[str]:
    return [label.text for _, label in plot.advisor_legend.items]


@pytest.mark.parametrize("profile", [_profile("resnet-4x-l40s-cloud"), example("medium-model")],
                         ids=["L40S", "RTX 4090"])
def test_no_nvlink_curve_for_cards_without_the_connector(qtbot, profile):
    assert better_link_profile(profile) is None  # PCIe is all these cards have
    rec = projection_recommend(profile)
    plot = speedup_plot(rec, profile, "en", compute_better=True)
    qtbot.addWidget(plot)
    assert not plot.advisor_items["better"].isVisible()
    assert not any("NVLink" in text for text in _legend(plot))


def test_a_bridge_card_on_pcie_is_drawn_on_its_bridge():
    a6000 = _profile("vit-4x-a6000-no-cooling-given")
    found = better_link_projection(a6000, [1, 2, 4])
    assert found is not None and found[1] == "nvlink_bridge"
    assert better_link_text(found[1], "en") == "NVLink bridge"


def test_an_nvswitch_server_gets_only_a_faster_network_named_as_such(qtbot):
    one = _profile("llm8b-8x-h100-nvswitch-usd")
    assert better_link_profile(one) is None  # NVSwitch inside, one machine: nothing better
    two = example("large-model")  # NVSwitch inside, InfiniBand HDR between two machines
    found = better_link_projection(two, [1, 2, 4, 8, 16])
    assert found is not None and found[1] == "infiniband_ndr"
    assert better_link_text(found[1], "en") == "InfiniBand NDR"
    rec = projection_recommend(two)
    plot = speedup_plot(rec, two, "en", better=found[0], better_link=found[1])
    qtbot.addWidget(plot)
    assert "Same workload on InfiniBand NDR" in _legend(plot)
    assert not any(text.endswith("on NVLink") for text in _legend(plot))


def test_counts_that_do_not_fit_are_drawn_apart_in_the_speedup_and_cost_plots(qtbot):
    profile = example("medium-model")
    rec = not_fitting_below(projection_recommend(profile), 3)  # the costs' fits
    fits = [n >= 3 for n in rec.projection.gpus]  # and the projection's
    rec = rec.model_copy(update={"projection": rec.projection.model_copy(update={"fits": fits})})
    speed = speedup_plot(rec, profile, "en")
    cost = cost_plot(rec, profile, "en")
    qtbot.addWidget(speed)
    qtbot.addWidget(cost)
    s, c = speed.advisor_items, cost.advisor_items
    np.testing.assert_allclose(s["projected"].getData()[0], [3, 4])  # the curve: fits only
    np.testing.assert_allclose(s["no_fit"].getData()[0], [1, 2])
    assert s["no_fit"].isVisible() and s["no_fit"].opts["symbol"] == "x"
    assert "Does not fit in memory" in _legend(speed)
    np.testing.assert_allclose(c["per_month"].getData()[0], [3, 4])
    assert sorted(c["no_fit"].getData()[0].tolist()) == [1, 1, 2, 2]  # per run and per month
    assert "Does not fit in memory" in _legend(cost)
    fits = projection_recommend(profile)  # all fit: no crosses, no legend entry
    speedup_plot(fits, profile, "en", plot=speed)
    assert not s["no_fit"].isVisible()
    assert "Does not fit in memory" not in _legend(speed)


def test_counts_at_the_memory_limit_are_ringed_in_the_speedup_plot(qtbot):
    """Issue 31: the chart says what the answer says of the memory near the card's limit."""
    near = _profile("llama8b-qlora-one-3060-nearly-holds")  # one card 3 % short
    rec = recommend(near)
    plot = speedup_plot(rec, near, "en")
    qtbot.addWidget(plot)
    ring = plot.advisor_items["at_limit"]
    assert ring.isVisible() and 1.0 in ring.getData()[0].tolist()
    assert "Memory at the card's limit (may or may not fit)" in _legend(plot)
    zh = speedup_plot(rec, near, "zh")
    qtbot.addWidget(zh)
    assert "显存接近上限（放不放得下都有可能）" in _legend(zh)
    roomy = projection_recommend(example("medium-model"))  # a ResNet with room to spare
    speedup_plot(roomy, example("medium-model"), "en", plot=plot)
    assert not ring.isVisible()
    assert not any("limit" in text for text in _legend(plot))


def test_a_four_gpu_machine_chart_ends_at_four_with_the_ideal_line_inside(qtbot):
    profile = example("medium-model")  # 4 x RTX 4090
    rec = projection_recommend(profile)
    assert max(rec.projection.gpus) == 4
    for compact in (False, True):
        plot = speedup_plot(rec, profile, "en", compact=compact)
        qtbot.addWidget(plot)
        items = plot.advisor_items
        (x_low, x_high), (y_low, y_high) = plot.getPlotItem().viewRange()
        assert x_high < 5  # no jump to 8
        xs, _ = items["typical"].getData()
        assert set(xs.tolist()) == {4.0}  # F01's bar at 4 only, none at 8
        ideal_x, ideal_y = items["ideal"].getData()
        assert ideal_x.max() == 4 and ideal_y.max() <= y_high  # inside the axes
        ticks = plot.getPlotItem().getAxis("bottom")._tickLevels[0]
        assert [value for value, _ in ticks] == [1, 2, 3, 4]


def test_the_ideal_line_stays_inside_for_many_gpus(qtbot):
    profile = example("large-model")
    rec = projection_recommend(profile)
    plot = speedup_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    _, (_, y_high) = plot.getPlotItem().viewRange()
    assert plot.advisor_items["ideal"].getData()[1].max() <= y_high


def test_the_live_plot_uses_its_panel(qtbot):
    """The preview hides its legend: the hidden rows take no height (they took 60 px)."""
    window = make_window(qtbot)
    window.resize(1400, 900)
    window.show()
    from tests.support.ui import wait_results

    wait_results(qtbot, window)
    window.go_to(0)
    preview = window.preview
    qtbot.waitUntil(preview.isVisible)
    legend = preview.plot.advisor_legend
    assert not legend.isVisible() and legend.maximumHeight() == 0
    view = preview.plot.getPlotItem().getViewBox().sceneBoundingRect()
    assert view.height() > 0.5 * preview.plot.height()
    assert preview.plot.width() > 0.6 * preview.width()
    assert "Orange bars" in preview.key.text() and "Green dashed" not in preview.key.text()


def test_buy_vs_rent_compares_the_verdicts_count(qtbot):
    profile = load_profile(ROOT / "examples" / "measured-4gpu-only-1.8x-diagnose.yaml")
    default = recommend(Profile(), lang="en")  # the table's 4 GPUs, the cheapest is 1
    assert default.costs.best_value_gpus != default.verdict.gpus
    for rec, prof in ((default, Profile()), (recommend(profile, lang="en"), profile)):
        assert rec.costs.buy_vs_rent.gpus == rec.verdict.gpus
        plot = buy_vs_rent_plot(rec, prof, "en")
        qtbot.addWidget(plot)
        title = plot.getPlotItem().titleLabel.text
        assert f"{rec.verdict.gpus} GPU" in title
