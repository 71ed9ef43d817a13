"""Review 4, core: schedules one GPU cannot keep up with (F17), counts beyond the machine,
and remedies that fit the machine (the value of time keeps ordering the counts; findings say
which count keeps up)."""

from __future__ import annotations

import pytest

from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import TESTS


def _profile(hours: float) -> Profile:
    return Profile.model_validate(dict(
        schema_version=1, task="object_detection", model=dict(name="DETR", params_millions=41),
        training=dict(single_gpu_hours=hours, runs_per_week=3, batch_per_gpu=8,
                      precision="amp"),
        hardware=dict(gpu="rtx4090", gpus_per_node=4, intra_link="pcie4"),
        economics=dict(mode="own", currency="CNY", time_value="revenue", value_per_day=2000)))


def test_a_larger_count_that_saves_more_is_worth_more_past_a_month():
    rec = recommend(_profile(100), lang="en")
    value = rec.costs.time_saved_value_per_month
    assert value == sorted(value) and len(set(value)) == len(value)
    assert rec.verdict.gpus == 4
    note = next(p for p in rec.pitfalls if p.id == "cannot_keep_up")
    assert note.severity == "info" and "One GPU could not keep up" in note.title.en


def test_a_schedule_no_count_keeps_up_with_is_said_plainly():
    rec = recommend(_profile(300), lang="zh")
    queue = next(p for p in rec.pitfalls if p.id == "cannot_keep_up")
    assert queue.severity == "warning" and "730 小时" in queue.title.zh
    runs = _profile(300).training.runs_per_month
    fastest = min(rec.projection.run_hours) * runs
    assert fastest > 730  # not even the fastest count considered keeps up
    assert "比这里考虑的更多的卡" in queue.remedy.zh


def test_a_count_beyond_the_machine_is_counted_in_machines_like_it():
    """Review 4: a 70B model on 8 × 24 GB cards was "64 GPUs on 1 machine"."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="llm",
        model=dict(name="70B", params_millions=70000, layers=80, hidden_size=8192,
                   sequence_length=4096),
        training=dict(single_gpu_hours=2000, runs_per_month=1, batch_per_gpu=1,
                      precision="bf16", input_pipeline="tuned"),
        hardware=dict(gpu="rtx4090", gpus_per_node=8, intra_link="pcie4"),
        economics=dict(mode="compare", currency="CNY", time_value="deadline",
                       value_per_day=3000))), lang="en")
    v = rec.verdict
    assert v.gpus > 8 and v.nodes == -(-v.gpus // 8)
    assert f"{v.gpus} GPUs on {v.nodes} machines" in v.headline.en


def test_a_diagnosis_on_nvswitch_never_says_use_nvlink():
    """Review 4: the interconnect remedy told an NVSwitch H200 machine to "use NVLink"."""

    from advisor.catalog.profile_check import load_profile
    from advisor.diagnosis import diagnose
    from advisor.diagnosis.measurements import from_measured_spec

    profile = load_profile(TESTS / "fixtures" / "diagnosis" /
                           "h200-nvswitch-strong-8gpu-plateau.yaml")
    result = diagnose(from_measured_spec(profile.measured), profile)
    link = next(s for s in result.suspects if s.id == "interconnect")
    assert "already have NVLink" in link.remedy.en and "已经有 NVLink" in link.remedy.zh


def test_a_shapeless_vit_fits_where_it_does_and_a_huge_cnn_batch_does_not():
    """Review 5: the CNN activation ratio made ViT-B/16 at batch 256 (AMP) "cannot run" on a
    40 GB A100; a ResNet-152 at batch 1024 in fp32 must still not fit a 16 GB T4."""
    from advisor.scaling import project

    def prof(name, params, batch, precision, gpu):
        return Profile.model_validate(dict(
            schema_version=1, task="image_classification",
            model=dict(name=name, params_millions=params),
            training=dict(single_gpu_hours=30, runs_per_week=1, batch_per_gpu=batch,
                          precision=precision),
            hardware=dict(gpu=gpu, gpus_per_node=8, intra_link="nvswitch", cooling="server")))

    vit = project(prof("ViT-B/16", 86, 256, "amp", "a100_sxm4_40gb"), [1, 8])
    assert all(vit.fits) and vit.memory_per_gpu_gb[0] < 40
    big = project(prof("ResNet-152", 60, 1024, "fp32", "t4"), [1, 4])
    assert not any(big.fits)


def test_the_smallest_count_that_keeps_up_is_named():
    """Review 5: the finding named the fastest count (4) where 2 already keep up."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="object_detection", model=dict(name="DETR", params_millions=41),
        training=dict(single_gpu_hours=100, runs_per_week=3, batch_per_gpu=8, precision="amp"),
        hardware=dict(gpu="rtx4090", gpus_per_node=4, intra_link="pcie4"),
        economics=dict(mode="own", currency="CNY", time_value="none"))), lang="en")
    pr, runs = rec.projection, _profile(100).training.runs_per_month
    keeps = [n for n, h, ok in zip(pr.gpus, pr.run_hours, pr.fits, strict=True)
             if ok and h * runs <= 730]
    note = next(p for p in rec.pitfalls if p.id == "cannot_keep_up")
    assert f"{keeps[0]} GPUs would keep up" in note.title.en and keeps[0] < max(pr.gpus)


def test_not_worth_it_is_never_more_than_one_gpu():
    """A random profile found "Not worth it: 4 GPUs": a deadline's lower bound outlived the
    vGPU veto that won the rating."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="image_classification", model=dict(name="m", params_millions=1.0),
        training=dict(single_gpu_throughput=3.0, dataset_samples=945299, epochs=3.0,
                      batch_per_gpu=1, precision="fp32", runs_per_month=1,
                      input_pipeline="starved"),
        hardware=dict(gpu="rtx3090", gpus_per_node=4, intra_link="pcie3",
                      virtualization="vgpu", cooling="open_air"),
        economics=dict(mode="own", time_value="deadline", currency="CNY", gpu_price=500.0,
                       deadline_days=8.0))), lang="en")
    assert rec.verdict.rating == "not_worth_it" and rec.verdict.gpus == 1
    assert "pass-through" in rec.verdict.headline.en


def test_activation_checkpointing_trades_memory_for_compute():
    """Review 5: the standard FSDP + activation-checkpointing recipe for a 7B full fine-tune
    at 4k tokens "could not run"; there was no way to say checkpointing is on."""
    from advisor.scaling import project

    def prof(checkpointing: bool, **training) -> Profile:
        return Profile.model_validate(dict(
            schema_version=1, task="llm",
            model=dict(name="Llama-7B", params_millions=6738, layers=32, hidden_size=4096,
                       sequence_length=4096),
            training=dict(single_gpu_hours=400, runs_per_month=2, batch_per_gpu=4,
                          precision="bf16", parallelism="fsdp", input_pipeline="tuned",
                          activation_checkpointing=checkpointing, **training),
            hardware=dict(gpu="a100_sxm4_80gb", gpus_per_node=8, intra_link="nvswitch",
                          cooling="server")))
    off, on = project(prof(False), [8]), project(prof(True), [8])
    assert not off.fits[0] and on.fits[0]
    assert on.memory_per_gpu_gb[0] < off.memory_per_gpu_gb[0] / 3
    # computed from FLOPs (no measured throughput), recomputation costs a third more a step
    from advisor.catalog.gpus import resolve_gpu
    from advisor.scaling.inputs import step_compute_s
    from advisor.scaling.parameters import load_params

    gpu, params = resolve_gpu("a100_sxm4_80gb"), load_params()
    assert step_compute_s(prof(True), gpu, params) == pytest.approx(
        step_compute_s(prof(False), gpu, params) * 4 / 3)


def test_activations_that_fill_a_card_say_lower_the_batch_not_zero3():
    """Review 5: a 60M CNN at batch 1024 was told to use ZeRO-3 offload, which does not shrink
    activations."""
    rec = recommend(Profile.model_validate(dict(
        schema_version=1, task="image_classification",
        model=dict(name="ResNet-152", params_millions=60),
        training=dict(single_gpu_hours=30, runs_per_week=2, batch_per_gpu=1024,
                      precision="fp32"),
        hardware=dict(gpu="t4", gpus_per_node=4, intra_link="pcie3", cooling="server"),
        economics=dict(mode="cloud", currency="USD", time_value="revenue",
                       value_per_day=300))), lang="zh")
    assert "降低每卡批大小" in rec.verdict.headline.zh and "ZeRO-3 卸载" not in \
        rec.verdict.headline.zh
    assert "activation_memory" in {p.id for p in rec.pitfalls}


def test_no_net_value_against_itself(capsys, tmp_path):
    """Review 5: "net value vs 8 GPUs: 0 USD/month" when 8 is the fewest that hold the model."""
    from advisor.cli import main

    path = tmp_path / "p.json"
    path.write_text(Profile.model_validate(dict(
        schema_version=1, task="llm",
        model=dict(name="13B", params_millions=13000, layers=40, hidden_size=5120,
                   sequence_length=4096),
        training=dict(single_gpu_hours=600, runs_per_month=3, batch_per_gpu=4,
                      precision="bf16", input_pipeline="tuned"),
        hardware=dict(gpu="h100_sxm", gpus_per_node=8, nodes=4, intra_link="nvswitch",
                      inter_link="ethernet_10g", cooling="server"),
        economics=dict(mode="cloud", currency="USD", time_value="revenue",
                       value_per_day=20000))).model_dump_json())
    assert main(["recommend", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    rec_line = next(line for line in out.splitlines() if "cost per run" in line)
    assert "vs 8 GPUs" not in rec_line and "fewest GPUs that hold the model" in rec_line
