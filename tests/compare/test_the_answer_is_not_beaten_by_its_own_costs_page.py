"""The answer is never beaten on both time and cost by a row of its own costs page (review 11,
F3a): a ready setup bought was weighed only at 1, 2 and 4 cards, so "buy the 4 × RTX 3090
workstation" stood beside its costs page's 3 cards, faster and cheaper."""

from advisor.catalog.profile_check import load_profile
from advisor.compare.weighed import recommend
from tests.support.paths import PROFILES

PROFILE = PROFILES / "scaling" / "tensor-parallel-a6000.yaml"


def _beaten_by_a_row(rec) -> list[int]:
    costs = rec.costs
    n = costs.gpus.index(rec.verdict.gpus)
    hours, cost = costs.run_hours[n], costs.cost_per_run[n]
    return [m for i, m in enumerate(costs.gpus)
            if m != rec.verdict.gpus and costs.fits[i]
            and costs.run_hours[i] <= hours and costs.cost_per_run[i] < cost]


def test_a_ready_setup_bought_is_weighed_at_every_count_inside_its_machine():
    rec = recommend(load_profile(PROFILE), lang="en")
    bought = {c.gpus for c in rec.candidates if c.kind == "buy_setup"
              and c.setup == "setup:ws_4x_rtx3090"}
    assert {1, 2, 3, 4} <= bought


def test_the_answer_is_not_beaten_on_time_and_cost_by_its_own_costs_page():
    rec = recommend(load_profile(PROFILE), lang="en")
    assert rec.verdict.gpus in rec.costs.gpus
    assert not _beaten_by_a_row(rec), rec.verdict.headline.en
