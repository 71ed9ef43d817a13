"""What a projection returns: per GPU count, speed-up with its band and why it stops scaling."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor.files.model_defaults import empty_list

Bottleneck = Literal["compute", "communication", "input_pipeline", "memory", "synchronisation",
                     "pipeline_bubble", "alternating_training", "virtualization"]


class Projection(BaseModel):
    """Parallel lists, one entry per GPU count in ``gpus`` (ascending). Lists left out start
    empty (``default_factory``: pydantic deep-copies a literal ``[]`` default per instance)."""

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
    notes: list[str] = Field(default_factory=empty_list)
    # the same notes in Simplified Chinese, parallel to ``notes``
    notes_zh: list[str] = Field(default_factory=empty_list)
    # Absolute throughput per GPU count (empty lists: not computed, e.g. a hand-made curve).
    samples_per_s_per_gpu: list[float] = Field(default_factory=empty_list)
    # sequence models only
    tokens_per_s_per_gpu: list[float | None] = Field(default_factory=empty_list)
    # model FLOPs (no recomputation) per second per GPU
    tflops_per_gpu: list[float] = Field(default_factory=empty_list)
    # model FLOPs utilisation: tflops_per_gpu / the GPU's dense peak
    mfu: list[float] = Field(default_factory=empty_list)
    # The split each count runs (large transformers; empty otherwise): "TP 8 x PP 4 x DP 16, ..."
    layout: list[str] = Field(default_factory=empty_list)
    layout_zh: list[str] = Field(default_factory=empty_list)
    tensor_parallel: list[int] = Field(default_factory=empty_list)
    pipeline_parallel: list[int] = Field(default_factory=empty_list)
    data_parallel: list[int] = Field(default_factory=empty_list)
    # model chunks per GPU of an interleaved pipeline schedule (Megatron-LM), 1: none
    pipeline_interleave: list[int] = Field(default_factory=empty_list)
    # micro-batches per step of each data-parallel replica (a pipeline fills its stages with
    # them), as the layout search chose
    micro_batches: list[int] = Field(default_factory=empty_list)
    # GPU memory one may fill (the rest is kept free for fragmentation and the allocator) and
    # what is left of it at each count (negative: does not fit)
    usable_memory_gb: float | None = None
    memory_margin_gb: list[float] = Field(default_factory=empty_list)
    # One run on one GPU (measured, or planned from the run's FLOPs: hypothetical when the
    # model does not fit one GPU); planned_from_size: no measured time was given
    run_hours_one_gpu: float | None = None
    planned_from_size: bool = False

    def at(self, n: int) -> int:
        """Index of GPU count ``n`` (ValueError if it was not projected)."""
        return self.gpus.index(n)
