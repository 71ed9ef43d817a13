"""Regressions from the acceptance review (issue 5 fix round): the verdict agrees with the
projection, the cost model and its own headline; no count that does not fit; a break-even no
month reaches; hardware pitfalls only for owned hardware; vGPU; merged remedies said once;
human link labels; a profile's own measurements win over the model.

The profiles under tests/profiles/verdict/ are copies of the reviewer's scratch files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.costs.result import BuyVsRent
from advisor.scaling import project
from advisor.text.i18n import Text
from advisor.verdict.facts import owning_never_pays
from advisor.verdict.recommendation import _joined, recommend
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT

ROOT = ROOT
PROFILES = ROOT / "tests" / "profiles" / "verdict"
EXAMPLES = ROOT / "examples"
MEASURED = EXAMPLES / "measured-4gpu-only-1.8x-diagnose.yaml"
ALL = sorted(PROFILES.glob("*.yaml")) + sorted(EXAMPLES.glob("*.yaml"))


def rec_profile(stem: str):
    return load_profile(PROFILES / f"{stem}.yaml")


def rec_of(path: Path) -> Recommendation:
    return recommend(load_profile(path), lang="en")


@pytest.fixture(scope="module")
def recs() -> dict[str, Recommendation]:
    return {p.stem: rec_of(p) for p in ALL}


def _texts(rec: Recommendation) -> list[Text]:
    out = [rec.verdict.headline]
    for p in rec.pitfalls:
        out += [p.title, p.detail, p.remedy]
    out += [a.text for a in rec.advice]
    out += [t.message for t in rec.trace if t.message]
    return out


# 1. the count respects the projection and the cost model; the headline states that count

def test_starved_pipeline_takes_the_cost_models_count(recs):
    rec = recs["starved-pipeline-rtx4090"]
    v, pr = rec.verdict, rec.projection
    assert v.rating == "worth_it"
    assert v.gpus == rec.costs.best_value_gpus
    i = pr.at(v.gpus)
    assert all(pr.speedup[j] < pr.speedup[i] * 0.98 for j in range(i)), "extra GPUs add nothing"
    assert "rates 4 GPUs the best value" not in v.headline.en
    assert "4 卡最有性价比" not in v.headline.zh


@pytest.mark.parametrize("name", [p.stem for p in ALL])
def test_headline_states_the_verdicts_count(recs, name):
    v = recs[name].verdict
    if not v.runnable:  # nothing fits: the headline says so and names no count
        assert v.headline.en.startswith("Cannot run") and v.headline.zh.startswith("这套硬件跑不了")
        assert not re.search(r"\b\d+ GPUs?\b", v.headline.en.split(".")[0])
        return
    stated = {int(n) for n in re.findall(r"\b(\d+) GPUs?\b", v.headline.en.split(";")[0])}
    assert stated == {v.gpus}, v.headline.en
    for sentence in re.findall(r"rates (\d+) GPUs the best value|(\d+) GPUs are worth it",
                               v.headline.en):
        assert int("".join(sentence)) == v.gpus, v.headline.en
    head = v.headline.zh.split("；")[0]
    zh_count = 1 if head.endswith("：单卡") else int(re.search(r"：(\d+) 卡", head)[1])
    assert zh_count == v.gpus


def test_seven_b_on_eight_cards_names_one_count(recs):
    v = recs["llm-7b-on-8x-rtx4090"].verdict
    assert v.rating == "required" and v.gpus >= 6
    assert "rates 4 GPUs the best value" not in v.headline.en


# 2. never a count where the model does not fit; when nothing fits, say so plainly

def test_seven_b_on_four_24gb_cards_cannot_run(recs):
    """With checkpointing on, the 7B model fits from two machines like this one: tensor
    parallel inside each, the states sharded over all 8 GPUs (what `project` says at 8). The
    counts considered grow to such machines, so the verdict's count is one the projection and
    the costs hold; the rules choose it among those that fit (here up to 16)."""
    rec = recs["llm-7b-on-4x-rtx4090-checkpointed"]
    v, pr = rec.verdict, rec.projection
    own = [ok for n, ok in zip(pr.gpus, pr.fits, strict=True) if n <= 4]
    assert not any(own) and pr.fits[pr.gpus.index(8)]
    assert v.rating == "required" and v.runnable
    assert 8 <= v.gpus <= 16 and pr.fits[pr.gpus.index(v.gpus)] and v.gpus in rec.costs.gpus
    assert v.nodes == v.gpus // 4
    found = {p.id: p for p in rec.pitfalls}
    wall = found["memory_wall"]
    assert wall.severity == "critical" and "cannot run" in wall.title.en
    assert "跑不了" in wall.title.zh
    assert "more memory" in wall.remedy.en and "offload" in wall.remedy.en
    assert "8 or more" in wall.remedy.en
    assert "not_enough_gpus" in found
    assert "does not fit even on all 4 GPUs" in v.headline.en
    assert "about 8 such GPUs" in v.headline.en
    at = project(rec_profile("llm-7b-on-4x-rtx4090-checkpointed"), [1, 8])
    assert at.fits[-1] and at.parallelism[-1] == "hybrid", "the first fit, in `project`"


def test_seven_b_batch_eight_fits_no_number_of_such_machines(recs):
    """Without checkpointing, 8 sequences of 2,048 tokens need ~97 GB of activations: a 4-way
    tensor-parallel group still keeps ~24 GB per card, so no count of 4-GPU machines holds it
    (one giant machine splitting it 16 ways used to claim 16 GPUs). Checkpointing is named."""
    rec = recs["llm-7b-on-4x-rtx4090"]
    v, pr = rec.verdict, rec.projection
    assert not any(pr.fits) and not v.runnable and v.gpus == max(pr.gpus)
    found = {p.id: p for p in rec.pitfalls}
    assert found["activation_memory"].severity == "critical"
    sooner = found["checkpointing_fits_sooner"]
    assert "about 8 GPUs" in sooner.title.en and "8 张" in sooner.title.zh
    assert "training.activation_checkpointing" in sooner.remedy.en


def test_no_learning_rate_scaling_without_data_parallel_replicas():
    rec = rec_of(ROOT / "tests" / "profiles" / "scaling" / "tensor-parallel-a6000.yaml")
    assert rec.verdict.parallelism == "tensor" and rec.verdict.gpus == 2
    assert "lr_scaling" not in {p.id for p in rec.pitfalls}
    assert "learning_rate" not in {a.id for a in rec.advice}
    assert rec.verdict.framework == "deepspeed"
    advice = {a.id: a.text for a in rec.advice}
    assert "Megatron-LM" in advice["framework"].en and "Megatron-LM" in advice["parallelism"].en
    assert "ZeRO stage 3 or FSDP splits" not in advice["parallelism"].en


# 3. a break-even no month reaches is "never pays off"

def test_no_break_even_above_a_month_is_quoted(recs):
    for name, rec in recs.items():
        for text in _texts(rec):
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


# 4. hardware pitfalls only where the verdict's deployment is owned hardware

@pytest.mark.parametrize("name", [p.stem for p in ALL])
def test_hardware_pitfalls_follow_the_deployment(recs, name):
    rec = recs[name]
    found = {t.rule for t in rec.trace}
    owned_only = {"pitfalls.packed_open_air_cards", "hardware_topology.psu_for_four",
                  "hardware_topology.psu_for_eight", "hardware_topology.four_is_the_sweet_spot"}
    if rec.verdict.deployment == "cloud":
        assert not owned_only & found, name


def test_owned_open_air_cards_still_warn(recs):
    rec = recs["product-tuning-revenue-worth-it"]
    assert rec.verdict.deployment == "own" and rec.verdict.gpus == 4
    assert {"thermal_throttling", "psu_capacity"} <= {p.id for p in rec.pitfalls}


def test_medium_example_on_cloud_has_no_psu_or_case_heat(recs):
    rec = recs["medium-model-4gpu-worth-it"]
    assert rec.verdict.deployment == "cloud"
    assert not {"psu_capacity", "thermal_throttling"} & {p.id for p in rec.pitfalls}


# 5. vGPU: the verdict follows the projection

def test_vgpu_instance_is_not_worth_paying_for(recs):
    rec = recs["vgpu-cloud-rtx4090"]
    v, pr = rec.verdict, rec.projection
    assert pr.speedup[pr.at(2)] < 1.0 and pr.efficiency[-1] < 0.5
    # Review 6: the vGPU veto gives way when the shared GPUs still pay for themselves (F02):
    # the verdict then follows the money, and the critical pitfall says whole GPUs pay more.
    paid = rec.costs.net_value_per_month[rec.costs.gpus.index(v.gpus)]
    if v.gpus > 2:
        assert v.rating == "worth_it" and paid > 0 and v.gpus == rec.costs.best_value_gpus
    else:
        assert v.rating in ("not_worth_it", "optional")
    pit = {p.id: p for p in rec.pitfalls}["vgpu_sharing"]
    assert pit.severity == "critical"
    assert "pass-through" in pit.remedy.en and "整卡直通" in pit.remedy.zh
    assert "physical" in pit.title.en


# 6. merged pitfalls say each sentence once

def test_joined_texts_drop_repeated_sentences():
    a = Text(en="Check the link. Use bf16.", zh="检查链路。使用 bf16。")
    b = Text(en="Use bf16. Add NVLink", zh="使用 bf16。加 NVLink")
    joined = _joined([a, b])
    assert joined.en == "Check the link. Use bf16. Add NVLink."
    assert joined.zh == "检查链路。使用 bf16。加 NVLink。"


@pytest.mark.parametrize("name", [p.stem for p in ALL])
def test_no_pitfall_repeats_itself(recs, name):
    for p in recs[name].pitfalls:
        for text in (p.remedy.en, p.detail.en):
            sentences = [s.strip().casefold() for s in re.split(r"(?<=\.)\s+", text)]
            assert len(sentences) == len(set(sentences)), (name, p.id, text)
        assert p.remedy.en.count("support NVLink") + p.remedy.en.count("with NVLink") <= 1
        assert p.remedy.zh.count("支持 NVLink") <= 1, (name, p.id, p.remedy.zh)


def test_pcie_bound_setup_gives_one_nvlink_remedy(recs):
    rec = recs["product-tuning-revenue-worth-it"]
    pit = {p.id: p for p in rec.pitfalls}["no_nvlink"]
    assert pit.severity == "warning"
    assert pit.remedy.en.count("NVLink") == 1 and pit.remedy.zh.count("NVLink") == 1


# 7. human labels, never raw enum values

@pytest.mark.parametrize("name", [p.stem for p in ALL])
def test_no_raw_enum_values_in_user_text(recs, name):
    raw = re.compile(r"\b(pcie[345]|nvlink_bridge|nvswitch|ethernet_\d+g|infiniband_[a-z]+|"
                     r"open_air|bare_metal)\b")
    for text in _texts(recs[name]):
        assert not raw.search(text.en), (name, text.en)
        assert not raw.search(text.zh), (name, text.zh)


def test_interconnect_advice_names_the_link(recs):
    advice = {a.id: a.text for a in recs["medium-model-4gpu-worth-it"].advice}
    assert "PCIe 4.0 inside the machine" in advice["interconnect"].en
    assert "PCIe 4.0" in advice["interconnect"].zh


def test_slow_network_pitfall_uses_labels():
    from advisor.profile import Profile

    data = load_profile(EXAMPLES / "medium-model-4gpu-worth-it.yaml").model_dump(mode="json")
    data["hardware"].update({"gpus_per_node": 2, "nodes": 2, "inter_link": "ethernet_25g"})
    rec = recommend(Profile.model_validate(data), lang="en")
    slow = [t for t in rec.trace if t.rule == "hardware_topology.slow_network"]
    assert slow and rec.verdict.nodes == 2, rec.verdict.headline.en
    assert "25 GbE Ethernet" in slow[0].message.en
    assert "25 GbE 以太网" in slow[0].message.zh


# 8. measured points win over the model

def test_measured_profile_uses_its_measurements(recs):
    rec = recs["measured-4gpu-only-1.8x-diagnose"]
    pr = rec.projection
    assert pr.speedup[pr.at(2)] == pytest.approx(2045 / 1210, rel=0.03)
    assert pr.speedup[pr.at(4)] == pytest.approx(2180 / 1210, rel=0.03)
    assert all(lo <= s <= hi for lo, s, hi in
               zip(pr.speedup_low, pr.speedup, pr.speedup_high, strict=True))
    assert any("measurements" in n for n in pr.notes)
    assert any("实测" in n for n in pr.notes_zh)
    v = rec.verdict
    assert pr.speedup[pr.at(v.gpus)] < 2.0, "no verdict built on the model's 3.27x"
    assert "3.2" not in v.headline.en
    # the cost model ran on the measured speed-ups too
    assert rec.costs.run_hours[rec.costs.gpus.index(4)] == pytest.approx(
        rec.costs.run_hours[0] / pr.speedup[pr.at(4)], rel=0.01)
