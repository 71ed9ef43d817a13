"""Issue 30, fixed costs where each GPU has little work per step: the host side of every step
(scheduling, the framework's Python, kernel launches) jitters by a fixed time
(``step_jitter_s``), not by a share of the step, so the wait for the slowest GPU costs a short
step more than a long one (physics.breakdown)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.profile import Profile
from advisor.scaling import DataParallelInputs, breakdown, load_params, project


def _inputs(**kw) -> DataParallelInputs:
    base = dict(params_millions=25.0, grad_bytes_per_param=4.0, step_compute_s=0.2,
                gpus_per_node=8, busbw_intra_gbs=200.0, batch_per_gpu=32.0,
                variable_inputs=0.0)
    return DataParallelInputs(**{**base, **kw})


def _host_wait(x: DataParallelInputs, n: int, jitter_s: float) -> float:
    """The wait for the slowest GPU that the host's jitter alone adds at N GPUs (seconds)."""
    p = load_params()
    with_jitter = breakdown([n], x, p.with_values(step_jitter_s=jitter_s))
    without = breakdown([n], x, p.with_values(step_jitter_s=0.0))
    return float(with_jitter.sync_s[0] - without.sync_s[0])


def test_the_shipped_fit_keeps_a_host_jitter_of_a_physical_size():
    # fitted on the published series (benchmarks/fit_projection.py): a host's step-to-step
    # noise is of the order of a millisecond, never a share of a long step
    assert 1e-5 < load_params().step_jitter_s < 0.02


def test_the_host_jitter_costs_a_short_step_more_than_a_long_one():
    p = load_params().with_values(step_jitter_s=0.002)
    short = breakdown([8], _inputs(step_compute_s=0.02), p)
    long = breakdown([8], _inputs(step_compute_s=0.5), p)
    assert short.sync_s[0] / short.step_s[0] > 5 * long.sync_s[0] / long.step_s[0]
    assert short.speedup[0] < long.speedup[0]


def test_the_slowest_of_n_waits_sqrt_2_ln_n_host_jitters_and_one_gpu_never_waits():
    for n in (2, 8, 64):
        assert _host_wait(_inputs(), n, 0.002) == pytest.approx(
            0.002 * np.sqrt(2.0 * np.log(n)), rel=1e-9)
    assert _host_wait(_inputs(), 1, 0.002) == 0.0


def test_accumulation_averages_the_host_jitter_over_its_micro_batches():
    # the wait happens once per optimizer step: k micro-batches' jitters average, 1 / sqrt(k)
    one = _host_wait(_inputs(), 8, 0.002)
    four = _host_wait(_inputs(accumulation_steps=4.0, accumulation_baseline=4.0), 8, 0.002)
    assert four == pytest.approx(one / 2.0, rel=1e-9)


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(step=st.floats(0.005, 5.0), jitter=st.floats(0.0, 0.01),
       n=st.sampled_from([2, 4, 8, 16, 64]))
def test_more_host_jitter_or_a_shorter_step_never_speeds_a_count_up(step, jitter, n):
    p = load_params()
    base = breakdown([n], _inputs(step_compute_s=step), p.with_values(step_jitter_s=jitter))
    more = breakdown([n], _inputs(step_compute_s=step),
                     p.with_values(step_jitter_s=jitter + 0.001))
    shorter = breakdown([n], _inputs(step_compute_s=step / 2),
                        p.with_values(step_jitter_s=jitter))
    assert more.speedup[0] <= base.speedup[0] + 1e-12
    assert shorter.speedup[0] <= base.speedup[0] + 1e-12


def _volumes_per_gpu(batch: int) -> Profile:
    # 3D medical segmentation measured at 1 volume per GPU in 16 ms (tuned loader, server):
    # the per-GPU step grows with the batch, the host's jitter does not
    return Profile.model_validate({
        "task": "segmentation", "model": {"name": "U-Net", "params_millions": 31.0},
        "training": {"single_gpu_throughput": 64.0, "dataset_samples": 10**5, "epochs": 1,
                     "batch_per_gpu": batch, "precision": "amp", "input_pipeline": "tuned",
                     "input_sizes": "fixed"},
        "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "intra_link": "nvswitch",
                     "cooling": "server"}})


def test_a_gpu_with_little_work_per_step_scales_worse_through_project():
    small = project(_volumes_per_gpu(1), [1, 8]).speedup[1]
    large = project(_volumes_per_gpu(32), [1, 8]).speedup[1]
    assert small < large
