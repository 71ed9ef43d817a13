"""Step time of a layout: compute, the communication it cannot hide, and the pipeline bubble.

For the busiest stage's GPU, with m micro-batches per replica and v model chunks per GPU:

    micro-batch  = compute + host + tensor-parallel exchange + expert all-to-alls
                   + max(0, weight gathers / reduce-scatters - shard_overlap x compute)
                   + max(key / value exchange - attention compute, one of its cp passes)
    step         = m x micro-batch + (p - 1) / v x micro-batch      (bubble, Narayanan Sec. 2.2)
                   + stage-boundary sends + gradient reduction not hidden behind the last
                   backward pass + gathers after the optimizer step + the optimizer step
                   + the wait for the slowest of the N GPUs (``waiting.py``)

Host: a fine-tune's eager layers are launched from Python (``llm_compute.
host_per_micro_batch_s``); the GPU runs what was queued while the host goes on, so the host
adds only what outlasts the micro-batch's compute; under DeepSpeed ZeRO-3, which blocks the
host on its gathers, the host's dispatch and its fetch / release hooks add up with the GPU's
work (``StepTime.host_s``).

Sharded weights: one layer's gather and reduce-scatter are always exposed (the first gather
has nothing before it to hide behind, the last reduce-scatter nothing after it).

ZeRO-3 / FSDP pay their gathers every micro-batch: halve the micro-batch and the compute that
hides them halves while the gathers do not (DeepSpeed's ZeRO-3 per-GPU throughput halves with
the micro-batch: Narayanan et al. 2021, Table 2).

Context parallel: each of the cp ranks computes 1 / cp of every sequence's tokens and, with
the causal mask balanced over them (Megatron-LM's and Llama 3's chunk order), 1 / cp of its
attention; ring attention overlaps each key / value pass with the attention of the block
already held, so only what outlasts the attention is exposed, never less than one pass.
"""

from __future__ import annotations

import numpy as np

from advisor.files.records import record
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import CK_FULL, CK_NONE, ZERO1, ZERO3, Candidates
from advisor.scaling.layouts.memory import shard_group
from advisor.scaling.layouts.offload import offload_s
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes
from advisor.scaling.layouts.traffic import Traffic, traffic
from advisor.scaling.llm_compute import (
    LlmParams,
    compute_per_micro_batch_s,
    dequant_per_micro_batch_s,
    host_per_micro_batch_s,
    optimizer_step_s,
)
from advisor.scaling.parameters import load_params
from advisor.scaling.waiting import slowest_wait_share

BACKWARD_SHARE = 2.0 / 3.0  # the backward pass is twice the forward
STEP_TIME_CV = load_params().step_time_cv  # step-to-step noise of any job


@record
class StepTime:
    """Seconds per optimizer step and its parts, arrays parallel to the candidates."""

    compute_s: np.ndarray  # m micro-batches of compute (incl. recomputation)
    communication_s: np.ndarray  # exposed tensor, pipeline and data-parallel traffic
    bubble_s: np.ndarray
    optimizer_s: np.ndarray
    step_s: np.ndarray
    traffic: Traffic
    wait_s: np.ndarray | float = 0.0  # waiting for the slowest GPU (waiting.py)
    host_s: np.ndarray | float = 0.0  # the GPU waiting on the host's dispatch (eager layers)

    @property
    def bottleneck(self) -> list[str]:
        """compute, communication or pipeline_bubble: the largest non-compute part when it
        exceeds a tenth of the step, else compute."""
        names = []
        for comm, bubble, step in zip(self.communication_s, self.bubble_s, self.step_s,
                                      strict=True):
            top = max(comm, bubble)
            if top < 0.1 * step:
                names.append("compute")
            else:
                names.append("communication" if comm >= bubble else "pipeline_bubble")
        return names


def host_copies_s(shape: ModelShape, c: Candidates, cluster: Cluster, states: StateBytes,
                  q: LlmParams, compute_mb: np.ndarray, group: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
    """What offloading to host memory adds (offload.py): per micro-batch and per step."""
    dense, experts = shape.stage_params(c.pp)
    stage = dense / c.tp
    if shape.is_moe:  # offloading runs without expert parallelism: every expert here
        stage = stage + experts / (c.tp * c.ep)
    s = c.sharding
    opt_shard = np.where(s >= ZERO1, group, 1.0)
    weight_shard = np.where(s >= ZERO3, group, 1.0)
    gpus_here = np.minimum(c.gpus, cluster.gpus_per_node).astype(float)
    return offload_s(stage, stage * states.trainable_fraction, states, opt_shard, weight_shard,
                     gpus_here, compute_mb, cluster.host_link_gbs, cluster.host_bandwidth_gbs,
                     q.shard_overlap, BACKWARD_SHARE)


def host_exposed_s(shape: ModelShape, c: Candidates, cluster: Cluster, q: LlmParams,
                   states: StateBytes, compute_mb: np.ndarray) -> np.ndarray:
    """Seconds per micro-batch the GPU waits on the host (module docstring): what the
    dispatch of eager layers outlasts the compute by, or under DeepSpeed ZeRO-3 the dispatch
    and the hooks whole. A 4-bit weight's dequantisation hides nothing: its small kernels,
    one set per matrix and pass, are themselves paced by their launches."""
    dispatch, hooks = host_per_micro_batch_s(shape, c, q, states)
    hiding = compute_mb - dequant_per_micro_batch_s(shape, c, cluster, q, states) / c.cp
    return np.where(c.sharding == ZERO3, dispatch + hooks,
                    np.maximum(dispatch - hiding, 0.0))


def attention_share(shape: ModelShape, c: Candidates) -> np.ndarray:
    """The attention core's share of a micro-batch's FLOPs (forward, backward and what is
    recomputed): what a context-parallel key / value pass can hide behind."""
    layers, attention, output = shape.forward_flops_per_token()
    weight_passes = np.where(c.checkpointing == CK_FULL, 4.0, 3.0)
    attention_passes = np.where(c.checkpointing != CK_NONE, 4.0, 3.0)
    core = attention * attention_passes
    return core / (layers * weight_passes + core + 3.0 * output)


def context_exposed_s(shape: ModelShape, c: Candidates, moved: Traffic,
                      compute_mb: np.ndarray) -> np.ndarray:
    """Seconds per micro-batch of context parallel's key / value exchange not hidden behind
    the attention (module docstring); 0 where cp = 1."""
    if not (c.cp > 1).any():
        return np.zeros(c.size)
    exchange = moved.cp_per_micro_batch
    hidden = attention_share(shape, c) * compute_mb
    return np.where(c.cp > 1, np.maximum(exchange - hidden, exchange / c.cp), 0.0)


def step_time(shape: ModelShape, c: Candidates, cluster: Cluster, states: StateBytes,
              q: LlmParams, grad_reduce_bytes: float) -> StepTime:
    compute_mb = compute_per_micro_batch_s(shape, c, cluster, q, states) / c.cp
    dispatch_mb = host_exposed_s(shape, c, cluster, q, states, compute_mb)
    moved = traffic(shape, c, cluster, grad_reduce_bytes, states.trainable_fraction)
    context = context_exposed_s(shape, c, moved, compute_mb)
    # the first layer's gather of the forward pass has no compute before it to hide behind,
    # nor the last reduce-scatter of the backward pass after it: one layer's share never hides
    first_last = moved.shard_per_micro_batch / np.ceil(shape.layers / c.pp)
    shard_exposed = np.maximum(moved.shard_per_micro_batch - q.shard_overlap * compute_mb,
                               first_last)
    micro = compute_mb + dispatch_mb + moved.tp_per_micro_batch + moved.a2a_per_micro_batch \
        + shard_exposed + context
    m = c.micro_batches.astype(float)
    bubble = np.where(c.pp > 1, (c.pp - 1.0) / c.interleave * micro, 0.0)
    hidden = np.minimum(q.gradient_overlap * moved.grads_per_step, BACKWARD_SHARE * compute_mb)
    grads_exposed = moved.grads_per_step - hidden
    group = shard_group(c, cluster.gpus_per_node)
    shards = np.where(c.sharding >= ZERO1, group, 1.0)
    optimizer = optimizer_step_s(shape, c, cluster, states, shards) \
        if states.optimizer_on_gpu else np.zeros_like(compute_mb)
    host_mb, host_step = host_copies_s(shape, c, cluster, states, q, compute_mb, group)
    communication = m * (moved.tp_per_micro_batch + moved.a2a_per_micro_batch + shard_exposed
                         + context + host_mb) \
        + moved.pp_per_step + grads_exposed + moved.exposed_per_step + host_step
    busy = m * (compute_mb + dispatch_mb) + communication + bubble + optimizer
    # every GPU waits for the slowest at the step's end; the m micro-batches' own jitter
    # averages out (1 / sqrt(m)), as in the data-parallel model (physics.py)
    wait = busy * slowest_wait_share(c.gpus, STEP_TIME_CV) / np.sqrt(m)
    return StepTime(compute_s=m * compute_mb, communication_s=communication, bubble_s=bubble,
                    optimizer_s=optimizer, step_s=busy + wait, traffic=moved, wait_s=wait,
                    host_s=m * dispatch_mb)
