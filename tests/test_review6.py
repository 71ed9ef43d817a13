"""Review 6 (2026-11-30): the verdict and the cost figures tell one story.

* a speed-up veto (vGPU sharing, < 1.5x) gives way when the cost model finds the GPUs still
  pay for themselves (F02): the verdict follows the money, the pitfalls still warn;
* when the verdict's count is not the cost model's best value (the article's table, a
  deadline, the memory wall), an info pitfall says what the cost figures alone would pick;
* with no money value on time, "the time saved is worth more" is never said: a setup whose
  net value comes from cheaper hardware per run says so instead (with the currency);
* a verdict beyond the profile's machines states the machines and network of its own count.
"""

from __future__ import annotations

from functools import cache

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from advisor.verdict.result import Recommendation
from tests.support.paths import TESTS

HERE = TESTS / "profiles"


@cache
def rec(name: str, folder: str = "verdict") -> Recommendation:
    return recommend(load_profile(HERE / folder / f"{name}.yaml"))


def pitfall(r: Recommendation, pid: str):
    return next((p for p in r.pitfalls if p.id == pid), None)


def test_a_vgpu_setup_that_pays_is_worth_it_and_still_warned():
    r = rec("din-8x-a100-vgpu-cloud-revenue")
    v = r.verdict
    assert v.rating == "worth_it" and v.gpus == r.costs.best_value_gpus == 8
    assert r.costs.net_value_per_month[r.costs.gpus.index(8)] > 0
    assert "pitfalls.vgpu_veto" not in {t.rule for t in r.trace}
    assert pitfall(r, "vgpu_sharing") is not None


def test_a_small_speed_up_that_pays_is_the_cost_models_call():
    r = rec("ranking-4x4090-small-gain-pays")
    v = r.verdict
    assert r.projection.speedup[r.projection.at(v.gpus)] < 1.5
    assert v.rating == "worth_it" and v.gpus == r.costs.best_value_gpus
    assert "economics.second_gpu_is_slower" not in {t.rule for t in r.trace}


def test_the_table_count_says_what_the_cost_figures_alone_would_pick():
    r = rec("convnext-4x3090-own-no-time-value")
    v = r.verdict
    assert v.gpus == 4 and r.costs.best_value_gpus == 1
    note = pitfall(r, "count_vs_cost_figures")
    assert note is not None and note.severity == "info"
    assert "one GPU is the best value" in note.title.en and "单卡最划算" in note.title.zh
    assert "value_per_day" in note.remedy.en


def test_no_time_value_is_never_credited_with_the_net_value():
    r = rec("llm13b-h100-no-time-value-36-months")
    head = r.verdict.headline
    assert "time saved is worth more" not in head.en
    assert "cheapest way to keep this schedule" in head.en and "USD a month" in head.en
    assert "维持这个训练节奏最省钱" in head.zh


def test_the_machines_assumed_are_those_of_the_verdicts_count():
    r = rec("llama7b-4x4090-batch1", "report")
    v = r.verdict
    assert v.nodes == 2 and max(r.projection.gpus) > v.gpus
    assert r.assumed and f"assumes {v.nodes} machines like this one" in r.assumed[0].en
    assert f"按 {v.nodes} 台与本机相同的机器" in r.assumed[0].zh
    inside = rec("convnext-4x3090-own-no-time-value")
    assert inside.assumed == []


def test_an_unknown_choice_is_listed_in_chinese_words(tmp_path, capsys):
    from advisor.cli import main

    path = tmp_path / "p.yaml"
    path.write_text("schema_version: 1\ntask: llm\nmodel: {params_millions: 100}\n"
                    "training: {single_gpu_hours: 10}\nhardware: {gpu: rtx4090}\n"
                    "economics: {mode: rent}\n", encoding="utf-8")
    assert main(["--lang", "zh", "validate", str(path)]) == 2
    err = capsys.readouterr()
    text = err.err + err.out
    assert "p.yaml:6: economics.mode:" in text and "'cloud' 或 'compare' 之一" in text
    assert " or " not in text


def test_checkpointing_is_named_when_it_needs_fewer_gpus_than_the_fit_as_configured():
    """Review 6: a 7B model at 4,096 tokens x 8 fits from 5 A100s; with checkpointing from 2.
    The pitfall used to appear only when nothing fitted the machine."""
    r = rec("llm7b-seq4096-8x-a100-checkpointing-halves")
    first = next(n for n, ok in zip(r.projection.gpus, r.projection.fits, strict=True) if ok)
    note = pitfall(r, "checkpointing_fits_sooner")
    assert note is not None and note.severity == "info"
    assert f"instead of {first}" in note.title.en and "about 2 GPUs" in note.title.en
    assert "parallelism.checkpointing_needs_fewer" in {t.rule for t in r.trace}


def test_the_assumed_infiniband_between_servers_is_priced():
    """Review 6: the projection assumed InfiniBand NDR between H100 servers the profile did not
    network, but owning them left the fabric out ("not priced"). It is priced now."""
    from advisor.costs import estimate_costs
    from advisor.profile import Profile
    from advisor.verdict.beyond import considered

    profile = Profile.model_validate({
        "schema_version": 1, "task": "llm",
        "model": {"name": "70B", "params_millions": 70000},
        "training": {"single_gpu_hours": 2000, "runs_per_month": 1, "batch_per_gpu": 1,
                     "precision": "bf16"},
        "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server"},
        "economics": {"mode": "own", "currency": "USD", "time_value": "deadline",
                      "value_per_day": 5000}})
    projection, _ = considered(profile)
    report = estimate_costs(profile, projection, lang="en")
    assert max(report.gpus) > 8
    assert any("400 Gb/s switch" in a for a in report.assumptions)
    assert not any("not priced" in a for a in report.assumptions)
