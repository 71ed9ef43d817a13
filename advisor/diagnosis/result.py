"""What a diagnosis returns (the JSON of ``gpu-advisor diagnose --format json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from advisor.diagnosis.grading import Level
from advisor.text.i18n import Text


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeasuredScaling(_Model):
    """Parallel lists, one entry per measured GPU count (ascending)."""

    gpus: list[int]
    throughput: list[float]
    unit: str
    scaling: Literal["weak", "strong"]
    baseline_gpus: int
    speedup: list[float]  # over one GPU (the baseline count is taken as ideal)
    efficiency: list[float]
    karp_flatt: list[float | None]  # None at the baseline count
    karp_flatt_trend: Literal["flat", "rising", "falling", "unknown"]
    trend_meaning: Text
    grades: list[Level | None]  # None at the baseline count


class ScalingGrade(_Model):
    gpus: int
    speedup: float
    level: Level
    message: Text
    sources: list[str]


class FittedScaling(_Model):
    """The projection refitted to the measurements, at measured and larger counts."""

    model: Literal["projection"] = "projection"
    parameters: dict[str, float]  # refitted values of the projection's free parameters
    shipped_parameters: dict[str, float]  # the projection's defaults, for comparison
    gpus: list[int]
    speedup: list[float]
    speedup_low: list[float]  # 80 % band
    speedup_high: list[float]
    measured: list[bool]  # True where ``gpus`` was measured
    rms_log_residual: float
    plateau: bool  # the fit needed a capacity cap: the speed-up levels off
    # profile assumptions (alternating training F21, vGPU sharing F29, throttling F27) the
    # measurements overruled: the refit lowered them
    released: list[str] = []
    # the model could not follow the measurements (misfit above 5 %): ``speedup`` is its curve
    # moved through the measured points (F30), and a note says so
    anchored: bool = False
    # where one machine's speed-up levels off under the capacity cap, after the alternating
    # training loss of a GAN/RL job (F21); None without a cap
    plateau_speedup: float | None = None
    amdahl_serial_fraction: float  # Amdahl's law alone, fitted to the same points (F03)
    amdahl_speedup: list[float]


class SuspectReport(_Model):
    id: str
    score: float
    title: Text
    evidence: list[Text]
    remedy: Text
    sources: list[str]


class Diagnosis(_Model):
    measured: MeasuredScaling
    grade: ScalingGrade | None
    fit: FittedScaling | None
    suspects: list[SuspectReport]
    notes: list[Text] = []
    sources: list[str] = []  # input files: measurements, profile, GPU logs
