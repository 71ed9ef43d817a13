"""Diagnose a measured multi-GPU run: "why is my 4-GPU job only 1.8× faster?" (the FAQ, F30).

``diagnose(series, profile, telemetry)`` grades the measured speed-up (F30), computes the
Karp–Flatt serial fraction and its trend (F03), refits the projection's own free parameters
to the measurements and extrapolates with a band, and ranks the suspects with evidence and
remedies. Measurements come from a profile's ``measured`` section or a small CSV; GPU logs
(``nvidia-smi dmon`` / CSV) from ``advisor.hwimport``.
"""

from __future__ import annotations

from advisor.diagnosis.diagnose import diagnose
from advisor.diagnosis.grading import grade, thresholds
from advisor.diagnosis.measurements import (
    MeasuredSeries,
    from_measured_spec,
    from_points,
    parse_measurements_csv,
    read_measurements_csv,
)
from advisor.diagnosis.metrics import karp_flatt, scaling_metrics
from advisor.diagnosis.result import Diagnosis
from advisor.diagnosis.telemetry import GpuSamples, RunTelemetry, from_samples, read_gpu_logs

# Article facts (shared/domain/seed-facts.md) the diagnosis encodes, and where.
CITED_FACTS: dict[str, str] = {
    "F01": "8 GPUs 4-6x in most jobs: the 8-GPU well-tuned threshold (grading)",
    "F03": "Amdahl / Karp-Flatt serial fraction; Amdahl baseline of the extrapolation "
           "(metrics, refit)",
    "F04": "data parallel 8 GPUs ~5-5.5x: the 8-GPU 'normal' threshold (grading)",
    "F07": "all-reduce is the non-parallel part; ring traffic saturates: falling/rising "
           "Karp-Flatt (suspects)",
    "F08": "throughput that falls with more GPUs: communication outgrows compute (suspects)",
    "F09": "a training GPU's machine draws 300-450 W: power-cap remedy (remedies)",
    "F13": "num_workers 2-4 per GPU (suspects, remedies)",
    "F20": "small models: communication longer than compute (suspects)",
    "F21": "GAN / RL alternating training (suspects)",
    "F23": "power supply sizing for 4 GPUs (remedies)",
    "F25": "PCIe vs NVLink: 30 % to 2x (suspects, remedies)",
    "F27": "throttling above 84 degC (suspects)",
    "F28": "GPU utilisation below 80 %: check the data pipeline first (suspects)",
    "F29": "vGPU: '8 GPUs' at the speed of 2 (suspects)",
    "F30": "4 GPUs: 2.5x normal, 3x well tuned, < 2x check communication and data loading; "
           "8 GPUs < 4x: find the lagging GPU with nvidia-smi dmon (grading, suspects)",
}

__all__ = ["CITED_FACTS", "Diagnosis", "GpuSamples", "MeasuredSeries", "RunTelemetry",
           "diagnose", "from_measured_spec", "from_points", "from_samples", "grade",
           "karp_flatt", "parse_measurements_csv", "read_gpu_logs", "read_measurements_csv",
           "scaling_metrics", "thresholds"]
