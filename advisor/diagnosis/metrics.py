"""Measured speed-up, efficiency and the Karp–Flatt serial fraction, with its trend.

Speed-up is relative to the smallest measured count ``N0`` (usually 1): ``ψ(N) = X(N)/X(N0)``
against the ideal ``N/N0``. The Karp–Flatt metric is the serial fraction that Amdahl's law
(F03) would need to explain ψ at p = N/N0 processors:

    e(N) = (1/ψ − 1/p) / (1 − 1/p)

Constant e means a fixed serial part (plain Amdahl); e rising with N means a cost that grows
with the GPU count (communication latency, synchronisation, stragglers — F07); e falling
means a cost that stops growing (ring all-reduce traffic per GPU saturates at 2× gradient
bytes — F07) or a one-off cost paid on the step from one GPU to two.
"""

from __future__ import annotations

import math
from typing import Literal

from advisor.diagnosis.measurements import MeasuredSeries
from advisor.files.records import record

Trend = Literal["flat", "rising", "falling", "unknown"]

# Karp–Flatt changes smaller than this (absolute, per doubling of N) count as flat: published
# series carry a few per cent of noise, which moves e by about 0.01–0.02 at 4–8 GPUs.
FLAT_PER_DOUBLING = 0.015


@record
class ScalingMetrics:
    gpus: tuple[int, ...]
    speedup: tuple[float, ...]  # relative to the baseline count, times N0 (so 1 GPU = 1.0)
    efficiency: tuple[float, ...]  # speedup / N
    karp_flatt: tuple[float | None, ...]  # None at the baseline count
    trend: Trend
    baseline_gpus: int


def speedups(series: MeasuredSeries) -> list[float]:
    """Speed-up over one GPU, assuming the baseline count ran at its ideal N0 (exact when N0=1)."""
    base = series.throughput[0]
    return [series.baseline_gpus * x / base for x in series.throughput]


def karp_flatt(speedup_rel: float, p: float) -> float | None:
    """Experimentally determined serial fraction for relative speed-up ψ on p× the GPUs."""
    if p <= 1.0 or speedup_rel <= 0:
        return None
    return (1.0 / speedup_rel - 1.0 / p) / (1.0 - 1.0 / p)


def amdahl_speedup(serial_fraction: float, p: float) -> float:
    """Amdahl's law (F03): 1 / (s + (1 − s)/p)."""
    return 1.0 / (serial_fraction + (1.0 - serial_fraction) / p)


def karp_flatt_trend(gpus: list[int], values: list[float | None]) -> Trend:
    """Slope of e against log2 N (least squares); flat within FLAT_PER_DOUBLING."""
    pts = [(math.log2(n), e) for n, e in zip(gpus, values, strict=True) if e is not None]
    if len(pts) < 2:
        return "unknown"
    mean_x = sum(x for x, _ in pts) / len(pts)
    mean_y = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mean_x) ** 2 for x, _ in pts)
    if sxx == 0:
        return "unknown"
    slope = sum((x - mean_x) * (y - mean_y) for x, y in pts) / sxx
    if abs(slope) <= FLAT_PER_DOUBLING:
        return "flat"
    return "rising" if slope > 0 else "falling"


def scaling_metrics(series: MeasuredSeries) -> ScalingMetrics:
    s = speedups(series)
    n0 = series.baseline_gpus
    kf = [karp_flatt(si / n0, n / n0) for n, si in zip(series.gpus, s, strict=True)]
    return ScalingMetrics(
        gpus=series.gpus,
        speedup=tuple(s),
        efficiency=tuple(si / n for n, si in zip(series.gpus, s, strict=True)),
        karp_flatt=tuple(kf),
        trend=karp_flatt_trend(list(series.gpus), kf),
        baseline_gpus=n0,
    )
