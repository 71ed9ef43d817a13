"""``diagnose(series, profile, telemetry)``: why a measured multi-GPU run scales as it does."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.diagnosis.assumptions import anchored_note, released_note
from advisor.diagnosis.context import RunContext, run_context
from advisor.diagnosis.grading import grade, headline_index
from advisor.diagnosis.measurements import MeasuredSeries
from advisor.diagnosis.metrics import scaling_metrics
from advisor.diagnosis.refit import (
    amdahl_curve,
    extrapolation_counts,
    fit_amdahl,
    refit,
)
from advisor.diagnosis.result import (
    Diagnosis,
    FittedScaling,
    MeasuredScaling,
    ScalingGrade,
    SuspectReport,
)
from advisor.diagnosis.suspects import FitSignals, rank_suspects
from advisor.diagnosis.telemetry import RunTelemetry
from advisor.diagnosis.wording import label
from advisor.profile import Profile
from advisor.scaling.parameters import ScalingParams, load_params
from advisor.scaling.physics import breakdown
from advisor.text.i18n import Text

NOTE_IDLE_LOGS = Text(
    en="The GPU logs show no GPU at work: record them while training runs (nvidia-smi dmon -d 5).",
    zh="显卡日志中没有显卡在工作：请在训练运行时记录（nvidia-smi dmon -d 5）。")

TREND_MEANING = {
    "flat": Text(en="Flat serial fraction: a fixed serial part of the code (Amdahl, F03).",
                 zh="串行比例基本不变：代码中有固定的串行部分（阿姆达尔定律，F03）。"),
    "rising": Text(en="Rising serial fraction: communication and overheads that grow with the "
                      "GPU count (F07).",
                   zh="串行比例上升：通信和随卡数增长的开销（F07）。"),
    "falling": Text(en="Falling serial fraction: a cost that starts with the second GPU and then "
                       "levels off — bandwidth-bound gradient all-reduce (F07).",
                    zh="串行比例下降：从第二张卡开始出现、随后趋于平稳的开销——受带宽限制的梯度 "
                       "All-Reduce（F07）。"),
    "unknown": Text(en="A trend needs measurements at three or more GPU counts.",
                    zh="判断趋势需要至少三个不同卡数的测量。"),
}


def _round(values, digits: int = 4) -> list:
    return [None if v is None else round(float(v), digits) for v in values]


def _exchange(series: MeasuredSeries, ctx: RunContext, params: ScalingParams) -> dict:
    """The shipped projection's gradient exchange at the largest measured count: how long it
    is next to the compute on the user's link (F07, F25) — physics, not the refit."""
    n = np.array([float(series.gpus[-1])])
    x = ctx.inputs
    if series.scaling == "strong":
        x = replace(x, batch_scale=series.baseline_gpus / n)
    part = breakdown(n, x, params)
    compute_s, comm_s = float(part.compute_s[0]), float(part.comm_s[0])
    if not (np.isfinite(comm_s) and compute_s > 0):
        return {}
    link = ctx.profile.hardware.intra_link
    return {"exchange_ratio": comm_s / compute_s,
            "gradient_mb": x.params_millions * x.grad_bytes_per_param,
            "exchange_ms": 1e3 * comm_s, "compute_ms": 1e3 * compute_s, "link": label(link),
            "peer_to_peer": not (link.value.startswith("pcie") and ctx.gpu.is_consumer)}


def _plateau_speedup(parameters: dict[str, float], alternating: float) -> float | None:
    """One machine's ceiling: the capacity cap, less the alternating-training loss (F21)."""
    cap = parameters.get("loader_capacity")
    if cap is None:
        return None
    s = parameters.get("alternating_fraction", alternating)
    return cap / (1.0 + s * (cap - 1.0))


def diagnose(series: MeasuredSeries, profile: Profile | None = None,
             telemetry: RunTelemetry | None = None, *, up_to: int | None = None,
             params: ScalingParams | None = None) -> Diagnosis:
    """Measured speed-up and its F30 grade, Karp–Flatt trend, the refitted projection with a
    band up to ``up_to`` GPUs, and the ranked suspects."""
    params = params or load_params()
    m = scaling_metrics(series)
    grades = [grade(n, s) if n > 1 else None for n, s in zip(m.gpus, m.speedup, strict=True)]
    head = headline_index(m.gpus)
    headline = grades[head] if head is not None else None

    counts = extrapolation_counts(series, up_to)
    ctx = run_context(series, profile, params, counts[-1])
    fitted = refit(series, ctx.inputs, params, counts)
    serial = fit_amdahl(series)
    amdahl = amdahl_curve(np.array(counts, dtype=float), {"serial_fraction": serial})
    amdahl = amdahl / amdahl_curve(np.array([float(series.baseline_gpus)]),
                                   {"serial_fraction": serial})[0] * series.baseline_gpus

    plateau = _plateau_speedup(fitted.parameters, ctx.inputs.alternating_fraction) \
        if fitted.plateau else None
    shipped_bw = fitted.shipped["busbw_efficiency"]
    signals = FitSignals(
        bandwidth_ratio=fitted.parameters["busbw_efficiency"] / shipped_bw if shipped_bw else None,
        comm_share=fitted.comm_share, stall_share=fitted.stall_share,
        plateau_speedup=plateau,
        hardware_known=profile is not None, **_exchange(series, ctx, params))
    suspects = rank_suspects(m, fit=signals, profile=profile, telemetry=telemetry)

    sources = [s for s in (series.source,) if s]
    notes = list(ctx.notes)
    if profile is not None and series.gpus[-1] > profile.hardware.total_gpus:
        notes.append(beyond_the_hardware(series.gpus[-1], profile.hardware.total_gpus))
    if fitted.released:
        notes.append(released_note(fitted.released))
    if fitted.anchored:
        notes.append(anchored_note(fitted.rms_log_residual, series.gpus[-1]))
    if telemetry is not None:
        sources += list(telemetry.sources)
        if all(g.util_pct is None for g in telemetry.gpus):
            notes.append(NOTE_IDLE_LOGS)
        # what the importer said of the logs (lines skipped, files left out: issue 35)
        notes += [n for n in telemetry.notes if n not in notes]
    return Diagnosis(
        measured=MeasuredScaling(
            gpus=list(m.gpus), throughput=[float(x) for x in series.throughput],
            unit=series.unit, scaling=series.scaling, baseline_gpus=m.baseline_gpus,
            speedup=_round(m.speedup), efficiency=_round(m.efficiency),
            karp_flatt=_round(m.karp_flatt), karp_flatt_trend=m.trend,
            trend_meaning=TREND_MEANING[m.trend],
            grades=[g.level if g else None for g in grades]),
        grade=None if headline is None else ScalingGrade(
            gpus=headline.gpus, speedup=round(headline.speedup, 4), level=headline.level,
            message=headline.message, sources=list(headline.sources)),
        fit=FittedScaling(
            parameters=fitted.parameters, shipped_parameters=fitted.shipped, gpus=fitted.gpus,
            speedup=fitted.speedup, speedup_low=fitted.speedup_low,
            speedup_high=fitted.speedup_high,
            measured=[n in series.gpus for n in fitted.gpus],
            rms_log_residual=fitted.rms_log_residual, plateau=fitted.plateau,
            released=list(fitted.released), anchored=fitted.anchored,
            plateau_speedup=None if plateau is None else round(plateau, 4),
            amdahl_serial_fraction=round(serial, 6), amdahl_speedup=_round(amdahl)),
        suspects=[SuspectReport(id=s.id, score=round(s.score, 3), title=s.title,
                                evidence=s.evidence, remedy=s.remedy, sources=s.sources)
                  for s in suspects],
        notes=notes,
        sources=sources,
    )


def beyond_the_hardware(measured: int, total: int) -> Text:
    """A run measured on more GPUs than the profile's hardware holds (review 4: 16 GPUs on a
    4-GPU profile passed unsaid): the fit reads the measurement as given, the profile's
    machines and links describe fewer GPUs than ran."""
    return Text(en=f"measured on up to {measured} GPUs, more than the profile's hardware holds "
                   f"({total}): the links and machines it describes are not the ones that ran "
                   "(set hardware.gpus_per_node and hardware.nodes to the measured run's)",
                zh=f"实测最多用了 {measured} 张卡，超过档案硬件的 {total} 张：档案描述的互联和机器"
                   "并不是实际运行的那套（请把 hardware.gpus_per_node 和 hardware.nodes 改成实测时的配置）")
