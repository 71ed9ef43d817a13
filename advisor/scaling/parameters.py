"""The projection's named parameters, read from ``resources/scaling/parameters.yaml``.

Fitted parameters come from ``benchmarks/fit_projection.py`` (least squares on published
measurements, leave-one-family-out cross-validation); the others are calibrated to the article
or taken from a cited measurement. Each entry in the YAML says which, why, and its value.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from typing import Any, TypeVar

from advisor.files.builtin_data import load_builtin
from advisor.files.paths import resources_dir
from advisor.files.records import record

# Names of the parameters the fit may move; the diagnosis feature refits these per user.
FITTED = ("overlap_fraction", "busbw_efficiency", "sample_time_cv", "fixed_step_fraction",
          "pipeline_stall_tuned", "sync_latency_s", "step_jitter_s")


_Record = TypeVar("_Record")
_FIELD_NAMES: dict[type, frozenset[str]] = {}


def replaced(record: _Record, **changes: Any) -> _Record:
    """``dataclasses.replace`` for the frozen records of the step-time model, without calling
    ``__init__`` again: the same fields and values (they have no ``__post_init__``), a tenth of
    the time. The diagnosis' least-squares refit makes thousands of these per fit."""
    kind = type(record)
    names = _FIELD_NAMES.get(kind)
    if names is None:
        names = _FIELD_NAMES[kind] = frozenset(f.name for f in fields(kind))  # type: ignore[arg-type]
    unknown = changes.keys() - names
    if unknown:
        raise TypeError(f"{kind.__name__} has no field(s) {sorted(unknown)}")
    copy = object.__new__(kind)
    copy.__dict__.update(record.__dict__)
    copy.__dict__.update(changes)
    return copy


@record
class ScalingParams:
    # fitted on published measurements (tuned world)
    overlap_fraction: float = 0.8
    busbw_efficiency: float = 0.7
    sample_time_cv: float = 0.1
    fixed_step_fraction: float = 0.1
    pipeline_stall_tuned: float = 0.0
    sync_latency_s: float = 0.001
    step_jitter_s: float = 0.001
    # the 80 % band (advisor/scaling/band.py; calibrated on out-of-sample residuals by
    # benchmarks/projection_eval.calibrate_band): the lower edge's log-width per root doubling
    # and its factors where the regime is uncertain; the upper edge as a share of the overhead
    band_low_per_root_doubling: float = 0.05
    band_low_no_peer_to_peer: float = 0.69
    band_low_short_step: float = 0.0
    band_machine_doubling_weight: float = 1.0
    band_high_overhead_share: float = 0.5
    band_high_no_peer_to_peer: float = 0.0
    band_high_overhead_power: float = 1.0
    # ... stated, not fitted: below this much compute per micro-batch a GPU has little work;
    # Ethernet / RoCE between machines (no calibration measurement crosses one)
    band_short_step_s: float = 0.5
    band_low_ethernet: float = 0.6931
    # calibrated to the article (typical world) or to a cited measurement
    pipeline_stall_typical: float = 0.15
    pipeline_stall_starved: float = 0.3
    starved_loader_capacity: float = 1.5
    band_log_width_typical: float = 0.06
    step_time_cv: float = 0.01
    alternating_fraction: float = 0.65
    backward_fraction: float = 0.67
    bucket_mb: float = 25.0
    pcie_multi_socket_factor: float = 0.8
    throttle_per_card_open_air: float = 0.02
    throttle_per_card_blower: float = 0.01
    throttle_per_degc: float = 0.015
    model_flops_utilisation: float = 0.35
    reference_flops_per_byte: float = 153.0
    default_microbatches_per_stage: float = 2.0
    tensor_activation_exchanges_per_layer: float = 4.0
    memory_usable_fraction: float = 0.9429
    memory_overhead_gb: float = 1.0
    # how far a published peak lies above / below the estimate in 9 runs of 10 (issue 31)
    memory_peak_over_estimate: float = 0.19
    memory_peak_under_estimate: float = 0.045
    optimizer_bytes_per_param: float = 16.0
    optimizer_traffic_bytes_per_param: float = 32.0
    activation_bytes_per_token_width_layer: float = 34.0
    transformer_width_per_layer: float = 64.0
    # recommenders whose embedding tables do not fit one GPU (DLRM-style, see inputs.py)
    recommendation_dense_fraction: float = 0.01
    embedding_bytes_per_param: float = 8.0
    embedding_bytes_per_sample: float = 13312.0

    def with_values(self, **values: float) -> ScalingParams:
        """A copy with some parameters replaced (for refits and what-if checks)."""
        return replaced(self, **values)

    def vector(self, names: tuple[str, ...] = FITTED) -> list[float]:
        return [float(getattr(self, name)) for name in names]


@cache
def _raw() -> dict[str, Any]:
    path = resources_dir() / "scaling" / "parameters.yaml"
    return load_builtin(path) or {}


@cache
def load_params() -> ScalingParams:
    """The shipped parameter set (fitted values where fitted)."""
    entries = _raw().get("parameters", {})
    known = {f.name for f in fields(ScalingParams)}
    values = {name: float(entry["value"]) for name, entry in entries.items() if name in known}
    return ScalingParams(**values)


@cache
def flops_per_param_by_task() -> dict[str, float]:
    """Training FLOPs per sample per parameter when the profile gives neither throughput nor
    FLOPs (assumption table in parameters.yaml)."""
    return {k: float(v) for k, v in _raw().get("flops_per_param_by_task", {}).items()}


@cache
def membound_share_by_task() -> dict[str, float]:
    """Share of a step's time that streams memory on the reference card (fitted per task)."""
    return {k: float(v) for k, v in _raw().get("membound_share_by_task", {}).items()}


@cache
def loader_s_per_sample_by_task() -> dict[str, float]:
    """CPU seconds a default data loader spends per sample for one GPU (decode, augment), per
    task: the input stall is a share of this work (assumption table in parameters.yaml)."""
    return {k: float(v) for k, v in _raw().get("loader_s_per_sample_by_task", {}).items()}


@cache
def activation_bytes_per_flop_by_task() -> dict[str, float]:
    """Activation bytes (fp32) per training FLOP of one sample, for models without a
    transformer shape (assumption table with sources in parameters.yaml)."""
    return {k: float(v) for k, v in _raw().get("activation_bytes_per_flop_by_task", {}).items()}


@cache
def default_sequence_length() -> dict[str, int]:
    """Tokens (frames for speech) per sample assumed for sequence tasks when none is given."""
    return {k: int(v) for k, v in _raw().get("default_sequence_length", {}).items()}


@cache
def mfu_by_task() -> dict[str, float]:
    """Achieved share of dense peak per task (medians of published single-GPU throughputs)."""
    return {k: float(v) for k, v in _raw().get("mfu_by_task", {}).items()}
