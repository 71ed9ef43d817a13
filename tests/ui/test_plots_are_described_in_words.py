"""Review D6: a screen reader hears what each plot shows, not only its tab's name. The
Speed-up, Cost and Buy-vs-rent plots and the compare chart carry an accessible description in
the UI language with their key numbers, updated with every result; the language changes the
words around the numbers, never a number."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from advisor.compare import compare
from advisor.costs.money import money
from tests.support.ui import with_costs
from ui.compare.page import ComparePage
from ui.results.results_page import ResultsPage


def _results(rec, profile):
    return SimpleNamespace(recommendation=rec, profile=profile, better_link=None,
                           better_link_name=None)


def _page(qtbot, rec, profile, lang="en") -> ResultsPage:
    page = ResultsPage()
    qtbot.addWidget(page)
    page.show_results(_results(rec, profile), lang)
    return page


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d[\d,.]*\d|\d", text)


def test_the_speed_up_plot_says_each_counts_speed_up_band_and_the_recommended_count(
        qtbot, medium):
    rec, profile = medium
    page = _page(qtbot, rec, profile)
    said = page.speedup.accessibleDescription()
    projection = rec.projection
    for n, mid, low, high in zip(projection.gpus, projection.speedup, projection.speedup_low,
                                 projection.speedup_high, strict=True):
        count = "1 GPU" if n == 1 else f"{n} GPUs"
        assert f"{count} {mid:.2f}× (likely {low:.2f}–{high:.2f}×)" in said, said
    assert f"Recommended: {rec.verdict.gpus} GPUs." in said


def test_the_cost_plot_says_the_cost_a_month_at_the_answers_count(qtbot, medium):
    rec, profile = medium
    page = _page(qtbot, rec, profile)
    said = page.cost.accessibleDescription()
    costs = rec.costs
    at = costs.gpus.index(rec.verdict.gpus)
    assert f"Cost at {rec.verdict.gpus} GPUs" in said
    assert money(costs.cost_per_month[at], costs.currency) + " a month" in said
    assert money(costs.cost_per_run[at], costs.currency) + " a run" in said


def test_the_buy_vs_rent_plot_says_the_break_even_month(qtbot, medium):
    rec, profile = medium
    bvr = rec.costs.buy_vs_rent
    assert bvr.breakeven_months is not None
    page = _page(qtbot, rec, profile)
    said = page.buy_vs_rent.accessibleDescription()
    assert f"Break-even at month {bvr.breakeven_months:.1f}" in said
    never = with_costs(rec, buy_vs_rent=bvr.model_copy(update={"breakeven_months": None}))
    page = _page(qtbot, never, profile)
    assert "No break-even in this period." in page.buy_vs_rent.accessibleDescription()


def test_a_plot_that_cannot_be_drawn_says_why(qtbot, cases):
    rec, profile = cases["unrunnable"]
    page = _page(qtbot, rec, profile)
    assert "No GPU count considered can run this job." in page.cost.accessibleDescription()
    assert "does not fit in memory" in page.speedup.accessibleDescription()
    rec, profile = cases["no_price"]
    page = _page(qtbot, rec, profile, "zh")
    assert page.buy_vs_rent.accessibleDescription() == "未比较买与租：缺少价格。"


def test_the_descriptions_follow_each_new_result(qtbot, medium):
    rec, profile = medium
    page = _page(qtbot, rec, profile)
    before = page.cost.accessibleDescription()
    costs = rec.costs
    dearer = with_costs(rec, cost_per_month=[v * 3 for v in costs.cost_per_month])
    page.show_results(_results(dearer, profile), "en")
    after = page.cost.accessibleDescription()
    at = costs.gpus.index(rec.verdict.gpus)
    assert after != before
    assert money(costs.cost_per_month[at] * 3, costs.currency) in after


@pytest.mark.parametrize("plot", ["speedup", "cost", "buy_vs_rent"])
def test_a_plots_description_is_in_the_ui_language_with_the_same_numbers(qtbot, medium, plot):
    rec, profile = medium
    pages = [_page(qtbot, rec, profile, lang) for lang in ("en", "zh")]
    english, chinese = (getattr(page, plot).accessibleDescription() for page in pages)
    assert re.search(r"[\u4e00-\u9fff]", chinese) and not re.search(r"[\u4e00-\u9fff]", english)
    assert _numbers(english) == _numbers(chinese)


@pytest.fixture(scope="module")
def comparison(medium):
    return compare(medium[1])


def _compare_page(qtbot, result, profile, lang="en") -> ComparePage:
    page = ComparePage(run=lambda _profile: result, threaded=False)
    qtbot.addWidget(page)
    page.retranslate(lang)
    page.compare_now(profile)
    qtbot.waitUntil(lambda: page.result is not None)
    return page


def test_the_compare_chart_says_its_front_and_its_answers(qtbot, medium, comparison):
    page = _compare_page(qtbot, comparison, medium[1])
    said = page.plot.accessibleDescription()
    numbers = {o.id: i for i, o in enumerate(comparison.options, start=1)}
    for ref in comparison.front:
        point = comparison.at(ref)
        count = "1 GPU" if ref.gpus == 1 else f"{ref.gpus} GPUs"
        assert (f"#{numbers[ref.option]} at {count}: {point.run_hours:,.1f} h a run, "
                f"{money(point.cost_per_month, comparison.currency)} a month") in said
    titles = {"fastest": "Fastest", "cheapest": "Cheapest a month", "net_value": "Best net value",
              "deadline": "Meets the deadline, cheapest",
              "budget": "Fastest within the monthly budget"}
    for answer in comparison.answers:
        if answer.point is not None:
            count = "1 GPU" if answer.point.gpus == 1 else f"{answer.point.gpus} GPUs"
            assert (f"{titles[answer.key]}: #{numbers[answer.point.option]} at {count}."
                    in said)
    in_chinese = _compare_page(qtbot, comparison, medium[1], "zh")
    chinese = in_chinese.plot.accessibleDescription()
    assert "帕累托前沿" in chinese and _numbers(chinese) == _numbers(said)
