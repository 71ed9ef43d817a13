"""When GPUs are added: the global batch held (strong scaling) shares the single-GPU batch out,
fewer accumulation steps first, then a smaller batch per GPU; smaller per-GPU steps keep
their fixed costs and the optimizer update is paid once per optimizer step."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.profile import Profile
from advisor.scaling import DataParallelInputs, breakdown, load_params, project
from advisor.scaling.batch_scaling import scaled_batches

GPUS = [1, 2, 4, 8]


def bert(keep: str = "per_gpu", steps: int = 1, batch: int = 64) -> Profile:
    return Profile.model_validate({
        "task": "nlp", "model": {"name": "bert", "params_millions": 340},
        "training": {"single_gpu_throughput": 200, "dataset_samples": 10**6, "epochs": 1,
                     "batch_per_gpu": batch, "gradient_accumulation_steps": steps,
                     "keep_batch": keep, "precision": "amp", "input_pipeline": "tuned"},
        "hardware": {"gpu": "v100_sxm2_32gb", "gpus_per_node": 8, "intra_link": "nvlink",
                     "cooling": "server"}})


def test_a_held_global_batch_sheds_accumulation_steps_then_batch():
    scale, steps = scaled_batches(bert("global", steps=4, batch=32), np.array(GPUS, float))
    assert steps.tolist() == [4.0, 2.0, 1.0, 1.0]  # 128 samples per update on 1 GPU
    assert scale.tolist() == [1.0, 1.0, 1.0, 0.5]  # 16 per GPU on 8
    scale, steps = scaled_batches(bert("per_gpu", steps=4), np.array(GPUS, float))
    assert steps.tolist() == [4.0] * 4 and scale.tolist() == [1.0] * 4
    tiny, _ = scaled_batches(bert("global", batch=2), np.array([1.0, 8.0]))
    assert tiny[1] * 2 == pytest.approx(1.0)  # never below one sample per GPU


def test_holding_the_global_batch_scales_worse_than_growing_it():
    weak = project(bert(), GPUS).speedup
    strong = project(bert("global"), GPUS).speedup
    assert strong[0] == weak[0] == 1.0
    assert all(s < w for s, w in zip(strong[1:], weak[1:], strict=True))


def test_fewer_accumulation_steps_pay_more_optimizer_updates_per_sample():
    # the same 8-step global batch, held: on 8 GPUs one micro-batch per update
    held = project(bert("global", steps=8), GPUS).speedup
    kept = project(bert("per_gpu", steps=8), GPUS).speedup
    assert held[-1] < kept[-1]


def _x(**kw) -> DataParallelInputs:
    base = dict(params_millions=340.0, grad_bytes_per_param=4.0, step_compute_s=0.3,
                gpus_per_node=8, busbw_intra_gbs=100.0, batch_per_gpu=64.0)
    return DataParallelInputs(**{**base, **kw})


def test_the_optimizer_update_is_charged_once_per_optimizer_step():
    p = load_params().with_values(fixed_step_fraction=0.0)
    update = 0.02  # seconds of one optimizer update inside the measured 0.3 s micro-batch
    one = breakdown([4], _x(optimizer_step_s=update, accumulation_baseline=1.0,
                            accumulation_steps=1.0), p).compute_s[0]
    four = breakdown([4], _x(optimizer_step_s=update, accumulation_baseline=1.0,
                             accumulation_steps=4.0), p).compute_s[0]
    assert one - four == pytest.approx(update * 3 / 4)


def test_a_smaller_per_gpu_batch_uses_the_gpu_less_well():
    # the fixed share of a step (launches, framework) stays when the batch shrinks
    p = load_params()
    full = breakdown([1], _x(), p).compute_s[0] / 64
    quarter = breakdown([1], _x(batch_scale=0.25), p).compute_s[0] / 16
    assert quarter > full * (1 + 2 * p.fixed_step_fraction)
