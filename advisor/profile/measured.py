"""Throughput the user measured at several GPU counts (for the diagnosis, F30)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from advisor.profile.field_meta import StrictSection


class MeasuredPoint(StrictSection):
    gpus: int = Field(ge=1, le=100_000)
    throughput: float | None = Field(default=None, gt=0, le=1e12)
    step_time_s: float | None = Field(default=None, gt=0, le=1e6)

    @model_validator(mode="after")
    def _one_measure(self) -> MeasuredPoint:
        if (self.throughput is None) == (self.step_time_s is None):
            raise ValueError("give either throughput or step_time_s")
        return self


class MeasuredSpec(StrictSection):
    unit: str = Field(default="samples/s", max_length=40)
    scaling: Literal["weak", "strong"] = "weak"
    points: list[MeasuredPoint] = Field(min_length=2, max_length=1000)

    @model_validator(mode="after")
    def _distinct_counts(self) -> MeasuredSpec:
        counts = [p.gpus for p in self.points]
        if len(set(counts)) != len(counts):
            raise ValueError("each GPU count may appear only once")
        kinds = {p.throughput is None for p in self.points}
        if len(kinds) > 1:
            raise ValueError("use throughput for every point, or step_time_s for every point")
        return self
