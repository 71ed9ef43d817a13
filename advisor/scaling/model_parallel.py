"""Tensor (model) and pipeline parallel: split one model over GPUs (# F05, # F06).

Tensor parallel over t GPUs divides the compute by t but exchanges activations every layer
(Megatron-LM: 2 all-reduces forward, 2 backward), never hidden behind compute; replicas of
the t-GPU group then run data parallel across nodes ("hybrid"). Pipeline parallel over p
stages with m micro-batches idles for the bubble (p-1)/(m+p-1). In every mode the data
loader must deliver the job's samples per second; a starved one caps them alike (# F28).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from advisor.files.records import record
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.physics import DataParallelInputs, StepBreakdown, breakdown


@record
class TransformerShape:
    layers: float
    hidden: float
    sequence: float
    activation_bytes: float  # 2 for 16-bit activations, 4 for fp32


def estimated_shape(params_millions: float, layers: int | None, hidden: int | None,
                    sequence: int, activation_bytes: float,
                    width_per_layer: float = 64.0) -> TransformerShape:
    """The transformer shape, filling unknowns from params ~ 12 x layers x hidden^2; with
    neither given, hidden = ``width_per_layer`` x layers (aspect-ratio heuristic, see
    ``transformer_width_per_layer`` in parameters.yaml): L = (params / (12 r^2))^(1/3)."""
    params = params_millions * 1e6
    if layers and hidden:
        return TransformerShape(layers, hidden, sequence, activation_bytes)
    if hidden and not layers:
        layers = max(1, round(params / (12.0 * hidden**2)))
    layers = layers or max(1.0, math.cbrt(params / (12.0 * width_per_layer**2)))
    hidden = hidden or max(64.0, math.sqrt(params / (12.0 * layers)))
    return TransformerShape(float(layers), float(hidden), float(sequence), activation_bytes)


def tensor_parallel(gpus: np.ndarray, ways: np.ndarray, x: DataParallelInputs,
                    shape: TransformerShape, batch: int, p: ScalingParams
                    ) -> tuple[np.ndarray, np.ndarray, StepBreakdown]:
    """(speed-up, exposed activation-exchange seconds, breakdown of the data-parallel part).

    ``ways``: tensor-parallel degree per N (inside one node); N / ways replicas run data
    parallel over the remaining GPUs. F05: two PCIe GPUs reach about 1.5x.
    """
    n = np.asarray(gpus, dtype=float)
    t = np.asarray(ways, dtype=float)
    replicas = np.maximum(n / t, 1.0)
    bw = np.where(t <= 2, x.busbw_pair_gbs or x.busbw_intra_gbs, x.busbw_intra_gbs)
    bw = bw * p.busbw_efficiency
    act_bytes = batch * shape.sequence * shape.hidden * shape.activation_bytes
    exchange = (p.tensor_activation_exchanges_per_layer * shape.layers * 2.0 * (t - 1.0) / t
                * act_bytes / (bw * 1e9))
    group_step = x.step_compute_s / t + exchange
    group_nodes = np.maximum(x.gpus_per_node // t, 1.0)  # t-GPU groups per node
    # F28: the t GPUs of a group consume the same samples, so a node's loader feeds its groups'
    # samples per second, not its GPUs'. Its capacity is in single-GPU steps of the whole
    # model (batch / step_compute_s samples/s); in the group's own step it is that many
    # group_step / step_compute_s: the same samples per second as for data parallel or FSDP.
    capacity = (None if x.loader_capacity is None
                else x.loader_capacity * group_step / x.step_compute_s)
    xg = replace(x, params_millions=x.params_millions / t, step_compute_s=group_step,
                 gpus_per_node=group_nodes, busbw_pair_gbs=None, loader_capacity=capacity)
    part = breakdown(replicas, xg, p)  # the groups run data parallel, one vectorised call
    return part.speedup * x.step_compute_s / group_step, exchange, part


def pipeline_parallel(gpus: np.ndarray, micro_batches: int | None,
                      p: ScalingParams, loader_capacity: float | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """(speed-up, bubble share) of p = N stages; F06: 4 GPUs about 3x, < 2x with m too small.

    One pipeline reads one stream of samples, through its first stage's machine: a starved
    loader (capacity in single-GPU steps, # F28) caps the whole pipeline's speed-up."""
    stages = np.asarray(gpus, dtype=float)
    m = (np.full_like(stages, float(micro_batches)) if micro_batches
         else p.default_microbatches_per_stage * stages)
    bubble = (stages - 1.0) / (m + stages - 1.0)
    s = stages * (1.0 - bubble)
    if loader_capacity is not None:
        s = np.minimum(s, np.maximum(loader_capacity, 1.0))
    return s, bubble
