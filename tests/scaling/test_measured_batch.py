"""A measured run at a batch fits one GPU: estimates that contradict the measurement are
corrected by it, and the output says so (advisor/scaling/measured_memory.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from advisor.catalog.gpus import resolve_gpu
from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.card_memory import usable_gb
from advisor.scaling.layouts.engine import uses_layouts
from advisor.scaling.parameters import load_params
from advisor.scaling.project import says_one_gpu_cannot_hold
from tests.support.strategies import profiles

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def encoder(**training) -> Profile:
    """A 135M encoder measured at batch 176 on one 40 GB A100 (an independent check's case:
    the activation estimate at the default 512 tokens said it needs 41.6 GB)."""
    base = {"single_gpu_throughput": 800, "dataset_samples": 10**6, "epochs": 1,
            "batch_per_gpu": 176, "precision": "amp", "input_pipeline": "tuned"}
    return Profile.model_validate({
        "task": "nlp", "model": {"name": "encoder", "params_millions": 135},
        "training": {**base, **training},
        "hardware": {"gpu": "a100_sxm4_40gb", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server"}})


@SETTINGS
@given(profiles())
def test_a_measured_batch_always_fits(profile):
    assume(profile.training.single_gpu_throughput is not None)
    # The activations are the estimate a measurement corrects. Model states (16 B per
    # parameter) beyond the card are sharded on several GPUs, and a language model the
    # profile splits (tensor / pipeline / hybrid shard) takes the layouts of
    # advisor/scaling/layouts: the measurement sets only the level there.
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    p = load_params()
    states_gb = profile.model.params_millions * 1e6 * p.optimizer_bytes_per_param / 1e9
    assume(states_gb + p.memory_overhead_gb < usable_gb(gpu.memory_gb, p))
    assume(not uses_layouts(profile, gpu.memory_gb, p))
    r = project(profile)
    assert r.single_gpu_fits
    assert all(r.fits), (r.parallelism, r.memory_per_gpu_gb)
    assert "memory" not in r.bottleneck


def test_a_measured_encoder_batch_stays_data_parallel_and_the_note_says_why():
    r = project(encoder(), [1, 8])
    assert r.single_gpu_fits and r.parallelism == ["data", "data"]
    assert r.speedup[1] > 7.0  # published about 7.9x; 1.7x when the estimate picked tensor
    en = next(n for n in r.notes if "was measured at 176 samples per GPU" in n)
    assert "lowered" in en and "GB" in en
    assert any("实测" in n and "176" in n for n in r.notes_zh)


def test_a_run_time_on_one_gpu_corrects_an_estimate_within_twice_the_card_only():
    """A run time on one GPU says the batch ran there (helper review: ViT-L/16 at batch 64 on
    four owned RTX 4090 with 240 h a run was told to buy servers); the rule of thumb errs by
    up to about twice the card, so an estimate further over still decides."""
    hours = encoder(single_gpu_throughput=None, dataset_samples=None, epochs=None,
                    single_gpu_hours=10)
    r = project(hours, [1, 8])  # the estimate (512 tokens assumed) is just over the card
    assert not says_one_gpu_cannot_hold(r.notes) and all(r.fits)
    assert any("A run on one GPU takes 10 h at 176 samples" in n for n in r.notes)
    far = encoder(single_gpu_throughput=None, dataset_samples=None, epochs=None,
                  single_gpu_hours=10, batch_per_gpu=704)  # four times the batch
    r = project(far, [1, 8])
    assert says_one_gpu_cannot_hold(r.notes)
    assert not any("A run on one GPU takes" in n for n in r.notes)


def test_a_measured_transformer_on_a_24_gb_card_scales_like_data_parallel():
    # a 151M transformer at batch 104 on a 24 GB card projected 0.24x on 8 GPUs (tensor
    # parallel over PCIe) before the measured batch was trusted
    p = Profile.model_validate({
        "task": "nlp", "model": {"name": "transformer", "params_millions": 151},
        "training": {"single_gpu_throughput": 100, "dataset_samples": 10**6, "epochs": 1,
                     "batch_per_gpu": 104, "precision": "amp", "input_pipeline": "tuned"},
        "hardware": {"gpu": "rtx3090", "gpus_per_node": 8, "intra_link": "pcie4",
                     "cooling": "server"}})
    r = project(p, [1, 8])
    assert r.parallelism[1] == "data" and r.fits == [True, True]
    assert r.speedup[1] > 6.0


def _seven_billion(task: str) -> Profile:
    return Profile.model_validate({
        "task": task, "model": {"name": "7b", "params_millions": 6700},
        "training": {"single_gpu_throughput": 2, "dataset_samples": 10**5, "epochs": 1,
                     "batch_per_gpu": 1, "precision": "bf16", "input_pipeline": "tuned"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch"}})


def test_model_states_beyond_the_card_are_sharded_at_the_measured_level():
    # a measured single-GPU run of a model whose 16 B/parameter states alone exceed the card
    # was offloaded or kept 8-bit states: several GPUs shard the states instead (ZeRO /
    # FSDP), and the measured throughput sets the run's length
    r = project(_seven_billion("other"), [1, 2, 8])
    assert not r.single_gpu_fits and all(r.fits[1:])
    assert r.parallelism[1:] != ["data", "data"]
    assert r.run_hours_one_gpu == pytest.approx(10**5 / 2 / 3600, rel=1e-3)
    assert not any("was measured at" in n for n in r.notes)


def test_a_language_model_whose_states_exceed_the_card_is_split_at_the_measured_level():
    # the same run of a 7B language model: the layouts shard it (FSDP / ZeRO, tensor
    # parallel); the measurement sets the level
    r = project(_seven_billion("llm"), [1, 2, 8])
    assert all(r.fits[1:]) and r.layout[1] and r.layout[2]
    assert r.run_hours_one_gpu == pytest.approx(10**5 / 2 / 3600, rel=1e-3)


@pytest.mark.parametrize("split", ["tensor", "pipeline", "hsdp"])
@pytest.mark.parametrize("batch", [176, 400])
def test_a_measured_batch_fits_one_gpu_on_the_layouts_too(split, batch):
    """An encoder the profile splits takes the layouts (advisor/scaling/layouts); its
    activations and logits at the default 512 tokens "need" 55-121 GB, yet the batch was
    measured on one 40 GB card: the layouts' estimate is lowered to agree (the reference and
    every count then fit) and the note says so, as on the data-parallel path."""
    profile = encoder(parallelism=split, batch_per_gpu=batch)
    p = load_params()
    assert uses_layouts(profile, 40.0, p)
    r = project(profile, [1, 2, 4, 8])
    assert r.single_gpu_fits and all(r.fits), (r.fits, r.memory_per_gpu_gb)
    assert r.memory_per_gpu_gb[0] <= usable_gb(40.0, p)
    assert any(f"was measured at {batch} samples per GPU" in n for n in r.notes)
    assert any(f"每卡 {batch} 个样本下实测" in n for n in r.notes_zh)
    assert not says_one_gpu_cannot_hold(r.notes)


def test_without_a_measurement_the_layouts_keep_their_estimate():
    """The same encoder with its run length given in hours (nothing measured at a batch):
    the estimate stands, one GPU cannot hold batch 400, no correction note."""
    base = encoder(parallelism="pipeline", batch_per_gpu=400).model_dump(mode="json")
    training = {k: v for k, v in base["training"].items()
                if k not in ("single_gpu_throughput", "dataset_samples", "epochs")}
    r = project(Profile.model_validate({**base, "training": {**training,
                                                               "single_gpu_hours": 10}}),
                [1, 2, 4, 8])
    assert not r.single_gpu_fits
    assert not any("was measured at" in n for n in r.notes)


@SETTINGS
@given(profiles(), st.sampled_from(["tensor", "pipeline", "hsdp"]), st.integers(1, 512))
def test_a_measured_batch_always_fits_the_layouts_too(drawn, split, batch):
    """Any transformer the profile splits, measured on one GPU at its batch, whose model
    states (16 B per parameter) leave room on the card: one GPU holds the measured batch."""
    data = drawn.model_dump(mode="json", exclude_none=True)
    training = {k: v for k, v in data["training"].items()
                if k not in ("single_gpu_hours", "single_gpu_throughput", "tensor_parallel",
                             "pipeline_parallel", "global_batch", "dataset_tokens")}
    training.update(single_gpu_throughput=50.0, dataset_samples=10**5, epochs=1,
                    batch_per_gpu=batch, parallelism=split)
    try:
        profile = Profile.model_validate({**data, "task": "nlp", "training": training})
    except ValueError:
        assume(False)
    gpu = resolve_gpu(profile.hardware.gpu, profile.hardware.intra_link)
    p = load_params()
    states_gb = profile.model.params_millions * 1e6 * p.optimizer_bytes_per_param / 1e9
    assume(states_gb * 1.25 + 2.0 < usable_gb(gpu.memory_gb, p))
    assume(uses_layouts(profile, gpu.memory_gb, p))
    r = project(profile)
    assert r.single_gpu_fits and r.fits[0], (r.layout[:1], r.memory_per_gpu_gb[:1])
