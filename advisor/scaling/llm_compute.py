"""How fast one GPU computes its share of a transformer layout: the efficiency model.

The time of one micro-batch on one GPU is its matmul work at the achievable matmul rate plus
its element-wise work at the memory bandwidth (a roofline per kind of work, as Calculon and
llm-analysis split it):

* matmuls (the layers' weight matrices, the attention core, the output layer): hardware FLOPs
  / (peak x MAMF share of the generation x ``gemm_share`` x the product's efficiency
  1 / (1 + d0 (1/M + 1/K + 1/N))), with M x K x N the matrices one GPU multiplies (M the
  micro-batch's tokens; K and N the width h, the MLP width f or their tensor-parallel slices
  h/t, f/t) and d0 = ``gemm_half_width``: each operand and the result move bytes in
  proportion to 1 / (one dimension) per FLOP, so a narrow slice costs what it costs in the
  one product where it is narrow, not in all four (a slice h/t is the output width of QKV
  and the inner width of the attention output, while the MLP products keep h on one side).
  The attention core's products stream Q, K and V over the s positions (1 / (1 + 2 d0 / s));
  their s x s result is the scores' traffic below, or stays on chip (flash);
* element-wise work (layer norms, activation functions, dropout, residual adds, soft-max):
  ``activation_traffic`` bytes moved per byte of activations the layer keeps, per pass, at the
  memory bandwidth; a standard attention kernel also streams its s x s scores
  (``score_traffic``), a memory-efficient (flash) kernel does not;
* the optimizer step: every local state read and written once per step;
* the host (issue 31, cause 8): a fine-tune runs its layers as eager PyTorch modules
  (Hugging Face Transformers, PEFT's adapters), each launched kernel by kernel from Python:
  ``host_layer_s`` per layer and pass (the backward counts two, as it launches the input and
  the weight gradients' kernels), whatever the sequence. The GPU runs what the host queued
  while the host goes on, so a micro-batch takes the longer of the two; at short sequences
  the host is the longer (a Qwen-1.8B LoRA step takes 1.0 s at 256 and at 512 tokens).
  DeepSpeed ZeRO-3 adds its per-module fetch and release hooks (``zero3_layer_s``) and keeps
  at most two gathers in flight by blocking the host on their CUDA events
  (partitioned_param_coordinator.py, ``__max_ongoing_fetch_events = 2``, ``synchronize``):
  the host can no longer run ahead, so its time adds to the GPU's. Q-LoRA's dequantisation
  hides nothing behind the host: its small per-matrix kernels are paced by their own launches
  (Qwen-1.8B: Q-LoRA 1.4 s a step where LoRA takes the host's 1.0 s). Pre-training stacks
  (Megatron-LM's fused kernels) launch far fewer kernels per layer, and their published
  runs show no such floor: the term applies to fine-tunes (``StateBytes.eager_layers``).

GPU generation enters through its peak, its MAMF share and its bandwidth: an H100 has 3.2x an
A100's tensor peak but 1.6x its bandwidth, so the same model reaches a lower share of its
peak (MFU). The parameters are fitted on published runs (benchmarks/fit_llm.py, with
leave-one-source-out cross-validation) and stored in resources/scaling/llm_parameters.yaml.
"""

from __future__ import annotations

from dataclasses import fields, replace
from functools import cache

import numpy as np

from advisor.files.builtin_data import load_builtin
from advisor.files.paths import resources_dir
from advisor.files.records import record
from advisor.scaling.layouts.cluster import Cluster
from advisor.scaling.layouts.layout import CK_FULL, CK_NONE, ZERO3, Candidates
from advisor.scaling.layouts.memory import layer_activation_bytes
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import StateBytes

FITTED = ("gemm_share", "gemm_half_width", "activation_traffic", "score_traffic",
          "gradient_overlap", "shard_overlap")


@record
class LlmParams:
    gemm_share: float = 0.8
    gemm_half_width: float = 256.0
    activation_traffic: float = 3.0
    score_traffic: float = 3.0
    gradient_overlap: float = 0.5
    shard_overlap: float = 0.9
    band_log_width: float = 0.15
    context_overhead_gb: float = 1.343  # CUDA context and kernels (HF "model memory anatomy")
    # share of the memory bandwidth a 4-bit weight's dequantisation streams at (small
    # per-matrix kernels, table lookups; fitted on Qwen's LoRA vs Q-LoRA step times by
    # benchmarks/qlora_speed.py)
    dequant_bandwidth_share: float = 1.0
    # host seconds to launch one layer's kernels for one pass of one micro-batch in eager
    # PyTorch (a fine-tune's Hugging Face modules with LoRA adapters; fitted on Qwen's LoRA
    # step times by benchmarks/finetune_speed.py); 0: no host floor
    host_layer_s: float = 0.0
    # the same for DeepSpeed ZeRO-3's per-module fetch / release hooks (fitted likewise on
    # Qwen's ZeRO-3 runs)
    zero3_layer_s: float = 0.0

    def with_values(self, **values: float) -> LlmParams:
        return replace(self, **values)


@cache
def _raw() -> dict:
    path = resources_dir() / "scaling" / "llm_parameters.yaml"
    return load_builtin(path) or {}


@cache
def load_llm_params() -> LlmParams:
    entries = _raw().get("parameters", {})
    known = {f.name for f in fields(LlmParams)}
    return LlmParams(**{k: float(v["value"]) for k, v in entries.items() if k in known})


@cache
def mamf_fraction() -> dict[str, float]:
    return {k: float(v) for k, v in _raw().get("mamf_fraction", {}).items()}


def wide_matmul_tflops(cluster: Cluster, q: LlmParams) -> float:
    """Sustained matmul TFLOP/s of wide matrices: peak x MAMF share x ``gemm_share``."""
    table = mamf_fraction()
    share = table.get(cluster.generation, table.get("unknown", 0.8))
    return cluster.peak_tflops * share * q.gemm_share


def gemm_efficiency(rows: np.ndarray | float, inner: np.ndarray | float,
                    cols: np.ndarray | float, q: LlmParams) -> np.ndarray:
    """Share of the wide-matrix rate that (rows x inner) @ (inner x cols) reaches. Each
    operand and the result move bytes in proportion to 1 / (one of the dimensions) per FLOP,
    so a narrow dimension costs the same whichever it is: 1 / (1 + d0 (1/M + 1/K + 1/N)),
    d0 = ``gemm_half_width`` (one narrow width d alone: d / (d + d0))."""
    return 1.0 / (1.0 + q.gemm_half_width * (1.0 / rows + 1.0 / inner + 1.0 / cols))


def _weight_inverse_widths(shape: ModelShape, layer_params: float | None = None
                           ) -> tuple[float, float]:
    """(a, b) such that one layer's weight products on a tensor-parallel rank of degree t
    take 1 + d0 (1/M + a + b t) times their wide-matrix time. Megatron's split: QKV
    (h x 3h/t) and the first MLP matrix (h x f/t) by columns, the attention output (h/t x h)
    and the second MLP matrix (f/t x h) by rows; 1 / efficiency is linear in the inverse
    widths, so the FLOP-weighted time of the four is that of their weighted inverse widths.
    ``layer_params``: the layer's dense part (an MoE's, outside its routed experts)."""
    h = float(shape.hidden)
    params = shape.layer_params if layer_params is None else layer_params
    ffn = max((params - 4.0 * h * h) / (2.0 * h), h)
    # (FLOP weight, inverse width kept whole, inverse width sliced per rank)
    parts = ((3.0 * h * h, 1.0 / h, 1.0 / (3.0 * h)), (h * h, 1.0 / h, 1.0 / h),
             (h * ffn, 1.0 / h, 1.0 / ffn), (h * ffn, 1.0 / h, 1.0 / ffn))
    total = sum(w for w, _, _ in parts)
    return (sum(w * a for w, a, _ in parts) / total, sum(w * b for w, _, b in parts) / total)


def compute_per_micro_batch_s(shape: ModelShape, c: Candidates, cluster: Cluster,
                              q: LlmParams, states: StateBytes | None = None) -> np.ndarray:
    """Forward + backward (+ recomputation) of one micro-batch on the busiest stage's GPU.
    Pipeline stages hold whole layers; the last also runs the output layer and the loss,
    unless moving a layer off it makes the busiest stage lighter (Llama 3's pipeline,
    DeepSpeed's partitioning by parameters). Frozen weights (LoRA, QLoRA: ``states``) take
    no weight gradient: their matmuls run one pass fewer, the adapters' own three passes
    are added, and 4-bit weights are dequantised every pass, at the share of the memory
    bandwidth their kernels reach (``dequant_bandwidth_share``)."""
    t = c.tp.astype(float)
    tokens = c.micro_batch.astype(float) * shape.sequence  # never int64's wrap (issue 35)
    full = c.checkpointing == CK_FULL
    layer_passes = np.where(full, 4.0, 3.0)
    frozen = states is not None and states.weights_frozen
    weight_passes = layer_passes - 1.0 if frozen else layer_passes
    attention_passes = np.where(c.checkpointing != CK_NONE, 4.0, 3.0)
    weights, attention, output = (f * tokens for f in shape.forward_flops_per_token())
    adapters = 3.0 * weights * states.trainable_fraction if frozen else 0.0
    output_flops = (2.0 if frozen else 3.0) * output / t
    kept = layer_activation_bytes(shape, c, cluster, False)
    scores = layer_activation_bytes(shape, c, cluster, True) - kept
    standard = 0.0 if cluster.flash_attention else 1.0
    layer_bytes = (q.activation_traffic * kept * layer_passes
                   + q.score_traffic * scores * standard * attention_passes)
    if states is not None and states.dequant_bytes:
        layer_bytes = layer_bytes + dequant_bytes_per_layer(shape, c, q, states)
    # the loss: soft-max of the fp32 logits forward, its gradient backward
    output_bytes = 2.0 * q.activation_traffic * 4.0 * tokens * shape.vocab / t
    # seconds per FLOP: the wide-matrix rate x each product's 1 + d0 (1/M + 1/K + 1/N)
    per_flop = 1.0 / (wide_matmul_tflops(cluster, q) * 1e12)
    d0 = q.gemm_half_width
    inv_whole, inv_sliced = _weight_inverse_widths(shape)
    inv_tokens = 1.0 / tokens
    weight_s = per_flop * (1.0 + d0 * (inv_tokens + inv_whole + inv_sliced * t))
    # the attention core's products stream Q, K, V over the s positions; their s x s result
    # is the scores' traffic (below) or stays on chip (flash)
    attention_s = per_flop * (1.0 + 2.0 * d0 / shape.sequence)
    output_s_per_flop = per_flop / gemm_efficiency(tokens, shape.hidden, shape.vocab / t, q)
    bandwidth = cluster.memory_bandwidth_gbs * 1e9
    if shape.is_moe:  # the routed experts' matmuls apart, at their own widths and load
        weights_s = _moe_weight_time(shape, c, weights, weight_passes, adapters, tokens,
                                     per_flop, q)
    else:
        weights_s = (weights * weight_passes + adapters) * weight_s
    layer_s = ((weights_s + attention * attention_passes * attention_s) / (shape.layers * t)
               + layer_bytes / bandwidth)
    output_s = output_flops * output_s_per_flop + output_bytes / bandwidth
    whole = shape.layers * layer_s + output_s
    as_is = np.ceil(shape.layers / c.pp) * layer_s + output_s  # the output on the last stage
    moved = np.ceil((shape.layers + output_s / layer_s) / c.pp) * layer_s  # layers moved off
    return np.where(c.pp > 1, np.minimum(as_is, moved), whole)


def _moe_weight_time(shape: ModelShape, c: Candidates, weights: np.ndarray,
                     weight_passes: np.ndarray, adapters: np.ndarray | float,
                     tokens: np.ndarray, per_flop: float, q: LlmParams) -> np.ndarray:
    """Seconds x (L t) of a mixture of experts' weight matmuls on one micro-batch: the dense
    part (attention, router, shared experts) as a dense layer's; each routed expert multiplies
    its tokens (M = b s k ep / E of them on a rank holding E / ep experts) by h x w / t and
    w / t x h slices (1 / efficiency = 1 + d0 (1/M + 1/h + t/w)), and the busiest rank runs
    ``imbalance`` times its share (``ModelShape.capacity_factor``)."""
    t = c.tp.astype(float)
    d0 = q.gemm_half_width
    dense_share = shape.dense_layer_params / shape.active_layer_params
    inv_whole, inv_sliced = _weight_inverse_widths(shape, shape.dense_layer_params)
    dense_s = per_flop * (1.0 + d0 * (1.0 / tokens + inv_whole + inv_sliced * t))
    routed = np.maximum(tokens * shape.experts_per_token * c.ep / shape.experts, 1.0)
    expert_s = per_flop * (1.0 + d0 * (1.0 / routed + 1.0 / shape.hidden
                                       + t / shape.expert_width)) * shape.imbalance(c.ep)
    return (weights * dense_share * weight_passes + adapters) * dense_s \
        + weights * (1.0 - dense_share) * weight_passes * expert_s


def optimizer_step_s(shape: ModelShape, c: Candidates, cluster: Cluster,
                     states: StateBytes, shards: np.ndarray) -> np.ndarray:
    """Reading and writing every local optimizer state, weight and gradient once per step
    (an MoE's split experts sharded over the replicas that hold them)."""
    dense, experts = shape.stage_params(c.pp)
    local = dense / c.tp / shards
    if shape.is_moe:
        local = local + experts / (c.tp * c.ep) / np.maximum(shards / c.ep, 1.0)
    per_param = states.per_param if not states.weights_frozen else \
        states.trainable_fraction * (2.0 + states.grad_bytes + states.optimizer_bytes)
    return 2.0 * local * per_param / (cluster.memory_bandwidth_gbs * 1e9)


def host_per_micro_batch_s(shape: ModelShape, c: Candidates, q: LlmParams,
                           states: StateBytes | None) -> tuple[np.ndarray, np.ndarray]:
    """(the host's dispatch, DeepSpeed ZeRO-3's hooks) in seconds per micro-batch on the
    busiest stage's GPU (module docstring): ``host_layer_s`` per layer and pass, ZeRO-3's
    ``zero3_layer_s`` likewise where it shards; zero where the layers are not eager modules
    (``StateBytes.eager_layers``). The passes are the compute's: forward, backward (two) and,
    with full recomputation, the forward again; a pipeline stage launches its own layers."""
    if states is None or not states.eager_layers:
        zero = np.zeros(c.size)
        return zero, zero
    layer_passes = np.ceil(shape.layers / c.pp) * np.where(c.checkpointing == CK_FULL, 4.0, 3.0)
    return (q.host_layer_s * layer_passes,
            np.where(c.sharding == ZERO3, q.zero3_layer_s * layer_passes, 0.0))


def dequant_bytes_per_layer(shape: ModelShape, c: Candidates, q: LlmParams,
                            states: StateBytes) -> np.ndarray:
    """Bytes one layer's 4-bit weights stream, at the full bandwidth's rate, to be dequantised
    on every pass of one micro-batch (``dequant_bandwidth_share``; 0 without them)."""
    full = c.checkpointing == CK_FULL
    passes = np.where(full, 3.0, 2.0) if states.weights_frozen else np.where(full, 4.0, 3.0)
    return states.dequant_bytes / q.dequant_bandwidth_share * shape.layer_params / c.tp \
        * passes


def dequant_per_micro_batch_s(shape: ModelShape, c: Candidates, cluster: Cluster,
                              q: LlmParams, states: StateBytes | None) -> np.ndarray:
    """Seconds of one micro-batch's dequantisation on the busiest stage's GPU (QLoRA)."""
    if states is None or not states.dequant_bytes:
        return np.zeros(c.size)
    return np.ceil(shape.layers / c.pp) * dequant_bytes_per_layer(shape, c, q, states) \
        / (cluster.memory_bandwidth_gbs * 1e9)
