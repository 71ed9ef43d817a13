"""A starved data loader bounds every parallelism mode alike (F28): data parallel, a tensor-parallel
group, FSDP and a pipeline all run at most the samples a second the loader feeds (a flat curve,
no jump between modes), while a loader that keeps up lets a split or sharded model scale."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.profile import Profile
from advisor.scaling import project
from advisor.scaling.model_parallel import TransformerShape, pipeline_parallel, tensor_parallel
from advisor.scaling.parameters import load_params
from advisor.scaling.physics import DataParallelInputs, breakdown
from tests.support.profiles import scaling_profile


def starved_13b(**training) -> Profile:
    return scaling_profile("llm", {"name": "13B", "params_millions": 13000, "layers": 40,
                        "hidden_size": 5120, "sequence_length": 2048},
                {"single_gpu_hours": 300, "batch_per_gpu": 2, "precision": "bf16",
                 "input_pipeline": "starved", "dataloader_workers": 1, "cpu_cores": 4,
                 "storage": "hdd", **training},
                {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                 "cooling": "server"})


def test_starved_loader_caps_tensor_and_fsdp_rows_alike():
    r = project(starved_13b(), list(range(1, 9)))
    cap = load_params().starved_loader_capacity
    assert len(set(r.layout)) > 2  # several splits, one cap
    rows = r.speedup[1:]
    assert max(rows) <= cap + 1e-6  # the loader's samples/s bound every mode
    assert max(rows) - min(rows) < 0.05 * cap  # no jump between modes: a flat curve
    fitting = [i for i in range(1, 8) if r.fits[i]]
    assert all(r.bottleneck[i] == "input_pipeline" for i in fitting)


def test_a_split_or_sharded_model_scales_when_the_loader_keeps_up():
    tuned = project(starved_13b(input_pipeline="tuned"), [1, 4])
    # the 13B model is split or sharded, not replicated (its states need 200 GB)
    assert tuned.parallelism[1] in ("tensor", "hybrid", "fsdp") and tuned.speedup[1] > 3.0
    assert tuned.tensor_parallel[1] > 1 or "FSDP" in tuned.layout[1]


def test_tensor_group_loader_bound_is_in_samples_per_second():
    """Data parallel on N GPUs and one N-way tensor group hit the same samples/s ceiling."""
    p = load_params()
    x = DataParallelInputs(params_millions=1000, grad_bytes_per_param=2, step_compute_s=1.0,
                           gpus_per_node=8, busbw_intra_gbs=200, loader_capacity=2.0)
    n = np.array([4.0, 8.0])
    dp = breakdown(n, x, p).speedup
    shape = TransformerShape(40, 5120, 2048, 2.0)
    tp = tensor_parallel(n, n, x, shape, 2, p)[0]
    assert np.all(dp <= 2.0 + 1e-9) and np.all(tp <= 2.0 + 1e-9)
    free = tensor_parallel(n, n, replace(x, loader_capacity=None), shape, 2, p)[0]
    assert np.all(free > 3.0)  # the cap, not the exchange, held it at 2


def test_pipeline_parallel_is_fed_by_one_loader():
    p = load_params()
    s, _ = pipeline_parallel(np.array([2.0, 4.0, 8.0]), None, p, loader_capacity=1.5)
    assert np.all(s <= 1.5)
    r = project(starved_13b(parallelism="pipeline"), [1, 4, 8])
    assert max(r.speedup[1:]) <= 1.5 + 1e-6 and r.bottleneck[1] == "input_pipeline"
