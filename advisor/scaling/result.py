"""What a projection returns: per GPU count, speed-up with its band and why it stops scaling."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Bottleneck = Literal["compute", "communication", "input_pipeline", "memory", "synchronisation",
                     "pipeline_bubble", "alternating_training", "virtualization"]


class Projection(BaseModel):
    """Parallel lists, one entry per GPU count in ``gpus`` (ascending)."""

    model_config = ConfigDict(extra="forbid")

    gpus: list[int]
    nodes: list[int]
    speedup: list[float]
    speedup_low: list[float]
    speedup_high: list[float]
    efficiency: list[float]
    step_time_s: list[float]
    run_hours: list[float]  # wall time of one run at N GPUs
    bottleneck: list[Bottleneck]
    memory_per_gpu_gb: list[float]
    fits: list[bool]
    parallelism: list[str]  # data | zero | fsdp | tensor | pipeline | hybrid, per N
    single_gpu_fits: bool
    notes: list[str] = []
    notes_zh: list[str] = []  # the same notes in Simplified Chinese, parallel to ``notes``

    def at(self, n: int) -> int:
        """Index of GPU count ``n`` (ValueError if it was not projected)."""
        return self.gpus.index(n)
