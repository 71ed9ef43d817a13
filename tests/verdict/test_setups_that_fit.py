"""Setups that fit before machines to buy (issue 17): when a model fits the user's machine
only with another setting, or another method, the recommendation lists those changes with
their time and cost before more machines, and the verdict rests on the best of them; a
setting change that fits here is always listed before more machines (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.verdict.facts import lr_factor
from advisor.verdict.recommendation import recommend
from advisor.verdict.setup_text import setup_line
from tests.support.finetune import fine_tune, on_eight_l40s, on_two_4090s

SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
_LATER = ("rent", "more_machines")


def _owned(profile, cards: int):
    """``profile`` with its cards already owned (issue 29: sunk, only their power counts)."""
    economics = profile.economics.model_copy(update={"owned_gpus": cards})
    return profile.model_copy(update={"economics": economics})


def test_a_7b_full_fine_tune_on_two_4090s_runs_there_with_qlora_or_lora():
    rec = recommend(_owned(on_two_4090s(), 2))
    kinds = [o.kind for o in rec.setups]
    here = [o for o in rec.setups if o.fits_here]
    assert here and {o.id.split("+")[0] for o in here} <= {"lora", "qlora"}
    assert all(o.run_hours > 0 and o.cost_per_run and o.cost_per_run > 0 for o in here)
    applied = next(o for o in rec.setups if o.applied)
    assert applied.kind == "method" and applied is here[0] and applied.gpus <= 2
    label = applied.label.en  # "rent 4 × …" reads as what to do: "Rent 4 × … — …"
    assert rec.verdict.headline.en.startswith((f"With {label}", label[:1].upper() + label[1:]))
    assert rec.verdict.runnable and rec.verdict.gpus <= 2
    assert any(p.id == "setup_change" and p.severity == "critical" for p in rec.pitfalls)
    # renting 80 GB cards keeps full fine-tuning; more machines like these come last
    rent = next(o for o in rec.setups if o.kind == "rent")
    assert "80GB" in rent.label.en and rent.cost_per_run and not rent.fits_here
    assert kinds.index("rent") < kinds.index("more_machines") == len(kinds) - 1
    # offload fits the cards but not the 96 GB of RAM assumed for the machine
    assert any(o.kind == "host_memory" and "offload" in o.id for o in rec.setups)


def test_two_4090s_to_buy_lose_to_rented_80_gb_cards_that_keep_full_fine_tuning():
    """Issue 29: the cards not yet owned, a change of method on two new 4090s costs more a run,
    and takes longer, than the full fine-tune on rented 80 GB cards the advisor lists beside
    it: the answer is the rented cards, never the setup they beat on both."""
    rec = recommend(on_two_4090s())
    applied = next(o for o in rec.setups if o.applied)
    assert applied.kind == "rent" and rec.verdict.deployment == "cloud"
    label = applied.label.en  # "rent 4 × …" reads as what to do: "Rent 4 × … — …"
    assert rec.verdict.headline.en.startswith((f"With {label}", label[:1].upper() + label[1:]))
    method = [o for o in rec.setups if o.kind == "method"]
    assert method and all(o.run_hours > applied.run_hours and o.cost_per_run > applied.cost_per_run
                          for o in method)
    assert "Chosen over" in rec.verdict.headline.en and "选它而不选" in rec.verdict.headline.zh


def test_eight_l40s_are_told_checkpointing_fits_their_own_cards_with_its_time():
    rec = recommend(_owned(on_eight_l40s(), 8))
    applied = next(o for o in rec.setups if o.applied)
    assert applied.id == "checkpointing_full" and applied.fits_here and applied.gpus <= 8
    assert applied.run_hours > 0 and "third more compute" in applied.trade_off.en
    assert rec.verdict.headline.en.startswith("With full activation checkpointing")
    assert rec.verdict.nodes == 1 and rec.verdict.gpus <= 8
    assert "Multi-GPU required: 24" not in rec.verdict.headline.en
    assert any(p.id == "setup_change" and p.severity == "warning" for p in rec.pitfalls)
    # the Chinese headline names the same change
    assert rec.verdict.headline.zh.startswith("采用完整激活重计算")


def test_the_option_the_verdict_rests_on_is_listed_at_the_verdicts_count():
    """F02: the rules may settle on fewer GPUs than the option's fastest useful count (no
    value of time given): the marked line then says the headline's count, time and cost, and
    names the fastest count beside them."""
    rec = recommend(_owned(on_eight_l40s(), 8))
    applied = next(o for o in rec.setups if o.applied)
    n = rec.verdict.gpus
    i = rec.projection.at(n)
    assert applied.gpus == n
    assert applied.run_hours == pytest.approx(rec.projection.run_hours[i])
    assert applied.cost_per_run == pytest.approx(rec.costs.cost_per_run[rec.costs.gpus.index(n)])
    if applied.fastest_gpus is not None:  # the verdict chose fewer: both counts are said
        assert applied.fastest_gpus > n and applied.fastest_run_hours < applied.run_hours
        line = setup_line(applied, "en")
        assert f"{n} GPUs on your machine" in line
        assert f"({applied.fastest_gpus} GPUs: {applied.fastest_run_hours:.1f} h a run)" in line
        assert f"（用 {applied.fastest_gpus} 卡" in setup_line(applied, "zh")
    for o in rec.setups:  # the others stay at their fastest useful count
        assert o.applied or o.fastest_gpus is None


def test_the_setups_are_priced_in_the_currency_and_market_asked_for():
    """``--currency`` / ``--market`` price the list as they price the headline (issue 18)."""
    usd = recommend(on_eight_l40s())
    cny = recommend(on_eight_l40s(), currency="CNY")
    assert {o.currency for o in usd.setups} == {"USD"}
    assert {o.currency for o in cny.setups} == {"CNY"} == {cny.costs.currency}
    applied = next(o for o in cny.setups if o.applied)
    n = cny.verdict.gpus
    assert applied.cost_per_run == pytest.approx(cny.costs.cost_per_run[cny.costs.gpus.index(n)])
    assert [o.id for o in usd.setups] == [o.id for o in cny.setups]
    assert [o.run_hours for o in usd.setups] == [o.run_hours for o in cny.setups]


def test_a_profile_that_fits_well_lists_no_setups():
    rec = recommend(on_eight_l40s(activation_checkpointing="full", parallelism="auto"))
    assert rec.setups == [] and not rec.verdict.headline.en.startswith("With ")


@SETTINGS
@given(st.sampled_from(["rtx_4090", "rtx_3090", "l40s", "a100_pcie_40gb"]),
       st.sampled_from([1, 2, 4, 8]), st.sampled_from([1, 4, 16]),
       st.sampled_from([1024, 4096]), st.sampled_from(["auto", "fsdp", "data"]))
def test_a_setting_change_that_fits_here_is_listed_before_more_machines(gpu, gpus, batch,
                                                                        seq, parallelism):
    profile = fine_tune(gpu, gpus, batch, 2e8, parallelism=parallelism)
    model = profile.model.model_copy(update={"sequence_length": seq})
    rec = recommend(profile.model_copy(update={"model": model}))
    kinds = [o.kind for o in rec.setups]
    for i, option in enumerate(rec.setups):
        if option.fits_here:
            assert all(k not in _LATER for k in kinds[:i]), kinds
    if not any(o.applied for o in rec.setups):  # the verdict rests on the profile as given:
        proj, total = rec.projection, profile.hardware.total_gpus  # it fits here, or nothing does
        own_fit = any(ok for n, ok in zip(proj.gpus, proj.fits, strict=True) if n <= total)
        assert own_fit or not any(o.fits_here for o in rec.setups)


@given(st.integers(1, 100_000))
def test_an_adam_family_learning_rate_factor_never_exceeds_the_square_root(k):
    assert lr_factor("adam", k) <= math.sqrt(k) + 1e-9
    assert lr_factor("sgd", k) == k  # F14's linear rule, for SGD-like training only


@SETTINGS
@given(st.sampled_from([2, 4, 8]), st.sampled_from(["adamw", "adamw_8bit", "auto"]))
def test_the_recommended_adam_learning_rate_stays_within_the_square_root(gpus, optimizer):
    rec = recommend(fine_tune("h100_sxm", gpus, 4, 2e8, optimizer=optimizer))
    facts = next((e.facts for e in rec.trace if "verdict_lr_factor" in e.facts), None)
    replicas = rec.projection.data_parallel[rec.projection.gpus.index(rec.verdict.gpus)] \
        if rec.projection.data_parallel else rec.verdict.gpus
    for pitfall in (p for p in rec.pitfalls if p.id == "lr_scaling"):
        remedy = pitfall.remedy.en.replace("never in epochs", "")
        assert "at most" in pitfall.remedy.en and "epoch" not in remedy
    if facts is not None:
        assert float(facts["verdict_lr_factor"]) <= math.sqrt(replicas) + 1e-9


def test_with_enough_ram_offload_fits_four_24_gb_cards_before_two_machines():
    """The 7B profile that goes to two machines on 64 GB of RAM (test_models_that_do_not_fit):
    with the default RAM (twice the GPUs' memory) the offloaded states fit in host memory, so
    the verdict rests on offload on the 4 cards, slower per run than 8 GPUs but no purchase.
    (Offloading the parameters too is the faster of the two here: with the optimizer alone
    offloaded, DeepSpeed ZeRO-3's 2 GB reduce bucket leaves room for 4 samples per pass, not 8.)"""
    from advisor.catalog.profile_check import load_profile
    from advisor.profile import TimeValue
    from tests.support.paths import ROOT

    profile = load_profile(ROOT / "tests" / "profiles" / "verdict"
                           / "llm-7b-on-4x-rtx4090-checkpointed.yaml")
    hardware = profile.hardware.model_copy(update={"host_memory_gb": None})
    # time without a money value: the answer stays on the user's cards where they can run it
    # (a day worth 3,000, as the profile says, makes renting 8 larger cards pay by the user's
    # own criterion: decision.outscores)
    economics = profile.economics.model_copy(update={"time_value": TimeValue.none})
    rec = recommend(profile.model_copy(update={"hardware": hardware, "economics": economics}))
    applied = next(o for o in rec.setups if o.applied)
    assert applied.id in ("offload_optimizer", "offload_parameters")
    assert applied.gpus == 4 and rec.verdict.nodes == 1
    more = rec.setups[-1]
    assert more.kind == "more_machines" and more.gpus > 4 and more.run_hours < applied.run_hours
    # the measured one-GPU time carries over with offload's cost: slower than as configured
    assert applied.speedup < 4


def test_the_language_never_changes_a_setup_or_its_price():
    """A profile that names no currency is priced in its market's, whatever the language
    (the rented card once followed the language: CNY and China's offers in Chinese)."""
    profile = on_two_4090s()
    economics = profile.economics.model_copy(update={"currency": None})
    profile = profile.model_copy(update={"economics": economics})
    en, zh = (recommend(profile, lang=lang, market="US") for lang in ("en", "zh"))
    assert [o.model_dump() for o in en.setups] == [o.model_dump() for o in zh.setups]
    assert {o.currency for o in en.setups} == {"USD"}


def test_a_comparisons_option_projects_no_offload_the_ram_cannot_hold(monkeypatch):
    """An offload that fits the GPUs but not the machine's RAM is listed (``host_memory``),
    never chosen: a comparison's option (``resting_on(listed=False)``) does not project it,
    and rests on what the listed search rests on."""
    from advisor.catalog.profile_check import load_profile
    from advisor.scaling import layout_projection as layouts
    from advisor.verdict.resting import resting_on
    from advisor.verdict.shared_projections import sharing_projections
    from tests.support.paths import ROOT

    profile = load_profile(ROOT / "tests" / "profiles" / "verdict"
                           / "llm-7b-on-4x-rtx4090-checkpointed.yaml")  # 64 GB of RAM
    listed = resting_on(profile)
    short = {o.id for o in listed.options if o.kind == "host_memory"}
    assert short == {"offload_optimizer", "offload_parameters"}
    projected = []
    real = layouts.layout_projection

    def counted(p, *args):
        projected.append(p.training.offload.value)
        return real(p, *args)

    monkeypatch.setattr(layouts, "layout_projection", counted)  # project() imports it
    with sharing_projections():
        unlisted = resting_on(profile, listed=False)
    assert projected and set(projected) == {"none"}  # the profile as given, no offload
    assert unlisted.projection.model_dump_json() == listed.projection.model_dump_json()
    assert unlisted.larger == listed.larger and unlisted.applied is None is listed.applied


def test_one_owned_card_hears_which_setups_need_cards_bought_and_what_its_card_alone_does():
    """F31, owned hardware: a one-GPU machine is weighed with more of its cards; a setup at
    4 GPUs there buys 3 cards, and the list says so, with the option on the one card the
    user has where it fits there (its time and cost: only power). The card alone is a
    candidate the decision policy weighs, a change of method included."""
    rec = recommend(_owned(fine_tune("rtx_4090", 1, 4, 2e8), 1))
    wider = [o for o in rec.setups if o.fits_here and o.gpus > 1]
    assert wider and all(o.owned_gpus == 1 and o.cards_bought == o.gpus - 1 for o in wider)
    alone = [o for o in wider if o.owned_run_hours is not None]
    assert alone and all(o.owned_cost_per_run < o.cost_per_run for o in alone)
    for o in alone:
        en, zh = setup_line(o, "en"), setup_line(o, "zh")
        # the card sits in a one-GPU machine: the larger one is bought with the cards
        assert o.machine_bought
        assert f"in a new machine with your 1 card and {o.gpus - 1} more cards bought" in en
        assert "on your 1 card alone" in en
        assert f"另买的 {o.gpus - 1} 张" in zh and "只用你已有的 1 张卡" in zh
    change = next(p for p in rec.pitfalls if p.id == "setup_change")  # the card they have
    assert "the GPUs you have (1)" in change.title.en and "现有的 1 张卡" in change.title.zh
    for o in alone:
        one = [c for c in rec.candidates if c.setup == o.id and c.gpus == 1]
        assert one and one[0].run_hours == pytest.approx(o.owned_run_hours)


def test_a_one_gpu_machine_with_nothing_owned_buys_the_larger_machine_whole():
    """A one-GPU machine planned from nothing (its card priced, none owned) is weighed with
    more of its cards: a setup at 4 GPUs buys a new machine and all of its cards. Before,
    the list read "4 GPUs on your machine" for a machine that holds one."""
    rec = recommend(_owned(fine_tune("rtx_4090", 1, 4, 2e8), 0))
    here = [o for o in rec.setups if o.fits_here]
    assert here and all(o.owned_gpus == 0 and o.machine_bought for o in here)
    for o in (o for o in here if o.gpus == 1):  # the one-GPU machine the profile plans
        assert "on your machine" in setup_line(o, "en") and "bought" not in setup_line(o, "en")
    wider = [o for o in here if o.gpus > 1]
    assert wider
    for o in wider:
        en, zh = setup_line(o, "en"), setup_line(o, "zh")
        assert "on your machine" not in en and "在你的机器上" not in zh
        assert f"in a new machine, all {o.gpus} cards bought" in en
        assert f"装进新买的机器，{o.gpus} 张卡都要买" in zh
        assert "your 0 card" not in en and "已有的 0 张" not in zh


def test_a_machine_whose_cards_are_all_owned_buys_none_for_its_setups():
    rec = recommend(_owned(on_eight_l40s(), 8))
    here = [o for o in rec.setups if o.fits_here]
    assert here and all(o.cards_bought == 0 and o.owned_gpus is None for o in here)
    assert all("bought" not in setup_line(o, "en") for o in here)


def test_cards_added_to_a_machine_the_user_has_keep_their_machine():
    """Two of a 4-GPU machine's cards owned: a setup at 4 GPUs buys the other two, in the
    machine the user has (no machine bought)."""
    rec = recommend(_owned(fine_tune("rtx_4090", 4, 4, 2e8), 2))
    wider = [o for o in rec.setups if o.fits_here and o.gpus > 2]
    assert wider and all(o.owned_gpus == 2 and not o.machine_bought for o in wider)
    assert all(f"on your machine with {o.gpus - 2} more card" in setup_line(o, "en")
               for o in wider)


def test_cards_beyond_the_owned_one_priced_on_renting_read_rented_not_on_your_machine():
    """A compare-mode profile owns one RTX 4090 in a one-GPU machine; a setup at 4 GPUs there
    is priced on renting where renting costs less: the list says the cards are rented, never
    "on your machine", which holds one card (a review of the SDXL full fine-tune)."""
    from advisor.catalog.profile_check import load_profile
    from advisor.profile import Profile
    from tests.support.paths import PROFILES

    data = load_profile(PROFILES / "verdict" / "sdxl-full-one-4090-kohya-recipe.yaml") \
        .model_dump(mode="json", exclude_none=True)
    data["economics"].update(time_value="revenue", value_per_day=200)
    rec = recommend(Profile.model_validate(data))
    rented = [o for o in rec.setups if o.fits_here and o.gpus > 1 and o.deployment == "cloud"]
    assert rented
    for o in rented:
        en, zh = setup_line(o, "en"), setup_line(o, "zh")
        assert f"{o.gpus} GPUs rented, cards like yours" in en and "on your machine" not in en
        assert "租用同款卡" in zh and "在你的机器上" not in zh and "bought" not in en
