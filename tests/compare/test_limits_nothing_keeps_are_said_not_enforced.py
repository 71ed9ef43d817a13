"""A second user review of the money answers (2026-12-08): a deadline no setup meets switched
the value of time off (the rules' pick stood, half as fast for $57 less a run, a day worth
$5,000) and compare gave no best net value; compare's best net value named a setup over a
budget others keep to; with alternatives named, compare left out the answer's own setup; spot
machines were joined into a multi-machine rental."""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile
from advisor.compare.compare import compare
from advisor.compare.option import Context
from advisor.compare.rent import rent_the_same
from advisor.compare.weighed import recommend
from advisor.profile import Currency, Market
from advisor.verdict.decision import chosen
from tests.support.paths import PROFILES

VERDICT = PROFILES / "verdict"


def test_a_deadline_nothing_meets_leaves_the_value_of_a_day_to_choose():
    profile = load_profile(VERDICT / "pretrain7b-deadline-nothing-meets.yaml")
    rec = recommend(profile, lang="en")
    pick = chosen(rec, rec.candidates)
    assert pick is not None and pick.runnable and pick.not_runnable == "deadline"
    assert rec.verdict.gpus == 32  # 6.7 days for $57 more a run than 16 at 13.3 days
    missed = [c for c in rec.candidates if c.not_runnable == "deadline" and c.cost_per_run]
    faster_for_little = [c for c in missed if c.run_hours < pick.run_hours * 0.85
                         and c.cost_per_run <= pick.cost_per_run * 1.01]
    assert not faster_for_little
    comp = compare(profile, verdicts=False, answer=rec)
    best = comp.answer("net_value")
    assert best is not None and best.point is not None and best.point.gpus == 32
    assert comp.answer("deadline").point is None  # and the deadline is said missed


def test_compare_best_net_value_keeps_to_a_budget_some_setup_keeps():
    profile = load_profile(VERDICT / "bert-own-4x3090-budget-binds.yaml")
    comp = compare(profile, verdicts=False, answer=recommend(profile, lang="en"))
    best = comp.answer("net_value")
    assert best is not None and best.point is not None
    assert comp.at(best.point).within_budget is not False
    assert any(p.within_budget is False for o in comp.options for p in o.points)


def test_the_answers_setup_is_compared_beside_the_alternatives_named():
    profile = load_profile(VERDICT / "qlora8b-own-3060-alternative-h100.yaml")
    rec = recommend(profile, lang="en")
    assert rec.summary[0].text.en.startswith("Rent 1 × ")  # a larger card rented
    comp = compare(profile, verdicts=False, answer=rec)
    best = comp.answer("net_value")
    assert best is not None and best.point is not None
    # the answer's setup is listed (an option of its own, or the catalog's rented card it is)
    # and is the best net value
    listed = comp.option(best.point.option)
    applied = next(o for o in rec.setups if o.applied)
    assert best.point.option == "answer" or listed.label.en.split(":")[0].split("× ")[1] in \
        applied.label.en
    assert best.point.gpus == rec.verdict.gpus


def test_spot_machines_are_never_joined_into_a_multi_machine_rental():
    profile = load_profile(VERDICT / "llama8b-full-4x8-4090-10gbe-cloud.yaml")
    catalog = load_catalog()
    spot = {o.id for o in catalog.offers_for("rtx4090", Market.US) if o.kind == "spot"}
    assert spot
    for option in rent_the_same(profile, Context(catalog, Market.US, Currency.USD)):
        if option.profile.hardware.nodes > 1:
            assert not {n.en.split(":", 1)[0] for n in option.notes} & spot, option.id
