"""The headline names the verdict's count, and that count is one the projection and the cost model
hold: the cost model's when extra GPUs add nothing (F02), a count that fits, one GPU when the
rating is "not worth it". Checked on every repro profile and example (``recs``)."""

from __future__ import annotations

import re

import pytest

from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.verdict import ALL, headline_count


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
    # the count the verdict states (a ready setup's own label, "HGX H100 server (8 GPUs,
    # NVSwitch)", names the machine's cards, not the verdict's count)
    head = re.sub(r"\([^()]*\)", "", v.headline.en.split(";")[0])
    stated = {int(n) for n in re.findall(r"\b(\d+) GPUs?\b", head)}
    assert stated == {v.gpus}, v.headline.en
    for sentence in re.findall(r"rates (\d+) GPUs the best value|(\d+) GPUs are worth it",
                               v.headline.en):
        assert int("".join(sentence)) == v.gpus, v.headline.en
    head = v.headline.zh.split("；")[0]
    zh_count = 1 if head.endswith("：单卡") else int(re.search(r"：(\d+) 卡", head)[1])
    assert zh_count == v.gpus


def test_headline_count_is_the_verdict_count_and_fits(recs) -> None:
    for name, rec in recs.items():
        v, pr = rec.verdict, rec.projection
        if not v.runnable:
            continue
        assert headline_count(v.headline.en) == v.gpus or (v.gpus == 1 and ": 1 GPU" in
                                                            v.headline.en), name
        if any(pr.fits):
            assert pr.fits[pr.at(v.gpus)], name


def test_seven_b_on_eight_cards_names_one_count(recs):
    v = recs["llm-7b-on-8x-rtx4090"].verdict
    assert v.rating == "required" and v.gpus >= 6
    assert "rates 4 GPUs the best value" not in v.headline.en


def test_not_worth_it_is_never_more_than_one_gpu():
    """A random profile found "Not worth it: 4 GPUs": a deadline's lower bound outlived the
    vGPU veto that won the rating. The rating now goes with the count the answer names."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="image_classification", model=dict(name="m", params_millions=1.0),
        training=dict(single_gpu_throughput=3.0, dataset_samples=945299, epochs=3.0,
                      batch_per_gpu=1, precision="fp32", runs_per_month=1,
                      input_pipeline="starved"),
        hardware=dict(gpu="rtx3090", gpus_per_node=4, intra_link="pcie3",
                      virtualization="vgpu", cooling="open_air"),
        economics=dict(mode="own", time_value="deadline", currency="CNY", gpu_price=500.0,
                       deadline_days=9.0))), lang="en")
    # one GPU misses the 9-day deadline (262 h a run): issue 29 answers with the fewest GPUs
    # that meet it, the first move's day counted (4 take 175 h), required, and says why; the
    # vGPU warning stays, critical
    v = rec.verdict
    assert v.rating == "required" and v.gpus > 1
    assert "Chosen over your setup at 1 GPU, which misses the 9-day deadline" in v.headline.en
    at = next(c for c in rec.candidates if c.gpus == v.gpus and c.label is None)
    assert at.runnable and all(not c.runnable for c in rec.candidates if c.gpus < v.gpus)
    assert next(p for p in rec.pitfalls if p.id == "vgpu_sharing").severity == "critical"
