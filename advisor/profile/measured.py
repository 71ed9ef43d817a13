"""Throughput the user measured at several GPU counts (for the diagnosis, F30)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from advisor.profile.bounds import (
    MAX_GPUS,
    MAX_STEP_TIME_S,
    MAX_THROUGHPUT,
    MIN_MEASURED_VALUE,
    MIN_SPEEDUP_RATIO,
    SUPERLINEAR_ALLOWANCE,
)
from advisor.profile.field_meta import StrictSection
from advisor.text.numbers import quantity


class MeasuredPoint(StrictSection):
    gpus: int = Field(ge=1, le=MAX_GPUS)
    throughput: float | None = Field(default=None, ge=MIN_MEASURED_VALUE, le=MAX_THROUGHPUT)
    step_time_s: float | None = Field(default=None, ge=MIN_MEASURED_VALUE, le=MAX_STEP_TIME_S)

    @model_validator(mode="after")
    def _one_measure(self) -> MeasuredPoint:
        if (self.throughput is None) == (self.step_time_s is None):
            raise ValueError("give either throughput or step_time_s")
        return self


def relative_throughput(gpus: Sequence[int], values: Sequence[float], *, step_time: bool,
                        scaling: str) -> list[float]:
    """Each point's work per second (any unit): the value itself, or from seconds per step
    (weak scaling: N GPUs' batches per step; strong: one global batch)."""
    if not step_time:
        return [float(v) for v in values]
    return [(n if scaling == "weak" else 1) / float(t) for n, t in zip(gpus, values,
                                                                      strict=True)]


def speedup_problem(gpus: Sequence[int], values: Sequence[float], *, step_time: bool = False,
                    scaling: str = "weak") -> tuple[int, str, str] | None:
    """The first point (its position in ``gpus``) whose speed-up over the smallest measured
    count is beyond belief, and why (en, zh): more than ``SUPERLINEAR_ALLOWANCE`` above
    linear, or below ``MIN_SPEEDUP_RATIO`` of the smallest count's throughput. None when all
    are within (the bounds keep every derived number finite: no ratio of 10^312)."""
    if len(gpus) < 2:
        return None
    work = relative_throughput(gpus, values, step_time=step_time, scaling=scaling)
    base_at = min(range(len(gpus)), key=lambda i: gpus[i])
    n0, x0 = gpus[base_at], work[base_at]
    for i, (n, x) in enumerate(zip(gpus, work, strict=True)):
        ratio = x / x0
        ideal = n / n0
        if ratio > ideal * (1.0 + SUPERLINEAR_ALLOWANCE):
            return (i,
                f"{n} GPUs measured {quantity(ratio)}x the work per second of {n0}: more than "
                f"{SUPERLINEAR_ALLOWANCE:.0%} above linear ({quantity(ideal)}x), which no "
                "multi-GPU run reaches; check the units and the GPU counts of the points",
                f"{n} 卡的实测每秒工作量是 {n0} 卡的 {quantity(ratio)} 倍：比线性（{quantity(ideal)} 倍）"
                f"高出 {SUPERLINEAR_ALLOWANCE:.0%} 以上，多卡训练不可能达到；请检查各点的单位和卡数")
        if ratio < MIN_SPEEDUP_RATIO:
            return (i,
                f"{n} GPUs measured {quantity(ratio)}x the work per second of {n0}: more than "
                f"{1 / MIN_SPEEDUP_RATIO:,.0f} times slower, which is a unit slip, not "
                "scaling; check the units of the points",
                f"{n} 卡的实测每秒工作量只有 {n0} 卡的 {quantity(ratio)} 倍：慢了 "
                f"{1 / MIN_SPEEDUP_RATIO:,.0f} 倍以上，这是单位错误而非扩展问题；请检查各点的单位")
    return None


class MeasuredSpec(StrictSection):
    unit: str = Field(default="samples/s", max_length=40)
    scaling: Literal["weak", "strong"] = "weak"
    points: list[MeasuredPoint] = Field(min_length=2, max_length=1000)
    # GPU logs recorded during the run (nvidia-smi dmon, -q, query CSV): the diagnosis reads
    # them beside the points (the desktop app's diagnosis page keeps them with the profile)
    logs: list[str] = Field(default_factory=list, max_length=50)

    @model_validator(mode="after")
    def _log_paths(self) -> MeasuredSpec:
        for i, path in enumerate(self.logs):
            if not path.strip() or len(path) > 4096 or "\x00" in path:
                raise PydanticCustomError(
                    "measured_log_path", "a log's path must be a file name of at most 4096 "
                    "characters", {"at_path": ("logs", i),
                                   "message_zh": "日志路径须为不超过 4096 个字符的文件名"})
        return self

    @model_validator(mode="after")
    def _distinct_counts(self) -> MeasuredSpec:
        counts = [p.gpus for p in self.points]
        if len(set(counts)) != len(counts):
            raise ValueError("each GPU count may appear only once")
        kinds = {p.throughput is None for p in self.points}
        if len(kinds) > 1:
            raise ValueError("use throughput for every point, or step_time_s for every point")
        step = self.points[0].throughput is None
        values = [p.step_time_s if step else p.throughput for p in self.points]
        found = speedup_problem(counts, values, step_time=step,  # type: ignore[arg-type]
                                scaling=self.scaling)
        if found is not None:
            i, en, zh = found
            raise PydanticCustomError("measured_speedup", en, {
                "at_path": ("points", i, "step_time_s" if step else "throughput"),
                "message_zh": zh})
        return self
