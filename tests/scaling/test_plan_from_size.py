"""Planning a run from its size: a 70B pre-training from its token count gets a count, a
layout, a time and a cost; a 7B plan on one 8 x H100 machine names its layout and MFU; the
time comes from FLOPs at the layouts' throughput, and a measured single-GPU throughput sets
the absolute level when there is one."""

from __future__ import annotations

import json

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.profile import Profile
from advisor.scaling import project
from advisor.verdict.recommendation import recommend
from tests.support.paths import ROOT

PLAN_70B = ROOT / "examples" / "plan-70b-pretraining-from-tokens.yaml"
PLAN_7B = ROOT / "examples" / "plan-7b-on-one-8xh100.yaml"


def test_a_70b_pretraining_plan_gets_a_count_a_layout_a_time_and_a_cost():
    profile = load_profile(PLAN_70B)
    rec = recommend(profile)
    v, pr, co = rec.verdict, rec.projection, rec.costs
    assert v.runnable and v.gpus >= 64 and pr.planned_from_size
    i = pr.at(v.gpus)
    assert pr.fits[i] and "TP" in pr.layout[i] and "PP" in pr.layout[i]
    assert pr.tensor_parallel[i] * pr.pipeline_parallel[i] * pr.data_parallel[i] == v.gpus
    days = pr.run_hours[i] / 24
    assert days <= 90  # the profile's deadline is met
    assert co.cost_per_run[co.gpus.index(v.gpus)] > 1e6  # millions of dollars, as such runs cost
    # the time is the FLOPs at the layout's throughput: 2e12 tokens at tokens/s per GPU x N
    tokens = 2e12
    assert pr.run_hours[i] == pytest.approx(
        tokens / (pr.tokens_per_s_per_gpu[i] * v.gpus) / 3600, rel=0.01)
    assert 0.3 < pr.mfu[i] < 0.65


def test_a_7b_plan_on_one_8xh100_machine_names_its_layout_and_mfu(capsys):
    pr = project(load_profile(PLAN_7B))
    i = pr.at(8)
    assert pr.fits[i] and pr.layout[i] and pr.layout_zh[i]
    assert 0.2 < pr.mfu[i] < 0.8 and pr.tflops_per_gpu[i] > 100
    assert main(["project", str(PLAN_7B), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["layout"][data["gpus"].index(8)] == pr.layout[i]
    for key in ("samples_per_s_per_gpu", "tokens_per_s_per_gpu", "tflops_per_gpu", "mfu",
                "memory_margin_gb", "usable_memory_gb", "run_hours_one_gpu"):
        assert key in data
    assert main(["project", str(PLAN_7B), "--lang", "zh"]) == 0
    text = capsys.readouterr().out
    assert "MFU" in text and pr.layout_zh[i] in text and "按训练规模规划" in text


def _gpt(**training) -> Profile:
    return Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"params_millions": 13000, "layers": 40, "hidden_size": 5120,
                  "sequence_length": 4096},
        "training": {"batch_per_gpu": 2, "precision": "bf16", **training},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch"}})


def test_a_measured_single_gpu_throughput_sets_the_level_the_layouts_the_ratios():
    planned = project(_gpt(dataset_tokens=1e10), [1, 8])
    measured = project(_gpt(single_gpu_throughput=0.5, dataset_samples=10000, epochs=1),
                       [1, 8])
    assert measured.speedup == planned.speedup
    assert measured.tokens_per_s_per_gpu[0] == pytest.approx(0.5 * 4096, rel=1e-3)
    assert measured.run_hours_one_gpu == pytest.approx(10000 / 0.5 / 3600, rel=1e-3)


def test_other_tasks_plan_from_samples_and_epochs_too():
    profile = Profile.model_validate({
        "schema_version": 1, "task": "image_classification",
        "model": {"params_millions": 25.6},
        "training": {"dataset_samples": 1_281_167, "epochs": 90, "batch_per_gpu": 256},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch"}})
    r = project(profile, [1, 8])
    assert r.planned_from_size and r.run_hours_one_gpu > 1
    assert r.run_hours[0] == pytest.approx(r.run_hours_one_gpu, rel=1e-3)
    assert r.samples_per_s_per_gpu[0] == pytest.approx(
        1_281_167 * 90 / (r.run_hours_one_gpu * 3600), rel=1e-3)
    assert r.tokens_per_s_per_gpu == [None, None] and not r.layout
