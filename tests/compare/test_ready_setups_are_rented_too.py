"""The ready setups' cards rented at the market's offers (a user review, 2026-12-08): a cloud
user whose cards could not hold the model was told to buy a server of A100s ($154,829 of
hardware) because the ready setups were weighed bought and never rented; an owner's cards are
not weighed against other cards rented. Rented clusters run on the cluster's own network, and
a card price of 0 (the cards owned) prices the cards added at the catalog's price."""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import load_profile, parse_profile_text
from advisor.compare import compare, options_for
from advisor.compare.option import Context
from advisor.compare.options import more_of_the_same, rented_setups
from advisor.compare.rent import INTERRUPTIBLE, offer_option
from advisor.compare.weighed import recommend
from advisor.costs import estimate_costs
from advisor.profile import Currency, EconomicsMode, InterLink, Market
from advisor.scaling import project
from advisor.verdict.decision import beats, chosen
from tests.support.paths import PROFILES

CLOUD = PROFILES / "compare" / "cloud-3080-cannot-hold-rents-not-buys.yaml"


def _one_owned_4090(mode: str):
    """One RTX 4090, owned by a card price of 0, for a ResNet-50 run of 20 hours."""
    return parse_profile_text(f"""
task: image_classification
model: {{name: ResNet-50, params_millions: 25.6}}
training: {{single_gpu_hours: 20, runs_per_month: 4, batch_per_gpu: 256, precision: amp}}
hardware: {{gpu: rtx4090, gpus_per_node: 1}}
economics: {{mode: {mode}, currency: USD, gpu_price: 0, time_value: none}}
""")


def _own(profile):
    return profile.model_copy(update={"economics": profile.economics.model_copy(
        update={"mode": EconomicsMode.own})})


def test_a_cloud_user_whose_cards_cannot_hold_the_model_rents_the_cards_that_can():
    rec = recommend(load_profile(CLOUD), lang="en")
    assert rec.summary[0].text.en.startswith("Rent 3 × A100 80GB SXM4 (cheapest offer: RunPod")
    assert rec.summary[0].text.zh.startswith("租用 3 × A100 80GB SXM4")
    pick = chosen(rec, rec.candidates)
    assert pick.runnable and pick.deployment == "cloud" and pick.kind == "rent_offer"
    # nothing it weighed, bought or rented, beats it
    assert not any(beats(c, pick) for c in rec.candidates if c.runnable and c is not pick)
    buy = [c for c in rec.candidates if c.kind == "buy_setup" and c.runnable]
    assert buy and all(c.cost_per_run > 2 * pick.cost_per_run for c in buy)


def test_compare_lists_the_ready_setups_rented_and_names_the_answer_as_best_value():
    profile = load_profile(CLOUD)
    comp = compare(profile, verdicts=False)
    rented = [o for o in comp.options if o.id.startswith("rent:")]
    assert {o.gpu for o in rented} >= {"a100_sxm4_80gb", "h100_sxm", "rtx4090"}
    assert all(o.deployment == "cloud" for o in rented)
    assert not any(o.id.rsplit(":", 1)[-1] in INTERRUPTIBLE for o in rented)


def test_an_owner_is_not_weighed_against_other_cards_rented():
    profile = _own(load_profile(CLOUD))
    ctx = Context(load_catalog(), Market.US, Currency.USD)
    assert rented_setups(profile, ctx) == []
    assert not any(o.id.startswith("rent:") for o in options_for(profile))


def test_one_card_is_rented_once_and_a_cluster_only_beyond_one_machine():
    ctx = Context(load_catalog(), Market.US, Currency.USD)
    options = rented_setups(load_profile(CLOUD), ctx)
    setups = {o.id.split(":")[1] for o in options}
    # the two RTX 3090 setups rent as the same instances: the larger one stands for both
    assert "ws_4x_rtx3090" in setups and "ws_2x_rtx3090_nvlink" not in setups
    for o in options:
        if o.profile.hardware.nodes > 1:
            assert ":machines:" in o.id and o.min_gpus > o.profile.hardware.gpus_per_node
            assert o.profile.hardware.inter_link != InterLink.none


def test_a_rented_cluster_runs_on_the_clusters_own_network():
    """A review: sfcompute's InfiniBand cluster was timed over the user's 100 GbE."""
    profile = parse_profile_text("""
task: llm
model: {id: llama-3.1-8b, sequence_length: 4096}
training: {dataset_tokens: 2.0e+10, global_batch: 512, batch_per_gpu: 2, precision: bf16,
           runs_per_month: 1}
hardware: {gpu: h100_sxm, gpus_per_node: 8, nodes: 4, intra_link: nvswitch,
           inter_link: ethernet_100g, cooling: server}
economics: {mode: cloud, market: US, currency: USD, time_value: none}
""")
    catalog = load_catalog()
    offer = next(o for o in catalog.cloud_offers if o.id == "sfcompute_h100_cluster")
    option = offer_option(profile, Context(catalog, Market.US, Currency.USD), offer, "x")
    assert option.profile.hardware.inter_link == offer.inter_link == InterLink.infiniband_ndr
    on_ethernet, on_its_network = (project(p, [32]).run_hours[0]
                                   for p in (profile, option.profile))
    assert on_its_network < on_ethernet


def test_a_card_price_of_zero_owns_the_cards_given_and_buys_the_cards_added():
    """A review: twice the machines of one owned RTX 4090 ("gpu_price: 0") read "2 cards in 2
    machines, sunk", $5.89 a run."""
    profile = _one_owned_4090("own")
    ctx = Context(load_catalog(), Market.US, Currency.USD)
    twice = next(o for o in more_of_the_same(profile, ctx) if o.id == "more_machines")
    assert twice.profile.economics.owned_gpus == 1
    proj = project(twice.profile, [1, 2])
    costs = estimate_costs(twice.profile, proj, lang="en")
    assert costs.owned_gpus == 1 and costs.priced_with["gpu_price"] > 1000  # the catalog's
    one, two = costs.cost_per_run
    assert two > 3 * one  # the second card and machine are bought
    # the profile's own counts beyond its card are priced the same way
    own = estimate_costs(profile, project(profile, [1, 2, 4]), lang="en")
    assert own.owned_gpus == 1 and own.priced_with["gpu_price"] > 1000
    assert own.cost_per_run[2] > 3 * own.cost_per_run[0]


def test_your_setup_in_compare_mode_buys_the_cards_beyond_those_a_price_of_zero_owns():
    """A code review: with mode compare and ``gpu_price: 0``, "your setup" at 2 GPUs put the
    second card at $0 where recommend and "twice the cards" bought it."""
    profile = _one_owned_4090("compare")
    comp = compare(profile, verdicts=False)
    yours, more = comp.option("yours"), comp.option("more_cards")
    assert yours.point(1).capex == 0  # the card given is owned
    assert yours.point(2).capex > 1000  # the second is bought, as twice the cards buys it
    assert yours.point(2).capex == pytest.approx(more.point(2).capex)
