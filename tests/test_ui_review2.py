"""Second review's wizard and plot defects (#1, #3, #9, #11, #12, #14): each test failed before
its fix."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from tests.support.ui import EXAMPLES, make_window, projection_recommend, wait_results
from ui.plots import buy_vs_rent_plot, cost_plot, speedup_plot
from ui.window.recompute import Results, better_link_projection


def _example(fragment):
    return load_profile(next(p for p in EXAMPLES if fragment in p.stem))


def _with_costs(rec, **update):
    return rec.model_copy(update={"costs": rec.costs.model_copy(update=update)})


def _not_fitting_below(rec, first_fitting: int):
    """The recommendation as if the model fitted only from ``first_fitting`` GPUs on."""
    fits = [n >= first_fitting for n in rec.costs.gpus]
    return _with_costs(rec, fits=fits, best_value_gpus=None if not any(fits) else
                       next(n for n, f in zip(rec.costs.gpus, fits, strict=True) if f))


# -- #1: counts that cannot run have no time value, best value or break-even -----------------
def test_cost_plot_draws_no_time_value_where_the_model_does_not_fit(qtbot):
    profile = _example("medium-model")
    rec = _not_fitting_below(projection_recommend(profile), 3)
    plot = cost_plot(rec, profile, "en")
    qtbot.addWidget(plot)
    xs, ys = plot.advisor_items["value_saved"].getData()
    shown = {int(x) for x, y in zip(xs, ys, strict=True) if np.isfinite(y)}
    assert shown and min(shown) >= 3
    assert plot.advisor_items["best"].value() == 3


def test_no_best_value_marker_when_no_count_can_run(qtbot):
    from ui.results.verdict_card import best_value_text

    profile = _example("medium-model")
    rec = _with_costs(projection_recommend(profile),
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
    profile = _example("medium-model")
    rec = projection_recommend(profile)
    rec = _with_costs(rec, buy_vs_rent=rec.costs.buy_vs_rent.model_copy(update={"gpus": 1}))
    plot = buy_vs_rent_plot(rec, profile, lang)
    qtbot.addWidget(plot)
    assert plot.getPlotItem().titleLabel.text == one
    rec = _with_costs(rec, buy_vs_rent=rec.costs.buy_vs_rent.model_copy(
        update={"gpus": 0, "breakeven_months": None}))
    buy_vs_rent_plot(rec, profile, lang, plot=plot)
    assert plot.getPlotItem().titleLabel.text == none


def test_report_tables_show_a_dash_where_the_model_does_not_fit():
    from ui.report.cost_section import costs_html
    from ui.report.summary_section import breakeven_text

    profile = _example("medium-model")
    rec = _not_fitting_below(projection_recommend(profile), 3)
    rec = _with_costs(rec, time_saved_value_per_month=[1e6] * len(rec.costs.gpus),
                      net_value_per_month=[9.99e5] * len(rec.costs.gpus))
    html = costs_html(rec, "en", {}, "", False)
    month_table = html.split("Per month")[1]
    rows = month_table.split("<tr")[2:]  # after the header row
    for n, row in zip(rec.costs.gpus, rows, strict=False):
        assert ("999,000" in row) == (n >= 3), (n, row)
    assert "Best value: 3 GPUs." in html
    none = _with_costs(rec, fits=[False] * len(rec.costs.gpus), best_value_gpus=None,
                       buy_vs_rent=rec.costs.buy_vs_rent.model_copy(update={"gpus": 0}))
    assert "no best value" in costs_html(none, "en", {}, "", False)
    assert "nothing to buy or rent" in breakeven_text(none, "en")
    assert "跑不了" in breakeven_text(none, "zh")


# -- #3: the better-link curve only without measurements --------------------------------------
def test_no_better_link_curve_for_a_measured_profile(qtbot):
    profile = _example("measured-4gpu")
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


# -- #12: legends and labels never overlap; log ticks stay readable ---------------------------
def _laid_out(qtbot, plot):
    qtbot.addWidget(plot)
    plot.resize(600, 340)
    plot.show()
    qtbot.waitExposed(plot)
    plot.grab()
    return plot


@pytest.mark.parametrize("builder", [speedup_plot, cost_plot, buy_vs_rent_plot])
def test_legend_sits_outside_the_data_area(qtbot, builder):
    profile = _example("large-model")
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
    profile = _example("large-model")
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


# -- #11: the Why tab in words -----------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_tab_shows_conclusions_and_facts_in_words(qtbot, lang):
    from ui.report.appendix_section import appendix_html
    from ui.results.why_view import trace_html
    window = make_window(qtbot, lang=lang)  # installs the translators
    rec = recommend(_example("medium-model"))
    for html in (trace_html(rec, lang), appendix_html(rec, lang)):
        for raw in ("worth_it", "= True", "=True", "day_value_covers_energy", "rating =",
                    "severity=", "no_nvlink"):
            assert raw not in html, raw
        if lang == "zh":
            assert "划算" in html and "是" in html
    window.hub.set_language("en")


def test_why_tab_marks_an_overridden_rule(qtbot):
    from ui.results.why_view import trace_html

    make_window(qtbot, lang="en")
    rec = recommend(_example("medium-model"))
    lost = [e for e in rec.trace if e.overridden_by]
    if not lost:
        first = rec.trace[0].model_copy(update={"overridden_by": "other.rule"})
        rec = rec.model_copy(update={"trace": [first, *rec.trace[1:]]})
        lost = [first]
    assert f"overridden by {lost[0].overridden_by}" in trace_html(rec, "en")


# -- #14: one GPU reads naturally; the diagnosis page draws at once --------------------------
def _one_gpu(rec):
    verdict = rec.verdict.model_copy(update={"gpus": 1, "parallelism": "data"})
    return rec.model_copy(update={"verdict": verdict})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_gpu_verdict_reads_naturally(qtbot, lang):
    from ui.results.live_preview import LivePreview
    from ui.results.verdict_card import VerdictCard

    window = make_window(qtbot, lang=lang)
    profile = _example("small-dataset")
    rec = _one_gpu(projection_recommend(profile))
    preview = LivePreview()
    qtbot.addWidget(preview)
    preview.show_results(Results(profile, rec), lang)
    text = preview.details.text()
    assert "1.00" not in text and "单卡的" not in text
    card = VerdictCard()
    qtbot.addWidget(card)
    card.show_recommendation(rec, lang)
    assert card.values["parallelism"].text() == "—"
    window.hub.set_language("en")


def test_report_summary_has_no_parallelism_for_one_gpu():
    from datetime import datetime

    from ui.report.summary_section import summary_html

    profile = _example("small-dataset")
    rec = _one_gpu(projection_recommend(profile))
    html = summary_html(rec, profile, "en", datetime(2026, 1, 1))
    row = html.split("Parallelism")[1].split("</tr>")[0]
    assert "—" in row and "data parallel" not in row


def test_diagnosis_page_prefilled_from_the_profile_draws_its_plot_at_once(qtbot):
    window = make_window(qtbot)
    window.document.open_path(next(p for p in EXAMPLES if "measured-4gpu" in p.stem))
    wait_results(qtbot, window)
    window.show()
    window.go_to(len(window.pages) + 1)
    page = window.diagnosis_page
    qtbot.waitUntil(lambda: page.result is not None, timeout=3000)
    xs, ys = page.plot.advisor_items["measured"].getData()
    assert len(xs) >= 2 and page.plot.advisor_items["measured"].isVisible()


# -- #9: the cooling default follows the GPU class ---------------------------------------------
def test_cooling_follows_the_gpu_unless_the_user_chose_it(qtbot):
    window = make_window(qtbot)
    answers = window.answers
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    answers.set("hardware.gpu", "a100_pcie_40gb")  # passive data-centre card
    assert answers.get("hardware.cooling") == "server"
    assert hardware.editors["hardware.cooling"].value() == "server"
    answers.set("hardware.gpu", "rtx4090")  # GeForce: open-air fans
    assert answers.get("hardware.cooling") == "open_air"
    answers.set("hardware.cooling", "liquid")
    answers.set("hardware.gpu", "a100_pcie_40gb")
    assert answers.get("hardware.cooling") == "liquid"  # the user's choice stays


def test_report_names_the_real_baseline_of_the_net_value():
    """Review 2 #7 (report part): "net value vs 1 GPU" only when one GPU is the baseline."""
    from datetime import datetime

    from ui.report.cost_section import costs_html
    from ui.report.summary_section import summary_html

    profile = _example("medium-model")
    rec = projection_recommend(profile).model_copy(update={"baseline_gpus": 3})
    for lang, wanted, wrong in (("en", "vs 3 GPUs", "Net value per month vs one GPU"),
                                ("zh", "相对3 卡", "相对单卡的每月净收益")):
        html = summary_html(rec, profile, lang, datetime(2026, 1, 1)) + \
            costs_html(rec, lang, {}, "", False)
        assert html.count(wanted) == 2 and wrong not in html, lang
