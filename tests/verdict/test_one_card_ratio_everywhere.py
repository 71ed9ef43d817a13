"""A run the user timed on their card moves to another card by one ratio everywhere: the
rented larger cards the verdict lists (``setups_elsewhere``) read the same one-GPU hours as
the comparison's option on that card (``advisor.compare.option.on_its_gpu``), the sustained
rate of ``advisor.scaling.inputs.single_gpu_speed_ratio`` (peak and memory bandwidth), not
the bare tensor peak."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu
from advisor.compare.option import on_its_gpu
from advisor.profile import Profile
from advisor.scaling.inputs import single_gpu_speed_ratio
from advisor.scaling.peak import peak_tflops
from advisor.verdict.setups_elsewhere import _timed_on


def _profile(task: str, precision: str, gpu: str) -> Profile:
    return Profile.model_validate({
        "schema_version": 1, "task": task,
        "model": {"name": "m", "params_millions": 60},
        "training": {"single_gpu_hours": 40, "runs_per_week": 1, "batch_per_gpu": 64,
                     "precision": precision},
        "hardware": {"gpu": gpu, "gpus_per_node": 1},
        "economics": {"mode": "cloud", "currency": "USD", "cloud_price_per_gpu_hour": 1.0}})


@pytest.mark.parametrize("task,precision,gpu,other", [
    ("image_classification", "fp32", "rtx3090", "a100_sxm4_80gb"),
    ("nlp", "amp", "rtx4090", "h100_sxm5_80gb"),
    ("object_detection", "amp", "v100_sxm2_32gb", "a100_sxm4_80gb"),
])
def test_a_rented_card_reads_the_comparisons_hours(task, precision, gpu, other):
    profile = _profile(task, precision, gpu)
    spec = resolve_gpu(other)
    moved = _timed_on(profile, spec)
    changed = profile.model_copy(update={"hardware": profile.hardware.model_copy(
        update={"gpu": other})})
    compared = on_its_gpu(profile, changed).training
    assert moved.single_gpu_hours == pytest.approx(compared.single_gpu_hours, rel=1e-9)


def test_the_ratio_is_the_sustained_rate_not_the_peak():
    # a convolutional network in amp: the V100's and the A100's tensor peaks are 125 and
    # 312 TFLOP/s (2.5x), their bandwidths 900 and 2,039 GB/s (2.3x); a memory-bound share
    # of the step pulls the ratio towards the bandwidths'
    profile = _profile("object_detection", "amp", "v100_sxm2_32gb")
    mine, theirs = resolve_gpu("v100_sxm2_32gb"), resolve_gpu("a100_sxm4_80gb")
    peak_ratio = peak_tflops(theirs, profile.training.precision, profile.task) \
        / peak_tflops(mine, profile.training.precision, profile.task)
    ratio = single_gpu_speed_ratio(profile, mine, theirs)
    assert ratio != pytest.approx(peak_ratio, rel=0.01)
    moved = _timed_on(profile, theirs)
    assert moved.single_gpu_hours == pytest.approx(40 / ratio, rel=1e-9)
