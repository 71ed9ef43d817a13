"""A break-even no month reaches (owning wins only above the 730 hours a month has) means owning
never pays: no text quotes such a break-even, the rules say rent, and this computed figure beats
the article's "either, between 50 and 200 hours a month" (F31)."""

from __future__ import annotations

import re

from advisor.costs.result import BuyVsRent
from advisor.verdict.facts import owning_never_pays
from tests.support.paths import EXAMPLES
from tests.support.verdict import fired, pitfall, rec_of, user_texts


def test_no_break_even_above_a_month_is_quoted(recs):
    for name, rec in recs.items():
        for text in user_texts(rec):
            for hours in re.findall(r"above ([\d,]+) hours a month", text.en):
                assert float(hours.replace(",", "")) <= 730, (name, text.en)


def _costs_with(hours: float | None, **kw):
    rec = rec_of(EXAMPLES / "medium-model-4gpu-worth-it.yaml")
    bvr = BuyVsRent.model_validate({**rec.costs.buy_vs_rent.model_dump(),
                                    "breakeven_hours_per_month": hours})
    return rec.costs.model_copy(update={"buy_vs_rent": bvr, **kw})


def test_owning_never_pays_whether_costs_cap_the_hours_or_not():
    assert owning_never_pays(_costs_with(1091.0))  # an older cost model
    assert owning_never_pays(_costs_with(None))  # the cost model's None above 730 h
    assert not owning_never_pays(_costs_with(400.0))
    assert not owning_never_pays(_costs_with(None, own_priced=False))


def test_rent_rule_says_never_pays_off(recs):
    rec = recs["starved-pipeline-rtx4090"]
    if rec.costs.buy_vs_rent.breakeven_hours_per_month is None:
        fired = {t.rule: t for t in rec.trace}
        assert "economics.owning_never_pays" in fired
        assert "never pays off" in fired["economics.owning_never_pays"].message.en
        assert rec.verdict.deployment == "cloud"


def test_owning_that_never_pays_means_renting_not_either():
    # the rules on the user's own setup (the weighed answer rents the same cards at the
    # cheapest offer, for less: decision.same_cards_rented_for_less)
    from tests.support.paths import PROFILES
    from tests.support.verdict import on_own_setups

    r = on_own_setups(PROFILES / "rules" / "llama13b-h100-compare-owning-never-pays.yaml")
    assert r.verdict.deployment == "cloud"
    assert "economics.either_between" not in fired(r)
    winner = next(t for t in r.trace if t.rule == "economics.owning_never_pays")
    assert "deployment" in winner.decided and winner.overridden_by is None
    assert "own or rent" not in r.verdict.headline.en
    # owned-hardware pitfalls follow the deployment: no power supply to buy for a rental
    assert pitfall(r, "psu_capacity") is None


def test_cards_already_owned_are_used_not_weighed_against_renting():
    """Review 3 (p8): two RTX 4090 owned, compare mode, about 95 h a month. The article's
    50-200 h band said "own or rent, costs about the same" and a pitfall said to rent rather
    than buy, where every rental costs 1.6-2.8 times the owned cards' electricity."""
    from advisor.catalog.profile_check import load_profile
    from advisor.compare.weighed import recommend as weighed
    from advisor.verdict.recommendation import recommend
    from tests.support.paths import PROFILES

    profile = load_profile(PROFILES / "verdict" / "owns-2x4090-compare-mode.yaml")
    # beside the setups the comparison evaluates, 4 cards rented in one machine halve the run
    # for ¥2,000 a day: the answer moves there by the user's own value, and says so
    moved = weighed(profile, lang="en")
    assert moved.verdict.deployment == "cloud"
    assert "Chosen over your setup at 2 GPUs" in moved.summary[1].text.en
    assert "a run costs" in moved.summary[1].text.en
    # the rules on the user's own setup: the owned cards are paid for
    rec = recommend(profile, lang="en")
    fired = {t.rule for t in rec.trace}
    assert "economics.owned_cards_are_paid_for" in fired
    assert not fired & {"economics.either_between", "economics.rent_below_50_hours",
                        "migration.short_runs_do_not_repay_no_single_gpu"}
    assert rec.verdict.deployment == "own" and rec.summary[0].text.en.endswith("own hardware.")
    assert "自建" in rec.summary[0].text.zh
