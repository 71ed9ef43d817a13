"""Where a comparison's options come from: the user's setup, more of the same cards, the same
GPUs rented (typical, cheapest, spot, reserved offers of the market), the catalog's ready
setups for the market, the profile's own alternatives (validated like every field, at their
lines), and the extension point for setting changes (issue 17)."""

from __future__ import annotations

import pytest

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import parse_profile_text
from advisor.compare import compare, options_for, register_source, unregister_source
from advisor.compare.options import Context, Option
from advisor.files.errors import InputError
from advisor.text.i18n import Text
from tests.support.compare import SMALL, small_profile

ALTERNATIVES = SMALL + """alternatives:
  - name: two machines
    name_zh: 两台机器
    hardware: {nodes: 2, inter_link: ethernet_25g}
  - name: rent A100s
    hardware: {gpu: a100_sxm4_80gb, gpus_per_node: 8, intra_link: nvswitch}
    economics: {mode: cloud}
"""


def test_default_options_cover_every_source():
    options = options_for(small_profile())
    kinds = {o.kind for o in options}
    assert {"yours", "more", "cloud", "setup"} <= kinds
    assert options[0].id == "yours" and options[0].deployment == "own"
    ids = {o.id for o in options}
    assert {"more_machines", "more_cards", "rent_typical", "rent_on_demand", "rent_spot",
            "setup:ws_4x_rtx4090", "setup:hgx_8x_h100"} <= ids
    # more of the same starts where the user's setup ends (below it, it is the user's again)
    more = next(o for o in options if o.id == "more_cards")
    assert more.min_gpus == 3 and more.profile.hardware.gpus_per_node == 4
    # each option stands on its own: its market and currency are written into it
    assert all(o.profile.economics.market.value == "US" for o in options)
    assert all(o.profile.economics.currency.value == "USD" for o in options)


def test_setups_follow_the_market():
    us = {o.id for o in options_for(small_profile())}
    cn = {o.id for o in options_for(small_profile(market="CN", currency="CNY"))}
    china_only = {f"setup:{s.id}" for s in load_catalog().setups if s.market is not None}
    assert china_only and not china_only & us and china_only <= cn


def test_rented_options_are_priced_at_their_offer():
    catalog = load_catalog()
    options = {o.id: o for o in options_for(small_profile())}
    spot = options["rent_spot"]
    offers = [o for o in catalog.offers_for("rtx4090", "US")
              if o.kind == "spot" and o.market_of == "US"]
    cheapest = min(o.per_gpu_hour for o in offers)
    assert spot.profile.economics.cloud_price_per_gpu_hour == pytest.approx(cheapest)
    assert spot.profile.economics.mode.value == "cloud" and spot.notes


def test_alternatives_are_options_with_their_names_in_both_languages():
    profile = parse_profile_text(ALTERNATIVES)
    result = compare(profile, specs=["4x rtx4090 own"], verdicts=False)
    ids = [o.id for o in result.options]
    assert ids == ["yours", "alt:0", "alt:1", "spec:0"]  # named options: no catalog ones
    two = result.option("alt:0")
    assert two.label.en == "two machines" and two.label.zh == "两台机器"
    assert two.inter_link == "ethernet_25g" and max(p.gpus for p in two.points) == 4
    a100 = result.option("alt:1")
    assert a100.gpu == "a100_sxm4_80gb" and a100.deployment == "cloud"


@pytest.mark.parametrize("text, where, words", [
    ("  - name: x\n    hardware: {nodes: 0}\n", "alternatives[0].hardware.nodes", "≥ 1"),
    ("  - name: x\n    hardware: {gpu: rtx4099}\n", "alternatives[0].hardware.gpu",
     "unknown GPU"),
    ("  - name: x\n    hardware: {nodes: 2}\n", "alternatives[0].hardware", "inter_link"),
    ("  - name: x\n    hardware: {gpu: rtx4090, intra_link: nvswitch}\n",
     "alternatives[0].hardware.intra_link", "nvswitch"),
    ("  - name: x\n    economics: {colour: red}\n", "alternatives[0].economics.colour",
     "unknown key"),
    ("  - hardware: {nodes: 2}\n", "alternatives[0].name", "required"),
])
def test_a_bad_alternative_is_reported_at_its_line(text, where, words):
    with pytest.raises(InputError) as err:
        parse_profile_text(SMALL + "alternatives:\n" + text)
    problem = err.value.problems[0]
    assert problem.path == where, problem
    assert words in problem.message_en and problem.message_zh
    assert problem.line is not None and problem.line > SMALL.count("\n")


def test_setting_changes_plug_in_through_the_extension_point():
    """Issue 17 ("Fine-tuning and setups that fit") is not built; its setting changes will be
    a source of options like any other, registered here."""
    def checkpointing(profile, ctx: Context) -> list[Option]:
        training = profile.training.model_copy(update={"activation_checkpointing": True})
        changed = profile.model_copy(update={"training": training})
        return [Option("change:checkpointing", "change",
                       Text(en="activation checkpointing", zh="激活检查点"), changed, "own")]

    register_source("changes", checkpointing)
    try:
        ids = [o.id for o in options_for(small_profile())]
    finally:
        unregister_source("changes")
    assert "change:checkpointing" in ids
    assert "change:checkpointing" not in [o.id for o in options_for(small_profile())]


OWNS_ONE_4090 = """schema_version: 1
model: {id: llama-3.1-8b, sequence_length: 2048}
training: {single_gpu_hours: 20, precision: bf16, fine_tuning: true, method: lora,
           batch_per_gpu: 4, activation_checkpointing: none}
hardware: {gpu: rtx4090, gpus_per_node: 1, intra_link: pcie4}
economics: {mode: own, currency: USD, owned_gpus: 1}
"""


def test_cards_the_user_owns_are_not_another_kinds():
    """The owner of one RTX 4090 does not own the first GPU of a bought HGX H100 server: that
    setup was priced $3.99 a run at one GPU (electricity only) and became the answer."""
    profile = parse_profile_text(OWNS_ONE_4090)
    options = {o.id: o for o in options_for(profile)}
    h100 = options["setup:hgx_8x_h100"]
    assert not h100.profile.economics.owned_gpus
    assert profile.economics.owned_gpus == 1  # the user's own setup keeps its card
    one = next(p for p in compare(profile).option("setup:hgx_8x_h100").points if p.gpus == 1)
    assert one.deployment == "own" and one.capex > 100_000
    assert one.cost_per_run > 1000  # a whole server bought, its share in each run


def test_the_owner_of_one_card_is_not_told_to_buy_a_server_for_one_gpu():
    """Time worth nothing said: the card the user has, with the setting change that fits it
    (issue 17; review 3: a rented 4 × RTX 4090 at 2.5 times the money was the answer)."""
    from advisor.compare.weighed import recommend

    rec = recommend(parse_profile_text(OWNS_ONE_4090), lang="en")
    headline = rec.verdict.headline.en
    assert "HGX" not in headline
    applied = next(o for o in rec.setups if o.applied)
    assert applied.kind == "setting" and rec.verdict.gpus == 1
    assert rec.costs.deployment[rec.costs.gpus.index(1)] == "own"


def test_the_owner_of_one_card_whose_day_is_worth_much_rents_more_cards():
    """The same job, a day worth 1,000: rented cards beat the card alone in 21 h by the user's
    own criterion (the run's money plus its time), so the answer rents (four 4090s, or larger
    cards where they cost the user less in money and time)."""
    from advisor.compare.weighed import recommend
    from advisor.verdict.decision import chosen, day_value, score

    text = OWNS_ONE_4090.replace("owned_gpus: 1}",
                                 "owned_gpus: 1, time_value: revenue, value_per_day: 1000}")
    rec = recommend(parse_profile_text(text), lang="en")
    assert "HGX" not in rec.verdict.headline.en
    assert rec.summary[0].text.en.startswith("Rent ")
    pick = chosen(rec, rec.candidates)
    assert pick is not None and pick.deployment == "cloud"
    per_day = day_value(rec)
    runnable = [c for c in rec.candidates if c.runnable and c.kind != "method"]
    assert all(score(pick, per_day)[0] <= score(c, per_day)[0] / 0.85 for c in runnable)


def test_one_machine_of_an_infiniband_cluster_is_also_rented_where_single_machines_are():
    """A cluster rented by RDMA-capable offers only: one of its machines, for the counts it
    holds, is rented wherever single machines are, and cheaper (helper review: saying 8
    machines were available made the 8-GPU answer 40 % dearer than saying one)."""
    from advisor.compare.weighed import recommend

    text = """
task: llm
model: {id: llama-3.2-1b, sequence_length: 4096}
training: {dataset_tokens: 1.0e+11, global_batch: 512, batch_per_gpu: 4, precision: bf16,
           runs_per_month: 1}
hardware: {gpu: h100_sxm, gpus_per_node: 8, nodes: 8, intra_link: nvswitch,
           inter_link: infiniband_ndr}
economics: {mode: cloud, market: US, currency: USD, time_value: deadline, deadline_days: 14}
"""
    profile = parse_profile_text(text)
    ids = {o.id: o for o in options_for(profile)}
    one = ids["rent_one_machine"]
    assert one.profile.hardware.nodes == 1 and one.profile.hardware.gpus_per_node == 8
    assert "one machine" in one.label.en and "单台机器" in one.label.zh
    # an offer that rents one card an instance is no such machine (lambda_h100_sxm), one that
    # rents up to 8 is (at one price, the one that also rents fewer: RunPod's, not Lambda's 8x)
    from advisor.catalog import load_catalog

    offer = {o.id: o for o in load_catalog().cloud_offers}[one.notes[0].en.split(":", 1)[0]]
    assert one.max_gpus == 8 and offer.largest_instance >= 8 and "RunPod" in one.label.en
    rec = recommend(profile, lang="en")
    assert rec.verdict.nodes == 1
    single = parse_profile_text(text.replace("nodes: 8,", "nodes: 1,").replace(
        "inter_link: infiniband_ndr", "inter_link: none"))
    alone = recommend(single, lang="en")
    assert rec.costs.cost_per_run[rec.costs.gpus.index(rec.verdict.gpus)] == pytest.approx(
        alone.costs.cost_per_run[alone.costs.gpus.index(alone.verdict.gpus)], rel=0.02)


OWN_FOUR = """
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 24, runs_per_month: 8, batch_per_gpu: 128, precision: amp,
           input_pipeline: tuned, dataloader_workers: 8}
hardware: {gpu: rtx4090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: own, currency: USD, market: US, owned_gpus: 4, time_value: none}
"""


def test_a_ready_setup_of_the_users_own_card_is_bought_whole():
    """Helper review: the owner of four RTX 4090 was told to buy the 4 x RTX 4090 workstation
    at the price of its power (its cards taken as the user's)."""
    from advisor.compare.weighed import recommend

    profile = parse_profile_text(OWN_FOUR)
    ws = next(o for o in options_for(profile) if o.id == "setup:ws_4x_rtx4090")
    assert ws.profile.economics.owned_gpus == 0
    result = compare(profile, verdicts=False)
    bought = next(o for o in result.options if o.id == "setup:ws_4x_rtx4090")
    assert all(p.capex > 0 for p in bought.points)
    rec = recommend(profile, lang="en")
    assert not rec.verdict.headline.en.startswith("Buy")


def test_twice_the_cards_buys_the_larger_machine_when_cards_are_owned():
    """Helper review: with two of four cards owned, 8 x RTX 4090 in one machine left out the
    8-GPU chassis (6 cards only); the user's box holds 4."""
    text = OWN_FOUR.replace("owned_gpus: 4", "owned_gpus: 2").replace("mode: own",
                                                                     "mode: compare")
    result = compare(parse_profile_text(text), verdicts=False)
    more = next(o for o in result.options if o.id == "more_cards")
    eight = next(p for p in more.points if p.gpus == 8)
    catalog = load_catalog()
    cards = 6 * catalog.gpu_price("rtx4090", "USD", "US")  # the six not owned
    machine = catalog.machine_overhead(8, "USD")
    # the six cards and the 8-GPU machine (with the market's tax on purchases)
    assert eight.capex >= cards + machine
