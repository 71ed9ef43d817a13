"""Hand-made projections and the cost tests' profiles, so that cost tests do not move when the
scaling model does.

The H100 FSDP profile and P2A/P2C/P2D/P2E are copies of profiles reported against the cost
model; the tests that use them name what each one showed."""

from __future__ import annotations

import json

from advisor.profile import Profile
from advisor.scaling.result import Projection


def _projection(gpus: list[int], speedups: list[float], run_hours: list[float],
                nodes: list[int], fits: list[bool], single_gpu_fits: bool,
                step_time_s: list[float] | None = None) -> Projection:
    n = len(gpus)
    return Projection(
        gpus=gpus, nodes=nodes, speedup=speedups, speedup_low=speedups, speedup_high=speedups,
        efficiency=[s / g for s, g in zip(speedups, gpus, strict=True)],
        step_time_s=step_time_s or [1.0 / s for s in speedups], run_hours=run_hours,
        bottleneck=["compute"] * n, memory_per_gpu_gb=[1.0] * n, fits=fits,
        parallelism=["data"] * n, single_gpu_fits=single_gpu_fits)


def projection(single: float, gpus=(1, 2, 4), speedups=(1.0, 1.8, 3.0), nodes=None,
               fits=None) -> Projection:
    """One machine unless ``nodes`` says otherwise; run_hours = ``single`` / speed-up."""
    gpus, speedups = list(gpus), list(speedups)
    n = len(gpus)
    fits = list(fits or [True] * n)
    return _projection(gpus, speedups, [single / s for s in speedups], list(nodes or [1] * n),
                       fits, fits[0])


def projection_1_to_8(single: float, gpus=(1, 2, 4, 8), speedups=(1.0, 1.9, 3.6, 6.8),
                      fits=None) -> Projection:
    """``projection`` over 1, 2, 4 and 8 GPUs of one machine."""
    return projection(single, gpus, speedups, fits=fits)


def projection_from_hours(gpus, run_hours, per_node=8, fits=None,
                          one_fits=False) -> Projection:
    """Counts and run hours as given, ``per_node`` GPUs a machine; one GPU cannot hold these
    models (value is compared with the first count that fits)."""
    gpus, run_hours = list(gpus), list(run_hours)
    n = len(gpus)
    speedups = [run_hours[0] * gpus[0] / h for h in run_hours]
    return _projection(gpus, speedups, run_hours, [max(1, -(-g // per_node)) for g in gpus],
                       list(fits or [True] * n), one_fits, step_time_s=[1.0] * n)


# A 70B LLM with FSDP on 8 x H100 SXM, rented in USD, $20,000 a day of revenue, 2000
# single-GPU hours, twice a month.
H100_FSDP = {
    "schema_version": 1, "task": "llm",
    "model": {"name": "Llama 3 70B fine-tune", "params_millions": 70000, "layers": 80,
              "hidden_size": 8192, "sequence_length": 4096},
    "training": {"single_gpu_hours": 2000, "runs_per_month": 2, "batch_per_gpu": 1,
                 "precision": "bf16", "parallelism": "fsdp", "input_pipeline": "tuned"},
    "hardware": {"gpu": "h100_sxm5", "gpus_per_node": 8, "intra_link": "nvswitch"},
    "economics": {"mode": "cloud", "currency": "USD", "time_value": "revenue",
                  "value_per_day": 20000},
}


def h100_fsdp(**eco) -> Profile:
    """``H100_FSDP`` with these economics fields changed."""
    data = json.loads(json.dumps(H100_FSDP))
    data["economics"].update(eco)
    return Profile.model_validate(data)


P2A = {  # 13B fine-tune on 8 x H100 SXM, compare mode, $2.50 a GPU-hour
    "schema_version": 1, "task": "llm",
    "model": {"name": "Llama 2 13B fine-tune", "params_millions": 13000, "layers": 40,
              "hidden_size": 5120, "sequence_length": 4096},
    "training": {"single_gpu_hours": 300, "runs_per_month": 2, "batch_per_gpu": 2,
                 "precision": "bf16", "input_pipeline": "tuned"},
    "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                 "cooling": "server"},
    "economics": {"mode": "compare", "currency": "USD", "cloud_price_per_gpu_hour": 2.5,
                  "time_value": "deadline", "value_per_day": 3000},
}
P2C = {  # 30B fine-tune on 2 x 8 H100 SXM over 100 GbE, own hardware, PUE 1.4
    "schema_version": 1, "task": "llm",
    "model": {"name": "30B fine-tune", "params_millions": 30000, "layers": 60,
              "hidden_size": 6656, "sequence_length": 2048},
    "training": {"single_gpu_hours": 800, "runs_per_month": 1, "batch_per_gpu": 1,
                 "precision": "bf16"},
    "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "nodes": 2, "intra_link": "nvswitch",
                 "inter_link": "ethernet_100g", "cooling": "server"},
    "economics": {"mode": "own", "currency": "USD", "electricity_per_kwh": 0.12, "pue": 1.4,
                  "time_value": "revenue", "value_per_day": 10000},
}
P2D = {  # 70B full fine-tune on H100 SXM, compare mode, catalog prices
    "schema_version": 1, "task": "llm",
    "model": {"name": "70B LoRA-less full fine-tune", "params_millions": 70000},
    "training": {"single_gpu_hours": 2000, "runs_per_month": 1, "batch_per_gpu": 1,
                 "precision": "bf16"},
    "hardware": {"gpu": "h100_sxm", "gpus_per_node": 8, "intra_link": "nvswitch",
                 "cooling": "server"},
    "economics": {"mode": "compare", "currency": "USD", "time_value": "deadline",
                  "value_per_day": 5000},
}
P2E = {  # 13B pretrain on 4 x 8 A100 SXM4 over RoCE
    "schema_version": 1, "task": "llm",
    "model": {"name": "13B pretrain", "params_millions": 13000, "layers": 40,
              "hidden_size": 5120, "sequence_length": 2048},
    "training": {"single_gpu_hours": 5000, "runs_per_month": 1, "batch_per_gpu": 4,
                 "precision": "bf16", "activation_checkpointing": False},
    "hardware": {"gpu": "a100_sxm4_80gb", "gpus_per_node": 8, "nodes": 4,
                 "intra_link": "nvswitch", "inter_link": "roce", "cooling": "server"},
    "economics": {"mode": "compare", "currency": "USD", "time_value": "deadline",
                  "value_per_day": 8000, "deadline_days": 30},
}


def profile_from(base: dict, **changes) -> Profile:
    """``base`` with the given sections updated: ``profile_from(P2A, economics={"pue": 1.4})``."""
    data = json.loads(json.dumps(base))
    for section, values in changes.items():
        data[section].update(values)
    return Profile.model_validate(data)
