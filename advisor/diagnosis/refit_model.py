"""The projection's step-time model as a function of the values a refit frees.

A refitted value is either one of the projection's parameters (``busbw_efficiency``), one of
the profile-derived inputs (``pipeline_stall``, ``loader_capacity``, ``alternating_fraction``,
``vgpus_per_physical``), or a scale on a group of terms: ``exchange_scale`` on the bytes
exchanged per step, ``overhead_scale`` on stragglers, coordination and clock throttling (# F27).
"""

from __future__ import annotations

import math
from dataclasses import fields

import numpy as np

from advisor.diagnosis.measurements import MeasuredSeries
from advisor.scaling.parameters import ScalingParams, replaced
from advisor.scaling.physics import DataParallelInputs, breakdown

# overhead_scale multiplies these: straggler jitter (per sample, per step, the host's fixed
# step jitter), coordination, clock throttling (F27)
OVERHEAD_PARAMS = ("sample_time_cv", "step_time_cv", "step_jitter_s", "sync_latency_s")
OVERHEAD_INPUTS = ("throttle_per_card", "throttle_fixed")
SCALES = ("exchange_scale", "overhead_scale")
INPUT_FIELDS = {f.name for f in fields(DataParallelInputs)}


def applied(inputs: DataParallelInputs, params: ScalingParams,
            values: dict[str, float]) -> tuple[DataParallelInputs, ScalingParams]:
    """The projection's inputs and parameters with the refitted ``values`` put in."""
    plain = {k: v for k, v in values.items() if k not in SCALES}
    x = replaced(inputs, **{k: v for k, v in plain.items() if k in INPUT_FIELDS})
    p = params.with_values(**{k: v for k, v in plain.items() if k not in INPUT_FIELDS})
    if "exchange_scale" in values:
        x = replaced(x, comm_volume_factor=x.comm_volume_factor * values["exchange_scale"])
    if "overhead_scale" in values:
        k = values["overhead_scale"]
        x = replaced(x, **{f: getattr(x, f) * k for f in OVERHEAD_INPUTS})
        p = p.with_values(**{f: getattr(p, f) * k for f in OVERHEAD_PARAMS})
    return x, p


def speedup_model(inputs: DataParallelInputs, params: ScalingParams, scaling: str,
                  baseline: int):
    """Speed-up function of the free parameters, for ``least_squares.fit``."""

    def fn(gpus: np.ndarray, values: dict[str, float]) -> np.ndarray:
        x, p = applied(inputs, params, values)
        if scaling == "strong":  # global batch fixed: the per-GPU batch shrinks as N grows
            x = replaced(x, batch_scale=baseline / np.asarray(gpus, dtype=float))
        return breakdown(gpus, x, p).speedup

    return fn


def step_shares(inputs: DataParallelInputs, params: ScalingParams, values: dict[str, float],
                series: MeasuredSeries) -> dict[str, float]:
    """Where the step time goes at the largest measured count, in the refitted model."""
    n = np.array([float(series.gpus[-1])])
    x = inputs
    if series.scaling == "strong":
        x = replaced(inputs, batch_scale=series.baseline_gpus / n)
    x, p = applied(x, params, values)
    part = breakdown(n, x, p)
    step = float(part.step_s[0]) / float(part.alternating_loss[0])
    if not math.isfinite(step) or step <= 0:
        return {"comm_share": 0.0, "stall_share": 0.0, "sync_share": 0.0}
    return {"comm_share": round(float(part.comm_s[0]) / step, 4),
            "stall_share": round(float(part.stall_s[0]) / step, 4),
            "sync_share": round(float(part.sync_s[0]) / step, 4)}


def cap_machines(out: np.ndarray, speed: np.ndarray, high: np.ndarray, last: int,
                 per_node: int) -> np.ndarray:
    """Machines added beyond the data never raise the band's top efficiency: k machines
    give at most k x the top of one (they add a network to the same work, # F08)."""
    one = (out >= last) & (out <= max(per_node, last))
    if not one.any():
        return high
    a = int(np.flatnonzero(one)[-1])  # the largest count on the machines measured
    more = out > out[a]
    capped = np.maximum(np.minimum(high, high[a] / out[a] * out), speed)
    return np.where(more, capped, high)
