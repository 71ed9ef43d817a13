"""An option's net value never reads as two answers to one question: the comparison's (each
point's, the best net value's answer) is measured against the user's setup at its fewest GPUs
and names it; the option's own verdict (the rules, as ``recommend`` gives them on the
option's profile) is measured against one GPU of that option and names that. Read with what
each names, both numbers follow from the same table's hours and costs, in both languages."""

from __future__ import annotations

import re

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.compare import compare
from advisor.costs.breakeven import HOURS_PER_MONTH
from advisor.costs.model import time_value_per_month
from advisor.costs.money import symbol
from tests.support.paths import EXAMPLES

VERDICT_EN = re.compile(r"(\d+) GPUs give the best net value \(([^\d\s-]+)(-?[\d,]+) a month "
                        r"over (one GPU of this setup|the fewest GPUs of this setup that can do "
                        r"the month's runs)\)")
VERDICT_ZH = re.compile(r"(\d+) 卡的净收益最高（相对(本配置单卡|本配置能做完每月训练的最少卡数)，"
                        r"每月 ([^\d\s-]+)(-?[\d,]+)）")
ANSWER_EN = re.compile(r"the best net value \((-?[^ ]+) a month over (.+) at (\d+) GPUs?: ")
ANSWER_ZH = re.compile(r"净收益最高（相对(.+)的(单卡|\d+ 卡)，每月 (-?[^：]+)：")


def _net(runs: float, per_day: float, base, point) -> float:
    """The net value a month of ``point`` over ``base``, from the table's own figures (F02)."""
    return time_value_per_month(runs, base.run_hours, point.run_hours, per_day) - \
        (point.cost_per_month - base.cost_per_month)


def _number(text: str) -> float:
    return float(re.sub(r"[^\d.-]", "", text))


@pytest.mark.parametrize("name", ["medium-model-4gpu-worth-it", "product-tuning-revenue-worth-it"])
def test_the_table_and_each_verdict_say_what_their_net_value_is_measured_against(name):
    profile = load_profile(EXAMPLES / f"{name}.yaml")
    result = compare(profile)
    eco = profile.economics
    assert result.currency == eco.currency  # the verdicts' own currency: one money
    runs, per_day = profile.training.runs_per_month, eco.value_per_day
    assert result.baseline is not None
    yours = result.option(result.baseline.option)
    base = result.at(result.baseline)

    # the answer names the baseline, and its number is the point's over that baseline
    answer = result.answer("net_value")
    assert answer is not None and answer.point is not None
    best = result.at(answer.point)
    en, zh = ANSWER_EN.search(answer.why.en), ANSWER_ZH.search(answer.why.zh)
    assert en and zh, answer.why
    assert yours.label.en.lower() == en.group(2).lower() and int(en.group(3)) == base.gpus
    assert zh.group(1) == yours.label.zh and zh.group(2) == ("单卡" if base.gpus == 1
                                                             else f"{base.gpus} 卡")
    assert _number(en.group(1)) == _number(zh.group(3)) == round(best.net_value_per_month)
    assert best.net_value_per_month == pytest.approx(_net(runs, per_day, base, best))

    checked, differ = 0, 0
    for option in result.options:
        v = option.verdict
        assert v is not None
        en, zh = VERDICT_EN.search(v.headline.en), VERDICT_ZH.search(v.headline.zh)
        assert bool(en) == bool(zh), v.headline
        if "net value" in v.headline.en:  # any net value a verdict quotes names its base
            assert en, v.headline.en
        if en is None or option.point(1) is None:
            continue  # (the verdict's base is one of this option's points)
        n, sign, value = int(en.group(1)), en.group(2), _number(en.group(3))
        assert (int(zh.group(1)), zh.group(3), _number(zh.group(4))) == (n, sign, value)
        assert (en.group(4).startswith("one GPU")) == (zh.group(2) == "本配置单卡")
        assert sign == symbol(result.currency).strip()  # money as every line writes it
        point = option.point(n)
        # the verdict's number: this option at n over this option at one GPU, or at its
        # fewest GPUs that do the month's runs (the cost model's baseline), as it names
        own_base = option.point(1) if en.group(4).startswith("one GPU") else min(
            (p for p in option.points if p.fits and p.priced
             and p.run_hours * runs <= HOURS_PER_MONTH), key=lambda p: p.gpus)
        assert abs(_net(runs, per_day, own_base, point) - value) <= 1.0, option.id
        # the table's: the same point over the user's setup at its fewest GPUs
        assert point.net_value_per_month == pytest.approx(_net(runs, per_day, base, point))
        checked += 1
        differ += abs(point.net_value_per_month - value) > 1.0
    assert checked >= 6
    assert differ >= 1  # two measures that differ: why each must say what it is against


# a company's 8 owned A100s and a second server to buy or rent (review 9's persona 4)
OWNER = {
    "schema_version": 1, "task": "llm",
    "model": {"id": "mistral-7b", "sequence_length": 4096},
    "training": {"single_gpu_hours": 300, "batch_per_gpu": 2, "gradient_accumulation_steps": 8,
                 "precision": "bf16", "fine_tuning": True, "method": "full",
                 "parallelism": "fsdp", "activation_checkpointing": "full",
                 "input_pipeline": "tuned", "runs_per_month": 1, "horizon_months": 24},
    "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "nodes": 2,
                 "intra_link": "nvswitch", "inter_link": "infiniband_hdr", "cooling": "server"},
    "economics": {"mode": "compare", "market": "US", "currency": "USD", "owned_gpus": 8,
                  "time_value": "revenue", "value_per_day": 2000},
}


def test_an_owner_s_net_value_is_measured_against_the_gpus_they_own():
    from advisor.catalog.profile_check import expand_profile_data, vet_profile
    from advisor.profile import Profile

    profile = vet_profile(Profile.model_validate(expand_profile_data(OWNER)))
    result = compare(profile)
    assert result.baseline is not None and result.baseline.gpus == 8
    assert result.option(result.baseline.option).kind == "yours"
    answer = result.answer("net_value")
    assert answer is not None and "at 8 GPUs" in answer.why.en


def test_more_machines_rented_in_compare_mode_are_no_purchase_to_the_policy():
    """Twice the machines is priced on the cheaper side of each count in compare mode: a point
    priced as a rental is weighed as one, not as hardware bought."""
    from advisor.catalog.profile_check import expand_profile_data, vet_profile
    from advisor.compare.compare import _policy_candidate
    from advisor.compare.result import PointRef
    from advisor.profile import Profile
    from advisor.verdict.decision import buys_hardware

    comp = compare(vet_profile(Profile.model_validate(expand_profile_data(OWNER))),
                   verdicts=False)
    more = comp.option("more_machines")
    rented = [p for p in more.points if p.fits and p.priced and p.deployment == "cloud"]
    assert rented
    for p in rented:
        c = _policy_candidate(comp.options, PointRef(option=more.id, gpus=p.gpus), p)
        assert c.deployment == "cloud" and not buys_hardware(c)
