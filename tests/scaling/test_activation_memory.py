"""Activations count in the memory a GPU needs, also without a model shape (F24): a CNN's follow
its parameters or given FLOPs (about 100 MB an image for ResNet-50 in fp32, half with AMP), a
transformer given by its size gets activations near those of its real shape. So a huge CNN batch
does not fit a T4 while a shapeless ViT fits an A100; activation checkpointing trades most of
that memory for a third more compute; every example still fits its own machine."""

from __future__ import annotations

import pytest

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.activations import activation_bytes_per_sample
from advisor.scaling.parameters import load_params
from tests.support.paths import EXAMPLES
from tests.support.profiles import scaling_profile


def resnet(params: float, batch: int, precision: str = "fp32", gpu: str = "t4",
           **model) -> Profile:
    return scaling_profile("image_classification", {"name": "ResNet", "params_millions": params, **model},
                {"single_gpu_hours": 30, "batch_per_gpu": batch, "precision": precision},
                {"gpu": gpu, "gpus_per_node": 4, "intra_link": "pcie3", "cooling": "server"})


def test_resnet152_at_batch_1024_does_not_fit_a_t4():
    r = project(resnet(60, 1024), [1, 2, 4])
    assert min(r.memory_per_gpu_gb) > 16.0 and not any(r.fits)
    assert r.parallelism == ["data"] * 3  # a CNN is not split by tensor parallel
    assert any("activations alone" in note for note in r.notes)
    assert any("激活值" in note for note in r.notes_zh)


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


def test_resnet50_activation_per_image_is_about_100_mb_fp32_half_with_amp():
    p = load_params()
    fp32 = activation_bytes_per_sample(resnet(25.6, 1), p)
    amp = activation_bytes_per_sample(resnet(25.6, 1, "amp"), p)
    assert 70e6 <= fp32 <= 150e6
    assert amp == pytest.approx(fp32 / 2)


def test_cnn_activations_follow_the_given_flops():
    p = load_params()
    one = activation_bytes_per_sample(resnet(25.6, 1, flops_per_sample_gflops=12.3), p)
    two = activation_bytes_per_sample(resnet(25.6, 1, flops_per_sample_gflops=24.6), p)
    assert two == pytest.approx(2 * one)


def bert(**model) -> Profile:
    return scaling_profile("nlp", {"name": "BERT-large", "params_millions": 340, **model},
                {"single_gpu_hours": 10, "batch_per_gpu": 32, "precision": "amp"},
                {"gpu": "rtx4090", "gpus_per_node": 4, "intra_link": "pcie4"})


def test_transformer_without_shape_gets_activations_near_the_real_shape():
    p = load_params()
    derived = activation_bytes_per_sample(bert(), p)
    known = activation_bytes_per_sample(bert(layers=24, hidden_size=1024, sequence_length=512),
                                        p)
    assert 0.7 * known <= derived <= 1.4 * known
    r = project(bert(), [1])
    assert r.memory_per_gpu_gb[0] > 340e6 * 16 / 1e9 + 1.0 + 5.0  # states + overhead + acts


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
    from advisor.scaling.inputs import optimizer_step_s, step_compute_s
    from advisor.scaling.parameters import load_params

    gpu, params = resolve_gpu("a100_sxm4_80gb"), load_params()
    update = optimizer_step_s(prof(False), gpu, params)
    assert step_compute_s(prof(True), gpu, params) - update == pytest.approx(
        (step_compute_s(prof(False), gpu, params) - update) * 4 / 3)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda q: q.stem)
def test_examples_still_fit_on_their_own_machines(path):
    profile = load_profile(path)
    r = project(profile, [profile.hardware.total_gpus])
    assert r.fits == [True]
