"""Per-GPU telemetry taken during a run, reduced to the few numbers the suspects need.

GPU logs (``nvidia-smi dmon``, ``--query-gpu`` CSV, ``-q``) are parsed by ``advisor.hwimport``;
:func:`from_hardware` keeps its per-GPU summaries and observation ids. Callers that hold
plain per-GPU series (NVML polling, tests) use :func:`from_samples`. Robust summaries, not
single samples: one dip in a log is a checkpoint or an evaluation, not a bottleneck.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from advisor.files.errors import InputError
from advisor.files.records import record
from advisor.text.i18n import Text

BUSY_UTIL_PCT = 20.0  # below this a sample is idle (start-up, evaluation), not starved


@record
class GpuSummary:
    index: int
    util_pct: float | None  # typical utilisation while the GPU works
    temp_max_c: float | None
    clock_median_mhz: float | None
    power_w: float | None
    power_limit_w: float | None
    throttle_reasons: tuple[str, ...] = ()  # e.g. "sw_thermal_slowdown", "sw_power_cap"


@record
class RunTelemetry:
    """All GPUs of one run, the importer's observation ids (``data_starvation``,
    ``thermal_throttling``, ``laggard_gpu``, ``power_capped``, ``vgpu_sharing``, ...), the
    files they came from and the importer's notes on them (lines skipped, files left out)."""

    gpus: tuple[GpuSummary, ...]
    observations: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    notes: tuple[Text, ...] = ()


@record
class GpuSamples:
    """Plain samples of one GPU; any series may be empty when it was not recorded."""

    index: int
    sm_util_pct: Sequence[float] = ()
    temp_c: Sequence[float] = ()
    power_w: Sequence[float] = ()
    sm_clock_mhz: Sequence[float] = ()
    power_limit_w: float | None = None
    throttle_reasons: tuple[str, ...] = ()


def _busy_util(util: Sequence[float]) -> float | None:
    """Median utilisation over busy samples; None for a log of an idle GPU (not a training run)."""
    busy = [u for u in util if u >= BUSY_UTIL_PCT]
    return statistics.median(busy) if busy else None


def _busy(values: Sequence[float], util: Sequence[float]) -> list[float]:
    """Samples taken while the GPU was working; all of them if that cannot be told."""
    if util and len(util) == len(values):
        kept = [v for v, u in zip(values, util, strict=True) if u >= BUSY_UTIL_PCT]
        if kept:
            return kept
    return list(values)


def summarise(g: GpuSamples) -> GpuSummary:
    clocks = _busy(g.sm_clock_mhz, g.sm_util_pct)
    power = _busy(g.power_w, g.sm_util_pct)
    return GpuSummary(
        index=g.index,
        util_pct=_busy_util(g.sm_util_pct),
        temp_max_c=max(g.temp_c) if g.temp_c else None,
        clock_median_mhz=statistics.median(clocks) if clocks else None,
        power_w=statistics.median(power) if power else None,
        power_limit_w=g.power_limit_w,
        throttle_reasons=tuple(g.throttle_reasons),
    )


def from_samples(gpus: Sequence[GpuSamples], source: str = "") -> RunTelemetry:
    return RunTelemetry(tuple(summarise(g) for g in gpus), (), (source,) if source else ())


def from_hardware(desc) -> RunTelemetry:
    """From an ``advisor.hwimport.HardwareDescription`` (its GpuFacts and observations)."""
    gpus = []
    for i, g in enumerate(desc.gpus):
        util = g.busy_util_pct  # None when the GPU never worked during the log
        gpus.append(GpuSummary(
            index=g.index if g.index is not None else i, util_pct=util, temp_max_c=g.temp_c,
            clock_median_mhz=g.sm_clock_mhz, power_w=g.power_draw_w,
            power_limit_w=g.power_limit_w, throttle_reasons=tuple(g.throttle_active or ())))
    return RunTelemetry(tuple(gpus), tuple(desc.observation_ids()), tuple(desc.sources),
                        tuple(desc.warnings))


def read_gpu_logs(paths: Sequence[str | Path]) -> RunTelemetry:
    """``nvidia-smi dmon`` / CSV / ``-q`` logs of one run, merged (InputError if unreadable)."""
    from advisor.hwimport import parse_files

    desc = parse_files([str(p) for p in paths])
    if not desc.gpus:
        raise InputError.single("no GPU readings found in the log(s)", "日志中没有找到显卡读数",
                                source=", ".join(str(p) for p in paths))
    telemetry = from_hardware(desc)
    if not telemetry.sources:
        telemetry = RunTelemetry(telemetry.gpus, telemetry.observations,
                                 tuple(str(p) for p in paths), telemetry.notes)
    return telemetry
