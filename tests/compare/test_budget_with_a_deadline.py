"""With a deadline and a monthly budget, the budget is weighed among the setups that meet
the deadline, in recommend and compare alike (a user review: recommend said "no setup
evaluated keeps to it" while compare named "Fastest within the budget: twice the machines …
$256 a month", 40 h a run that misses the 10-day deadline)."""

from __future__ import annotations

from advisor.catalog.profile_check import parse_profile_text
from advisor.compare import compare
from advisor.compare.weighed import recommend

TEXT = """
task: nlp
model: {name: BERT-large, params_millions: 340}
training: {single_gpu_hours: 60, runs_per_week: 3, batch_per_gpu: 32, precision: amp,
           input_pipeline: typical}
hardware: {gpu: rtx4090, gpus_per_node: 1, intra_link: pcie4}
economics: {mode: own, currency: USD, gpu_price: 0, time_value: deadline, value_per_day: 500,
            deadline_days: 10, monthly_budget: 300}
"""


def test_the_budget_is_weighed_among_setups_that_meet_the_deadline_in_both_commands():
    profile = parse_profile_text(TEXT)
    comp = compare(profile, verdicts=False)
    under = [(o.id, p) for o in comp.options for p in o.points
             if p.within_budget and p.fits and p.priced]
    assert under and not any(p.meets_deadline for _, p in under)  # only misses are under it
    budget = comp.answer("budget")
    assert budget.point is None and "meets the 10-day deadline" in budget.why.en
    assert "10 天截止时间" in budget.why.zh
    rec = recommend(profile, lang="en")
    over = next(p for p in rec.pitfalls if p.id == "over_budget")
    assert "no setup evaluated that meets the 10-day deadline keeps to it" in over.title.en
    # without the deadline, a budget that more than one card keeps to names one (the second
    # card is bought at the catalog's price: "gpu_price: 0" owns the first only)
    without = parse_profile_text(TEXT.replace("time_value: deadline", "time_value: revenue")
                                 .replace(" deadline_days: 10,", "")
                                 .replace("monthly_budget: 300", "monthly_budget: 400"))
    assert compare(without, verdicts=False).answer("budget").point is not None
