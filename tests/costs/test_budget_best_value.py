"""Review 10 (F7): the costs' best value keeps to the monthly budget where a count does (the
costs page read "Best value: 16 GPUs" at $904 a month under a $500 budget, beside an answer
that kept to it); where none does, the budget is said, not enforced."""

from __future__ import annotations

from advisor.costs import estimate_costs
from tests.support.costs import h100_fsdp, projection_from_hours

_COUNTS, _HOURS = (2, 4, 8, 16), (200.0, 101.0, 51.0, 26.0)


def _report(budget: float | None):
    prof = h100_fsdp(monthly_budget=budget) if budget is not None else h100_fsdp()
    prof = prof.model_copy(update={"training": prof.training.model_copy(
        update={"runs_per_month": 1})})
    return estimate_costs(prof, projection_from_hours(_COUNTS, _HOURS), lang="en")


def test_the_best_value_keeps_to_the_budget_where_a_count_does():
    free = _report(None)
    best = free.best_value_gpus
    month = dict(zip(free.gpus, free.cost_per_month, strict=True))
    cheaper = sorted(n for n in free.gpus if month[n] < month[best])
    assert cheaper, "the unbounded best must not be the cheapest count for this test"
    budget = max(month[n] for n in cheaper) * 1.01  # room for the dearest of the cheaper ones
    bounded = _report(budget)
    assert month[bounded.best_value_gpus] <= budget
    assert bounded.best_value_gpus != best


def test_a_budget_no_count_keeps_leaves_the_best_value_as_it_was():
    free = _report(None)
    tight = _report(min(free.cost_per_month) / 10.0)
    assert tight.best_value_gpus == free.best_value_gpus


def test_rows_that_cannot_happen_as_planned_are_marked_in_both_languages():
    from advisor.costs.text import render_text

    # 10 runs a month: 2 and 4 GPUs (200 h and 101 h a run) cannot do them in 730 hours
    prof = h100_fsdp()
    prof = prof.model_copy(update={"training": prof.training.model_copy(
        update={"runs_per_month": 10})})
    report = estimate_costs(prof, projection_from_hours(_COUNTS, _HOURS), lang="en")
    assert report.keeps_schedule == [False, False, True, True]
    en, zh = render_text(report, "en"), render_text(report, "zh")
    rows = {line.split()[0] for line in en.splitlines() if line[:1].isdigit()}
    assert {"2†", "4†", "8", "16"} <= rows
    assert "† cannot happen as planned" in en and "† 按计划无法实现" in zh
    assert report.best_value_gpus in (8, 16)


def test_a_best_value_among_counts_that_cannot_happen_says_so():
    from advisor.costs.text import render_text

    prof = h100_fsdp()
    prof = prof.model_copy(update={"training": prof.training.model_copy(
        update={"runs_per_month": 40})})  # 40 runs of 26 h or more: no count keeps up
    report = estimate_costs(prof, projection_from_hours(_COUNTS, _HOURS), lang="en")
    assert not any(report.keeps_schedule)
    assert "though no count here can happen as planned (†)" in render_text(report, "en")
    assert "但这里没有任何卡数能按计划实现（†）" in render_text(report, "zh")
