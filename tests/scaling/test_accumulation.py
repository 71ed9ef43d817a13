"""Gradient accumulation: one exchange, one coordination and one wait for the slowest GPU per
optimizer step of k micro-batches; the benchmark reads k from the sources' notes."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from advisor.profile import Profile, TrainingSpec, field_meta
from advisor.scaling import DataParallelInputs, breakdown, load_params, project, speedup
from benchmarks.scaling_series import accumulation_steps, load_series

GPUS = [1, 2, 4, 8, 16]


def _inputs(**kw) -> DataParallelInputs:
    # BERT-large-like: 340 M fp32 gradients over PCIe 4.0, a 0.3 s micro-batch of 16 samples
    base = dict(params_millions=340.0, grad_bytes_per_param=4.0, step_compute_s=0.3,
                gpus_per_node=8, busbw_intra_gbs=17.2, busbw_inter_gbs=2.8,
                latency_inter_s=50e-6, batch_per_gpu=16.0)
    return DataParallelInputs(**{**base, **kw})


def _profile(steps: int | None = None) -> Profile:
    training = {"single_gpu_hours": 20, "batch_per_gpu": 16, "precision": "amp",
                "input_pipeline": "tuned"}
    if steps is not None:
        training["gradient_accumulation_steps"] = steps
    return Profile.model_validate({
        "task": "nlp", "model": {"params_millions": 340}, "training": training,
        "hardware": {"gpu": "rtx4090", "gpus_per_node": 8, "intra_link": "pcie4"}})


def test_one_micro_batch_per_step_is_the_plain_model():
    p = load_params()
    plain = breakdown(GPUS, _inputs(), p)
    one = breakdown(GPUS, _inputs(accumulation_steps=1.0), p)
    assert one.speedup == pytest.approx(plain.speedup)


def test_exchange_and_coordination_are_paid_once_per_optimizer_step():
    p = load_params()
    one = breakdown(GPUS, _inputs(), p)
    four = breakdown(GPUS, _inputs(accumulation_steps=4.0), p)
    assert four.comm_s == pytest.approx(one.comm_s / 4.0)
    assert four.coordination_s == pytest.approx(one.coordination_s / 4.0)
    # the slowest GPU is awaited once per 4 x 16 samples: jitter cv / sqrt(4 x 16)
    jitter_one = one.sync_s - one.coordination_s
    jitter_four = four.sync_s - four.coordination_s
    assert jitter_four == pytest.approx(jitter_one / 2.0)
    assert four.compute_s == pytest.approx(one.compute_s)


def test_more_accumulation_never_lowers_the_speedup_and_stays_within_n():
    p = load_params()
    previous = speedup(GPUS, _inputs(), p)
    for k in (2.0, 4.0, 16.0, 256.0):
        s = speedup(GPUS, _inputs(accumulation_steps=k), p)
        assert np.all(s >= previous - 1e-12)
        assert np.all((s > 0) & (s <= np.array(GPUS)))
        previous = s
    assert previous[-1] > 1.5 * speedup(GPUS, _inputs(), p)[-1]  # Ethernet between 2 nodes


def test_accumulation_per_gpu_count_array():
    p = load_params()
    steps = np.array([16.0, 8.0, 4.0, 2.0, 1.0])  # global batch held: 16 / N micro-batches
    s = speedup(GPUS, _inputs(accumulation_steps=steps), p)
    for i, k in enumerate(steps):
        alone = speedup([GPUS[i]], _inputs(accumulation_steps=k), p)[0]
        assert s[i] == pytest.approx(alone)


def test_profile_field_defaults_to_one_and_is_bilingual():
    assert _profile().training.gradient_accumulation_steps == 1
    info = field_meta(TrainingSpec, "gradient_accumulation_steps")
    assert info["title_zh"] and info["help_zh"] and info["unit"]
    with pytest.raises(ValidationError):
        _profile(0)


def test_profile_accumulation_raises_the_projection_of_a_communication_bound_job():
    plain = project(_profile(), [1, 2, 4, 8])
    accumulated = project(_profile(8), [1, 2, 4, 8])
    assert accumulated.speedup[0] == plain.speedup[0] == 1.0
    assert all(a >= b for a, b in zip(accumulated.speedup, plain.speedup, strict=True))
    assert accumulated.speedup[-1] > plain.speedup[-1] * 1.05
    assert accumulated.speedup_low[-1] <= accumulated.speedup[-1] <= \
        accumulated.speedup_high[-1]


@pytest.mark.parametrize(("notes", "gpus", "batch", "largest", "expected"), [
    ("strong scaling: global batch fixed (per-GPU batch x grad-accumulation x GPUs = 256)",
     4, 16.0, 8, 4.0),
    ("strong scaling: global batch fixed (per-GPU batch x grad-accumulation x GPUs = 256)",
     8, 32.0, 8, 1.0),
    ("pretraining: global batch fixed via gradient accumulation, per-GPU micro-batch fixed",
     2, 64.0, 16, 8.0),
    ("multi-node; grad-accumulation steps shrink with nodes (global batch fixed)",
     32, 256.0, 32, 1.0),
    ("per-GPU batch fixed (8 concat batches), grad accumulation 8->1", 4, 8.0, 8, 2.0),
    ("scaling=weak; baseline_gpus=1", 8, 64.0, 8, 1.0),
])
def test_benchmark_reads_accumulation_from_the_notes(notes, gpus, batch, largest, expected):
    assert accumulation_steps(notes, gpus, batch, largest) == pytest.approx(expected)


def test_benchmark_profiles_hold_the_global_batch_as_the_sources_do():
    """The profile of a series that holds its global batch (keep_batch: global) gives, through
    the projection's own batch scaling, the accumulation steps and per-GPU batches the
    source's notes and table give at every count (BERT pre-training, FastPitch, NCF)."""
    from advisor.scaling.batch_scaling import scaled_batches
    from benchmarks.series_profiles import profile_for

    series, _ = load_series()
    held = [s for s in series if s.holds_global_batch]
    assert len(held) > 50
    for s in held:
        profile = profile_for(s)
        n = np.array([float(s.baseline), *map(float, s.gpus)])
        scale, steps = scaled_batches(profile, n)
        # per-GPU batch relative to the baseline count, and micro-batches per optimizer step
        assert steps[1:] == pytest.approx(np.maximum(s.accumulation, 1.0), rel=0.02), s.sid
        if "scaling=strong" in s.sid or s.scaling == "strong":
            assert scale[1:] / scale[0] == pytest.approx(np.array(s.batch) / s.batch0,
                                                         rel=0.05), s.sid
